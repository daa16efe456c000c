"""Ember·Obsidian Protocol pack items (digest 2.3 to 2.9): Part cards by slot with their Discard side, Pilots with
ID numbers, Drones with fixed stances, Projectile and Deployable cards, and actions with their dice tables."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ..base import BuildDocument, Part, PlainName, SavedOrWritten, Strict

Slot = Literal["torso", "backpack", "chassis", "left_arm", "right_arm"]
SLOTS: tuple[Slot, ...] = ("torso", "backpack", "chassis", "left_arm", "right_arm")
SLOT_LETTERS = {"torso": "T", "backpack": "B", "chassis": "C", "left_arm": "L", "right_arm": "R"}
Timing = Literal["swift", "melee", "projectile", "firing", "movement", "tactical"]
TIMINGS: tuple[Timing, ...] = ("swift", "melee", "projectile", "firing", "movement", "tactical")  # L279, in order
Stance = Literal["offensive", "defensive", "mobility"]
Small = Annotated[int, Field(ge=0, le=20)]


class Keyword(Strict):
    """A Special Rule Keyword (6.2), with its X where it has one: Armor Piercing 2, Command Generation 4."""

    name: str = Field(min_length=1, max_length=40)
    x: int | None = Field(None, ge=0, le=20)


class Action(Strict):
    """One action of a card (2.5): its type and length, range, dice table, ammunition and keywords."""

    name: str = Field(min_length=1, max_length=80)
    type: Literal["swift", "melee", "projectile", "firing", "movement", "tactical", "passive", "immediate", "delay"]
    length: Literal["short", "medium", "long"] | None = None  # Mech actions; None for passives and Drones
    control: Literal["command", "automatic"] | None = None  # Drone actions (L139-141)
    range: int | Literal["--"] | None = None  # "--": adjacent grids only
    yellow: Small = 0
    red: Small = 0
    ammo: Small = 0
    charge: bool = False
    intercept: Small = 0
    launches: str | None = Field(None, max_length=80)  # the Projectile or Deployable card it places (E-R14)
    keywords: Annotated[list[Keyword], Field(max_length=12)] = Field(default_factory=list)
    conditions: Annotated[list[str], Field(max_length=6)] = Field(default_factory=list)  # [Hit], [Two-Handed]…
    text: str = Field(default="", max_length=1000)

    def keyword(self, name: str) -> Keyword | None:
        return next((k for k in self.keywords if k.name == name), None)


class Card(Part):
    """What Parts, Drones and Projectiles share: defence values and actions, and the format's cost."""

    cost: Annotated[int, Field(ge=0, le=999)] = 0  # E-X01: an authored format's points, not the rulebook's

    armor: Small = 0
    structure: Small | None = None  # none: Destroyed on its first Penetration (L514-516)
    dodge: Small = 0
    electronic: Small | Literal["-"] = 0
    actions: Annotated[list[Action], Field(max_length=6)] = Field(default_factory=list)
    keywords: Annotated[list[Keyword], Field(max_length=12)] = Field(default_factory=list)  # passives

    def keyword(self, name: str) -> Keyword | None:
        return next((k for k in self.keywords if k.name == name), None)


class DiscardSide(Strict):
    """A Handheld Part's Discard card: the Part after its weapon is dropped (L754-759)."""

    name: str = Field(min_length=1, max_length=80)
    armor: Small = 0
    structure: Small | None = None
    dodge: Small = 0
    electronic: Small = 0
    freehand: bool = True
    actions: Annotated[list[Action], Field(max_length=6)] = Field(default_factory=list)


class PartCard(Card):
    slot: Slot
    parry: Small | None = None
    maneuver: Small | None = None  # the Chassis's Maneuver range (L295)
    handheld: bool = False
    freehand: bool = False
    discard: DiscardSide | None = None
    secret: bool = False  # has a "secret configuration" entry (L248)
    faction: Literal["RDL", "UN", "GOF"] | None = None

    @model_validator(mode="after")
    def _handheld_has_a_discard_card(self) -> "PartCard":
        # E-R07: a Handheld Part comes with its Discard card.
        if self.handheld and self.discard is None:
            raise ValueError("a Handheld Part needs its Discard card (discard) (E-R07)")
        return self


class Pilot(Part):
    cost: Annotated[int, Field(ge=0, le=999)] = 0  # E-X01, authored
    id_number: str = Field(min_length=1, max_length=12)
    faction: Literal["RDL", "UN", "GOF"]
    squadron: str = Field(default="", max_length=80)
    max_link: int = Field(ge=1, le=12)
    initiative: dict[Timing, Annotated[int, Field(ge=0, le=20)]]

    @model_validator(mode="after")
    def _every_timing(self) -> "Pilot":
        if set(self.initiative) != set(TIMINGS):
            raise ValueError(f"initiative needs a value for each Timing: {', '.join(TIMINGS)}")
        return self


