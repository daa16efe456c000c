"""Ember's attack preview (digest 5.1, 5.5): an attack pool against a Mech, the target Part by the Black die, each
Part's Defense Roll from its Armor (its Structure once Damaged) and the Mech's Dodge in Mobility, and the Part's
state after it: Intact → Damaged → Destroyed, one step an attack, two with Mutilation's Surplus."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import BuildError, ShareId
from ..spec import Previewing
from . import dice
from .construction import Mech, actions_of, derived
from .rules import parse, resolve
from .places import SLOT_LABELS


@dataclass(frozen=True)
class Target:
    """A Part as the attack finds it."""

    name: str
    armor: int
    structure: int | None
    damaged: bool = False


def white_dice(part: Target, armor_piercing: int = 0, fragile: int = 0, protection: int = 0) -> int:
    """D-15: Armor, or Structure once Damaged, with Terrain and Unit protection, less Armor Piercing and Fragile;
    never below one die."""
    base = part.structure if part.damaged and part.structure is not None else part.armor
    return max(1, base + protection - armor_piercing - fragile)


def surplus_icons(light: int, heavy: int, defense: int, dodge: int) -> tuple[int, int]:
    """The un-offset (light, heavy) after a Penetration (4.8). Defense takes Light Hits; the defender dodges Heavy
    Hits first, since a Surplus's Light Hits can still be Defended against the Structure."""
    light = max(0, light - defense)
    dodged_heavy = min(dodge, heavy)
    return max(0, light - (dodge - dodged_heavy)), heavy - dodged_heavy


def part_outcome(attack: dict, part: Target, blue: int = 0, defensive: bool = False, mutilation: bool = False,
                 armor_piercing: int = 0, fragile: int = 0, protection: int = 0) -> dict[str, object]:
    """P(Penetration), P(Damaged) and P(Destroyed) of one Part under the attack pool."""
    exact = isinstance(next(iter(attack.values())), Fraction)
    defence = dice.defence_pool(white_dice(part, armor_piercing, fragile, protection), blue, defensive, exact=exact)
    zero = next(iter(attack.values())) * 0
    pen = destroyed = zero
    leftover: dict[tuple, object] = defaultdict(lambda: zero)
    for (light, heavy, _lightning), pa in attack.items():
        for (defense, dodge), pd in defence.items():
            left, _ = dice.offset(light, heavy, 0, defense, dodge)
            if left:
                pen += pa * pd
                leftover[surplus_icons(light, heavy, defense, dodge)] += pa * pd
    if part.structure is None or part.damaged:
        destroyed = pen
    elif mutilation:  # the Surplus goes on against the same Part's Structure (4.8), with no further Surplus
        structure = dice.defence_pool(max(1, part.structure - armor_piercing), blue, defensive, exact=exact)
        for (light, heavy), p in leftover.items():
            if light or heavy:
                destroyed += p * dice.resolve({(light, heavy, 0): zero + 1}, structure)["p_penetration"]
    return {"part": part.name, "p_penetration": pen, "p_destroyed": destroyed, "p_damaged": pen - destroyed}


def mech_outcome(attack: dict, parts: dict[str, Target | None], blue: int = 0, defensive: bool = False,
                 mutilation: bool = False, **modifiers: int) -> dict[str, object]:
    """Every Part the Black die can pick, weighted (D-24); on "Any Part" the attacker picks the Part most likely
    Destroyed. A destroyed Torso destroys the Mech. A Part given as None is secret (E-R25): the die can pick it,
    but its odds are unknown, and the totals say how much of the die they leave out (`p_secret`)."""
    rows = {slot: part_outcome(attack, part, blue, defensive, mutilation, **modifiers)
            for slot, part in parts.items() if part is not None}
    weights, choice = black_die(parts, rows)
    return {"parts": [{"slot": slot, "p_target": weights[slot], **rows[slot]} if slot in rows else
                      {"slot": slot, "p_target": weights[slot], "part": "Secret Part", "secret": True}
                      for slot in parts],
            "any_part": choice,
            "p_mech_destroyed": weights["torso"] * rows["torso"]["p_destroyed"] if "torso" in rows else None,
            "p_penetration": sum(weights[s] * rows[s]["p_penetration"] for s in rows),
            "p_secret": sum(weights[s] for s in parts if s not in rows)}


def black_die(slots, rows: dict[str, dict]) -> tuple[dict[str, Fraction], str | None]:
    """D-24: the chance the Black die picks each slot; "Any Part" goes to the Part of `rows` (the ones whose odds
    are known) most likely Destroyed, then Penetrated."""
    chosen = max(rows, key=lambda slot: (rows[slot]["p_destroyed"], rows[slot]["p_penetration"]), default=None)
    weights: dict[str, Fraction] = defaultdict(Fraction)
    for face, p in dice.target_part(set(slots)).items():
        weights[chosen if face == "any" and chosen else face] += p
    return weights, chosen


