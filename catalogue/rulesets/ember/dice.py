"""Ember·Obsidian Protocol's custom dice, exact (digest 2.11, 5.3, 5.4, 5.6): each die a list of faces, a pool the
convolution of its dice, and an attack resolved against a defence by the defender's offsets.

Faces carry icons: an attack face (Light, Heavy, Lightning, Eye), a defence face (Defense, Dodge). Hollow icons
count only in the stance that makes them solid: Offensive for Yellow and Red, Defensive for White. Everything is
computed with the number type given (Fraction for exact values, float for speed), never by sampling.
"""
from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from typing import Literal

Policy = Literal["P1", "P2"]

# Attack faces as (light, heavy, lightning, eye, hollow light, hollow heavy); 2.11, L97-101.
YELLOW = ((2, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0),
          (0, 0, 1, 0, 0, 0), (0, 0, 0, 1, 0, 0), (0, 0, 0, 0, 0, 0))
RED = ((0, 1, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1),
       (0, 0, 0, 0, 1, 0), (0, 0, 1, 0, 0, 0), (0, 0, 0, 1, 0, 0))
# Defence faces as (defense, dodge, lightning, eye, hollow defense); L102-109. "×2" is one face of two icons (L361).
WHITE = ((1, 0, 0, 0, 0), (0, 0, 0, 0, 2), (0, 0, 0, 0, 2), (0, 1, 0, 0, 0), (0, 0, 1, 0, 0), (0, 0, 1, 0, 0),
         (0, 0, 0, 1, 0), (0, 0, 0, 0, 0))
BLUE = ((0, 1, 0, 0, 0), (0, 1, 0, 0, 0), (0, 0, 0, 1, 0), (0, 0, 0, 1, 0), (0, 0, 1, 0, 0), (0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0), (0, 0, 0, 0, 0))
BLACK = ("torso", "chassis", "left_arm", "right_arm", "backpack", "any")  # the target Part die (d6)


def attack_face(face: tuple, offensive: bool) -> tuple[int, int, int]:
    """(light, heavy, lightning) as the attacker counts them; Offensive makes hollow icons solid (L365-366)."""
    light, heavy, lightning, _eye, hollow_light, hollow_heavy = face
    if offensive:
        light, heavy = light + hollow_light, heavy + hollow_heavy
    return light, heavy, lightning


def defence_face(face: tuple, defensive: bool, low_profile: bool = False) -> tuple[int, int]:
    """(defense, dodge) as the defender counts them; Defensive makes hollow Defense solid (L360-361), Low Profile
    reads an Eye as a Dodge against Firing (L657)."""
    defense, dodge, _lightning, eye, hollow = face
    if defensive:
        defense += hollow
    if low_profile:
        dodge += eye
    return defense, dodge


def die(faces: list[tuple], one=Fraction(1)) -> dict[tuple, object]:
    """One die as the chance of each outcome, its faces equally likely (faces showing the same icons merged)."""
    chances: dict[tuple, object] = defaultdict(lambda: 0 * one)
    for face in faces:
        chances[face] += one / len(faces)
    return dict(chances)


def focused(chances: dict[tuple, object], keep) -> dict[tuple, object]:
    """The die after Focus (L490-493): rerolled once when it shows an outcome `keep` rejects. Each die is judged
    on its own face, so the pool stays a convolution and the odds stay exact."""
    again = sum((p for face, p in chances.items() if not keep(face)), 0 * next(iter(chances.values())))
    return {face: p * keep(face) + again * p for face, p in chances.items()}


def convolve(dice: list[dict[tuple, object]], one=Fraction(1)) -> dict[tuple, object]:
    """The distribution of the summed icon vectors of several dice."""
    total: dict[tuple, object] = {(0,) * len(next(iter(dice[0]))) if dice else (): one}
    for chances in dice:
        nxt: dict[tuple, object] = defaultdict(lambda: 0 * one)
        for state, p in total.items():
            for face, q in chances.items():
                nxt[tuple(a + b for a, b in zip(state, face))] += p * q
        total = dict(nxt)
    return total


def scores(face: tuple) -> bool:
    """A face worth keeping: an attack face with a Light or Heavy Hit, a defence face with a Defense or Dodge."""
    return bool(face[0] or face[1])


@lru_cache(maxsize=256)
def attack_pool(yellow: int, red: int, offensive: bool = False, exact: bool = True, focus: bool = False) -> dict:
    """(light, heavy, lightning) of a Yellow and Red pool; with Focus, every die that scored no Hit rerolled."""
    one = Fraction(1) if exact else 1.0
    dice = [die([attack_face(f, offensive) for f in YELLOW], one)] * yellow \
        + [die([attack_face(f, offensive) for f in RED], one)] * red
    if focus:
        dice = [focused(d, scores) for d in dice]
    return convolve(dice, one) if dice else {(0, 0, 0): one}


