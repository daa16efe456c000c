"""MEGA MERCS 2028 pack items and build documents (digest sections 2 and 6).

The rulebook is a work-in-progress draft whose stat cards were pictures: the field list is the card's call-outs
(L107-268) and the glossary (L916-1162). Target numbers (TN) are d100 roll-under percentages; ranges, movement and
vision are hexes. Every model forbids unknown fields, so a typo in a pack names the file, item and field.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ..base import KEY_PATTERN, BuildDocument, Part, PlainName, SavedOrWritten, Strict

TN = Annotated[int, Field(ge=0, le=100)]
NonNeg = Annotated[int, Field(ge=0, le=999)]
Size = Annotated[int, Field(ge=1, le=12)]
ItemKey = Annotated[str, Field(pattern=KEY_PATTERN)]

# Hard-point and item type symbols (MM-R43, L1090-1162); Pintle and Co-Axial are hard-point attributes (MM-R08).
HardpointType = Literal["light_weapon", "medium_weapon", "main_gun", "artillery", "launcher", "melee", "thrown",
                        "applique_armour", "electronic_support", "sensor", "utility", "leg", "drone_controller",
                        "specialist"]
HARDPOINT_TYPE_LABELS = {
    "light_weapon": "Light Weapon", "medium_weapon": "Medium Weapon", "main_gun": "Main Gun",
    "artillery": "Artillery Weapon", "launcher": "Launcher", "melee": "Mecha Scale Melee Weapon",
    "thrown": "Mecha Scale Thrown Item", "applique_armour": "Applique Armour",
    "electronic_support": "Electronic Support Equipment", "sensor": "Sensor Equipment",
    "utility": "Utility Equipment", "leg": "Leg Hardpoint", "drone_controller": "Drone Controller",
    "specialist": "Specialist Item",
}
DamageType = Literal["shaped_charge", "piercing", "impact", "slash", "energy", "small_arms"]
MovementType = Literal["infantry", "legged", "tracked_wheeled", "flying_vtol"]
# Each movement type as the card names it, with what terrain does to it (L121-128, L926-932).
MOVEMENT_TYPES = {"infantry": ("Infantry", "bogged down by soggy ground"),
                  "legged": ("Legged", "takes most terrain in its stride"),
                  "tracked_wheeled": ("Tracked/Wheeled", "slowed by dense or broken ground"),
                  "flying_vtol": ("Flying (VTOL)", "ignores terrain, but never benefits from cover")}
UnitType = Literal["mecha", "tank", "vehicle", "vtol"]
# The action pool's symbols (MM-R44): C is the tank Commander's, F the mecha's Focus (MM-R12).
Action = Literal["M", "A", "U", "A/U", "U/M", "A/M", "W", "C", "F"]
Location = Literal["right_arm", "left_arm", "legs", "torso", "hull", "turret"]
LOCATION_LABELS = {"right_arm": "R. Arm", "left_arm": "L. Arm", "legs": "Legs", "torso": "Torso",
                   "hull": "Hull", "turret": "Turret"}
MECHA_PARTS = ("right_arm", "left_arm", "legs", "torso")  # the hit table's parts, each with its grid (MM-R31)
Edge = Literal["front", "front_right", "rear_right", "rear", "rear_left", "front_left"]
EDGES = ("front", "front_right", "rear_right", "rear", "rear_left", "front_left")
GridType = Literal["track", "bi_directional", "radial"]
SpecialInternal = Literal["pilot", "crew", "leg_parts", "treads"]
# How an unevaded unit may evade (MM-R37): mecha through Evasion Focus, others as their card says.
Evasion = Literal["none", "focus", "action", "automatic"]

# Attributes and how many numbers each takes (digest 6.3): Blast (X, Y), Armour Penetration (X, Y), ...
ATTRIBUTE_PARAMETERS = {
    "armour_penetration": 2, "blast": 2, "large_projectile": 0, "interceptor": 2, "electronic_defence": 0,
    "network_defence": 0, "data_link": 0, "ecm": 0, "heavy_emp": 0, "light_emp": 0, "spalling": 1,
    "demolisher": 0, "graze": 1, "indirect_fire": 1, "variable_indirect_fire": 1, "linked": 0, "homing": 0,
    "tracking": 1, "sensor_lock": 0, "signature_dampening": 0, "advanced_sensor": 1, "optical_stealth": 0,
    "optical_detection": 1, "silenced": 0, "beacon": 0, "slash_arc": 0,
}
AttributeName = Literal[tuple(ATTRIBUTE_PARAMETERS)]  # type: ignore[valid-type]


class Attribute(Strict):
    name: AttributeName
    x: Annotated[int, Field(ge=0, le=100)] | None = None
    y: Annotated[int, Field(ge=0, le=100)] | None = None

    @model_validator(mode="after")
    def _parameters(self) -> "Attribute":
        wanted = ATTRIBUTE_PARAMETERS[self.name]
        given = sum(v is not None for v in (self.x, self.y))
        if given != wanted or (wanted == 1 and self.x is None):
            raise ValueError(f"{self.name} takes {['no numbers', 'x', 'x and y'][wanted]}")
        return self

    @property
    def label(self) -> str:
        numbers = ", ".join(str(v) for v in (self.x, self.y) if v is not None)
        name = self.name.replace("_", " ").capitalize()
        return f"{name} ({numbers})" if numbers else name


def attribute(attributes, name: str) -> Attribute | None:
    return next((a for a in attributes if a.name == name), None)


class Profile(Strict):
    """One attack type of a weapon card (L216-240, L280), or one ammunition of a variable-ammo weapon (L869)."""

    name: str = Field(default="", max_length=40)
    accuracy: TN  # the base TN; a small-arms weapon's % (it replaces damage and accuracy, MM-R35)
    range: Annotated[int, Field(ge=1, le=99)] | Literal["melee"]
    rof: Annotated[int, Field(ge=1, le=20)]
    damage: NonNeg
    damage_type: DamageType
    internal: Annotated[int, Field(ge=0, le=99)] = 0
    penetration: TN = 0
    attributes: Annotated[list[Attribute], Field(max_length=12)] = Field(default_factory=list)

    @model_validator(mode="after")
    def _shape(self) -> "Profile":
        minimum = attribute(self.attributes, "indirect_fire") or attribute(self.attributes, "variable_indirect_fire")
        if minimum is not None and (self.range == "melee" or minimum.x > self.range):
            raise ValueError("MM-R34: an indirect fire minimum range must be within the weapon's Range")
        if self.damage_type == "small_arms" and self.damage:
            raise ValueError("MM-R35: a small-arms profile has a % instead of damage; leave damage at 0")
        return self


class Mountable(Part):
    """What goes on a hard-point: its size and type symbols (MM-R01, MM-R02)."""

    size: Size
    types: Annotated[list[HardpointType], Field(min_length=1, max_length=4)]
    cost: NonNeg = 0
    cost_tag: str = Field(default="", max_length=8)  # "(R)" after the card's cost: meaning unknown (MM-A06)
    requires_power: bool = False  # MM-R46: stops working under EMP
    sensitive_electronics: bool = False  # MM-R46: stops working when hacked or under EMP
    on_grid: bool = True  # "Most (but not all)" equipment sits on the internals grid (MM-R15)
    specialist_for: Annotated[list[ItemKey], Field(max_length=8)] = Field(default_factory=list)  # MM-R06
    source: Literal["starter", "rulebook"] = "starter"  # the HMG and the Mace are the rulebook's own (L186-208)

    @model_validator(mode="after")
    def _specialist(self) -> "Mountable":
        if ("specialist" in self.types) != bool(self.specialist_for):
            raise ValueError("MM-R06: a Specialist Item names the chassis it is made for, and only it does")
        return self


class Weapon(Mountable):
    profiles: Annotated[list[Profile], Field(min_length=1, max_length=6)]
    variable_ammo: bool = False  # then each profile is an ammunition (MM-R09)
    limited_ammo: Annotated[int, Field(ge=1, le=20)] | None = None  # uses a game (MM-R41)

    @model_validator(mode="after")
    def _profiles(self) -> "Weapon":
        names = [p.name for p in self.profiles]
        if len(self.profiles) > 1 and (not all(names) or len(set(names)) != len(names)):
            raise ValueError("MM-R33: a weapon's attack types (or ammunition) each need their own name")
        return self


class Bonus(Strict):
    """A stat bonus and the source it belongs to: one source's bonuses never stack, the highest wins (MM-R21)."""

    stat: Literal["accuracy", "dr", "ewar", "vision", "movement", "agility"]
    value: Annotated[int, Field(ge=-100, le=100)]
    source: Literal["equipment", "armour", "shield", "passive", "active", "lock"] = "equipment"


