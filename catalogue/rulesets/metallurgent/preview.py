"""METALLURGENT combat preview (digest section 5): exact odds and expected damage, weapon by weapon.

A sanity check, not a simulator: every number is computed from the exact dice distribution and the
damage pipeline of digest 5.8, under the situation the player picks. Where the rulebook is silent the
reading is named here with its ID and listed in README under "Preview assumptions".
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..base import BuildError, ShareId
from ..dice import Distribution
from ..house_rules import setting
from ..spec import Previewing
from . import rules
from .battlefield import strongest_occlusion
from .dice import clamp_criterion, metallurgent_pool
from .options import OPTIONS
from .rules import (
    ceil_half,
    METTLE,
    Anvil,
    active_breakpoint,
    carried_load,
    dissipation,
    effective_fcs_range,
    energy,
    passive_heat,
)
from .schema import AnvilBuild, Arc, Radar, StandardArm, Weapon, WeaponStats

OCCLUSION = {"daylight": 0, "twilight": 1, "night": 2, "moonless": 3}  # digest 6.4
MAX_TURNS = 20
# BID Bonuses lost against an attack from each of the target's Arcs (L661).
ARC_PENALTY = {"nose": 0, "forward_left": 0, "forward_right": 0, "rear_left": 1, "rear_right": 1, "aft": 2}
ARC_LABELS = {"nose": "Nose", "forward_left": "Forward-Left", "forward_right": "Forward-Right",
              "rear_left": "Rear-Left", "rear_right": "Rear-Right", "aft": "Aft"}
# 8.3 #10: "roll 1d6 twice" a degree of failure, as the example has it (3 short → 6d6), or once (`drift-hexes`).
DRIFT_HEXES = {"two": 2, "one": 1}
WIND_DRIFT = {"winds_mild": 1, "winds_heavy": 2}  # extra hexes downwind, indirect attacks only (L425, L429)
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Situation(BaseModel):
    """What the player chooses for the preview (all optional)."""

    model_config = ConfigDict(extra="forbid")
    range: int = Field(default=6, ge=1, le=99)
    turns: int = Field(default=5, ge=1, le=MAX_TURNS)
    target_dodging: bool = False
    target_blocking: bool = False
    target_intercepting: bool = False
    target_flanking: bool = False
    target_low: bool = False
    attacker_flanking: bool = False
    target_painted: bool = False  # L1622-1624: +1 Accuracy to ranged attacks; Laser-Guided −1 criterion
    target_locked: bool = False  # L1632-1634: no Flanking DV; Semi-Guided −1 criterion
    attack_arc: Arc = "nose"  # the target's Arc the attack comes from (BID penalties, L661)
    cover: list[int] = Field(default_factory=list, max_length=6)  # Density of each Cover on the Line of Fire
    # Occlusion of each obscurant the LoF enters; bounded, as the Target Number sets how far a miss Drifts.
    smoke: list[Annotated[int, Field(ge=0, le=9)]] = Field(default_factory=list, max_length=6)
    weather: Literal["calm", "winds_mild", "winds_heavy", "precipitation_mild", "precipitation_heavy",
                     "particulate_mild", "particulate_heavy"] = "calm"
    time_of_day: Literal["daylight", "twilight", "night", "moonless"] = "daylight"
    climate: Literal["cold", "temperate", "hot"] = "temperate"
    plan: list[str] | None = Field(default=None, max_length=24)  # attack keys fired each turn; None: all that reach

    @model_validator(mode="after")
    def _one_bid(self) -> "Situation":
        if self.target_dodging + self.target_blocking + self.target_intercepting > 1:
            raise ValueError("a target makes one of Block, Intercept and Dodge against a weapon activation (L659): "
                             "choose one")
        return self


@dataclass
class Part:
    name: str
    ap: int
    resistance: dict[str, int]


@dataclass
class Target:
    name: str
    kind: str  # "anvil" or "unit"
    defence: int
    parts: list[Part]
    dodge_bonus: int = 0
    block_bonus: int = 0
    intercept_bonus: int = 0
    damage_steps: int = 3  # to Disable an Anvil Component (Damaged, Degraded, Disabled); a unit's total
    mobility_index: int | None = None  # where kicks, rams, Slams and Sideswipes land
    defensible: bool = False  # Tracks: Rear and Aft BID penalties 1 less (L977)
    tracks_heat: bool = True  # conventional units do not: Exothermic turns to TE against them (L2608)
    airborne: bool = False


def target_from_anvil(anvil: Anvil) -> Target:
    """Hit Location 1-6 in the digest's inferred order (5.7): Core, MB, Left Arm, Right Arm, Generator, Electronics."""
    slots = ("core", "mobility_base", "left_arm", "right_arm", "generator", "electronics")
    parts = [Part(anvil.parts[s].name, anvil.parts[s].ap, anvil.parts[s].resistance.model_dump())
             for s in slots if anvil.parts[s] is not None]
    core, mb, el = anvil.parts["core"], anvil.parts["mobility_base"], anvil.parts["electronics"]
    return Target(anvil.name, "anvil", core.defence if core else 2, parts,
                  dodge_bonus=mb.dodge_bonus if mb else 0, block_bonus=core.block_bonus if core else 0,
                  intercept_bonus=el.intercept_bonus if el else 0,
                  mobility_index=next((i for i, p in enumerate(parts) if mb and p.name == mb.name), None),
                  defensible=bool(mb and mb.chassis == "tracks"))


