"""MEGA MERCS at the table: a unit's HP, the hexes of its internals grids (each special internal, each item's hexes,
the empty ones), Limited Ammo, a tank's loaded ammunition, interceptor shots, its Focus or Commander action, the status
boxes the card prints (lock, Jammed, Hacked, EMP Shock, Stealth) and its drones; what the rules draw from them (a
destroyed unit, a limb blasted off, equipment unusable or destroyed, lost Movement and Crew, EMP and hacking taking
equipment offline); and the unit as the table leaves it for the preview: what no longer works is no longer mounted.

A company tracks what it holds beyond its saved units (those get their own tables): its written-in units, each as a
unit, its drones, infantry squads and support aircraft.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

from ..spec import Consequence, Tabletop, Track
from . import rules
from .damage import LOOK_AROUND, emp_pool, equipment_state
from .schema import LOCATION_LABELS, Equipment, UnitBuild, Weapon, attribute

# MEGA MERCS's turn (every phase, L89-97) is the table's turn: what lasts "one turn" resets="turn", which a new
# round resets too.
SPECIALS = {"pilot": "Pilot", "crew": "Crew", "leg_parts": "Leg Parts", "treads": "Treads"}
FOCUS = ("none", "Fire Control", "Evasion", "Defence", "Melee")
COMMAND = ("none", "Look Around", "Hands On", "Fire Pintle Mount")
ONE_HEX = ("Intact", "Destroyed")
ONE_SPECIAL = ("Intact", "Lost")
GRID_TYPES = {"track": "an internal track, right to left", "bi_directional": "a bi-directional track, from the "
              "edge struck", "radial": "a radial grid, outer ring first, from the arc struck"}
ROSTER_KEY = re.compile(r"^((?:drones|infantry|aircraft)\[\d+\](?:\[\d+\])?)\.(\w+)$")
UNIT_KEY = re.compile(r"^(units\[\d+\])\.(.+)$")


# --- a unit's tracks ----------------------------------------------------------------------------------------------

def unit_tracks(build: Any, catalogue, report, linked) -> list[Track]:
    unit = rules.resolve(build, catalogue)
    return [] if unit is None else tracks_of(unit, report)


def tracks_of(unit: rules.Unit, report, title: str = "", drones: bool = True) -> list[Track]:
    """The unit's tracks, its header's under `title` and each location's under its label (after `title`, for a
    company's written-in unit); `drones` False where the company lists the drones themselves."""
    chassis, stats = unit.chassis, report.stats
    refused = {i.path for i in report.errors if i.code in rules.PLACEMENT_RULES}
    fitted = [m for m in unit.mounted if m.path not in refused]
    attributes = unit.attributes()
    hp, movement, vision = stats["hp"].value, stats["movement"].value, stats["vision"].value
    found = [Track("hp", "HP", title, 0, hp, hp, rule="MM-C24",
                   note=f"At 0 the unit can no longer fight (MM-C24). DR {stats['dr'].value} (front, front right, rear "
                        f"right, rear, rear left, front left, top) comes off each hit (MM-F07).")]
    if "F" in chassis.actions:
        found.append(Track("focus", "Focus", title, 0, len(FOCUS) - 1, 0, FOCUS, rule="MM-R12", resets="turn",
                           note=f"Chosen at the start of the turn (MM-R12): Fire Control fires two Linked weapons with "
                                f"one attack, Melee a melee weapon from each arm (MM-C44); Evasion evades front-arc "
                                f"hits at Agility {stats['agility'].value} (MM-C15); Defence's DR the rulebook does not "
                                f"give (MM-A33, text only)."))
    if "C" in chassis.actions:
        found.append(Track("commander", "Commander", title, 0, len(COMMAND) - 1, 0, COMMAND, rule="MM-R12",
                           resets="turn",
                           note=f"Commander action (MM-R12): Look Around, Vision {vision} + {LOOK_AROUND} = "
                                f"{vision + LOOK_AROUND} (MM-F14); Hands On, a utility action; Fire Pintle Mount "
                                f"(MM-C43). Lost with the first Crew (MM-F13)."))
    found += status_tracks(unit, fitted, attributes, stats, title)
    controllers = [m.item.name for m in fitted if isinstance(m.item, Equipment) and "drone_controller" in m.item.types]
    if controllers and drones:
        found.append(Track("drones.deployed", "Drones deployed", title, 0, len(controllers), 0,
                           lines=tuple(controllers), rule="MM-R13",
                           note=f"One active drone per Drone Controller: {len(controllers)} (MM-R13)."))
        if report.detail.docking:
            found.append(Track("drones.docked", "Drones docked", title, 0, report.detail.docking, 0, rule="MM-R14",
                               note=f"Room for {report.detail.docking} small drones; docked, a drone is inactive and "
                                    f"cannot be targeted; large drones never dock (MM-R14, MM-A20)."))
    contents = rules.grid_contents(unit)
    main = next((g.location for g in chassis.grids if g.location in rules.MAIN_GRID), chassis.grids[0].location)
    named = refs(unit)
    located: dict[str, list[Track]] = {g.location: [] for g in report.detail.grids}
    for layout in report.detail.grids:
        located[layout.location] += grid_tracks(layout, contents[layout.location], named, main, movement,
                                                "C" in chassis.actions, group(title, layout.location))
    working = {id(m) for m in fitted}
    for m, ref in named:
        if id(m) in working:
            home = rules.grid_of(unit, m) if m.item.on_grid else m.location or main
            located.setdefault(home, []).extend(item_tracks(m, ref, home, chassis.unit_type, group(title, home)))
    return found + [t for location in located.values() for t in location]


