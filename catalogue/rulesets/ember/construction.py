"""Ember·Obsidian Protocol construction (digest 3): a Mech of Part cards and one Pilot, and a squad's Pilot IDs,
command capacity and electronic warfare. The rules come from chapters 1 to 4 and 6; chapter 5's squad
configuration is missing from the rulebook, so points and squad limits are an authored format (E-X), elsewhere."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .schema import TIMINGS, PartCard, Pilot

MIN_PARTS, MAX_PARTS = 3, 5  # E-R04
ARMS = ("left_arm", "right_arm")
# E-R21: the Common Actions (6.1) and the Parts that can perform them.
COMMON = {"Punch/Kick": ("melee", ("chassis", "left_arm", "right_arm")),
          "Crawl": ("movement", ("chassis", "left_arm", "right_arm")),
          "Stabilize System": ("tactical", ("torso",)), "Scan": ("tactical", ("torso",))}


@dataclass
class Issue:
    code: str
    severity: str
    path: str
    message: str


@dataclass
class Mech:
    """The Parts a Mech fields by slot (a Handheld one maybe on its Discard side), and its Pilot."""

    name: str
    parts: dict[str, PartCard]
    pilot: Pilot | None
    discarded: set[str] = field(default_factory=set)
    # E-R25: the slots whose secret Part its viewer does not see. On a share link they hold no Part here; on the
    # whole Mech a squad's verdicts count (see `shown`) they do.
    hidden: set[str] = field(default_factory=set)
    stance: str = "offensive"  # the one it deploys in (E-R12)

    @property
    def filled(self) -> set[str]:
        return set(self.parts) | self.hidden


def shown(mech: Mech) -> Mech:
    """The Mech as its share link shows it: its secret Parts left out, their slots still filled (E-R25)."""
    return replace(mech, parts={s: p for s, p in mech.parts.items() if s not in mech.hidden},
                   discarded=mech.discarded - mech.hidden)


def check_mech(mech: Mech) -> list[Issue]:
    """E-R02 to E-R10 and E-R23 on one Mech."""
    issues: list[Issue] = []
    for slot, part in mech.parts.items():
        if part.slot != slot:
            issues.append(Issue("E-R02", "error", f"parts.{slot}", f"{part.name} is a {part.slot.replace('_', ' ')} "
                                                                   f"Part, not a {slot.replace('_', ' ')}."))
    missing = [s.replace("_", " ") for s in ("chassis", "torso") if s not in mech.filled]
    if missing:
        issues.append(Issue("E-R03", "error", "parts", f"{mech.name} needs a {' and a '.join(missing)}."))
    if not any(arm in mech.filled for arm in ARMS):
        issues.append(Issue("E-R03", "error", "parts", f"{mech.name} needs a left or a right arm."))
    if len(mech.filled) < MIN_PARTS:
        issues.append(Issue("E-R04", "error", "parts", f"{len(mech.filled)} Part cards; a Mech takes {MIN_PARTS} "
                                                       f"to {MAX_PARTS}."))
    if mech.pilot is None:
        issues.append(Issue("E-R05", "error", "pilot", f"{mech.name} has no Pilot; every Mech has exactly one."))
    for slot, part in mech.parts.items():
        for action in actions_of(part, slot in mech.discarded):
            others = other_hands(mech, slot)
            if action.keyword("Throw") and not others:
                issues.append(Issue("E-R08", "warning", f"parts.{slot}",
                                    f"{action.name} throws, which needs another Part with a free hand."))
            if "[Two-Handed]" in action.conditions and not others:
                issues.append(Issue("E-R09", "warning", f"parts.{slot}",
                                    f"{action.name}'s [Two-Handed] effect needs another Part with a free hand."))
            cost = action.keyword("Non-humanoid")
            if cost and mech.pilot is not None and (cost.x or 0) >= mech.pilot.max_link:
                issues.append(Issue("E-R23", "warning", f"parts.{slot}",
                                    f"{action.name} costs {cost.x} Link; {mech.pilot.name}'s Link of "
                                    f"{mech.pilot.max_link} can never pay it without reaching 0."))
        if slot != "torso" and part.keyword("Command Generation"):
            issues.append(Issue("E-R10", "warning", f"parts.{slot}",
                                f"{part.name} has Command Generation, which only a Torso gives."))
    return issues


def other_hands(mech: Mech, slot: str) -> set[str]:
    """The Parts besides `slot` with a free hand (E-R08, E-R09); a secret Part may well have one (E-R25)."""
    free = {s for s, part in mech.parts.items() if s != slot and freehand(part, s in mech.discarded)}
    return free or mech.hidden - set(mech.parts)


def freehand(part: PartCard, discarded: bool) -> bool:
    return part.discard.freehand if discarded and part.discard else part.freehand


def actions_of(part: PartCard, discarded: bool) -> list:
    return part.discard.actions if discarded and part.discard else part.actions


def derived(mech: Mech) -> dict[str, tuple[object, str]]:
    """D-10, D-13, D-14, D-20, E-R24 from the live Parts: each value with its computation."""
    parts = mech.parts
    dodge = [(p.name, p.dodge) for p in parts.values()]
    electronic = [(p.name, p.electronic) for p in parts.values() if p.electronic != "-"]
    torso = parts.get("torso")
    generation = torso.keyword("Command Generation") if torso else None
    chassis = parts.get("chassis")
    actions = [a for slot, p in parts.items() for a in actions_of(p, slot in mech.discarded)]
    # E-R25: on a share link a secret Part's values are unknown; each computation says so.
    secret = " + secret Parts (hidden)" if mech.hidden else ""
    return {
        "dodge": (sum(v for _, v in dodge), (" + ".join(f"{n} {v}" for n, v in dodge) or "no Parts") + secret),
        "electronic": (sum(v for _, v in electronic),
                       (" + ".join(f"{n} {v}" for n, v in electronic) or "no Parts") + secret),
        "maneuver": ((chassis.maneuver or 0) if chassis else 0,
                     chassis.name if chassis else "secret Chassis" if "chassis" in mech.hidden else "no Chassis"),
        "link": (mech.pilot.max_link if mech.pilot else 0, f"{mech.pilot.name}'s Link" if mech.pilot else "no Pilot"),
        "commands": (generation.x if generation else 1, f"{torso.name}: Command Generation {generation.x}"
                     if generation else "secret Torso: counted as one a round" if "torso" in mech.hidden
                     else "one a round"),
        "ammo": (sum(a.ammo for a in actions), "Ammo icons" + secret),
        "charge": (sum(a.charge for a in actions), "Charge actions" + secret),
        "interception": (sum(a.intercept for a in actions), "Intercept X" + secret),
    }


def timings(mech: Mech) -> dict[str, list[str]]:
    """E-R21, E-R22: for each Timing, the actions that can start it: the Parts' own and the Common Actions, but
    those the Mech cannot perform (`not_performable`)."""
    found: dict[str, list[str]] = {t: [] for t in TIMINGS}
    left_out = set(not_performable(mech))
    for slot, part in mech.parts.items():
        for action in actions_of(part, slot in mech.discarded):
            if action.type in found and action.name not in left_out:
                found[action.type].append(action.name)
    for name, (timing, performers) in COMMON.items():
        if any(slot in mech.filled for slot in performers) and name not in left_out:
            found[timing].append(name)
    if any(p.handheld for p in mech.parts.values()):
        found["swift"].append("Discard")
    if any(a.charge for p in mech.parts.values() for a in p.actions):
        found["swift"].append("Charge")
    return found


def not_performable(mech: Mech) -> dict[str, str]:
    """E-R21: the actions a Mech lists that it cannot start, each with why. Scan is an Electronic Attack, which a
    Mech of Electronic Value 0 cannot initiate (E-R19, L646, L786); a Throw needs another Part with a free hand
    (E-R08, L764). A secret Part may well give either (E-R25)."""
    left: dict[str, str] = {}
    if not mech.hidden and "torso" in mech.parts and derived(mech)["electronic"][0] <= 0:
        left["Scan"] = "Electronic Value 0: E-R19"
    for slot, part in mech.parts.items():
        for action in actions_of(part, slot in mech.discarded):
            if action.keyword("Throw") and not other_hands(mech, slot):
                left[action.name] = "no other Part with a free hand: E-R08"
    return left


def check_squad(mechs: list[Mech], drones: list) -> list[Issue]:
    """E-R06 Pilot IDs, E-R18 command capacity, E-R19 EV, E-R20 three-Part Mechs, over the whole Mechs (secret Parts
    counted: E-R25)."""
    issues: list[Issue] = []
    seen: dict[str, int] = {}
    for i, mech in enumerate(mechs):
        if mech.pilot is None:
            continue
        if mech.pilot.id_number in seen:
            issues.append(Issue("E-R06", "error", f"mechs[{i}].pilot",
                                f"{mech.pilot.name} (ID {mech.pilot.id_number}) already flies "
                                f"{mechs[seen[mech.pilot.id_number]].name}; one Pilot ID per squad."))
        seen.setdefault(mech.pilot.id_number, i)
        if len(mech.filled) == MIN_PARTS:
            issues.append(Issue("E-R20", "warning", f"mechs[{i}]", f"{mech.name} has 3 Parts: losing any but the "
                                                                   f"Torso leaves 2, and it is removed."))
    capacity = sum(derived(m)["commands"][0] for m in mechs)
    commanded = [d for d in drones if any(a.control == "command" for a in d.actions)]
    if len(commanded) > capacity:
        # E-R25: a secret Torso's Command Generation counts, and its number stays hidden.
        issued = ("more than the Mechs issue a round, counting their secret Torsos"
                  if any("torso" in m.hidden for m in mechs) else f"the Mechs issue {capacity} a round")
        issues.append(Issue("E-R18", "warning", "drones", f"{len(commanded)} Drones take Commands; {issued}."))
    values = [derived(m)["electronic"][0] for m in mechs] + [d.electronic for d in drones]
    if values and not any(isinstance(v, int) and v > 0 for v in values):
        issues.append(Issue("E-R19", "warning", "mechs", "No unit has an Electronic Value: nobody can Scan or "
                                                         "reveal a camouflaged enemy."))
    return issues
