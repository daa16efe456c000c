"""The beta chapter's sizes and movement numbers a mech sheet prints (digest F16 to F23), so that a table does not
work them out mid-game: footprint, jumps, dragging and lifting, falling, grapples."""
from __future__ import annotations

import math

MAX_FALL = 12  # F18: falling damage stops growing at 12
SIZES = (0.5, 1, 2, 3, 4, 5)  # L-R14


def footprint(size: float) -> tuple[int, int]:
    """F22: a mech covers ⌈size⌉ × ⌈size⌉ spaces (size ½ still takes one)."""
    return math.ceil(size), math.ceil(size)


def passes_through(size: float, other: float) -> bool:
    """L-R14 (L169-171): a larger character ignores a smaller one as an obstruction and its engagement; one the
    same size or larger stops it."""
    return size > other


def jump(size: float, speed: int) -> tuple[int, float]:
    """F16: a jump goes at most half Speed across (rounded down, A-29) and at most the mech's size up."""
    return speed // 2, size  # the chapter does not say how half Speed rounds; down, like every 1.0 half


def drag_and_lift(size: float) -> tuple[float, float]:
    """F17: drag up to twice its size (Slowed while it does), lift up to its own size (Immobilized)."""
    return 2 * size, size


def falling_damage(spaces: int) -> int:
    """F18: 3 AP kinetic for every 3 spaces fallen, at most 12."""
    return min(MAX_FALL, 3 * (spaces // 3))


def grapple_size(sizes: list[float]) -> float:
    """F23: a side of a grapple counts the sizes of all its members together."""
    return sum(sizes)
