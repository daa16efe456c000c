"""MEGA MERCS companies: saved or written-in units, their drones (MM-R13, MM-R14), infantry and support aircraft,
and the credit budget (MM-R20). A saved unit that was deleted is reported, never a crash."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base import BuildError, Catalogue, Detail, Linked, Meter, Report, Stat, member_errors, pack_problems, parse_as
from ..house_rules import setting
from . import rules
from .rules import OPTIONS
from .schema import Aircraft, CompanyBuild, Drone, InfantrySquad, UnitBuild


@dataclass(slots=True)
class Member:
    """One roster line: what it is, what it costs, and what it lends the company's drones."""

    path: str
    name: str
    kind: str  # "unit", "drone", "infantry", "aircraft" or "missing"
    credits: int = 0
    legal: bool = True
    detail: str = ""
    ref: str = ""
    controllers: int = 0
    docking: int = 0
    codes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class CompanyDetail(Detail):
    roster: list[Member] = field(default_factory=list)  # the units, then drones, infantry and aircraft
    budget: int | None = None  # MM-R20: the credit cap (the company's, else the table's); None: no cap


def parse(document: Any) -> CompanyBuild:
    return parse_as(CompanyBuild, document)


def links(company: CompanyBuild) -> list[str]:
    return [u.build for u in company.units if u.build]


def check_keys(company: CompanyBuild, catalogue: Catalogue) -> None:
    problems = pack_problems(company, catalogue)
    for name, model in (("drones", Drone), ("infantry", InfantrySquad), ("aircraft", Aircraft)):
        for i, entry in enumerate(getattr(company, name)):
            key = entry.drone if name == "drones" else entry.item
            if not isinstance(catalogue.items.get(key), model):
                label = {"drones": "drone", "infantry": "infantry squad", "aircraft": "support aircraft"}[name]
                problems.append({"path": f"{name}[{i}].{'drone' if name == 'drones' else 'item'}",
                                 "message": f"'{key}' is not a {label} in {catalogue.pack}"})
    if problems:
        raise BuildError(problems)


def unit_member(path: str, entry, catalogue: Catalogue, linked: dict[str, Linked | None], report: Report) -> Member:
    if entry.unit is not None:
        document = UnitBuild(pack=catalogue.pack, extensions=list(catalogue.extensions), name=entry.unit.name,
                             chassis=entry.unit.chassis, mounts=entry.unit.mounts)
        try:
            unit_report = rules.validate(document, catalogue)
        except BuildError as exc:
            raise BuildError([{**p, "path": f"{path}.unit.{p['path']}"} for p in exc.problems]) from None
        return summarised(path, entry.unit.name, unit_report, report, ref="")
    link = linked.get(entry.build)
    if link is None:
        report.add("HP-LINK", "error", path,
                   f"The saved unit {entry.build} no longer exists (deleted, or the link was mistyped).",
                   "Remove it from the company or add the unit again.")
        return Member(path, f"missing build {entry.build}", "missing", legal=False, ref=entry.build)
    if link.kind != "unit":
        report.add("HP-LINK", "error", path, f"{link.name} is a {link.kind}, not a unit.", "Add a unit's link.")
        return Member(path, link.name, "missing", legal=False, ref=entry.build)
    return summarised(path, link.name, link.report, report, ref=entry.build)


def summarised(path: str, name: str, unit_report: Report, report: Report, ref: str) -> Member:
    stats = unit_report.stats
    member_errors(report, path, name, (i.code for i in unit_report.errors))
    drones = stats.get("drones")
    return Member(path, name, "unit", stats["credits"].value if "credits" in stats else 0, unit_report.legal,
                  detail=" · ".join(f"{stats[k].label} {stats[k].value}" for k in ("chassis", "hp") if k in stats),
                  ref=ref, controllers=drones.value if drones else 0,
                  docking=unit_report.detail.docking, codes=sorted({i.code for i in unit_report.errors}))