@lru_cache(maxsize=256)
def defence_pool(white: int, blue: int = 0, defensive: bool = False, low_profile: bool = False,
                 exact: bool = True, focus: bool = False) -> dict:
    """(defense, dodge) of a White and Blue pool; with Focus, every die that showed neither rerolled."""
    one = Fraction(1) if exact else 1.0
    dice = ([die([defence_face(f, defensive, low_profile) for f in WHITE], one)] * white
            + [die([defence_face(f, False, low_profile) for f in BLUE], one)] * blue)
    if focus:
        dice = [focused(d, scores) for d in dice]
    return convolve(dice, one) if dice else {(0, 0): one}


def offset(light: int, heavy: int, lightning: int, defense: int, dodge: int, policy: Policy = "P1",
           lightning_matters: bool = True) -> tuple[int, int]:
    """The defender's offsets (5.4): Defense cancels Light Hits only, Dodge any icon. Returns (surplus damage,
    Lightning left). P1 spends Dodge on damage first; P2, when a Penetration cannot be avoided anyway, on
    Lightning first."""
    damage = heavy + max(0, light - defense)
    if policy == "P2" and lightning_matters and damage > dodge:
        on_lightning = min(dodge, lightning)
        return damage - (dodge - on_lightning), lightning - on_lightning
    return max(0, damage - dodge), max(0, lightning - max(0, dodge - damage))


def resolve(attack: dict, defence: dict, policy: Policy = "P1", lightning_matters: bool = True) -> dict:
    """P(Hit), P(Penetration), the surplus (un-offset damage) distribution, P(Lightning effect) and E[Lightning
    left] of an attack pool against a defence pool."""
    zero = next(iter(attack.values())) * 0
    hit = pen = effect = lightning_left = zero
    surplus: dict[int, object] = defaultdict(lambda: zero)
    for (light, heavy, lightning), pa in attack.items():
        for (defense, dodge), pd in defence.items():
            p = pa * pd
            left, zapped = offset(light, heavy, lightning, defense, dodge, policy, lightning_matters)
            surplus[left] += p
            if left:
                pen += p
            if light + heavy > dodge:  # a Hit unless Dodge cancels every damaging icon (5.4)
                hit += p
            if zapped:
                effect += p
                lightning_left += p * zapped
    return {"p_hit": hit, "p_penetration": pen, "surplus": dict(sorted(surplus.items())), "p_lightning": effect,
            "expected_lightning": lightning_left}


def electronic_warfare(initiator: int, responder: int, offensive: bool = False, exact: bool = True):
    """P(the initiator succeeds) in an EW counter-roll of Yellow dice (5.6): more Lightning wins; equal Lightning,
    more Light Hits (a "×2" face two); equal on both, the initiator."""
    one = Fraction(1) if exact else 1.0
    mine, theirs = ew_pool(initiator, offensive, exact), ew_pool(responder, False, exact)
    won = 0 * one
    for (light_i, zap_i), pi in mine.items():
        for (light_r, zap_r), pr in theirs.items():
            if zap_i > zap_r or (zap_i == zap_r and light_i >= light_r):
                won += pi * pr
    return won


def ew_pool(count: int, offensive: bool, exact: bool) -> dict:
    one = Fraction(1) if exact else 1.0
    faces = die([(attack_face(f, offensive)[0], attack_face(f, offensive)[2]) for f in YELLOW], one)
    return convolve([faces] * count, one) if count else {(0, 0): one}


def target_part(equipped: set[str]) -> dict[str, Fraction]:
    """D-24: the Black die's Part, a missing or Destroyed one read as the Torso; "any" is the attacker's choice."""
    chances: dict[str, Fraction] = defaultdict(Fraction)
    for face in BLACK:
        chances[face if face == "any" or face in equipped else "torso"] += Fraction(1, 6)
    return dict(chances)


# --- `manage.py dice ember` ----------------------------------------------------------------------

ATTACK = r"(?:(\d{1,2})Y)?\+?(?:(\d{1,2})R)?"
DEFENCE = r"(\d{1,2})W(?:\+(\d{1,2})B)?"
STANCES = ("OFF", "DEF", "MOB", "SD")  # Offensive, Defensive, Mobility, Shutdown


def command(attack: str, defence: str, attacker_stance: str = "SD", defender_stance: str = "SD", dodge: int = 0,
            policy: str = "P1") -> dict:
    """An attack pool ("2Y+2R") against a defence ("4W", or "4W+3B" for Blue dice given outright); a defender in
    Mobility adds `dodge` Blue dice. Exact odds as JSON-ready floats."""
    yellow, red = (int(n or 0) for n in re.fullmatch(ATTACK, attack).groups())
    white, blue = (int(n or 0) for n in re.fullmatch(DEFENCE, defence).groups())
    if defender_stance == "MOB":
        blue += dodge
    result = resolve(attack_pool(yellow, red, attacker_stance == "OFF"),
                     defence_pool(white, blue, defender_stance == "DEF"), policy)
    return {"p_hit": float(result["p_hit"]), "p_penetration": float(result["p_penetration"]),
            "surplus": {str(k): float(p) for k, p in result["surplus"].items()},
            "p_lightning": float(result["p_lightning"])}
