"""LANCER pack items, in the shape of a Lancer Content Pack (LCP) so that packs and COMP/CON pilots carry over.

An item's `key` is the LCP `id` unchanged. Fields Hardpoint computes with are typed and checked; every other field
an LCP carries (actions, synergies, bonuses in rich text) is kept as it came and shown as text, never dropped.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..base import BuildDocument, Part, PlainName, ShareId

LL = Annotated[int, Field(ge=0, le=12)]
# An LCP id as the pack writes it: lancer-data has `ms___scorpion_v70.1`, and third-party packs use capitals.
LCP_KEY = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$"
# Frame mounts and what they are called in LCP data; weapons name their size ("Auxiliary" for an Aux weapon).
MountType = Literal["Aux", "Main", "Flex", "Heavy", "Main/Aux", "Aux/Aux", "Integrated"]
# Ship-class is the Barbarossa's integrated weapon, which no mount takes.
WeaponSize = Literal["Auxiliary", "Main", "Heavy", "Superheavy", "Ship-class"]
# The six types, and those the 1.0 content adds: Special (the Engineer's prototypes), ??? (the Mimic Gun) and
# Spool Weapon (the Barbarossa's).
WeaponType = Literal["Rifle", "Cannon", "Launcher", "CQB", "Nexus", "Melee", "Special", "???", "Spool Weapon"]
DamageKind = Literal["Kinetic", "Energy", "Explosive", "Burn", "Heat", "Variable"]
Role = Literal["Striker", "Artillery", "Controller", "Support", "Defender", "Balanced"]


class Loose(BaseModel):
    """Nested LCP data: the fields Hardpoint reads are typed, the rest kept as they came."""

    model_config = ConfigDict(extra="allow", frozen=True)


class Kept(Part):
    """An LCP item: typed where Hardpoint computes, every other field kept (`extra`) and shown as text."""

    model_config = ConfigDict(extra="allow", frozen=True)

    key: str = Field(pattern=LCP_KEY)
    description: str = Field(default="", max_length=8000)  # LCP descriptions run long

    @model_validator(mode="before")
    @classmethod
    def _lcp_id(cls, data: Any) -> Any:
        """An LCP names an item by `id`; Hardpoint by `key`. Either is read, the id kept as the key."""
        if isinstance(data, dict) and "key" not in data and "id" in data:
            data = {"key": data["id"], **{k: v for k, v in data.items() if k != "id"}}
        return data

    def kept(self) -> dict[str, Any]:
        """The fields Hardpoint does not model, for display."""
        return dict(self.__pydantic_extra__ or {})


class Licensed(Kept):
    license_level: LL = 0
    license_id: str | None = None  # the licence (a frame's id) that unlocks it; None for LL0 generic gear
    source: str = Field(default="", max_length=40)  # the manufacturer


class FrameStats(Loose):
    size: Literal[0.5, 1, 2, 3]
    structure: int = Field(4, ge=1, le=8)
    stress: int = Field(4, ge=1, le=8)
    armor: int = Field(ge=0, le=6)
    hp: int = Field(ge=1, le=40)
    evasion: int = Field(ge=0, le=20)
    edef: int = Field(ge=0, le=20)
    heatcap: int = Field(ge=0, le=20)
    repcap: int = Field(ge=0, le=20)
    sensor_range: int = Field(ge=0, le=30)
    tech_attack: int = Field(ge=-10, le=10)
    save: int = Field(ge=0, le=20)
    speed: int = Field(ge=0, le=12)
    sp: int = Field(ge=0, le=20)


class Trait(Loose):
    name: str = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=2000)


class CoreSystem(Loose):
    name: str = Field(min_length=1, max_length=80)
    active_name: str = Field(default="", max_length=80)
    active_effect: str = Field(default="", max_length=4000)
    passive_name: str = Field(default="", max_length=80)
    passive_effect: str = Field(default="", max_length=4000)


class Frame(Licensed):
    mechtype: Annotated[list[Role], Field(min_length=1, max_length=3)]
    mounts: Annotated[list[MountType], Field(max_length=6)]
    stats: FrameStats
    traits: Annotated[list[Trait], Field(max_length=6)] = Field(default_factory=list)
    core_system: CoreSystem


class Tag(Loose):
    id: str = Field(min_length=1, max_length=40)
    val: int | str | None = None


class Damage(Loose):
    type: DamageKind | None = None  # none where a profile's damage is "N/A"
    val: int | str  # a number or dice: "1d6+2"; "???" or "N/A" with `override`


class Range(Loose):
    type: Literal["Range", "Threat", "Thrown", "Line", "Cone", "Blast", "Burst"]
    val: int | str


class Profile(Loose):
    """One of a weapon's firing modes (the Siege Cannon's two, the Sherman's four spool levels): its own damage,
    range and tags in place of the weapon's."""

    name: str = Field(min_length=1, max_length=80)
    damage: Annotated[list[Damage], Field(max_length=4)] = Field(default_factory=list)
    range: Annotated[list[Range], Field(max_length=4)] = Field(default_factory=list)
    tags: Annotated[list[Tag], Field(max_length=12)] = Field(default_factory=list)
    effect: str = Field(default="", max_length=4000)


