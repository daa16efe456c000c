"""Ember·Obsidian Protocol at the table: a Mech's Link, Stance, Command Tokens, Fragile and Immobilized tokens, each
Part card's state (Intact, Damaged, Destroyed, Repaired) with what it gives, a Handheld Part's Discard side, and the
Ammo, Charge and Interception tokens of its actions; what the rules draw from them (a destroyed Torso ends the Mech,
a Destroyed Part gives nothing and costs a Link, two Parts left is Integrity Loss, Link 0 is Shutdown); and the Mech
as the table leaves it for the preview: a Destroyed Part no longer fitted, a dropped weapon on its Discard side, the
Stance it fights in.

E-R25: the tracks are built from what the viewer may see. A masked slot is one track, "secret Part", naming no
card and giving no lines, its values counted nowhere; its card's tokens are tracked on a table opened from the reveal
link, since a table keeps the tracks it was opened with.

A squad tracks what it holds beyond its saved Mechs (those get their own tables): its written-in Mechs, each as a
Mech, and each of its Drones.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping

from ..spec import Consequence, Tabletop, Track
from . import construction as c
from .places import SLOT_LABELS
from .rules import resolve, validate
from .schema import SLOTS, MechBuild

STANCES = ("Offensive", "Defensive", "Mobility", "Shutdown")
WITH_STRUCTURE = ("Intact", "Damaged", "Destroyed", "Repaired")
# L514: a Part with no Structure goes from Intact to Destroyed on its first Penetration; it is never Damaged.
WITHOUT_STRUCTURE = ("Intact", "Destroyed", "Repaired")
DRONE_WITH, DRONE_WITHOUT = ("Intact", "Damaged", "Destroyed"), ("Intact", "Destroyed")  # Repaired: Parts only (L923)
FRAGILE_MAX = 10  # the rulebook stacks Fragile without a limit (L929); the preview's request takes up to 10
TOKENS = ("ammo", "charge", "intercept")
PART_KEY = re.compile(r"^(part|discard)\.(\w+)$")
TOKEN_KEY = re.compile(r"^(ammo|charge|intercept)\.(\w+)\[(\d+)\]$")
MECH_KEY = re.compile(r"^(mechs\[\d+\])\.(.+)$")
DRONE_KEY = re.compile(r"^(drones\[\d+\]\[\d+\])\.(.+)$")


# --- a Mech's tracks ----------------------------------------------------------------------------------------------

def mech_tracks(build: MechBuild, catalogue, report, linked) -> list[Track]:
    return tracks_of(build, resolve(build, catalogue), report)


def tracks_of(build: MechBuild, mech: c.Mech, report, title: str = "") -> list[Track]:
    """The Mech's header tracks under `title` ("" for a saved Mech's own table), then each slot's under its label."""
    stats = report.stats
    link, commands = stats["link"].value, stats["commands"].value
    dodge, maneuver = stats["dodge"].value, stats["maneuver"].value
    masked = set(build.masked)
    secret = " + the secret Parts'" if masked else ""
    doubled = "the secret Chassis's Maneuver ×2" if "chassis" in masked else f"Maneuver {maneuver} ×2 = {2 * maneuver}"
    found = [
        Track("link", "Link", title, 0, link, link, rule="D-19",
              note=f"Starts at {stats['link'].explain}, {link} (E-R23). −1 for each Part but the Torso Destroyed, each "
                   f"unoffset Lightning of Concussion or Wrecking, a Push, Non-humanoid X; −1 for Focus, never spent "
                   f"to 0; +1 for Reboot or Stabilize System: set by hand. At 0: Shutdown at once (D-19)."),
        Track("stance", "Stance", title, 0, len(STANCES) - 1, STANCES.index(build.stance.title()), STANCES,
              rule="E-R12",
              note=f"Deployed {build.stance.title()} (E-R12), chosen again at each Action Opportunity. Offensive: hollow "
                   f"Yellow and Red icons count; Defensive: hollow White icons count; Mobility: Blue dice equal to "
                   f"Dodge {dodge}{secret} (D-16), {doubled} (D-10); Shutdown: only Reboot (D-07)."),
        Track("commands", "Command Tokens", title, 0, commands, commands, rule="D-20", resets="round",
              note=f"{commands} each Command Phase ({stats['commands'].explain}), none in Shutdown; issued to Drones, "
                   f"one a Drone, or kept for Command Coordination; all removed in the End Phase (D-20)."),
        Track("fragile", "Fragile", title, 0, FRAGILE_MAX, 0, rule="D-15",
              note="Each Fragile Token: −1 White die in Defense Rolls, never below 1 die; they stack (D-15). The "
                   "rulebook gives no token's duration (digest 9 #30): take it off when what gave it says."),
        Track("immobilized", "Immobilized", title, rule="D-16",
              note="No Movement Actions and no Maneuver, not even to face about (D-10); no Blue dice in Defense Rolls "
                   "(D-16)."),
    ][0 if link else 1:]  # no Pilot, no Link Dial (E-R05 says what is missing)
    for slot in SLOTS:
        where = f"{title} · {SLOT_LABELS[slot]}" if title else SLOT_LABELS[slot]
        if slot in masked:
            options = states(slot, True)
            ends = "the Mech is Destroyed at once (D-21)" if slot == "torso" else \
                "it gives nothing, Link −1 (E-R28); Repaired: used again, Destroyed with no Defense Roll if attacked"
            found.append(Track(f"part.{slot}", "secret Part", where, 0, len(options) - 1, 0, options,
                               rule="D-21" if slot == "torso" else "E-R28",
                               note=f"Kept secret (E-R25): its card, values and tokens come with it when revealed. "
                                    f"Damaged: Structure dice, not Armor (D-15); Destroyed: {ends}."))
        elif slot in mech.parts:
            found += part_tracks(slot, mech.parts[slot], slot in mech.discarded, slot in build.secret, where)
    return found