def validate(build: Any, catalogue: Catalogue, linked: dict[str, Linked | None] | None = None) -> Report:
    company = parse(build)
    check_keys(company, catalogue)
    linked = linked or {}
    report = Report(detail=CompanyDetail())
    units = [unit_member(f"units[{i}]", u, catalogue, linked, report) for i, u in enumerate(company.units)]
    drones = check_drones(company, catalogue, units, report)
    infantry = check_infantry(company, catalogue, report)
    aircraft = [Member(f"aircraft[{i}]", catalogue.items[e.item].name, "aircraft",
                       catalogue.items[e.item].cost * e.count, ref=e.item,
                       detail=f"{e.count} × AHP {catalogue.items[e.item].ahp}")
                for i, e in enumerate(company.aircraft)]
    roster = units + drones + infantry + aircraft
    total = sum(m.credits for m in roster)
    budget = company.credit_budget if company.credit_budget is not None else setting(OPTIONS, company, "credit-budget") or None
    report.stats["credits"] = Stat("Credits", total, " + ".join(f"{m.name} {m.credits}" for m in roster if m.credits)
                                   or "nothing costed yet", "cr")
    if budget is not None:
        report.meters.append(Meter("credits", "Credit budget", total, budget, "cr", "credit_budget"))
        if total > budget:
            # MM-R20 reading: a game's budget is a cap; over it the company may not deploy.
            report.add("MM-R20", "error", "credit_budget",
                       f"The company costs {total} credits; the budget is {budget}.",
                       f"Cut {total - budget} credits: lighter load-outs, or fewer units.")
    report.stats["units"] = Stat("Units", len(units), f"{sum(m.legal for m in units)} legal")
    report.detail.roster = roster
    report.detail.budget = budget
    return report


def check_drones(company: CompanyBuild, catalogue: Catalogue, units: list[Member], report: Report) -> list[Member]:
    """MM-R13: one deployed drone per controller on its carrier; MM-R14: only small drones dock, within room."""
    members, deployed, docked = [], {}, {}
    for i, entry in enumerate(company.drones):
        drone = catalogue.items[entry.drone]
        path = f"drones[{i}]"
        members.append(Member(path, drone.name, "drone", drone.cost, ref=entry.drone,
                              detail=f"{drone.size} drone{', flying' if drone.flying else ''}"
                                     f"{', docked' if entry.docked else ''}"))
        carrier = units[entry.controller] if entry.controller < len(units) else None
        if carrier is None or not carrier.controllers:
            report.add("MM-R13", "error", path,
                       f"{drone.name} needs a unit with a drone controller; "
                       f"{'there is no unit ' + str(entry.controller + 1) if carrier is None else carrier.name + ' has none'}.",
                       "Pick a unit that mounts a drone controller.")
            continue
        if entry.docked and drone.size == "large":
            report.add("MM-R14", "error", path, f"{drone.name} is a large drone: large drones cannot dock.",
                       "Deploy it instead.")
        elif entry.docked:
            docked[entry.controller] = docked.get(entry.controller, 0) + 1
        else:
            deployed[entry.controller] = deployed.get(entry.controller, 0) + 1
    for index, count in deployed.items():
        if count > units[index].controllers:
            report.add("MM-R13", "error", units[index].path,
                       f"{units[index].name} deploys {count} drones with {units[index].controllers} controller"
                       f"{'s' if units[index].controllers != 1 else ''}: one drone each.",
                       "Dock the others, or mount another controller.")
    for index, count in docked.items():
        if count > units[index].docking:
            report.add("MM-R14", "error", units[index].path,
                       f"{units[index].name} docks {count} small drones; its equipment has room for "
                       f"{units[index].docking}.", "Deploy one, or carry a controller with more room.")
    return members


def check_infantry(company: CompanyBuild, catalogue: Catalogue, report: Report) -> list[Member]:
    members = []
    control = setting(OPTIONS, company, "player-infantry")
    for i, entry in enumerate(company.infantry):
        squad = catalogue.items[entry.item]
        path = f"infantry[{i}]"
        members.append(Member(path, squad.name, "infantry", squad.cost * entry.count, ref=entry.item,
                              detail=f"{entry.count} × {squad.members} members, ISH {squad.ish}"))
        # MM-A01 reading: "All player controllable units are large units" (L75), so infantry join as allies.
        if control == "allied":
            report.add("MM-R16", "info", path, f"{squad.name}: infantry are small units, fielded as allies under the "
                                               f"GM's control, not by a player.")
        elif control == "none":
            report.add("MM-R16", "error", path, f"{squad.name}: all player-controllable units are large units.",
                       "Remove the infantry.")
        if squad.blast_resistance > 60:
            report.add("MM-R19", "warning", path, f"{squad.name}'s Blast Resistance {squad.blast_resistance} is over "
                                                  f"the cap: a blast save never exceeds 60.")
    return members