class Drone(Card):
    size: Literal["small", "medium", "large"]
    movement: Literal["ground", "flying", "aerial"]
    movement_range: Small
    stance: Stance  # fixed by its card (E-R13)
    # E-R11 (L837): Parts the Drone carries as Load. It gains none of their Actions or attributes: no rule reads
    # them for the Drone; they are listed so the table brings them. The rulebook sets no limit on Load (E-X07).
    load: Annotated[list[Annotated[str, Field(min_length=1, max_length=80)]], Field(max_length=6)] = \
        Field(default_factory=list)


class Projectile(Card):
    kind: Literal["projectile", "deployable"]
    stance: Stance = "defensive"
    missile_group: Small | None = None


class CommonAction(Part):
    """A Common Action (6.1) or Reboot, as data: which Timing it starts, its dice and which Parts perform it."""

    type: Timing
    length: Literal["short", "medium", "long"] | None = None
    range: int | Literal["--"] | None = None
    yellow: Small = 0
    red: Small = 0
    performers: Annotated[list[str], Field(max_length=6)] = Field(default_factory=list)  # slots, "handheld", "charge"
    text: str = Field(default="", max_length=1000)


CATEGORIES = {"part": PartCard, "pilot": Pilot, "drone": Drone, "projectile": Projectile,
              "common_action": CommonAction}
CATEGORY_LABELS = {"part": "Parts", "pilot": "Pilots", "drone": "Drones", "projectile": "Projectiles and Deployables",
                   "common_action": "Common Actions"}


# --- build documents ---------------------------------------------------------------------------
ItemKey = Annotated[str, Field(min_length=1, max_length=80)]


class MechBuild(BuildDocument):
    """A Mech: a Part card in each slot it fills, its Pilot, the stance it deploys in, which Handheld Parts start on
    their Discard side and which Parts it keeps secret (E-R25)."""

    ruleset: Literal["ember"] = "ember"
    kind: Literal["mech"] = "mech"
    name: PlainName = Field(default="New Mech", min_length=1, max_length=80)
    parts: dict[Slot, ItemKey] = Field(default_factory=dict)  # one card a slot (E-R01)
    pilot: ItemKey | None = None
    stance: Stance = "offensive"  # E-R12: a Mech deployed without a Stance Token is Offensive
    discarded: Annotated[list[Slot], Field(max_length=5)] = Field(default_factory=list)
    secret: Annotated[list[Slot], Field(max_length=5)] = Field(default_factory=list)
    # On a share link only (see secrecy.py): the slots whose secret Part is hidden. No number of the Part goes with
    # them (E-R25): the verdicts that count it are reached by the server with the whole Mech.
    masked: Annotated[list[Slot], Field(max_length=5)] = Field(default_factory=list)

    @model_validator(mode="after")
    def _masked_slots_are_empty(self) -> "MechBuild":
        if held := [slot for slot in self.masked if slot in self.parts]:
            raise ValueError(f"masked: {', '.join(held)} also hold a Part; a masked slot hides its Part")
        if len(set(self.masked)) < len(self.masked):
            raise ValueError("masked: a slot is named twice")
        return self


class SquadDrone(Strict):
    drone: ItemKey
    count: int = Field(1, ge=1, le=12)


class WrittenMech(Strict):
    """A Mech written into the squad (a pack's example squads), as a saved Mech would hold it."""

    name: PlainName = Field(min_length=1, max_length=80)
    parts: dict[Slot, ItemKey] = Field(default_factory=dict)
    pilot: ItemKey | None = None
    stance: Stance = "offensive"
    discarded: Annotated[list[Slot], Field(max_length=5)] = Field(default_factory=list)


class SquadMech(SavedOrWritten):
    """A saved Mech by its share id, or one written in."""

    written = "mech"
    mech: WrittenMech | None = None


class SquadBuild(BuildDocument):
    """A player's squad: saved Mechs by share link, and Drones from the pack."""

    ruleset: Literal["ember"] = "ember"
    kind: Literal["squad"] = "squad"
    name: PlainName = Field(default="New squad", min_length=1, max_length=80)
    mechs: Annotated[list[SquadMech], Field(max_length=12)] = Field(default_factory=list)
    drones: Annotated[list[SquadDrone], Field(max_length=24)] = Field(default_factory=list)
