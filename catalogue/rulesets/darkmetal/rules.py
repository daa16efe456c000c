"""DARK METAL Squad Leader and allies: budgets, traits, Knowledge, MES pricing, slots, allies (digest 3, 4).

Levels are handled in half steps (h = 2 × level: 1 is ½, 10 is 5) so no arithmetic is done in floats.
Splice and Cyber purchases are replayed in the order bought, because each price depends on the scores
held at that moment (DM-R22, DM-R27, DM-R28).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from ..base import BuildError, Catalogue, Detail, Meter, Report, Stat, pack_problems, parse_as
from ..house_rules import setting
from . import campaign
from .campaign import AllyRecord, communication
from .costs import MAX_PURCHASED, OPTIONS, level, root_path, template_cost, traits_of
from .schema import SKILLS, TRAIT_NAMES, TRAITS, AttachWeapon, Cyber, LeaderBuild, Splice, Weapon

LEADER_BHP = 3  # DM-R68
HAND_SLOTS = 2  # DM-R34
ATTACH_LOCATIONS = 4  # DM-R42
BACKPACK_SLOTS = 4  # DM-R47
MAX_SKILL_LEVEL = 5  # DM-R11
MAX_POOL = 6  # DM-R15
# Max # Allies by Communication half steps; blanks at Com 2, 3 and 4 carry the value forward, or take the
# next half level's (a table's reading).
MAX_ALLIES = {1: 1, 2: 2, 3: 3, 4: 3, 5: 4, 6: 4, 7: 5, 8: 5, 9: 6, 10: 7}
BLANK_ALLIES = (4, 6, 8)


def max_allies(com: int, build) -> int:
    if com in BLANK_ALLIES and setting(OPTIONS, build, "max-allies-blanks") == "next":
        return MAX_ALLIES[com + 1]
    return MAX_ALLIES[com]
# the Communication table's Group Activate counts (1 Ally at 1, 2 at 3, 3 at 4), carried forward, rather
# than L833's "equal to your Communication trait", which the table contradicts at level 2.
GROUP_ACTIVATE = {2: 1, 6: 2, 8: 3}


def ally_share(most: int, players: int) -> int:
    """DM-R55: each Leader's share of allies in a multiplayer mission, at least one."""
    return max(1, most // players)


def trait_cost(half_steps: int) -> int:
    """DM-R03: cumulative Rep to reach a level = 100L² + 50L − 50 = 25h(h + 1) − 50 (½ is free)."""
    return 25 * half_steps * (half_steps + 1) - 50


def knowledge_points(half_steps: int) -> int:
    """DM-R12: Kno × (2 × Kno + 1) = h(h + 1) / 2 points (½ → 1, 5 → 55)."""
    return half_steps * (half_steps + 1) // 2


def bonus_arp(com_half_steps: int, every: str = "level") -> int:
    """DM-R08: +10 ARP at each whole Communication level (A-05: the table, not "every 2 levels", which a house rule
    may choose: `every` "two-levels")."""
    levels = min(com_half_steps, MAX_PURCHASED) // 2
    return 10 * (levels // 2 if every == "two-levels" else levels)


def pool(half_steps: float) -> int:
    """DM-R15: dice = the effective level rounded down, 0 to 6."""
    return max(0, min(MAX_POOL, math.floor(half_steps / 2)))


def fates_and_reserves(half_steps: int, reading: str = "summary") -> tuple[int, list[str]]:
    """DM-R16 / DM-R69: Attribute Fate at 1½ and 3½; Reserve Dice as L1400 reads (A-09), or the per-level table
    read cumulatively (a rolled d10 at 2½, a locked 10 at 4½, another rolled d10 at 5)."""
    fate = (half_steps >= 3) + (half_steps >= 7)
    if reading == "cumulative":
        return fate, [die for at, die in ((5, "d10"), (9, "locked 10"), (10, "d10")) if half_steps >= at]
    if half_steps >= 10:
        reserve = ["locked 10", "d10"]
    elif half_steps >= 9:
        reserve = ["locked 10"]
    elif half_steps >= 5:
        reserve = ["d10"]
    else:
        reserve = []
    return fate, reserve


@dataclass(slots=True)
class AllyCost:
    """What an ally costs the Leader's pools, and what dismissing it returns (DM-R63)."""

    hire_rep: int  # its hire's price in Rep, and in ARP: it is paid in one of the two
    hire_arp: int
    gear_rep: int  # its weapons, items and armour, the free basic weapon aside (DM-R58)
    refund_rep: int
    refund_arp: int


@dataclass(slots=True)
class ExchangeRow:
    """An owned thing, and what selling it now returns (DM-R51, DM-R52)."""

    path: str  # where it is in the build, as issues name places: `hands[0]`
    name: str
    paid: int
    campaign: int  # bought in
    refund: int
    terms: str  # "full exchange" or "50% refund"


@dataclass(slots=True)
class TraitRow:
    """A Base Trait as the sheet shows it (DM-R01-DM-R16)."""

    trait: str  # its key: "ath"
    name: str
    base: str  # the level bought, as written: "2½"
    modifier: float  # levels MES, armour and injuries add
    pool: int  # d10s rolled (DM-R15)
    fate: int  # Attribute Fate (DM-R16, DM-R69)
    reserve: list[str]  # Reserve Dice (DM-R16)
    cost: int  # Rep paid for the level bought (DM-R03)
    next_cost: int | None  # Rep for the next half step; None at the top


@dataclass(slots=True)
class SkillRow:
    """A Knowledge Skill the Leader has (DM-R11)."""

    key: str
    name: str
    level: int  # bought, plus what MES add
    bonus: int  # what MES add (Cuttle Skin)


@dataclass(slots=True)
class AmmoBonusRow:
    """More ammunition from training (Every Single Round): `percent` more, rounded up, from `at_least` Ammo."""

    percent: int
    at_least: int


@dataclass(slots=True)
class AbilityRow:
    """A Knowledge ability unlocked, or one an MES grants beside another (L701)."""

    name: str
    skill: str  # the Knowledge Skill's name, or the granting MES's
    level: int | None  # the skill level it unlocks at; None for an MES's
    text: str
    frequency: str  # its limit on uses ("1/scenario"), or ""


@dataclass(slots=True)
class ComSkillRow:
    """A Communication Skill the Communication level unlocks."""

    name: str
    text: str
    frequency: str


@dataclass(slots=True)
class LeaderDetail(Detail):
    """What a Leader's check works out for its pages, beside issues, stats and meters."""

    ally_records: list[AllyRecord] = field(default_factory=list)  # each ally's path, ARP and status (DM-R62-DM-R67)
    ally_costs: list[AllyCost] = field(default_factory=list)  # each ally's prices, in the order hired
    exchange: list[ExchangeRow] = field(default_factory=list)  # what selling each owned thing returns (DM-R51)
    traits: list[TraitRow] = field(default_factory=list)  # every Base Trait, in sheet order
    skills: list[SkillRow] = field(default_factory=list)  # the Knowledge Skills held
    ammo_bonus: AmmoBonusRow | None = None  # training's extra ammunition, if any
    abilities: list[AbilityRow] = field(default_factory=list)  # Knowledge abilities unlocked, and MES grants
    implants: list[str] = field(default_factory=list)  # MES keys that strike as a Melee Weapon now (DM-R25)
    boosts: list[str] = field(default_factory=list)  # MES keys whose attack boosts work (not under Sys, DM-R18)
    communication: list[ComSkillRow] = field(default_factory=list)  # Communication Skills unlocked
    negated: list[str] = field(default_factory=list)  # MES names whose bonuses Sys armour negates (DM-R18)


def parse(document: Any) -> LeaderBuild:
    return parse_as(LeaderBuild, document)


@dataclass
class Sheet:
    """What the Leader's purchases add up to; the checks and the derived stats both read it."""

    sys: int = 0
    cyber: int = 0
    splice: int = 0
    trait_mods: dict[str, float] = field(default_factory=lambda: dict.fromkeys(TRAITS, 0.0))
    bhp: int = LEADER_BHP
    ahp: int = 0
    armor: int = 0
    power: int = 0
    bulk: int = 0
    move: int = 4  # the Leader's base Move (a house rule may change it)
    attach_capacity: int = 0  # the armour's Attach Points
    cyber_attach: int = 0  # those Cyber adds
    backpack_capacity: int = BACKPACK_SLOTS
    attach_used: int = 0
    backpack_used: int = 0
    negated: list[str] = field(default_factory=list)
    skill_bonus: dict[str, int] = field(default_factory=dict)  # Knowledge Skill levels MES add (Cuttle Skin)
    negate_drawbacks: bool = False  # the A-28 house rule: Sys armour cancels an MES's drawbacks too
    gear_rep: int = 0  # MES, weapons and items paid from the 1,500 pool
    installed: list[str] = field(default_factory=list)


def check_keys(build: LeaderBuild, catalogue: Catalogue) -> None:
    problems = pack_problems(build, catalogue)

    def want(path: str, key: str | None, *categories: str) -> None:
        if key is not None and catalogue.categories.get(key) not in categories:
            problems.append({"path": path, "message": f"'{key}' is not a {' or '.join(categories)} in {catalogue.pack}"})

    want("armor", build.armor.item if build.armor else None, "armor")
    for i, m in enumerate(build.modifications):
        want(f"modifications[{i}].item", m.item, "splice", "cyber")
    for i, p in enumerate(build.hands):
        want(f"hands[{i}].item", p.item, "weapon")
    for i, p in enumerate(build.attach):
        want(f"attach[{i}].item", p.item, "attach_weapon")
    for i, p in enumerate(build.backpack):
        want(f"backpack[{i}].item", p.item, "item", "weapon")
    for i, ally in enumerate(build.allies):
        want(f"allies[{i}].template", ally.template, "ally_template")
        want(f"allies[{i}].armor", ally.armor, "armor")
        for j, key in enumerate(ally.weapons):
            want(f"allies[{i}].weapons[{j}]", key, "weapon", "attach_weapon")
        for j, key in enumerate(ally.items):
            want(f"allies[{i}].items[{j}]", key, "item")
    if problems:
        raise BuildError(problems)


def validate(document: Any, catalogue: Catalogue, linked: Any = None) -> Report:
    build = parse(document)
    check_keys(build, catalogue)
    report = Report(detail=LeaderDetail())
    campaign.check(build, catalogue, report)
    items = catalogue.items
    sheet = Sheet(negate_drawbacks=setting(OPTIONS, build, "sys-negation") == "everything",  # Move 4, Power
                  move=setting(OPTIONS, build, "base-move"), power=setting(OPTIONS, build, "base-power"))  # 0 unless told
    check_traits(build, report)
    wear_armor(build, items, sheet, report)
    replay_modifications(build, items, sheet, report)
    check_hands(build, items, sheet, report)
    check_attach(build, items, sheet, report)
    check_backpack(build, items, sheet, report)
    check_gripper_bulk(build, items, sheet, report)
    apply_conditions(build, catalogue, sheet, report)
    ally_rep, ally_arp = check_allies(build, catalogue, report)
    check_budgets(build, items, sheet, ally_rep, ally_arp, report)
    exchange(build, catalogue, report)
    campaign.injure(build, items, sheet, report)
    check_knowledge(build, sheet, report)  # after every MES and injury, which a house rule lets count
    derive(build, catalogue, sheet, report)
    return report


# --- traits, Knowledge (DM-R01-DM-R16) ---------------------------------------------------------


def check_traits(build: LeaderBuild, report: Report) -> None:
    for trait, h in traits_of(build).items():
        if h > MAX_PURCHASED:
            report.add("DM-R02", "error", f"traits.{trait}",
                       f"{TRAIT_NAMES[trait]} is bought to {level(h)}; purchased levels stop at 5 (5½ and 6 come "
                       f"only from MES).", "Buy at most level 5.")


def check_knowledge(build: LeaderBuild, sheet: Sheet, report: Report) -> None:
    for skill, value in build.knowledge.items():
        if value > MAX_SKILL_LEVEL:
            report.add("DM-R11", "error", f"knowledge.{skill}",
                       f"{SKILLS[skill]} at {value}; a Knowledge Skill goes from 0 to {MAX_SKILL_LEVEL}.",
                       f"Lower it to {MAX_SKILL_LEVEL}.")
    kno = traits_of(build)["kno"]  # points follow the base Knowledge level, unless a house rule says effective
    if setting(OPTIONS, build, "knowledge-points") == "effective":
        kno = max(1, int(kno + 2 * sheet.trait_mods["kno"]))
    points, spent = knowledge_points(min(kno, MAX_PURCHASED)), sum(build.knowledge.values())
    if spent > points:
        report.add("DM-R12", "error", "knowledge",
                   f"Knowledge Skills use {spent} points; Knowledge {level(kno)} gives {points}.",
                   f"Remove {spent - points} skill levels or raise Knowledge.")
    # Shown beside the Rep and ARP budgets, as before the allies' bars.
    after = next((i + 1 for i, m in enumerate(report.meters) if m.key == "arp"), len(report.meters))
    report.meters.insert(after, Meter("knowledge", "Knowledge points", spent, points, "", "knowledge"))


# --- armour, Splices and Cyber (DM-R17-DM-R33) -------------------------------------------------

def wear_armor(build: LeaderBuild, items, sheet: Sheet, report: Report) -> None:
    if build.armor is None:
        return
    armor = items[build.armor.item]
    sheet.sys, sheet.ahp, sheet.armor = armor.sys, armor.ahp, armor.armor
    sheet.power, sheet.bulk, sheet.move = sheet.power + armor.power, armor.bulk, sheet.move + armor.move
    sheet.attach_capacity = armor.attach_points
    for trait, value in armor.traits.items():
        sheet.trait_mods[trait] += value
    sheet.gear_rep += armor.cost


def replay_modifications(build: LeaderBuild, items, sheet: Sheet, report: Report) -> None:
    """Each MES in the order bought: its price then, what it needs, what it excludes, what it adds."""
    counts: dict[str, int] = {}
    for i, purchase in enumerate(build.modifications):
        path = f"modifications[{i}]"
        mod = items[purchase.item]
        due = mes_price(mod, sheet.splice, sheet.cyber, build.house_rules)
        if purchase.paid != due:
            code = "DM-R22" if isinstance(mod, Cyber) else "DM-R27"
            report.add(code, "error", path,
                       f"{mod.name} was recorded at {purchase.paid} Rep; bought then (Splice {sheet.splice}, "
                       f"Cyber {sheet.cyber}) it costs {due}.", f"Record {due} Rep.")
        if counts.get(mod.key, 0) >= mod.max_count:
            report.add("DM-R24", "error", path,
                       f"{mod.name} is already installed" + (f" {mod.max_count} times" if mod.max_count > 1 else "")
                       + "; it can be bought " + ("once." if mod.max_count == 1 else f"{mod.max_count} times."),
                       "Remove the repeat.")
        if mod.requires_any and not any(counts.get(k) for k in mod.requires_any):
            names = " or ".join(items[k].name for k in mod.requires_any if k in items)
            report.add("DM-R23" if isinstance(mod, Cyber) else "DM-R30", "error", path,
                       f"{mod.name} requires {names}, installed before it.", f"Buy {names} first.")
        for skill, needed in mod.requires_skill.items():
            if build.knowledge.get(skill, 0) < needed:
                report.add("DM-R30", "error", path,
                           f"{mod.name} requires {SKILLS[skill]} {needed}; the Leader has "
                           f"{build.knowledge.get(skill, 0)}.", f"Raise {SKILLS[skill]} to {needed}.")
        clash = [items[k].name for k in mod.excludes if counts.get(k)]
        clash += [items[k].name for k in counts if mod.key in getattr(items[k], "excludes", [])]
        if clash:
            report.add("DM-R29", "error", path, f"{mod.name} is not compatible with {', '.join(sorted(set(clash)))}.",
                       "Keep only one of them.")
        # "Armor" is armour with an Armor value or Sys, unless the table reads it as any armour worn.
        any_armour = setting(OPTIONS, build, "olfactory-armor") == "any"
        if mod.not_with_armor and build.armor is not None and (any_armour or items[build.armor.item].armor or sheet.sys):
            report.add("DM-R20", "error", path,
                       f"{mod.name} is not compatible with Armor ({'any armour worn' if any_armour else 'A-51: Armor 1+ or Sys'}).",
                       "Wear no armour" + ("." if any_armour else ", or an EvoSuit or Combat Suit."))
        counts[mod.key] = counts.get(mod.key, 0) + 1
        sheet.installed.append(mod.key)
        sheet.gear_rep += purchase.paid
        if isinstance(mod, Splice):
            sheet.splice += mod.score
        else:
            sheet.cyber += mod.score
        if mod.condition is None:
            apply_effects(mod, sheet)
    armor = items[build.armor.item] if build.armor else None
    if armor is not None and armor.max_cyber is not None and sheet.cyber > armor.max_cyber:
        report.add("DM-R19", "error", "armor",
                   f"{armor.name} needs a Cyber score of {armor.max_cyber} or less; the Leader has {sheet.cyber}.",
                   "Remove Cyber or wear other armour.")


def mes_price(mod, splice: int, cyber: int, house_rules: dict | None = None) -> int:
    """DM-R22: Cyber costs × (Splice + 1). DM-R27: with Splice 1+, a Splice costs × 2 × (Splice + Cyber).

    A-30: with Splice 0 a Splice costs its listed price whatever the Cyber score (literal reading), unless the
    table multiplies it once Cyber enters the formula. A-31: the Cyber multiplier applies to every Cyber-table
    item, blank score or not, unless the table spares the blank ones.
    """
    table = SimpleNamespace(house_rules=house_rules or {})
    if isinstance(mod, Cyber):
        if not mod.score and setting(OPTIONS, table, "cyber-multiplier") == "scored-only":
            return mod.cost
        return mod.cost * (splice + 1)
    if splice >= 1 or (cyber >= 1 and setting(OPTIONS, table, "splice-zero-price") == "multiplied"):
        return mod.cost * 2 * (splice + cyber)
    return mod.cost


def priced_in_order(catalogue, keys) -> list[dict]:
    """Purchases of these MES in this order, each at the price it costs at that point (DM-R22, DM-R27)."""
    splice = cyber = 0
    bought = []
    for key in keys:
        item = catalogue.items[key]
        bought.append({"item": key, "paid": mes_price(item, splice, cyber)})
        if isinstance(item, Cyber):
            cyber += item.score
        else:
            splice += item.score
    return bought


def skill_levels(build: LeaderBuild, sheet: Sheet) -> dict[str, int]:
    """Each Knowledge Skill's level: bought, plus what MES add to a skill the Leader has (Cuttle Skin "adds 1 to
    existing Stealth", L688). DM-R11 caps what is bought at 5; a bonus adds on top, one more die."""
    return {skill: bought + (sheet.skill_bonus.get(skill, 0) if bought else 0)
            for skill, bought in build.knowledge.items()}


def final_scores(build: LeaderBuild, sheet: Sheet) -> dict[str, int]:
    """The Bulk, Splice and Cyber of the finished Leader, which conditional effects are judged on (DM-R31):
    Trick Wiring and Genome Studies take 1 off a score of 4 or more."""
    skills = skill_levels(build, sheet)
    return {"bulk": sheet.bulk,
            "cyber": sheet.cyber - (1 if sheet.cyber >= 4 and skills.get("hac", 0) >= 1 else 0),
            "splice": sheet.splice - (1 if sheet.splice >= 4 and skills.get("sci", 0) >= 5 else 0)}


def apply_conditions(build: LeaderBuild, catalogue: Catalogue, sheet: Sheet, report: Report) -> None:
    """The conditions step, after every purchase and the backpack's Bulk: MES and Knowledge abilities whose
    effect needs a score hold on the final scores, then Sys negation is reported (order: base, purchases,
    conditions, negation)."""
    scores, skills = final_scores(build, sheet), skill_levels(build, sheet)
    for key in dict.fromkeys(sheet.installed):
        mod = catalogue.items[key]
        if mod.condition is not None and mod.condition.holds(scores):
            for _ in range(sheet.installed.count(key)):
                apply_effects(mod, sheet)
    for ability in catalogue.of("knowledge_ability"):
        if skills.get(ability.skill, 0) >= ability.level and (
                ability.condition is None or ability.condition.holds(scores)):
            # Knowledge abilities are the Leader's training, not an implant's bonus: Sys does not negate them.
            add_effects(ability.effects, sheet)
    if sheet.negated:
        armor = catalogue.items[build.armor.item]
        report.add("DM-R18", "warning", "armor",
                   f"{armor.name} has Sys {sheet.sys}: it negates the bonuses of {', '.join(sheet.negated)}.",
                   "Wear armour without Sys (EvoSuit, Combat Suit) to use them.")


def add_effects(effects, sheet: Sheet, negated: bool = False) -> None:
    def add(value: float) -> float:
        return 0 if negated and (value > 0 or sheet.negate_drawbacks) else value

    for trait, value in effects.traits.items():
        sheet.trait_mods[trait] += add(value)
    sheet.bhp += add(effects.bhp)
    sheet.ahp += add(effects.ahp)
    sheet.armor += add(effects.armor)
    sheet.power += add(effects.power)
    sheet.bulk += add(effects.bulk) if sheet.negate_drawbacks else effects.bulk  # a drawback: kept
    sheet.move += add(effects.move)
    sheet.cyber_attach += add(effects.attach_points)
    for skill, value in effects.skills.items():
        sheet.skill_bonus[skill] = sheet.skill_bonus.get(skill, 0) + add(value)


def apply_effects(mod, sheet: Sheet) -> None:
    """Add an MES's effects; under Sys armour its bonuses are negated but drawbacks stay (A-28)."""
    effects = mod.effects
    negated = sheet.sys > 0
    if negated and any(v > 0 for v in [*effects.traits.values(), *effects.skills.values(), effects.bhp, effects.ahp,
                                       effects.armor, effects.power, effects.move, effects.attach_points]):
        sheet.negated.append(mod.name)
    add_effects(effects, sheet, negated)


def working(sheet: Sheet, items) -> list:
    """The MES whose abilities work: none of them under Sys armour (DM-R18), which negates every MES's
    abilities and enhancements, drawbacks aside."""
    return [] if sheet.sys > 0 else [items[key] for key in dict.fromkeys(sheet.installed)]


def granted(build: LeaderBuild, catalogue: Catalogue, sheet: Sheet) -> list[AbilityRow]:
    """Abilities an MES gives beside another, as many uses a scenario as the finished Leader's score (L701;
    DM-R31 reading: "once per level of Splice" counts uses a scenario, like the other limited uses)."""
    scores, mods = final_scores(build, sheet), working(sheet, catalogue.items)
    keys = {mod.key for mod in mods}
    return [AbilityRow(mod.grants.ability, mod.name, None, mod.description,
                       f"{scores[mod.grants.per]}/{setting(OPTIONS, build, 'splice-uses')}")
            for mod in mods if mod.grants and mod.grants.alongside in keys and scores[mod.grants.per] > 0]


def implants(build: LeaderBuild, sheet: Sheet, items) -> list[str]:
    """MES that act as a Melee Weapon without a storage slot (Internal Blades, DM-R25), while usable: the blades
    need an arm whose Attach Point is free (DM-R25 reading: one free arm, AP1 or AP2, is enough)."""
    arms_in_use = {point for pick in build.attach for point in pick.at if point in (1, 2)}
    blocked = len(arms_in_use) == 2 if setting(OPTIONS, build, "blade-arms") == "one-free" else bool(arms_in_use)
    return [] if blocked else [mod.key for mod in working(sheet, items) if mod.strike]


def carried_ammo(ammo: int, bonus: AmmoBonusRow | None) -> int:
    """A weapon's ammunition with an ammo bonus from training (Every Single Round: +10%, rounded up, from 4)."""
    if bonus and ammo >= bonus.at_least:
        return ammo + math.ceil(ammo * bonus.percent / 100)
    return ammo


def attacks(build: LeaderBuild, items, implants_: list[str]) -> list:
    """What attacks besides the hand weapons (DM-R25): Attach Point weapons that strike, and the implants that act
    as a Melee Weapon (`implants`), each as a weapon profile."""
    mounted = [items[pick.item] for pick in build.attach]
    return [w for w in mounted if w.damage or w.melee or w.modes] + [as_weapon(items[key]) for key in implants_]


def as_weapon(mod) -> Weapon:
    """An implant's strike as a weapon profile, for the preview and the sheet."""
    return Weapon(key=mod.key, name=mod.name, description=mod.description, cost=0, carry="implant",
                  damage=mod.strike, close_combat=True, weapon_type="Melee Weapon")


# --- hands, attach points, backpack (DM-R34-DM-R50) --------------------------------------------

def check_hands(build: LeaderBuild, items, sheet: Sheet, report: Report) -> None:
    weapons = [(i, items[p.item]) for i, p in enumerate(build.hands)]
    handed = [(i, w) for i, w in weapons if w.carry in ("1H", "2H")]
    palms = [(i, w) for i, w in weapons if w.carry == "palm"]
    arm_points = {a for p in build.attach for a in p.at if a in (1, 2)}
    free_hands = HAND_SLOTS - len(arm_points)
    for i, w in weapons:
        if w.carry in ("1S", "2S"):
            report.add("DM-R49", "error", f"hands[{i}]", f"{w.name} is carried in the backpack, not in a hand.",
                       "Put it in a Backpack Slot.")
    if len(handed) > free_hands:
        reason = f" ({len(arm_points)} arm Attach Point{'s' if len(arm_points) != 1 else ''} in use, DM-R41)" if arm_points else ""
        report.add("DM-R41" if arm_points else "DM-R34", "error", f"hands[{handed[free_hands][0]}]",
                   f"{len(handed)} hand weapons but {free_hands} free hand{'s' if free_hands != 1 else ''}{reason}.",
                   "Stow a weapon in the backpack.")
    lenient = setting(OPTIONS, build, "two-handed") == "lenient"
    if sum(w.carry == "2H" for _, w in handed) > 1 and lenient:
        sheet.backpack_capacity -= 1  # L650: the second 2H weapon needs an additional Backpack Slot
    elif sum(w.carry == "2H" for _, w in handed) > 1:
        report.add("DM-R37", "error", "hands",
                   "Two 2H weapons in the hand slots: no character may carry two; the second goes in the backpack "
                   "and takes 2 Backpack Slots (A-24).", "Move one 2H weapon to the backpack.")
    if palms and len(handed) >= HAND_SLOTS:
        report.add("DM-R39", "error", f"hands[{palms[0][0]}]",
                   f"{palms[0][1].name} needs a free hand, and both hands hold weapons.", "Free a hand.")
    if len(palms) > HAND_SLOTS:
        report.add("DM-R39", "error", f"hands[{palms[HAND_SLOTS][0]}]", "Each hand holds one palm device, at most.",
                   "Remove a palm device.")
    gripper = next(((i, w) for i, w in weapons if w.carry == "gripper"), None)
    if gripper is not None:
        others = [w.name for _, w in weapons if w.carry != "palm" and w is not gripper[1] and (w.close_combat or w.weapon_type == "Melee Weapon")]
        if others:
            report.add("DM-R40", "error", f"hands[{gripper[0]}]",
                       f"The MagGripper Set cannot be used with another melee weapon ({', '.join(others)}) except "
                       f"palm devices.", "Remove the other melee weapon.")


def check_gripper_bulk(build: LeaderBuild, items, sheet: Sheet, report: Report) -> None:
    """DM-R40: the MagGripper Set cannot be used with Bulk above 0 (known once the backpack is counted)."""
    for i, pick in enumerate(build.hands):
        if items[pick.item].carry == "gripper" and sheet.bulk > 0:
            report.add("DM-R40", "error", f"hands[{i}]",
                       f"The MagGripper Set cannot be used with Bulk above 0; the Leader's Bulk is {sheet.bulk}.",
                       "Wear lighter armour or carry less.")


def attach_points(build: LeaderBuild, sheet: Sheet) -> int:
    """DM-R42 (A-27): the armour's and the Cyber's Attach Points add up to at most 4, unless the table reads them
    as not stacking, the higher counting."""
    armour, cyber = sheet.attach_capacity, sheet.cyber_attach
    total = max(armour, cyber) if setting(OPTIONS, build, "cyber-attach-points") == "higher" else armour + cyber
    return min(ATTACH_LOCATIONS, total)


def check_attach(build: LeaderBuild, items, sheet: Sheet, report: Report) -> None:
    capacity = attach_points(build, sheet)
    used: dict[int, str] = {}
    for i, pick in enumerate(build.attach):
        path = f"attach[{i}]"
        weapon = items[pick.item]
        if len(pick.at) != weapon.attach_points or len(set(pick.at)) != len(pick.at):
            report.add("DM-R43", "error", path,
                       f"{weapon.name} uses {weapon.attach_points} Attach Point{'s' if weapon.attach_points != 1 else ''}; "
                       f"it is placed on {len(set(pick.at))}.", "Place it on as many points as it uses.")
        for point in pick.at:
            if point in used:
                report.add("DM-R43", "error", path, f"Attach Point {point} already holds {used[point]}.",
                           "Move one of them.")
            used[point] = weapon.name
        if weapon.melee and any(p in (3, 4) for p in pick.at):
            report.add("DM-R45", "error", path, f"{weapon.name} is a melee weapon: shoulders (AP3, AP4) cannot hold it.",
                       "Place it on AP1 or AP2.")
        if len(pick.at) > 1:
            arms = [p for p in pick.at if p in (1, 2)]
            shoulders = [p for p in pick.at if p in (3, 4)]
            if len(arms) > 1 or (arms and len(shoulders) < 2):
                report.add("DM-R44", "error", path,
                           f"{weapon.name} spans several Attach Points: it fills both shoulders before one arm, and "
                           f"never both arms.", "Place it on AP3 and AP4 first.")
    if len(used) > capacity:
        report.add("DM-R43" if capacity else "DM-R46", "error", "attach",
                   f"{len(used)} Attach Points used; the armour and Cyber give {capacity}.",
                   "Wear armour with more Attach Points or remove an Attach Point weapon.")
    sheet.attach_used = len(used)
    sheet.backpack_capacity += sum(items[p.item].effects.backpack_slots for p in build.attach)
    for pick in build.attach:
        weapon = items[pick.item]
        effects = weapon.effects
        for trait, value in effects.traits.items():
            sheet.trait_mods[trait] += value
        sheet.power += effects.power
        sheet.move += effects.move
        sheet.gear_rep += attach_price(weapon, build, items, sheet)


def attach_price(weapon: AttachWeapon, build: LeaderBuild, items, sheet: Sheet | None = None) -> int:
    """DM-R70: Leg and Arm Boosters cost 300 per Bulk point, of the armour worn, at least one (A-32); a table may
    price them by the Leader's own Bulk when bought (armour and implants), or let Bulk 0 cost nothing."""
    if weapon.cost_per_bulk is None:
        return weapon.cost
    bulk = items[build.armor.item].bulk if build.armor else 0
    if sheet is not None and setting(OPTIONS, build, "booster-bulk") == "leader":
        bulk = sheet.bulk
    return weapon.cost_per_bulk * max(1 if setting(OPTIONS, build, "booster-minimum") == "one" else 0, bulk)


def slots_of(thing) -> int:
    """DM-R49: an item or grenade takes 1 slot, a 2S weapon 2, a stowed 2H weapon 2, a stowed 1H one 1."""
    if isinstance(thing, Weapon):
        return {"1S": 1, "2S": 2, "2H": 2, "1H": 1}.get(thing.carry, 1)
    return thing.slots


def check_backpack(build: LeaderBuild, items, sheet: Sheet, report: Report) -> None:
    used = sum(slots_of(items[p.item]) for p in build.backpack)
    if setting(OPTIONS, build, "carry-pack") == "four":  # the sheet's four rows as the cap
        sheet.backpack_capacity = min(sheet.backpack_capacity, BACKPACK_SLOTS)
    capacity = sheet.backpack_capacity
    if used > capacity:
        report.add("DM-R47", "error", "backpack",
                   f"The backpack holds {used} slots of gear; it has {capacity} Backpack Slots"
                   + (" (4, +2 for each Carry Pack)" if capacity != BACKPACK_SLOTS else "") + ".",
                   "Leave gear in the ship-board inventory.")
    # Weight Balancing: the threshold moves to 4, or (a table's reading) three more slots carry free.
    balanced = skill_levels(build, sheet).get("eng", 0) >= 5
    threshold = 3 + ((3 if setting(OPTIONS, build, "weight-balancing") == "three-free" else 1) if balanced else 0)
    if used >= threshold:
        sheet.bulk += 1  # DM-R48
    sheet.backpack_used = used
    for pick in build.backpack:
        thing = items[pick.item]
        sheet.gear_rep += thing.cost or 0
        sheet.power += getattr(thing, "power", 0)
    for pick in build.hands:
        sheet.gear_rep += items[pick.item].cost


# --- allies (DM-R54-DM-R61) -----------------------------------------------------------------------


def weapons_rep(weapons: list[str], template, catalogue: Catalogue, kept: bool = True) -> int:
    """What an ally's weapons cost: a Recruit-tree ally started as a Recruit, whose one basic weapon is free
    (L1441; DM-R58 with A-40: the kit stays through its upgrades, unless the table keeps it for Recruits), so the
    dearest basic weapon it carries is."""
    items = catalogue.items
    costs = [items[k].cost or 0 for k in weapons]
    free = set()
    for key in [template.key, *(root_path(template, catalogue) if kept else [])]:
        free |= set(items[key].free_weapons)
    basic = [items[k].cost or 0 for k in weapons if k in free]
    return sum(costs) - (max(basic) if basic else 0)


def check_allies(build: LeaderBuild, catalogue: Catalogue, report: Report) -> tuple[int, int]:
    items = catalogue.items
    com = communication(build, catalogue.items)
    most, max_value = max_allies(com, build), trait_cost(com)
    cap = ally_share(most, build.players)
    rep_total = arp_total = deployed_value = 0
    deployed = 0
    for i, ally in enumerate(build.allies):
        path = f"allies[{i}]"
        template = items[ally.template]
        hire_rep, hire_arp = template_cost(template, catalogue, setting(OPTIONS, build, "ally-costs") == "totals")
        kept = setting(OPTIONS, build, "free-weapon") == "kept"
        gear_rep = weapons_rep(ally.weapons, template, catalogue, kept) + sum(items[k].cost or 0 for k in ally.items)
        gear_rep += items[ally.armor].cost if ally.armor else 0
        refund_rep, refund_arp = campaign.paid(build, ally, catalogue, gear_rep)
        report.detail.ally_costs.append(AllyCost(hire_rep, hire_arp, gear_rep, refund_rep, refund_arp))
        # what counts toward Max Ally Value (its tier and gear; a house rule may count the tier alone)
        value = hire_rep + (0 if setting(OPTIONS, build, "ally-value") == "tier" else gear_rep)
        rep, arp = campaign.charges(build, ally, catalogue, gear_rep)
        rep_total, arp_total = rep_total + rep, arp_total + arp
        if ally.deployed:
            deployed += 1
            deployed_value += value
        check_ally_gear(ally, template, items, path, report)
    if len(build.allies) > most:
        report.add("DM-R54", "error", "allies",
                   f"{len(build.allies)} allies hired; Communication {level(com)} allows {most}.",
                   "Dismiss an ally or raise Communication.")
    if deployed > cap:
        report.add("DM-R55", "error", "allies",
                   f"{deployed} allies deployed; with {build.players} players each Leader takes "
                   f"max(1, {most} ÷ {build.players}) = {cap}.", "Leave allies on the ship.")
    if deployed_value > max_value:
        report.add("DM-R56", "error", "allies",
                   f"The deployed allies are worth {deployed_value} Rep; Communication {level(com)} allows a Max "
                   f"Ally Value of {max_value}.", "Deploy cheaper allies or raise Communication.")
    report.meters.append(Meter("allies", "Allies deployed", deployed, cap, "", "allies"))
    report.meters.append(Meter("ally_value", "Max Ally Value", deployed_value, max_value, "Rep", "allies"))
    return rep_total, arp_total


def check_ally_gear(ally, template, items, path: str, report: Report) -> None:
    if template.weapons != "any":
        for key in ally.weapons:
            if key not in template.weapons:
                code = {"medic": "DM-R59", "mechanic": "DM-R60", "animalus": "DM-R61"}.get(template.family, "DM-R57")
                report.add(code, "error", path, f"{ally.name} ({template.name}) may not use {items[key].name}.",
                           f"{template.name}s use {', '.join(items[k].name for k in template.weapons) or 'no weapons'}.")
    if template.items == "none" and ally.items:
        report.add("DM-R61", "error", path, f"{ally.name} ({template.name}) cannot carry items.", "Remove the items.")
    elif isinstance(template.items, list):
        for key in ally.items:
            if items[key].kind not in template.items:
                code = "DM-R59" if template.family == "medic" else "DM-R60"
                report.add(code, "error", path,
                           f"{ally.name} ({template.name}) can carry only {', '.join(k.replace('_', ' ') + 's' for k in template.items)}; "
                           f"not {items[key].name}.", "Remove it.")
    attach = [k for k in ally.weapons if isinstance(items[k], AttachWeapon)]
    if attach and (ally.armor is None or not items[ally.armor].attach_points):
        report.add("DM-R46", "error", path, f"{ally.name} needs armour with an Attach Point to wield {items[attach[0]].name}.",
                   "Give the ally armour with Attach Points.")


# --- budgets (DM-R04-DM-R08) ---------------------------------------------------------------------

def check_budgets(build: LeaderBuild, items, sheet: Sheet, ally_rep: int, ally_arp: int, report: Report) -> None:
    trait_spend = sum(trait_cost(min(h, MAX_PURCHASED)) for h in traits_of(build).values())
    extra = build.extra_rep
    trait_budget, gear_budget = setting(OPTIONS, build, "trait-budget"), setting(OPTIONS, build, "gear-budget")
    over_traits = max(0, trait_spend - trait_budget)
    if over_traits > extra:
        report.add("DM-R04", "error", "traits",
                   f"Base Traits cost {trait_spend} Rep; the budget is {trait_budget}"
                   + (f" plus {extra} carried over" if extra else "") + ".",
                   f"Lower a Trait: {over_traits - extra} Rep over.")
    gear_spend = sheet.gear_rep + ally_rep
    gear_budget += max(0, extra - over_traits)
    leftover = max(0, trait_budget + extra - trait_spend)
    spent_on_gear = setting(OPTIONS, build, "trait-leftover") == "gear"  # banked, or a table's gear money
    if spent_on_gear:
        gear_budget += leftover
    if gear_spend > gear_budget:
        report.add("DM-R06", "error", "equipment",
                   f"MES, weapons, items and allies cost {gear_spend} Rep; the budget is {gear_budget}.",
                   f"Sell or leave out {gear_spend - gear_budget} Rep of gear.")
    arp = bonus_arp(communication(build, items), setting(OPTIONS, build, "bonus-arp"))
    if ally_arp > arp:
        report.add("DM-R07", "error", "allies",
                   f"Allies paid in ARP cost {ally_arp} ARP; Communication gives {arp} ARP.",
                   "Pay some allies in Rep instead.")
    report.meters[0:0] = [  # the two Rep pools and ARP lead the bars
        Meter("trait_rep", "Trait Rep", trait_spend, trait_budget + extra, "Rep", "traits"),
        Meter("gear_rep", "MES, weapons, items, allies", gear_spend, gear_budget, "Rep", "equipment"),
        Meter("arp", "Ally Reputation Points", ally_arp, arp, "ARP", "allies")]
    report.stats["trait_rep_left"] = Stat("Trait Rep left", trait_budget + extra - trait_spend,
                                          "added to the gear budget (house rule)" if spent_on_gear else
                                          "banked toward the next level of any Trait (DM-R05)", "Rep")


# --- changing equipment (DM-R51-DM-R53) -----------------------------------------------------------

def refund(paid: int, bought: int, current: int) -> int:
    """DM-R51: gear held one Campaign or less is exchanged for its full price; DM-R52: after that, 50%."""
    return paid if current - bought <= 1 else paid // 2


def exchange(build: LeaderBuild, catalogue: Catalogue, report: Report) -> None:
    """What selling each owned thing would return now, so a change can be weighed before it is made."""
    items = catalogue.items
    owned = [("armor", build.armor, items[build.armor.item].cost if build.armor else 0)] if build.armor else []
    owned += [(f"modifications[{i}]", m, m.paid) for i, m in enumerate(build.modifications)]
    owned += [(f"hands[{i}]", p, items[p.item].cost) for i, p in enumerate(build.hands)]
    owned += [(f"attach[{i}]", p, attach_price(items[p.item], build, items)) for i, p in enumerate(build.attach)]
    owned += [(f"backpack[{i}]", p, items[p.item].cost or 0) for i, p in enumerate(build.backpack)]
    report.detail.exchange = [
        ExchangeRow(path, items[pick.item].name, paid, pick.campaign, refund(paid, pick.campaign, build.campaign),
                    "full exchange" if build.campaign - pick.campaign <= 1 else "50% refund")
        for path, pick, paid in owned]
    report.add("DM-R53", "info", "rebuild",
               "The one-time full rebuild has been used." if build.wipe_rebuild_used
               else "The one-time full rebuild is still available.")


# --- derived stats (digest 4) --------------------------------------------------------------------

def derive(build: LeaderBuild, catalogue: Catalogue, sheet: Sheet, report: Report) -> None:
    stats = report.stats
    traits = traits_of(build)
    rows = []
    for trait in TRAITS:
        base = traits[trait]
        effective = base + 2 * sheet.trait_mods[trait]
        earning = base if setting(OPTIONS, build, "bonus-level") == "bought" else max(base, int(effective))
        fate, reserve = fates_and_reserves(min(MAX_PURCHASED, earning), setting(OPTIONS, build, "reserve-dice"))
        if trait in ("kno", "com"):
            fate, reserve = 0, []
        rows.append(TraitRow(trait, TRAIT_NAMES[trait], level(base), sheet.trait_mods[trait], pool(effective), fate,
                             reserve, trait_cost(min(base, MAX_PURCHASED)),
                             50 * (base + 1) if base < MAX_PURCHASED else None))
    report.detail.traits = rows
    com = communication(build, catalogue.items)
    stats["bhp"] = Stat("BHP", sheet.bhp, "Squad Leader 3, with Splices (DM-R68)")
    stats["ahp"] = Stat("AHP", sheet.ahp, "from armour and Cyber; lost before BHP")
    stats["thp"] = Stat("THP", sheet.bhp + sheet.ahp, "BHP + AHP")
    stats["armor"] = Stat("Armor", sheet.armor, "the armour's toHit level")
    base_power = setting(OPTIONS, build, "base-power")
    stats["power"] = Stat("Power", sheet.power, (f"{base_power} base, " if base_power else "")
                          + "armour, capacitors, batteries and packs")
    stats["bulk"] = Stat("Bulk", sheet.bulk, "armour and implants, +1 with 3 or more backpack slots used (DM-R48)")
    stats["systems"] = Stat("Systems", sheet.sys, "the armour's Sys")
    scores = final_scores(build, sheet)
    stats["cyber"] = Stat("Cyber", scores["cyber"], "Cyber scores installed (Trick Wiring −1 at 4+)")
    stats["splice"] = Stat("Splice", scores["splice"], "Splice scores installed (Genome Studies −1 at 4+)")
    stats["move"] = Stat("Move", sheet.move, f"{setting(OPTIONS, build, 'base-move')}, armour, Leg Splicing, boosters")
    stats["general_fate"] = Stat("General Fate", 1 + (com >= 10), "1, +1 at Communication 5 (DM-R69)")
    blanks = "next level's" if setting(OPTIONS, build, "max-allies-blanks") == "next" else "carried forward"
    stats["max_allies"] = Stat("Max # Allies", max_allies(com, build), f"Communication {level(com)} (A-06: blanks {blanks})")
    stats["max_ally_value"] = Stat("Max Ally Value", trait_cost(com), "the cost of the Communication level", "Rep")
    stats["bonus_arp"] = Stat("Bonus ARP", bonus_arp(com, setting(OPTIONS, build, "bonus-arp")),
                              "10 at each whole Communication level (DM-R08)", "ARP")
    report.meters.append(Meter("attach", "Attach Points", sheet.attach_used,
                               attach_points(build, sheet), "", "attach"))
    report.meters.append(Meter("backpack", "Backpack Slots", sheet.backpack_used,
                               sheet.backpack_capacity, "", "backpack"))
    skills = skill_levels(build, sheet)
    report.detail.skills = [SkillRow(k, SKILLS[k], skills[k], skills[k] - build.knowledge[k])
                            for k in SKILLS if skills.get(k)]
    abilities = [a for a in catalogue.of("knowledge_ability") if skills.get(a.skill, 0) >= a.level]
    bonus = next((a.ammo_bonus for a in abilities if a.ammo_bonus), None)
    report.detail.ammo_bonus = AmmoBonusRow(bonus.percent, bonus.at_least) if bonus else None
    activate = max((n for at, n in GROUP_ACTIVATE.items() if com >= at), default=0)
    if setting(OPTIONS, build, "group-activate") == "trait" and com >= 2:
        activate = com // 2  # the house rule: the skill text's "equal to your Communication trait"
    if activate:
        stats["group_activate"] = Stat("Group Activate", activate, "allies activated with the Leader (A-07)")
    report.detail.abilities = [AbilityRow(a.name, SKILLS[a.skill], a.level, a.description, a.frequency)
                               for a in abilities] + granted(build, catalogue, sheet)
    report.detail.implants = implants(build, sheet, catalogue.items)
    report.detail.boosts = [mod.key for mod in working(sheet, catalogue.items) if mod.boost]
    # the table's "Com Lev" counts half levels, unless the table reads it as whole levels.
    scale = 2 if setting(OPTIONS, build, "com-skill-levels") == "levels" else 1
    report.detail.communication = [ComSkillRow(s.name, s.description, s.frequency)
                                   for s in catalogue.of("communication_skill") if com >= scale * s.com_half_steps]
    report.detail.negated = sheet.negated
