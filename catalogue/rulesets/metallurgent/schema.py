"""METALLURGENT pack items and build documents (digest sections 2.1-2.7).

Field names follow the rulebook's own vocabulary; units are Standard Tons (ST) for Load and
hexes for ranges and speeds. Every model forbids unknown fields, so a typo in a pack fails
loading with the file, item key and field named.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, field_validator, model_validator

from ..base import KEY_PATTERN, BuildDocument, Part, PlainName, SavedOrWritten, ShareId, Strict, plain_name

DamageType = Literal["KE", "CE", "TE"]
Chassis = Literal["biped", "reverse_joint", "quadruped", "tracks", "wheels", "hover"]
STRIDING = frozenset({"biped", "reverse_joint", "quadruped"})
Cooling = Literal["gas", "liquid", "plasma"]
TargetingType = Literal["optical", "infrared", "laser", "tracking", "spotting", "ewacs"]
WeaponClass = Literal["primary", "secondary", "tertiary"]
WeaponCategory = Literal["ballistic", "energetic", "melee"]
Arc = Literal["nose", "forward_left", "forward_right", "rear_left", "rear_right", "aft"]
Task = Literal["vanguard", "sniper", "recon", "defender", "artillerist", "commander"]
Condition = Literal["intact", "damaged", "degraded", "disabled", "destroyed"]
Mount = Literal["core", "left_arm", "right_arm"]
# Where a Gear item may go (M-R15); "any" means any Hardpoint.
MountRule = Literal["any", "arm", "core"]

COMPONENT_SLOTS = ("core", "mobility_base", "left_arm", "right_arm", "generator", "electronics")
SLOTS = COMPONENT_SLOTS + ("fcs",)
SLOT_LABELS = {
    "core": "Core", "mobility_base": "Mobility Base", "left_arm": "Left Arm",
    "right_arm": "Right Arm", "generator": "Generator", "electronics": "Electronics",
    "fcs": "Fire Control System",
}
# Which pack categories fit which slot (M-R01, M-R02).
SLOT_CATEGORIES = {
    "core": ("core",), "mobility_base": ("mobility_base",),
    "left_arm": ("standard_arm", "weapon_arm"), "right_arm": ("standard_arm", "weapon_arm"),
    "generator": ("generator",), "electronics": ("electronics",), "fcs": ("fcs",),
}

NonNeg = Annotated[int, Field(ge=0, le=999)]
Signed = Annotated[int, Field(ge=-99, le=99)]


class Resistances(Strict):
    KE: NonNeg = 0
    CE: NonNeg = 0
    TE: NonNeg = 0


class Component(Part):
    ap: Annotated[int, Field(gt=0, le=999)]
    resistance: Resistances
    load: NonNeg


class DrainingComponent(Component):
    drain: NonNeg = 0


class Core(DrainingComponent):
    defence: Annotated[int, Field(ge=1, le=9)]
    block_bonus: NonNeg
    block_cost: NonNeg
    hardpoints: Annotated[int, Field(ge=1, le=12)]  # "Cores also have at least one Hardpoint"


class Breakpoint(Strict):
    max_load: Annotated[int, Field(gt=0, le=999)]
    cruise: Signed
    flank: NonNeg
    init: Signed


class MobilityBase(DrainingComponent):
    chassis: Chassis
    dodge_bonus: NonNeg
    dodge_cost: NonNeg
    cruising_speed: NonNeg
    manoeuvre_cost: NonNeg
    initiative: Signed
    load_tolerance: Annotated[list[Breakpoint], Field(min_length=4, max_length=6)]

    @field_validator("load_tolerance")
    @classmethod
    def _ascending(cls, spread: list[Breakpoint]) -> list[Breakpoint]:
        loads = [b.max_load for b in spread]
        if loads != sorted(set(loads)):
            raise ValueError("breakpoints must be listed by strictly increasing max_load")
        return spread

    @property
    def striding(self) -> bool:
        return self.chassis in STRIDING


class WeaponStats(Strict):
    weapon_type: str = Field(min_length=1, max_length=40)
    category: WeaponCategory
    damage: NonNeg
    damage_type: DamageType
    range: NonNeg
    accuracy: Signed
    en_cost: NonNeg
    heat: NonNeg
    magazine: Annotated[int, Field(ge=1, le=999)] | None = None  # None: Physical Blades and the like
    reserve: NonNeg = 0
    functions: list[str] = Field(default_factory=list, max_length=8)
    payloads: list[str] = Field(default_factory=list, max_length=8)


class StandardArm(DrainingComponent):
    agility: Signed
    strength: NonNeg
    hardpoints: Annotated[int, Field(ge=0, le=12)]


class WeaponArm(DrainingComponent):
    agility: Signed
    weapon: WeaponStats


class Generator(Component):
    en_output: NonNeg
    en_capacity: NonNeg
    fuel_capacity: NonNeg
    charge_capacity: NonNeg
    heat_tolerance: NonNeg
    cooling: Cooling


class Electronics(DrainingComponent):
    intercept_bonus: NonNeg
    intercept_cost: NonNeg
    camera_modifier: Signed
    refresh_cost: NonNeg


class FireControlSystem(Part):
    max_range: NonNeg
    reliable_range: NonNeg
    targeting_type: TargetingType
    drain: NonNeg = 0

    @model_validator(mode="after")
    def _reliable_within_max(self) -> "FireControlSystem":
        if self.reliable_range > self.max_range:
            raise ValueError("reliable_range cannot exceed max_range")
        return self


class Gear(Part):
    load: NonNeg
    size: Annotated[int, Field(ge=1, le=12)]
    mount: MountRule = "any"


class Weapon(Gear, WeaponStats):
    weapon_class: WeaponClass


class EquipmentBase(Gear):
    en_cost: NonNeg = 0
    en_drain: NonNeg = 0
    en_offset: NonNeg = 0
    heat: NonNeg = 0

    @model_validator(mode="after")
    def _drain_or_offset(self) -> "EquipmentBase":
        # L1443: Equipment with EN Drain typically never has EN Offset; we keep it a hard data rule.
        if self.en_drain and self.en_offset:
            raise ValueError("equipment has either en_drain or en_offset, not both")
        return self


class Radar(EquipmentBase):
    type: Literal["radar"]
    subtype: Literal["tracking", "spotting", "ewacs"]  # M-R25: one Gear Type, three subtypes
    search_arcs: Annotated[list[Arc], Field(min_length=1, max_length=6)]
    range: NonNeg
    reliable_range: NonNeg
    burnthrough_range: NonNeg
    burnthrough_heat: NonNeg


class LocalControlArray(EquipmentBase):
    type: Literal["lca"]
    reliable_range: NonNeg
    max_range: NonNeg
    orders_per_turn: NonNeg
    order_limit: NonNeg
    chipset_capacity: NonNeg


class Radio(EquipmentBase):
    type: Literal["radio"]
    range: NonNeg
    chipset_capacity: NonNeg  # Support Chipsets only (M-R72)


class Jammer(EquipmentBase):
    type: Literal["jammer"]
    max_range: NonNeg
    reliable_range: NonNeg


class Shield(EquipmentBase):
    type: Literal["shield"]
    ap: Annotated[int, Field(gt=0, le=999)]
    resistance: Resistances
    mount: Literal["arm"] = "arm"  # M-R15: Shields mount only to a Standard Arm

    @model_validator(mode="after")
    def _passive(self) -> "Shield":
        if self.en_cost or self.en_drain or self.en_offset or self.heat:
            raise ValueError("a Shield has no EN Cost, Drain, Offset or Heat (L1451)")
        return self


class Radiator(EquipmentBase):
    type: Literal["radiator"]
    cooling: Annotated[int, Field(ge=1, le=99)]  # extra Heat dissipated each Upkeep


class AuxiliaryPowerUnit(EquipmentBase):
    type: Literal["apu"]
    en_output: Annotated[int, Field(ge=1, le=99)]  # extra EN regained each Upkeep


class CloseInWeaponSystem(EquipmentBase):
    type: Literal["ciws"]
    intercept: Annotated[int, Field(ge=1, le=99)]
    uses: Annotated[int, Field(ge=1, le=99)]


class FuelTank(EquipmentBase):
    type: Literal["fuel_tank"]
    fuel: Annotated[int, Field(ge=1, le=99)]


class TargetDesignator(EquipmentBase):
    type: Literal["target_designator"]
    range: NonNeg


# Gear that carries Chipsets: an LCA any kind, a Radio only Support ones (M-R70, M-R72).
CHIPSET_CARRIERS = frozenset({"lca", "radio"})


class Chipset(Part):
    """A programme loaded into an LCA or a Radio (digest 2.8); Command Chipsets come stock on every LCA."""

    type: Literal["command", "support", "control", "interference", "special"]
    orders: Annotated[int, Field(ge=0, le=9)] | None  # None: the rulebook leaves the cost out (Adjust Attitude)
    en_cost: NonNeg = 0
    heat: NonNeg = 0
    range_band: Literal["reliable", "maximum"] = "reliable"  # which LCA range the effect reaches (L1489)
    off_turn: bool = False  # usable outside the user's own Turn (L1491)
    lca: Annotated[str, Field(pattern=KEY_PATTERN)] | None = None  # a Special Chipset's LCA model (M-R73)

    @model_validator(mode="after")
    def _special_names_its_lca(self) -> "Chipset":
        if (self.type == "special") != (self.lca is not None):
            raise ValueError("a Special Chipset names the LCA model it belongs to (lca); no other Chipset does")
        return self


Equipment = Annotated[
    Union[Radar, LocalControlArray, Radio, Jammer, Shield, Radiator, AuxiliaryPowerUnit,
          CloseInWeaponSystem, FuelTank, TargetDesignator],
    Field(discriminator="type"),
]
EQUIPMENT_TYPE_LABELS = {
    "radar": "Radar", "lca": "Local Control Array", "radio": "Radio", "jammer": "Jammer",
    "shield": "Shield", "radiator": "Radiator", "apu": "APU", "ciws": "CIWS",
    "fuel_tank": "Fuel Tank", "target_designator": "Target Designator",
}
# Gear whose use points at something, so it has firing arcs (M-R16).
TARGETING_EQUIPMENT = frozenset({"radar", "jammer", "target_designator"})

CATEGORIES = {
    "core": Core,
    "mobility_base": MobilityBase,
    "standard_arm": StandardArm,
    "weapon_arm": WeaponArm,
    "generator": Generator,
    "electronics": Electronics,
    "fcs": FireControlSystem,
    "weapon": Weapon,
    "equipment": Equipment,
    "chipset": Chipset,
}
CATEGORY_LABELS = {
    "core": "Cores", "mobility_base": "Mobility Bases", "standard_arm": "Standard Arms",
    "weapon_arm": "Weapon Arms", "generator": "Generators", "electronics": "Electronics",
    "fcs": "Fire Control Systems", "weapon": "Weapons", "equipment": "Equipment", "chipset": "Chipsets",
}


# --- build documents -------------------------------------------------------------------------

ItemKey = Annotated[str, Field(pattern=KEY_PATTERN)]


MAX_CHIPSETS = 24
MAX_DEVELOPMENTS = 12


class GearEntry(Strict):
    item: ItemKey
    mount: Mount
    active: bool = True  # Drain / Offset Gear may start a Sortie active or inactive (M-R43)
    reserve: Annotated[int, Field(ge=0, le=999)] | None = None  # reserve ammunition carried (M-R63)
    # Chipsets loaded into an LCA or a Radio, a copy per entry (M-R71). More than any Capacity are read, so that
    # the validator, not the parser, says so (M-R70).
    chipsets: Annotated[list[ItemKey], Field(max_length=MAX_CHIPSETS)] = Field(default_factory=list)


class AnvilParts(Strict):
    core: ItemKey | None = None
    mobility_base: ItemKey | None = None
    left_arm: ItemKey | None = None
    right_arm: ItemKey | None = None
    generator: ItemKey | None = None
    electronics: ItemKey | None = None
    fcs: ItemKey | None = None


class AnvilBuild(BuildDocument):
    """The public build file, `hardpoint.build/1` (documented in README)."""

    ruleset: Literal["metallurgent"] = "metallurgent"
    kind: Literal["anvil"] = "anvil"
    name: PlainName = Field(default="Unnamed Anvil", min_length=1, max_length=80)
    task: Task | None = None  # cosmetic: "Tasks have no mechanical benefit" (L755)
    parts: AnvilParts = Field(default_factory=AnvilParts)
    # The rules cap Gear at 12 (M-R05); the document allows more so that the validator,
    # not the parser, tells the user what is wrong. Beyond 48 the document is not a build.
    gear: Annotated[list[GearEntry], Field(max_length=48)] = Field(default_factory=list)
    # Damage carried between Sorties moves with the part (M-R07).
    condition: dict[Literal[COMPONENT_SLOTS], Condition] = Field(default_factory=dict)  # type: ignore[valid-type]
    pilot: ShareId | None = None  # a saved Pilot's share id


# --- pilots (digest 2.9, 3.11) ---------------------------------------------------------------

ATTRIBUTES = {  # Field → Foci, in the rulebook's order (L2212-2222)
    "physical": ("athletics", "endurance", "finesse"),
    "mental": ("calculation", "composure", "investigation"),
    "social": ("intuition", "guile", "grace"),
}
KNOWLEDGES = {  # Knowledge → its three Proficiencies (L2230-2281)
    "engineering": ("chemical", "electrical", "mechanical"),
    "mathematics": ("geometry", "logic", "statistics"),
    "meteorology": ("atmospheric", "celestial", "terrestrial"),
    "aesthetics": ("artistic", "rhythmic", "somatic"),
    "language": ("ancient", "classical", "modern"),
    "politics": ("cultural", "global", "historical"),
    "gastronomy": ("ablutionary", "confectionary", "culinary"),
    "geography": ("constructed", "natural", "navigational"),
    "medicine": ("emotional", "mental", "physical"),
}
SPECIALISATIONS = ("battlemaster", "guardian", "heavy_gunner", "marksmech", "pugilist", "professional",
                   "roughrider", "scout", "stuntmech", "technician")
Attribute = Literal["athletics", "endurance", "finesse", "calculation", "composure", "investigation",
                    "intuition", "guile", "grace"]
Knowledge = Literal["engineering", "mathematics", "meteorology", "aesthetics", "language", "politics",
                    "gastronomy", "geography", "medicine"]
Spec = Literal["battlemaster", "guardian", "heavy_gunner", "marksmech", "pugilist", "professional",
               "roughrider", "scout", "stuntmech", "technician"]
AttributeMods = dict[Attribute, Annotated[int, Field(ge=-3, le=3)]]


class Specialisation(Part):
    key: Spec  # type: ignore[assignment]
    branches: Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]], Field(min_length=3, max_length=3)]


class SkillCosts(Strict):
    EN: NonNeg = 0
    Heat: NonNeg = 0
    Charge: NonNeg = 0


class Skill(Part):
    spec: Spec
    branch: str = Field(min_length=1, max_length=40)
    position: Annotated[int, Field(ge=1, le=12)]  # order down the branch; the largest is the bottom-most
    sp: Annotated[int, Field(ge=1, le=20)]
    category: Literal["passive", "active", "sustained"]
    frequency: str | None = Field(default=None, max_length=20)  # "1/Round"; None: unlimited (M-R107)
    costs: SkillCosts = Field(default_factory=SkillCosts)
    mother: str | None = Field(default=None, pattern=KEY_PATTERN)  # set on Subskills (M-R102)


class Lifepath(Part):
    attributes: AttributeMods = Field(default_factory=dict)
    knowledge: Knowledge | None = None


class Profession(Part):
    attributes: AttributeMods = Field(default_factory=dict)
    knowledges: Annotated[list[Knowledge], Field(min_length=1, max_length=3)]


class Development(Part):
    """A point bonus: an Attribute, a Proficiency improvement in one Knowledge, or a Talent (L2299-2303)."""

    attribute: Attribute | None = None
    knowledge: Knowledge | None = None
    talent: str | None = Field(default=None, max_length=60)

    @model_validator(mode="after")
    def _one_bonus(self) -> "Development":
        if sum(x is not None for x in (self.attribute, self.knowledge, self.talent)) != 1:
            raise ValueError("a Development gives exactly one of attribute, knowledge or talent")
        return self


class ProficiencyChoice(Strict):
    knowledge: Knowledge
    proficiency: str = Field(min_length=1, max_length=20)

    @model_validator(mode="after")
    def _belongs(self) -> "ProficiencyChoice":
        if self.proficiency not in KNOWLEDGES[self.knowledge]:
            raise ValueError(f"{self.knowledge} has the Proficiencies {', '.join(KNOWLEDGES[self.knowledge])}")
        return self


class Specialise(Strict):
    specialise: Spec


class Learn(Strict):
    learn: ItemKey
    paid: Annotated[int, Field(ge=0, le=60)]


class Unlearn(Strict):
    unlearn: ItemKey


HistoryEntry = Union[Specialise, Learn, Unlearn]


class PilotBuild(BuildDocument):
    """A Pilot. Skills and the Spec come from the append-only `history` (M-R96, M-R101, M-R104)."""

    ruleset: Literal["metallurgent"] = "metallurgent"
    kind: Literal["pilot"] = "pilot"
    name: PlainName = Field(default="New Pilot", min_length=1, max_length=80)
    callsign: str = Field(default="", max_length=40)
    mettle: Annotated[int, Field(ge=1, le=12)] = 6
    xp: Annotated[int, Field(ge=0, le=9999)] = 0  # MARA; the scale stops at 499 (M-R99)
    lifepath: ItemKey | None = None
    profession: ItemKey | None = None
    developments: Annotated[list[ItemKey], Field(max_length=MAX_DEVELOPMENTS)] = Field(default_factory=list)
    proficiencies: Annotated[list[ProficiencyChoice], Field(max_length=27)] = Field(default_factory=list)
    talents: Annotated[list[Annotated[str, Field(min_length=1, max_length=60)]], Field(max_length=12)] = Field(
        default_factory=list)
    history: Annotated[list[HistoryEntry], Field(max_length=400)] = Field(default_factory=list)


    @field_validator("callsign")
    @classmethod
    def _plain_callsign(cls, value: str) -> str:
        return plain_name(value) if value.strip() else ""


# --- conventional units and squads (digest 2.10, 2.11, 3.10) ----------------------------------

class UnitComponent(Strict):
    name: str = Field(min_length=1, max_length=40)
    ap: Annotated[int, Field(gt=0, le=999)]
    resistance: Resistances


class UnitGear(Strict):
    name: str = Field(min_length=1, max_length=60)
    damage: NonNeg = 0
    damage_type: DamageType | None = None
    range: NonNeg = 0
    accuracy: Signed = 0
    notes: str = Field(default="", max_length=200)


class ConventionalUnit(Part):
    unit_type: Literal["tank", "apc", "ifv", "light_vehicle", "helicopter", "artillery", "anti_air",
                       "infantry", "command"]
    defence: Annotated[int, Field(ge=1, le=9)]
    initiative: Signed
    height: Annotated[int, Field(ge=1, le=6)]
    damage_steps: Annotated[int, Field(ge=1, le=9)]
    move: NonNeg
    components: Annotated[list[UnitComponent], Field(min_length=1, max_length=6)]
    gear: Annotated[list[UnitGear], Field(max_length=12)] = Field(default_factory=list)
    commander: bool = False  # a command unit: counts towards the one-Commander advice (M-R75)


class SquadMember(SavedOrWritten):
    """A saved Anvil (by its share id) or a conventional unit from the squad's pack (by key)."""

    written = "unit"
    unit: ItemKey | None = None


class Platoon(Strict):
    name: PlainName = Field(default="Platoon", min_length=1, max_length=60)
    # M-R80 allows 4; up to 8 are read so that the validator, not the parser, says so.
    members: Annotated[list[SquadMember], Field(max_length=8)] = Field(default_factory=list)


class SquadBuild(BuildDocument):
    ruleset: Literal["metallurgent"] = "metallurgent"
    kind: Literal["squad"] = "squad"
    name: PlainName = Field(default="New Squad", min_length=1, max_length=80)
    players: Annotated[int, Field(ge=1, le=12)] | None = None  # None: one player per Anvil
    platoons: Annotated[list[Platoon], Field(max_length=24)] = Field(default_factory=list)
    opponent: ShareId | None = None  # another squad, for the Rule of Twos turn order (M-R83)


CATEGORIES.update({
    "specialisation": Specialisation, "skill": Skill, "lifepath": Lifepath, "profession": Profession,
    "development": Development, "conventional_unit": ConventionalUnit,
})
CATEGORY_LABELS.update({
    "specialisation": "Specialisations", "skill": "Skills", "lifepath": "Lifepaths", "profession": "Professions",
    "development": "Developments", "conventional_unit": "Conventional units",
})