def group(title: str, location: str) -> str:
    return f"{title} · {LOCATION_LABELS[location]}" if title else LOCATION_LABELS[location]


def refs(unit: rules.Unit) -> list[tuple[rules.Mounted, str]]:
    """Each item with the name its tracks go by: its mount, or its place on the chassis card when integrated."""
    found, integrated = [], 0
    for m in unit.mounted:
        found.append((m, m.path if m.index is not None else f"integrated[{integrated}]"))
        integrated += m.index is None
    return found


def status_tracks(unit, fitted, attributes, stats, title) -> list[Track]:
    """The status boxes the card prints, each with the equipment it takes offline as its lines."""
    chassis = unit.chassis

    def names(keep) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m.item.name for m in fitted if keep(m.item)))

    flying = chassis.movement_type == "flying_vtol"
    pool = " ".join(emp_pool(chassis.actions))
    found = [Track("lock", "Lock held", title, rule="MM-C32",
                   note="+10 to ranged attacks on the locked target, or Tracking X instead (MM-C04, MM-C05); one lock "
                        "at a time (MM-R45); Visual needs a line of sight, Visual and Sensor reach 10 hexes (MM-C32).")]
    if "electronic_defence" not in attributes:
        found.append(Track("resistance", "Electronic Resistance", title, rule="MM-C33", resets="turn",
                           note=f"A utility action: Electronic Defence this turn, resisting locks, jamming and hacking "
                                f"with an opposed roll on E-War {stats['ewar'].value} (MM-C33)."))
    # Jamming's "sensors" read as the Sensor Equipment type (L1146), with the data links it disables.
    found.append(Track("jammed", "Jammed", title, rule="MM-C35", resets="turn",
                       lines=names(lambda i: "sensor" in i.types or any(a.name == "data_link" for a in
                                                                         getattr(i, "attributes", []))),
                       note="For one turn (MM-C35): locks lost and none made or used, no Tracking or Homing, data "
                            "links, sensors and hacking off."))
    found.append(Track("hacked", "Hacked", title, rule="MM-C34", lines=names(lambda i: i.sensitive_electronics),
                       note="Until a recovery action, which ends the turn (MM-C37, MM-A28: untick it then): Sensitive "
                            "Electronics unusable, no network benefits, a drone controller's drones act in the "
                            "hacker's mode (MM-C34)."))
    found.append(Track("emp", "EMP Shock", title, rule="MM-C36", facts={"flies": int(flying)},
                       lines=names(lambda i: i.requires_power or i.sensitive_electronics),
                       note="A flying unit crashes and is destroyed (MM-C36)." if flying else
                       f"Until a recovery action (MM-C37): action pool {pool} (MM-F20); Requires Power and Sensitive "
                       f"Electronics unusable (MM-C36)."))
    if "optical_stealth" in attributes and "beacon" not in attributes:  # a Beacon is never stealthy (MM-R39)
        found.append(Track("stealth", "Optical Stealth lost", title, rule="MM-C39", resets="turn",
                           note="Lost moving next to an enemy, an enemy ending its turn next to it, or attacking "
                                "without Silenced; back at the start of the next turn (MM-C39)."))
    return found


