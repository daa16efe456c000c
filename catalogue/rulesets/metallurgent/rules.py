"""METALLURGENT Anvil legality and derived stats (digest sections 3.1-3.8 and 4).

`validate(build, catalogue)` returns a Report whose issue codes are the digest's rule IDs.
Checks run on a resolved `Anvil` (parts looked up once), so the builder can try candidate
parts cheaply with `issues_for()` to explain why a pick would break a rule.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from ..base import BuildError, Catalogue, Detail, Meter, Report, Stat, field_or, pack_problems, parse_as, with_article
from ..house_rules import setting
from .options import OPTIONS
from .pilots import PilotDetail
from .schema import (
    CHIPSET_CARRIERS,
    EQUIPMENT_TYPE_LABELS,
    SLOT_CATEGORIES,
    SLOT_LABELS,
    SLOTS,
    TARGETING_EQUIPMENT,
    AnvilBuild,
    Chipset,
    EquipmentBase,
    GearEntry,
    Radar,
    StandardArm,
    Weapon,
    WeaponArm,
)

METTLE = 6  # M-R90: every playtest Pilot rolls 6d6 until Mettle rules exist
MAX_EQUIPMENT = 6  # M-R23
SAME_TYPE_LIMIT = 2  # M-R24
GAS_DISSIPATION = {"cold": 12, "temperate": 10, "hot": 8}  # M-D24
# Equipment whose Heat comes when it is used, not at every Turn start (L1447, L2555).
ACTIVATED_EQUIPMENT = frozenset({"ciws", "target_designator"})
ARC_RING = ("nose", "forward_right", "rear_right", "aft", "rear_left", "forward_left")
MOUNT_ARCS = {
    "core": ("nose",),
    "left_arm": ("rear_left", "forward_left", "nose"),
    "right_arm": ("nose", "forward_right", "rear_right"),
}
ARC_LABELS = {"nose": "N", "forward_left": "FL", "forward_right": "FR", "rear_left": "RL",
              "rear_right": "RR", "aft": "A"}
CHASSIS_LABELS = {"biped": "Biped", "reverse_joint": "Reverse-Joint", "quadruped": "Quadruped",
                  "tracks": "Tracks", "wheels": "Wheels", "hover": "Hover"}
CHASSIS_ABILITIES = {
    "biped": ("Crouch", "Agile", "Climber"),
    "reverse_joint": ("Steady", "Jumper"),
    "quadruped": ("Squat", "Recoil Resistant", "Mountaineer", "Slam"),
    "tracks": ("Rugged", "High-Speed Traverse", "Defensible"),
    "wheels": ("Grip", "Sideswipe"),
    "hover": ("Air Cushion", "Strafe", "Inertia"),
}


@dataclass(slots=True)
class Mounted:
    index: int
    entry: GearEntry
    item: Any  # Weapon | Equipment
    chipsets: list[Chipset] = field(default_factory=list)  # loaded into an LCA or Radio (M-R70)

    @property
    def path(self) -> str:
        return f"gear[{self.index}]"


DOWN = frozenset({"disabled", "destroyed"})  # conditions under which a Component stops working (M-R45)


@dataclass(slots=True)
class AnvilPilot:
    """The saved Pilot an Anvil names, as its pages and its preview read it."""

    name: str
    share_id: str
    mettle: int  # M-R90: the Anvil's attacks roll this many dice plus their own
    stats: dict[str, Stat]  # the Pilot's, by key
    detail: PilotDetail  # the Pilot's pools, Knowledges, Talents and Skills


@dataclass(slots=True)
class Breakpoint:
    """One row of the Mobility Base's Load Tolerance (M-D03)."""

    max_load: int
    cruise: int
    flank: int
    init: int


@dataclass(slots=True)
class LoadTolerance:
    """Where the carried Load sits among the Mobility Base's breakpoints (M-R30-M-R33), for the chart."""

    breakpoints: list[Breakpoint]
    load: int
    active: int | None  # the breakpoint in force; None when Overloaded (M-R32)
    mobility_base: str  # its name


@dataclass(slots=True)
class Jettison:
    """M-R34: where the Anvil would stand with one Gear item jettisoned, for the sheet."""

    path: str
    name: str
    mount: str
    load: int
    load_after: int
    breakpoint: int | None  # the max Load of the breakpoint then in force; None while still Overloaded
    cruise: int | None
    flank: int | None
    initiative: int | None
    changes: bool  # a breakpoint other than today's


@dataclass(slots=True)
class Attack:
    """A punch, kick, ram, Slam or Sideswipe (M-D18-M-D23) as the sheet lists it."""

    name: str
    dice: str
    damage: str
    range: str
    note: str


@dataclass(slots=True)
class AnvilDetail(Detail):
    """What the Anvil's pages, sheet and preview show besides its stats; a squad naming it reads `command`."""

    pilot: AnvilPilot | None = None  # the saved Pilot it names, once that opens as a Pilot (HP-LINK)
    load_tolerance: LoadTolerance | None = None  # None without a Mobility Base
    command: bool = False  # a working LCA: a Commander in a squad (M-R75)
    jettison: list[Jettison] = field(default_factory=list)  # M-R34, with a Mobility Base
    attacks: list[Attack] = field(default_factory=list)  # M-D18-M-D23
    # Each weapon's sheet line (weapon_line): dicts, as one of their JSON keys, "class", is a Python keyword.
    weapons: list[dict[str, Any]] = field(default_factory=list)
    arcs: dict[str, list[str]] = field(default_factory=dict)  # M-R16: each weapon's and targeting Gear's, by path


