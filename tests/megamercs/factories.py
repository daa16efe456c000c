"""A tiny MEGA MERCS catalogue whose numbers tests can dial, independent of the starter pack.

The test mecha: arms with a size-2 [light, medium, melee] hard-point each, a size-3 torso [sensor, utility,
launcher] hard-point and a size-1 leg hard-point; track grids of 4 hexes on each arm, legs 4 (2 Leg Parts),
torso 7 radial (1 Pilot). The test tank: a size-4 [main gun] turret hard-point, a size-1 pintle [light] and a
size-2 hull [sensor, electronic support] hard-point, one hull grid of 12 hexes holding 2 Crew and 2 Treads.
"""
from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.megamercs.schema import CATEGORIES

PACK = "mm-test@1.0.0"

MECHA = dict(
    name="Test Mecha", role="line mecha", unit_type="mecha", hp=40, agility=30, evasion="focus", movement=5,
    movement_type="legged", vision=8, ewar=40, actions=["M", "A", "A/U", "F"], cost=400,
    hardpoints=[
        dict(key="r-arm", size=2, types=["light_weapon", "medium_weapon", "melee"], location="right_arm"),
        dict(key="l-arm", size=2, types=["light_weapon", "medium_weapon", "melee"], location="left_arm"),
        dict(key="torso", size=3, types=["sensor", "utility", "launcher"], location="torso"),
        dict(key="legs", size=1, types=["leg"], location="legs"),
    ],
    grids=[
        dict(location="right_arm", type="track", hexes=4),
        dict(location="left_arm", type="track", hexes=4),
        dict(location="legs", type="bi_directional", hexes=4, special={"leg_parts": 2}),
        dict(location="torso", type="radial", hexes=7, special={"pilot": 1}),
    ],
    dr=dict(front=3, front_right=3, rear_right=2, rear=2, rear_left=2, front_left=3, top=1),
)
TANK = dict(
    name="Test Tank", role="battle tank", unit_type="tank", hp=60, movement=4, movement_type="tracked_wheeled",
    vision=8, ewar=30, actions=["M", "A", "U", "C"], cost=500,
    hardpoints=[
        dict(key="turret", size=4, types=["main_gun"], location="turret"),
        dict(key="pintle", size=1, types=["light_weapon"], location="turret", pintle=True),
        dict(key="hull", size=2, types=["sensor", "electronic_support"], location="hull"),
    ],
    grids=[dict(location="hull", type="track", hexes=12, special={"crew": 2, "treads": 2})],
    dr=dict(front=8, front_right=5, rear_right=4, rear=3, rear_left=4, front_left=5, top=2),
)


def shot(**stats) -> dict[str, Any]:
    return {"accuracy": 50, "range": 6, "rof": 2, "damage": 5, "damage_type": "piercing", "internal": 1,
            "penetration": 10, **stats}


BASE_ITEMS: dict[str, tuple[str, dict[str, Any]]] = {
    "mecha": ("chassis", MECHA),
    "tank": ("chassis", TANK),
    "hmg": ("weapon", dict(name="HMG", size=1, types=["light_weapon"], cost=50,
                           profiles=[shot(accuracy=50, range=4, rof=5, damage=1, internal=1, penetration=3)])),
    "mace": ("weapon", dict(name="Mace", size=2, types=["melee"], cost=75, profiles=[
        shot(name="Bash", accuracy=75, range="melee", rof=1, damage=10, damage_type="impact", internal=2,
             penetration=10),
        shot(name="Sweep", accuracy=75, range="melee", rof=1, damage=5, damage_type="impact", internal=1,
             penetration=5, attributes=[{"name": "slash_arc"}])])),
    "cannon": ("weapon", dict(name="Cannon", size=4, types=["main_gun"], cost=200, variable_ammo=True, profiles=[
        shot(name="AP", accuracy=60, range=10, rof=1, damage=14, internal=3, penetration=30),
        shot(name="HE", accuracy=60, range=10, rof=1, damage=8, damage_type="impact", internal=1, penetration=10,
             attributes=[{"name": "blast", "x": 6, "y": 1}])])),
    "autocannon": ("weapon", dict(name="Autocannon", size=2, types=["medium_weapon"], cost=120, variable_ammo=True,
                                  profiles=[shot(name="AP", rof=3), shot(name="HE", rof=3, damage_type="impact")])),
    "twin-gun": ("weapon", dict(name="Twin Gun", size=1, types=["light_weapon"], cost=40,
                                profiles=[shot(attributes=[{"name": "linked"}])])),
    "fcs": ("equipment", dict(name="FCS", size=1, types=["sensor"], cost=60,
                              bonuses=[{"stat": "accuracy", "value": 10}])),
    "spotter": ("equipment", dict(name="Spotter", size=1, types=["sensor"], cost=30,
                                  bonuses=[{"stat": "accuracy", "value": 5}])),
    "shield": ("equipment", dict(name="Shield", size=2, types=["melee"], cost=50,
                                 bonuses=[{"stat": "dr", "value": 3, "source": "shield"}])),
    "plates": ("equipment", dict(name="Plates", size=1, types=["utility"], cost=40, on_grid=False,
                                 bonuses=[{"stat": "dr", "value": 2, "source": "armour"}])),
    "radar": ("equipment", dict(name="Lock Radar", size=1, types=["sensor"], cost=60,
                                attributes=[{"name": "sensor_lock"}])),
    "beacon": ("equipment", dict(name="Beacon", size=1, types=["utility"], cost=5, attributes=[{"name": "beacon"}])),
    "cloak": ("equipment", dict(name="Cloak", size=2, types=["utility"], cost=150,
                                attributes=[{"name": "optical_stealth"}])),
    "jets": ("equipment", dict(name="Jump Jets", size=1, types=["leg", "utility"], cost=40)),
    "controller": ("equipment", dict(name="Drone Controller", size=1, types=["drone_controller", "utility"],
                                     cost=80, docking=2)),
}


def item(key: str, category: str, **data) -> tuple:
    return key, (category, {"name": key.replace("-", " ").title(), **data})


def make_catalogue(*extra: tuple, **overrides: dict) -> Catalogue:
    """The base items plus `extra` (key, (category, data)); `overrides` patch a base item's fields by key."""
    raw = dict(BASE_ITEMS)
    for key, changes in overrides.items():
        category, data = raw[key]
        raw[key] = (category, {**data, **changes})
    raw.update(dict(extra))
    items, categories = {}, {}
    for key, (category, data) in raw.items():
        items[key] = TypeAdapter(CATEGORIES[category]).validate_python({"key": key, **data})
        categories[key] = category
    return Catalogue("megamercs", PACK, items, categories, "Test pack")


def unit(chassis: str | None = "mecha", *mounts: tuple, **fields) -> dict[str, Any]:
    """A unit document; each mount is (item, hardpoint) or (item, hardpoint, ammo)."""
    return {"format": "hardpoint.build/1", "ruleset": "megamercs", "kind": "unit", "pack": PACK, "name": "Test unit",
            "chassis": chassis,
            "mounts": [{"item": m[0], "hardpoint": m[1], **({"ammo": m[2]} if len(m) > 2 else {})} for m in mounts],
            **fields}


def codes(report, severity: str | None = None) -> set[str]:
    return {i.code for i in report.issues if severity in (None, i.severity)}