def item_tracks(m: rules.Mounted, ref: str, home: str, unit_type: str, where: str) -> list[Track]:
    item, found = m.item, []
    if isinstance(item, Weapon) and item.limited_ammo:
        found.append(Track(f"{home}.ammo.{ref}", f"{item.name} ammo", where, 0, item.limited_ammo, item.limited_ammo,
                           lines=(item.name,), rule="MM-R41",
                           note=f"Limited Ammo {item.limited_ammo}: {item.limited_ammo} uses a game (MM-R41)."))
    if isinstance(item, Weapon) and item.variable_ammo and m.ammo is None and unit_type != "mecha":
        names = tuple(p.name for p in item.profiles)
        found.append(Track(f"{home}.loaded.{ref}", f"{item.name} loaded", where, 0, len(names) - 1, 0, names,
                           lines=(item.name,), rule="MM-R09",
                           note="A tank or vehicle keeps every ammunition and swaps with a utility action (MM-R09)."))
    interceptor = attribute(getattr(item, "attributes", []), "interceptor")
    if interceptor:
        reach = "this unit only" if interceptor.y == 0 else f"targets within {interceptor.y} hexes"
        found.append(Track(f"{home}.intercepts.{ref}", f"{item.name} intercepts", where, 0, interceptor.x,
                           interceptor.x, lines=(item.name,), rule="MM-C38", resets="turn",
                           note=f"Negates up to {interceptor.x} Large Projectile shots a turn against {reach} "
                                f"(MM-C38)."))
    return found


def grid_tracks(layout, items, named, main: str, movement: int, commander: bool, where: str) -> list[Track]:
    """A grid as what its hexes hold: each special internal, each item's hexes and the empty hexes, counted lost.
    The player strikes hexes in the order the grid's type and the arc give (MM-C21); the count is what matters."""
    location, label = layout.location, layout.label
    kinds = [c.kind for c in layout.cells]
    found = []
    for kind in dict.fromkeys(k for k in kinds if k in SPECIALS):
        n = kinds.count(kind)
        note, rule = {
            "pilot": ("Lost: the mecha is destroyed (MM-C24).", "MM-C24"),
            "crew": (f"One lost: {'no Commander action' if commander else 'no effect yet'}; two lost: the unit is "
                     f"destroyed (MM-F13).", "MM-F13"),
            "leg_parts": (f"Each lost: Movement {movement} −1, repairable in the field; the whole Legs grid lost: "
                          f"Movement 1 for good (MM-F11).", "MM-F11"),
            "treads": (f"One lost: Movement {movement} −2; both: immobile; both repairable in the field (MM-F12).",
                       "MM-F12"),
        }[kind]
        found.append(count_track(f"{location}.grid.{kind}", f"{SPECIALS[kind]} lost" if n > 1 else SPECIALS[kind],
                                 where, n, note, rule, mark=2 if kind in ("crew", "treads") else None,
                                 options=ONE_SPECIAL))
    refs_of = {id(m): ref for m, ref in named}
    for m in items:
        size = m.item.size
        half = next(n for n in range(1, size + 1) if equipment_state(size, n) != "working")
        note = (f"{size} hexes: unusable at {half} lost, destroyed at {size}" if size > 1 else "Destroyed with its hex") \
            + "; damaged equipment can be repaired by some abilities, destroyed cannot (MM-F10, MM-C26)."
        found.append(count_track(f"{location}.grid.{refs_of[id(m)]}",
                                 f"{m.item.name} hexes lost" if size > 1 else m.item.name, where, size, note, "MM-F10",
                                 lines=(m.item.name,)))
    empty = kinds.count("empty")
    whole = "the unit is destroyed even with HP left (MM-C24)" if location == main else \
        f"the {label} is blasted off, and internal damage to it goes to the {LOCATION_LABELS[main]} (MM-C23)"
    if empty:
        found.append(count_track(f"{location}.grid.empty", "Empty hexes lost", where, empty,
                                 f"{layout.hexes} hexes on {GRID_TYPES[layout.type]}; each point of internal damage "
                                 f"destroys one (MM-C21). All lost: {whole}.", "MM-C21"))
    return found


