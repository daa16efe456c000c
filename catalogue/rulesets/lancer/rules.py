"""A LANCER pilot and the mechs they own, checked in one pass: advancement (L-B01 to L-B07), each mech's derived
statistics (L-B08, L-B14) and load-out (L-B09 to L-B13)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base import BuildError, Catalogue, Detail, Linked, Meter, Report, Stat, member_errors, pack_problems, parse_as
from ..house_rules import load, setting
from . import construction as c
from .schema import CoreBonus, Frame, LanceBuild, Mod, PilotBuild, PilotGear, Skill, System, Talent, Weapon

OPTIONS = load(Path(__file__).parent / "data")
PILOT_HP, PILOT_EVASION, PILOT_EDEF, PILOT_SPEED = 6, 10, 10, 4  # L-R05, lancer-data's base_pilot_*


@dataclass(slots=True)
class MechStat:
    """One derived statistic of a mech and how it was worked out (L-B08, L-B14)."""

    value: int | float  # Size may be ½
    explain: str


@dataclass(slots=True)
class PilotMech:
    """One mech of the pilot as its sheet and the combat preview read it."""

    name: str
    frame: str  # the frame's name
    stats: dict[str, MechStat]  # by construction.derived's keys
    sp_used: int  # L-B10: the SP its systems, weapons and mods take


@dataclass(slots=True)
class PilotDetail(Detail):
    mechs: list[PilotMech] = field(default_factory=list)  # the pilot's mechs, in the build's order


@dataclass(slots=True)
class LanceMech:
    """A mech of a lance's pilot as the GM's roster shows it."""

    name: str
    frame: str  # the frame's name
    stats: dict[str, int | float]  # ROSTER_STATS' values, by key


@dataclass(slots=True)
class LancePilot:
    """A saved pilot of the lance: who, at what LL, legal or not (with the codes that make it not), its mechs."""

    path: str
    ref: str  # the saved pilot's share id
    name: str
    callsign: str
    ll: int
    legal: bool
    missing: bool  # always False: a MissingPilot stands for one that is gone
    codes: list[str]
    grit: int
    mechs: list[LanceMech]


@dataclass(slots=True)
class MissingPilot:
    """A lance's link that opens no pilot (deleted, mistyped or another kind: HP-LINK); it has none of a pilot's
    fields but its name."""

    path: str
    ref: str  # the share id the lance names
    name: str
    missing: bool = True
    mechs: list[LanceMech] = field(default_factory=list)  # always empty: every row lists its mechs


@dataclass(slots=True)
class LanceDetail(Detail):
    pilots: list[LancePilot | MissingPilot] = field(default_factory=list)  # the roster, in the lance's order


def parse(document: Any) -> PilotBuild:
    return parse_as(PilotBuild, document)


def resolve(pilot: PilotBuild, catalogue: Catalogue) -> None:
    """Every key names an item of the right kind in the pinned pack, or the build is refused naming the field."""
    problems = pack_problems(pilot, catalogue)
    items = catalogue.items

    def want(path: str, key: str, model) -> None:
        if not isinstance(items.get(key), model):
            problems.append({"path": path, "message": f"'{key[:60]}' is not a {model.__name__} in {catalogue.pack}"})

    for name, model in (("triggers", Skill), ("talents", Talent)):
        for key in getattr(pilot, name):
            want(f"{name}.{key}", key, model)
    for key in pilot.licences:
        want(f"licences.{key}", key, Frame)
    for i, key in enumerate(pilot.core_bonuses):
        want(f"core_bonuses[{i}]", key, CoreBonus)
    for i, key in enumerate(pilot.gear):
        want(f"gear[{i}]", key, PilotGear)
    for m, mech in enumerate(pilot.mechs):
        want(f"mechs[{m}].frame", mech.frame, Frame)
        for n, mount in enumerate(mech.mounts):
            for w, key in enumerate(mount.weapons):
                want(f"mechs[{m}].mounts[{n}].weapons[{w}]", key, Weapon)
            for w, key in enumerate(mount.mods):
                if key is not None:
                    want(f"mechs[{m}].mounts[{n}].mods[{w}]", key, Mod)
        for s, key in enumerate(mech.systems):
            want(f"mechs[{m}].systems[{s}]", key, System)
    if problems:
        raise BuildError(problems)


def validate(document: Any, catalogue: Catalogue) -> Report:
    pilot = parse(document)
    resolve(pilot, catalogue)
    report = Report(detail=PilotDetail())
    advancement = c.Pilot(pilot.ll, dict(pilot.hase), dict(pilot.triggers), dict(pilot.talents),
                          dict(pilot.licences), list(pilot.core_bonuses))
    skills = c.BETA_SKILLS if setting(OPTIONS, pilot, "mech-skills") == "beta-five" else c.HASE
    frames = catalogue.of("frame")
    for issue in c.check_pilot(advancement, skills) + c.check_core_bonuses(
            [catalogue.items[k] for k in pilot.core_bonuses], dict(pilot.licences), frames):
        report.add(issue.code, "error", issue.path, issue.message)
    ll = max(0, min(pilot.ll, c.MAX_LL))
    reading = setting(OPTIONS, pilot, "grit")
    grit = c.grit(ll, reading)
    spend = c.budgets(ll)
    for key, label, used in (("hase", "Mech skills (HASE)", sum(pilot.hase.values())),
                             ("triggers", "Skill trigger ranks", sum(pilot.triggers.values())),
                             ("talents", "Talent ranks", sum(pilot.talents.values())),
                             ("licences", "Licence ranks", sum(pilot.licences.values())),
                             ("core_bonuses", "CORE bonuses", len(pilot.core_bonuses))):
        report.meters.append(Meter(key, label, used, spend[key], "", key))
    report.stats["grit"] = Stat("Grit", grit, f"LL {ll} ÷ 2, rounded {'up' if reading == 'ceil' else 'down'} (L-B02)")
    report.stats.update(pilot_stats(pilot, catalogue, ll, grit))
    report.detail.mechs = [mech_report(pilot, m, mech, catalogue, ll, reading, report)
                           for m, mech in enumerate(pilot.mechs)]
    return report


def mech_report(pilot: PilotBuild, index: int, mech, catalogue: Catalogue, ll: int, grit_reading: str,
                report: Report) -> PilotMech:
    """One mech's derived statistics, with their computations, and its load-out checked."""
    items = catalogue.items
    frame = items[mech.frame]
    stats = c.FrameStats(**{k: getattr(frame.stats, k) for k in c.FrameStats.__dataclass_fields__})
    grit = c.grit(ll, grit_reading)
    derived = c.derived(stats, ll, dict(pilot.hase), grit_reading, setting(OPTIONS, pilot, "armor-cap"),
                        mech_bonuses(pilot, mech, catalogue, ll, grit))
    path = f"mechs[{index}]"
    if len(mech.mounts) < len(frame.mounts):
        report.add("L-B09", "error", f"{path}.mounts",
                   f"{mech.name}: {len(mech.mounts)} mounts recorded; the {frame.name} has {len(frame.mounts)} "
                   f"({', '.join(frame.mounts)}).")
    mounts = [c.Mount(c.mount_type(frame.mounts, n, loadout.core_bonus), [items[k] for k in loadout.weapons],
                      [items[k] if k else None for k in loadout.mods], loadout.bracing, loadout.core_bonus)
              for n, loadout in enumerate(mech.mounts)]
    systems = [items[k] for k in mech.systems]
    licence_names = {frame.key: frame.name for frame in catalogue.of("frame")}
    bonus_names = {bonus.key: bonus.name for bonus in catalogue.of("core_bonus")}
    for issue in (c.check_mech(frame, mounts, systems, derived["sp"][0], dict(pilot.licences), licence_names,
                               derived["ai_cap"][0])
                  + c.check_bonus_mounts(frame, mounts, list(pilot.core_bonuses), bonus_names)):
        report.add(issue.code, "error", f"{path}.{issue.path}", f"{mech.name}: {issue.message}")
    used = (sum(s.sp for s in systems) + sum(m.sp for mount in mounts for m in mount.mods if m is not None)
            + sum(w.sp for mount in mounts for w in mount.weapons))
    report.meters.append(Meter(f"sp_{index}", f"{mech.name} SP", used, derived["sp"][0], "SP", f"{path}.systems"))
    return PilotMech(mech.name, frame.name, {k: MechStat(v, e) for k, (v, e) in derived.items()}, used)


