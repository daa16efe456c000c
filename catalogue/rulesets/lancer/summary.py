"""Each LANCER kind in a few lines of text (Kind.summary): a pilot on foot, their mech skills, triggers, talents,
licences, CORE bonuses and gear, then each mech's frame, statistics, mounts and systems; a lance's pilots by their
links, with their Licence Level and mechs."""
from __future__ import annotations

from ..base import Catalogue, Linked, Report
from ..house_rules import setting
from ..spec import Member, Summary
from . import construction as c
from .places import mount_name
from .rules import OPTIONS, PilotMech
from .schema import LanceBuild, MechLoadout, PilotBuild

MECH_STATS = ("hp", "armor", "evasion", "edef", "speed", "heatcap")  # what a player reads off a mech first


def pilot(build: PilotBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    items = catalogue.items
    # The beta's fifth mech skill is shown where it is played or holds points, as on the pilot's page.
    beta = setting(OPTIONS, build, "mech-skills") == "beta-five" or build.hase.get("targeting")
    parts = [("Mech skills", ", ".join(f"{skill.title()} {build.hase.get(skill, 0)}"
                                       for skill in (c.BETA_SKILLS if beta else c.HASE))),
             ("Skill triggers", ", ".join(f"{items[key].name} +{c.trigger_bonus(rank)}"
                                          for key, rank in build.triggers.items())),
             ("Talents", _ranked(build.talents, catalogue)), ("Licences", _ranked(build.licences, catalogue)),
             ("CORE bonuses", ", ".join(items[key].name for key in build.core_bonuses)),
             ("Pilot gear", ", ".join(items[key].name for key in build.gear))]
    for mech, detail in zip(build.mechs, report.detail.mechs):
        parts += _mech(mech, detail, catalogue)
    return Summary(Summary.stats_of(report, ("grit", "pilot_hp", "pilot_armor", "pilot_defence", "pilot_speed")),
                   tuple((where, what) for where, what in parts if what))


def lance(build: LanceBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    """A member per pilot, by their link; one that no longer opens by the share id the lance names."""
    members = []
    for row in report.detail.pilots:
        if row.missing:
            members.append(Member(row.name))
            continue
        said = [f"“{row.callsign}”" if row.callsign else "", f"LL{row.ll}",
                ", ".join(f"{mech.name} ({mech.frame})" for mech in row.mechs)]
        members.append(Member(row.name, " · ".join(part for part in said if part), row.ref))
    return Summary(Summary.stats_of(report, ("pilots", "mechs", "ll")), members=tuple(members))


def _ranked(ranks: dict[str, int], catalogue: Catalogue) -> str:
    return ", ".join(f"{catalogue.items[key].name} {c.RANK_NAMES[min(rank, 3)]}" for key, rank in ranks.items())


def _mech(mech: MechLoadout, detail: PilotMech, catalogue: Catalogue) -> list[tuple[str, str]]:
    """Its statistics under its name and frame, then each mount that holds something, then its systems."""
    items, stats = catalogue.items, detail.stats
    line = [f"{c.MECH_STAT_LABELS[key]} {stats[key].value}" for key in MECH_STATS] + [f"SP {detail.sp_used}/{stats['sp'].value}"]
    found = [(f"{mech.name} ({detail.frame})", ", ".join(line))]
    frame = items[mech.frame]
    for n, mount in enumerate(mech.mounts):
        held = [items[key].name + (f" + {items[mod].name}" if mod else "")
                for key, mod in zip(mount.weapons, [*mount.mods, *[None] * len(mount.weapons)])]
        if held or mount.bracing:
            kind = c.mount_type(frame.mounts, n, mount.core_bonus)
            found.append((f"{mech.name} {mount_name(kind, mount.model_dump(), n, catalogue)}",
                          ", ".join(held) or "left empty to brace the Superheavy"))
    found.append((f"{mech.name} systems", ", ".join(items[key].name for key in mech.systems)))
    return found