def count_track(key, label, where, n, note, rule, lines=(), mark=None, options=ONE_HEX) -> Track:
    """Hexes lost of `n`; a single hex is a choice, so the log says what became of it."""
    return Track(key, label, where, 0, n, 0, options if n == 1 else (), note, rule, mark, tuple(lines))


# --- what follows from a unit's state -----------------------------------------------------------------------------

@dataclass
class Reading:
    said: list[Consequence]
    out: set[str]  # the items out of action, by their ref (mounts[2], integrated[0])
    destroyed: bool


def place(key: str) -> tuple[str, str, str] | None:
    """(location, what, which) of a location's track ("legs", "grid", "leg_parts"), else None."""
    location, _, rest = key.partition(".")
    what, _, which = rest.partition(".")
    return (location, what, which) if location in LOCATION_LABELS and which else None


def read(tracks: list[Track], state: Mapping[str, int]) -> Reading:
    value = {t.key: state.get(t.key, t.start) for t in tracks}
    keyed = {t.key: t for t in tracks}
    grids: dict[str, list[Track]] = {}
    at: dict[str, list[Track]] = {}
    of_ref: dict[str, list[Track]] = {}
    for t in tracks:
        found = place(t.key)
        if found is None:
            continue
        location, what, which = found
        at.setdefault(location, []).append(t)
        if what == "grid":
            grids.setdefault(location, []).append(t)
        if which not in SPECIALS and which != "empty":
            of_ref.setdefault(which, []).append(t)
    name = {ref: ts[0].lines[0] for ref, ts in of_ref.items()}
    main = next((loc for loc in grids if loc in rules.MAIN_GRID), next(iter(grids), None))
    fatal: list[tuple[str, str, tuple[str, ...]]] = []
    said: list[Consequence] = []
    out: dict[str, str] = {}

    def lost(kind: str) -> tuple[int, list[str]]:
        ts = [t for ts in grids.values() for t in ts if t.key.endswith(f".grid.{kind}")]
        return sum(value[t.key] for t in ts), [t.key for t in ts]

    def offline(refs_: list[str], rule: str) -> tuple[str, ...]:
        for ref in refs_:
            out.setdefault(ref, rule)
        # An offline item's hex track greys with it; its hexes still count towards its grid.
        return tuple(t.key for ref in refs_ for t in of_ref[ref])

    hp = keyed.get("hp")
    if hp is not None and value["hp"] <= 0:
        fatal.append(("MM-C24", f"HP 0 of {hp.high}: the unit can no longer fight (MM-C24).", ("hp",)))
    lost_locations = set()
    for location, grid in grids.items():
        total, gone = sum(t.high for t in grid), sum(value[t.key] for t in grid)
        if gone < total:
            continue
        label = LOCATION_LABELS[location]
        if location == main:  # MM-A23 reading: the whole grid is the Torso's or Hull's; the others are limbs
            fatal.append(("MM-C24", f"The {label} grid is destroyed ({total} of {total} hexes): the unit is destroyed "
                                    f"even with HP left (MM-C24).", tuple(t.key for t in grid)))
            continue
        lost_locations.add(location)
        here = [ref for ref in of_ref if any(t in at[location] for t in of_ref[ref])]
        offline(here, "MM-C23")
        items = ", ".join(dict.fromkeys(name[r] for r in here)) or "nothing mounted"
        where = f"; internal damage to it goes to the {LOCATION_LABELS[main]}" if main else ""
        said.append(Consequence("MM-C23", f"{label} destroyed ({total} of {total} hexes): {items} lost with it"
                                          f"{where} (MM-C23).", "warning", tuple(t.key for t in at[location])))
        if location == "legs":
            said.append(Consequence("MM-F11", "Legs grid destroyed: Movement 1 for good, not repairable (MM-F11).",
                                    "warning", tuple(lost("leg_parts")[1])))
    pilot, keys = lost("pilot")
    if pilot:
        fatal.append(("MM-C24", "Pilot lost: the mecha is destroyed (MM-C24).", tuple(keys)))
    crew, keys = lost("crew")  # MM-F13 names tanks; read for every unit with Crew hexes (a VTOL's too)
    if crew >= 2:
        fatal.append(("MM-F13", f"{crew} Crew lost: no longer combat effective, the unit is destroyed (MM-F13).",
                      tuple(keys)))
    elif crew == 1:
        commander = "commander" in keyed
        said.append(Consequence("MM-F13", "1 Crew lost: " + ("no Commander action (MM-F13)." if commander else
                                                             "one more and the unit is destroyed (MM-F13)."),
                                "warning", ("commander",) if commander else ()))
    legs, _ = lost("leg_parts")
    if legs and "legs" not in lost_locations:
        said.append(Consequence("MM-F11", f"{legs} Leg Parts lost: Movement −{legs}, repairable in the field "
                                          f"(MM-F11).", "warning"))
    treads, _ = lost("treads")
    if treads:
        said.append(Consequence("MM-F12", "Both Treads lost: immobile (MM-F12)." if treads >= 2 else
                                "1 Tread lost: Movement −2, repairable in the field (MM-F12).", "warning"))
    for ref, ts in of_ref.items():
        hexes = next((t for t in ts if ".grid." in t.key), None)
        if hexes is None or ref in out:
            continue
        condition = equipment_state(hexes.high, value[hexes.key])  # MM-A17: half rounded up
        if condition != "working":
            greys = offline([ref], "MM-F10")
            after = "it cannot be repaired" if condition == "destroyed" else "until repaired"
            said.append(Consequence("MM-F10", f"{name[ref]}: {value[hexes.key]} of {hexes.high} hex"
                                              f"{'es' if hexes.high > 1 else ''} lost, {condition}, {after} (MM-F10).",
                                    "warning", greys))
    said += statuses(keyed, value, of_ref, name, offline, fatal)
    for ref, ts in of_ref.items():
        ammo = next((t for t in ts if ".ammo." in t.key), None)
        if ammo is not None and value[ammo.key] <= 0:
            greys = offline([ref], "MM-R41")
            said.append(Consequence("MM-R41", f"{name[ref]}: Limited Ammo spent, all {ammo.high} uses (MM-R41).",
                                    "info", greys))
    deployed = keyed.get("drones.deployed")
    if deployed is not None:
        # Only damage takes a controller away; a hacked one hands its drone to the hacker instead (MM-C34).
        broken = sum(1 for ref, rule in out.items() if name[ref] in deployed.lines and rule in ("MM-F10", "MM-C23"))
        working, active = len(deployed.lines) - broken, value[deployed.key]
        if active > working:
            said.append(Consequence("MM-R13", f"{active} drone{'s' if active != 1 else ''} deployed, {working} "
                                              f"working Drone Controller{'s' if working != 1 else ''}: one active "
                                              f"drone each (MM-R13).", "warning", (deployed.key,)))
    causes = {key for _, _, keys in fatal for key in keys}
    ends = [Consequence(rule, message, "error", tuple(t.key for t in tracks if t.key not in causes))
            for rule, message, _ in fatal]
    return Reading(ends + said, set(out), bool(fatal))