class Weapon(Licensed):
    mount: WeaponSize
    type: WeaponType
    damage: Annotated[list[Damage], Field(max_length=4)] = Field(default_factory=list)
    range: Annotated[list[Range], Field(max_length=4)] = Field(default_factory=list)
    tags: Annotated[list[Tag], Field(max_length=12)] = Field(default_factory=list)
    profiles: Annotated[list[Profile], Field(max_length=8)] = Field(default_factory=list)
    sp: int = Field(0, ge=0, le=10)
    effect: str = Field(default="", max_length=4000)


class System(Licensed):
    type: str = Field(default="System", max_length=40)  # System, AI, Shield, Deployable, Drone, Tech...
    sp: int = Field(ge=0, le=10)
    tags: Annotated[list[Tag], Field(max_length=12)] = Field(default_factory=list)
    effect: str = Field(default="", max_length=4000)


class Mod(Licensed):
    sp: int = Field(ge=0, le=10)
    allowed_types: list[WeaponType] = Field(default_factory=list)
    allowed_sizes: list[WeaponSize] = Field(default_factory=list)
    restricted_types: list[WeaponType] = Field(default_factory=list)
    restricted_sizes: list[WeaponSize] = Field(default_factory=list)
    tags: Annotated[list[Tag], Field(max_length=12)] = Field(default_factory=list)
    effect: str = Field(default="", max_length=4000)


class TalentRank(Loose):
    name: str = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=4000)


class Talent(Kept):
    ranks: Annotated[list[TalentRank], Field(min_length=1, max_length=3)]


class CoreBonus(Kept):
    source: str = Field(default="", max_length=40)
    effect: str = Field(default="", max_length=4000)


class PilotGear(Kept):
    type: Literal["Weapon", "Armor", "Gear"]
    tags: Annotated[list[Tag], Field(max_length=12)] = Field(default_factory=list)


class Skill(Kept):
    detail: str = Field(default="", max_length=2000)


class TagDefinition(Kept):
    filter_ignore: bool = False


def tagged(item: Any, tag: str) -> Tag | None:
    return next((t for t in getattr(item, "tags", []) if t.id == tag), None)


CATEGORIES = {"frame": Frame, "weapon": Weapon, "system": System, "mod": Mod, "talent": Talent,
              "core_bonus": CoreBonus, "pilot_gear": PilotGear, "skill": Skill, "tag": TagDefinition}
CATEGORY_LABELS = {"frame": "Frames", "weapon": "Weapons", "system": "Systems", "mod": "Mods", "talent": "Talents",
                   "core_bonus": "CORE bonuses", "pilot_gear": "Pilot gear", "skill": "Skill triggers",
                   "tag": "Tags"}
