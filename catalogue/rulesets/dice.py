"""Exact dice distributions, computed by convolution, never simulated: the core every ruleset's preview uses.

A Distribution maps outcomes (whole numbers: successes, net successes, 1 or 0 for a single roll) to
probabilities. A ruleset describes one die as a Distribution (`custom_die` from its faces, or the probabilities
outright) in its own dice module, and a pool is that die's n-fold convolution (`pool`); two independent outcomes
sum with `+`. Nothing here knows a game: each ruleset's dice live in catalogue/rulesets/<key>/dice.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Distribution:
    offset: int  # the outcome of probabilities[0]
    probabilities: tuple[float, ...]

    @classmethod
    def of(cls, weights: dict[int, float]) -> "Distribution":
        low, high = min(weights), max(weights)
        return cls(low, tuple(weights.get(k, 0.0) for k in range(low, high + 1)))

    def items(self) -> Iterable[tuple[int, float]]:
        return ((self.offset + i, p) for i, p in enumerate(self.probabilities))

    def at_least(self, k: int) -> float:
        start = max(0, k - self.offset)
        return min(1.0, sum(self.probabilities[start:]))

    def mean(self) -> float:
        return sum(k * p for k, p in self.items())

    def as_dict(self, digits: int = 10) -> dict[str, float]:
        return {str(k): round(p, digits) for k, p in self.items() if p > 0}

    def __add__(self, other: "Distribution") -> "Distribution":
        """The distribution of the sum of two independent outcomes."""
        short, long = sorted((self.probabilities, other.probabilities), key=len)
        m = len(long)
        result = [0.0] * (len(short) + m - 1)
        for i, p in enumerate(short):
            if p:  # one slice per outcome of the shorter side: the inner loop runs in C
                result[i:i + m] = [r + p * q for r, q in zip(result[i:i + m], long)]
        return Distribution(self.offset + other.offset, tuple(result))

    def doubled(self) -> "Distribution":
        """self + self, computing each cross product once (half the work of a general sum)."""
        ps, m = self.probabilities, len(self.probabilities)
        result = [0.0] * (2 * m - 1)
        for i, p in enumerate(ps):
            if p:
                result[2 * i] += p * p
                twice = p + p
                result[2 * i + 1:i + m] = [r + twice * q for r, q in zip(result[2 * i + 1:i + m], ps[i + 1:])]
        return Distribution(2 * self.offset, tuple(result))


ZERO = Distribution(0, (1.0,))


def pool(die: Distribution, n: int) -> Distribution:
    """n independent dice summed, by repeated squaring of the convolution."""
    result, power = ZERO, die
    while n > 0:
        if n & 1:
            result = result + power
        n >>= 1
        if n:  # the last doubling would go unused
            power = power.doubled()
    return result


# --- dice by their faces -----------------------------------------------------------------------------

def custom_die(faces: list[int]) -> Distribution:
    """A die whose faces show the given outcomes, each face equally likely."""
    weights: dict[int, float] = {}
    for face in faces:
        weights[face] = weights.get(face, 0.0) + 1 / len(faces)
    return Distribution.of(weights)
