"""Each Ember kind in a few lines of text (Kind.summary): a Mech's values, its Part card in each slot and its Pilot;
a squad's Mechs with their Pilots and points, and its Drones.

E-R25: the text is what the share link shows. A Mech's summary reads the build it is given, in which a secret Part
is already masked (its slot named, its card gone); a squad's reads its own report's roster, which counts only what
each Mech shows, and never a linked Mech's whole document."""
from __future__ import annotations

from ..base import Catalogue, Linked, Report
from ..spec import Member, Summary
from .places import SLOT_LABELS
from .rules import plural
from .schema import SLOTS, MechBuild, SquadBuild


def mech(build: MechBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    parts = []
    for slot in SLOTS:
        if slot in build.masked:
            parts.append((SLOT_LABELS[slot], "secret Part"))
        elif slot in build.parts:
            card = catalogue.items[build.parts[slot]]
            parts.append((SLOT_LABELS[slot], card.name + (" (Discard side)" if slot in build.discarded else "")))
    if build.pilot:
        pilot = catalogue.items[build.pilot]
        parts.append(("Pilot", f"{pilot.name}, ID {pilot.id_number}"))
    return Summary(Summary.stats_of(report, ("dodge", "electronic", "maneuver", "link", "commands", "ammo")),
                   tuple(parts))


def squad(build: SquadBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    """A member per Mech, saved ones by their link; one that no longer opens is named by what the squad holds."""
    rows = {row.path: row for row in report.detail.roster}
    members = []
    for i, entry in enumerate(build.mechs):
        row = rows.get(f"mechs[{i}]")
        link = linked.get(entry.build) if entry.build else None
        share_id = entry.build if link else ""
        if row is None:  # the report says why it does not open
            members.append(Member(link.name if link else f"missing Mech {entry.build}", "", share_id))
            continue
        secret = f" + {plural(row.secret, 'secret Part')}" if row.secret else ""
        members.append(Member(row.name, f"{row.pilot}, ID {row.id_number} · {row.parts} Parts · {row.points} pts"
                                        f"{secret}", share_id))
    drones = ", ".join(f"{d.count} × {catalogue.items[d.drone].name}" if d.count > 1 else catalogue.items[d.drone].name
                       for d in build.drones)
    return Summary(Summary.stats_of(report, ("mechs", "drones")), (("Drones", drones),) if drones else (),
                   tuple(members))