def target_from_unit(unit) -> Target:
    parts = [Part(c.name, c.ap, c.resistance.model_dump()) for c in unit.components]
    # Helicopters are the pack's only fliers, and the pack has no landed state for them.
    return Target(unit.name, "unit", unit.defence, parts, damage_steps=unit.damage_steps, tracks_heat=False,
                  airborne=unit.unit_type == "helicopter")


def bid_bonus(bonus: int, target: Target, situation: Situation) -> int:
    """A Block, Intercept or Dodge Bonus against an attack from the chosen Arc: 1 less from the Rear arcs, 2 from
    the Aft (L661), Tracks' Defensible 1 less penalty (L977), never below 0."""
    penalty = ARC_PENALTY[situation.attack_arc]
    if penalty and target.defensible:
        penalty -= 1
    return max(0, bonus - penalty)


def arc_note(bonus: int, effective: int, target: Target, situation: Situation) -> str:
    """What the Arc took off a BID Bonus, in words ("" when nothing)."""
    if effective == bonus:
        return ""
    defensible = "; Tracks' Defensible spares 1" if target.defensible else ""
    return f" ({bonus}, less {bonus - effective} from the {ARC_LABELS[situation.attack_arc]} Arc{defensible})"


@dataclass(frozen=True)
class Payload:
    """A Payload as a weapon lists it ("Blast 1"), read into its rule's name and number."""

    label: str
    kind: str  # the rulebook's name, lower-cased, with its spellings folded (PAYLOAD_ALIASES)
    number: int = 0  # the N of "Blast N" or "Scatter X"

    @classmethod
    def read(cls, label: str) -> "Payload":
        found = re.fullmatch(r"(.*?)\s*(\d+)?", label.strip())
        name, number = found.group(1).lower(), int(found.group(2) or 0)
        return cls(label.strip(), PAYLOAD_ALIASES.get(name, name), number)

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.label.lower()).strip("-")


PAYLOAD_ALIASES = {"exothermal": "exothermic", "exo": "exothermic", "demo": "demolition",
                   "illuminate": "illuminant", "aa": "anti-air"}
# What the preview cannot model, and why: the rulebook names these Payloads but leaves out their numbers
# (digest 6.13, 8.2 #3). Shown beside every attack that carries them.
UNMODELLED = {
    "cluster": "its radius is not in the rulebook (L1405): a Hit spreads like any AOE, a miss is counted as "
               "missing the target",
    "scatter": "the rulebook says only that its X caps the damage (L2589-2590) and that it makes several Hits "
               "(L1413), not how many: shown as one Hit at the listed damage",
    "penetration": "its rules are not in the rulebook (only Staggered names it, L1612, L2510)",
    "exothermic": "the Heat it adds is not in the rulebook (L1431, L2615)",
    "exothermic-cover": "it destroys the Cover it strikes once the activation resolves (L474, L1411): this shot "
                        "still loses the Cover, later ones would not (the turn plan keeps your Cover)",
    "demolition": "it destroys the Cover it strikes once the activation resolves (L474, L2376): this shot "
                  "still loses the Cover, later ones would not (the turn plan keeps your Cover)",
    "illuminant": "it lights an area against Time of Day Occlusion (L413); its radius and duration are not in "
                  "the rulebook",
    "flashbulb": "its rules are not in the rulebook (named at L2658 only)",
    "obscurant": "it lays smoke that Obscures (L2396); its Occlusion and radius are not in the rulebook",
    "anti-air-criterion": "it lowers the criterion against fliers and raises it against surface units by amounts "
                          "the rulebook does not give (L2591-2592)",
    "cooling": "its rules are not in the rulebook (L2552-2553 say only that it reaches units without Heat)",
    "high impact": "its rules are not in the rulebook (named at L2545 only)",
    "distance": "its rules are not in the rulebook (named at L2549 only)",
    "temperamental": "what a jam does is not in the rulebook (L2593-2594): the damage assumes it fires",
    "lingering": "it was removed from the game (L2507)",
}
AOE_PAYLOADS = ("blast", "cluster")
QUIRKS = ("temperamental",)  # a property of every load a weapon fires (L1921), not a load of its own