# The files of a Lancer Content Pack, and the category each fills (lancer-data's README).
LCP_FILES = {"frames.json": "frame", "weapons.json": "weapon", "systems.json": "system", "mods.json": "mod",
             "talents.json": "talent", "core_bonuses.json": "core_bonus", "pilot_gear.json": "pilot_gear",
             "skills.json": "skill", "tags.json": "tag"}


# --- build documents ---------------------------------------------------------------------------
ItemKey = Annotated[str, Field(min_length=1, max_length=80)]  # LCP ids as they are
Ranks = Annotated[dict[ItemKey, Annotated[int, Field(ge=0, le=9)]], Field(max_length=60)]


class MountLoadout(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    weapons: Annotated[list[ItemKey], Field(max_length=3)] = Field(default_factory=list)
    mods: Annotated[list[ItemKey | None], Field(max_length=3)] = Field(default_factory=list)
    bracing: bool = False  # left empty to brace a Superheavy weapon
    # The CORE bonus that gives this mount (L-B09), by id as COMP/CON keeps it: on one of the frame's mounts, one that
    # refits it (Mount Retrofitting); on a mount after the frame's, the one that adds it (Improved Armament).
    core_bonus: ItemKey | None = None

    @model_validator(mode="after")
    def _no_trailing_empty_mods(self) -> "MountLoadout":
        # "no mod" at the end of the list says nothing: one spelling per load-out, so that forms round-trip.
        mods = list(self.mods)
        while mods and mods[-1] is None:
            mods.pop()
        object.__setattr__(self, "mods", mods)
        return self


class MechLoadout(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: PlainName = Field(min_length=1, max_length=80)
    frame: ItemKey
    # the frame's mounts in its order, then those CORE bonuses add
    mounts: Annotated[list[MountLoadout], Field(max_length=8)] = Field(default_factory=list)
    systems: Annotated[list[ItemKey], Field(max_length=24)] = Field(default_factory=list)


class PilotBuild(BuildDocument):
    ruleset: Literal["lancer"] = "lancer"
    kind: Literal["pilot"] = "pilot"
    name: PlainName = Field(default="New pilot", min_length=1, max_length=80)
    callsign: str = Field(default="", max_length=40)
    ll: int = Field(0, ge=-1, le=99)  # the validator, not the parser, holds it to 0-12 (L-B01)
    hase: dict[Literal["hull", "agility", "systems", "engineering", "targeting"], Annotated[int, Field(ge=0, le=99)]] = \
        Field(default_factory=dict)
    triggers: Ranks = Field(default_factory=dict)
    talents: Ranks = Field(default_factory=dict)
    licences: Ranks = Field(default_factory=dict)
    core_bonuses: Annotated[list[ItemKey], Field(max_length=8)] = Field(default_factory=list)
    gear: Annotated[list[ItemKey], Field(max_length=12)] = Field(default_factory=list)
    mechs: Annotated[list[MechLoadout], Field(max_length=12)] = Field(default_factory=list)

    @model_validator(mode="after")
    def _no_zero_ranks(self) -> "PilotBuild":
        # A rank of 0 is the same choice as no entry: one spelling, so that a form round-trips the document.
        for name in ("hase", "triggers", "talents", "licences"):
            object.__setattr__(self, name, {k: v for k, v in getattr(self, name).items() if v})
        return self


class LancePilot(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    build: ShareId  # a saved pilot's share id


class LanceBuild(BuildDocument):
    """A GM's lance: saved pilots, each by share link, with their mechs."""

    ruleset: Literal["lancer"] = "lancer"
    kind: Literal["lance"] = "lance"
    name: PlainName = Field(default="New lance", min_length=1, max_length=80)
    pilots: Annotated[list[LancePilot], Field(max_length=12)] = Field(default_factory=list)
