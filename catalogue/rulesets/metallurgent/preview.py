"""METALLURGENT combat preview (digest section 5): exact odds and expected damage, weapon by weapon.

A sanity check, not a simulator: every number is computed from the exact dice distribution and the
damage pipeline of digest 5.8, under the situation the player picks. Where the rulebook is silent the
reading is named here with its ID and listed in README under "Preview assumptions".
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..dice import clamp_criterion, metallurgent_pool
from .battlefield import strongest_occlusion
from .rules import (
    ceil_half,
    METTLE,
    Anvil,
    active_breakpoint,
    carried_load,
    dissipation,
    effective_fcs_range,
    energy,
)
from .schema import EquipmentBase, Radar, StandardArm, Weapon, WeaponArm

OCCLUSION = {"daylight": 0, "twilight": 1, "night": 2, "moonless": 3}  # digest 6.4
MAX_TURNS = 20


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
    cover: list[int] = Field(default_factory=list, max_length=6)  # Density of each Cover on the Line of Fire
    smoke: list[int] = Field(default_factory=list, max_length=6)  # Occlusion of each obscurant the LoF enters
    weather: Literal["calm", "winds_mild", "winds_heavy", "precipitation_mild", "precipitation_heavy",
                     "particulate_mild", "particulate_heavy"] = "calm"
    time_of_day: Literal["daylight", "twilight", "night", "moonless"] = "daylight"
    climate: Literal["cold", "temperate", "hot"] = "temperate"
    plan: list[str] | None = Field(default=None, max_length=24)  # attack keys fired each turn; None: all that reach


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


def target_from_anvil(anvil: Anvil) -> Target:
    """Hit Location 1-6 in the digest's inferred order (5.7): Core, MB, Left Arm, Right Arm, Generator, Electronics."""
    slots = ("core", "mobility_base", "left_arm", "right_arm", "generator", "electronics")
    parts = [Part(anvil.parts[s].name, anvil.parts[s].ap, anvil.parts[s].resistance.model_dump())
             for s in slots if anvil.parts[s] is not None]
    core, mb, el = anvil.parts["core"], anvil.parts["mobility_base"], anvil.parts["electronics"]
    return Target(anvil.name, "anvil", core.defence if core else 2, parts,
                  dodge_bonus=mb.dodge_bonus if mb else 0, block_bonus=core.block_bonus if core else 0,
                  intercept_bonus=el.intercept_bonus if el else 0,
                  mobility_index=next((i for i, p in enumerate(parts) if mb and p.name == mb.name), None))


def target_from_unit(unit) -> Target:
    parts = [Part(c.name, c.ap, c.resistance.model_dump()) for c in unit.components]
    return Target(unit.name, "unit", unit.defence, parts, damage_steps=unit.damage_steps)


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
    payloads: list[str] = field(default_factory=list)
    pool_base: int | None = None  # a fixed pool (kick: Mettle + Dodge Bonus) instead of Mettle + Accuracy
    mobility_only: bool = False  # kicks and the like land on the Mobility Base unless the target is Low
    note: str = ""

    def number(self, name: str) -> int:
        """The N of a function such as "Burst 2" or "Blast 1" (0 when absent)."""
        for function in self.functions + self.payloads:
            found = re.fullmatch(rf"{name}\s*(\d+)", function.strip(), re.IGNORECASE)
            if found:
                return int(found.group(1))
        return 0

    @property
    def artillery(self) -> bool:
        return any(f.strip().lower() == "artillery" for f in self.functions)