@dataclass(slots=True)
class Anvil:
    """A build with its parts looked up: what the checks run on.

    `parts` are the parts as listed (what was built, and what the sheet prints); `final` are the same parts with
    their condition applied (M-R45), which every derived stat and performance check reads.
    """

    name: str
    parts: dict[str, Any]  # slot -> item or None
    gear: list[Mounted]
    condition: dict[str, str] = field(default_factory=dict)
    house_rules: dict[str, Any] = field(default_factory=dict)
    final: dict[str, Any] = field(init=False)
    working: list[Mounted] = field(init=False)  # Gear not Offline

    def __post_init__(self) -> None:
        down = {slot: state for slot, state in self.condition.items() if state in DOWN}
        thresholds_stay = setting(OPTIONS, self, "disabled-mobility") == "thresholds-stay"
        self.final = {**self.parts, **{slot: condition_applied(self.parts[slot], state, thresholds_stay)
                                       for slot, state in down.items() if self.parts.get(slot) is not None}}
        # M-R45: Gear on a Disabled or Destroyed Component is Offline (every Disabled row of the Arm tables makes
        # it Offline or Destroyed, L1905-1915): no Drain, Offset or benefit. Its Load stays until it is removed.
        offline = down if setting(OPTIONS, self, "disabled-gear") == "offline" else {
            slot for slot, state in down.items() if state == "destroyed"}
        self.working = [g for g in self.gear if g.entry.mount not in offline]

    def standard_arm(self, slot: str) -> StandardArm | None:
        part = self.parts.get(slot)
        return part if isinstance(part, StandardArm) else None

    def on(self, mount: str) -> list[Mounted]:
        return [g for g in self.gear if g.entry.mount == mount]

    def weapon_arms(self) -> list[tuple[str, WeaponArm]]:
        return [(slot, self.parts[slot]) for slot in ("left_arm", "right_arm")
                if isinstance(self.parts[slot], WeaponArm)]

    def works(self, slot: str) -> bool:
        """Fitted and neither Disabled nor Destroyed: its actions (Block, Dodge, punches) are there (M-R45).

        The house rule "disabled-actions: free" keeps a Disabled part's actions, at its zeroed stats."""
        state = self.condition.get(slot)
        kept = state == "disabled" and setting(OPTIONS, self, "disabled-actions") == "free"
        return self.parts.get(slot) is not None and (state not in DOWN or kept)

    def working_weapon_arms(self) -> list[tuple[str, WeaponArm]]:
        return [(slot, part) for slot, part in self.weapon_arms() if self.works(slot)]