def part_tracks(slot: str, part, discarded: bool, secret: bool, where: str) -> list[Track]:
    """A Part card's state with what it gives, its Discard side if it can still drop its weapon, and the tokens
    Deployment places on the side it starts on (E-R24)."""
    side = part.discard if discarded else part
    options = states(slot, part.structure is not None or (part.discard and part.discard.structure is not None))
    structure = f"Structure {side.structure}" if side.structure is not None else "no Structure"
    ends = "the Mech is Destroyed at once (D-21)" if slot == "torso" else \
        "it gives nothing and Link −1 (E-R28). Repaired: used again, Destroyed with no Defense Roll if attacked (L924)"
    found = [Track(f"part.{slot}", side.name, where, 0, len(options) - 1, 0, options,
                   rule="D-21" if slot == "torso" else "E-R28",
                   lines=side_lines(part, discarded) + tuple(keywords(part.keywords)), facts=side_facts(part, discarded),
                   note=f"Armor {side.armor}, {structure}. A Penetration Damages it, or Destroys it without Structure "
                        f"or once Damaged; Damaged rolls Structure dice (D-15). Destroyed: {ends}."
                        + (" Kept secret from the opponent until revealed (E-R25)." if secret else ""))]
    if part.handheld and not discarded:
        found.append(Track(f"discard.{slot}", f"Discard side: {part.discard.name}", where, rule="E-R07",
                           lines=side_lines(part, True), facts=side_facts(part, True),
                           note="Discard (Swift-S) or Disarm turns the card to its Discard side (E-R07): Damaged and "
                                "Repaired go with it; Ammo, Charge and Interception only to an action of the same name "
                                "(L757)."))
    for i, action in enumerate(c.actions_of(part, discarded)):
        found += token_tracks(f"{{}}.{slot}[{i}]", action, where)
    return found


