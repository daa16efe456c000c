"""MEGA MERCS combat preview: each weapon profile against a described target, exact on d100 (digest 5.11).

Hits are Binomial(RoF, TN/100) by convolution (dice core), evasion and graze per hit, damage after DR and armour
penetration, penetration on the same roll (MM-F08), internal damage with spalling (MM-F09) spread over a mecha's
d10 hit table (MM-C22), blast saves for infantry (MM-F16), and the E-War actions: a lock, jamming and hacking, each
an opposed E-War roll (MM-C02) where the target resists.
"""
from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import BuildError
from ..dice import pool
from ..house_rules import setting
from ..spec import Previewing
from .damage import HIT_ROLLS, hp_damage
from .dice import d100_opposed, d100_roll_under
from .rules import OPTIONS, Mounted, Unit, bonuses, resolve, stacked
from .schema import Edge, Profile, attribute

FRONT_ARC = frozenset({"front", "front_left", "front_right"})  # evasion is only through the front arc (L333)
BLIND_PENALTY = -20  # MM-C07, MM-C08: one −20, not two (MM-A13 reading)
LOCK_BONUS = 10  # MM-C04
BLAST_SAVE_CAP = 60  # MM-F16
LOCK_RANGE = 10  # visual and sensor locks (MM-C32)
EWAR_RANGE = 8  # jamming and hacking (MM-C34, MM-C35)
BEACON_PENALTY, BEACON_CAP = 20, 40  # MM-F15


def hit_chances(edge: str) -> dict[str, float]:
    """MM-C22: the chance of each part taking the internal damage, from the d10 rolls for the edge struck."""
    near, far = ("right_arm", "left_arm") if edge.endswith("right") else ("left_arm", "right_arm")
    chances: dict[str, float] = {}
    for low, high, direct, diagonal in HIT_ROLLS:
        part = direct if edge in ("front", "rear") else {"near_arm": near, "far_arm": far}.get(diagonal, diagonal)
        chances[part] = chances.get(part, 0.0) + (high - low + 1) / 10
    return chances


