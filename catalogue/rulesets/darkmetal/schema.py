"""DARK METAL pack items (digest section 6): the rulebook's own tables, numbers as printed.

Trait modifiers are in levels and may be halves (Power Armor: Ath −1, Awa −0.5), so they are stored as
numbers that must be multiples of 0.5. Effects keep the table's text in our own words in `description`;
the parts the rules compute with are structured fields.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from ..base import KEY_PATTERN, BuildDocument, Part, PlainName, Strict

TRAITS = ("ath", "pre", "ins", "awa", "kno", "com")
TRAIT_NAMES = {"ath": "Athletics", "pre": "Precision", "ins": "Instinct", "awa": "Awareness", "kno": "Knowledge",
               "com": "Communication"}
SKILLS = {"arm": "Armorer", "ars": "Arsenal", "eng": "Engineering", "exp": "Explosives", "hac": "Hacking",
          "med": "Medic", "pil": "Piloting", "rep": "Repair", "sci": "Science", "sec": "Security",
          "ste": "Stealth", "sur": "Survival", "tra": "Traps"}  # DM-R10
Trait = Literal["ath", "pre", "ins", "awa", "kno", "com"]
SkillKey = Literal["arm", "ars", "eng", "exp", "hac", "med", "pil", "rep", "sci", "sec", "ste", "sur", "tra"]


def _half_step(value: float) -> float:
    if round(value * 2) != value * 2:
        raise ValueError("trait modifiers come in half levels (0.5, 1, 1.5 …)")
    return value


HalfLevel = Annotated[float, Field(ge=-6, le=6), AfterValidator(_half_step)]
NonNeg = Annotated[int, Field(ge=0, le=100_000)]
Key = Annotated[str, Field(pattern=KEY_PATTERN)]


class Effects(Strict):
    """What an item adds to the character, as the rules compute it (digest 4.2, 4.3)."""

    traits: dict[Trait, HalfLevel] = Field(default_factory=dict)
    bhp: int = 0
    ahp: int = 0
    armor: int = 0
    power: int = 0
    bulk: int = 0
    move: int = 0
    attach_points: int = 0
    backpack_slots: int = 0
    skills: dict[SkillKey, Annotated[int, Field(ge=-5, le=5)]] = Field(default_factory=dict)  # Cuttle Skin: +1 Ste


class Condition(Strict):
    """An effect that holds only while a score of the final build is in range (Functional Tail: Bulk at most 0;
    Robust Genetics: Splice at least 3). Judged once every purchase is counted, never when bought."""

    score: Literal["bulk", "splice", "cyber"]
    at_least: int | None = None
    at_most: int | None = None

    def holds(self, scores: dict[str, int]) -> bool:
        value = scores[self.score]
        return (self.at_least is None or value >= self.at_least) and (self.at_most is None or value <= self.at_most)

    def __str__(self) -> str:
        name = self.score.capitalize()
        if self.at_most is not None and self.at_least is None:
            return f"{name} {self.at_most} or less"
        return f"{name} {self.at_least} or more" if self.at_most is None else f"{name} {self.at_least} to {self.at_most}"


class Armor(Part):
    """Armor Table (L670-681). One is worn at a time (DM-R17)."""

    cost: NonNeg
    ahp: NonNeg = 0
    armor: NonNeg = 0
    attach_points: NonNeg = 0
    traits: dict[Trait, HalfLevel] = Field(default_factory=dict)  # Ath, Ins, Awa columns
    move: int = 0
    power: NonNeg = 0
    bulk: NonNeg = 0
    sys: NonNeg = 0
    max_cyber: int | None = None  # Scramble Suit: "must have Cyber of 1 or less" (DM-R19)


class Alongside(Strict):
    """An ability an MES gives only beside another, used as many times a scenario as a score of the finished
    Leader (Leg Splicing 3 with Second Heart: a free Dash after a Move, once per level of Splice, L701)."""

    ability: str = Field(min_length=1, max_length=60)
    alongside: Key
    per: Literal["splice", "cyber"]


class Boost(Strict):
    """Power spent on one Close Combat attack for extra Athletics dice (Dual Cyber Arms, L720): the preview
    offers each Close Combat attack with and without it."""

    power: Annotated[int, Field(ge=1, le=10)]
    extra_dice: Annotated[int, Field(ge=1, le=4)]


class Modification(Part):
    """Splice and Cyber Table rows (MES): a score, effects, and what they need or exclude."""

    cost: NonNeg
    score: NonNeg = 0  # the Splice or Cyber column (blank = 0, A-29)
    effects: Effects = Field(default_factory=Effects)
    requires_any: list[Key] = Field(default_factory=list)  # one of these must be installed first
    requires_skill: dict[SkillKey, int] = Field(default_factory=dict)  # e.g. Cuttle Skin: Stealth 1
    excludes: list[Key] = Field(default_factory=list)
    max_count: Annotated[int, Field(ge=1, le=4)] = 1  # Plated Dermal Layer: "Can be bought twice"
    not_with_armor: bool = False  # Olfactory Editing (DM-R20)
    condition: Condition | None = None  # e.g. Functional Tail: only while Bulk is 0
    strike: NonNeg = 0  # Close Combat damage of an implant that acts as a Melee Weapon (Internal Blades, DM-R25)
    grants: Alongside | None = None
    boost: Boost | None = None

    @model_validator(mode="after")
    def _condition_cannot_move_its_own_score(self) -> "Modification":
        # DM-R31: an effect that changed the score it depends on would have no one answer; no table row does.
        if self.condition and self.condition.score == "bulk" and self.effects.bulk:
            raise ValueError("an effect conditional on Bulk cannot change Bulk")
        return self


class Splice(Modification):
    pass


class Cyber(Modification):
    pass


class Item(Part):
    """Items Table (L722-735): backpack items."""

    cost: NonNeg | None = None  # blank for the Crappy kits
    slots: Annotated[int, Field(ge=1, le=4)] = 1
    kind: Literal["trauma_kit", "armor_kit", "mine", "grenade", "battery", "ammo"]
    power: NonNeg = 0


class FiringMode(Strict):
    """One way to fire a weapon, as a whole profile (digest 6.10): the preview computes each on its own."""

    name: str = Field(min_length=1, max_length=40)
    damage: NonNeg = 1
    # fixed: `damage` on a hit; bulk: the wielder's Bulk (PW A-Melee, L776); net_successes: 1 per net success
    # (the aimed Beam Rifle, L758); unrolled_dice: `damage` plus the attack dice left unrolled (L779).
    damage_rule: Literal["fixed", "bulk", "net_successes", "unrolled_dice"] = "fixed"
    pierce: NonNeg = 0
    to_hit: int = 0
    ammo: NonNeg = 0  # spent per attack
    power: NonNeg = 0  # spent per attack
    extra_dice: NonNeg = 0  # attack dice the mode adds
    shock: bool = False
    aimed_only: bool = False
    max_range: NonNeg | None = None  # a mode with a reach of its own (the Model 742's grenade, 12")


Modes = Annotated[list[FiringMode], Field(max_length=4)]


class Weapon(Part):
    """Weapons Table (L739-766). `carry` is the Slots code: 1H/2H hands, 1S/2S backpack slots, none for palms."""

    cost: NonNeg
    carry: Literal["1H", "2H", "1S", "2S", "palm", "gripper", "implant"]  # implant: an MES that strikes
    ammo: NonNeg | None = None
    damage: NonNeg = 1
    pierce: NonNeg = 0
    to_hit: int = 0  # toHit modifier at normal range (−1 easier, +1 harder)
    range_steps: list[tuple[int, int]] = Field(default_factory=list)  # (beyond range, +toHit) e.g. [(5, 2), (10, 6)]
    max_range: NonNeg | None = None
    close_combat: bool = False  # Close Combat only
    close_combat_penalty: NonNeg = 0  # "−N to Ath Dice in Close Combat" (DM-R38)
    power: NonNeg = 0  # Power it comes with, added to the Leader's (Tesla Cracker: 2, L766)
    shock: bool = False
    reach: NonNeg = 0  # Energy Staff and Spear strike at 2"
    grenade: bool = False
    weapon_type: str = Field(min_length=1, max_length=30)  # what ally restrictions name (DM-R57-DM-R60)
    modes: Modes = Field(default_factory=list)  # when given, the weapon fires only in these ways, the first by default


class AttachWeapon(Part):
    """Attach Point Weapons (L768-784)."""

    cost: NonNeg | None = None
    cost_per_bulk: NonNeg | None = None  # Leg and Arm Boosters: "300 per Bulk point" (DM-R70)
    attach_points: Annotated[int, Field(ge=1, le=4)]
    ammo: NonNeg | None = None
    damage: NonNeg = 0
    pierce: NonNeg = 0
    to_hit: int = 0
    max_range: NonNeg | None = None
    melee: bool = False  # Armor Melee, PW A-Melee: never on a shoulder (DM-R45)
    shock: bool = False
    effects: Effects = Field(default_factory=Effects)
    modes: Modes = Field(default_factory=list)

    @model_validator(mode="after")
    def _priced(self) -> "AttachWeapon":
        if (self.cost is None) == (self.cost_per_bulk is None):
            raise ValueError("give either cost or cost_per_bulk")
        return self


class KnowledgeSkill(Part):
    """The 13 Knowledge Skills (L569-583)."""

    key: SkillKey  # type: ignore[assignment]
    abbreviation: str = Field(min_length=3, max_length=3)


class AmmoBonus(Strict):
    """More ammunition in every weapon or device holding at least `at_least` (Every Single Round: 10%, rounded
    up, from 4 Ammo; L790)."""

    percent: Annotated[int, Field(ge=1, le=100)]
    at_least: NonNeg


class KnowledgeAbility(Part):
    """An ability a Knowledge Skill unlocks at level 1, 3 or 5 (Knowledge Skills Table, L786-829)."""

    skill: SkillKey
    level: Literal[1, 3, 5]
    frequency: str = Field(default="", max_length=30)
    effects: Effects = Field(default_factory=Effects)  # Metal Shoulder: +1 AHP; Robust Genetics: +1 BHP
    condition: Condition | None = None
    ammo_bonus: AmmoBonus | None = None


class CommunicationSkill(Part):
    """Communication Skills (L831-838), unlocked by the Communication level (in half steps)."""

    com_half_steps: Annotated[int, Field(ge=1, le=12)]
    frequency: str = Field(default="", max_length=30)


class TraitLevel(Strict):
    """One row of the Base Trait tables (L472-606), keyed by half steps (1 = level ½ … 12 = level 6)."""

    key: Key
    name: str = Field(min_length=1, max_length=10)
    half_steps: Annotated[int, Field(ge=1, le=12)]
    step_cost: NonNeg | None = None  # None: "***", reached only through MES (DM-R02)
    dice: NonNeg | None = None
    attribute_effect: str = Field(default="", max_length=60)  # Ath/Pre/Ins/Awa column
    knowledge_points: NonNeg | None = None  # Knowledge: Max Number of Skills
    max_ally_value: NonNeg | None = None  # Communication
    max_allies: NonNeg | None = None  # blank in the book at Com 2, 3, 4
    communication_effect: str = Field(default="", max_length=80)


class AllyTemplate(Part):
    """Ally templates (L1447-1497): dice pools, not levels (L1269)."""

    family: Literal["infantry", "marine", "sniper", "medic", "mechanic", "animalus"]
    rep_cost: NonNeg | None = None  # None: the section label row, or "—"
    arp_cost: NonNeg | None = None
    rep_gain: NonNeg | None = None
    upgrades_from: list[Key] = Field(default_factory=list)
    move: NonNeg
    pools: dict[Literal["ath", "pre", "ins", "awa", "kno"], NonNeg]
    bhp: NonNeg
    ahp: NonNeg = 0
    skills: dict[SkillKey, int] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)  # Small, Pie 1, Cyb 1, Ven 1, Spl 1
    weapons: list[Key] | Literal["any"] = "any"  # weapon keys allowed (DM-R57-DM-R60)
    items: list[Literal["trauma_kit", "armor_kit", "mine", "grenade", "battery", "ammo"]] | Literal["any", "none"] = "any"
    default_kit: str = Field(default="", max_length=300)
    # One of these comes free with the ally (a Recruit's basic weapon, L1441); the basic melee weapon costs 0.
    free_weapons: list[Key] = Field(default_factory=list)
    revived: bool = True  # DM-R67: knocked-out Recruits are not revived unless the Captain is petitioned


class Injury(Part):
    """Injury Table (L1343-1350), for the optional injury rule."""

    roll: Annotated[int, Field(ge=1, le=6)]
    traits: dict[Trait, HalfLevel] = Field(default_factory=dict)
    move: int = 0
    boon_traits: dict[Trait, HalfLevel] = Field(default_factory=dict)
    boon_after: Annotated[int, Field(ge=0, le=99)] = 2  # campaigns carried before the boon comes
    rep_bonus: Annotated[int, Field(ge=0, le=100)] = 10  # % more Rep each scenario (all but Broken Rib, L1352)


CATEGORIES = {
    "armor": Armor, "splice": Splice, "cyber": Cyber, "item": Item, "weapon": Weapon,
    "attach_weapon": AttachWeapon, "knowledge_skill": KnowledgeSkill, "knowledge_ability": KnowledgeAbility,
    "communication_skill": CommunicationSkill, "trait_level": TraitLevel, "ally_template": AllyTemplate,
    "injury": Injury,
}
CATEGORY_LABELS = {
    "armor": "Armor", "splice": "Splices", "cyber": "Cyber", "item": "Items", "weapon": "Weapons",
    "attach_weapon": "Attach Point Weapons", "knowledge_skill": "Knowledge Skills",
    "knowledge_ability": "Knowledge abilities", "communication_skill": "Communication Skills",
    "trait_level": "Trait levels", "ally_template": "Ally templates", "injury": "Injuries",
}


# --- the build document: a Squad Leader and the allies hired from the same budgets -----------------

Campaign = Annotated[int, Field(ge=0, le=999)]


class Pick(Strict):
    """Something owned, with the campaign it was bought in (exchanges and refunds depend on it, DM-R51)."""

    item: Key
    campaign: Campaign = 0


class Purchase(Strict):
    """A Splice or Cyber bought, in order, at the price paid then (DM-R22, DM-R27, DM-R28)."""

    item: Key
    paid: Annotated[int, Field(ge=0, le=1_000_000)]
    campaign: Campaign = 0


class AttachPick(Pick):
    at: Annotated[list[Literal[1, 2, 3, 4]], Field(min_length=1, max_length=4)]  # AP1/AP2 arms, AP3/AP4 shoulders


Currency = Literal["rep", "arp"]
Scenarios = Annotated[int, Field(ge=0, le=50)]


class Upgrade(Strict):
    """A step up an ally's upgrade path (DM-R66), to `template`, paid in one currency in that campaign."""

    template: Key
    campaign: Campaign = 0
    paid_with: Currency = "rep"


