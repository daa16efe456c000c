"""METALLURGENT squads: Platoons, slots, composite Initiative, Deployment Zones, Rule of Twos (digest 2.10, 3.10).

Members are saved Anvils (by share id, resolved by the caller into `linked`) or conventional units from
the squad's pack. A saved build that was deleted is reported, never a crash: the squad still opens.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..base import BuildError, Catalogue, Detail, Linked, Meter, Report, Stat, member_errors, pack_problems, parse_as
from ..house_rules import setting
from .options import OPTIONS
from .rules import deployment_zone
from .schema import SquadBuild

PLATOON_SLOTS = 4  # M-R80
MAX_UNITS = 4  # M-R80
ANVIL_SLOTS = 4  # M-R81
RECOMMENDED_PLAYERS, MAX_PLAYERS = 4, 5  # M-R85


def slot_cost(components: int) -> int:
    """M-R81: three Components or fewer take one slot, more take two (Anvils take all four)."""
    return 1 if components <= 3 else 2


@dataclass(slots=True)
class Unit:
    """A Platoon's member as the squad's pages show it."""

    path: str
    name: str
    kind: str  # "anvil", "unit" or "missing"
    slots: int
    initiative: int | None
    legal: bool = True
    commander: bool = False
    ref: str = ""
    detail: str = ""  # its one-line summary: type, Components and DV, or chassis and Pilot


@dataclass(slots=True)
class Platoon:
    """A Platoon's slots (M-R81), composite Initiative (M-R82) and Deployment Zone (M-D07)."""

    index: int
    name: str
    slots: int
    initiative: int | None  # None without a unit of known Initiative
    zone: str  # "—" without an Initiative
    explain: str  # how the Initiative was worked out
    units: list[Unit]


@dataclass(slots=True)
class TurnEntry:
    """A Platoon's turn in the Rule of Twos order against the opponent (M-R83)."""

    team: str  # "ours" or "theirs"
    name: str
    initiative: int
    acts_at: int  # its Initiative, or less where the Rule of Twos moved it


@dataclass(slots=True)
class SquadDetail(Detail):
    """What the squad's pages and sheet show besides its stats; a squad naming it reads its Platoons too."""

    platoons: list[Platoon] = field(default_factory=list)
    opponent: str | None = None  # the opposing saved squad's name, once it opens as a squad
    turn_order: list[TurnEntry] = field(default_factory=list)  # M-R83, against that opponent


def parse(document: Any) -> SquadBuild:
    return parse_as(SquadBuild, document)


def links(squad: SquadBuild) -> list[str]:
    refs = [m.build for p in squad.platoons for m in p.members if m.build]
    return refs + ([squad.opponent] if squad.opponent else [])


def check_keys(squad: SquadBuild, catalogue: Catalogue) -> None:
    problems = pack_problems(squad, catalogue)
    for i, platoon in enumerate(squad.platoons):
        for j, member in enumerate(platoon.members):
            if member.unit and catalogue.categories.get(member.unit) != "conventional_unit":
                problems.append({"path": f"platoons[{i}].members[{j}].unit",
                                 "message": f"'{member.unit}' is not a conventional unit in {catalogue.pack}"})
    if problems:
        raise BuildError(problems)


def resolve_member(path: str, member, catalogue: Catalogue, linked: dict[str, Linked | None], report: Report) -> Unit:
    if member.unit:
        unit = catalogue.items[member.unit]
        return Unit(path, unit.name, "unit", slot_cost(len(unit.components)), unit.initiative,
                    commander=unit.commander, ref=member.unit,
                    detail=f"{unit.unit_type.replace('_', ' ')} · {len(unit.components)} Component{'s' if len(unit.components) != 1 else ''} · DV {unit.defence}")
    link = linked.get(member.build)
    if link is None:
        report.add("HP-LINK", "error", path,
                   f"The saved build {member.build} no longer exists (deleted, or the link was mistyped).",
                   "Remove it from the Platoon or add the Anvil again.")
        return Unit(path, f"missing build {member.build}", "missing", 0, None, legal=False, ref=member.build)
    if link.kind != "anvil":
        report.add("HP-LINK", "error", path, f"{link.name} is a {link.kind}, not an Anvil: Platoons hold units.",
                   "Put the Pilot in an Anvil, and the Anvil in the Platoon.")
        return Unit(path, link.name, "missing", 0, None, legal=False, ref=member.build)
    initiative = link.report.stats.get("initiative")
    member_errors(report, path, link.name, (i.code for i in link.report.errors))
    document = link.document
    return Unit(path, link.name, "anvil", ANVIL_SLOTS, initiative.value if initiative else None,
                legal=link.report.legal, ref=member.build,
                commander=document.get("task") == "commander" or link.report.detail.command,
                detail=" · ".join(filter(None, [
                    "Anvil", link.report.stats["chassis"].value if "chassis" in link.report.stats else "",
                    f"Pilot {link.report.detail.pilot.name}" if link.report.detail.pilot else ""])))