# --- a Mech's attacks against a described target ------------------------------------------------------------------

@dataclass(frozen=True)
class Defender:
    """What the preview form describes: the target Part's values and the defending Mech's stance and Dodge."""

    armor: int = 4
    structure: int | None = 3
    damaged: bool = False
    dodge: int = 0
    stance: str = "offensive"  # offensive, defensive, mobility, shutdown
    terrain: bool = False  # +2 White against Firing (D-15)
    unit_cover: bool = False
    fragile: int = 0


ATTACKS = ("melee", "firing", "projectile", "immediate", "delay")


class DefenderModel(BaseModel):
    """The preview request's target, read and bounded (the engine's Defender is built from it)."""

    model_config = ConfigDict(extra="forbid")

    armor: int = Field(4, ge=0, le=20)
    structure: int | None = Field(3, ge=0, le=20)
    damaged: bool = False
    dodge: int = Field(0, ge=0, le=20)
    # "deployed": a whole Mech's own deployment stance; a described Part's Mech deployed with no token, Offensive (E-R12)
    stance: Literal["deployed", "offensive", "defensive", "mobility", "shutdown"] = "deployed"
    terrain: bool = False
    unit_cover: bool = False
    fragile: int = Field(0, ge=0, le=10)
    electronic: int = Field(1, ge=0, le=20)  # the defender's Electronic Value, for electronic attacks (5.6)
    # A whole defending Mech instead of the Part described: a pack example by name, or a saved Mech by share id.
    # Its Parts, Armor, Structure and Dodge are its own; the stance, protection and Fragile above still apply.
    mech: str | None = Field(None, min_length=1, max_length=80)
    build: ShareId | None = None


class SituationModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    policy: Literal["P1", "P2"] = "P1"
    focus: bool = False


def action_odds(action, defender: Defender, offensive: bool, policy: str = "P1", focus: bool = False,
                mech: dict[str, Target | None] | None = None) -> dict[str, object]:
    """One attack action of the Mech against the defender, exactly (floats): P(Hit), P(Penetration), the surplus,
    P(Lightning effect), and the target Part's state after it. Against a whole `mech` (its Parts by slot, None for
    a secret one) each Part is one the Black die picks (D-24); the totals weigh them, and `parts` gives each."""
    piercing = action.keyword("Armor Piercing")
    stance = "defensive" if action.keyword("Suppression") and defender.stance != "shutdown" else defender.stance
    protection = 2 * (defender.terrain + defender.unit_cover) if action.type == "firing" else 0
    ap = piercing.x if piercing and piercing.x else 0
    blue = defender.dodge if stance == "mobility" else 0
    attack = dice.attack_pool(action.yellow, action.red, offensive, exact=False, focus=focus)
    effects = bool(action.keyword("Concussion") or action.keyword("Wrecking"))
    mutilation = bool(action.keyword("Mutilation"))

    def against(part: Target) -> dict[str, object]:
        white = white_dice(part, ap, defender.fragile, protection)
        result = dice.resolve(attack, dice.defence_pool(white, blue, stance == "defensive", exact=False), policy,
                              lightning_matters=effects)
        states = part_outcome(attack, part, blue, stance == "defensive", mutilation, ap, defender.fragile, protection)
        return {"part": part.name, "white": white, "p_hit": result["p_hit"], "p_penetration": result["p_penetration"],
                "surplus": result["surplus"], "p_lightning": result["p_lightning"] if effects else 0.0,
                "expected_link_loss": result["expected_lightning"] if effects else 0.0,
                "p_damaged": states["p_damaged"], "p_destroyed": states["p_destroyed"]}

    head = {"name": action.name, "dice": f"{action.yellow}Y+{action.red}R", "blue": blue,
            "suppressed": stance != defender.stance}
    if mech is None:
        return {**head, **against(Target("target", defender.armor, defender.structure, defender.damaged))}
    rows = {slot: against(part) for slot, part in mech.items() if part is not None}
    exact, chosen = black_die(mech, rows)
    weights = {slot: float(p) for slot, p in exact.items()}
    seen = sum(weights[slot] for slot in rows)

    def weighed(key: str) -> float:  # over the Parts whose odds are known, as a share of the die they take
        return sum(weights[slot] * rows[slot][key] for slot in rows) / seen if seen else 0.0

    surplus: dict[int, float] = defaultdict(float)
    for slot, row in rows.items():
        for n, p in row["surplus"].items():
            surplus[n] += weights[slot] * p / seen
    return {**head, "white": "by Part", "surplus": dict(surplus), "any_part": chosen,
            **{key: weighed(key) for key in ("p_hit", "p_penetration", "p_lightning", "expected_link_loss",
                                             "p_damaged", "p_destroyed")},
            "p_mech_destroyed": weights["torso"] * rows["torso"]["p_destroyed"] if "torso" in rows else None,
            "p_secret": float(sum(exact[slot] for slot in mech if slot not in rows)),
            "parts": [{"slot": slot, "p_target": weights[slot], **rows[slot]} if slot in rows else
                      {"slot": slot, "p_target": weights[slot], "part": "Secret Part", "secret": True}
                      for slot in mech]}