def zeroed(value: Any, keep: frozenset[str]) -> Any:
    """`value` with every positive number in it read as 0, except the fields named in `keep`."""
    if isinstance(value, BaseModel):
        return value.model_copy(update={name: zeroed(getattr(value, name), keep)
                                        for name in type(value).model_fields if name not in keep})
    if isinstance(value, list):
        return [zeroed(v, keep) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return 0
    return value


def condition_applied(part: Any, state: str, thresholds_stay: bool = True) -> Any:
    """M-R45 (L1794): a Disabled Component's positive stats count as 0, Drain included, but not its Load, which
    goes only when it is Destroyed.

    M-R45 reading: the Load Tolerance thresholds are kept (the Anvil still stands on its Mobility Base: zeroing
    them would call every Anvil with a Disabled Mobility Base overloaded); the breakpoints' bonuses go.
    Hardpoints and Strength as mounting limits are read from the part as built (see check_mounting).
    """
    keep = {"max_load"} if thresholds_stay else set()
    return zeroed(part, frozenset(keep | {"load"} if state == "disabled" else keep))


def ceil_half(value: int) -> int:
    """Golden Rule 1 (M-R00): halve, then round up."""
    return math.ceil(value / 2)


def parse(document: Any) -> AnvilBuild:
    """Read a build document (already decoded JSON) or raise BuildError."""
    return parse_as(AnvilBuild, document)


def resolve(build: AnvilBuild, catalogue: Catalogue) -> Anvil:
    """Look every key up in the pack; unknown keys and parts in the wrong slot are BuildErrors."""
    problems = pack_problems(build, catalogue)
    parts: dict[str, Any] = {}
    for slot in SLOTS:
        key = getattr(build.parts, slot)
        if key is None:
            parts[slot] = None
            continue
        category = catalogue.categories.get(key)
        if category is None:
            problems.append({"path": f"parts.{slot}", "message": f"unknown item '{key}' in {catalogue.pack}"})
        elif category not in SLOT_CATEGORIES[slot]:
            problems.append({"path": f"parts.{slot}",
                             "message": f"'{key}' is a {category.replace('_', ' ')}, which does not fit the "
                                        f"{SLOT_LABELS[slot]} slot (M-R02)"})
        parts[slot] = catalogue.items.get(key)
    gear = []
    for index, entry in enumerate(build.gear):
        category = catalogue.categories.get(entry.item)
        if category is None:
            problems.append({"path": f"gear[{index}].item", "message": f"unknown item '{entry.item}' in {catalogue.pack}"})
        elif category not in ("weapon", "equipment"):
            problems.append({"path": f"gear[{index}].item",
                             "message": f"'{entry.item}' is a {category.replace('_', ' ')}, not Gear"})
        else:
            gear.append(Mounted(index, entry, catalogue.items[entry.item], chipsets(index, entry, catalogue, problems)))
    if problems:
        raise BuildError(problems)
    return Anvil(build.name, parts, gear, dict(build.condition), dict(build.house_rules))


def chipsets(index: int, entry: GearEntry, catalogue: Catalogue, problems: list) -> list[Chipset]:
    """The Chipsets loaded into one Gear item; an unknown key is a problem, as for any item."""
    found = []
    for number, key in enumerate(entry.chipsets):
        if catalogue.categories.get(key) != "chipset":
            problems.append({"path": f"gear[{index}].chipsets[{number}]",
                             "message": f"'{key}' is not a Chipset in {catalogue.pack}"})
        else:
            found.append(catalogue.items[key])
    return found


def validate(build: Any, catalogue: Catalogue) -> Report:
    """The whole Report for a build: every issue and every derived stat."""
    anvil = resolve(parse(build), catalogue)
    report = Report(detail=AnvilDetail())
    check(anvil, report)
    derive(anvil, report)
    return report


def check_pilot(share_id: str, pilot, report: Report) -> None:
    """The Pilot an Anvil names must still exist (a saved build may be deleted)."""
    if pilot is None:
        report.add("HP-LINK", "warning", "pilot", f"The Pilot {share_id} no longer exists.", "Pick another Pilot.")
    elif pilot.kind != "pilot":
        report.add("HP-LINK", "warning", "pilot", f"{pilot.name} is a {pilot.kind}, not a Pilot.", "Pick a Pilot.")
    else:
        report.detail.pilot = AnvilPilot(pilot.name, share_id, pilot.document.get("mettle", METTLE),
                                         dict(pilot.report.stats), pilot.report.detail)


def issues_for(anvil: Anvil) -> Report:
    """Issues only, for trying candidate parts in the builder's pickers."""
    report = Report()
    check(anvil, report)
    return report


# --- checks ----------------------------------------------------------------------------------

def check(anvil: Anvil, report: Report) -> None:
    check_components(anvil, report)
    check_mounting(anvil, report)
    check_gear_counts(anvil, report)
    check_load(anvil, report)
    check_energy(anvil, report)
    check_lca_start(anvil, report)
    check_heat(anvil, report)
    check_ranges_and_ammunition(anvil, report)
    check_chipsets(anvil, report)
    check_fuel(anvil, report)


def check_components(anvil: Anvil, report: Report) -> None:
    for slot in SLOTS:
        if anvil.parts[slot] is None:
            what = with_article("Fire Control System" if slot == "fcs" else SLOT_LABELS[slot])
            report.add("M-R01", "error", slot,
                       f"No {SLOT_LABELS[slot]} fitted. An Anvil needs all six Components and a Fire "
                       f"Control System to deploy.", f"Pick {what}.")
    for slot, state in anvil.condition.items():
        if state in DOWN:
            load = "its Load stays" if state == "disabled" else "its Load is gone"
            gear = "is Offline" if any(g.entry.mount == slot for g in anvil.gear if g not in anvil.working) else "works"
            report.add("M-R07", "warning", slot,
                       f"The {SLOT_LABELS[slot]} is {state.capitalize()}: damage stays with the part "
                       f"until it is repaired. Its positive stats count as 0, Drain included, {load}, and the "
                       f"Gear on it {gear} (M-R45).", "Repair or replace the part before the Sortie.")


def check_mounting(anvil: Anvil, report: Report) -> None:
    limit = setting(OPTIONS, anvil, "gear-limit")
    if len(anvil.gear) > limit:
        report.add("M-R05", "error", "gear",
                   f"{len(anvil.gear)} pieces of Gear mounted; an Anvil carries at most {limit}.",
                   f"Remove {len(anvil.gear) - limit}.")
    for mount in ("core", "left_arm", "right_arm"):
        mounted = anvil.on(mount)
        if not mounted:
            continue
        part = anvil.parts[mount]
        label = SLOT_LABELS[mount]
        if part is None:
            for g in mounted:
                report.add("M-R10", "error", g.path,
                           f"{g.item.name} is mounted on the {label}, but no {label} is fitted.",
                           f"Fit a {'Core' if mount == 'core' else 'Standard Arm'} or move the Gear.")
            continue
        if isinstance(part, WeaponArm):
            for g in mounted:
                report.add("M-R10", "error", g.path,
                           f"{g.item.name} is mounted on the {label}, a Weapon Arm ({part.name}), which "
                           f"has no Hardpoints.", "Move it to the Core or a Standard Arm.")
            continue
        # M-R45 reading: Gear stays mounted on a Disabled Component, so the limits are those it was built with.
        hardpoints = part.hardpoints
        size = sum(g.item.size for g in mounted)
        if size > hardpoints:
            report.add("M-R11", "error", mount,
                       f"{label} mounts Gear of Size {size} on {hardpoints} Hardpoint"
                       f"{'s' if hardpoints != 1 else ''}.",
                       f"Free {size - hardpoints} Hardpoint{'s' if size - hardpoints != 1 else ''}: "
                       f"remove or move Gear.")
        for g in mounted:
            if g.item.size > hardpoints:
                report.add("M-R12", "error", g.path,
                           f"{g.item.name} (Size {g.item.size}) does not fit on the {label}'s {hardpoints} "
                           f"Hardpoint{'s' if hardpoints != 1 else ''}, and Gear may not be split across "
                           f"Components.", "Mount it on a Component with enough Hardpoints.")
            check_mount_restriction(anvil, g, mount, report)
        if isinstance(part, StandardArm):
            load = sum(g.item.load for g in mounted)
            if load > part.strength:
                report.add("M-R14", "error", mount,
                           f"{label} carries {load} ST of Gear; its Strength is {part.strength}.",
                           f"Move {load - part.strength} ST of Gear to the Core or the other Arm, "
                           f"or fit a stronger Arm.")


def check_mount_restriction(anvil: Anvil, g: Mounted, mount: str, report: Report) -> None:
    rule = g.item.mount
    if rule == "arm" and mount == "core":
        what = "Shields mount" if field_or(g.item, "type", None) == "shield" else f"{g.item.name} mounts"
        report.add("M-R15", "error", g.path, f"{what} only on a Standard Arm, not on the Core.",
                   "Move it to a Standard Arm.")
    elif rule == "core" and mount != "core":
        report.add("M-R15", "error", g.path, f"{g.item.name} mounts only on the Core.",
                   "Move it to the Core.")
    elif mount == "core" and isinstance(g.item, Weapon) and g.item.category == "melee":
        severity = setting(OPTIONS, anvil, "core-melee")  # M-R15 reading: the book allows it, with no use
        if severity != "allowed":
            report.add("M-R15", severity, g.path,
                       f"{g.item.name} is a melee weapon on the Core: it cannot be swung from there.",
                       "Mount melee weapons on a Standard Arm.")


def weapons_by_class(anvil: Anvil) -> dict[str, list[tuple[str, str]]]:
    """(path, name) of every weapon per class; a Weapon Arm's weapon counts as Primary (M-R17)."""
    classes: dict[str, list[tuple[str, str]]] = {"primary": [], "secondary": [], "tertiary": []}
    for slot, part in anvil.weapon_arms():
        classes["primary"].append((slot, f"{part.name} ({SLOT_LABELS[slot]})"))
    for g in anvil.gear:
        if isinstance(g.item, Weapon):
            classes[g.item.weapon_class].append((g.path, g.item.name))
    return classes


def check_gear_counts(anvil: Anvil, report: Report) -> None:
    limit = setting(OPTIONS, anvil, "weapon-class-limit")
    for (weapon_class, held), code in zip(weapons_by_class(anvil).items(), ("M-R20", "M-R21", "M-R22")):
        if len(held) > limit:
            names = ", ".join(name for _, name in held)
            extra = " (a Weapon Arm's weapon counts as Primary)" if weapon_class == "primary" and any(
                p in ("left_arm", "right_arm") for p, _ in held) else ""
            report.add(code, "error", held[limit][0],
                       f"{len(held)} {weapon_class.capitalize()} weapons: {names}{extra}; "
                       f"at most {limit}.",
                       f"Remove {len(held) - limit} {weapon_class.capitalize()} weapon"
                       f"{'s' if len(held) - limit > 1 else ''}.")
    equipment = [g for g in anvil.gear if isinstance(g.item, EquipmentBase)]
    if len(equipment) > MAX_EQUIPMENT:
        report.add("M-R23", "error", equipment[MAX_EQUIPMENT].path,
                   f"{len(equipment)} pieces of equipment; an Anvil carries at most {MAX_EQUIPMENT}.",
                   f"Remove {len(equipment) - MAX_EQUIPMENT}.")
    by_type: dict[str, list[Mounted]] = {}
    for g in equipment:
        by_type.setdefault(g.item.type, []).append(g)
    for kind, held in by_type.items():
        if len(held) <= SAME_TYPE_LIMIT:
            continue
        label = EQUIPMENT_TYPE_LABELS[kind]
        if kind == "radar":
            subtypes = ", ".join(f"{g.item.name} ({g.item.subtype})" for g in held)
            report.add("M-R25", "error", held[SAME_TYPE_LIMIT].path,
                       f"{len(held)} Radars: {subtypes}. All Radars share one Gear Type, so at most "
                       f"{SAME_TYPE_LIMIT} of any subtype.", "Remove a Radar.")
        else:
            report.add("M-R24", "error", held[SAME_TYPE_LIMIT].path,
                       f"{len(held)} pieces of {label} equipment; at most {SAME_TYPE_LIMIT} of one Type, "
                       f"whatever their names.", f"Remove a {label}.")


def carried_load(anvil: Anvil) -> tuple[int, list[str]]:
    """M-R30 / M-D01: every Component but the Mobility Base, plus all mounted Gear."""
    total, terms = 0, []
    for slot in ("core", "left_arm", "right_arm", "generator", "electronics"):
        part = anvil.final[slot]  # a Destroyed Component has no Load (M-R45)
        if part is not None:
            total += part.load
            terms.append(f"{SLOT_LABELS[slot]} {part.load}")
    gear_load = sum(g.item.load for g in anvil.gear)
    total += gear_load
    terms.append(f"Gear {gear_load}")
    return total, terms


def jettison_breakpoints(anvil: Anvil) -> list[Jettison]:
    """M-R34: for each Gear that may be jettisoned (any not on the Core, L1366), where the Anvil would stand
    without it, so the sheet shows what a jettison buys."""
    mb = anvil.final["mobility_base"]
    load, _ = carried_load(anvil)
    now = active_breakpoint(anvil, load)
    rows = []
    for g in anvil.gear:
        if g.entry.mount == "core":
            continue
        after = load - g.item.load
        index = active_breakpoint(anvil, after)
        bp = mb.load_tolerance[index] if index is not None else None
        rows.append(Jettison(g.path, g.item.name, SLOT_LABELS[g.entry.mount], g.item.load, after,
                             bp.max_load if bp else None, mb.cruising_speed + bp.cruise if bp else None,
                             bp.flank if bp else None, mb.initiative + bp.init if bp else None, index != now))
    return rows


def active_breakpoint(anvil: Anvil, load: int) -> int | None:
    """M-D03: the lowest breakpoint whose max_load is at least the carried Load.

    M-R31 / digest 8.3 #1: "equal to or less than a breakpoint" read as the smallest threshold that holds; the
    house rule "breakpoint: heaviest" takes the last one that holds, as a light Load is under every threshold.
    """
    holding = [index for index, bp in enumerate(anvil.final["mobility_base"].load_tolerance) if load <= bp.max_load]
    if not holding:
        return None
    return holding[-1] if setting(OPTIONS, anvil, "breakpoint") == "heaviest" else holding[0]


def check_load(anvil: Anvil, report: Report) -> None:
    mb = anvil.final["mobility_base"]
    if mb is None:
        return
    load, _ = carried_load(anvil)
    top = mb.load_tolerance[-1].max_load
    if load > top:
        report.add("M-R32", "error", "mobility_base",
                   f"Carried Load {load} ST exceeds the {mb.name}'s highest breakpoint ({top} ST): the Anvil "
                   f"is overloaded and may not deploy.",
                   f"Shed {load - top} ST of Gear or parts, or fit a Mobility Base with a higher Load Tolerance.")


@dataclass(slots=True)
class Energy:
    output: int  # Generator EN Output (+ APUs) before any Drain
    component_drain: int
    active_drain: int
    idle_drain: int  # Drain Gear that starts inactive
    capacity: int
    active_offset: int
    idle_offset: int

    @property
    def output_left(self) -> int:
        return self.output - self.component_drain - self.active_drain

    @property
    def capacity_left(self) -> int:
        return self.capacity - self.active_offset


def energy(anvil: Anvil) -> Energy | None:
    """M-R40, M-R42 on the final stats: a Disabled Component drains nothing and Offline Gear neither (M-R45)."""
    generator = anvil.final["generator"]
    if generator is None:
        return None
    component_drain = sum(field_or(anvil.final[s], "drain", 0) for s in SLOTS if anvil.final[s] is not None)
    output = generator.en_output
    active_drain = idle_drain = active_offset = idle_offset = 0
    for g in anvil.working:
        item = g.item
        if not isinstance(item, EquipmentBase):
            continue
        output += field_or(item, "en_output", 0)  # APUs are passive: no Drain or Offset to switch off
        if g.entry.active:
            active_drain += item.en_drain
            active_offset += item.en_offset
        else:
            idle_drain += item.en_drain
            idle_offset += item.en_offset
    return Energy(output, component_drain, active_drain, idle_drain, generator.en_capacity,
                  active_offset, idle_offset)


def check_energy(anvil: Anvil, report: Report) -> None:
    en = energy(anvil)
    if en is None:
        return
    # M-R41 (digest 8.3 #3): Drain that can never be switched off making Output negative is illegal, unless the
    # table reads Generator Disabled-6's "negative EN Output" (L1862) as allowing it (house rule "en-below-zero").
    severity = "error" if setting(OPTIONS, anvil, "en-below-zero") == "illegal" else "warning"
    if en.output - en.component_drain < 0:
        report.add("M-R41", severity, "generator",
                   f"EN Output after Drain is {en.output - en.component_drain}: Generator and APUs give "
                   f"{en.output}, Components and FCS drain {en.component_drain}. EN Output may never fall "
                   f"below 0.", "Fit a Generator with more EN Output or lower-Drain Components.")
    elif en.output_left < 0:
        report.add("M-R41", severity, "generator",
                   f"EN Output after Drain is {en.output_left}: the Drain Gear set to start active drains "
                   f"{en.active_drain} of the {en.output - en.component_drain} EN left.",
                   "Start some Drain Gear inactive, or free up EN Output.")
    elif en.idle_drain and en.output_left - en.idle_drain < 0:
        report.add("M-R41", "warning", "generator",
                   f"All Drain Gear cannot run together: switching on the idle Drain Gear "
                   f"({en.idle_drain} EN) would take EN Output to {en.output_left - en.idle_drain}.",
                   "Plan which Drain Gear runs when.")
    if en.capacity_left < 0:
        report.add("M-R42", "error", "generator",
                   f"EN Capacity after Offset is {en.capacity_left}: the Generator holds {en.capacity} EN and "
                   f"active Offset Gear takes {en.active_offset}. It may never fall below 0.",
                   "Start some Offset Gear inactive or fit a Generator with more EN Capacity.")
    elif en.idle_offset and en.capacity_left - en.idle_offset < 0:
        report.add("M-R42", "warning", "generator",
                   f"All Offset Gear cannot run together: switching on the idle Offset Gear "
                   f"({en.idle_offset} EN) would take EN Capacity to {en.capacity_left - en.idle_offset}.",
                   "Plan which Offset Gear runs when.")
    capacity = max(en.capacity_left, 0)
    for path, name, cost in en_costs(anvil):
        if cost > capacity:
            report.add("M-R44", "warning", path,
                       f"{name} costs {cost} EN but the Anvil holds at most {capacity} EN: it can never be used.",
                       "Fit a Generator with more EN Capacity or a cheaper part.")


def en_costs(anvil: Anvil) -> list[tuple[str, str, int]]:
    """Everything that spends EN on activation: weapons, equipment and the BID actions."""
    costs = [(slot, part.name, part.weapon.en_cost) for slot, part in anvil.working_weapon_arms()]
    for g in anvil.working:
        if g.item.en_cost:
            costs.append((g.path, g.item.name, g.item.en_cost))
    # A Disabled Component's BID action is gone with its costs (M-R45): only working ones are listed.
    for slot, action, cost in (("core", "Block", "block_cost"), ("mobility_base", "Dodge", "dodge_cost"),
                               ("electronics", "Intercept", "intercept_cost")):
        if anvil.works(slot):
            part = anvil.final[slot]
            costs.append((slot, f"{action} ({part.name})", getattr(part, cost)))
    return costs


@dataclass(slots=True)
class HeatBudget:
    passive: int  # Heat from always-active equipment at each Turn start
    radiators: int
    cooling: str
    steady: int  # Heat held at the top of each Turn once passive Heat and dissipation balance
    climate: str
    climb: int = 0  # Heat gained every Turn when dissipation never catches up (Gas sheds a fixed amount)

    @property
    def outcome(self) -> str:
        return f"climbs by {self.climb} every Turn" if self.climb else f"settles at {self.steady}"


def passive_heat(anvil: Anvil) -> tuple[int, int]:
    """Heat the active equipment makes at every Turn start, and the active Radiators' extra dissipation.

    M-R51 reading (L1447, L2555): CIWS and Target Designators make Heat when used, unless the table's house rule
    "activated-heat: every-turn" reads the Heat field as made every Turn while active (digest 8.3 #32)."""
    every_turn = setting(OPTIONS, anvil, "activated-heat") == "every-turn"
    passive = sum(g.item.heat for g in anvil.working if isinstance(g.item, EquipmentBase) and g.entry.active
                  and (every_turn or g.item.type not in ACTIVATED_EQUIPMENT))
    return passive, sum(field_or(g.item, "cooling", 0) for g in anvil.working if g.entry.active)


def heat_budget(anvil: Anvil) -> HeatBudget | None:
    """Where always-on Heat settles, in the climate the table judges builds at (M-R51, house rule "heat-climate")."""
    generator = anvil.final["generator"]
    if generator is None:
        return None
    passive, radiators = passive_heat(anvil)
    climate = setting(OPTIONS, anvil, "heat-climate")
    def upkeep(heat: int) -> int:
        return max(0, heat - dissipation(generator.cooling, heat, radiators, climate)) + passive

    heat = 0
    for _ in range(40):  # converges in a few Upkeeps, unless it never does
        heat = upkeep(heat)
    return HeatBudget(passive, radiators, generator.cooling, heat, climate, upkeep(heat) - heat)


def dissipation(cooling: str, heat: int, radiators: int, climate: str = "temperate") -> int:
    """M-D24: Heat shed at one Upkeep in a given climate, before terrain and weather."""
    if cooling == "plasma":
        return heat
    if cooling == "gas":
        return GAS_DISSIPATION[climate] + radiators
    return math.ceil(heat / 2) + {"cold": 1, "temperate": 0, "hot": -1}[climate] + radiators


def check_lca_start(anvil: Anvil, report: Report) -> None:
    """M-R43 reading: any Drain or Offset Gear, an LCA too, may start off (L1345); a table playing patch 0.0.6's
    "LCAs begin active" (house rule "lca-start") refuses an LCA set to start off."""
    if setting(OPTIONS, anvil, "lca-start") != "active":
        return
    for g in anvil.gear:
        if field_or(g.item, "type", "") == "lca" and not g.entry.active:
            report.add("M-R43", "error", g.path, f"{g.item.name} is an LCA: it begins the Sortie active.",
                       "Set it to start active.")


def check_heat(anvil: Anvil, report: Report) -> None:
    generator = anvil.final["generator"]
    if generator is None:
        return
    tolerance = generator.heat_tolerance
    for path, name, heat in heat_sources(anvil):
        if heat > tolerance:
            report.add("M-R50", "warning", path,
                       f"One use of {name} makes {heat} Heat, more than the Heat Tolerance of "
                       f"{tolerance}: firing it always Overheats.", "Fit a Generator with more Heat Tolerance.")
    budget = heat_budget(anvil)
    if budget.passive and (budget.climb or budget.steady > tolerance):
        report.add("M-R51", "warning", "generator",
                   f"Always-active equipment makes {budget.passive} Heat a Turn; with "
                   f"{generator.cooling.capitalize()} cooling ({budget.climate}) Heat {budget.outcome}, "
                   f"past the Heat Tolerance of {tolerance}.",
                   "Start some equipment inactive or add a Radiator.")


def heat_sources(anvil: Anvil) -> list[tuple[str, str, int]]:
    """Heat made by one use: weapons, activated equipment and Radar Burnthrough (per-Turn Heat is M-R51)."""
    sources = [(slot, part.name, part.weapon.heat) for slot, part in anvil.working_weapon_arms()]
    for g in anvil.working:
        item = g.item
        if isinstance(item, Weapon) or field_or(item, "type", "") in ACTIVATED_EQUIPMENT:
            sources.append((g.path, item.name, item.heat))
        if isinstance(item, Radar):
            sources.append((g.path, f"{item.name} Burnthrough", item.burnthrough_heat))
    return sources


def effective_fcs_range(anvil: Anvil) -> int | None:
    """M-R55 / M-D14: FCS Maximum Range plus Camera Modifier, never below Reliable Range."""
    fcs, electronics = anvil.final["fcs"], anvil.final["electronics"]
    if fcs is None:
        return None
    camera = electronics.camera_modifier if electronics is not None else 0
    return max(fcs.max_range + camera, fcs.reliable_range)


def check_ranges_and_ammunition(anvil: Anvil, report: Report) -> None:
    fcs_range = effective_fcs_range(anvil)
    # M-R57: an EWACS Radar lends its Range only against Airborne targets, so it does not answer this warning
    # unless the table's house rule "ewacs-range" counts it.
    ewacs = setting(OPTIONS, anvil, "ewacs-range") == "counts"
    radar_range = max((g.item.range for g in anvil.working if isinstance(g.item, Radar)
                       and (ewacs or g.item.subtype != "ewacs")),
                      default=0) if setting(OPTIONS, anvil, "radar-range") == "counts" else 0
    for g in anvil.gear:
        item = g.item
        if isinstance(item, Weapon):
            if (fcs_range is not None and item.category != "melee" and item.range > max(fcs_range, radar_range)
                    and g in anvil.working):
                report.add("M-R55", "warning", g.path,
                           f"{item.name} reaches {item.range} hexes but the FCS's effective Maximum Range is "
                           f"{fcs_range}{f' (a Radar reaches {radar_range} in its Search Arcs)' if radar_range else ''}: "
                           f"attacks beyond it roll at +1 success criterion.",
                           "Fit a longer-ranged FCS, better Electronics or a Radar.")
            reserve = g.entry.reserve
            if reserve is not None and reserve > item.reserve:
                # 8.3 #38: a hard cap at build time, unless the table lets Strategic play's resupply go over it.
                report.add("M-R63", "error" if setting(OPTIONS, anvil, "reserve-cap") == "hard" else "warning", g.path,
                           f"{item.name} carries {reserve} Reserve ammunition; its listed Reserve is {item.reserve}.",
                           f"Carry at most {item.reserve}.")
        elif g.entry.reserve:
            report.add("M-R63", "error", g.path, f"{item.name} takes no ammunition.", "Clear its Reserve.")


def check_chipsets(anvil: Anvil, report: Report) -> None:
    """M-R70-M-R74: what an LCA or a Radio may carry, and whether it can ever spend the Orders."""
    for g in anvil.gear:
        if not g.chipsets:
            continue
        item, kind = g.item, field_or(g.item, "type", "")
        if kind not in CHIPSET_CARRIERS:
            report.add("M-R70", "error", g.path, f"{item.name} cannot carry Chipsets: only an LCA or a Radio does.",
                       "Load the Chipsets into an LCA or a Radio.")
            continue
        stock = [c for c in g.chipsets if c.type == "command"]
        loaded = [c for c in g.chipsets if c.type != "command"]
        if kind == "radio":
            for c in g.chipsets:
                if c.type != "support":
                    report.add("M-R72", "error", g.path,
                               f"{item.name} is a Radio: it carries only Support Chipsets, not {c.name} "
                               f"({c.type.capitalize()}).", f"Unload {c.name} or move it to an LCA.")
        elif stock:
            report.add("M-R70", setting(OPTIONS, anvil, "command-chipset"), g.path,
                       f"{', '.join(c.name for c in stock)}: every LCA has the six Command Chipsets already; "
                       f"loading one takes no slot and adds nothing.", "Unload the Command Chipsets.")
        for c in loaded:
            if c.type == "special" and c.lca != item.key:
                report.add("M-R73", "error", g.path,
                           f"{c.name} is a Special Chipset of another LCA model; {item.name} cannot load it.",
                           f"Unload {c.name}.")
        if len(loaded) > item.chipset_capacity:
            report.add("M-R70", "error", g.path,
                       f"{item.name} carries {len(loaded)} Chipsets; its Chipset Capacity is {item.chipset_capacity}.",
                       f"Unload {len(loaded) - item.chipset_capacity}.")
        limit = field_or(item, "order_limit", None)
        for c in {c.key: c for c in loaded}.values():
            if limit is not None and c.orders is not None and c.orders > limit:
                report.add("M-R74", setting(OPTIONS, anvil, "unusable-chipset"), g.path,
                           f"{c.name} costs {c.orders} Orders but {item.name} holds at most {limit}: it can never "
                           f"be used.", "Fit an LCA with a higher Order Limit or load another Chipset.")


def fuel(anvil: Anvil) -> tuple[int, int] | None:
    """Fuel from the Generator and from working Fuel Tanks (M-R61)."""
    generator = anvil.final["generator"]
    if generator is None:
        return None
    return generator.fuel_capacity, sum(field_or(g.item, "fuel", 0) for g in anvil.working)


def check_fuel(anvil: Anvil, report: Report) -> None:
    carried = fuel(anvil)
    if carried is not None and sum(carried) == 0:
        report.add("M-R61", "warning", "generator",
                   "The Anvil carries no Fuel: it gains no Charge before deployment and starts Running on Fumes "
                   "(half Cruise, no Flanking, BID costs doubled).", "Fit a Generator with Fuel or a Fuel Tank.")


# --- derived stats ---------------------------------------------------------------------------

def deployment_zone(initiative: int, negative: str = "green") -> str:
    """M-D07: negative Initiative is unspecified; treated as Green (digest 8.3 #25), or as no zone at all."""
    if initiative < 0 and negative == "no-zone":
        return "none"
    if initiative >= 9:
        return "White"
    if initiative >= 6:
        return "Purple"
    if initiative >= 3:
        return "Blue"
    return "Green"


DZ_ORDER = ("Green", "Blue", "Purple", "White")


def arcs_for(mount: str, chassis: str | None) -> list[str]:
    """M-R16: mount arcs, widened by one on either side for Tracks (High-Speed Traverse)."""
    arcs = list(MOUNT_ARCS[mount])
    if chassis == "tracks":
        first, last = ARC_RING.index(arcs[0]), ARC_RING.index(arcs[-1])
        arcs = [ARC_RING[(first - 1) % 6]] + arcs + [ARC_RING[(last + 1) % 6]]
    return [ARC_LABELS[a] for a in sorted(set(arcs), key=ARC_RING.index)]


def derive(anvil: Anvil, report: Report) -> None:
    p = anvil.final
    stats = report.stats
    down = [f"{SLOT_LABELS[slot]} {state.capitalize()}" for slot, state in anvil.condition.items() if state in DOWN]
    if down:
        stats["condition"] = Stat("Out of action", ", ".join(down),
                                  "positive stats count as 0, Drain included; Load stays until Destroyed; the "
                                  "Gear on it is Offline (M-R45)")
    core, mb, generator, electronics, fcs = (p["core"], p["mobility_base"], p["generator"],
                                             p["electronics"], p["fcs"])
    load, terms = carried_load(anvil)
    stats["carried_load"] = Stat("Carried Load", load, " + ".join(terms) + " (Mobility Base excluded, M-R30)", "ST")
    if mb is not None:
        stats["gross_weight"] = Stat("Gross weight", load + mb.load,
                                     f"Carried Load {load} + Mobility Base {mb.load} (M-R33)", "ST")
        index = active_breakpoint(anvil, load)
        spread = [Breakpoint(b.max_load, b.cruise, b.flank, b.init) for b in mb.load_tolerance]
        report.detail.load_tolerance = LoadTolerance(spread, load, index, mb.name)
        report.meters.append(Meter("load", "Load Tolerance", load, mb.load_tolerance[-1].max_load, "ST",
                                   "mobility_base"))
        if index is None:
            stats["breakpoint"] = Stat("Breakpoint", "Overloaded",
                                       f"{load} ST is over the top breakpoint of {mb.load_tolerance[-1].max_load} ST")
        else:
            bp = mb.load_tolerance[index]
            stats["breakpoint"] = Stat("Breakpoint", f"≤ {bp.max_load} ST",
                                       f"lowest breakpoint holding {load} ST (M-D03); "
                                       f"{bp.max_load - load} ST to spare")
            cruise = mb.cruising_speed + bp.cruise
            grip = " (+1 on Flatland or Pavement: Grip)" if mb.chassis == "wheels" else ""
            stats["cruising_speed"] = Stat("Cruising Speed", cruise,
                                           f"Mobility Base {mb.cruising_speed} {bp.cruise:+d} at this breakpoint{grip}",
                                           "hexes")
            stats["flanking_speed"] = Stat("Flanking Speed", bp.flank,
                                           f"breakpoint value; costs {mb.manoeuvre_cost} Charge to generate{grip}",
                                           "hexes")
            initiative = mb.initiative + bp.init
            zone = deployment_zone(initiative, setting(OPTIONS, anvil, "negative-initiative"))
            if zone == "none":
                report.add("M-R62", "warning", "mobility_base",
                           f"Initiative {initiative} has no Deployment Zone at this table: the Coordinator places "
                           f"the Anvil.", "Lighten the load to reach a breakpoint with Initiative 0 or more.")
            stats["initiative"] = Stat("Initiative", initiative,
                                       f"Mobility Base {mb.initiative} {bp.init:+d} at this breakpoint (M-D06)")
            allowed = DZ_ORDER[: DZ_ORDER.index(zone) + 1] if zone in DZ_ORDER else ()
            stats["deployment_zone"] = Stat("Deployment Zone", zone,
                                            f"Initiative {initiative}: may deploy in {', '.join(reversed(allowed))} (M-D07)"
                                            if allowed else f"Initiative {initiative}: the Coordinator places it (M-R62)")
        if anvil.works("mobility_base"):
            stats["dodge"] = Stat("Dodge", f"+{mb.dodge_bonus} DV", f"costs {mb.dodge_cost} EN per Dodge")
        chassis = CHASSIS_LABELS[mb.chassis]
        stats["chassis"] = Stat("Chassis", chassis,
                                f"{'Striding' if mb.striding else 'Driving'}: {', '.join(CHASSIS_ABILITIES[mb.chassis])}")
        stats["manoeuvre_cost"] = Stat("Manoeuvre Cost", mb.manoeuvre_cost, "Charge per Manoeuvre", "Charge")
    if core is not None:
        stats["defence"] = Stat("Defence (DV)", core.defence,
                                f"Core Defence; {core.defence + 1} while Flanking (M-D11)"
                                + (f"; {core.defence + mb.dodge_bonus} when Dodging" if mb else ""))
        if anvil.works("core"):
            stats["block"] = Stat("Block", f"{core.block_bonus} Hit{'s' if core.block_bonus != 1 else ''}",
                                  f"redirect up to {core.block_bonus} Hits to one Component for {core.block_cost} EN")
    en = energy(anvil)
    if en is not None:
        apu = en.output - generator.en_output
        stats["en_output"] = Stat(
            "EN Output", en.output_left,
            f"Generator {generator.en_output}{f' + APU {apu}' if apu else ''} − Component and FCS Drain "
            f"{en.component_drain} − active Gear Drain {en.active_drain} (M-R40)", "EN/turn")
        stats["en_capacity"] = Stat("EN Capacity", en.capacity_left,
                                    f"Generator {en.capacity} − active Gear Offset {en.active_offset} (M-R42)", "EN")
        report.meters.append(Meter("en_drain", "EN Output drained", en.component_drain + en.active_drain,
                                   en.output, "EN", "generator"))
        report.meters.append(Meter("en_offset", "EN Capacity offset", en.active_offset, en.capacity, "EN",
                                   "generator"))
        budget = heat_budget(anvil)
        radiators = f" + Radiators {budget.radiators}" if budget.radiators else ""
        shed = {"gas": f"{GAS_DISSIPATION[budget.climate]} a Turn{radiators} ({budget.climate}; Cold 12, "
                       f"Temperate 10, Hot 8)",
                "liquid": f"half the current Heat{radiators} (Cold +1, Hot −1)",
                "plasma": "all Heat every Upkeep"}[generator.cooling]
        stats["heat"] = Stat("Heat per turn", f"{budget.passive} / {generator.heat_tolerance}",
                             f"always-active equipment makes {budget.passive} Heat a Turn; "
                             f"{generator.cooling.capitalize()} cooling sheds {shed}; Heat {budget.outcome} "
                             f"against a Heat Tolerance of {generator.heat_tolerance}")
        _, tanks = fuel(anvil)
        stats["fuel"] = Stat("Fuel", generator.fuel_capacity + tanks, f"Generator {generator.fuel_capacity}"
                                           + (f" + Fuel Tanks {tanks}" if tanks else "") + "; carried between Sorties")
        stats["charge"] = Stat("Charge", generator.charge_capacity,
                               "Charge Capacity, filled by spending 1 Fuel before deployment (M-D15)", "Charge")
    fcs_range = effective_fcs_range(anvil)
    if fcs_range is not None:
        camera = electronics.camera_modifier if electronics is not None else 0
        types = {fcs.targeting_type} | {g.item.subtype for g in anvil.working if isinstance(g.item, Radar)}
        stats["fcs_range"] = Stat("FCS Maximum Range", fcs_range,
                                  f"FCS {fcs.max_range} {camera:+d} Camera, never below Reliable Range "
                                  f"{fcs.reliable_range} (M-R55)", "hexes")
        stats["targeting"] = Stat("Targeting Types", ", ".join(sorted(t.capitalize() for t in types)),
                                  "FCS and Radar types combine; the same type does not stack (M-R56)")
    if anvil.works("electronics"):
        stats["intercept"] = Stat("Intercept", electronics.intercept_bonus,
                                  f"reduce one Hit by {electronics.intercept_bonus} for {electronics.intercept_cost} EN")
    derive_mounts(anvil, report)
    derive_attacks(anvil, report)
    report.detail.command = any(field_or(g.item, "type", "") == "lca" for g in anvil.working)
    if mb is not None:
        report.detail.jettison = jettison_breakpoints(anvil)


def derive_mounts(anvil: Anvil, report: Report) -> None:
    report.meters.append(Meter("gear", "Gear", len(anvil.gear), setting(OPTIONS, anvil, "gear-limit"), "", "gear"))
    for mount in ("core", "left_arm", "right_arm"):
        part = anvil.parts[mount]
        if part is None or isinstance(part, WeaponArm):
            continue
        mounted = anvil.on(mount)
        label = SLOT_LABELS[mount]
        report.meters.append(Meter(f"{mount}_hardpoints", f"{label} Hardpoints",
                                   sum(g.item.size for g in mounted), part.hardpoints, "", mount))
        if isinstance(part, StandardArm):
            report.meters.append(Meter(f"{mount}_strength", f"{label} Strength",
                                       sum(g.item.load for g in mounted), part.strength, "ST", mount))


def derive_attacks(anvil: Anvil, report: Report) -> None:
    """Punch, kick and the arcs and dice of every weapon, for the sheet (M-D18..M-D23, M-R16)."""
    mb = anvil.final["mobility_base"] if anvil.works("mobility_base") else None
    chassis = anvil.parts["mobility_base"].chassis if anvil.parts["mobility_base"] is not None else None
    attacks = []
    for slot in ("left_arm", "right_arm"):
        part = anvil.final[slot]
        if isinstance(part, StandardArm) and anvil.works(slot):
            attacks.append(Attack(f"Punch ({SLOT_LABELS[slot]})", f"{METTLE + part.agility}d6",
                                  f"{ceil_half(part.strength)} KE", "adjacent",
                                  f"1 Charge; {max(1, part.agility)} per Round"))
    if mb is not None:
        attacks.append(Attack("Kick" if mb.striding else "Ram", f"{METTLE + mb.dodge_bonus}d6", f"{mb.load} KE",
                              "adjacent", f"{mb.manoeuvre_cost} Charge; hits the MB unless the target is Low"))
        if mb.chassis == "quadruped":
            attacks.append(Attack("Slam", "(6 + Flanking Speed)d6", f"{2 * mb.load} KE", "adjacent",
                                  "inflicts Low; Nose or Aft Arc"))
        if mb.chassis == "wheels":
            attacks.append(Attack("Sideswipe", "(6 + Flanking Speed)d6", f"{mb.load} KE", "adjacent",
                                  "Nose, FL or FR Arc"))
    report.detail.attacks = attacks
    weapons = [weapon_line(slot, slot, part.name, part.weapon, "primary", part.agility, None, chassis)
               for slot, part in anvil.working_weapon_arms()]
    for g in anvil.working:
        if isinstance(g.item, Weapon):
            arm = anvil.standard_arm(g.entry.mount)
            weapons.append(weapon_line(g.path, g.entry.mount, g.item.name, g.item, g.item.weapon_class,
                                       arm.agility if arm else None, arm, chassis))
    report.detail.weapons = weapons
    # M-R16 reading: High-Speed Traverse turns every mount, unless the table's "tracks-traverse" keeps it to weapons.
    every_mount = setting(OPTIONS, anvil, "tracks-traverse") == "every-mount"
    report.detail.arcs = {g.path: arcs_for(g.entry.mount, chassis if every_mount or isinstance(g.item, Weapon) else None)
                          for g in anvil.gear
                          if isinstance(g.item, Weapon) or field_or(g.item, "type", "") in TARGETING_EQUIPMENT}


def weapon_line(path, mount, name, w, weapon_class, agility, arm, chassis) -> dict[str, Any]:
    damage = w.damage
    note = ""
    if w.category == "melee" and w.damage_type == "KE" and arm is not None:
        damage += ceil_half(arm.strength)  # M-D19
        note = f"+{ceil_half(arm.strength)} from Arm Strength"
    return {
        "path": path, "name": name, "class": weapon_class, "mount": SLOT_LABELS[mount],
        "dice": METTLE + w.accuracy, "close_dice": METTLE + w.accuracy + agility if agility is not None else None,
        "damage": damage, "damage_type": w.damage_type, "range": w.range,
        "indirect_range": 2 * w.range if w.category != "melee" else None,
        "en_cost": w.en_cost, "heat": w.heat, "magazine": w.magazine, "reserve": w.reserve,
        "arcs": arcs_for(mount, chassis), "note": note,
    }