def statuses(keyed, value, of_ref, name, offline, fatal) -> list[Consequence]:
    said = []
    special = " F" if "focus" in keyed else " C" if "commander" in keyed else ""
    for key, rule in (("emp", "MM-C36"), ("hacked", "MM-C34"), ("jammed", "MM-C35")):
        box = keyed.get(key)
        if box is None or not value[key]:
            continue
        if box.facts.get("flies"):  # a flying unit: EMP Shock is its end
            fatal.append(("MM-C36", "EMP Shock: a flying unit crashes and is destroyed (MM-C36).", (key,)))
            continue
        greys = offline([ref for ref in of_ref if name[ref] in box.lines], rule)
        items = ", ".join(box.lines) or "no equipment"
        message = {
            "emp": f"EMP Shock until a recovery action: action pool W{special} (MM-F20); {items} unusable (MM-C36).",
            "hacked": f"Hacked until a recovery action: {items} unusable, no network benefits"
                      f"{'; deployed drones act in the hacker' + chr(39) + 's mode' if 'drones.deployed' in keyed else ''}"
                      f" (MM-C34).",
            "jammed": f"Jammed this turn: no lock, Tracking or Homing; {items} off (MM-C35).",
        }[key]
        said.append(Consequence(rule, message, "warning", greys + (("lock",) if key == "jammed" else ())))
    return said