def attacks_of(anvil: Anvil, mettle: int = METTLE) -> list[Attack]:
    """Every weapon, plus punches, the kick or ram, Slam and Sideswipe (digest 4: M-D18-M-D22)."""
    attacks = []
    for slot in ("left_arm", "right_arm"):
        part = anvil.parts[slot]
        if isinstance(part, WeaponArm):
            w = part.weapon
            attacks.append(Attack(slot, part.name, w.category, w.damage, w.damage_type, w.range, w.accuracy,
                                  w.en_cost, w.heat, w.magazine, part.agility, list(w.functions), list(w.payloads)))
    for g in anvil.gear:
        if isinstance(g.item, Weapon):
            w = g.item
            arm = anvil.standard_arm(g.entry.mount)
            damage = w.damage + (ceil_half(arm.strength) if arm and w.category == "melee" and w.damage_type == "KE" else 0)
            attacks.append(Attack(g.path, w.name, w.category, damage, w.damage_type, w.range, w.accuracy, w.en_cost,
                                  w.heat, w.magazine, arm.agility if arm else None, list(w.functions),
                                  list(w.payloads)))
    for slot in ("left_arm", "right_arm"):
        part = anvil.parts[slot]
        if isinstance(part, StandardArm):
            attacks.append(Attack(f"punch-{slot}", f"Punch ({slot.replace('_', ' ').title()})", "melee",
                                  ceil_half(part.strength), "KE", 1, pool_base=mettle + part.agility,
                                  note="1 Charge"))
    mb = anvil.parts["mobility_base"]
    if mb is not None:
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
    mb = anvil.parts["mobility_base"]
    index = active_breakpoint(mb, carried_load(anvil)[0])
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
    criterion = clamp_criterion(criterion)
    duplicate = not (indirect and not attack.artillery)

    # Target Number (5.4).
    tn = target.defence
    tn_notes = [f"DV {target.defence}"]
    if situation.target_flanking:
        tn += 1
        tn_notes.append("+1 Flanking")
    if situation.target_low and not melee and distance > 1:
        tn += 1
        tn_notes.append("+1 Low")
    if not melee and occluded:
        tn += occluded
        tn_notes.append(f"+{occluded} Occlusion")
    if situation.target_dodging and target.dodge_bonus:
        tn += target.dodge_bonus
        tn_notes.append(f"+{target.dodge_bonus} Dodge")

    distribution = metallurgent_pool(pool, criterion, duplicate)
    p_hit = 1.0 if tn <= 0 else distribution.at_least(tn)
    attempts = max(1, attack.number("Burst"))
    damage = damage_pipeline(attack, target, situation, indirect, distance > reach and not melee, types, notes)
    if damage is None:
        return unreachable(attack, "Heavy Precipitation leaves 2 or less TE damage: it cannot be activated")
    per_part = expected_damage(attack, target, situation, damage, p_hit * attempts, melee)
    return {
        "key": attack.key, "name": attack.name, "reachable": True, "category": attack.category,
        "pool": max(0, pool), "criterion": criterion, "sixes_count_twice": duplicate, "indirect": indirect,
        "target_number": tn, "hit_from": tn, "target_number_explain": " ".join(tn_notes), "attempts": attempts,
        "p_hit": p_hit, "expected_hits": p_hit * attempts,
        "distribution": {k: p for k, p in distribution.items() if p > 1e-12},
        "damage": damage, "damage_type": attack.damage_type, "parts": per_part,
        "expected_damage": sum(p["expected"] for p in per_part),
        "en_cost": attack.en_cost, "heat": attack.heat, "notes": notes, "note": attack.note,
    }


def unreachable(attack: Attack, why: str) -> dict[str, Any]:
    return {"key": attack.key, "name": attack.name, "reachable": False, "why": why, "p_hit": 0.0,
            "expected_hits": 0.0, "expected_damage": 0.0, "parts": [], "distribution": {}, "en_cost": attack.en_cost,
            "heat": attack.heat, "category": attack.category, "notes": [], "note": attack.note}


