"""LANCER attack odds, exact (digest 5.1 and 5.2): d20 + Grit (or Tech Attack) + accuracy against Evasion or
E-Defense; accuracy and difficulty cancel and the rest is the highest of that many d6, added or taken away (the
1.0 rule, the default reading); a weapon attack totalling 20 or more is a critical hit, which rolls every damage
die twice and keeps the higher; Armor comes off, then Resistance halves, rounding up.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import BuildError
from ..dice import Distribution, pool
from ..house_rules import setting
from ..spec import Previewing
from .rules import OPTIONS, PilotMech

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


def rollable(expression: str | int) -> bool:
    """Whether a damage value is a number or dice, not a pack's "???" or "N/A"."""
    found = DICE.match(str(expression))
    return found is not None and any(found.groups())


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


# --- a mech's weapons against a target (L-C01 to L-C05) ---------------------------------------------------------

# L-R31: the heat of each Overcharge until a full repair, by reading.
OVERCHARGE = {"1.0": ("1", "1d3", "1d6", "1d6+4"), "beta": ("1", "1d3", "1d6", "1d6+3")}
COVER = {"none": 0, "light": 1, "heavy": 2}  # L-C02: difficulty of the best cover, ranged attacks only
TARGET_FLAGS = ("resistant", "braced", "shredded", "invisible", "prone", "stunned", "lock_on")
SITUATION_FLAGS = ("engaged", "impaired", "overcharge")
HP_DAMAGE = ("Kinetic", "Energy", "Explosive", "Variable")  # heat and burn do not come off HP on the hit
BONUS_TYPES = ("Kinetic", "Energy", "Explosive")  # L-R16
IMPROVISED = "1d6"  # L-R24, F26: melee, kinetic


class Target(BaseModel):
    model_config = ConfigDict(extra="forbid")

    evasion: int = Field(8, ge=0, le=40)
    edef: int = Field(8, ge=0, le=40)
    armor: int = Field(0, ge=0, le=10)
    resistant: bool = False  # to every damage type the attack deals
    braced: bool = False  # L-R39: resistance to the triggering attack, which does not stack (L-R15)
    shredded: bool = False
    invisible: bool = False  # F33: half of all attacks miss before the roll
    prone: bool = False
    stunned: bool = False
    lock_on: bool = False


class Situation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mech: int | None = Field(None, ge=0, le=11)  # one mech by its place, or every mech of the pilot
    cover: Literal["none", "light", "heavy"] = "none"
    accuracy: int = Field(0, ge=0, le=6)  # from talents and systems the preview does not read
    difficulty: int = Field(0, ge=0, le=6)
    engaged: bool = False
    impaired: bool = False
    bonus_damage: int = Field(0, ge=0, le=20)
    overcharge: bool = False  # Overcharge this turn for a Skirmish after the Barrage
    overcharges: int = Field(0, ge=0, le=4)  # Overcharges already taken since the last full repair


def odds(document: dict[str, Any], catalogue, grit: int, index: int, mech_detail: PilotMech, target: Target,
         situation: Situation, readings: dict[str, str]) -> dict[str, Any]:
    """Each weapon of the pilot's mech at `index` against the target, then its best turn with the heat it costs."""
    mech = document["mechs"][index]
    weapons = [catalogue.items[key] for mount in mech["mounts"] for key in mount["weapons"]]
    # A weapon with profiles attacks with one of them: each is a row, and the turn fires the best.
    modes = [(w, [(f"{w.name}: {p.name}", p.damage, [*w.tags, *p.tags]) for p in w.profiles]
              or [(w.name, w.damage, w.tags)]) for w in weapons]
    attacks, best = [], []
    for weapon, profiles in modes:
        rows = [weapon_odds(name, weapon.mount, weapon.type, damage, tags, grit, target, situation, readings)
                for name, damage, tags in profiles]
        attacks += rows
        best.append(max(rows, key=lambda row: row["expected_damage"]))
    if not any(w.type == "Melee" for w in weapons):
        improvised = weapon_odds("Improvised Attack", "—", "Melee", [_Damage("Kinetic", IMPROVISED)], [], grit,
                                 target, situation, readings, improvised=True)
        attacks.append(improvised)
        best.append(improvised)
    return {"mech": mech["name"], "grit": grit, "attacks": attacks,
            "turn": turn(best, mech_detail, situation, readings)}