@dataclass
class Attack:
    key: str
    name: str
    category: str  # ballistic, energetic, melee
    damage: int
    damage_type: str
    range: int
    accuracy: int = 0
    en_cost: int = 0
    heat: int = 0
    magazine: int | None = None
    agility: int | None = None  # the Arm's, when mounted on one
    functions: list[str] = field(default_factory=list)
    pool_base: int | None = None  # a fixed pool (kick: Mettle + Dodge Bonus) instead of Mettle + Accuracy
    mobility_only: bool = False  # kicks and the like land on the Mobility Base unless the target is Low
    note: str = ""
    payload: Payload | None = None  # the load fired; None is the weapon's standard load
    quirks: list[Payload] = field(default_factory=list)
    weapon: str = ""  # the weapon's key: the loads of one weapon share its Magazine

    def __post_init__(self) -> None:
        self.weapon = self.weapon or self.key

    def number(self, name: str) -> int:
        """The N of a Function such as "Burst 2" (0 when absent)."""
        for function in self.functions:
            found = re.fullmatch(rf"{name}\s*(\d+)", function.strip(), re.IGNORECASE)
            if found:
                return int(found.group(1))
        return 0

    @property
    def artillery(self) -> bool:
        return any(f.strip().lower() == "artillery" for f in self.functions)

    def loaded(self, kind: str) -> bool:
        return self.payload is not None and self.payload.kind == kind

    @property
    def aoe(self) -> bool:
        return self.payload is not None and self.payload.kind in AOE_PAYLOADS


def weapon_attacks(key: str, name: str, w: WeaponStats, damage: int, agility: int | None) -> list[Attack]:
    """A weapon's standard load, then one attack per Payload it lists: a Payload is chosen at Declaration
    (L580) and the pack gives one damage for all of them (L1389)."""
    payloads = [Payload.read(p) for p in w.payloads]
    quirks = [p for p in payloads if p.kind in QUIRKS]

    def attack(payload: Payload | None) -> Attack:
        return Attack(f"{key}/{payload.slug}" if payload else key, name, w.category, damage, w.damage_type, w.range,
                      w.accuracy, w.en_cost, w.heat, w.magazine, agility, list(w.functions), payload=payload,
                      quirks=quirks, weapon=key)

    return [attack(None)] + [attack(p) for p in payloads if p not in quirks]


def attacks_of(anvil: Anvil, mettle: int = METTLE) -> list[Attack]:
    """Every weapon and each of its Payloads, plus punches, the kick or ram, Slam and Sideswipe (digest 4:
    M-D18-M-D22). A Disabled or Destroyed Component makes no attack and its Gear is Offline (M-R45)."""
    attacks = []
    for slot, part in anvil.working_weapon_arms():
        attacks += weapon_attacks(slot, part.name, part.weapon, part.weapon.damage, part.agility)
    for g in anvil.working:
        if isinstance(g.item, Weapon):
            w = g.item
            arm = anvil.standard_arm(g.entry.mount)
            damage = w.damage + (ceil_half(arm.strength) if arm and w.category == "melee" and w.damage_type == "KE" else 0)
            attacks += weapon_attacks(g.path, w.name, w, damage, arm.agility if arm else None)
    for slot in ("left_arm", "right_arm"):
        part = anvil.final[slot]
        if isinstance(part, StandardArm) and anvil.works(slot):
            attacks.append(Attack(f"punch-{slot}", f"Punch ({slot.replace('_', ' ').title()})", "melee",
                                  ceil_half(part.strength), "KE", 1, pool_base=mettle + part.agility,
                                  note="1 Charge"))
    mb = anvil.final["mobility_base"]
    if anvil.works("mobility_base"):
        name = "Kick" if mb.striding else "Ram"
        attacks.append(Attack(name.lower(), name, "melee", mb.load, "KE", 1, pool_base=mettle + mb.dodge_bonus,
                              mobility_only=True, note=f"{mb.manoeuvre_cost} Charge"))
        flank = flanking_speed(anvil)
        if mb.chassis == "quadruped":
            attacks.append(Attack("slam", "Slam", "melee", 2 * mb.load, "KE", 1, pool_base=mettle + flank,
                                  mobility_only=True, note=f"{mb.manoeuvre_cost} Charge; inflicts Low"))
        if mb.chassis == "wheels":
            attacks.append(Attack("sideswipe", "Sideswipe", "melee", mb.load, "KE", 1, pool_base=mettle + flank,
                                  mobility_only=True, note=f"{mb.manoeuvre_cost} Charge"))
    return attacks


def flanking_speed(anvil: Anvil) -> int:
    mb = anvil.final["mobility_base"]
    index = active_breakpoint(anvil, carried_load(anvil)[0])
    return mb.load_tolerance[index].flank if index is not None else 0


def targeting_types(anvil: Anvil) -> set[str]:
    """FCS and Radar Targeting Types; the same type twice counts once (M-R56)."""
    fcs = anvil.parts["fcs"]
    return ({fcs.targeting_type} if fcs else set()) | {g.item.subtype for g in anvil.gear if isinstance(g.item, Radar)}


def occlusion(situation: Situation) -> int:
    """Occlusion on the Line of Fire (5.4): Time of Day, Airborne Particulate per 10 hexes, and obscurants,
    of which only the strongest counts (L396)."""
    per_ten = situation.range // 10 if situation.weather.startswith("particulate") else 0
    return OCCLUSION[situation.time_of_day] + per_ten + strongest_occlusion(situation.smoke)


