"""Where a METALLURGENT build picks pack items, and the one-line stats its pickers show."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..base import Report
from ..house_rules import setting
from ..picks import Place
from . import pilots, squads
from .options import OPTIONS
from .schema import CATEGORY_LABELS, EQUIPMENT_TYPE_LABELS, SLOT_CATEGORIES, SLOT_LABELS, SLOTS, Skill, Weapon

MOUNTS = ("core", "left_arm", "right_arm")
UNIT_TYPE_LABELS = {"tank": "Tanks", "apc": "APCs", "ifv": "IFVs", "light_vehicle": "Light vehicles",
                    "helicopter": "Helicopters", "artillery": "Artillery", "anti_air": "Anti-air",
                    "infantry": "Infantry", "command": "Command units"}


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
    if category == "lifepath":
        return " · ".join([*_bonuses(item.attributes), *([item.knowledge.title()] if item.knowledge else [])])
    if category == "profession":
        return " · ".join([*_bonuses(item.attributes), *(k.title() for k in item.knowledges)])
    if category == "specialisation":
        return " · ".join(item.branches)
    if category == "skill":
        return " · ".join(filter(None, [item.branch, f"{item.sp} SP", item.category.title(), item.frequency]))
    if category == "conventional_unit":
        slots = squads.slot_cost(len(item.components))
        return (f"DV {item.defence} · Init {item.initiative} · Move {item.move} · "
                f"{slots} slot{'s' if slots != 1 else ''}")
    return ""


def _bonuses(attributes: dict[str, int]) -> list[str]:
    return [f"{focus.title()} {bonus:+d}" for focus, bonus in attributes.items()]


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


def pilot_places(document: dict[str, Any], catalogue) -> list[Place]:
    """Lifepath and Profession; the Specialisation while its choice is the last event (M-R96: open until saved or
    built on, and a saved one the page shows fixed); the Skills not held, to learn at today's price."""
    history = document.get("history", [])
    spec = spec_of(history)
    places = [Place(field, CATEGORY_LABELS[field], (field,), _set(field), fitted=document.get(field) or "", prompt="—")
              for field in ("lifepath", "profession")]
    if spec is None or "specialise" in history[-1]:
        places.append(Place("specialisation", "Specialisations", ("specialisation",), _specialise, fitted=spec or "",
                            prompt="— not yet (after the first Sortie) —", verb="Choose"))
    held = pilots.replay(pilots.parse(document), pilots.skill_tree(catalogue), Report()).held
    places.append(Place("learn", "Skills to learn", ("skill",), _learn(catalogue), prompt="+ learn a Skill…",
                        meter="sp", candidates=lambda c: [s for s in c.of("skill") if s.key not in held],
                        group=lambda skill: pilots.label(skill.spec), verb="Learn"))
    return places


def spec_of(history: list) -> str | None:
    return next((e["specialise"] for e in history if isinstance(e, dict) and "specialise" in e), None)


def learned(skill: Skill, spec: str | None, house_rules: dict[str, Any]) -> dict[str, Any]:
    """The history event of learning a Skill at today's price (M-R100), by the table's reading of a Pilot without a
    Spec yet."""
    no_spec = setting(OPTIONS, SimpleNamespace(house_rules=house_rules), "no-spec-price")
    return {"learn": skill.key, "paid": pilots.price(skill, spec, no_spec)}


def _set(field: str):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        return {**document, field: key}
    return choose


def _specialise(document: dict[str, Any], key: str) -> dict[str, Any]:
    history = document.get("history", [])
    if history and "specialise" in history[-1]:
        history = history[:-1]  # still open: a new choice replaces it
    return {**document, "history": [*history, {"specialise": key}]}


def _learn(catalogue):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        event = learned(catalogue.items[key], spec_of(document.get("history", [])), document.get("house_rules", {}))
        return {**document, "history": [*document.get("history", []), event]}
    return choose


def enlist_field(platoon: int) -> str:
    return f"platoon-{platoon}-add-unit"


def squad_places(document: dict[str, Any], catalogue) -> list[Place]:
    """A conventional unit picker per Platoon; the rules mark the units that would overfill it (M-R80, M-R81)."""
    return [Place(enlist_field(i), f"Units for {platoon['name']}", ("conventional_unit",), _enlist(i),
                  prompt="+ add a conventional unit…", meter=f"platoon_{i}_slots",
                  group=lambda unit: UNIT_TYPE_LABELS[unit.unit_type])
            for i, platoon in enumerate(document.get("platoons", []))]


def _enlist(platoon: int):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        platoons = [dict(p) for p in document.get("platoons", [])]
        platoons[platoon]["members"] = [*platoons[platoon].get("members", []), {"unit": key}]
        return {**document, "platoons": platoons}
    return choose
