"""LANCER attack odds, exact (digest 5.1 and 5.2): d20 + Grit (or Tech Attack) + accuracy against Evasion or
E-Defense; accuracy and difficulty cancel and the rest is the highest of that many d6, added or taken away (the
1.0 rule, the default reading); a weapon attack totalling 20 or more is a critical hit, which rolls every damage
die twice and keeps the higher; Armor comes off, then Resistance halves, rounding up.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

from ..dice import Distribution, pool

CRIT_TOTAL = 20
DICE = re.compile(r"^\s*(?:(\d+)d(\d+))?\s*(?:([+-])?\s*(\d+))?\s*$")


@lru_cache(maxsize=64)
def highest_of(k: int) -> Distribution:
    """The highest of k d6: P(max ≤ m) = (m/6)^k."""
    return Distribution(1, tuple((m / 6) ** k - ((m - 1) / 6) ** k for m in range(1, 7)))


def accuracy(net: int, model: str = "d6") -> Distribution:
    """Net accuracy (accuracy − difficulty) as a roll: the highest of |net| d6, added or taken away; "flat" reads
    each point as ±1 (a placeholder reading of the beta, which never says)."""
    if net == 0:
        return Distribution(0, (1.0,))
    if model == "flat":
        return Distribution(net, (1.0,))
    best = highest_of(abs(net))
    if net > 0:
        return best
    return Distribution(-6, tuple(reversed(best.probabilities)))


def attack_total(bonus: int, net_accuracy: int, model: str = "d6") -> Distribution:
    """d20 + bonus (Grit, or Tech Attack) + the accuracy roll."""
    d20 = Distribution(1 + bonus, tuple([1 / 20] * 20))
    return d20 + accuracy(net_accuracy, model)


def hit_and_crit(bonus: int, net_accuracy: int, defence: int, weapon: bool = True,
                 model: str = "d6") -> tuple[float, float]:
    """P(hit): the total meets the defence; P(crit): a weapon attack that hits with a total of 20 or more."""
    total = attack_total(bonus, net_accuracy, model)
    hit = total.at_least(defence)
    return hit, total.at_least(max(defence, CRIT_TOTAL)) if weapon else 0.0


def damage_roll(expression: str | int) -> Distribution:
    """A damage value: a number, or dice with a flat part ("1d6+2", "2d6", "3")."""
    found = DICE.match(str(expression))
    if found is None or not any(found.groups()):
        raise ValueError(f"'{str(expression)[:20]}' is not a damage value (write 3, 1d6 or 2d6+1)")
    count, sides, sign, flat = found.groups()
    rolled = pool(Distribution(1, tuple([1 / int(sides)] * int(sides))), int(count)) if count else Distribution(0, (1.0,))
    shift = (-1 if sign == "-" else 1) * int(flat or 0)
    return Distribution(rolled.offset + shift, rolled.probabilities)


def critical(roll: Distribution) -> Distribution:
    """A critical hit rolls the damage twice and keeps the higher."""
    weights: dict[int, float] = {}
    cumulative, below = 0.0, {}
    for value, p in roll.items():
        below[value] = cumulative
        cumulative += p
    for value, p in roll.items():
        # P(max = v) = P(a = v)·P(b < v)·2 + P(a = v)·P(b = v)
        weights[value] = 2 * p * below[value] + p * p
    return Distribution.of(weights)


def after_defences(roll: Distribution, armor: int = 0, armor_piercing: bool = False,
                   resistant: bool = False) -> Distribution:
    """Armor comes off (not for AP), at least 0; then Resistance halves, rounding up."""
    weights: dict[int, float] = {}
    for value, p in roll.items():
        dealt = max(0, value - (0 if armor_piercing else armor))
        if resistant:
            dealt = math.ceil(dealt / 2)
        weights[dealt] = weights.get(dealt, 0.0) + p
    return Distribution.of(weights)


def expected_damage(expression: str | int, p_hit: float, p_crit: float, armor: int = 0,
                    armor_piercing: bool = False, resistant: bool = False) -> float:
    """Expected damage of one attack: normal hits and critical hits, after Armor and Resistance."""
    roll = damage_roll(expression)
    normal = after_defences(roll, armor, armor_piercing, resistant).mean()
    crit = after_defences(critical(roll), armor, armor_piercing, resistant).mean()
    return (p_hit - p_crit) * normal + p_crit * crit
