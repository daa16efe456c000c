"""MEGA MERCS 2028 unit rules: hard-points (MM-R01 to MM-R11), the internals grids (MM-R15), stacking (MM-R21 to
MM-R27), capabilities (MM-R37 to MM-R40) and credits (MM-R20), in one pass over the finished unit."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base import BuildError, Catalogue, Detail, Meter, Report, Stat, pack_problems, parse_as
from ..house_rules import load, setting
from .schema import (
    EDGES,
    HARDPOINT_TYPE_LABELS,
    LOCATION_LABELS,
    MOVEMENT_TYPES,
    Bonus,
    Chassis,
    Equipment,
    Hardpoint,
    UnitBuild,
    Weapon,
)

OPTIONS = load(Path(__file__).parent / "data")
ATTACK_ACTIONS = frozenset({"A", "A/U", "A/M", "W"})
MAIN_GRID = ("torso", "hull")  # where an item off its location's grid sits (MM-A19 reading)
EDGE_LABELS = {"front": "Front", "front_right": "Front right", "rear_right": "Rear right", "rear": "Rear",
               "rear_left": "Rear left", "front_left": "Front left", "top": "Top"}


@dataclass(slots=True)
class Mounted:
    """One item on the unit: mounted on a hard-point (`index` into the build's mounts) or integrated."""

    item: Weapon | Equipment
    hardpoint: Hardpoint | None  # None: integrated (MM-R05)
    index: int | None = None
    ammo: str | None = None

    @property
    def path(self) -> str:
        return f"mounts[{self.index}]" if self.index is not None else "chassis"

    @property
    def location(self) -> str | None:
        return self.hardpoint.location if self.hardpoint else None


@dataclass(slots=True)
class Unit:
    name: str
    chassis: Chassis
    mounted: list[Mounted]
    house_rules: dict[str, Any] = field(default_factory=dict)

    @property
    def weapons(self) -> list[Mounted]:
        return [m for m in self.mounted if isinstance(m.item, Weapon)]

    @property
    def equipment(self) -> list[Mounted]:
        return [m for m in self.mounted if isinstance(m.item, Equipment)]

    def attributes(self) -> dict[str, tuple[Any, str]]:
        """Every unit attribute (Beacon, ECM, Sensor Lock, ...) with the best value and what grants it."""
        found: dict[str, tuple[Any, str]] = {}
        sources = [(self.chassis.name, self.chassis.attributes)] + [(m.item.name, m.item.attributes)
                                                                     for m in self.equipment]
        for name, attributes in sources:
            for a in attributes:
                best = found.get(a.name)
                if best is None or (a.x or 0) > (best[0].x or 0):
                    found[a.name] = (a, name)
        return found


@dataclass(slots=True)
class ProfileLine:
    """One attack profile (or the chosen ammunition, MM-R09) as the weapons list prints it."""

    name: str
    accuracy: int
    range: int | str  # hexes, or "melee"
    rof: int
    damage: int
    damage_type: str  # in words: "small arms"
    internal: int
    penetration: int
    attributes: list[str]  # their labels


@dataclass(slots=True)
class WeaponLine:
    """A weapon the unit fields, where it sits and its profiles."""

    path: str  # the mount, or "chassis" when integrated
    name: str
    size: int
    types: str  # its type symbols, in words
    location: str  # the location's label, or "integrated"
    cost: int
    ammo: str | None  # a mecha's chosen ammunition (MM-R09)
    limited: int | None  # Limited Ammo: uses a game (MM-R41)
    variable_ammo: bool
    profiles: list[ProfileLine]


@dataclass(slots=True)
class HardpointLine:
    """A hard-point, what it takes and what it holds (MM-R02 to MM-R04), fitted or not."""

    key: str
    name: str
    size: int
    types: str  # its type symbols, in words
    location: str  # the location's label
    pintle: bool
    coaxial: bool
    items: list[str]  # the names of what it mounts
    free: int  # size left; below 0 when overfull (MM-R03)


@dataclass(slots=True)
class GridCell:
    """One hex of an internals grid."""

    kind: str  # "pilot", "crew", "leg_parts", "treads", "item" or "empty"
    label: str  # the special internal or item in words; "" when empty


@dataclass(slots=True)
class GridLayout:
    """An internals grid (MM-R15) with its hexes in the order damage takes them, last first (MM-A19 reading)."""

    location: str
    label: str  # the location's label
    type: str  # "track", "bi_directional" or "radial"
    hexes: int
    cells: list[GridCell]


@dataclass(slots=True)
class UnitDetail(Detail):
    # Items mounted where they do not fit, each with its rule (MM-R02, MM-R04, MM-R06): they count for nothing.
    not_counted: list[str] = field(default_factory=list)
    dr: dict[str, int] = field(default_factory=dict)  # Damage Reduction by hex edge and "top", bonuses stacked (MM-F03)
    docking: int = 0  # small drones the equipment docks (MM-R14)
    weapons: list[WeaponLine] = field(default_factory=list)  # the weapons that count, integrated ones first
    hardpoints: list[HardpointLine] = field(default_factory=list)  # the chassis card's, in its order
    grids: list[GridLayout] = field(default_factory=list)  # MM-R15: what fills each internals grid


def parse(document: Any) -> UnitBuild:
    return parse_as(UnitBuild, document)


def resolve(build: UnitBuild, catalogue: Catalogue, path: str = "") -> Unit | None:
    """Look up the chassis and every mounted item; unknown keys are BuildErrors. None while no chassis is picked."""
    problems = pack_problems(build, catalogue) if not path else []
    chassis = catalogue.items.get(build.chassis) if build.chassis else None
    if build.chassis and not isinstance(chassis, Chassis):
        problems.append({"path": f"{path}chassis", "message": f"'{build.chassis}' is not a chassis in {catalogue.pack}"})
    hardpoints = {h.key: h for h in chassis.hardpoints} if isinstance(chassis, Chassis) else {}
    mounted = []
    for index, mount in enumerate(build.mounts):
        item = catalogue.items.get(mount.item)
        if not isinstance(item, (Weapon, Equipment)):
            problems.append({"path": f"{path}mounts[{index}].item",
                             "message": f"'{mount.item}' is not a weapon or equipment in {catalogue.pack}"})
        elif chassis is not None and mount.hardpoint not in hardpoints:
            problems.append({"path": f"{path}mounts[{index}].hardpoint",
                             "message": f"the {chassis.name} has no hard-point '{mount.hardpoint}'; it has "
                                        f"{', '.join(hardpoints) or 'none'}"})
        else:
            mounted.append(Mounted(item, hardpoints.get(mount.hardpoint), index, mount.ammo))
    if problems:
        raise BuildError(problems)
    if chassis is None:
        return None
    integrated = [Mounted(catalogue.items[key], None) for key in chassis.integrated
                  if isinstance(catalogue.items.get(key), (Weapon, Equipment))]
    return Unit(build.name, chassis, integrated + mounted, dict(build.house_rules))


def validate(build: Any, catalogue: Catalogue) -> Report:
    report = Report(detail=UnitDetail())
    unit = resolve(parse(build), catalogue)
    if unit is None:
        report.add("MM-R01", "error", "chassis", "No chassis picked yet.", "Pick a mecha, tank, vehicle or VTOL.")
        return report
    check(unit, report)
    derive(fitted(unit, report), report, unit)
    return report


# The rules that say an item cannot be mounted where it is: such an item counts for nothing (no bonus, no
# attribute, no drone control, no weapon) until it is mounted where it fits, and is named beside the stats.
PLACEMENT_RULES = ("MM-R02", "MM-R04", "MM-R06")


def fitted(unit: Unit, report: Report) -> Unit:
    """The unit as it can be fielded: without the items a placement rule refuses where they are mounted."""
    refused = {issue.path: issue.code for issue in report.errors if issue.code in PLACEMENT_RULES}
    left = [m for m in unit.mounted if m.index is not None and m.path in refused]
    report.detail.not_counted = [f"{m.item.name} not counted: {refused[m.path]}" for m in left]
    if left:
        report.stats["not_counted"] = Stat("Not counted", ", ".join(f"{m.item.name} ({refused[m.path]})" for m in left),
                                           "mounted where it does not fit: no bonus, attribute, drone control or "
                                           "attack until it is moved (its price is paid all the same)")
    return Unit(unit.name, unit.chassis, [m for m in unit.mounted if m not in left], unit.house_rules)


def check(unit: Unit, report: Report) -> None:
    check_hardpoints(unit, report)
    check_grids(unit, report)
    check_weapons(unit, report)
    check_capabilities(unit, report)


# --- hard-points (MM-R02 to MM-R08) ----------------------------------------------------------

def types_label(types) -> str:
    return " / ".join(HARDPOINT_TYPE_LABELS[t] for t in types)


def check_hardpoints(unit: Unit, report: Report) -> None:
    chassis = unit.chassis
    present = {m.item.key for m in unit.mounted if m.hardpoint is None}
    for key in chassis.integrated:
        if key not in present:  # MM-R05: an integrated item is always there, so one the pack lacks is an error
            report.add("MM-R05", "error", "chassis",
                       f"The {chassis.name} card lists integrated '{key}', which is no weapon or equipment in the pack.",
                       "Add the item to the pack, or take it off the card.")
    for m in unit.mounted:
        if m.hardpoint is None:
            continue
        hp, item = m.hardpoint, m.item
        if item.specialist_for and chassis.key not in item.specialist_for:
            report.add("MM-R06", "error", m.path, f"{item.name} is a Specialist Item made for another unit.",
                       "Mount it only on the unit its card names.")
        elif not set(item.types) & set(hp.types):
            report.add("MM-R02", "error", m.path,
                       f"{item.name} ({types_label(item.types)}) shares no type symbol with the {hp.name} hard-point "
                       f"({types_label(hp.types)}).", "Take it off and mount it on a hard-point with one of its symbols.")
        if item.size > hp.size:
            report.add("MM-R04", "error", m.path,
                       f"{item.name} is size {item.size}; the {hp.name} hard-point is size {hp.size}.",
                       "Mount it on a larger hard-point.")
    for hp in chassis.hardpoints:
        used = sum(m.item.size for m in unit.mounted if m.hardpoint is hp)
        if used > hp.size:
            report.add("MM-R03", "error", f"hardpoints.{hp.key}",
                       f"The {hp.name} hard-point holds items of size {used} in {hp.size}.",
                       f"Free {used - hp.size}: move or remove an item.")
        if hp.pintle and "C" not in chassis.actions and any(m.hardpoint is hp for m in unit.weapons):
            report.add("MM-R08", "warning", f"hardpoints.{hp.key}",
                       f"The {hp.name} hard-point is a Pintle Mount, but the {chassis.name} has no Commander action to "
                       f"fire it with.", "Fire it with an attack action, or mount it elsewhere.")


# --- internals grids (MM-R15) ----------------------------------------------------------------

def grid_of(unit: Unit, m: Mounted) -> str | None:
    """MM-A19 reading: an item sits in its hard-point's location grid, or the main grid (Torso or Hull); a table
    may put every item in the main grid (house rule "grid-placement")."""
    chassis = unit.chassis
    by_location = setting(OPTIONS, unit, "grid-placement") == "location"
    if by_location and m.location and chassis.grid(m.location):
        return m.location
    return next((g.location for g in chassis.grids if g.location in MAIN_GRID), chassis.grids[0].location)


def grid_contents(unit: Unit) -> dict[str, list[Mounted]]:
    contents: dict[str, list[Mounted]] = {g.location: [] for g in unit.chassis.grids}
    for m in unit.mounted:
        if m.item.on_grid:
            contents[grid_of(unit, m)].append(m)
    return contents


def check_grids(unit: Unit, report: Report) -> None:
    for location, items in grid_contents(unit).items():
        grid = unit.chassis.grid(location)
        used = sum(m.item.size for m in items) + sum(grid.special.values())
        if used > grid.hexes:
            report.add("MM-R15", "error", f"grids.{location}",
                       f"The {LOCATION_LABELS[location]} grid has {grid.hexes} hexes; its special internals and "
                       f"equipment take {used}.", "Move equipment to another location or fit a smaller item.")


# --- weapons: ammunition, linked pairs, melee focus (MM-R09 to MM-R11) -------------------------

def check_weapons(unit: Unit, report: Report) -> None:
    mecha = unit.chassis.unit_type == "mecha"
    for m in unit.weapons:
        weapon = m.item
        names = [p.name for p in weapon.profiles]
        if weapon.variable_ammo and mecha and m.hardpoint is not None:
            if m.ammo is None:
                report.add("MM-R09", "error", m.path,
                           f"{weapon.name} takes variable ammunition: a mecha chooses one for the whole game.",
                           f"Choose one of {', '.join(names)}.")
            elif m.ammo not in names:
                report.add("MM-R47", "error", m.path, f"{weapon.name} has no ammunition '{m.ammo}'.",
                           f"Choose one of {', '.join(names)}.")
        elif m.ammo is not None:
            report.add("MM-R09", "info", m.path,
                       f"{weapon.name}: only a mecha's variable-ammo weapon records an ammunition; "
                       f"{'a ' + unit.chassis.unit_type + ' swaps with a utility action' if weapon.variable_ammo else 'this one has none'}.",
                       "Clear the ammunition.")
    linked = [m for m in unit.weapons if any(a.name == "linked" for p in m.item.profiles for a in p.attributes)]
    by_type = setting(OPTIONS, unit, "linked-pairs") == "type"
    for m in linked:
        # MM-A08 reading: a linked pair is two weapons of the same name (L883, L1038), or of the same type (L875).
        if not any(o is not m and (set(o.item.types) == set(m.item.types) if by_type else o.item.name == m.item.name)
                   for o in linked):
            report.add("MM-R10", "warning", m.path,
                       f"{m.item.name} is Linked but has no partner of the same {'type' if by_type else 'name'}: "
                       f"the linked bonus is unusable.",
                       "Mount a second one.")
        elif not mecha:
            report.add("MM-R10", "info", m.path, f"Linked fire is a mecha's (Fire Control Focus); the "
                                                 f"{unit.chassis.name} fires {m.item.name} singly.")
            break
    if mecha:
        arms = {m.location for m in unit.weapons if is_melee(m.item)}
        melee = [m for m in unit.weapons if is_melee(m.item)]
        if len(melee) >= 2 and not {"left_arm", "right_arm"} <= arms:
            report.add("MM-R11", "warning", melee[1].path,
                       "Melee Focus swings two melee weapons only from opposite arms; these are not.",
                       "Mount one melee weapon on each arm.")


def is_melee(weapon: Weapon) -> bool:
    return any(p.range == "melee" for p in weapon.profiles)


# --- capabilities (MM-R37 to MM-R40) ---------------------------------------------------------

STEALTH = ("optical_stealth", "signature_dampening")
EWAR_GRANTS = {"ecm": "Hacking, Jamming", "data_link": "Network", "network_defence": "Network defence"}


def check_capabilities(unit: Unit, report: Report) -> None:
    attributes = unit.attributes()
    if "beacon" in attributes:
        for name in STEALTH:
            if name in attributes:
                report.add("MM-R39", "warning", "chassis",
                           f"{attributes['beacon'][1]} is a Beacon: the unit cannot benefit from "
                           f"{attributes[name][0].label} ({attributes[name][1]}).", "Drop one of the two.")
    needs_lock = [m for m in unit.weapons if any(a.name in ("homing", "tracking") for p in m.item.profiles
                                                  for a in p.attributes)]
    if unit.chassis.movement_type == "flying_vtol":
        report.add("MM-R38", "info", "chassis", "A flying unit cannot benefit from cover, suffers no attacks of "
                                                "opportunity, is safe from indirect blasts, and crashes under EMP shock.")
    if needs_lock and "sensor_lock" not in attributes and not any(m.item.marker for m in unit.equipment):
        report.add("MM-R40", "info", needs_lock[0].path,
                   f"{needs_lock[0].item.name} needs a lock: without sensor-lock or target-marker equipment only a "
                   f"Visual lock (LoS, 10 hexes) serves it.")
    if "network_defence" in attributes and "data_link" not in attributes:
        report.add("MM-R40", "warning", "chassis",
                   f"{attributes['network_defence'][1]} lends its E-War to the network, but the unit has no data link "
                   f"to join one.", "Mount a data link, or drop the network defence.")


# --- derived stats (MM-R21 to MM-R28, MM-R20) --------------------------------------------------

def stacked(sources: list[tuple[str, Bonus]]) -> tuple[int, str]:
    """MM-F03: per source the highest bonus and the worst penalty, then the sources added (MM-R21 to MM-R26)."""
    total, said = 0, []
    for source in dict.fromkeys(b.source for _, b in sources):
        mine = [(name, b.value) for name, b in sources if b.source == source]
        for chosen in (max((v for _, v in mine if v > 0), default=None), min((v for _, v in mine if v < 0), default=None)):
            if chosen is None:
                continue
            winner = next(name for name, v in mine if v == chosen)
            dropped = [f"{name} {v:+d}" for name, v in mine if (v > 0) == (chosen > 0) and name != winner]
            total += chosen
            said.append(f"{winner} {chosen:+d} ({source}{'; ' + ', '.join(dropped) + ' dropped' if dropped else ''})")
    return total, "; ".join(said)


def bonuses(unit: Unit, stat: str) -> list[tuple[str, Bonus]]:
    found = [(unit.chassis.name, b) for b in unit.chassis.bonuses if b.stat == stat]
    return found + [(m.item.name, b) for m in unit.equipment for b in m.item.bonuses if b.stat == stat]


def credits(unit: Unit) -> tuple[int, str]:
    """MM-F22: the chassis and every mounted item; integrated items are in the chassis price (MM-A21 reading),
    unless the table adds their own prices."""
    added = setting(OPTIONS, unit, "integrated-cost") == "added"
    items = [m for m in unit.mounted if m.hardpoint is not None or added]
    total = unit.chassis.cost + sum(m.item.cost for m in items)
    return total, f"chassis {unit.chassis.cost}" + "".join(f" + {m.item.name} {m.item.cost}" for m in items if m.item.cost)


def derive(unit: Unit, report: Report, paid: Unit | None = None) -> None:
    """The unit's stats from what is fitted (`unit`); its price from everything bought (`paid`, the same unit by
    default: an item mounted where it does not fit is paid for all the same)."""
    chassis, stats = unit.chassis, report.stats
    stats["chassis"] = Stat("Chassis", chassis.name, f"{chassis.role}; {chassis.unit_type}")
    stats["hp"] = Stat("HP", chassis.hp, "the chassis card")
    for stat, label, base in (("agility", "Agility", chassis.agility), ("movement", "Movement", chassis.movement),
                              ("vision", "Vision", chassis.vision), ("ewar", "E-War", chassis.ewar)):
        bonus, explain = stacked(bonuses(unit, stat))
        if base is None:
            stats[stat] = Stat(label, "—", "cannot evade" if stat == "agility" else "")
            continue
        value = base + bonus
        stats[stat] = Stat(label, value, f"chassis {base}" + (f"; {explain}" if explain else ""),
                           "hexes" if stat in ("movement", "vision") else "")
    kind, terrain = MOVEMENT_TYPES[chassis.movement_type]
    stats["movement_type"] = Stat("Movement type", kind, terrain)
    accuracy, explain = stacked(bonuses(unit, "accuracy"))
    stats["accuracy"] = Stat("Accuracy bonus", f"{accuracy:+d}", explain or "no equipment or ability bonus")
    dr_bonus, dr_explain = stacked(bonuses(unit, "dr"))
    report.detail.dr = {edge: getattr(chassis.dr, edge) + dr_bonus for edge in (*EDGES, "top")}
    stats["dr"] = Stat("Damage Reduction", " / ".join(f"{report.detail.dr[e]}" for e in (*EDGES, "top")),
                       "front, front right, rear right, rear, rear left, front left, top: chassis "
                       + "/".join(str(getattr(chassis.dr, e)) for e in (*EDGES, "top"))
                       + (f"; {dr_explain} on every edge" if dr_explain else ""))
    attack_actions = sum(a in ATTACK_ACTIONS for a in chassis.actions)
    pintle = "C" in chassis.actions and any(m.hardpoint and m.hardpoint.pintle for m in unit.weapons)
    stats["attacks"] = Stat("Attacks a turn", min(attack_actions + pintle, len(unit.weapons)),
                            f"{attack_actions} attack-capable actions{' and the Commander firing the Pintle Mount' if pintle else ''}, "
                            f"{len(unit.weapons)} weapons; each weapon fires once a turn (MM-R28)")
    whole = paid or unit  # what is bought and takes room, fitted or not
    total, explain = credits(whole)
    stats["credits"] = Stat("Credits", total, explain, "cr")
    derive_capabilities(unit, report)
    report.detail.weapons = [weapon_line(m) for m in unit.weapons]
    report.detail.hardpoints = [HardpointLine(hp.key, hp.name, hp.size, types_label(hp.types),
                                              LOCATION_LABELS[hp.location], hp.pintle, hp.coaxial,
                                              [m.item.name for m in whole.mounted if m.hardpoint is hp],
                                              hp.size - sum(m.item.size for m in whole.mounted if m.hardpoint is hp))
                                for hp in chassis.hardpoints]
    for line in report.detail.hardpoints:
        report.meters.append(Meter(f"hp-{line.key}", f"{line.name} hard-point", line.size - line.free,
                                   line.size, "", f"hardpoints.{line.key}"))
    report.detail.grids = grid_layouts(whole)


def derive_capabilities(unit: Unit, report: Report) -> None:
    attributes = unit.attributes()
    locks = ["Visual"] + (["Sensor"] if "sensor_lock" in attributes else []) + (
        ["Marker"] if any(m.item.marker for m in unit.equipment) else [])
    report.stats["locks"] = Stat("Locks", ", ".join(locks), "Visual needs LoS within 10 hexes; Sensor and Marker "
                                                           "come from equipment (MM-R40)")
    # MM-R40: hacking and jamming come from ECM, the network from a data link; resisting is every unit's action.
    given = [(actions, attributes[name][1]) for name, actions in EWAR_GRANTS.items() if name in attributes]
    report.stats["ewar_actions"] = Stat("E-War actions", ", ".join(["Electronic Resistance"] + [a for a, _ in given]),
                                        "Electronic Resistance is every unit's utility action"
                                        + "".join(f"; {a} from {source}" for a, source in given))
    granted = [f"{a.label} ({source})" for name, (a, source) in attributes.items()]
    report.stats["attributes"] = Stat("Attributes", ", ".join(granted) or "none", "from the chassis and equipment")
    controllers = sum("drone_controller" in m.item.types for m in unit.equipment)
    docking = sum(m.item.docking for m in unit.equipment)
    report.detail.docking = docking
    if controllers:
        report.stats["drones"] = Stat("Drones", controllers, f"one deployed drone per controller; docks {docking} "
                                                              f"small drones (MM-R13, MM-R14)")


def weapon_line(m: Mounted) -> WeaponLine:
    weapon = m.item
    return WeaponLine(m.path, weapon.name, weapon.size, types_label(weapon.types),
                      LOCATION_LABELS[m.location] if m.location else "integrated", weapon.cost, m.ammo,
                      weapon.limited_ammo, weapon.variable_ammo,
                      [ProfileLine(p.name, p.accuracy, p.range, p.rof, p.damage, p.damage_type.replace("_", " "),
                                   p.internal, p.penetration, [a.label for a in p.attributes])
                       for p in weapon.profiles if m.ammo is None or p.name == m.ammo])


def grid_layouts(unit: Unit) -> list[GridLayout]:
    """Each grid's hexes in the order damage takes them, last first (MM-A19 reading): the special internals
    (Pilot, Crew, Leg Parts, Treads) hold out longest, then the equipment, then the empty hexes."""
    layouts = []
    for location, items in grid_contents(unit).items():
        grid = unit.chassis.grid(location)
        cells = [GridCell(kind, kind.replace("_", " ").title()) for kind, n in grid.special.items() for _ in range(n)]
        for m in items:
            cells += [GridCell("item", m.item.name)] * m.item.size
        cells += [GridCell("empty", "")] * max(0, grid.hexes - len(cells))
        layouts.append(GridLayout(location, LOCATION_LABELS[location], grid.type, grid.hexes,
                                  cells[: max(grid.hexes, len(cells))]))
    return layouts