def electronic_odds(name: str, electronic: int, strength: int, responder: int, offensive: bool) -> dict[str, object]:
    """An electronic attack (5.6): the Mech's EV plus Strength in Yellow dice against the target's EV; EV 0 with no
    Strength cannot start one."""
    dice_count = electronic + strength
    if not dice_count:
        return {"name": name, "dice": 0, "responder": responder, "p_success": None}
    return {"name": name, "dice": dice_count, "responder": responder,
            "p_success": dice.electronic_warfare(dice_count, responder, offensive, exact=False)}


def strength(action) -> int:
    """Strength +X: X more Yellow dice for the initiator of an electronic attack (D-18)."""
    found = action.keyword("Strength")
    return (found.x or 0) if found else 0


def mech_preview(mech: Mech, offensive: bool, target: DefenderModel, situation: SituationModel,
                 defending: Mech | None = None) -> dict:
    """Every attack action of the Mech's Parts against the Part the target describes, or the whole Mech
    `defending` (as its share link shows it: a secret Part's odds are left out, E-R25), and its Scan and Electronic
    attacks against the target's Electronic Value."""
    stance = target.stance if target.stance != "deployed" else defending.stance if defending else "offensive"
    defender = Defender(**{**target.model_dump(exclude={"mech", "build", "electronic"}), "stance": stance})
    parts = None
    if defending is not None:
        defender = replace(defender, dodge=derived(defending)["dodge"][0])
        parts = {slot: Target(part.name, part.armor, part.structure) for slot, part in defending.parts.items()}
        parts.update(dict.fromkeys(defending.hidden))
    attacks = [action_odds(action, defender, offensive, situation.policy, situation.focus, parts)
               for slot, part in mech.parts.items() for action in actions_of(part, slot in mech.discarded)
               if action.type in ATTACKS and (action.yellow or action.red)]
    for attack in attacks:
        attack.update(distribution=attack["surplus"], reachable=True, hit_from=1)
    # 5.6: Scan (the Torso's Common Action) and every Electronic attack are counter-rolls of Yellow dice.
    responder = derived(defending)["electronic"][0] if defending is not None else target.electronic
    ev = derived(mech)["electronic"][0]
    electronic = [electronic_odds("Scan", ev, 0, responder, offensive)] if "torso" in mech.parts else []
    electronic += [electronic_odds(action.name, ev, strength(action), responder, offensive)
                   for slot, part in mech.parts.items() for action in actions_of(part, slot in mech.discarded)
                   if action.keyword("Electronic attack")]
    return {"attacker": mech.name, "attacks": attacks, "electronic": electronic,
            "target": target.model_dump(), "stance": stance,
            "defending": defending and {"name": defending.name, "dodge": defender.dodge,
                                        "parts": {SLOT_LABELS[s]: p and p.name for s, p in parts.items()}},
            "situation": situation.model_dump()}


def preview_mech(previewing: Previewing) -> dict:
    """Every attack action of the Mech's Parts against the Part the request describes, or a whole Mech."""
    target, situation = previewing.read("target"), previewing.read()
    mech = previewing.build
    return mech_preview(resolve(mech, previewing.catalogue), mech.stance == "offensive", target, situation,
                        defending_mech(target, previewing))


def defending_mech(target: DefenderModel, previewing: Previewing) -> Mech | None:
    """The Mech a preview target names: one of the pack's examples, or a saved Mech as its share link shows it
    (a secret Part stays secret: E-R25)."""
    catalogue = previewing.catalogue
    if target.mech is not None:
        example = next((e for e in catalogue.examples if e.get("kind") == "mech" and e.get("name") == target.mech),
                       None)
        if example is None:
            raise BuildError([{"path": "target.mech",
                               "message": f"{catalogue.pack} has no example Mech named {target.mech[:40]!r}"}])
        written = {k: v for k, v in example.items() if k not in ("kind", "notes")}
        return resolve(parse({**written, "pack": catalogue.pack, "extensions": list(catalogue.extensions)}), catalogue)
    if target.build is not None:
        saved = previewing.saved(target.build, "target.build", "Mech")
        return resolve(parse(saved.document), saved.catalogue)
    return None
