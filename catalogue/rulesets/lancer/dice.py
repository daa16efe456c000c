"""LANCER's dice: a d20 plus a modifier against a target."""
from __future__ import annotations

from ..dice import Distribution


def d20_check(target: int, modifier: int = 0) -> Distribution:
    """1 when d20 + modifier meets the target, else 0."""
    hits = sum(1 for roll in range(1, 21) if roll + modifier >= target)
    return Distribution(0, (1 - hits / 20, hits / 20))
