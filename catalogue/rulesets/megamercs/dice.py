"""MEGA MERCS' dice: d100 roll-under (MM-C01), and opposed rolls (MM-C02)."""
from __future__ import annotations

from ..dice import Distribution


def clamp_d100(target: int) -> int:
    return max(0, min(100, target))


def d100_roll_under(target: int) -> Distribution:
    """1 for a success (roll 1-100 at or under the target), 0 for a failure (MM-C01)."""
    t = clamp_d100(target)
    return Distribution(0, (1 - t / 100, t / 100))


def d100_opposed(attacker: int, defender: int) -> dict[str, float]:
    """MM-C02: both roll under their own target; of two successes the higher roll wins, ties to the defender."""
    a, d = clamp_d100(attacker), clamp_d100(defender)
    attacker_wins = (a / 100) * (1 - d / 100) + sum(min(x - 1, d) for x in range(1, a + 1)) / 10_000
    defender_wins = (d / 100) * (1 - a / 100) + sum(min(y, a) for y in range(1, d + 1)) / 10_000
    return {"attacker": attacker_wins, "defender": defender_wins, "neither": (1 - a / 100) * (1 - d / 100)}
