"""What an Anvil's player keeps count of at the table, from the build: EN, Heat, Charge and Fuel, each LCA's Orders
(M-R74) and each Shield's AP (M-R64), and the Chipsets each LCA and Radio holds (M-R70, M-R71). The sheet prints
them as tick boxes; the table (table.py) counts them, by `key`, from `start`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base import Catalogue, field_or
from .rules import Anvil
from .schema import CHIPSET_CARRIERS, SLOT_LABELS


@dataclass(frozen=True)
class Track:
    label: str
    count: int  # boxes
    note: str = ""  # with the rule ID
    mark: int | None = None  # the box that is a threshold (Heat Tolerance)
    key: str = ""  # the table's, stable within the build
    rule: str = ""
    start: int | None = None  # where a Sortie starts it; None: full
    group: str = ""  # the Component it sits on; "" for the Anvil's own
    lines: tuple[str, ...] = ()  # the Gear that goes with it (what Overheat switches off)
    facts: dict = field(default_factory=dict, hash=False)  # what its consequences read (the Generator's Cooling)


def tracks(anvil: Anvil, stats: dict[str, Any]) -> list[Track]:
    """No Generator, nothing to count: EN, Heat and Fuel all come from it."""
    generator = anvil.parts.get("generator")
    if generator is None:
        return []
    tolerance, fuel, charge = generator.heat_tolerance, stats["fuel"].value, generator.charge_capacity
    # M-R61: the table starts deployed, the 1 Fuel that fills the Charge already spent (a Generator without Charge
    # burns none); Fuel left over from an earlier Sortie is not in the build, so the tank starts full.
    spent = 1 if fuel and charge else 0
    # M-D26: Heat has no ceiling (L1184); the boxes run to twice the Tolerance, past the +4 of Heavy Precipitation.
    heat_boxes = max(2 * tolerance, tolerance + 4)
    switched = tuple(g.item.name for g in anvil.gear if field_or(g.item, "en_drain", 0) or field_or(g.item, "en_offset", 0))
    found = [Track("EN", stats["en_capacity"].value,
                   f"starts full (M-R60); EN Output {stats['en_output'].value} back at each Upkeep, up to EN Capacity "
                   f"{stats['en_capacity'].value} (M-R40, M-R42)", key="en", rule="M-R60"),
             Track("Heat", heat_boxes,
                   f"Overheat past {tolerance} (M-R52); Heat Tolerance +2 in Mild, +4 in Heavy Precipitation "
                   f"(M-D26); {generator.cooling.capitalize()} cooling", tolerance, key="heat", rule="M-R52", start=0,
                   lines=switched, facts={"cooling": generator.cooling}),
             Track("Charge", charge,
                   f"filled by 1 Fuel before deployment (M-R61); Manoeuvres cost {stats['manoeuvre_cost'].value}, "
                   f"a punch 1" if "manoeuvre_cost" in stats else "filled by 1 Fuel before deployment (M-R61)",
                   key="charge", rule="M-R61", start=charge if spent else 0),
             Track("Fuel", fuel,
                   f"{spent} spent before deployment for Charge (M-R61); at 0 Running on Fumes; 1 Fuel may pay a "
                   f"Manoeuvre Cost once a Round (L1178)", key="fuel", rule="M-R61", start=fuel - spent)]
    for g in anvil.gear:
        kind = field_or(g.item, "type", "")
        where = SLOT_LABELS[g.entry.mount]
        if kind == "lca":  # M-R74: Orders held, up to the Order Limit
            found.append(Track(f"Orders: {g.item.name}", g.item.order_limit,
                               f"gains {g.item.orders_per_turn} at the start of each Turn; Order Limit "
                               f"{g.item.order_limit}, also the most spent in a Round (M-R74)",
                               key=f"{g.path}.orders", rule="M-R74", start=0, group=where, lines=(g.item.name,)))
        elif kind == "shield":  # M-R64: at 0 AP the Shield is Destroyed and drops off
            found.append(Track(f"Shield AP: {g.item.name}", g.item.ap,
                               f"at 0 AP Destroyed and jettisoned (M-R64), its {g.item.load} ST off the Carried "
                               f"Load (M-R34); takes the {where}'s hits except from the Aft Arc (L1568)",
                               key=f"{g.path}.ap", rule="M-R64", group=where, lines=(g.item.name,)))
    return found


def loadable_chipsets(catalogue: Catalogue) -> list:
    """The Chipsets a player loads: Command Chipsets come stock on every LCA (M-R71), so not those."""
    return [c for c in catalogue.of("chipset") if c.type != "command"]


def chipset_carriers(anvil: Anvil, catalogue: Catalogue) -> list[dict[str, Any]]:
    """Each LCA and Radio with its loaded Chipsets, a box per copy (each burns out on its own, M-R71), and for an
    LCA the six Command Chipsets it has stock (M-R70)."""
    stock = [c for c in catalogue.of("chipset") if c.type == "command"]
    return [{"name": g.item.name, "radio": g.item.type == "radio", "capacity": g.item.chipset_capacity,
             "loaded": g.chipsets, "stock": [] if g.item.type == "radio" else stock, "path": g.path,
             "mount": SLOT_LABELS[g.entry.mount]}
            for g in anvil.gear if field_or(g.item, "type", "") in CHIPSET_CARRIERS]