class Target(BaseModel):
    """What the attacker shoots at, as a player describes it."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["unit", "mecha", "infantry"] = "unit"
    edge: Edge = "front"
    dr: int = Field(0, ge=0, le=99)  # on the edge struck
    top_dr: int = Field(0, ge=0, le=99)  # against direct hits from indirect-fire weapons
    agility: int | None = Field(None, ge=0, le=100)
    evading: bool = False  # Evasion Focus, or a card that evades automatically
    ewar: int = Field(30, ge=0, le=100)
    electronic_defence: bool = False
    network_defence: int = Field(0, ge=0, le=100)  # the best E-War a networked ally's Network Defence lends; 0: none
    beacon: bool = False
    optical_stealth: bool = False
    flying: bool = False
    interceptor: int = Field(0, ge=0, le=20)  # large-projectile shots its interceptors negate a turn
    members: int = Field(6, ge=1, le=6)
    ish: int = Field(1, ge=1, le=9)
    blast_resistance: int = Field(40, ge=0, le=100)
    cover_points: int = Field(0, ge=0, le=6)
    in_building: bool = False


class Situation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    distance: int = Field(3, ge=1, le=99)
    line_of_sight: bool = True
    locked: bool = False  # the attacker holds a lock on the target
    network_lock: bool = False  # a networked ally holds one: it serves an attacker with a data link (MM-R40)
    jammed: bool = False  # the attacker is jammed: no locks, Tracking, Homing, data link or hacking (MM-C35)
    cover: int = Field(0, ge=-100, le=100)  # the GM's modifier for cover and terrain (MM-A02)
    lock_attempt: bool = False  # also preview these E-War actions against the target
    jam_attempt: bool = False
    hack_attempt: bool = False


def odds(unit: Unit, target: Target, situation: Situation) -> dict[str, Any]:
    """Every weapon profile of the unit against the target, and the E-War actions asked for."""
    attributes = unit.attributes()
    notes = []
    hidden = target.optical_stealth and not target.beacon and not detects(attributes, situation.distance)
    if hidden:
        notes.append("optical stealth: the target is a sensor contact only, so attacks are blind (MM-C39)")
    elif target.optical_stealth:
        notes.append("the target's stealth is undone by " + ("its Beacon (MM-R39)" if target.beacon else
                                                             "the attacker's Optical Detection"))
    if situation.network_lock and not situation.locked and "data_link" not in attributes:
        notes.append("a networked ally's lock serves only a unit with a data link (MM-R40)")
    locked = not situation.jammed and (situation.locked or (situation.network_lock and "data_link" in attributes))
    # The situation as the attack meets it: no line of sight to a hidden target, and the lock it can use.
    seen = situation.model_copy(update={"line_of_sight": situation.line_of_sight and not hidden, "locked": locked})
    accuracy = unit_accuracy(unit)
    attacks = [profile_odds(unit, m, p, accuracy, target, seen) for m in unit.weapons
               for p in m.item.profiles if m.ammo is None or p.name == m.ammo]
    asked = (("lock", situation.lock_attempt, lock_odds), ("jam", situation.jam_attempt, jam_odds),
             ("hack", situation.hack_attempt, hack_odds))
    return {"attacks": attacks, "notes": notes,
            "ewar": {action: work(unit, target, seen) for action, wanted, work in asked if wanted}}


def detects(attributes, distance: int) -> bool:
    """Optical Detection X sees through optical stealth within X hexes (MM-C39)."""
    detection = attributes.get("optical_detection")
    return detection is not None and distance <= detection[0].x


def unit_accuracy(unit: Unit) -> int:
    return stacked(bonuses(unit, "accuracy"))[0]


def unit_ewar(unit: Unit) -> int:
    return unit.chassis.ewar + stacked(bonuses(unit, "ewar"))[0]


def ewar_against_locks(target: Target) -> int:
    """MM-F15: a Beacon's E-War against locks drops by 20, or to 40, whichever is lower (MM-A26 reading: the
    lower of the two, so a low E-War is never raised to 40)."""
    return max(0, min(target.ewar - BEACON_PENALTY, BEACON_CAP)) if target.beacon else target.ewar


def lock_odds(unit: Unit, target: Target, situation: Situation) -> dict[str, Any]:
    """MM-C32, MM-C33: a Visual lock needs a line of sight, a Sensor lock sensor-lock equipment, both within 10
    hexes; against Electronic Defence the lock is an opposed E-War roll, otherwise it holds."""
    if situation.jammed:
        return refused("a jammed unit cannot attempt a lock (MM-C35)")
    if situation.distance > LOCK_RANGE:
        return refused(f"a lock reaches {LOCK_RANGE} hexes")
    if not situation.line_of_sight and "sensor_lock" not in unit.attributes():
        return refused("without a line of sight only a Sensor lock serves, and that needs sensor-lock equipment "
                       "(MM-R40)")
    if not target.electronic_defence:
        return {"p": 1.0, "explain": "no Electronic Defence: the lock holds without a roll"}
    defence = ewar_against_locks(target)
    beacon = f" (its Beacon: {target.ewar} counts as {defence})" if target.beacon else ""
    return contest(unit, unit_ewar(unit), defence, "lock", beacon)


def jam_odds(unit: Unit, target: Target, situation: Situation) -> dict[str, Any]:
    """MM-C35: jamming needs ECM and reaches 8 hexes; it takes no roll unless Electronic Defence resists it."""
    if "ecm" not in unit.attributes():
        return refused("jamming needs ECM equipment (MM-R40)")
    if situation.distance > EWAR_RANGE:
        return refused(f"jamming reaches {EWAR_RANGE} hexes")
    if not target.electronic_defence:
        return {"p": 1.0, "explain": "no Electronic Defence: jamming takes no roll"}
    return contest(unit, unit_ewar(unit), target.ewar, "jamming")


def hack_odds(unit: Unit, target: Target, situation: Situation) -> dict[str, Any]:
    """MM-C34: hacking needs ECM, reaches 8 hexes and is lost to jamming; Electronic Defence, or a networked
    ally's Network Defence lending the best E-War (MM-F21), resists it with an opposed E-War roll."""
    if "ecm" not in unit.attributes():
        return refused("hacking needs ECM equipment (MM-R40)")
    if situation.jammed:
        return refused("a jammed unit cannot hack (MM-C35)")
    if situation.distance > EWAR_RANGE:
        return refused(f"hacking reaches {EWAR_RANGE} hexes")
    if not (target.electronic_defence or target.network_defence):
        # MM-A25: a roll "against the target's E-War" whose target number the rulebook does not give: no odds.
        return {"p": None, "explain": f"a roll against the target's E-War {target.ewar}, which the rulebook "
                                      f"leaves open (MM-A25)"}
    defence = max(target.ewar, target.network_defence)
    network = f" (Network Defence lends {defence})" if defence > target.ewar else ""
    return contest(unit, unit_ewar(unit), defence, "hack", network)