class _Damage:
    def __init__(self, type_: str, val: str | int):
        self.type, self.val = type_, val


def net_accuracy(tags, melee: bool, target: Target, situation: Situation) -> tuple[int, list[str]]:
    """L-C02: accuracy and difficulty from the weapon's tags, the target and the situation, with their sources."""
    terms = []
    plus = situation.accuracy + sum(1 for t in tags if t.id == "tg_accurate")
    minus = situation.difficulty + sum(1 for t in tags if t.id == "tg_inaccurate")
    for flag, label in (("prone", "prone target"), ("stunned", "stunned target"), ("lock_on", "Lock On")):
        if getattr(target, flag):
            plus += 1
            terms.append(f"+1 {label}")
    if not melee:  # cover and Engaged trouble ranged attacks only (L437, L162)
        if COVER[situation.cover]:
            minus += COVER[situation.cover]
            terms.append(f"−{COVER[situation.cover]} {situation.cover} cover")
        if situation.engaged:
            minus += 1
            terms.append("−1 Engaged")
    if situation.impaired:
        minus += 1
        terms.append("−1 Impaired")
    return plus - minus, terms


def weapon_odds(name: str, mount: str, kind: str, damage, tags, grit: int, target: Target, situation: Situation,
                readings: dict[str, str], improvised: bool = False) -> dict[str, Any]:
    melee = kind == "Melee"
    net, terms = net_accuracy(tags, melee, target, situation)
    smart = any(t.id == "tg_smart" for t in tags)  # Smart attacks go against E-Defense
    defence = target.edef if smart else target.evasion
    p_hit, p_crit = hit_and_crit(grit, net, defence, True, readings.get("accuracy", "d6"))
    if target.invisible:  # F33: a coin before the roll
        p_hit, p_crit = p_hit / 2, p_crit / 2
    hp = [d for d in damage if d.type in HP_DAMAGE and rollable(d.val)]
    unknown = [str(d.val) for d in damage if not rollable(d.val)]  # "???" and "N/A": the pack gives no value
    bonus = situation.bonus_damage if any(d.type in BONUS_TYPES for d in hp) else 0
    roll = Distribution(0, (1.0,))
    for d in hp:
        roll = roll + damage_roll(d.val)
    crit_roll = critical_roll(hp, readings.get("crit-dice", "whole"))
    piercing = any(t.id == "tg_ap" for t in tags) or target.shredded
    resist = (target.resistant or target.braced) and not target.shredded
    armor = 0 if target.shredded else target.armor

    def dealt(extra: int) -> dict[int, float]:
        """Damage per attack: a miss deals 0, a hit the roll, a critical the kept roll, after Armor and Resistance."""
        weights: dict[int, float] = {0: 1 - p_hit}
        for share, rolled in ((p_hit - p_crit, roll), (p_crit, crit_roll)):
            for value, p in after_defences(shifted(rolled, extra), armor, piercing, resist).items():
                weights[value] = weights.get(value, 0.0) + share * p
        return weights

    weights = dealt(bonus)
    self_heat = sum(int(t.val) for t in tags if t.id == "tg_heat_self" and str(t.val).isdigit())
    unread = [t.id.removeprefix("tg_").replace("_", " ") + (f" {t.val}" if t.val not in (None, "") else "")
              for t in tags if t.id not in READ_TAGS]
    return {"name": name, "mount": mount, "type": kind, "superheavy": mount == "Superheavy", "improvised": improvised,
            "against": f"E-Defense {defence}" if smart else f"Evasion {defence}",
            "p_hit": p_hit, "p_crit": p_crit, "net_accuracy": net, "terms": terms,
            "damage": " + ".join(f"{d.val} {(d.type or '').lower()}".strip() for d in damage) or "—",
            "expected_damage": sum(v * p for v, p in weights.items()), "distribution": {v: p for v, p in sorted(weights.items()) if p > 1e-12},
            "expected_without_bonus": sum(v * p for v, p in dealt(0).items()) if bonus else None,
            "reachable": True, "hit_from": 1, "self_heat": self_heat, "at_the_table": unread,
            "bonus": bonus, "piercing": piercing,
            "notes": terms + ([f"also {', '.join(side)} on a hit"] if (side := [f"{d.val} {d.type.lower()}" for d in damage
                                                                           if d.type and d.type not in HP_DAMAGE
                                                                           and rollable(d.val)]) else [])
            + ([f"damage {', '.join(unknown)} in the pack: not counted"] if unknown else [])
            + ([f"{self_heat} heat to self"] if self_heat else []) + ([f"at the table: {', '.join(unread)}"] if unread else [])}


