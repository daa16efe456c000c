"""A tiny METALLURGENT catalogue whose numbers tests can dial exactly, independent of the starter pack.

Base Anvil: Components carry 17 ST (Core 6, Arms 3 + 3, Generator 4, Electronics 1) on a Biped whose
Load Tolerance is the rulebook's example spread (20/22/26/30/32 ST, digest 6.1). Beside it: Chipsets for an LCA
and a Radio, the POST the Anvil builder sends for a document, and a saved build's sheet as HTML.
"""
from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.metallurgent.schema import CATEGORIES

PACK = "test-pack@1.0.0"
RES = {"KE": 2, "CE": 2, "TE": 2}
EXAMPLE_SPREAD = [
    {"max_load": 20, "cruise": 1, "flank": 4, "init": 2},
    {"max_load": 22, "cruise": 0, "flank": 4, "init": 2},
    {"max_load": 26, "cruise": 0, "flank": 3, "init": 1},
    {"max_load": 30, "cruise": 0, "flank": 2, "init": 0},
    {"max_load": 32, "cruise": -1, "flank": 2, "init": -1},
]

BASE_ITEMS: dict[str, tuple[str, dict[str, Any]]] = {
    "core": ("core", dict(name="Test Core", ap=30, resistance=RES, load=6, drain=1, defence=4,
                          block_bonus=2, block_cost=3, hardpoints=3)),
    "biped": ("mobility_base", dict(name="Test Biped", ap=30, resistance=RES, load=20, drain=1, chassis="biped",
                                    dodge_bonus=2, dodge_cost=6, cruising_speed=6, manoeuvre_cost=2,
                                    initiative=3, load_tolerance=EXAMPLE_SPREAD)),
    "arm": ("standard_arm", dict(name="Test Arm", ap=20, resistance=RES, load=3, drain=1, agility=1,
                                 strength=10, hardpoints=2)),
    "gun-arm": ("weapon_arm", dict(name="Test Gun Arm", ap=20, resistance=RES, load=3, drain=1, agility=0,
                                   weapon=dict(weapon_type="Autocannon", category="ballistic", damage=8,
                                               damage_type="KE", range=8, accuracy=1, en_cost=2, heat=2,
                                               magazine=6, reserve=6))),
    "gas-gen": ("generator", dict(name="Test Generator", ap=20, resistance=RES, load=4, en_output=12,
                                  en_capacity=20, fuel_capacity=3, charge_capacity=6, heat_tolerance=20,
                                  cooling="gas")),
    "electronics": ("electronics", dict(name="Test Electronics", ap=15, resistance=RES, load=1, drain=1,
                                        intercept_bonus=3, intercept_cost=3, camera_modifier=2, refresh_cost=2)),
    "fcs": ("fcs", dict(name="Test FCS", max_range=10, reliable_range=6, targeting_type="laser", drain=1)),
}


def weapon(key: str, weapon_class: str = "primary", *, load: int = 2, size: int = 1, **stats) -> tuple:
    data = dict(name=key.replace("-", " ").title(), weapon_class=weapon_class, weapon_type="Rifle",
                category="ballistic", damage=6, damage_type="KE", range=8, accuracy=1, en_cost=1, heat=1,
                magazine=4, reserve=4, load=load, size=size)
    data.update(stats)
    return key, ("weapon", data)


def equipment(key: str, kind: str, *, load: int = 1, size: int = 1, **stats) -> tuple:
    defaults = {
        "radar": dict(subtype="tracking", search_arcs=["nose"], range=12, reliable_range=8,
                      burnthrough_range=16, burnthrough_heat=2, en_drain=1),
        "lca": dict(reliable_range=6, max_range=10, orders_per_turn=2, order_limit=3, chipset_capacity=3,
                    en_offset=4),
        "radio": dict(range=10, chipset_capacity=2),
        "jammer": dict(max_range=8, reliable_range=4, en_drain=2),
        "shield": dict(ap=20, resistance=RES),
        "radiator": dict(cooling=2),
        "apu": dict(en_output=2),
        "ciws": dict(intercept=4, uses=3, en_cost=2, heat=2),
        "fuel_tank": dict(fuel=2),
        "target_designator": dict(range=10, en_cost=1),
    }[kind]
    data = dict(name=key.replace("-", " ").title(), type=kind, load=load, size=size, **defaults)
    data.update(stats)
    return key, ("equipment", data)


