"""DARK METAL's dice: d10 pools, a success at the target or better, every 1 cancelling a success."""
from __future__ import annotations

from functools import lru_cache

from ..dice import Distribution, custom_die, pool


def darkmetal_face(face: int, target: int) -> int:
    """One d10 as a player reads it: +1 at or over the target, −1 on a 1 (a 1 never succeeds), else 0."""
    return -1 if face == 1 else int(face >= target)


@lru_cache(maxsize=None)
def darkmetal_die(target: int) -> Distribution:
    """One d10 as net successes, from its ten faces read as a player reads them."""
    return custom_die([darkmetal_face(face, target) for face in range(1, 11)])


DARKMETAL_DEFENCE_DIE = custom_die([-1 if face == 1 else 0 for face in range(1, 7)])  # each 1 cancels a success


def darkmetal_pool(n: int, target: int, defence: int = 0) -> Distribution:
    """Net successes of n d10 after 1s cancel, less the 1s on `defence` d6."""
    net = pool(darkmetal_die(target), max(0, n))
    if defence:
        net = net + pool(DARKMETAL_DEFENCE_DIE, defence)
    return net