def pilot_bonuses(pilot: PilotBuild, catalogue: Catalogue, ll: int, grit: int) -> list[c.Bonus]:
    """The structured bonuses that come with the pilot, to the pilot on foot and to each of their mechs alike (as
    COMP/CON gathers a pilot's): their gear, their CORE bonuses and the talent ranks they hold."""
    items, found = catalogue.items, []
    for key in [*pilot.gear, *pilot.core_bonuses]:
        found += c.bonuses(c.listed(items[key], "bonuses"), items[key].name, ll, grit)
    for key, rank in pilot.talents.items():
        talent = items[key]
        for held in talent.ranks[:rank]:
            found += c.bonuses(c.listed(held, "bonuses"), f"{talent.name}: {held.name}", ll, grit)
    return found


def pilot_stats(pilot: PilotBuild, catalogue: Catalogue, ll: int, grit: int) -> dict[str, Stat]:
    """The pilot on foot: base HP + Grit, Evasion, E-Defense and Speed (L-R05) and Armor 0. A `replace` bonus (pilot
    armour's Evasion, E-Defense and Speed) sets its stat, the other bonuses add to it, in either order (COMP/CON's
    reading)."""
    found = pilot_bonuses(pilot, catalogue, ll, grit)
    stats = {}
    for stat, value, explain in (("pilot_hp", PILOT_HP + grit, f"{PILOT_HP} + Grit {grit}"), ("pilot_armor", 0, "0"),
                                 ("pilot_evasion", PILOT_EVASION, f"{PILOT_EVASION}"),
                                 ("pilot_edef", PILOT_EDEF, f"{PILOT_EDEF}"),
                                 ("pilot_speed", PILOT_SPEED, f"{PILOT_SPEED}")):
        replacing = [b for b in found if b.stat == stat and b.replace]
        if replacing:
            value, explain = sum(b.value for b in replacing), " + ".join(f"{b.value}: {b.source}" for b in replacing)
        for bonus in found:
            if bonus.stat == stat and not bonus.replace:
                value, explain = value + bonus.value, f"{explain} {bonus.value:+d} {bonus.source}"
        stats[stat] = (value, explain)
    (hp, hp_why), (armor, armor_why), (evasion, evasion_why), (edef, edef_why), (speed, speed_why) = stats.values()
    return {"pilot_hp": Stat("Pilot HP", hp, hp_why), "pilot_armor": Stat("Pilot Armor", armor, armor_why),
            "pilot_defence": Stat("Pilot Evasion / E-Defense", f"{evasion} / {edef}",
                                  f"Evasion {evasion_why}; E-Defense {edef_why}; on foot"),
            "pilot_speed": Stat("Pilot Speed", speed, speed_why)}


