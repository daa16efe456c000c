"""E-R25, secret configuration: a Part with a "secret configuration" entry may be hidden from the opponent, who may
otherwise view the Mech's functions and its Control Panel (L248). On a share link a Mech's secret Parts are masked:
the slot still counts as filled, and the Part's points still count towards the squad's (its card, actions and
values are what the rulebook hides; the points total is the table's to check)."""
from __future__ import annotations

from typing import Any, Mapping

from ..base import Catalogue
from ..spec import Secrecy
from .schema import PartCard


def public(document: dict[str, Any], catalogue: Catalogue | None) -> dict[str, Any]:
    parts = dict(document.get("parts") or {})
    masked = dict(document.get("masked") or {})
    for slot in document.get("secret") or []:
        if slot in parts:
            card = catalogue.items.get(parts[slot]) if catalogue else None
            masked[slot] = card.cost if isinstance(card, PartCard) else 0
            del parts[slot]
    if not masked:
        return document
    return {**document, "parts": parts, "masked": masked,
            "discarded": [slot for slot in document.get("discarded") or [] if slot not in masked]}


def masked(document: Mapping[str, Any]) -> list[str]:
    return [f"masked.{slot}" for slot in document.get("masked") or {}]


def without_masked(document: dict[str, Any]) -> dict[str, Any]:
    hidden = document.get("masked") or {}
    return {**{k: v for k, v in document.items() if k != "masked"},
            "secret": [slot for slot in document.get("secret") or [] if slot not in hidden]}


SECRECY = Secrecy(public, masked, without_masked)