def validate(build: Any, catalogue: Catalogue, linked: dict[str, Linked | None] | None = None) -> Report:
    squad = parse(build)
    check_keys(squad, catalogue)
    linked = linked or {}
    report = Report(detail=SquadDetail())
    platoons = []
    all_units: list[Unit] = []
    for i, platoon in enumerate(squad.platoons):
        path = f"platoons[{i}]"
        units = [resolve_member(f"{path}.members[{j}]", m, catalogue, linked, report)
                 for j, m in enumerate(platoon.members)]
        all_units += units
        slots = sum(u.slots for u in units)
        if not units:
            report.add("M-R80", "error", path, f"{platoon.name} has no units; a Platoon has 1 to {MAX_UNITS}.",
                       "Add a unit or remove the Platoon.")
        elif len(units) > MAX_UNITS:
            report.add("M-R80", "error", path, f"{platoon.name} has {len(units)} units; at most {MAX_UNITS}.",
                       "Split it into two Platoons.")
        if slots > PLATOON_SLOTS:
            shares = ", ".join(f"{u.name} {u.slots}" for u in units)
            report.add("M-R81", "error", path,
                       f"{platoon.name} fills {slots} of {PLATOON_SLOTS} slots ({shares}): an Anvil takes all four, "
                       f"a unit with more than three Components two, others one.", "Move units to another Platoon.")
        known = [u.initiative for u in units if u.initiative is not None]
        rounding = math.floor if setting(OPTIONS, squad, "platoon-initiative") == "down" else math.ceil
        initiative = rounding(sum(known) / len(known)) if known else None  # M-R82, rounded up (M-R00)
        platoons.append(Platoon(
            i, platoon.name, slots, initiative,
            deployment_zone(initiative, setting(OPTIONS, squad, "negative-initiative"))
            if initiative is not None else "—",
            (f"{rounding.__name__}(({' + '.join(str(v) for v in known)}) / {len(known)}) (M-R82)"
             if known else "no unit with a known Initiative"),
            units))
        report.meters.append(Meter(f"platoon_{i}_slots", f"{platoon.name} slots", slots, PLATOON_SLOTS, "", path))
    anvils = sum(u.kind == "anvil" for u in all_units)
    players = squad.players or anvils
    if players >= MAX_PLAYERS + 1:
        report.add("M-R85", "error", "players",
                   f"{players} players: the rulebook says never to play METALLURGENT with 6 or more.",
                   f"Keep to {RECOMMENDED_PLAYERS} players, {MAX_PLAYERS} at most.")
    elif players == MAX_PLAYERS:
        report.add("M-R85", "warning", "players", f"{players} players is possible but slow; 2 to 4 is recommended.",
                   "Consider a fourth-player cap.")
    commanders = [u for u in all_units if u.commander]
    if len(commanders) > 1:
        report.add("M-R75", "warning", commanders[1].path,
                   f"{len(commanders)} Commanders ({', '.join(u.name for u in commanders)}): generally no more than "
                   f"one should be on the field.", "Keep one Commander and guard it well.")
    report.stats["platoons"] = Stat("Platoons", len(platoons), "each with 4 slots (M-R80)")
    report.stats["units"] = Stat("Units", len(all_units), f"{anvils} Anvils, {len(all_units) - anvils} other units")
    report.stats["players"] = Stat("Players", players, "one per Anvil unless set" if squad.players is None else "as set")
    report.detail.platoons = platoons
    opponent = linked.get(squad.opponent) if squad.opponent else None
    if squad.opponent and (opponent is None or opponent.kind != "squad"):
        report.add("HP-LINK", "warning", "opponent", f"The opposing squad {squad.opponent} is not a saved squad.",
                   "Pick another opponent.")
    elif opponent is not None:
        ours = [{"team": "ours", "name": p.name, "initiative": p.initiative}
                for p in platoons if p.initiative is not None]
        theirs = [{"team": "theirs", "name": p.name, "initiative": p.initiative}
                  for p in opponent.report.detail.platoons if p.initiative is not None]
        report.detail.opponent = opponent.name
        report.detail.turn_order = turn_order(ours + theirs)
        # Hardpoint places nothing on the map, so M-R86 is a note for the table, given once there are two sides.
        report.add("M-R86", "info", "opponent",
                   f"{opponent.name} deploys in its own side's Deployment Zones: hostile units never start in the "
                   f"players' zone, though friendly NPCs may share it.")
    return report


def turn_order(entries: list[dict[str, Any]]) -> list[TurnEntry]:
    """M-R83 Rule of Twos: no team acts three times in a row.

    Highest Initiative acts first (ties keep the given order: a roll-off decides at the table, M-R84).
    Of three or more in a row, the lowest drops to act right after the next enemy, shown with that enemy's
    Initiative less one, as in the rulebook's example (L1024). Each entry is {team, name, initiative}.
    """

    order = [TurnEntry(e["team"], e["name"], e["initiative"], e["initiative"])
             for e in sorted(entries, key=lambda e: -e["initiative"])]
    for _ in range(len(order) ** 2):
        run = _first_run_of_three(order)
        if run is None:
            break
        lowest = run
        enemy = next((k for k in range(lowest + 1, len(order)) if order[k].team != order[lowest].team), None)
        if enemy is None:
            break  # nobody left to interleave with: the run stands
        unit = order.pop(lowest)
        unit.acts_at = order[enemy - 1].acts_at - 1
        order.insert(enemy, unit)
    return order


def _first_run_of_three(order: list[TurnEntry]) -> int | None:
    """Index of the lowest (last) member of the first run of three or more same-team entries."""
    for k in range(2, len(order)):
        if order[k].team == order[k - 1].team == order[k - 2].team:
            while k + 1 < len(order) and order[k + 1].team == order[k].team:
                k += 1
            return k
    return None