def mech_bonuses(pilot: PilotBuild, mech, catalogue: Catalogue, ll: int, grit: int) -> list[c.Bonus]:
    """The structured bonuses a mech's statistics take, as COMP/CON gathers them: its frame's traits, what it
    carries (systems, weapons and their mods) and the pilot's (pilot_bonuses). A core system's `active_bonuses` hold
    only while it is active, so the sheet keeps them as text."""
    items, found = catalogue.items, []
    frame = items[mech.frame]
    for trait in frame.traits:
        found += c.bonuses(c.listed(trait, "bonuses"), f"{frame.name}: {trait.name}", ll, grit)
    carried = [*mech.systems, *(key for mount in mech.mounts for key in [*mount.weapons, *mount.mods] if key)]
    for key in carried:
        found += c.bonuses(c.listed(items[key], "bonuses"), items[key].name, ll, grit)
    return found + pilot_bonuses(pilot, catalogue, ll, grit)


def validate_lance(build: Any, catalogue: Catalogue, linked: dict[str, Linked | None] | None = None) -> Report:
    """A GM's lance: every pilot link names a saved pilot; a pilot that is not legal is a warning naming its codes."""
    lance = parse_as(LanceBuild, build)
    problems = pack_problems(lance, catalogue)
    if problems:
        raise BuildError(problems)
    linked = linked or {}
    report = Report(detail=LanceDetail())
    members, rows = [], []
    for i, entry in enumerate(lance.pilots):
        path, link = f"pilots[{i}]", linked.get(entry.build)
        rows.append(roster_row(path, entry.build, link))
        if link is None:
            report.add("HP-LINK", "error", path, f"The saved pilot {entry.build} no longer exists (deleted, or the "
                                                 f"link was mistyped).", "Remove it from the lance or add it again.")
        elif link.kind != "pilot":
            report.add("HP-LINK", "error", path, f"{link.name} is a {link.kind}, not a pilot.", "Add a pilot's link.")
        else:
            member_errors(report, path, link.name, (issue.code for issue in link.report.errors))
            members.append(link)
    report.detail.pilots = rows
    levels = [m.document.get("ll", 0) for m in members]
    report.stats["pilots"] = Stat("Pilots", len(members), "saved pilots that open")
    report.stats["mechs"] = Stat("Mechs", sum(len(m.document.get("mechs", [])) for m in members), "across the lance")
    if levels:
        report.stats["ll"] = Stat("Licence Levels", f"{min(levels)}–{max(levels)}" if min(levels) != max(levels)
                                  else str(levels[0]), "lowest to highest")
    return report


ROSTER_STATS = ("hp", "armor", "evasion", "edef", "speed", "heatcap")


def roster_row(path: str, share_id: str, link: Linked | None) -> LancePilot | MissingPilot:
    """What a GM reads about one pilot of the lance: who, at what LL, legal or not, and each mech's key stats."""
    if link is None or link.kind != "pilot":
        return MissingPilot(path, share_id, link.name if link else f"missing pilot {share_id}")
    document, report = link.document, link.report
    mechs = [LanceMech(mech["name"], detail.frame, {k: detail.stats[k].value for k in ROSTER_STATS})
             for mech, detail in zip(document.get("mechs", []), report.detail.mechs)]
    return LancePilot(path, share_id, link.name, callsign=document.get("callsign", ""), ll=document.get("ll", 0),
                      legal=report.legal, missing=False, codes=sorted({i.code for i in report.errors}),
                      grit=report.stats["grit"].value, mechs=mechs)