READ_TAGS = {"tg_accurate", "tg_inaccurate", "tg_ap", "tg_heat_self", "tg_smart"}


def critical_roll(hp, mode: str) -> Distribution:
    """L-C03: the whole roll twice keeping the higher, or (a reading) each die twice keeping the higher."""
    if mode == "each":
        total = Distribution(0, (1.0,))
        for d in hp:
            found = DICE.match(str(d.val))
            count, sides, sign, flat = found.groups() if found else (None, None, None, None)
            if count:
                die = critical(Distribution(1, tuple([1 / int(sides)] * int(sides))))
                total = total + pool(die, int(count))
            total = shifted(total, (-1 if sign == "-" else 1) * int(flat or 0))
        return total
    roll = Distribution(0, (1.0,))
    for d in hp:
        roll = roll + damage_roll(d.val)
    return critical(roll)


def shifted(roll: Distribution, by: int) -> Distribution:
    return Distribution(roll.offset + by, roll.probabilities)


def turn(attacks: list[dict[str, Any]], mech_detail: PilotMech, situation: Situation,
         readings: dict[str, str]) -> dict[str, Any]:
    """L-R30, L-R33: a Barrage with the two best weapons, or a Superheavy alone (L-R08), and with Overcharge a
    Skirmish by the best other weapon (L-R31); bonus damage on the first weapon fired only (L-R34). Heat is the
    weapons' own plus the Overcharge step's, exactly, against the Heat Cap (L-C05)."""
    weapons = [a for a in attacks if not a["improvised"]] or attacks
    by_damage = sorted(weapons, key=lambda a: a["expected_damage"], reverse=True)
    regular = [a for a in by_damage if not a["superheavy"]]
    pair = regular[:2]
    heavy = [a for a in by_damage if a["superheavy"]][:1]
    barrage = heavy if heavy and heavy[0]["expected_damage"] >= sum(a["expected_damage"] for a in pair) else pair
    fired = list(barrage)
    if situation.overcharge and regular:
        fired.append(regular[0])
    expected = sum(a["expected_damage"] if i == 0 or not a["bonus"] else a["expected_without_bonus"]
                   for i, a in enumerate(fired))
    heat = Distribution(sum(a["self_heat"] for a in fired), (1.0,))
    step = None
    if situation.overcharge:
        step = OVERCHARGE[readings.get("overcharge", "1.0")][min(situation.overcharges, 3)]
        heat = heat + damage_roll(step)
    cap = int(mech_detail.stats["heatcap"].value)
    return {"actions": "Barrage" + (" + Overcharge Skirmish" if situation.overcharge and regular else ""),
            "weapons": [a["name"] for a in fired], "expected_damage": expected, "expected_heat": heat.mean(),
            "overcharge_step": step, "heat_cap": cap, "p_over_cap": heat.at_least(cap + 1)}


READINGS = ("accuracy", "crit-dice", "overcharge")  # the preview's house-rule readings


def preview_pilot(previewing: Previewing) -> dict[str, Any]:
    """Every weapon of every mech (or the one `situation.mech` names) against the target the request describes."""
    target, situation = previewing.read("target"), previewing.read()
    pilot, report = previewing.build, previewing.report
    mechs = report.detail.mechs
    if not mechs:
        raise BuildError([{"path": "attacker.mechs", "message": "the pilot has no mech yet; add one first"}])
    if situation.mech is not None and situation.mech >= len(mechs):
        raise BuildError([{"path": "situation.mech", "message": f"the pilot has {len(mechs)} "
                                                                f"mech{'s' if len(mechs) > 1 else ''}; count from 0"}])
    readings = {key: setting(OPTIONS, pilot, key) for key in READINGS}
    grit, document = report.stats["grit"].value, pilot.model_dump(mode="json")
    chosen = range(len(mechs)) if situation.mech is None else [situation.mech]
    return {"attacker": pilot.name, "grit": grit,
            "mechs": [odds(document, previewing.catalogue, grit, i, mechs[i], target, situation, readings)
                      for i in chosen],
            "target": target.model_dump(), "situation": situation.model_dump()}