def hit_locations(target: Target, attack: Attack, situation: Situation) -> list[float]:
    """Uniform over the Components (5.7, inferred); kicks and the like hit the Mobility Base unless Low."""
    if attack.mobility_only and not situation.target_low and target.mobility_index is not None:
        return [1.0 if i == target.mobility_index else 0.0 for i in range(len(target.parts))]
    return [1 / len(target.parts)] * len(target.parts)


def resolve(attack: Attack, anvil: Anvil, target: Target, situation: Situation, mettle: int = METTLE) -> dict[str, Any]:
    """One activation of one attack: the pool, the criterion, the TN, the odds and the expected damage."""
    notes: list[str] = []
    distance = situation.range
    melee = attack.category == "melee"
    types = targeting_types(anvil)
    fcs = anvil.parts["fcs"]
    fcs_range = effective_fcs_range(anvil) or 0
    reliable = fcs.reliable_range if fcs else 0
    reach = attack.range
    if attack.category == "energetic" and situation.weather == "precipitation_heavy":
        reach = math.ceil(reach / 2)
        notes.append("Heavy Precipitation halves Energetic Range")
    indirect = False
    if melee:
        if distance > 1:
            return unreachable(attack, f"melee needs an adjacent target ({distance} hexes away)")
    elif distance > reach:
        if attack.category == "energetic" or distance > 2 * reach:
            return unreachable(attack, f"out of range ({reach} hexes{'' if attack.category == 'energetic' else f', {2 * reach} indirect'})")
        indirect = True
        notes.append(f"indirect beyond Range {reach} (up to {2 * reach}): +1 criterion, 6s count once")

    # Pool (5.2).
    if attack.pool_base is not None:
        pool = attack.pool_base
        notes.append(f"pool {pool}d6 (Mettle + the attack's own bonus)")
    else:
        pool = mettle + attack.accuracy
        notes.append(f"Mettle {mettle} {attack.accuracy:+d} Accuracy")
    if attack.agility is not None and distance <= 3 and attack.pool_base is None:
        pool += attack.agility
        notes.append(f"{attack.agility:+d} Arm Agility within 3 hexes")
    chassis = anvil.parts["mobility_base"].chassis if anvil.parts["mobility_base"] else None
    if not melee and situation.attacker_flanking and chassis != "quadruped":
        pool -= 1
        notes.append("−1 die: firing while Flanking")
    if attack.category == "ballistic" and situation.weather == "winds_heavy":
        pool -= 1
        notes.append("−1 die: Ballistic in Heavy Winds")
    if not melee and situation.target_painted:
        pool += 1
        notes.append("+1 against a Painted target")
    occluded = occlusion(situation)
    if not melee and not indirect and distance <= fcs_range:
        if "optical" in types and situation.weather == "calm" and situation.time_of_day == "daylight":
            pool += 1
            notes.append("+1 Optical (Calm, Daylight)")
        if "infrared" in types and occluded:
            bonus = occluded + (1 if distance <= reliable else 0)
            pool += bonus
            notes.append(f"+{bonus} Infrared against Occlusion {occluded}")
        if distance <= reliable and "laser" in types and not situation.target_flanking:
            pool += 1
            notes.append("+1 Laser (target not Flanking)")
        if distance <= reliable and "tracking" in types and situation.target_flanking:
            pool += 1
            notes.append("+1 Tracking (target Flanking)")

    # Criterion (5.3).
    criterion = 4
    if not melee and distance > fcs_range:
        criterion += 1
        notes.append(f"+1 criterion beyond the FCS's Maximum Range {fcs_range}")
    if indirect and not attack.artillery:
        criterion += 1
    if guided(attack, situation):
        criterion -= 1
        notes.append(f"−1 criterion: {attack.payload.label} against a {guided(attack, situation)} target")
    criterion = clamp_criterion(criterion)
    duplicate = not (indirect and not attack.artillery)

    # Target Number (5.4).
    tn = target.defence
    tn_notes = [f"DV {target.defence}"]
    if situation.target_flanking and situation.target_locked:
        tn_notes.append("no Flanking bonus: Locked")
    elif situation.target_flanking:
        tn += 1
        tn_notes.append("+1 Flanking")
    if situation.target_low and not melee and distance > 1:
        tn += 1
        tn_notes.append("+1 Low")
    if not melee and occluded:
        tn += occluded
        tn_notes.append(f"+{occluded} Occlusion")
    dodge = bid_bonus(target.dodge_bonus, target, situation)
    if situation.target_dodging and target.dodge_bonus:
        tn += dodge
        tn_notes.append(f"+{dodge} Dodge{arc_note(target.dodge_bonus, dodge, target, situation)}")

    distribution = metallurgent_pool(pool, criterion, duplicate)
    p_hit = 1.0 if tn <= 0 else distribution.at_least(tn)
    attempts = max(1, attack.number("Burst"))
    beyond = distance > reach and not melee
    listed = listed_damage(attack, target)
    damage = damage_pipeline(listed, attack, situation, beyond, types, notes)
    if damage is None:
        return unreachable(attack, "Heavy Precipitation leaves 2 or less TE damage: it cannot be activated")
    intercept, reading = 0, setting(OPTIONS, anvil, "intercept")
    if situation.target_intercepting and not melee and target.intercept_bonus:
        intercept = bid_bonus(target.intercept_bonus, target, situation)
        notes.append(f"−{intercept} Intercept on {'every' if reading == 'every-hit' else 'one'} Hit"
                     f"{arc_note(target.intercept_bonus, intercept, target, situation)}")
    drift: dict[int, tuple[float, int]] = {}
    wind = WIND_DRIFT.get(situation.weather, 0) if indirect else 0
    hexes = DRIFT_HEXES[setting(OPTIONS, anvil, "drift-hexes")]
    if attack.loaded("blast") and tn > 0:
        for r, chance in drift_catches(distribution, tn, attack.payload.number, wind, hexes).items():
            falloff = damage_pipeline(blast_falloff(listed, r), attack, situation, beyond, types)
            drift[r] = (chance, falloff or 0)
    block = bid_bonus(target.block_bonus, target, situation) if situation.target_blocking else 0
    if situation.target_blocking and target.block_bonus and not attack.aoe:
        notes.append(f"Block {block} Hit{'s' if block != 1 else ''}{arc_note(target.block_bonus, block, target, situation)}")
    damage_type = hit_damage_type(attack, target)
    p_strike = p_hit + sum(chance for chance, _ in drift.values())  # an attempt Hits, or Drifts onto the target
    per_part = expected_damage(attack, target, situation, damage, damage_type, p_hit, attempts, block, drift,
                               intercept, intercepted_share(reading, attempts, p_strike))
    drift_damage = sum(p["expected_from_drift"] for p in per_part)
    return {
        "key": attack.key, "weapon": attack.weapon, "name": attack.name,
        "payload": attack.payload.label if attack.payload else None, "reachable": True, "category": attack.category,
        "pool": max(0, pool), "criterion": criterion, "sixes_count_twice": duplicate, "indirect": indirect,
        "target_number": tn, "hit_from": tn, "target_number_explain": " ".join(tn_notes), "attempts": attempts,
        "p_hit": p_hit, "expected_hits": p_hit * attempts,
        "distribution": {k: p for k, p in distribution.items() if p > 1e-12},
        "damage": max(0, damage - intercept), "damage_type": damage_type, "parts": per_part,
        "expected_damage": sum(p["expected"] for p in per_part),
        "drift": {"p_catch": sum(c for c, _ in drift.values()), "expected_damage": drift_damage,
                  "wind": wind} if attack.loaded("blast") else None,
        "effects": payload_effects(attack, target, situation, max(0, pool), drift_damage, wind, hexes, drift),
        "en_cost": attack.en_cost, "heat": attack.heat, "notes": notes, "note": attack.note,
    }


