"""Where a METALLURGENT build picks pack items, and the one-line stats its pickers show."""
from __future__ import annotations

from typing import Any

from ..picks import Place
from .schema import EQUIPMENT_TYPE_LABELS, SLOT_CATEGORIES, SLOT_LABELS, SLOTS, Weapon

MOUNTS = ("core", "left_arm", "right_arm")


def summary(category: str, item: Any) -> str:
    """The numbers a player compares between parts of one slot."""
    if category == "core":
        return f"DV {item.defence} · {item.hardpoints} HP · Block {item.block_bonus} · {item.load} ST"
    if category == "mobility_base":
        top = item.load_tolerance[-1].max_load
        return f"{item.chassis.replace('_', '-').title()} · Cruise {item.cruising_speed} · up to {top} ST"
    if category == "standard_arm":
        return f"Str {item.strength} · {item.hardpoints} HP · Agi {item.agility:+d} · {item.load} ST"
    if category == "weapon_arm":
        w = item.weapon
        return f"{w.weapon_type} {w.damage} {w.damage_type} · Rng {w.range} · {item.load} ST"
    if category == "generator":
        return (f"{item.cooling.title()} · EN {item.en_output}/{item.en_capacity} · Heat Tol {item.heat_tolerance}"
                f" · {item.load} ST")
    if category == "electronics":
        return f"Intercept {item.intercept_bonus} · Camera {item.camera_modifier:+d} · {item.load} ST"
    if category == "fcs":
        return f"{item.targeting_type.title()} · Rng {item.reliable_range}/{item.max_range}"
    if category == "weapon":
        return (f"{item.weapon_class[0].upper()} · {item.damage} {item.damage_type} · Rng {item.range} · "
                f"Size {item.size} · {item.load} ST")
    if category == "equipment":
        return f"{EQUIPMENT_TYPE_LABELS[item.type]} · Size {item.size} · {item.load} ST"
    return ""


def gear_group(item: Any) -> str:
    return f"{item.weapon_class.title()} weapons" if isinstance(item, Weapon) else "Equipment"


def anvil_places(document: dict[str, Any], catalogue) -> list[Place]:
    """A part picker per Component slot; a Gear picker per Core or Standard Arm that has Hardpoints."""
    parts = document.get("parts") or {}
    places = [Place(f"part-{slot}", f"{SLOT_LABELS[slot]} parts", SLOT_CATEGORIES[slot], _fit(slot),
                    fitted=parts.get(slot) or "", prompt="— none —", meter="load") for slot in SLOTS]
    for mount in MOUNTS:
        part = catalogue.items.get(parts.get(mount) or "")
        if part is not None and "hardpoints" in type(part).model_fields:
            places.append(Place(f"add-{mount}", f"Gear for the {SLOT_LABELS[mount]}", ("weapon", "equipment"),
                                _mount(mount), prompt=f"+ Mount Gear on the {SLOT_LABELS[mount]}…",
                                meter=f"{mount}_hardpoints", group=gear_group, verb="Mount"))
    return places


def _fit(slot: str):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        return {**document, "parts": {**(document.get("parts") or {}), slot: key}}
    return choose


def _mount(mount: str):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        return {**document, "gear": [*document.get("gear", []), {"item": key, "mount": mount, "active": True}]}
    return choose