def contest(unit: Unit, attacker: int, defender: int, action: str, aside: str = "") -> dict[str, Any]:
    """MM-C02: the opposed E-War roll, and the chance the action goes through."""
    rolls = d100_opposed(attacker, defender)
    both_fail = setting(OPTIONS, unit, "both-fail")  # MM-A05: the rulebook leaves both failing open
    p = rolls["attacker"] + (rolls["neither"] if both_fail == "attacker" else 0)
    outcome = f"lets the {action} through" if both_fail == "attacker" else "stops it"
    return {"p": p, **rolls, "explain": f"E-War {attacker} against {defender}{aside}; both failing {outcome}"}


def refused(reason: str) -> dict[str, Any]:
    return {"p": 0.0, "explain": reason}


def profile_odds(unit: Unit, m: Mounted, profile: Profile, accuracy: int, target: Target,
                 situation: Situation) -> dict[str, Any]:
    weapon = m.item
    label = f"{weapon.name} ({profile.name})" if profile.name else weapon.name
    ranged = profile.range != "melee"
    indirect = attribute(profile.attributes, "indirect_fire") or attribute(profile.attributes, "variable_indirect_fire")
    locked = situation.locked
    row: dict[str, Any] = {"name": label, "path": m.path, "profile": profile.name, "notes": []}
    reason = ineligible(profile, indirect, target, situation)
    if reason:
        return {**row, "eligible": False, "reason": reason}
    terms = [f"base {profile.accuracy}"]
    tn = profile.accuracy
    if ranged and accuracy:
        tn += accuracy
        terms.append(f"equipment {accuracy:+d}")
    tracking = attribute(profile.attributes, "tracking")
    if ranged and locked:
        # MM-F04: Tracking replaces the +10 (MM-R27); indirect fire without LoS gets no +10 but keeps Tracking.
        if tracking:
            tn += tracking.x
            terms.append(f"Tracking {tracking.x:+d}")
        elif situation.line_of_sight:
            tn += LOCK_BONUS
            terms.append(f"lock {LOCK_BONUS:+d}")
    elif ranged and not situation.line_of_sight:
        tn += BLIND_PENALTY
        terms.append(f"{'indirect' if indirect else 'blind'}, no lock {BLIND_PENALTY:+d}")
    if ranged and situation.cover and not target.flying:  # flying units cannot benefit from cover (MM-R38)
        tn += situation.cover
        terms.append(f"cover (GM) {situation.cover:+d}")
    if ranged and target.kind == "infantry" and target.in_building:
        tn = halved(tn, setting(OPTIONS, unit, "building-halving"))
        terms.append("halved: infantry in a building (MM-C09)")
    tn = max(0, min(100, tn))
    homing = attribute(profile.attributes, "homing") and locked
    small_arms = profile.damage_type == "small_arms"
    blast = max((a for a in profile.attributes if a.name == "blast"), key=lambda a: a.x, default=None)
    shots = profile.rof
    if target.interceptor and attribute(profile.attributes, "large_projectile"):
        shots = max(0, shots - target.interceptor)
        row["notes"].append(f"interceptors negate {profile.rof - shots} of {profile.rof} shots (MM-C38)")
    t = 1.0 if homing else tn / 100
    evasion = evade_chance(target, blast, homing)
    hits = pool(d100_roll_under(100 if homing else tn), shots)
    dr = effective_dr(profile, indirect, target, situation)
    damage, note = hp_damage(profile.damage, dr)
    if profile.damage and not damage:
        row["notes"].append(f"DR absorbs every hit ({note})")
    graze = attribute(profile.attributes, "graze")
    graze_damage = graze_after_dr(graze.x, dr, unit) if graze else 0
    # MM-F08: a penetrating hit is a roll at or under both TNs; homing hits roll for penetration alone (MM-A09).
    p_pen = (profile.penetration / 100 if setting(OPTIONS, unit, "homing-penetration") == "roll" else 0.0) \
        if homing else min(tn, profile.penetration) / 100
    kept = 1 - evasion if setting(OPTIONS, unit, "evaded-hits") == "no-internal" else 1.0  # MM-A10
    spall = attribute(profile.attributes, "spalling")
    spall_x = spall.x if spall and not indirect else 0  # spalling only applies to direct hits
    internal_pen = spall_x + 1 if spall_x >= profile.internal and spall_x else profile.internal
    expected_hits = shots * t
    row.update({
        "eligible": True, "tn": tn, "tn_terms": terms, "homing": bool(homing), "shots": shots,
        "p_hit": t, "hits": hits.as_dict(6), "expected_hits": expected_hits,
        "p_any_hit": 1 - (1 - t) ** shots, "evasion": evasion, "dr": dr,
        "damage_per_hit": 0 if small_arms else damage,
        "graze": graze_damage,
        "p_penetration": p_pen * kept, "p_any_penetration": 1 - (1 - p_pen * kept) ** shots,
        "expected_internal": shots * (p_pen * kept * internal_pen + max(0.0, t - p_pen) * kept * spall_x),
    })
    row["expected_damage"] = 0.0 if small_arms else shots * t * ((1 - evasion) * damage + evasion * graze_damage)
    if target.kind == "mecha" and row["expected_internal"]:
        row["internal_by_location"] = {part: row["expected_internal"] * p
                                       for part, p in hit_chances(target.edge).items()}
    if target.kind == "infantry":
        row.update(infantry_losses(profile, hits, evasion, damage, blast, target))
    elif small_arms:
        row["notes"].append("small arms do no damage to vehicles, mecha or mega fauna (MM-R35)")
    if blast is not None:
        row["blast"] = {"damage": blast.x, "radius": blast.y, "after_dr": max(0, blast.x - target.dr),
                        "scatter": "1 to 4 hexes" if indirect and not situation.line_of_sight else "1 to 2 hexes"}
        if target.flying and indirect:
            row["notes"].append("indirect blasts cannot target flying units (MM-C31)")
    return row