def states(slot: str, structure: bool) -> tuple[str, ...]:
    """A Part's states: Damaged only with a Structure (L514); Repaired only where a Destroyed Part leaves a Mech to
    repair it on (L923), which a Destroyed Torso does not (D-21)."""
    found = WITH_STRUCTURE if structure else WITHOUT_STRUCTURE
    return found[:-1] if slot == "torso" else found


def side_lines(part, discarded: bool) -> tuple[str, ...]:
    """What the side gives the Mech (E-R28): its values, its tags and its actions."""
    side = part.discard if discarded else part
    values = [f"Armor {side.armor}", f"Structure {side.structure}" if side.structure is not None else "no Structure",
              f"Dodge {side.dodge}", f"EV {side.electronic}"]
    if not discarded:
        values += [f"{name} {v}" for name, v in (("Parry", part.parry), ("Maneuver", part.maneuver)) if v is not None]
        values += ["Handheld"] * part.handheld
    values += ["Freehand"] * c.freehand(part, discarded)
    return tuple(values + [a.name for a in side.actions])


def side_facts(part, discarded: bool) -> dict[str, int]:
    """The side's numbers its consequences read: Armor and Structure for a Damaged Part (D-15), Dodge and
    Electronic Value for the Mech's totals (D-13)."""
    side = part.discard if discarded else part
    found = {"Armor": side.armor, "Dodge": side.dodge, "EV": side.electronic}
    return found if side.structure is None else {**found, "Structure": side.structure}


def keywords(found) -> list[str]:
    return [k.name + (f" {k.x}" if k.x is not None else "") for k in found]


def token_tracks(key: str, action, where: str) -> list[Track]:
    """E-R24: the Round Tokens Deployment places for an action, each on the card; `key` names the track with the
    token's name in its braces."""
    found = []
    if action.ammo:
        found.append(Track(key.format("ammo"), f"{action.name} Ammo", where, 0, action.ammo, action.ammo, rule="E-R24",
                           lines=(action.name,),
                           note=f"{action.ammo} Ammo Tokens (E-R24): one spent a use, Volley X up to X; with none left "
                                f"the action cannot be performed; replenished up to {action.ammo} (D-22)."))
    if action.charge:
        found.append(Track(key.format("charge"), f"{action.name} Charged", where, rule="E-R24", lines=(action.name,),
                           note="Its Charge Token starts face-down (E-R24): the Charge action (Swift-S) flips it, one "
                                "Part a Charge; the [Charged] effect spends it."))
    if action.intercept:
        found.append(Track(key.format("intercept"), f"{action.name} Interception", where, 0, action.intercept,
                           action.intercept, rule="E-R24", lines=(action.name,),
                           note=f"Intercept {action.intercept} (E-R24): one token an Interception of an enemy Aerial "
                                f"unit starting or ending a move in range, again until none is left or it is Destroyed."))
    return found


# --- what follows from a Mech's state -----------------------------------------------------------------------------

