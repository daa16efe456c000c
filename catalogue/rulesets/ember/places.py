"""Where an Ember build picks pack items, and the one-line stats its pickers show."""
from __future__ import annotations

from typing import Any

from ..picks import Place
from .schema import SLOTS

SLOT_LABELS = {"torso": "Torso", "backpack": "Backpack", "chassis": "Chassis", "left_arm": "Left Arm",
               "right_arm": "Right Arm"}
MAX_DRONES, MAX_OF_A_KIND = 24, 12  # Drone rows a squad holds; Drones one row counts


def summary(category: str, item: Any) -> str:
    """The values a player compares between cards: the card's own, and the format's points."""
    if category == "part":
        structure = f"Structure {item.structure}" if item.structure is not None else "no Structure"
        handheld = " · Handheld" if item.handheld else ""
        return (f"Armor {item.armor} · {structure} · Dodge {item.dodge} · EV {item.electronic}{handheld} · "
                f"{item.cost} pts")
    if category == "pilot":
        return f"ID {item.id_number} · {item.faction} · Link {item.max_link} · {item.cost} pts"
    if category == "drone":
        return (f"Armor {item.armor} · Dodge {item.dodge} · Move {item.movement_range} · "
                f"{item.stance.title()} stance · {item.cost} pts")
    return ""


def mech_places(document: dict[str, Any], catalogue) -> list[Place]:
    """A Part picker per slot, offering every Part card (the slot's own first: E-R02 names the others), and the
    Pilot's."""
    parts = document.get("parts") or {}
    places = [Place(f"part-{slot}", f"Parts for the {SLOT_LABELS[slot]}", ("part",), _fit(slot),
                    fitted=parts.get(slot) or "", prompt="— none —", candidates=_own_slot_first(slot),
                    group=_slot_group) for slot in SLOTS]
    places.append(Place("pilot", "Pilots", ("pilot",), _fly, fitted=document.get("pilot") or "",
                        prompt="choose a Pilot…"))
    return places


def squad_places(document: dict[str, Any], catalogue) -> list[Place]:
    return [Place("add-drone", "Drones", ("drone",), _add_drone, prompt="+ add a Drone…", meter="points")]


def with_drone(drones: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """The squad's Drone rows with one more of a kind: one row a kind, so a kind it has counts one more."""
    same = next((i for i, row in enumerate(drones) if row["drone"] == key), None)
    if same is None:
        return [*drones, {"drone": key, "count": 1}] if len(drones) < MAX_DRONES else list(drones)
    raised = {**drones[same], "count": min(MAX_OF_A_KIND, drones[same]["count"] + 1)}
    return [*drones[:same], raised, *drones[same + 1:]]


def _fit(slot: str):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        # Its Discard side and its secrecy were chosen for the card the slot held, and go with it.
        return {**document, "parts": {**(document.get("parts") or {}), slot: key},
                "discarded": [s for s in document.get("discarded", []) if s != slot],
                "secret": [s for s in document.get("secret", []) if s != slot]}
    return choose


def _own_slot_first(slot: str):
    def candidates(catalogue) -> list[Any]:
        return sorted(catalogue.of("part"), key=lambda part: (part.slot != slot, SLOTS.index(part.slot)))
    return candidates


def _slot_group(part: Any) -> str:
    return f"{SLOT_LABELS[part.slot]} Parts"


def _fly(document: dict[str, Any], key: str) -> dict[str, Any]:
    return {**document, "pilot": key}


def _add_drone(document: dict[str, Any], key: str) -> dict[str, Any]:
    return {**document, "drones": with_drone(document.get("drones", []), key)}
