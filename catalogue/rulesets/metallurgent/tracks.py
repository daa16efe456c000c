"""What an Anvil's player keeps count of at the table, from the build: EN, Heat, Charge and Fuel, each LCA's Orders
(M-R74) and each Shield's AP (M-R64), and the Chipsets each LCA and Radio holds (M-R70, M-R71). The sheet prints
them as tick boxes."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import Catalogue, field_or
from .rules import Anvil
from .schema import CHIPSET_CARRIERS


@dataclass(frozen=True)
class Track:
    label: str
    count: int  # boxes
    note: str = ""
    mark: int | None = None  # the box that is a threshold (Heat Tolerance)


def tracks(anvil: Anvil, stats: dict[str, Any]) -> list[Track]:
    """No Generator, nothing to count: EN, Heat and Fuel all come from it."""
    generator = anvil.parts.get("generator")
    if generator is None:
        return []
    found = [Track("EN", stats["en_capacity"].value),
             Track("Heat", generator.heat_tolerance + 4, f"Overheat past {generator.heat_tolerance}",
                   generator.heat_tolerance),
             Track("Charge", generator.charge_capacity),
             Track("Fuel", stats["fuel"].value)]
    for g in anvil.gear:
        kind = field_or(g.item, "type", "")
        if kind == "lca":  # M-R74: Orders held, up to the Order Limit
            found.append(Track(f"Orders: {g.item.name}", g.item.order_limit,
                               f"gains {g.item.orders_per_turn} at the start of each Turn; Order Limit "
                               f"{g.item.order_limit}"))
        elif kind == "shield":  # M-R64: at 0 AP the Shield is Destroyed and drops off
            found.append(Track(f"Shield AP: {g.item.name}", g.item.ap, "at 0 AP Destroyed and jettisoned"))
    return found


def loadable_chipsets(catalogue: Catalogue) -> list:
    """The Chipsets a player loads: Command Chipsets come stock on every LCA (M-R71), so not those."""
    return [c for c in catalogue.of("chipset") if c.type != "command"]


def chipset_carriers(anvil: Anvil, catalogue: Catalogue) -> list[dict[str, Any]]:
    """Each LCA and Radio with its loaded Chipsets, a box per copy (each burns out on its own, M-R71), and for an
    LCA the six Command Chipsets it has stock (M-R70)."""
    stock = [c for c in catalogue.of("chipset") if c.type == "command"]
    return [{"name": g.item.name, "radio": g.item.type == "radio", "capacity": g.item.chipset_capacity,
             "loaded": g.chipsets, "stock": [] if g.item.type == "radio" else stock}
            for g in anvil.gear if field_or(g.item, "type", "") in CHIPSET_CARRIERS]