def unit_consequences(tracks: list[Track], state: Mapping[str, int]) -> list[Consequence]:
    return read(tracks, state).said


def unit_played(document: dict[str, Any], tracks: list[Track], state: Mapping[str, int]) -> dict[str, Any]:
    """The unit with what no longer works taken off its hard-points (destroyed, unusable, offline or out of ammo),
    and nothing mounted once it is destroyed. An integrated item is on the chassis card, not in the document: it
    stays in the preview whatever its state."""
    reading = read(tracks, state)
    mounts = document.get("mounts") or []
    kept = [] if reading.destroyed else [dict(m) for i, m in enumerate(mounts) if f"mounts[{i}]" not in reading.out]
    return {**document, "mounts": kept}


# --- a company: its written-in units, drones, infantry and aircraft -----------------------------------------------

def company_tracks(build: Any, catalogue, report, linked) -> list[Track]:
    found = []
    roster = report.detail.roster
    for u, entry in enumerate(build.units):
        if entry.unit is None:
            continue  # a saved unit has its own section (builder.table)
        document = UnitBuild(pack=catalogue.pack, extensions=list(catalogue.extensions), name=entry.unit.name,
                             chassis=entry.unit.chassis, mounts=entry.unit.mounts)
        unit = rules.resolve(document, catalogue)
        title = f"{entry.unit.name} ({u + 1})"
        found += [replace(t, key=f"units[{u}].{t.key}")
                  for t in tracks_of(unit, rules.validate(document, catalogue), title, drones=False)]
    for d, entry in enumerate(build.drones):
        drone = catalogue.items[entry.drone]
        carrier = roster[entry.controller] if entry.controller < len(build.units) else None
        where = f"Drones of {carrier.name} ({entry.controller + 1})" if carrier else "Drones"
        label = f"{drone.name} #{d + 1}"
        options = ("Deployed",) + (("Docked",) if drone.size == "small" else ()) + \
            (("Crashed",) if drone.flying else ("Shut down",))
        found.append(Track(f"drones[{d}].status", label, where, 0, len(options) - 1,
                           options.index("Docked") if entry.docked else 0, options, lines=(label,), rule="MM-R13",
                           mark=carrier.controllers if carrier else None,
                           note=f"One active drone per controller: {carrier.controllers if carrier else 0} on its "
                                f"carrier (MM-R13); docked it is inactive and cannot be targeted (MM-R14). EMP shuts a "
                                f"drone down until an adjacent ally's utility action, and a flying one crashes "
                                f"(MM-C36)."))
        found.append(Track(f"drones[{d}].hp", f"{label} HP", where, 0, drone.hp, drone.hp, lines=(label,),
                           rule="MM-C24", note=f"DR {drone.dr}; at 0 it can no longer fight (MM-C24)."))
        if drone.ish:  # reading: a small drone with ISH keeps its HP too; either at 0 ends it (MM-R18, L664)
            found.append(Track(f"drones[{d}].ish", f"{label} ISH", where, 0, drone.ish, drone.ish, lines=(label,),
                               rule="MM-R18", note="Infantry scale health (MM-R18): each small-arms hit takes 1 (MM-F25)."))
    for i, entry in enumerate(build.infantry):
        squad = catalogue.items[entry.item]
        for n in range(entry.count):
            label = squad.name + (f" {n + 1}" if entry.count > 1 else "")
            found.append(Track(f"infantry[{i}][{n}].members", f"{label} members", "Infantry", 0, squad.members,
                               squad.members, lines=(label,), rule="MM-R17",
                               note=f"Up to 6 in one hex (MM-R17); at 0 the squad is gone. Each member has ISH {squad.ish}, 1 lost "
                                    f"a small-arms hit (MM-F25); any other "
                                    f"damage of 1 or more kills outright (MM-C45). Blast save "
                                    f"{min(60, squad.blast_resistance)} +10 a cover point, at most 60 (MM-F16); CQC "
                                    f"{squad.cqc}, each success a casualty (MM-C48)."))
    for a, entry in enumerate(build.aircraft):
        plane = catalogue.items[entry.item]
        for n in range(entry.count):
            label = plane.name + (f" {n + 1}" if entry.count > 1 else "")
            found.append(Track(f"aircraft[{a}][{n}].ahp", f"{label} AHP", "Support aircraft", 0, plane.ahp, plane.ahp,
                               lines=(label,), rule="MM-C50",
                               note=f"Each AA or dogfight success against it takes 1 AHP; Agility {plane.agility}, "
                                    f"E-War {plane.ewar} (MM-C50)."))
    return found