class ArpEarned(Strict):
    """What an ally earned in one campaign (DM-R65): successful scenarios it took part in, Training ARP given it."""

    campaign: Campaign
    scenarios: Scenarios = 0
    training: Scenarios = 0


class CampaignResult(Strict):
    """A campaign played: its successful scenarios, and whether the campaign succeeded (DM-R65)."""

    campaign: Campaign
    scenarios: Scenarios = 0
    won: bool = False


class InjuryTaken(Strict):
    """An Injury Table result taken in a campaign (DM-R71); its boon comes after two campaigns."""

    item: Key
    campaign: Campaign = 0


class Ally(Strict):
    name: PlainName = Field(min_length=1, max_length=60)
    template: Key  # the tier it has now
    paid_with: Currency = "rep"  # the hire and its gear: either currency, not mixed
    deployed: bool = True  # hired allies may stay on the ship (DM-R64)
    armor: Key | None = None
    weapons: Annotated[list[Key], Field(max_length=6)] = Field(default_factory=list)
    items: Annotated[list[Key], Field(max_length=8)] = Field(default_factory=list)
    hired: Campaign = 0
    hired_as: Key | None = None  # the tier hired, when upgrades followed; otherwise `template`
    upgrades: Annotated[list[Upgrade], Field(max_length=10)] = Field(default_factory=list)  # only grows
    arp: Annotated[list[ArpEarned], Field(max_length=100)] = Field(default_factory=list)
    knocked_out: Campaign | None = None  # the campaign it ended a scenario at 0 HP or less (DM-R67)
    petitioned: bool = False  # a knocked-out Recruit the Captain agreed to revive (DM-R67)