def damage_pipeline(attack: Attack, target: Target, situation: Situation, indirect: bool, beyond: bool,
                    types: set[str], notes: list[str]) -> int | None:
    """Damage of one Hit before the hit Component's Resistance (5.8 steps 1-6)."""
    damage = attack.damage
    if beyond:  # only indirect fire reaches past Range (L695-697)
        if attack.damage_type == "KE":
            damage = ceil_half(damage)
            notes.append("KE halved beyond Range")
        elif attack.damage_type == "TE":
            damage = 0
            notes.append("TE does nothing beyond Range")
    if attack.damage_type == "TE" and situation.weather == "precipitation_mild":
        damage = max(0, damage - 2)
        notes.append("−2 TE in Mild Precipitation")
    if attack.damage_type == "TE" and situation.weather == "precipitation_heavy":
        damage = ceil_half(damage)
        if damage <= 2:
            return None
        notes.append("TE halved in Heavy Precipitation")
    if situation.weather == "particulate_heavy" and attack.category != "melee":
        damage = max(0, damage - situation.range // 10)
    if situation.cover and attack.category != "melee":
        # Spotting ignores up to 4 points of each Cover (2 within Reliable Range only, but bands stack: 4).
        ignore = 4 if "spotting" in types else 0
        absorbed = sum(max(0, density - ignore) for density in situation.cover)
        damage = max(0, damage - absorbed)
        notes.append(f"−{absorbed} Cover" + (" (Spotting ignores up to 4 per Cover)" if ignore else ""))
    if situation.target_intercepting and attack.category != "melee" and target.intercept_bonus:
        damage = max(0, damage - target.intercept_bonus)
        notes.append(f"−{target.intercept_bonus} Intercept on one Hit")
    return damage


def expected_damage(attack: Attack, target: Target, situation: Situation, damage: int, hits: float,
                    melee: bool) -> list[dict[str, Any]]:
    """Expected damage to each Component per activation, and activations to Disable it."""
    locations = hit_locations(target, attack, situation)
    blast = attack.number("Blast") > 0
    after = [max(0, damage - part.resistance[attack.damage_type]) for part in target.parts]
    splash = [max(0, ceil_half(damage) - part.resistance[attack.damage_type]) for part in target.parts]
    if situation.target_blocking and target.block_bonus and not blast:
        # The defender sends Blocked Hits to the Component that suffers least (its best choice).
        best = min(range(len(target.parts)), key=lambda i: (after[i], -target.parts[i].ap))
        locations = [1.0 if i == best else 0.0 for i in range(len(target.parts))]
    rows = []
    for i, part in enumerate(target.parts):
        primary = hits * locations[i]
        secondary = hits * (1 - locations[i]) if blast else 0.0
        expected = primary * after[i] + secondary * splash[i]
        per_hit_rate = primary + secondary
        if expected > 0:
            average = expected / per_hit_rate
            needed = (target.damage_steps if target.kind == "anvil" else 1) * math.ceil(part.ap / average)
            activations = needed / per_hit_rate
        else:
            activations = None
        rows.append({"name": part.name, "ap": part.ap, "resistance": part.resistance[attack.damage_type],
                     "damage_per_hit": after[i], "location": locations[i], "expected": expected,
                     "activations_to_disable": activations})
    return rows


def turn_track(anvil: Anvil, attacks: list[dict[str, Any]], situation: Situation) -> dict[str, Any]:
    """EN and Heat over the chosen firing plan, turn by turn (5.10; starts full of EN and cold, M-R60)."""
    generator = anvil.parts["generator"]
    en_info = energy(anvil)
    if generator is None or en_info is None:
        return {"turns": [], "overheat_turn": None, "en_exhausted_turn": None}
    chosen = situation.plan or []
    by_key = {a["key"]: a for a in attacks if a["reachable"] and (a["category"] != "melee" or a["key"] in chosen)}
    plan = [k for k in (situation.plan if situation.plan is not None else list(by_key)) if k in by_key]
    capacity, output = max(0, en_info.capacity_left), max(0, en_info.output_left)
    radiators = sum(getattr(g.item, "cooling", 0) for g in anvil.gear if g.entry.active)
    passive = sum(g.item.heat for g in anvil.gear if isinstance(g.item, EquipmentBase) and g.entry.active
                  and g.item.type not in ("ciws", "target_designator"))
    magazines = {a.key: a.magazine for a in attacks_of(anvil) if a.magazine is not None}
    en, heat = capacity, 0
    rows, overheat_turn, exhausted_turn, expected = [], None, None, 0.0
    for turn in range(1, situation.turns + 1):
        en = min(capacity, en + output)
        heat = max(0, heat - dissipation(generator.cooling, heat, radiators, situation.climate)) + passive
        fired, skipped = [], []
        for key in plan:
            attack = by_key[key]
            attempts = attack.get("attempts", 1)
            if key in magazines and magazines[key] < attempts:
                skipped.append(f"{attack['name']} (magazine empty)")
                continue
            if attack["en_cost"] > en:
                skipped.append(f"{attack['name']} (needs {attack['en_cost']} EN, {en} left)")
                exhausted_turn = exhausted_turn or turn
                continue
            en -= attack["en_cost"]
            heat += attack["heat"]
            if key in magazines:
                magazines[key] -= attempts
            fired.append(attack["name"])
            expected += attack["expected_damage"]
        if heat > generator.heat_tolerance and overheat_turn is None:
            overheat_turn = turn
        rows.append({"turn": turn, "en": en, "heat": heat, "fired": fired, "skipped": skipped,
                     "overheated": heat > generator.heat_tolerance})
    return {"turns": rows, "overheat_turn": overheat_turn, "en_exhausted_turn": exhausted_turn,
            "heat_tolerance": generator.heat_tolerance, "capacity": capacity, "output": output,
            "plan": [by_key[k]["name"] for k in plan], "expected_damage": expected}


def preview(anvil: Anvil, target: Target, situation: Situation, mettle: int = METTLE) -> dict[str, Any]:
    results = [resolve(a, anvil, target, situation, mettle) for a in attacks_of(anvil, mettle)]
    return {"attacker": anvil.name, "target": {"name": target.name, "kind": target.kind, "defence": target.defence},
            "situation": situation.model_dump(), "mettle": mettle, "attacks": results,
            "track": turn_track(anvil, results, situation)}