def company_consequences(tracks: list[Track], state: Mapping[str, int]) -> list[Consequence]:
    said: list[Consequence] = []
    units: dict[str, list[Track]] = {}
    for t in tracks:
        found = UNIT_KEY.match(t.key)
        if found:
            units.setdefault(found.group(1), []).append(t)
    for prefix, own in units.items():
        cut = len(prefix) + 1
        inner = [replace(t, key=t.key[cut:]) for t in own]
        for c in read(inner, {t.key[cut:]: state[t.key] for t in own if t.key in state}).said:
            said.append(replace(c, message=f"{own[0].group}: {c.message}",
                                greys=tuple(f"{prefix}.{k}" for k in c.greys)))
    return said + roster_consequences([t for t in tracks if ROSTER_KEY.match(t.key)], state)


def roster_consequences(tracks: list[Track], state: Mapping[str, int]) -> list[Consequence]:
    value = {t.key: state.get(t.key, t.start) for t in tracks}
    members: dict[str, dict[str, Track]] = {}
    for t in tracks:
        who, field = ROSTER_KEY.match(t.key).groups()
        members.setdefault(who, {})[field] = t
    said, active = [], {}
    for who, fields in members.items():
        status = fields.get("status")
        if status is not None:
            name, choice = status.lines[0], status.options[value[status.key]]
            spent = [f for f in ("hp", "ish") if f in fields and value[fields[f].key] <= 0]
            if spent or choice == "Crashed":
                rule = "MM-C36" if choice == "Crashed" else "MM-R18" if spent[0] == "ish" else "MM-C24"
                why = "crashed under EMP" if choice == "Crashed" else f"{spent[0].upper()} 0"
                said.append(Consequence(rule, f"{name}: {why}, destroyed ({rule}).", "warning",
                                        tuple(t.key for f, t in fields.items() if f not in spent)))
                continue
            if choice == "Shut down":
                said.append(Consequence("MM-C36", f"{name} is shut down: an adjacent ally's utility action "
                                                  f"reactivates it (MM-C36).", "info"))
            if choice == "Deployed":
                active.setdefault(status.group, []).append(status)
        for field, rule, end in (("members", "MM-R17", "wiped out"), ("ahp", "MM-C50", "lost")):
            t = fields.get(field)
            if t is not None and value[t.key] <= 0:
                said.append(Consequence(rule, f"{t.lines[0]}: {field.upper() if field == 'ahp' else 'no members'} "
                                              f"left, {end} ({rule}).", "warning", (t.key,)))
    for where, deployed in active.items():
        room = deployed[0].mark
        if room is not None and len(deployed) > room:
            said.append(Consequence("MM-R13", f"{where}: {len(deployed)} drones deployed with {room} controller"
                                              f"{'s' if room != 1 else ''}: one active drone each (MM-R13).",
                                    "warning"))
    return said


UNIT = Tabletop(unit_tracks, unit_consequences, unit_played)
COMPANY = Tabletop(company_tracks, company_consequences, None,
                   played_note="A company has no combat preview; each saved unit's table feeds its own.")