class LeaderBuild(BuildDocument):
    ruleset: Literal["darkmetal"] = "darkmetal"
    kind: Literal["leader"] = "leader"
    name: PlainName = Field(default="New Squad Leader", min_length=1, max_length=80)
    player: str = Field(default="", max_length=60)
    extra_rep: Annotated[int, Field(ge=0, le=100_000)] = 0  # carried over from earlier play (L299)
    players: Annotated[int, Field(ge=1, le=8)] = 1  # number of players sharing the mission (DM-R55)
    campaign: Campaign = 0  # the current campaign
    # Purchased levels in half steps: 1 = ½ (free) … 10 = 5; 11-12 read so that DM-R02 can say why not.
    traits: dict[Trait, Annotated[int, Field(ge=1, le=12)]] = Field(default_factory=dict, validate_default=True)
    knowledge: dict[SkillKey, Annotated[int, Field(ge=0, le=9)]] = Field(default_factory=dict)
    armor: Pick | None = None  # one worn at a time (DM-R17)
    modifications: Annotated[list[Purchase], Field(max_length=40)] = Field(default_factory=list)
    hands: Annotated[list[Pick], Field(max_length=4)] = Field(default_factory=list)
    attach: Annotated[list[AttachPick], Field(max_length=6)] = Field(default_factory=list)
    backpack: Annotated[list[Pick], Field(max_length=10)] = Field(default_factory=list)
    allies: Annotated[list[Ally], Field(max_length=12)] = Field(default_factory=list)
    wipe_rebuild_used: bool = False  # the one-time full rebuild (DM-R53)
    campaigns: Annotated[list[CampaignResult], Field(max_length=100)] = Field(default_factory=list)
    injury_rule: bool = False  # the optional Injury rule is played (DM-R71)
    injuries: Annotated[list[InjuryTaken], Field(max_length=20)] = Field(default_factory=list)

    @field_validator("traits")
    @classmethod
    def every_trait(cls, traits: dict[str, int]) -> dict[str, int]:
        """One way to write a Leader: all six traits, ½ (1) where unbought."""
        return {trait: traits.get(trait, 1) for trait in TRAITS}

    @field_validator("knowledge")
    @classmethod
    def known_skills(cls, knowledge: dict[str, int]) -> dict[str, int]:
        return {skill: level for skill, level in knowledge.items() if level}
