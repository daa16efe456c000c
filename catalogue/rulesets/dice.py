"""Exact dice distributions, computed by convolution, never simulated: the core every ruleset's preview uses.

A Distribution maps outcomes (whole numbers: successes, net successes, 1 or 0 for a single roll) to
probabilities. Each ruleset describes one die as a Distribution and the pool is its n-fold convolution,
so a new game plugs in by describing its die: METALLURGENT d6 pools (a 6 counts twice), MEGA MERCS d100
roll-under (and opposed rolls), DARK METAL d10 pools where 1s cancel successes, LANCER d20 plus a modifier,
and custom-faced dice (Ember).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
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


# --- METALLURGENT: d6 pools, success on the criterion or better, a 6 counts twice -------------------

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


# --- MEGA MERCS: d100 roll-under, and opposed rolls -----------------------------------------------

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


# --- custom-faced dice (Ember and homebrew) ---------------------------------------------------------

def custom_die(faces: list[int]) -> Distribution:
    """A die whose faces show the given outcomes, each face equally likely."""
    weights: dict[int, float] = {}
    for face in faces:
        weights[face] = weights.get(face, 0.0) + 1 / len(faces)
    return Distribution.of(weights)


# --- DARK METAL: d10 pools, success at the target or better, every 1 cancels a success --------------

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


# --- LANCER: d20 plus a modifier against a target -------------------------------------------------

def d20_check(target: int, modifier: int = 0) -> Distribution:
    """1 when d20 + modifier meets the target, else 0."""
    hits = sum(1 for roll in range(1, 21) if roll + modifier >= target)
    return Distribution(0, (1 - hits / 20, hits / 20))
