"""DARK METAL attack odds on the shared exact-dice core (digest section 5).

An attack rolls n d10 against a target number T; a die at T or more succeeds, every 1 (on a d10 or on the
defender's d6) cancels a success, and the attack hits when successes outnumber the 1s (L1050).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import BuildError
from ..dice import Distribution
from ..house_rules import setting
from ..spec import Previewing
from .costs import OPTIONS
from .dice import darkmetal_die, darkmetal_pool
from .rules import attacks
from .schema import FiringMode, Key

SIZE_TARGET = {"tiny": 8, "small": 7, "average": 6, "large": 5}  # Base Attack Roll (L1104)
MAX_T, MIN_T = 10, 2


def target_number(size: str = "average", armor: int = 0, pierce: int = 0, to_hit: int = 0,
                  close_range: bool = False) -> int:
    """T = base by size + 2 per Armor level not Pierced + the weapon's toHit (digest 5.2).

    A-20: the rulebook's combat example fights at "a difficulty of 5 … <3" distance", a modifier this
    text never defines; `close_range` applies it as −1.
    """
    return SIZE_TARGET[size] + 2 * max(0, armor - pierce) + to_hit - (1 if close_range else 0)


def net_distribution(attack_dice: int, target: int, defence_dice: int = 0, auto_tens: int = 0) -> Distribution:
    """Exact distribution of successes minus 1s (attack d10 and defence d6) for the attack."""
    net = darkmetal_pool(attack_dice, target, defence_dice)
    return Distribution(net.offset + auto_tens, net.probabilities) if auto_tens else net


def hit_chance(attack_dice: int, target: int, defence_dice: int = 0, auto_tens: int = 0) -> float:
    if target > MAX_T and not auto_tens:
        return 0.0  # "this can make an attack impossible" (L1170)
    return net_distribution(attack_dice, max(MIN_T, target), defence_dice, auto_tens).at_least(1)


def expected_net_damage(attack_dice: int, target: int, defence_dice: int = 0) -> float:
    """The aimed Beam Rifle: one damage per net success (L758)."""
    return sum(max(0, k) * p for k, p in net_distribution(attack_dice, target, defence_dice).items())


@dataclass(frozen=True)
class Readings:
    """The table's readings of the preview's unclear rules (house rules), each defaulting to Hardpoint's."""

    range_step: str = "replaces"  # a weapon's range step replaces its toHit, or adds to it
    aim: str = "table"  # the Leader's Aim dice by the lookup table, or half the Awareness pool
    close_range: str = "optional"  # A-20: the combat example's −1 under 3", offered or never applied
    support: str = "capped"  # supporting dice at most +2, or one each without a cap