def mech_consequences(tracks: list[Track], state: Mapping[str, int]) -> list[Consequence]:
    value = {t.key: state.get(t.key, t.start) for t in tracks}
    keyed = {t.key: t for t in tracks}
    parts = {m.group(2): t for t in tracks if (m := PART_KEY.match(t.key)) and m.group(1) == "part"}
    tokens: dict[str, list[Track]] = {}
    for t in tracks:
        if m := TOKEN_KEY.match(t.key):
            tokens.setdefault(m.group(2), []).append(t)

    def state_of(slot: str) -> str:
        track = parts[slot]
        return track.options[value[track.key]]

    def named(slot: str) -> str:
        return f"{SLOT_LABELS[slot]} ({parts[slot].label})"

    if "torso" in parts and state_of("torso") == "Destroyed":
        return [Consequence("D-21", f"{named('torso')} is Destroyed: the Mech is Destroyed and removed at once "
                                    f"(D-21).", "error", tuple(t.key for t in tracks if t.key != "part.torso"))]
    said = []
    for slot, track in parts.items():
        now = state_of(slot)
        side = active(slot, keyed, value)
        gives = side.lines
        if now == "Destroyed":
            greys = tuple(t.key for t in tokens.get(slot, ())) + ((f"discard.{slot}",) if f"discard.{slot}" in keyed
                                                                   else ())
            lost = f"{', '.join(given(gives))} no longer count" if given(gives) else "what it gives no longer counts"
            chassis = "; no Maneuver, only facing changes (D-10)" if slot == "chassis" else ""
            said.append(Consequence("E-R28", f"{named(slot)} is Destroyed: {lost}{chassis}; Link −1 (E-R28, D-19).",
                                    "warning", greys))
        elif now == "Damaged":
            said.append(damaged(named(slot), side.facts))
        elif now == "Repaired":
            # Digest 9 #28: a Repaired Part works "as normal", so it counts among the Parts left and gives its values;
            # the Link its destruction cost is not given back (the text says nothing of it).
            said.append(Consequence("E-R28", f"{named(slot)} is Repaired: it works again, but when attacked it makes "
                                             f"no Defense Roll and is Destroyed (E-R28, L924).", "warning"))
        discard = keyed.get(f"discard.{slot}")
        if discard is not None and value[discard.key] and now != "Destroyed":
            dropped = [t.key for t in tokens.get(slot, ()) if t.lines[0] not in discard.lines]
            said.append(Consequence("E-R07", f"{named(slot)} is on its Discard side, {discard.label.split(': ', 1)[1]}: "
                                             f"{', '.join(discard.lines)} (E-R07)"
                                             + ("; its other actions' tokens are removed (L757)." if dropped else "."),
                                    "info", tuple(dropped)))
    left = [slot for slot in parts if state_of(slot) != "Destroyed"]
    if parts and len(left) <= 2:
        said.append(Consequence("E-R20", f"{len(left)} Part{'s' if len(left) != 1 else ''} left: Integrity Loss; the "
                                         f"Mech acts as normal this round and is removed in the End Phase (E-R20).",
                                "error"))
    limbs = [slot for slot in ("chassis", "left_arm", "right_arm") if slot in parts]
    if limbs and not set(limbs) & set(left):
        said.append(Consequence("E-R21", "No Chassis or arm left: no Punch/Kick and no Crawl (E-R21).", "info"))
    said += totals(parts, keyed, value)
    said += condition(keyed, value, tokens)
    return said


def active(slot: str, keyed, value) -> Track:
    """The track of the side the Part is on now: what it gives (`lines`) and its numbers (`facts`)."""
    discard = keyed.get(f"discard.{slot}")
    return discard if discard is not None and value[discard.key] else keyed[f"part.{slot}"]


def given(lines) -> list[str]:
    """What a side gives the Mech: its own Armor and Structure only defend it, and a value of 0 gives nothing."""
    return [line for line in lines if not line.startswith(("Armor ", "Structure ", "no Structure"))
            and not line.endswith(" 0")]


def damaged(name: str, values) -> Consequence:
    """D-15, with the card's numbers where the table knows them (not a secret Part's)."""
    dice = (f"Structure {values['Structure']} White dice, not Armor {values['Armor']}" if "Structure" in values
            else "its Structure in White dice, not its Armor")
    return Consequence("D-15", f"{name} is Damaged: its Defense Rolls take {dice}; one more Penetration Destroys it "
                               f"(D-15).", "info")


def totals(parts, keyed, value) -> list[Consequence]:
    """D-13, D-14: the Mech's Dodge and Electronic Value from the Parts still in play, when they moved."""
    start = {key: keyed[key].start for key in value}

    def summed(values) -> tuple[int, int]:
        dodge = ev = 0
        for slot, track in parts.items():
            if track.options[values[track.key]] != "Destroyed":
                found = active(slot, keyed, values).facts
                dodge, ev = dodge + found.get("Dodge", 0), ev + found.get("EV", 0)
        return dodge, ev

    (was_dodge, was_ev), (dodge, ev) = summed(start), summed(value)
    if (dodge, ev) == (was_dodge, was_ev):
        return []
    secret = " and the secret Parts'" if any(t.label == "secret Part" for t in parts.values()) else ""
    return [Consequence("D-13", f"Dodge {dodge} (was {was_dodge}), Electronic Value {ev} (was {was_ev}) from the Parts "
                                f"in play{secret} (D-13, D-14).", "info")]


