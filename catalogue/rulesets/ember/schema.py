"""Ember·Obsidian Protocol pack items (digest 2.3 to 2.9): Part cards by slot with their Discard side, Pilots with
ID numbers, Drones with fixed stances, Projectile and Deployable cards, and actions with their dice tables."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..base import Part

Slot = Literal["torso", "backpack", "chassis", "left_arm", "right_arm"]
SLOTS: tuple[Slot, ...] = ("torso", "backpack", "chassis", "left_arm", "right_arm")
SLOT_LETTERS = {"torso": "T", "backpack": "B", "chassis": "C", "left_arm": "L", "right_arm": "R"}
Timing = Literal["swift", "melee", "projectile", "firing", "movement", "tactical"]
TIMINGS: tuple[Timing, ...] = ("swift", "melee", "projectile", "firing", "movement", "tactical")  # L279, in order
Stance = Literal["offensive", "defensive", "mobility"]
Small = Annotated[int, Field(ge=0, le=20)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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
    keywords: Annotated[list[Keyword], Field(max_length=12)] = Field(default_factory=list)
    conditions: Annotated[list[str], Field(max_length=6)] = Field(default_factory=list)  # [Hit], [Two-Handed]…
    text: str = Field(default="", max_length=1000)

    def keyword(self, name: str) -> Keyword | None:
        return next((k for k in self.keywords if k.name == name), None)


class Card(Part):
    """What Parts, Drones and Projectiles share: defence values and actions."""

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


class Projectile(Card):
    kind: Literal["projectile", "deployable"]
    stance: Stance = "defensive"
    missile_group: Small | None = None
