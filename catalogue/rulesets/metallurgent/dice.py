"""METALLURGENT's dice: d6 pools, a success on the criterion or better, a 6 counting twice (L174)."""
from __future__ import annotations

from functools import lru_cache

from ..dice import Distribution, pool


def clamp_criterion(criterion: int) -> int:
    """METALLURGENT success criteria never go below 2+ nor above 6+ (L174)."""
    return max(2, min(6, criterion))


@lru_cache(maxsize=None)
def metallurgent_die(criterion: int, duplicate: bool = True) -> Distribution:
    """One d6: 0, 1 or (on a 6, unless indirect) 2 successes."""
    c = clamp_criterion(criterion)
    if duplicate:
        return Distribution(0, ((c - 1) / 6, (6 - c) / 6, 1 / 6))
    return Distribution(0, ((c - 1) / 6, (7 - c) / 6))


@lru_cache(maxsize=4096)
def metallurgent_pool(n: int, criterion: int, duplicate: bool = True) -> Distribution:
    """Successes on n d6; a pool of less than one die rolls nothing and succeeds nowhere."""
    return pool(metallurgent_die(criterion, duplicate), max(0, n))
