"""Each MEGA MERCS kind in a few lines of text (Kind.summary): a unit's stat line and what each hard-point mounts,
a company's units with their chassis and credits, and its drones, infantry and aircraft."""
from __future__ import annotations


from ..base import Catalogue, Linked, Report
from ..spec import Member, Summary
from .schema import LOCATION_LABELS, Chassis, CompanyBuild, UnitBuild


def unit(build: UnitBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    chassis = catalogue.items.get(build.chassis or "")
    if not isinstance(chassis, Chassis):
        return Summary()
    stats = (("Chassis", _chassis(chassis)),) + Summary.stats_of(report, ("hp", "agility", "movement", "ewar",
                                                                          "credits"))
    integrated = [catalogue.items[key].name for key in chassis.integrated if key in catalogue.items]
    parts = [("Integrated", ", ".join(integrated))] if integrated else []
    for hardpoint in chassis.hardpoints:
        mounted = [catalogue.items[m.item].name + (f" ({m.ammo})" if m.ammo else "")
                   for m in build.mounts if m.hardpoint == hardpoint.key]
        if mounted:
            parts.append((_where(hardpoint), ", ".join(mounted)))
    return Summary(stats, tuple(parts))


def company(build: CompanyBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    """A member per unit, saved ones by their link; drones, infantry and aircraft are the company's, not units."""
    members = []
    # The roster lists the units first, one a unit, in the company's order.
    for entry, row in zip(build.units, report.detail.roster):
        if row.kind == "missing":  # no longer saved, or not a unit: the report says which
            members.append(Member(row.name))
            continue
        card = _card(entry, catalogue, linked)
        what = f"{_chassis(card)} · HP {card.hp}" if card else "no chassis yet"
        members.append(Member(row.name, f"{what} · {row.credits} cr", entry.build or ""))
    parts = [(label, Summary.counted(names)) for label, names in (
        ("Drones", [catalogue.items[d.drone].name + (" (docked)" if d.docked else "") for d in build.drones]),
        ("Infantry", [catalogue.items[e.item].name for e in build.infantry for _ in range(e.count)]),
        ("Aircraft", [catalogue.items[e.item].name for e in build.aircraft for _ in range(e.count)])) if names]
    # Under a budget the text shows the credits against it already.
    budgeted = any(meter.key == "credits" for meter in report.meters)
    return Summary(Summary.stats_of(report, ("units",) if budgeted else ("units", "credits")), tuple(parts),
                   tuple(members))


def _chassis(card: Chassis) -> str:
    return f"{card.name} ({card.role})"


def _where(hardpoint) -> str:
    """As the unit's page names a hard-point: by its card name, with its location where that says more."""
    location = LOCATION_LABELS[hardpoint.location]
    return hardpoint.name if hardpoint.name == location else f"{hardpoint.name} ({location})"


def _card(entry, catalogue: Catalogue, linked: dict[str, Linked | None]) -> Chassis | None:
    """The chassis card of a company's unit: a written-in one's from the company's pack, a saved one's from its
    own."""
    if entry.unit is not None:
        card = catalogue.items.get(entry.unit.chassis)
    else:
        link = linked.get(entry.build)
        card = (link.catalogue or catalogue).items.get(link.document.get("chassis") or "") if link else None
    return card if isinstance(card, Chassis) else None

