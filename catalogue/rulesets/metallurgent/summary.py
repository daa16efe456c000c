"""Each METALLURGENT kind in a few lines of text (Kind.summary): an Anvil's Components and Gear by mount, a Pilot's
Spec, SP and Skills, a squad's Platoons and who is in them."""
from __future__ import annotations

from ..base import Catalogue, Linked, Report
from ..spec import Member, Summary
from .schema import SLOT_LABELS, SLOTS, AnvilBuild, PilotBuild, SquadBuild


def anvil(build: AnvilBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    parts = [(SLOT_LABELS[slot], _name(catalogue, key) + _condition(build, slot))
             for slot in SLOTS if (key := getattr(build.parts, slot))]
    for mount in ("core", "left_arm", "right_arm"):
        gear = [_name(catalogue, g.item) for g in build.gear if g.mount == mount]
        if gear:
            parts.append((f"{SLOT_LABELS[mount]} Gear", ", ".join(gear)))
    if build.pilot:
        pilot = linked.get(build.pilot)
        parts.append(("Pilot", pilot.name if pilot else "a Pilot no longer saved"))
    return Summary(Summary.stats_of(report, ("defence", "cruising_speed", "initiative", "en_capacity", "heat",
                                             "fcs_range")), tuple(parts))


def pilot(build: PilotBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    skills = ", ".join(skill.name for skill in report.detail.skills)
    return Summary(Summary.stats_of(report, ("mara", "specialisation", "sp_available")),
                   (("Skills", skills),) if skills else ())


def squad(build: SquadBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    """A member per unit, under its Platoon's name: a saved Anvil by its link, a conventional unit by its name."""
    members = []
    for platoon in report.detail.platoons:
        for unit in platoon.units:
            share_id = unit.ref if unit.kind == "anvil" else ""
            members.append(Member(unit.name, f"{platoon.name}; {unit.detail}" if unit.detail else platoon.name,
                                  share_id))
    return Summary(Summary.stats_of(report, ("platoons", "units", "players")), members=tuple(members))


def _name(catalogue: Catalogue, key: str) -> str:
    item = catalogue.items.get(key)
    return item.name if item is not None else key


def _condition(build: AnvilBuild, slot: str) -> str:
    """M-R07: damage carried between Sorties is part of the build, so its text says so."""
    state = build.condition.get(slot, "intact")
    return "" if state == "intact" else f" ({state})"