def unreachable(attack: Attack, why: str) -> dict[str, Any]:
    return {"key": attack.key, "weapon": attack.weapon, "name": attack.name,
            "payload": attack.payload.label if attack.payload else None, "reachable": False, "why": why,
            "p_hit": 0.0, "expected_hits": 0.0, "expected_damage": 0.0, "parts": [], "distribution": {},
            "drift": None, "effects": [], "en_cost": attack.en_cost, "heat": attack.heat, "category": attack.category,
            "notes": [], "note": attack.note}


def guided(attack: Attack, situation: Situation) -> str:
    """The Condition a guided Payload homes on, when the target has it: Laser-Guided on Painted (L1622),
    Semi-Guided on Locked (L1632)."""
    if attack.loaded("laser-guided") and situation.target_painted:
        return "Painted"
    if attack.loaded("semi-guided") and situation.target_locked:
        return "Locked"
    return ""


def listed_damage(attack: Attack, target: Target) -> int:
    """The damage of the chosen load (5.8 step 1): Anti-Air deals half to surface units (L2592)."""
    if attack.loaded("anti-air") and not target.airborne:
        return ceil_half(attack.damage)
    return attack.damage


def hit_damage_type(attack: Attack, target: Target) -> str:
    """Exothermic turns to TE when it strikes a target that does not track Heat (L2608): after its flight, so
    Range, weather and Cover treat it as its listed type."""
    return "TE" if attack.loaded("exothermic") and not target.tracks_heat else attack.damage_type


def blast_falloff(damage: int, distance: int) -> int:
    """A Blast that lands on a hex deals half its listed damage in that hex (L2551); the dropoff "halves the
    original damage at radius 1, and that at radius 2": ceil(D / 2^r) beyond the landing hex."""
    return math.ceil(damage / 2 ** max(1, distance))


