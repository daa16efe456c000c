"""MEGA MERCS rules played at the table, worked out for a unit so its card can print them (digest 5.5 to 5.9):
what losses do, what EMP shock leaves, ramming, attacks of opportunity, Look Around and overwatch."""
from __future__ import annotations

import math

from .schema import LOCATION_LABELS, Chassis

RAM_TN = 30  # MM-F17: "unaffected by any other modifiers"
OPPORTUNITY_DAMAGE = 5  # MM-F18: impact, on the edge facing the attacker
LOOK_AROUND = 4  # MM-F14
# MM-C22 (L499-509): the mecha's d10 hit location, as (lowest roll, highest roll, on a front or rear edge, on any
# other edge). MM-A16 reading: a hex's four diagonal edges are the table's "Top/Bottom Left/Right", so its
# "closest arm" is the arm on the side struck; no edge is "Direct Left/Right".
HIT_ROLLS = ((1, 1, "right_arm", "far_arm"), (2, 2, "right_arm", "near_arm"), (3, 4, "left_arm", "near_arm"),
             (5, 6, "legs", "legs"), (7, 10, "torso", "torso"))


def succeeds(roll: int, tn: int) -> bool:
    """MM-C01: a d100 at or under the TN succeeds."""
    return roll <= tn


def opposed(attacker: tuple[int, int], defender: tuple[int, int]) -> str:
    """MM-C02 for one pair of rolls, each (roll, TN): a lone success wins; of two the higher roll, ties to the
    defender; "neither" when both fail (MM-A05 leaves that to the table's house rule)."""
    a, d = succeeds(*attacker), succeeds(*defender)
    if a and d:
        return "attacker" if attacker[0] > defender[0] else "defender"
    return "attacker" if a else "defender" if d else "neither"


def split_fire(plan: list[tuple[str, str]]) -> list[str]:
    """MM-R36: each weapon type in a squad picks its own target, but all weapons of one type fire at the same one.
    `plan` is (weapon, target) for each member firing; returns the weapons aimed at more than one target."""
    targets: dict[str, set[str]] = {}
    for weapon, target in plan:
        targets.setdefault(weapon, set()).add(target)
    return sorted(weapon for weapon, aimed in targets.items() if len(aimed) > 1)


def cqc_loser(attacker_losses: int, defender_losses: int) -> str:
    """MM-C48: the side with more casualties falls back a hex; on a tie the attacker does."""
    return "defender" if defender_losses > attacker_losses else "attacker"


def hp_damage(damage: int, dr: int) -> tuple[int, str]:
    """MM-F07: damage after DR, and the battlefield note ("-0" when DR absorbs it all, L1170)."""
    dealt = max(0, damage - dr)
    return dealt, f"-{dealt}"


def equipment_state(size: int, hexes_lost: int) -> str:
    """MM-F10: destroyed when every hex is lost, unusable from half of them (MM-A17: half rounded up)."""
    if hexes_lost >= size:
        return "destroyed"
    return "unusable" if hexes_lost >= math.ceil(size / 2) else "working"


def tank_state(crew_lost: int, treads_lost: int, movement: int) -> dict[str, object]:
    """MM-F12, MM-F13: one Crew lost costs the Commander action, two destroy the tank; a Tread costs 2 Movement,
    both immobilise it."""
    return {"destroyed": crew_lost >= 2, "commander": crew_lost == 0,
            "movement": 0 if treads_lost >= 2 else max(0, movement - 2 * treads_lost)}


def mecha_movement(leg_parts_lost: int, legs_destroyed: bool, movement: int) -> int:
    """MM-F11: each Leg Parts hex lost is −1 Movement; the whole legs grid lost leaves Movement 1 for good."""
    return 1 if legs_destroyed else max(0, movement - leg_parts_lost)


def internal_hit(hexes_left: int, damage: int) -> tuple[int, int]:
    """MM-C23: internal damage to a limb; what it cannot take in one hit is wasted, and a limb already destroyed
    passes the whole hit to the torso. Returns (hexes the limb loses, hexes the torso loses)."""
    if hexes_left == 0:
        return 0, damage
    return min(hexes_left, damage), 0


def hit_table() -> list[tuple[str, str, str]]:
    """MM-C22 as the mecha card prints it: the d10 roll, the part hit through a front or rear edge, and through
    any other edge."""
    names = {**LOCATION_LABELS, "near_arm": "Near arm", "far_arm": "Far arm"}
    return [(str(low) if low == high else f"{low}–{high}", names[direct], names[other])
            for low, high, direct, other in HIT_ROLLS]


def emp_pool(actions: list[str]) -> list[str]:
    """MM-F20: under EMP shock a mecha or vehicle keeps one wildcard action and its Commander or Focus."""
    return ["W"] + [a for a in actions if a in ("C", "F")]


def ram(hexes: int) -> dict[str, int]:
    """MM-F17: a ram deals 1 impact per straight hex at TN 30; the rammer takes half on its front, rounded down
    (MM-A27 reading)."""
    return {"damage": hexes, "tn": RAM_TN, "rammer_takes": hexes // 2}


def attack_of_opportunity(flying: bool) -> int:
    """MM-F18, MM-C40: moving away from a melee-capable enemy's front arc costs 5 impact, never a flying unit."""
    return 0 if flying else OPPORTUNITY_DAMAGE


def overwatch(actions: list[str]) -> bool:
    """MM-T05: overwatch reserves an attack with a utility action (A + U), two different actions of the pool;
    movement can never be reserved."""
    attack, utility = {"A", "A/U", "A/M", "W"}, {"U", "A/U", "U/M", "W"}
    return any(a in attack and any(u in utility for j, u in enumerate(actions) if j != i)
               for i, a in enumerate(actions))


def table_notes(chassis: Chassis, items) -> list[tuple[str, str]]:
    """The card's "At the table" block: the unit's own numbers for the rules played there."""
    notes = [("EMP shock", "pool becomes " + " ".join(emp_pool(chassis.actions))),
             ("Ram", "at full Movement ({0} hexes straight): {1} impact at TN {2}; you take {3} on your front".format(
                 chassis.movement, *ram(chassis.movement).values())),
             ("Attack of opportunity", f"{attack_of_opportunity(chassis.movement_type == 'flying_vtol')} impact "
                                       f"when moving away from a melee enemy's front arc")]
    if "C" in chassis.actions:
        notes.append(("Look Around", f"Vision {chassis.vision + LOOK_AROUND}"))
        state = tank_state(1, 1, chassis.movement)
        notes.append(("Losses", f"1 Crew: no Commander action; 2 Crew: destroyed; 1 Tread: Movement "
                                f"{state['movement']}; 2 Treads: immobile"))
    if chassis.unit_type == "mecha":
        notes.append(("Losses", f"each Leg Parts hex: −1 Movement (to {mecha_movement(1, False, chassis.movement)} after "
                                f"one); whole legs grid: Movement {mecha_movement(0, True, chassis.movement)} for good; "
                                f"Pilot hex: destroyed"))
    if overwatch(chassis.actions):
        notes.append(("Overwatch", "reserve an attack with an attack and a utility action; never a move"))
    unusable = [f"{item.name} at {next(n for n in range(1, item.size + 1) if equipment_state(item.size, n) != 'working')}"
                for item in items if item.on_grid and item.size > 1]
    if unusable:
        notes.append(("Equipment unusable after hexes lost", ", ".join(unusable)))
    return notes
