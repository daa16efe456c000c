"""An Ember Mech and a squad checked in one pass: the Mech's construction rules (E-R02 to E-R10, E-R23, E-R25) with
its derived values, Timings and starting tokens; the squad's Pilot IDs, command capacity and warnings over its
saved Mechs and its Drones."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..base import BuildError, Catalogue, Detail, Linked, Meter, Report, Stat, member_errors, pack_problems, parse_as
from ..house_rules import load, setting
from . import construction as c
from .schema import SLOT_LETTERS, Drone, MechBuild, PartCard, Pilot, Projectile, SquadBuild

OPTIONS = load(Path(__file__).parent / "data")
UNSOURCED = "an authored format: the rulebook's squad rules (chapter 5) are missing"


@dataclass(slots=True)
class MechDetail(Detail):
    timings: dict[str, list[str]] = field(default_factory=dict)  # E-R21, E-R22: the actions starting each Timing
    not_performable: dict[str, str] = field(default_factory=dict)  # actions the Mech lists but cannot start: why


@dataclass(slots=True)
class SquadMech:
    """A Mech of the squad as its roster row shows it: what is in view (E-R25), and its verdict."""

    path: str
    name: str
    pilot: str
    id_number: str
    parts: int
    legal: bool
    points: int
    secret: int  # Parts kept secret


@dataclass(slots=True)
class SquadDetail(Detail):
    projectiles: list[str] = field(default_factory=list)  # E-R14: the Projectile cards the squad brings
    roster: list[SquadMech] = field(default_factory=list)


def parse(document: Any) -> MechBuild:
    return parse_as(MechBuild, document)


def resolve(build: MechBuild, catalogue: Catalogue, prefix: str = "") -> c.Mech:
    """The Mech its keys name, or a BuildError naming every key the pinned pack does not hold."""
    problems = pack_problems(build, catalogue) if not prefix else []
    items = catalogue.items
    for slot, key in build.parts.items():
        if not isinstance(items.get(key), PartCard):
            problems.append({"path": f"{prefix}parts.{slot}", "message": f"'{key[:60]}' is not a Part in {catalogue.pack}"})
    if build.pilot is not None and not isinstance(items.get(build.pilot), Pilot):
        problems.append({"path": f"{prefix}pilot", "message": f"'{build.pilot[:60]}' is not a Pilot in {catalogue.pack}"})
    if problems:
        raise BuildError(problems)
    return c.Mech(build.name, {slot: items[key] for slot, key in build.parts.items()},
                  items[build.pilot] if build.pilot else None, set(build.discarded), set(build.masked), build.stance)


def validate(document: Any, catalogue: Catalogue) -> Report:
    build = parse(document)
    mech = resolve(build, catalogue)
    report = Report(detail=MechDetail(c.timings(mech), c.not_performable(mech)))
    for issue in c.check_mech(mech):
        report.add(issue.code, issue.severity, issue.path, issue.message)
    for slot in build.discarded:
        part = mech.parts.get(slot)
        if part is None or not part.handheld:
            report.add("E-R07", "error", "discarded", f"Only a Handheld Part has a Discard side; "
                                                      f"{part.name if part else 'no Part'} in the {slot.replace('_', ' ')} slot.")
    for slot in build.secret:
        if slot in build.masked:
            continue
        part = mech.parts.get(slot)
        if part is None or not part.secret:
            report.add("E-R25", "error", "secret", f"{part.name if part else 'No Part'} ({SLOT_LETTERS[slot]}) has no "
                                                   f"secret configuration to keep hidden.")
    report.meters.append(Meter("parts", "Part cards", len(mech.filled), c.MAX_PARTS, "", "parts"))
    for key, (value, explain) in c.derived(mech).items():
        report.stats[key] = Stat(key.title(), value, explain)
    return report


def mech_points(mech: c.Mech) -> int:
    """The points of the Parts it holds and its Pilot's: all of them on the whole Mech, none of a secret Part's on
    what its share link shows (E-R25)."""
    return sum(p.cost for p in mech.parts.values()) + (mech.pilot.cost if mech.pilot else 0)


def plural(count: int, what: str) -> str:
    return f"{count} {what}{'s' if count != 1 else ''}"


def validate_squad(document: Any, catalogue: Catalogue, linked: dict[str, Linked | None] | None = None) -> Report:
    squad = parse_as(SquadBuild, document)
    problems = pack_problems(squad, catalogue)
    for i, entry in enumerate(squad.drones):
        if not isinstance(catalogue.items.get(entry.drone), Drone):
            problems.append({"path": f"drones[{i}].drone", "message": f"'{entry.drone[:60]}' is not a Drone in "
                                                                      f"{catalogue.pack}"})
    if problems:
        raise BuildError(problems)
    linked = linked or {}
    report = Report(detail=SquadDetail())
    mechs, paths, legal = [], [], {}
    for i, entry in enumerate(squad.mechs):
        if entry.mech is not None:
            written = MechBuild(pack=catalogue.pack, extensions=list(catalogue.extensions), **entry.mech.model_dump())
            mechs.append(resolve(written, catalogue, prefix=f"mechs[{i}].mech."))
            paths.append(i)
            broken = [issue.code for issue in c.check_mech(mechs[-1]) if issue.severity == "error"]
            legal[i] = not broken
            member_errors(report, f"mechs[{i}]", written.name, broken)
            continue
        link = linked.get(entry.build)
        if link is None:
            report.add("HP-LINK", "error", f"mechs[{i}]", f"The saved Mech {entry.build} no longer exists.",
                       "Remove it from the squad or add it again.")
        elif link.kind != "mech":
            report.add("HP-LINK", "error", f"mechs[{i}]", f"{link.name} is a {link.kind}, not a Mech.")
        else:
            try:
                # E-R25: the squad's verdicts count a secret Part (the whole Mech); what it shows leaves it out.
                whole = resolve(parse(link.whole or link.document), catalogue, prefix=f"mechs[{i}].")
                mechs.append(replace(whole, hidden=set(link.document.get("masked") or [])))
            except BuildError:
                report.add("HP-LINK", "error", f"mechs[{i}]", f"{link.name} is built on other cards than this "
                                                              f"squad's pack {catalogue.pack}.")
                continue
            paths.append(i)
            legal[i] = link.report.legal
            member_errors(report, f"mechs[{i}]", link.name, (issue.code for issue in link.report.errors))
    drones = [catalogue.items[d.drone] for d in squad.drones for _ in range(d.count)]
    for issue in c.check_squad(mechs, drones):
        path = issue.path
        if path.startswith("mechs["):  # check_squad counts the Mechs that resolved; the squad lists them all
            index = int(path[6:path.index("]")])
            path = f"mechs[{paths[index]}]{path[path.index(']') + 1:]}"
        report.add(issue.code, issue.severity, path, issue.message)
    shown = [c.shown(m) for m in mechs]
    secret = sum(len(m.hidden) for m in mechs)
    hidden = plural(secret, "secret Part") if secret else ""
    points, visible = (sum(map(mech_points, group)) + sum(d.cost for d in drones) for group in (mechs, shown))
    limit = setting(OPTIONS, squad, "points-limit")
    report.meters.append(Meter("points", "Points (unsourced format)", visible, limit, "pts", "mechs", hidden,
                               points > limit))
    if points > limit:
        counted = f"Over {limit} points counting {hidden}" if secret else f"{points} points"
        report.add("E-X01", "error", "mechs", f"{counted}; the format allows {limit} ({UNSOURCED}).")
    for code, key, count, what in (("E-X05", "max-mechs", len(squad.mechs), "Mechs"),
                                   ("E-X07", "max-drones", len(drones), "Drones")):
        if count > setting(OPTIONS, squad, key):
            report.add(code, "error", what.lower(), f"{count} {what}; the format allows {setting(OPTIONS, squad, key)} "
                                                     f"({UNSOURCED}).")
    factions = sorted({m.pilot.faction for m in mechs if m.pilot})
    if len(factions) > 1 and setting(OPTIONS, squad, "squad-factions") == "one":
        report.add("E-X06", "error", "mechs", f"Pilots of {', '.join(factions)}; this format fields one faction a "
                                              f"squad ({UNSOURCED}).")
    capacity = sum(c.derived(m)["commands"][0] for m in mechs)
    commanded = sum(any(a.control == "command" for a in d.actions) for d in drones)
    torsos = sum("torso" in m.hidden for m in mechs)
    report.meters.append(Meter("commands", "Drones taking Commands", commanded,
                               sum(c.derived(m)["commands"][0] for m in shown), "", "drones",
                               plural(torsos, "secret Torso") if torsos else "", commanded > capacity))
    # E-R14: the Projectile and Deployable cards the squad's units place, which it brings to the table (a secret
    # Part's come with it when it is revealed).
    launched = {a.launches for m in shown for slot, p in m.parts.items() for a in c.actions_of(p, slot in m.discarded)
                if a.launches} | {a.launches for d in drones for a in d.actions if a.launches}
    report.detail.projectiles = sorted(key for key in launched if isinstance(catalogue.items.get(key), Projectile))
    for key in sorted(launched - set(report.detail.projectiles)):
        report.add("E-R14", "warning", "mechs", f"An action places '{key[:60]}', which {catalogue.pack} has no "
                                                f"Projectile card for.")
    report.detail.roster = [
        SquadMech(f"mechs[{i}]", mech.name, mech.pilot.name if mech.pilot else "no Pilot",
                  mech.pilot.id_number if mech.pilot else "—", len(mech.filled), legal[i],
                  mech_points(c.shown(mech)), len(mech.hidden))
        for i, mech in zip(paths, mechs)]
    report.stats["mechs"] = Stat("Mechs", len(mechs), "saved Mechs that open")
    report.stats["drones"] = Stat("Drones", len(drones), "by count")
    return report