def part(key: str, base: str, **overrides) -> tuple:
    category, data = BASE_ITEMS[base]
    return key, (category, {**data, "name": key.replace("-", " ").title(), **overrides})


def make_catalogue(*extra: tuple) -> Catalogue:
    raw = dict(BASE_ITEMS)
    raw.update(dict(extra))
    items, categories = {}, {}
    for key, (category, data) in raw.items():
        items[key] = TypeAdapter(CATEGORIES[category]).validate_python({"key": key, **data})
        categories[key] = category
    return Catalogue("metallurgent", PACK, items, categories, "Test pack")


def anvil(gear: list[tuple[str, str]] | None = None, **parts: str | None) -> dict[str, Any]:
    """A build document on the base parts; `gear` is [(item, mount)], parts override slots."""
    chosen = {"core": "core", "mobility_base": "biped", "left_arm": "arm", "right_arm": "arm",
              "generator": "gas-gen", "electronics": "electronics", "fcs": "fcs"}
    chosen.update(parts)
    return {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "anvil", "pack": PACK,
            "name": "Test Anvil", "parts": chosen,
            "gear": [{"item": item, "mount": mount} for item, mount in (gear or [])]}


def codes(report, severity: str | None = None) -> set[str]:
    return {i.code for i in report.issues if severity in (None, i.severity)}


# --- LCA and Radio Chipsets (digest 2.8, 3.9, 6.9) ------------------------------------------------------------

CHIPSETS = {
    "check-system": dict(type="command", orders=1),
    "stay-cool": dict(type="command", orders=3),
    "barrage": dict(type="support", orders=2, en_cost=2, range_band="maximum"),
    "tailwind": dict(type="control", orders=1),
    "static": dict(type="interference", orders=2),
    "storm-eye": dict(type="special", orders=3, lca="cmd-lca"),
    "other-eye": dict(type="special", orders=1, lca="some-other-lca"),
    "grand-plan": dict(type="control", orders=5),
}


def chipset_catalogue(**lca):
    """The factory catalogue with an LCA (these fields changed), a Radio, a radiator and every Chipset above."""
    chipsets = [(key, ("chipset", dict(name=key.replace("-", " ").title(), **data))) for key, data in CHIPSETS.items()]
    # The factory LCA: Chipset Capacity 3, Order Limit 3, Offset 4; the Radio: capacity 2.
    return make_catalogue(equipment("cmd-lca", "lca", **lca), equipment("radio", "radio"),
                          equipment("radiator", "radiator"), *chipsets)


def loaded(item: str, chipsets: list[str], mount: str = "core") -> dict:
    document = anvil()
    document["gear"] = [{"item": item, "mount": mount, "chipsets": chipsets}]
    return document


# --- what the Anvil builder posts, and what its sheet prints ---------------------------------------------------

def form_for(document, **overrides):
    """The POST a builder form sends for a document."""
    data = {"pack": document["pack"], "name": document["name"], "task": document.get("task") or "",
            "notes": document.get("notes", ""), "gear-count": str(len(document["gear"]))}
    for slot, key in document["parts"].items():
        data[f"part-{slot}"] = key or ""
    for i, gear in enumerate(document["gear"]):
        data[f"gear-{i}-item"] = gear["item"]
        data[f"gear-{i}-mount"] = gear["mount"]
        if gear.get("active", True):
            data[f"gear-{i}-active"] = "on"
    data.update(overrides)
    return data


def sheet_html(build) -> str:
    """A saved build's printed sheet as HTML (its sections, as the PDF lays them out)."""
    from builder.pdf import sheet_sections

    return "".join(sheet_sections(build, build, lambda b: f"/s/{b.share_id}/"))
