"""E-R25, secret configuration: a Part with a "secret configuration" entry may be hidden from the opponent, who may
otherwise view the Mech's functions and its Control Panel (L248). On a share link a Mech's secret Parts are masked:
the slot still counts as filled, and nothing else of the Part shows, not its points either. What counts them (a
squad's points limit) is decided by the server with the whole Mech, and only the verdict is shown."""
from __future__ import annotations

from typing import Any, Mapping

from ..base import Catalogue
from ..spec import Secrecy
from .schema import SLOTS, PartCard


def may_hide(card: Any, slot: str, discarded: bool) -> bool:
    """Only a card with a secret configuration, in its own slot, is hidden (E-R25). A slot marked secret whose card
    breaks a rule stays in view, so a share link never shows a legal Mech that is not one."""
    return isinstance(card, PartCard) and card.secret and card.slot == slot and (card.handheld or not discarded)


def public(document: dict[str, Any], catalogue: Catalogue | None) -> dict[str, Any]:
    parts = dict(document.get("parts") or {})
    discarded = document.get("discarded") or []
    hidden = set(document.get("masked") or [])
    for slot in document.get("secret") or []:
        if slot in parts and (catalogue is None or may_hide(catalogue.items.get(parts[slot]), slot, slot in discarded)):
            hidden.add(slot)
            del parts[slot]
    if not hidden:
        return document
    return {**document, "parts": parts, "masked": [slot for slot in SLOTS if slot in hidden],
            "discarded": [slot for slot in discarded if slot not in hidden]}


def masked(document: Mapping[str, Any]) -> list[str]:
    return [f"masked.{slot}" for slot in document.get("masked") or []]


def without_masked(document: dict[str, Any]) -> dict[str, Any]:
    hidden = set(document.get("masked") or [])
    return {**{k: v for k, v in document.items() if k != "masked"},
            "secret": [slot for slot in document.get("secret") or [] if slot not in hidden]}


SECRECY = Secrecy(public, masked, without_masked)