def aim_dice(awareness_half_steps: int, leader: bool = True, reading: str = "table") -> int:
    """Aim bonus dice (L1269, A-13): Leader by Awareness level 1-2 → 1, 2½-4½ → 2, 5+ → 3; allies by pool.

    The two passages the table contradicts halve the Awareness pool, rounded up (L905) or down (L1269)."""
    if leader and reading != "table":
        pool = awareness_half_steps // 2
        return -(-pool // 2) if reading == "pool-up" else pool // 2
    if leader:
        level = awareness_half_steps / 2
        return 0 if level < 1 else 1 if level <= 2 else 2 if level <= 4.5 else 3
    pool = awareness_half_steps
    return 0 if pool < 1 else 1 if pool <= 2 else 2 if pool <= 4 else 3


def support_dice(helpers: int, reading: str = "capped") -> int:
    """Supporting Attackers or Defenders: +1 die each, at most +2 (L1120, L1156; A-22)."""
    return max(0, helpers) if reading == "uncapped" else min(2, max(0, helpers))


def into_melee_defence(friendlies_on_the_wrong_side: int) -> int:
    """Shooting into Close Combat past friendlies: +2 defence dice for each (L1235)."""
    return 2 * friendlies_on_the_wrong_side


# --- a Leader's weapons against a target -----------------------------------------------------------

COVER_DICE = {"none": 0, "partial_concealment": 1, "full_concealment": 2, "partial_cover": 2, "full_cover": 4}


class Situation(BaseModel):
    """What the player picks for the preview (digest 5.2-5.4)."""

    model_config = ConfigDict(extra="forbid")
    range: int = Field(default=6, ge=0, le=60)  # inches or hexes
    close_combat: bool = False  # engaged: every attack uses Athletics (L1221)
    size: Literal["tiny", "small", "average", "large"] = "average"
    armor: int = Field(default=0, ge=0, le=4)
    defence_dice: int = Field(default=1, ge=0, le=12)  # the target's Instinct pool
    cover: Literal["none", "partial_concealment", "full_concealment", "partial_cover", "full_cover"] = "none"
    dodging: bool = False
    dashing: bool = False
    aimed: bool = False
    close_range: bool = False
    # Close Combat only: allies already on the target / friends beside the attacker, +1 die each, at most +2.
    supporting_attackers: int = Field(default=0, ge=0, le=12)
    supporting_defenders: int = Field(default=0, ge=0, le=12)
    friendlies_in_the_way: int = Field(default=0, ge=0, le=12)  # shooting into a Close Combat from the wrong side
    undetected: bool = False  # a Stealth first strike in Close Combat: one die shows 10 (L1039)
    modes: dict[Key, str] = Field(default_factory=dict, max_length=12)  # weapon key → the firing mode chosen


def weapon_to_hit(weapon, mode: FiringMode, distance: int, reading: str = "replaces") -> int:
    """The mode's toHit at this range; a range step replaces the base value (A-19), or adds to it."""
    to_hit = mode.to_hit
    for beyond, value in sorted(getattr(weapon, "range_steps", [])):
        if distance > beyond:
            to_hit = value if reading == "replaces" else mode.to_hit + value
    return to_hit


def profiles(weapon) -> list[FiringMode]:
    """Each way a weapon fires (digest 6.10): its listed modes, or else its table stats as the one mode."""
    if weapon.modes:
        return list(weapon.modes)
    return [FiringMode(name="standard", damage=weapon.damage, pierce=weapon.pierce, to_hit=weapon.to_hit,
                       shock=weapon.shock, ammo=1 if weapon.ammo else 0)]


# A ranged weapon swung in Close Combat strikes as a basic melee weapon, whatever its modes (L1221).
AS_A_CLUB = FiringMode(name="as a melee weapon", damage=1)


def unrolled_dice(attack_dice: int, target: int, defence_dice: int, auto_tens: int, damage: int) -> Distribution:
    """Damage of the powered Heavy Beam Rifle (L779): the defence d6 are rolled first, then the attack d10 one
    at a time until successes outnumber the 1s; each die left unrolled adds 1 damage. 0 is a miss."""
    die = dict(darkmetal_die(target).items())
    outcomes: dict[int, float] = {}
    for defence, p_defence in darkmetal_pool(0, target, defence_dice).items():
        states = {auto_tens + defence: p_defence}  # net successes so far
        for rolled in range(attack_dice + 1):
            for net in [n for n in states if n > 0]:
                dealt = damage + attack_dice - rolled
                outcomes[dealt] = outcomes.get(dealt, 0.0) + states.pop(net)
            if rolled == attack_dice:
                break
            after: dict[int, float] = {}
            for net, p in states.items():
                for face, q in die.items():
                    after[net + face] = after.get(net + face, 0.0) + p * q
            states = after
        outcomes[0] = outcomes.get(0, 0.0) + sum(states.values())
    return Distribution.of(outcomes)


def mode_odds(weapon, mode: FiringMode, pools: dict[str, int], aim: int, situation: Situation, bulk: int,
              readings: Readings = Readings()) -> dict:
    """One firing mode's attack: dice, target number, defence dice, exact P(hit) and expected damage."""
    melee = bool(getattr(weapon, "close_combat", False) or getattr(weapon, "melee", False))
    in_close_combat = situation.close_combat or melee
    odds = {"mode": mode.name, "ammo": mode.ammo, "power": mode.power, "shock": mode.shock}
    max_range = mode.max_range if mode.max_range is not None else weapon.max_range
    if not in_close_combat and max_range is not None and situation.range > max_range:
        return {**odds, "reachable": False, "why": f"Max Range {max_range}"}
    if mode.aimed_only and not situation.aimed:
        return {**odds, "reachable": False, "why": "only when Aimed"}
    notes = []
    if in_close_combat:
        penalty = getattr(weapon, "close_combat_penalty", 0)
        dice, to_hit = pools["ath"] - penalty, mode.to_hit
        notes.append("Close Combat: Athletics" + (f" −{penalty}" if penalty else ""))
        if not melee:
            notes.append("a ranged weapon in Close Combat strikes as a basic melee weapon")
    else:
        dice, to_hit = pools["pre"], weapon_to_hit(weapon, mode, situation.range, readings.range_step)
        notes.append("Shoot: Precision")
    if mode.extra_dice:
        notes.append(f"+{mode.extra_dice} {'die' if mode.extra_dice == 1 else 'dice'} ({mode.name})")
    damage = max(0, bulk) if mode.damage_rule == "bulk" else mode.damage
    if mode.damage_rule == "bulk":
        notes.append(f"damage = Bulk {bulk}")
    auto_tens = 0
    if in_close_combat:
        dice += support_dice(situation.supporting_attackers, readings.support)
        auto_tens = int(situation.undetected)
        if situation.supporting_attackers:
            notes.append(f"+{support_dice(situation.supporting_attackers, readings.support)} supporting")
        if situation.undetected:
            notes.append("undetected first strike: one die shows 10")
    dice = max(0, dice) + mode.extra_dice + aim
    defence = situation.defence_dice + (0 if in_close_combat else COVER_DICE[situation.cover])
    defence += 2 * situation.dodging + situation.dashing
    defence += support_dice(situation.supporting_defenders, readings.support) if in_close_combat else \
        into_melee_defence(situation.friendlies_in_the_way)
    close_range = situation.close_range and readings.close_range == "optional"
    if situation.close_range and not close_range:
        notes.append("no close-range −1 at this table (A-20)")
    target = target_number(situation.size, situation.armor, mode.pierce, to_hit, close_range)
    odds.update(reachable=True, dice=dice, target_number=target, defence_dice=defence, damage=damage, hit_from=1,
                notes=notes)
    if mode.damage_rule == "unrolled_dice":
        dealt = unrolled_dice(dice, max(MIN_T, min(target, MAX_T + 1)), defence, auto_tens, damage)
        notes.append("chart: damage dealt")
        return {**odds, "p_hit": dealt.at_least(1), "expected_damage": dealt.mean(), "damage": f"{damage} + unrolled",
                "distribution": {k: p for k, p in dealt.items() if p > 1e-12}}
    net = net_distribution(dice, max(MIN_T, min(target, MAX_T + 1)), defence, auto_tens)
    p_hit = hit_chance(dice, target, defence, auto_tens)
    if mode.damage_rule == "net_successes":
        expected, odds["damage"] = expected_net_damage(dice, target, defence), "net successes"
    else:
        expected = p_hit * damage
    return {**odds, "p_hit": p_hit, "expected_damage": expected,
            "distribution": {k: p for k, p in net.items() if p > 1e-12}}


def boosted(modes: list[FiringMode], boosts) -> list[FiringMode]:
    """Each Close Combat mode, then the same paid up with each Power boost an MES gives (Dual Cyber Arms)."""
    return modes + [mode.model_copy(update={"name": f"{mode.name} + {mod.name}"[:40], "power": mode.power + mod.boost.power,
                                            "extra_dice": mode.extra_dice + mod.boost.extra_dice})
                    for mod in boosts for mode in modes]


def weapon_odds(weapon, pools: dict[str, int], aim: int, situation: Situation, bulk: int = 0, boosts=(),
                readings: Readings = Readings()) -> dict:
    """A weapon's attack in the mode chosen (the first unless `situation.modes` names another), with the odds
    of every mode it has beside it."""
    melee = bool(getattr(weapon, "close_combat", False) or getattr(weapon, "melee", False))
    modes = [AS_A_CLUB] if situation.close_combat and not melee else profiles(weapon)
    if melee or situation.close_combat:
        modes = boosted(modes, boosts)
    every = [mode_odds(weapon, mode, pools, aim, situation, bulk, readings) for mode in modes]
    # An aimed shot of a weapon with an aimed mode (the Beam Rifle) is that mode unless another is picked.
    default = next((m for m in modes if m.aimed_only), modes[0]) if situation.aimed else modes[0]
    chosen = situation.modes.get(weapon.key, default.name)
    names = [mode.name for mode in modes]
    if chosen not in names:
        if len(modes) == 1:
            chosen = names[0]  # in Close Combat a rifle has one way to strike, whatever was picked
        else:
            raise BuildError([{"path": f"situation.modes.{weapon.key}",
                               "message": f"{weapon.name} fires as {', '.join(names)}; not {chosen[:40]!r}"}])
    attack = every[names.index(chosen)]
    return {"name": weapon.name, "key": weapon.key, **attack, "modes": every if len(every) > 1 else []}


def leader_preview(report, weapons, awareness_half_steps: int, situation: Situation, boosts=(),
                   readings: Readings = Readings()) -> dict:
    pools = {row.trait: row.pool for row in report.detail.traits}
    aim = aim_dice(awareness_half_steps, reading=readings.aim) if situation.aimed else 0
    bulk = report.stats["bulk"].value
    return {"situation": situation.model_dump(), "aim": aim,
            "attacks": [weapon_odds(w, pools, aim, situation, bulk, boosts, readings) for w in weapons]}


# The preview's readings a table may choose in its house rules: Readings field, house-rule option.
PREVIEW_READINGS = (("range_step", "range-step"), ("aim", "aim-dice"), ("close_range", "close-range"),
                    ("support", "support-dice"))


def preview_leader(previewing: Previewing) -> dict:
    """The Leader's weapons (hands, and what else attacks, DM-R25) against the target the situation describes."""
    leader, items, report = previewing.build, previewing.catalogue.items, previewing.report
    weapons = [items[pick.item] for pick in leader.hands] + attacks(leader, items, report.detail.implants)
    readings = Readings(**{name: setting(OPTIONS, leader, option) for name, option in PREVIEW_READINGS})
    result = leader_preview(report, weapons, leader.traits["awa"], previewing.read(),
                            [items[key] for key in report.detail.boosts], readings)
    return {**result, "attacker": leader.name}