def condition(keyed, value, tokens) -> list[Consequence]:
    said = []
    stance = keyed.get("stance")
    shutdown = stance is not None and stance.options[value["stance"]] == "Shutdown"
    if "link" in keyed and value["link"] <= 0 and not shutdown:
        said.append(Consequence("D-19", "Link 0: the Mech changes to the Shutdown Stance at once (D-19).", "warning"))
    if shutdown:
        said.append(Consequence("D-07", "Shutdown: no Maneuver and no action but Reboot (a Stance, Link +1, then one "
                                        "Action Tick of the chosen Timing: D-07); no Commands generated (D-20); the "
                                        "attacker designates the target Part; no Parry, no passives.", "warning",
                                tuple(t.key for ts in tokens.values() for t in ts)))
    if value.get("immobilized"):
        said.append(Consequence("D-16", "Immobilized: no Movement Actions and no Maneuver (D-10), no Blue dice in "
                                        "Defense Rolls (D-16).", "info"))
    if value.get("fragile"):
        said.append(Consequence("D-15", f"Fragile ×{value['fragile']}: {value['fragile']} White "
                                        f"{'die' if value['fragile'] == 1 else 'dice'} fewer in every Defense Roll, "
                                        f"never below 1 (D-15).", "info"))
    for ts in tokens.values():
        for t in ts:
            if t.key.startswith("ammo.") and value[t.key] <= 0:
                said.append(Consequence("D-22", f"{t.lines[0]}: all {t.high} Ammo spent; it cannot be performed "
                                                f"until replenished (D-22).", "info"))
    return said


# --- the Mech as the table leaves it ------------------------------------------------------------------------------

def mech_played(document: dict[str, Any], tracks: list[Track], state: Mapping[str, int]) -> dict[str, Any]:
    """What the preview reads (its Parts' actions, values and Discard sides, and the Stance) as the table leaves
    them: a Destroyed Part is no longer fitted (E-R28), every Part once the Torso is (D-21); a ticked Discard side is
    the side in play (E-R07); Damage, tokens and Link the preview does not read. A Shutdown Mech keeps the last
    Stance the document can hold: Shutdown is no Stance a build deploys in (E-R12), and the Mech makes no attack."""
    value = {t.key: state.get(t.key, t.start) for t in tracks}
    gone = {m.group(2) for t in tracks if (m := PART_KEY.match(t.key)) and m.group(1) == "part"
            and t.options[value[t.key]] == "Destroyed"}
    if "torso" in gone:
        gone |= set(SLOTS)
    dropped = {m.group(2) for t in tracks if (m := PART_KEY.match(t.key)) and m.group(1) == "discard" and value[t.key]}
    parts = {slot: key for slot, key in (document.get("parts") or {}).items() if slot not in gone}
    discarded = set(document.get("discarded") or []) | (dropped & set(parts))
    played = {**document, "parts": parts, "discarded": [s for s in SLOTS if s in discarded and s in parts]}
    for field in ("secret", "masked"):
        if field in document:
            played[field] = [s for s in document[field] or [] if s not in gone]
    stance = next((t for t in tracks if t.key == "stance"), None)
    if stance is not None and stance.options[value["stance"]] != "Shutdown":
        played["stance"] = stance.options[value["stance"]].lower()
    return played


# --- a squad: its written-in Mechs and its Drones -----------------------------------------------------------------

