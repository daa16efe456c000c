"""Where a MEGA MERCS build picks pack items, and the one-line stats its pickers show."""
from __future__ import annotations

from typing import Any

from ..picks import Place
from .cells import SHORT
from .schema import Chassis

UNIT_TYPES = {"mecha": "Mecha", "tank": "Tanks", "vehicle": "Vehicles", "vtol": "VTOL"}
SUPPORT = {"infantry": "Infantry squads", "aircraft": "Support aircraft"}


def summary(category: str, item: Any) -> str:
    """The numbers a player compares between cards of one kind."""
    if category == "chassis":
        agility = "—" if item.agility is None else item.agility
        return f"{item.role} · HP {item.hp} · Agility {agility} · Movement {item.movement} · {item.cost} cr"
    if category == "weapon":
        first = item.profiles[0]
        damage = first.damage_type.replace("_", " ")
        damage = damage if first.damage_type == "small_arms" else f"{first.damage} {damage}"
        more = f" · +{len(item.profiles) - 1} more" if len(item.profiles) > 1 else ""
        return (f"Size {item.size} · {_types(item)} · Acc {first.accuracy} · Range {first.range} · "
                f"RoF {first.rof} · {damage}{more} · {item.cost} cr")
    if category == "equipment":
        gives = [f"{b.stat.capitalize()} {b.value:+d}" for b in item.bonuses] + [a.label for a in item.attributes]
        return " · ".join([f"Size {item.size}", _types(item), *gives, f"{item.cost} cr"])
    if category == "drone":
        flying = ", flying" if item.flying else ""
        return (f"{item.size.capitalize()}{flying} · HP {item.hp} · Movement {item.movement} · E-War {item.ewar} · "
                f"{item.cost} cr")
    if category == "infantry":
        return (f"{item.members} members · ISH {item.ish} · CQC {item.cqc} · Movement {item.movement} · "
                f"{item.cost} cr")
    if category == "aircraft":
        return f"AHP {item.ahp} · Agility {item.agility} · E-War {item.ewar} · {item.cost} cr"
    return ""


def _types(item: Any) -> str:
    return "/".join(SHORT[t] for t in item.types)


def unit_places(document: dict[str, Any], catalogue) -> list[Place]:
    """The chassis; then, once there is one, a picker per hard-point offering every weapon and equipment card,
    those sharing one of its type symbols first (MM-R02 marks the others)."""
    places = [Place("chassis", "Chassis", ("chassis",), _chassis(catalogue), fitted=document.get("chassis") or "",
                    prompt="choose a chassis…", candidates=_by_unit_type, group=lambda c: UNIT_TYPES[c.unit_type])]
    chassis = catalogue.items.get(document.get("chassis") or "")
    for hardpoint in chassis.hardpoints if isinstance(chassis, Chassis) else []:
        name = hardpoint.name
        places.append(Place(f"add-{hardpoint.key}", f"Weapons and equipment for the {name}", ("weapon", "equipment"),
                            _mount(hardpoint.key), prompt=f"+ mount on the {name}…", meter=f"hp-{hardpoint.key}",
                            candidates=_sharing_first(hardpoint), group=_fit_group(hardpoint), verb="Mount"))
    return places


def _by_unit_type(catalogue) -> list[Any]:
    order = list(UNIT_TYPES)
    return sorted(catalogue.of("chassis"), key=lambda c: order.index(c.unit_type))


def _shares(item: Any, hardpoint: Any) -> bool:
    return bool(set(item.types) & set(hardpoint.types))


def _sharing_first(hardpoint: Any):
    def candidates(catalogue) -> list[Any]:
        return sorted(catalogue.of("weapon") + catalogue.of("equipment"), key=lambda i: not _shares(i, hardpoint))
    return candidates


def _fit_group(hardpoint: Any):
    def group(item: Any) -> str:
        return "Shares a type symbol" if _shares(item, hardpoint) else "Other types: will not fit (MM-R02)"
    return group


def _chassis(catalogue):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        # A new chassis keeps what still has a hard-point of the same name to go on.
        keys = {h.key for h in catalogue.items[key].hardpoints}
        return {**document, "chassis": key, "mounts": [m for m in document.get("mounts", []) if m["hardpoint"] in keys]}
    return choose


def _mount(hardpoint: str):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        return {**document, "mounts": [*document.get("mounts", []), {"item": key, "hardpoint": hardpoint}]}
    return choose


def company_places(document: dict[str, Any], catalogue) -> list[Place]:
    """A drone picker, and one for each support section."""
    places = [Place("add-drone", "Drones", ("drone",), _adds("drones", add_drone), prompt="+ add a drone…",
                    meter="credits")]
    places += [Place(f"add-{section}", label, (section,), _adds(section, add_support), prompt="+ add…",
                     meter="credits") for section, label in SUPPORT.items()]
    return places


def add_drone(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """A new drone goes with the unit the last one went with (the first unit at first) until its controller is
    chosen: each drone is its own line, deployed or docked on its own (MM-R13, MM-R14)."""
    controller = rows[-1]["controller"] if rows else 0
    return [*rows, {"drone": key, "controller": controller, "docked": False}]


def add_support(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    # A line of its own even when the company has the squad: raising its count instead would redraw no row, and
    # the page's count field would fall behind the build.
    return [*rows, {"item": key, "count": 1}]


def _adds(section: str, add):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        return {**document, section: add(document.get(section, []), key)}
    return choose