def damage_pipeline(damage: int, attack: Attack, situation: Situation, beyond: bool, types: set[str],
                    notes: list[str] | None = None) -> int | None:
    """Damage of one Hit before the Intercept and the hit Component's Resistance (5.8 steps 1-5); notes are
    written when given. The Intercept (step 6) is expected_damage's, as it may take only one Hit of several."""
    say = notes.append if notes is not None else (lambda _: None)
    if beyond:  # only indirect fire reaches past Range (L695-697)
        if attack.damage_type == "KE":
            damage = ceil_half(damage)
            say("KE halved beyond Range")
        elif attack.damage_type == "TE":
            damage = 0
            say("TE does nothing beyond Range")
    if attack.damage_type == "TE" and situation.weather == "precipitation_mild":
        damage = max(0, damage - 2)
        say("−2 TE in Mild Precipitation")
    if attack.damage_type == "TE" and situation.weather == "precipitation_heavy":
        damage = ceil_half(damage)
        if damage <= 2:
            return None
        say("TE halved in Heavy Precipitation")
    if situation.weather == "particulate_heavy" and attack.category != "melee":
        damage = max(0, damage - situation.range // 10)
    if situation.cover and attack.category != "melee":
        # Spotting ignores up to 4 points of each Cover (2 within Reliable Range only, but bands stack: 4).
        ignore = 4 if "spotting" in types else 0
        absorbed = sum(max(0, density - ignore) for density in situation.cover)
        damage = max(0, damage - absorbed)
        say(f"−{absorbed} Cover" + (" (Spotting ignores up to 4 per Cover)" if ignore else ""))
    return damage


def intercepted_share(reading: str, attempts: int, p_strike: float) -> float:
    """The share of an activation's strikes the Intercept reduces (8.3 #5): every one, or one Hit (L669), which
    is the chance that any attempt strikes over the strikes expected. A single attempt is its one Hit, exactly."""
    if reading == "every-hit" or attempts == 1 or not p_strike:
        return 1.0
    return (1 - (1 - p_strike) ** attempts) / (attempts * p_strike)


@lru_cache(maxsize=8)  # called with rising steps (drift_catches), each walk grows from the one before
def hex_walk(steps: int) -> dict[tuple[int, int], int]:
    """Where a shell is after `steps` hexes of Drift, each toward one of six sides by 1d6 (L629): the number of
    the 6^steps equally likely rolls that end at each hex (axial coordinates from the aim point)."""
    if steps == 0:
        return {(0, 0): 1}
    ways: dict[tuple[int, int], int] = {}
    for (q, r), count in hex_walk(steps - 1).items():
        for dq, dr in HEX_DIRECTIONS:
            ways[q + dq, r + dr] = ways.get((q + dq, r + dr), 0) + count
    return ways


@lru_cache(maxsize=None)
def landing_distances(steps: int, wind: int = 0) -> dict[int, Fraction]:
    """Hexes between the aim point and where a drifting shell lands, then blown `wind` hexes downwind (L425):
    the walk looks the same from every side, so the wind's direction does not matter."""
    chances: dict[int, Fraction] = {}
    for (q, r), count in hex_walk(steps).items():
        q += wind
        distance = (abs(q) + abs(r) + abs(q + r)) // 2
        chances[distance] = chances.get(distance, 0) + Fraction(count, 6 ** steps)
    return chances


def drift_catches(distribution: Distribution, tn: int, radius: int, wind: int, hexes: int) -> dict[int, float]:
    """For one attempt: the chance it misses, Drifts (`hexes` per success short, 8.3 #10) and still lands within
    the Blast's radius of the target (L1409), by the distance it lands at."""
    caught: dict[int, float] = {}
    for successes, p in sorted(distribution.items(), reverse=True):
        if successes >= tn or not p:
            continue
        for distance, chance in landing_distances(hexes * (tn - successes), wind).items():
            if distance <= radius:
                caught[distance] = caught.get(distance, 0.0) + p * float(chance)
    return caught


def expected_blocked(attempts: int, p_hit: float, block: int) -> float:
    """Expected Hits a Block redirects: at most its Bonus of the Hits that land (L665)."""
    return sum(math.comb(attempts, k) * p_hit ** k * (1 - p_hit) ** (attempts - k) * min(k, block)
               for k in range(attempts + 1))


def expected_damage(attack: Attack, target: Target, situation: Situation, damage: int, damage_type: str,
                    p_hit: float, attempts: int, block: int, drift: dict[int, tuple[float, int]],
                    intercept: int, intercepted: float) -> list[dict[str, Any]]:
    """Expected damage to each Component per activation, and activations to Disable it.

    Each Component gathers (Hits a activation, damage) pairs: direct Hits where they land (a Block takes up to
    its Bonus of them to the Component that suffers least, the defender's best choice), an AOE's half damage to
    every other Component (L1413), and a drifting Blast that still catches the target. The `intercepted` share
    of them loses the Intercept Bonus first, and an AOE's half damage is of the reduced Hit (L1415).
    """
    locations = hit_locations(target, attack, situation)
    hits = p_hit * attempts
    count = len(target.parts)
    reduced = max(0, damage - intercept)

    def after(value: int, i: int) -> int:
        return max(0, value - target.parts[i].resistance[damage_type])

    blocked = expected_blocked(attempts, p_hit, block) if block and not attack.aoe else 0.0
    best = min(range(count), key=lambda i: (after(reduced, i), -target.parts[i].ap))
    rows = []
    for i, part in enumerate(target.parts):
        if attack.aoe:
            landed = hits * locations[i]
        else:
            landed = (hits - blocked) * locations[i] + (blocked if i == best else 0.0)
        direct, drifted = [], []
        for share, cut in ((1 - intercepted, 0), (intercepted, intercept)):
            hit = max(0, damage - cut)
            direct.append((share * landed, after(hit, i)))
            if attack.aoe:
                direct.append((share * (hits - landed), after(ceil_half(hit), i)))
            for chance, falloff in drift.values():
                landing = max(0, falloff - cut)
                drifted += [(share * chance * attempts / count, after(landing, i)),
                            (share * chance * attempts * (count - 1) / count, after(ceil_half(landing), i))]
        from_drift = sum(rate * value for rate, value in drifted)
        expected = sum(rate * value for rate, value in direct) + from_drift
        damaging = sum(rate for rate, value in direct + drifted if value > 0)
        if expected > 0:
            needed = (target.damage_steps if target.kind == "anvil" else 1) * math.ceil(part.ap / (expected / damaging))
            activations = needed / damaging
        else:
            activations = None
        rows.append({"name": part.name, "ap": part.ap, "resistance": part.resistance[damage_type],
                     "damage_per_hit": after(reduced, i), "location": landed / hits if hits else locations[i],
                     "expected": expected, "expected_from_drift": from_drift, "activations_to_disable": activations})
    return rows


@lru_cache(maxsize=None)
def jam_chance(dice: int) -> float:
    """Temperamental jams when more 1s show than any other single face (L2594): counted exactly over the 6^n
    rolls, as n!/(k! …) ways of giving the other faces fewer than k dice each."""
    if dice <= 0:
        return 0.0
    jams = 0
    for ones in range(1, dice + 1):
        rest = dice - ones
        each = [Fraction(1, math.factorial(j)) for j in range(min(ones, rest + 1))]  # fewer than `ones` of a face
        power = [Fraction(1)]
        for _ in range(5):
            power = [sum(power[a] * each[n - a] for a in range(len(power)) if 0 <= n - a < len(each))
                     for n in range(min(rest, len(power) + len(each) - 2) + 1)]
        if rest < len(power):
            jams += math.comb(dice, ones) * power[rest] * math.factorial(rest)
    return float(jams / 6 ** dice)


def payload_effects(attack: Attack, target: Target, situation: Situation, pool: int, drift_damage: float,
                    wind: int, hexes: int, drift: dict[int, tuple[float, int]]) -> list[dict[str, Any]]:
    """The chosen load's effects in words, each marked modelled or not (with why); never silently left out."""
    effects = []

    def modelled(payload: Payload, text: str) -> None:
        effects.append({"name": payload.label, "modelled": True, "text": text})

    def not_modelled(payload: Payload, reason: str) -> None:
        effects.append({"name": payload.label, "modelled": False, "text": reason})

    payload = attack.payload
    kind = payload.kind if payload else None
    if attack.aoe:
        modelled(payload, "a Hit deals its damage at one Hit Location and half of it to every other Component "
                          "(L1413)")
        if situation.target_blocking:
            not_modelled(payload, "each of its Hits may be Blocked (L1413), which the preview does not model: "
                                  "they land where they fall")
    if kind == "blast":
        caught = sum(chance for chance, _ in drift.values())
        blown = f", then {wind} downwind" if wind else ""
        modelled(payload, f"a miss Drifts {hexes} hex{'es' if hexes != 1 else ''} for each success short{blown} "
                          f"(L629-631) and still catches the target when it lands within {payload.number} "
                          f"hex{'es' if payload.number != 1 else ''} of it: {caught:.1%} of attempts, adding "
                          f"{drift_damage:.1f} expected damage (half damage in the landing hex, halved again each "
                          f"hex further, L2551)")
    elif kind == "laser-guided" or kind == "semi-guided":
        condition = "Painted" if kind == "laser-guided" else "Locked"
        modelled(payload, f"−1 criterion against a {condition} target (L{1622 if condition == 'Painted' else 1632})"
                          + ("" if guided(attack, situation) else f"; the target is not {condition}"))
    elif kind == "exothermic":
        if not target.tracks_heat:
            modelled(payload, "turns to TE against a target that does not track Heat (L2608)")
        else:
            not_modelled(payload, UNMODELLED["exothermic"])
        if situation.cover:
            not_modelled(payload, UNMODELLED["exothermic-cover"])
    elif kind == "anti-air":
        if not target.airborne:
            modelled(payload, "half damage against a surface target (L2592)")
        not_modelled(payload, UNMODELLED["anti-air-criterion"])
    elif payload is not None:
        not_modelled(payload, UNMODELLED.get(kind, "not a Payload the rulebook names"))
    for quirk in attack.quirks:
        modelled(quirk, f"jams when more 1s show than any other face: {jam_chance(pool):.1%} of activations with "
                        f"{pool} dice (L2594)")
        not_modelled(quirk, UNMODELLED["temperamental"])
    return effects


def turn_track(anvil: Anvil, attacks: list[dict[str, Any]], situation: Situation) -> dict[str, Any]:
    """EN and Heat over the chosen firing plan, turn by turn (5.10; starts full of EN and cold, M-R60)."""
    generator = anvil.parts["generator"]
    en_info = energy(anvil)
    if generator is None or en_info is None:
        return {"turns": [], "overheat_turn": None, "en_exhausted_turn": None}
    chosen = situation.plan or []
    by_key = {a["key"]: a for a in attacks if a["reachable"] and (a["category"] != "melee" or a["key"] in chosen)}
    # Without a plan each weapon fires its standard load; a plan may name a Payload's attack instead.
    default = [k for k, a in by_key.items() if a["payload"] is None]
    plan = [k for k in (situation.plan if situation.plan is not None else default) if k in by_key]
    capacity, output = max(0, en_info.capacity_left), max(0, en_info.output_left)
    passive, radiators = passive_heat(anvil)
    magazines = {a.weapon: a.magazine for a in attacks_of(anvil) if a.magazine is not None}
    en, heat = capacity, 0
    rows, overheat_turn, exhausted_turn, expected = [], None, None, 0.0
    for turn in range(1, situation.turns + 1):
        en = min(capacity, en + output)
        heat = max(0, heat - dissipation(generator.cooling, heat, radiators, situation.climate)) + passive
        fired, skipped = [], []
        for key in plan:
            attack = by_key[key]
            attempts, weapon, name = attack.get("attempts", 1), attack["weapon"], attack_label(attack)
            if weapon in magazines and magazines[weapon] < attempts:
                skipped.append(f"{name} (magazine empty)")
                continue
            if attack["en_cost"] > en:
                skipped.append(f"{name} (needs {attack['en_cost']} EN, {en} left)")
                exhausted_turn = exhausted_turn or turn
                continue
            en -= attack["en_cost"]
            heat += attack["heat"]
            if weapon in magazines:
                magazines[weapon] -= attempts
            fired.append(name)
            expected += attack["expected_damage"]
        if heat > generator.heat_tolerance and overheat_turn is None:
            overheat_turn = turn
        rows.append({"turn": turn, "en": en, "heat": heat, "fired": fired, "skipped": skipped,
                     "overheated": heat > generator.heat_tolerance})
    return {"turns": rows, "overheat_turn": overheat_turn, "en_exhausted_turn": exhausted_turn,
            "heat_tolerance": generator.heat_tolerance, "capacity": capacity, "output": output,
            "plan": [attack_label(by_key[k]) for k in plan], "expected_damage": expected}


def attack_label(attack: dict[str, Any]) -> str:
    return f"{attack['name']} ({attack['payload']})" if attack["payload"] else attack["name"]


def preview(anvil: Anvil, target: Target, situation: Situation, mettle: int = METTLE) -> dict[str, Any]:
    results = [resolve(a, anvil, target, situation, mettle) for a in attacks_of(anvil, mettle)]
    return {"attacker": anvil.name, "target": {"name": target.name, "kind": target.kind, "defence": target.defence},
            "situation": situation.model_dump(), "arc": ARC_LABELS[situation.attack_arc], "mettle": mettle,
            "attacks": results,
            "track": turn_track(anvil, results, situation)}


class UnitTarget(BaseModel):
    """A conventional unit of the newest units pack, by its key."""

    model_config = ConfigDict(extra="forbid")
    unit: str = Field(max_length=64)


class SavedTarget(BaseModel):
    """A saved Anvil, by its share id."""

    model_config = ConfigDict(extra="forbid")
    build: ShareId


TargetSpec = UnitTarget | SavedTarget | AnvilBuild  # or an Anvil written in, read with the attacker's pack


def preview_anvil(previewing: Previewing) -> dict[str, Any]:
    """Every attack of this Anvil, with its Pilot's Mettle (6 without one, M-R90), against the target."""
    situation = previewing.read()
    pilot = previewing.report.detail.pilot
    anvil = rules.resolve(previewing.build, previewing.catalogue)
    return preview(anvil, target_of(previewing), situation, pilot.mettle if pilot else METTLE)


def target_of(previewing: Previewing) -> Target:
    """The request's target (TargetSpec), told apart by its shape: a unit of the units pack, a saved Anvil, or an
    Anvil written in (read with the attacker's pack)."""
    spec = previewing.request.get("target")
    if not isinstance(spec, dict):
        raise BuildError([{"path": "target", "message": 'give {"unit": key}, {"build": share id} or an Anvil'}])
    target = previewing.read("target", UnitTarget if set(spec) == {"unit"} else
                             SavedTarget if set(spec) == {"build"} else AnvilBuild)
    if isinstance(target, UnitTarget):
        units = previewing.targets
        unit = units.items.get(target.unit) if units else None
        if unit is None or units.categories[target.unit] != "conventional_unit":
            raise BuildError([{"path": "target.unit", "message": f"unknown unit {target.unit[:40]!r}"}])
        return target_from_unit(unit)
    if isinstance(target, SavedTarget):
        saved = previewing.saved(target.build, "target.build", "Anvil")
        return target_from_anvil(rules.resolve(rules.parse(saved.document), saved.catalogue))
    try:
        return target_from_anvil(rules.resolve(target, previewing.catalogue))
    except BuildError as error:
        raise BuildError([{**p, "path": f"target.{p['path']}"} for p in error.problems]) from None