def squad_tracks(build: Any, catalogue, report, linked) -> list[Track]:
    found = []
    names = [entry.mech.name for entry in build.mechs if entry.mech is not None]
    for i, entry in enumerate(build.mechs):
        if entry.mech is None:
            continue  # a saved Mech has its own section (builder.table)
        written = MechBuild(pack=catalogue.pack, extensions=list(catalogue.extensions), **entry.mech.model_dump())
        title = entry.mech.name if names.count(entry.mech.name) == 1 else f"{entry.mech.name} ({i + 1})"
        found += [replace(t, key=f"mechs[{i}].{t.key}")
                  for t in tracks_of(written, resolve(written, catalogue), validate(written, catalogue), title)]
    for i, entry in enumerate(build.drones):
        drone = catalogue.items[entry.drone]
        for n in range(entry.count):
            found += drone_tracks(f"drones[{i}][{n}]", drone, drone.name + (f" {n + 1}" if entry.count > 1 else ""),
                                  [getattr(catalogue.items.get(key), "name", key) for key in drone.load])
    return found


def drone_tracks(at: str, drone, label: str, load: list[str]) -> list[Track]:
    """A Drone's state and its actions' tokens; numbered when the squad has more than one of it (E-R17)."""
    options = DRONE_WITH if drone.structure is not None else DRONE_WITHOUT
    structure = f"Structure {drone.structure}" if drone.structure is not None else "no Structure"
    load = [f"Load: {part}" for part in load]  # E-R11: carried, giving the Drone nothing
    values = [f"Armor {drone.armor}", structure, f"Dodge {drone.dodge}", f"EV {drone.electronic}"]
    found = [Track(f"{at}.state", label, label, 0, len(options) - 1, 0, options, rule="D-15",
                   lines=tuple(values + [a.name for a in drone.actions] + keywords(drone.keywords) + load),
                   facts=side_facts(drone, False),
                   note=f"Armor {drone.armor}, {structure}, Dodge {drone.dodge}, {drone.stance.title()} Stance "
                        f"(E-R13). A Penetration Damages it, or Destroys it without Structure or once Damaged; "
                        f"Damaged rolls Structure dice (D-15). Destroyed: removed at once (L524).")]
    for j, action in enumerate(drone.actions):
        found += token_tracks(f"{at}.{{}}[{j}]", action, label)
    return found


def squad_consequences(tracks: list[Track], state: Mapping[str, int]) -> list[Consequence]:
    said: list[Consequence] = []
    mechs: dict[str, list[Track]] = {}
    drones: dict[str, list[Track]] = {}
    for t in tracks:
        if m := MECH_KEY.match(t.key):
            mechs.setdefault(m.group(1), []).append(t)
        elif m := DRONE_KEY.match(t.key):
            drones.setdefault(m.group(1), []).append(t)
    for prefix, own in mechs.items():
        cut = len(prefix) + 1
        inner = [replace(t, key=t.key[cut:]) for t in own]
        for found in mech_consequences(inner, {t.key[cut:]: state[t.key] for t in own if t.key in state}):
            said.append(replace(found, message=f"{own[0].group}: {found.message}",
                                greys=tuple(f"{prefix}.{k}" for k in found.greys)))
    for prefix, own in drones.items():
        value = {t.key: state.get(t.key, t.start) for t in own}
        status = next(t for t in own if t.key == f"{prefix}.state")
        now = status.options[value[status.key]]
        if now == "Destroyed":
            said.append(Consequence("D-15", f"{status.label} is Destroyed and removed at once (D-15, L524).",
                                    "warning", tuple(t.key for t in own if t is not status)))
            continue
        if now == "Damaged":
            said.append(damaged(status.label, status.facts))
        for t in own:
            if ".ammo[" in t.key and value[t.key] <= 0:
                said.append(Consequence("D-22", f"{status.label}: {t.lines[0]} has all {t.high} Ammo spent; it "
                                                f"cannot be performed until replenished (D-22).", "info"))
    return said


MECH = Tabletop(mech_tracks, mech_consequences, mech_played)
SQUAD = Tabletop(squad_tracks, squad_consequences, None,
                 played_note="A squad has no combat preview; each saved Mech's table feeds its own.")
