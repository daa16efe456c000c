"""A LANCER pilot and the mechs they own, checked in one pass: advancement (L-B01 to L-B07), each mech's derived
statistics (L-B08, L-B14) and load-out (L-B09 to L-B13)."""
from __future__ import annotations

from typing import Any

from ..base import BuildError, Catalogue, Meter, Report, Stat, pack_problems, parse_as
from . import construction as c
from .schema import CoreBonus, Frame, Mod, PilotBuild, PilotGear, Skill, System, Talent, Weapon

PILOT_HP, PILOT_EVASION, PILOT_EDEF, PILOT_SPEED = 6, 10, 10, 4  # L-R05, lancer-data's base_pilot_*


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
    report = Report()
    advancement = c.Pilot(pilot.ll, dict(pilot.hase), dict(pilot.triggers), dict(pilot.talents),
                          dict(pilot.licences), list(pilot.core_bonuses))
    for issue in c.check_pilot(advancement):
        report.add(issue.code, "error", issue.path, issue.message)
    ll = max(0, min(pilot.ll, c.MAX_LL))
    grit = c.grit(ll)
    spend = c.budgets(ll)
    for key, label, used in (("hase", "Mech skills (HASE)", sum(pilot.hase.values())),
                             ("triggers", "Skill trigger ranks", sum(pilot.triggers.values())),
                             ("talents", "Talent ranks", sum(pilot.talents.values())),
                             ("licences", "Licence ranks", sum(pilot.licences.values())),
                             ("core_bonuses", "CORE bonuses", len(pilot.core_bonuses))):
        report.meters.append(Meter(key, label, used, spend[key], "", key))
    report.stats["grit"] = Stat("Grit", grit, f"LL {ll} ÷ 2, rounded up (L-B02)")
    report.stats["pilot_hp"] = Stat("Pilot HP", PILOT_HP + grit, f"{PILOT_HP} + Grit {grit}")
    report.stats["pilot_defence"] = Stat("Pilot Evasion / E-Defense", f"{PILOT_EVASION} / {PILOT_EDEF}",
                                         f"on foot; Speed {PILOT_SPEED}")
    report.detail["mechs"] = [mech_report(pilot, m, mech, catalogue, ll, report) for m, mech in enumerate(pilot.mechs)]
    return report


def mech_report(pilot: PilotBuild, index: int, mech, catalogue: Catalogue, ll: int, report: Report) -> dict[str, Any]:
    """One mech's derived statistics, with their computations, and its load-out checked."""
    items = catalogue.items
    frame = items[mech.frame]
    stats = c.FrameStats(**{k: getattr(frame.stats, k) for k in c.FrameStats.__dataclass_fields__})
    derived = c.derived(stats, ll, dict(pilot.hase))
    path = f"mechs[{index}]"
    if len(mech.mounts) != len(frame.mounts):
        report.add("L-B09", "error", f"{path}.mounts",
                   f"{mech.name}: {len(mech.mounts)} mounts recorded; the {frame.name} has {len(frame.mounts)} "
                   f"({', '.join(frame.mounts)}).")
    mounts = [c.Mount(kind, [items[k] for k in loadout.weapons], [items[k] if k else None for k in loadout.mods],
                      loadout.bracing) for kind, loadout in zip(frame.mounts, mech.mounts)]
    systems = [items[k] for k in mech.systems]
    for issue in c.check_mech(frame, mounts, systems, derived["sp"][0], dict(pilot.licences)):
        report.add(issue.code, "error", f"{path}.{issue.path}", f"{mech.name}: {issue.message}")
    used = sum(s.sp for s in systems) + sum(m.sp for mount in mounts for m in mount.mods if m is not None)
    report.meters.append(Meter(f"sp_{index}", f"{mech.name} SP", used, derived["sp"][0], "SP", f"{path}.systems"))
    return {"name": mech.name, "frame": frame.name, "stats": {k: {"value": v, "explain": e} for k, (v, e) in derived.items()}}