class TargetMarker(Strict):
    accuracy: TN
    range: Annotated[int, Field(ge=1, le=99)]


class Equipment(Mountable):
    attributes: Annotated[list[Attribute], Field(max_length=12)] = Field(default_factory=list)
    bonuses: Annotated[list[Bonus], Field(max_length=8)] = Field(default_factory=list)
    marker: TargetMarker | None = None  # a target marker's roll and reach, for marker locks (L355)
    docking: Annotated[int, Field(ge=0, le=12)] = 0  # small drones it docks (MM-A20: authored)


class Hardpoint(Strict):
    key: ItemKey
    size: Size
    types: Annotated[list[HardpointType], Field(min_length=1, max_length=8)]
    location: Location
    pintle: bool = False
    coaxial: bool = False

    @property
    def name(self) -> str:
        """As a card prints it: `r-arm` is the "R. Arm", `pylons` the "Pylons"."""
        return " ".join(word.capitalize() + ("." if len(word) == 1 else "") for word in self.key.split("-"))


class Grid(Strict):
    """One internals grid (L467-537): its hexes are destroyed in the order its type gives."""

    location: Location
    type: GridType
    hexes: Annotated[int, Field(ge=1, le=37)]
    special: dict[SpecialInternal, Annotated[int, Field(ge=1, le=8)]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _fits(self) -> "Grid":
        if self.type == "radial" and self.hexes not in (7, 19, 37):
            raise ValueError("a radial grid is whole rings round a centre hex: 7, 19 or 37 hexes")
        if sum(self.special.values()) > self.hexes:
            raise ValueError("more special internals than hexes")
        return self


class DamageReduction(Strict):
    """DR per hex edge, and `top` against direct hits from indirect fire (L317-321, MM-A36)."""

    front: NonNeg = 0
    front_right: NonNeg = 0
    rear_right: NonNeg = 0
    rear: NonNeg = 0
    rear_left: NonNeg = 0
    front_left: NonNeg = 0
    top: NonNeg = 0


class Chassis(Part):
    """A large unit's stat card without its load-out (L107-184)."""

    role: str = Field(min_length=1, max_length=80)
    unit_type: UnitType
    hp: Annotated[int, Field(ge=1, le=999)]
    agility: TN | None = None  # None: the unit cannot evade
    evasion: Evasion = "none"
    movement: Annotated[int, Field(ge=0, le=30)]
    movement_type: MovementType
    vision: Annotated[int, Field(ge=0, le=40)]
    ewar: TN
    actions: Annotated[list[Action], Field(min_length=1, max_length=8)]
    cost: NonNeg = 0
    cost_tag: str = Field(default="", max_length=8)
    hardpoints: Annotated[list[Hardpoint], Field(max_length=16)]
    grids: Annotated[list[Grid], Field(min_length=1, max_length=6)]
    dr: DamageReduction = Field(default_factory=DamageReduction)
    integrated: Annotated[list[ItemKey], Field(max_length=8)] = Field(default_factory=list)  # MM-R05
    attributes: Annotated[list[Attribute], Field(max_length=12)] = Field(default_factory=list)
    bonuses: Annotated[list[Bonus], Field(max_length=8)] = Field(default_factory=list)

    @model_validator(mode="after")
    def _card(self) -> "Chassis":
        keys = [h.key for h in self.hardpoints]
        if len(set(keys)) != len(keys):
            raise ValueError("hard-point keys must be different")
        locations = [g.location for g in self.grids]
        if len(set(locations)) != len(locations):
            raise ValueError("one internals grid per location")
        if self.agility is None and self.evasion != "none":
            raise ValueError("MM-R37: a unit that evades has an Agility")
        problems = chassis_problems(self)
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def grid(self, location: str) -> Grid | None:
        return next((g for g in self.grids if g.location == location), None)

    def special(self, kind: str) -> int:
        return sum(g.special.get(kind, 0) for g in self.grids)


def chassis_problems(chassis: "Chassis") -> list[str]:
    """The card rules a chassis must meet (MM-R07, MM-R12, MM-R29 to MM-R31), each named by rule ID."""
    problems = []
    special = "F" if chassis.unit_type == "mecha" else "C" if chassis.unit_type in ("tank", "vehicle") else None
    for symbol, owner in (("F", "mecha"), ("C", "tanks and vehicles")):
        if symbol in chassis.actions and symbol != special:
            problems.append(f"MM-R12: the {'Focus' if symbol == 'F' else 'Commander'} action belongs to {owner} only")
    if special is not None and special not in chassis.actions:
        problems.append(f"MM-R12: a {chassis.unit_type}'s action pool has its {'Focus' if special == 'F' else 'Commander'} "
                        f"action ({special})")
    legs = [h.key for h in chassis.hardpoints if "leg" in h.types]
    if legs and (chassis.unit_type != "mecha" or any(h.location != "legs" for h in chassis.hardpoints if "leg" in h.types)):
        problems.append("MM-R07: leg hard-points are a mecha's, on its legs")
    if chassis.unit_type == "mecha":
        missing = [LOCATION_LABELS[part] for part in MECHA_PARTS if chassis.grid(part) is None]
        if missing:
            problems.append(f"MM-R31: a mecha has a grid for each part of the hit table; missing {', '.join(missing)}")
        if chassis.special("pilot") != 1:
            problems.append("MM-R31: a mecha has one Pilot hex")
        if not (chassis.grid("legs") and chassis.grid("legs").special.get("leg_parts")):
            problems.append("MM-R31: a mecha's legs grid holds its Leg Parts")
    if chassis.unit_type in ("tank", "vehicle") and chassis.special("crew") < 2:
        problems.append("MM-R29: a tank has at least two Crew hexes (losing two destroys it)")
    if chassis.movement_type == "tracked_wheeled" and chassis.special("treads") != 2:
        problems.append("MM-R30: a tracked or wheeled unit has exactly two Tread hexes")
    if chassis.movement_type != "tracked_wheeled" and chassis.special("treads"):
        problems.append("MM-R30: only tracked or wheeled units have Treads")
    return problems


class Drone(Part):
    """A drone fielded through a drone controller (L729-745)."""

    size: Literal["small", "large"]
    flying: bool = False
    hp: Annotated[int, Field(ge=1, le=999)]
    ish: Annotated[int, Field(ge=1, le=9)] | None = None  # small drones may use infantry scale health (L664)
    agility: TN | None = None
    movement: Annotated[int, Field(ge=0, le=30)]
    vision: Annotated[int, Field(ge=0, le=40)]
    ewar: TN
    actions: Annotated[list[Action], Field(min_length=1, max_length=6)]
    dr: NonNeg = 0
    weapons: Annotated[list[ItemKey], Field(max_length=4)] = Field(default_factory=list)
    modes: Annotated[list[str], Field(max_length=6)] = Field(default_factory=list)  # behaviours (L733): authored
    cost: NonNeg = 0

    @model_validator(mode="after")
    def _health(self) -> "Drone":
        if self.ish is not None and self.size != "small":
            raise ValueError("MM-R18: only small drones carry ISH")
        return self


class SquadWeapon(Strict):
    weapon: ItemKey
    count: Annotated[int, Field(ge=1, le=6)]


class InfantrySquad(Part):
    """Small units in one hex (L638-727)."""

    members: Annotated[int, Field(ge=1, le=6)]  # MM-R17
    ish: Annotated[int, Field(ge=1, le=9)] = 1  # MM-R18
    blast_resistance: TN  # MM-R19: the save never exceeds 60, cover included
    cqc: TN
    movement: Annotated[int, Field(ge=0, le=12)]
    vision: Annotated[int, Field(ge=0, le=40)]
    actions: Annotated[list[Action], Field(min_length=1, max_length=6)]
    weapons: Annotated[list[SquadWeapon], Field(min_length=1, max_length=6)]
    cost: NonNeg = 0

    @model_validator(mode="after")
    def _armed(self) -> "InfantrySquad":
        if sum(w.count for w in self.weapons) > self.members:
            raise ValueError("MM-R17: more weapons carried than members")
        return self


class Aircraft(Part):
    """Fixed-wing close air support (L749-809)."""

    ahp: Annotated[int, Field(ge=1, le=20)]
    agility: TN
    ewar: TN
    anti_aircraft: TN = 0  # AA damage is a chance to hit (L787)
    short_range: bool = False  # guns or missiles for dogfights (L795)
    long_range: bool = False
    attack_types: Annotated[list[str], Field(max_length=6)] = Field(default_factory=list)
    cost: NonNeg = 0


CATEGORIES = {"chassis": Chassis, "weapon": Weapon, "equipment": Equipment, "drone": Drone,
              "infantry": InfantrySquad, "aircraft": Aircraft}
CATEGORY_LABELS = {"chassis": "Chassis", "weapon": "Weapons", "equipment": "Equipment", "drone": "Drones",
                   "infantry": "Infantry squads", "aircraft": "Support aircraft"}


# --- build documents -------------------------------------------------------------------------

class Mount(Strict):
    item: ItemKey
    hardpoint: ItemKey
    ammo: str | None = Field(default=None, max_length=40)  # a mecha's one ammunition for the game (MM-R09)


class UnitBuild(BuildDocument):
    ruleset: Literal["megamercs"] = "megamercs"
    kind: Literal["unit"] = "unit"
    name: PlainName = Field(default="Unnamed unit", min_length=1, max_length=80)
    chassis: ItemKey | None = None
    # Capacity is the validator's to judge (MM-R03); beyond 32 the document is not a build.
    mounts: Annotated[list[Mount], Field(max_length=32)] = Field(default_factory=list)


class UnitLoadout(Strict):
    """A unit written into the company itself (a pack's example company has no saved builds to link)."""

    name: PlainName = Field(min_length=1, max_length=80)
    chassis: ItemKey
    mounts: Annotated[list[Mount], Field(max_length=32)] = Field(default_factory=list)


class CompanyUnit(SavedOrWritten):
    """A saved unit (by its share id), or one written in."""

    written = "unit"
    unit: UnitLoadout | None = None


class CompanyDrone(Strict):
    drone: ItemKey
    controller: Annotated[int, Field(ge=0, le=31)]  # the index of the unit carrying its controller
    docked: bool = False


class CompanyEntry(Strict):
    item: ItemKey
    count: Annotated[int, Field(ge=1, le=12)] = 1


class CompanyBuild(BuildDocument):
    ruleset: Literal["megamercs"] = "megamercs"
    kind: Literal["company"] = "company"
    name: PlainName = Field(default="New company", min_length=1, max_length=80)
    credit_budget: Annotated[int, Field(ge=0, le=10_000_000)] | None = None  # "Not all games" have one (L180)
    units: Annotated[list[CompanyUnit], Field(max_length=32)] = Field(default_factory=list)
    drones: Annotated[list[CompanyDrone], Field(max_length=32)] = Field(default_factory=list)
    infantry: Annotated[list[CompanyEntry], Field(max_length=16)] = Field(default_factory=list)
    aircraft: Annotated[list[CompanyEntry], Field(max_length=8)] = Field(default_factory=list)