def ineligible(profile: Profile, indirect, target: Target, situation: Situation) -> str:
    """Why the attack cannot be made at all (range, adjacency, minimum range), or ""."""
    if profile.range == "melee":
        return "" if situation.distance == 1 else "melee needs the target adjacent to the front arc"
    if situation.distance > profile.range:
        return f"out of range ({profile.range} hexes)"
    # Indirect Fire (X) never fires inside X; Variable Indirect Fire may fire direct there, with a line of sight.
    if indirect and situation.distance < indirect.x and (indirect.name == "indirect_fire"
                                                         or not situation.line_of_sight):
        return f"inside the indirect minimum range of {indirect.x}"
    return ""


def halved(tn: int, reading: str) -> int:
    return tn // 2 if reading == "down" else math.ceil(tn / 2)


def evade_chance(target: Target, blast, homing) -> float:
    """MM-C15 to MM-C17: the front arc only; blasts with a radius cannot be evaded, nor homing with a lock."""
    if not target.evading or target.agility is None or target.edge not in FRONT_ARC or homing:
        return 0.0
    if blast is not None and blast.y > 0:
        return 0.0
    return target.agility / 100


def effective_dr(profile: Profile, indirect, target: Target, situation: Situation) -> int:
    """MM-F06: top DR against direct hits from indirect-fire weapons fired indirectly; AP within its reach."""
    dr = target.top_dr if indirect and (indirect.name == "indirect_fire" or not situation.line_of_sight) else target.dr
    ap = attribute(profile.attributes, "armour_penetration")
    if ap and situation.distance <= ap.y:
        dr = max(0, dr - ap.x)
    return dr


def graze_after_dr(graze: int, dr: int, unit: Unit) -> int:
    return max(0, graze - dr) if setting(OPTIONS, unit, "graze-dr") == "applies" else graze


def infantry_losses(profile: Profile, hits, evasion: float, damage: int, blast, target: Target) -> dict[str, Any]:
    """MM-F24, MM-F25, MM-C47: casualties from hits, ISH from small arms, blast saves."""
    if profile.damage_type == "small_arms":
        health = target.members * target.ish
        ish = sum(p * min(k, health) for k, p in hits.items())
        return {"expected_ish_lost": ish, "expected_casualties": ish / target.ish}
    casualties = sum(p * min(k, target.members) for k, p in hits.items()) * (1 - evasion) if damage >= 1 else 0.0
    result: dict[str, Any] = {"expected_casualties": casualties}
    if blast is not None:
        save = min(BLAST_SAVE_CAP, target.blast_resistance + 10 * target.cover_points)
        p_hit = 1 - hits.probabilities[0]
        caught = 1 + (target.members - 1) * (1 - save / 100) if blast.y == 0 else target.members * (1 - save / 100)
        result.update(blast_save=save, expected_casualties=max(casualties, p_hit * caught))
    return result


def preview_unit(previewing: Previewing) -> dict[str, Any]:
    """Every weapon profile of the unit against the target the request describes."""
    target, situation = previewing.read("target"), previewing.read()
    unit = resolve(previewing.build, previewing.catalogue)
    if unit is None:
        raise BuildError([{"path": "attacker.chassis", "message": "pick a chassis first"}])
    return {"attacker": previewing.build.name, **odds(unit, target, situation),
            "target": target.model_dump(), "situation": situation.model_dump()}
