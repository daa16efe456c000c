"""METALLURGENT battlefield rules the preview and the sheets lean on: heights, Line of Sight, Elevation,
falls, Cover, Structures and Drift (digest sections 4 and 5). Small named functions, one rule each.
"""
from __future__ import annotations

import math

ANVIL_HEIGHT = 3  # M-R06


def combined_height(level: int, height: int) -> int:
    """M-D44: a unit's top for Line of Sight is its hex's Elevation plus its height (L332)."""
    return level + height


def line_of_sight_blocked(obstacle: int, attacker: int, defender: int, *, attacker_adjacent: bool = False,
                          defender_adjacent: bool = False) -> bool:
    """The three blocking cases of L338-340, on combined heights; "greater than" as in the newest text (8.3 #9)."""
    if obstacle <= defender:
        return False
    return (obstacle > attacker
            or (not attacker_adjacent and attacker <= obstacle)
            or defender_adjacent)


def indirect_blocked(obstacle: int, *, adjacent_to: str, attacker: int, defender: int) -> bool:
    """Indirect fire is stopped only by an obstacle next to the attacker or the target at least as tall (L623)."""
    height = attacker if adjacent_to == "attacker" else defender
    return obstacle >= height


def elevation_cost(change: int, height: int = ANVIL_HEIGHT, chassis: str = "biped") -> int | None:
    """M-D31: extra Move Speed to cross an Elevation change; None when it must be climbed and cannot be."""
    half = math.ceil(height / 2)
    change = abs(change)
    if change < half:
        return 0
    if change == half:
        return 0 if chassis == "quadruped" else 1  # Mountaineer
    return 0 if chassis == "biped" else None  # only Bipeds climb (paying Manoeuvre Cost instead)


def safe_depth(height: int = ANVIL_HEIGHT) -> int:
    """M-D32: deeper Water than half the unit's height (rounded up) Powers it Down."""
    return math.ceil(height / 2)


def fall_damage(levels: int, height: int = ANVIL_HEIGHT, jumping: bool = False) -> tuple[int, int]:
    """M-D33: S damage to the Mobility Base and to every other Component for the Levels beyond own height."""
    excess = max(0, levels - height)
    mobility, others = 10 * excess, 5 * excess
    if jumping:  # Reverse-Joint Jumper halves it
        mobility, others = math.ceil(mobility / 2), math.ceil(others / 2)
    return mobility, others


def roof_supports(density: int, gross_weight: int, robust_ap: int | None = None) -> bool:
    """M-D36: a Structure holds Density × 5 ST (a Robust one AP × 10 ST)."""
    return (robust_ap * 10 if robust_ap is not None else density * 5) >= gross_weight


def structure_destroyed(hexes: int, destroyed: int) -> bool:
    """M-D43: a multi-hex Structure falls when more than half its hexes are destroyed."""
    return destroyed > hexes / 2


def melee_reach(attacker_level: int, attacker_height: int, target_level: int, target_height: int) -> bool:
    """M-D41: the target must be within one Level of the attacker's own height band (L611)."""
    return (target_level <= attacker_level + attacker_height + 1
            and target_level + target_height >= attacker_level - 1)


def can_kick(level_difference: int, height: int = ANVIL_HEIGHT) -> bool:
    """M-D40: no kick or ram at a target standing half the kicker's height or more above it."""
    return level_difference < math.ceil(height / 2)


def cover_after_hit(density: int, damage: int, payload: str = "") -> int:
    """Cover hit by damage at least its Density degrades by 1; Exothermic or Demolition destroy it (L470-474).

    Digest 8.3 #8: at Density 1 a qualifying hit turns the hex into Rough (returned as 0).
    """
    if payload.lower() in ("exothermic", "demolition"):
        return 0
    return density - 1 if damage >= density else density


def strongest_occlusion(sources: list[int]) -> int:
    """Several obscurants of one type count once, at the highest value (L396)."""
    return max(sources, default=0)


def blast_still_hits(blast_radius: int, drift: int) -> bool:
    """A missed AOE attack Drifts, and still hits everything within its radius of where it lands (L1409)."""
    return drift <= blast_radius


def distance_moved(cruise: int, flank: int, cruise_used_before_secondary: int) -> int:
    """T05: firing a Secondary ends Cruising movement (the rest is lost), then Flanking Speed may still be used."""
    return min(cruise_used_before_secondary, cruise) + flank


def may_enter(cost: int, cruise_left: int, flank_available: int) -> bool:
    """T06: Minimum Movement: a hex costing more than the Cruise left may be paid for by generating Flank."""
    return cost <= cruise_left or cost <= cruise_left + flank_available


def damage_steps_left(total: int, taken: int) -> int:
    """T34: a conventional unit is removed when its Damage Steps, in any Components, run out."""
    return max(0, total - taken)
