"""METALLURGENT at the table: an Anvil's EN, Heat, Charge and Fuel, each Component's Damage Step and AP, each
weapon's Magazine and Reserve, each Shield's AP, each LCA's Orders and each loaded Chipset (the sheet's tick boxes,
tracks.py); what the rules draw from them (a Disabled or Destroyed Component and its Gear, a Damage Step to roll,
Overheat, Running on Fumes, a Shield jettisoned, an empty Magazine); and the Anvil as the table leaves it for the
preview, which reads each Component's condition and the Gear mounted (M-R45). The preview starts every Sortie full of
EN, cold and with full Magazines (M-R60), so the table's EN, Heat and ammunition are not written back.

A Pilot tracks its Mettle (the Core's Damage Steps shake and wound the Pilot) and each held Skill's uses as its
frequency allows (M-R107), or a Sustained Skill's switch (M-R106).

Turns and Rounds (L142): each unit has one Turn in every Round, so the table's turn counter counts the units' Turns
within a Round; what a Skill may do once a Turn resets="turn", once a Round resets="round".
"""
from __future__ import annotations

import re
from typing import Any, Mapping, get_args

from ..house_rules import setting
from ..spec import Consequence, Tabletop, Track
from . import rules, tracks as sheet
from .options import OPTIONS
from .schema import COMPONENT_SLOTS, SLOT_LABELS, Condition, Core, StandardArm, Weapon, WeaponArm

CONDITIONS = get_args(Condition)  # intact, damaged, degraded, disabled, destroyed: the choice's index order
STEPS = tuple(c.capitalize() for c in CONDITIONS)
DOWN = 3  # from Disabled on, a Component stops working (M-R45)
# M-R45: what a Disabled Component's stats read as 0 take away, by slot (L1794; digest 2.1-2.6).
LOSES = {
    "core": "its positive stats count as 0 and the Anvil is removed from play (L821, L1818)",
    "mobility_base": "its Cruising Speed, Dodge and Load Tolerance bonuses count as 0, so no Dodge, kick or ram",
    "arm": "its Agility and Strength count as 0, so no punches",
    "weapon_arm": "its integrated weapon no longer fires",
    "generator": "its EN Output, EN Capacity, Charge Capacity and Heat Tolerance count as 0, and every Disabled "
                 "result of its table ends in Power Down with no Power Up (L1862-1870)",
    "electronics": "its Intercept and Refresh count as 0; the FCS goes with it or not as the Damage Step says "
                   "(L1879-1891)",
}
# M-R52: each Cooling's Overheat, beyond the common effects (L1186-1206).
OVERHEAT = {
    "gas": "base EN Output halved; every Component takes 2 Special damage now and 2 more each time Heat is gained; "
           "base dissipation rises by an amount the rulebook leaves out (L1191)",
    "liquid": "base EN Capacity halved; the Generator takes 4 Special damage now and 4 more at the end of each of "
              "your Turns",
    "plasma": "no Heat dissipation, Radiators included, until the end of your next Turn (Heat counts as Heat "
              "Tolerance + 1); spending EN deals that much Special damage to the Component spending it",
}
FREQUENCY = re.compile(r"(\d+)\s*/\s*(turn|round|sortie)", re.IGNORECASE)


# --- an Anvil's tracks ----------------------------------------------------------------------------------------------

def anvil_tracks(build: Any, catalogue, report, linked) -> list[Track]:
    anvil = rules.resolve(build, catalogue)
    counts = [counted(t) for t in sheet.tracks(anvil, report.stats)]
    found = [t for t in counts if not t.group]
    by_group: dict[str, list[Track]] = {}  # Orders and Shields, shown with the Component they are mounted on
    for t in counts:
        if t.group:
            by_group.setdefault(t.group, []).append(t)
    gear_reading = setting(OPTIONS, build, "disabled-gear")
    for slot in COMPONENT_SLOTS:
        part = anvil.parts[slot]
        if part is None:
            continue
        where = SLOT_LABELS[slot]
        mounted = anvil.on(slot)
        on_it = tuple(g.item.name for g in mounted)
        if isinstance(part, WeaponArm):
            on_it = (f"{part.name} ({part.weapon.weapon_type})",)
        gone = "its Gear goes Offline" if gear_reading == "offline" else "its Gear goes Offline only once Destroyed"
        found.append(Track(
            f"condition.{slot}", f"{where}: {part.name}", where, 0, len(STEPS) - 1,
            CONDITIONS.index(build.condition.get(slot, "intact")), STEPS,
            f"Damage Steps carry over with the part (M-R07). Disabled: positive stats count as 0, Drain included, "
            f"{gone} (M-R45); Destroyed: its {part.load} ST Load goes too.", "M-R07", lines=on_it,
            # What takes the Gear Offline with a Component that hosts Gear (M-R10): a Weapon Arm hosts none.
            facts={"disabled-gear": gear_reading} if isinstance(part, (StandardArm, Core)) else {}))
        found.append(Track(f"ap.{slot}", f"{where} AP", where, 0, part.ap, part.ap,
                           note=f"At 0 AP roll the next Damage Step, then AP refills to {part.ap}; the rest of that "
                                f"attack's damage is lost, and Hits on a Disabled Component are rerolled (M-R07, "
                                f"L1792-1796).", rule="M-R07", lines=on_it))
        if isinstance(part, WeaponArm):
            found += ammunition(f"weapon.{slot}", part.name, part.weapon, None, where)
        for g in mounted:
            if isinstance(g.item, Weapon):
                found += ammunition(g.path, g.item.name, g.item, g.entry.reserve, where)
        found += by_group.pop(where, [])
        found += chipsets(anvil, slot, where)
    return found + [t for rest in by_group.values() for t in rest]


def counted(t: sheet.Track) -> Track:
    """A sheet's row of boxes as the table's count (an illegal build's negative count is an empty one)."""
    high = max(0, t.count)
    start = high if t.start is None else min(max(0, t.start), high)
    return Track(t.key, t.label, t.group, 0, high, start, (), t.note, t.rule, t.mark, t.lines, facts=t.facts)


def ammunition(path: str, name: str, weapon, carried: int | None, where: str) -> list[Track]:
    """A weapon's Magazine, 1 down for every Hit attempted (L1395), and the Reserve it carries (M-R63)."""
    found = []
    if weapon.magazine:
        found.append(Track(f"{path}.magazine", f"Magazine: {name}", where, 0, weapon.magazine, weapon.magazine,
                           note="1 spent for each Hit attempted, a Burst's value for a Burst (L1395); refilled 1 to 1 "
                                "from the Reserve, never in combat (M-R63).", rule="M-R63", lines=(name,)))
    reserve = weapon.reserve if carried is None else carried
    if reserve:
        found.append(Track(f"{path}.reserve", f"Reserve: {name}", where, 0, reserve, reserve,
                           note=f"{reserve} carried of the {weapon.reserve} listed (M-R63); it refills the Magazine "
                                f"1 to 1 outside combat only (L1397).", rule="M-R63", lines=(name,)))
    return found


def chipsets(anvil, slot: str, where: str) -> list[Track]:
    """A box per loaded Chipset copy, each burnt out once used (M-R71); the stock Command Chipsets never are."""
    found = []
    for g in anvil.on(slot):
        for n, chipset in enumerate(g.chipsets):
            cost = "Orders not given" if chipset.orders is None else f"{chipset.orders} Orders"
            found.append(Track(f"{g.path}.chipsets[{n}]", f"{chipset.name} ({g.item.name})", where,
                               note=f"Burnt out once used (M-R71): {cost}, {chipset.en_cost} EN, {chipset.heat} Heat; "
                                    f"a target gains from one type of Command Action once a Round (L1525).",
                               rule="M-R71", lines=(g.item.name,)))
    return found


# --- what follows from an Anvil's state -----------------------------------------------------------------------------

def anvil_consequences(tracks: list[Track], state: Mapping[str, int]) -> list[Consequence]:
    value = {t.key: state.get(t.key, t.start) for t in tracks}
    keyed = {t.key: t for t in tracks}
    said: list[Consequence] = []
    greyed: set[str] = set()
    for t in tracks:
        if not t.key.startswith("condition.") or value[t.key] < DOWN:
            continue
        slot = t.key.split(".", 1)[1]
        c = component_down(t, slot, value[t.key], tracks)
        said.append(c)
        greyed |= set(c.greys)
    for t in tracks:
        if t.key.startswith("ap.") and value[t.key] <= 0 and t.key not in greyed:
            step = value[f"condition.{t.key[3:]}"]
            said.append(Consequence("M-R07", f"{t.group} at 0 AP: roll on its {STEPS[step + 1]} table, then its AP "
                                             f"refills to {t.high}; the rest of that attack's damage is lost (M-R07).",
                                    "warning"))
    heat = keyed.get("heat")
    if heat is not None and "heat" not in greyed and heat.mark is not None and value["heat"] > heat.mark:
        off = [k for k, g in keyed.items() if k.startswith("gear[") and set(g.lines) & set(heat.lines)]
        switched = f" ({', '.join(dict.fromkeys(heat.lines))})" if heat.lines else ""
        said.append(Consequence("M-R52", f"Heat {value['heat']} is over the Heat Tolerance of {heat.mark}: "
                                         f"Overheating (M-R52). Drain and Offset Gear switches off{switched} and the "
                                         f"FCS Maximum Range falls to its Reliable Range; "
                                         f"{OVERHEAT.get(heat.facts.get('cooling', ''), '')}. It ends at Heat {heat.mark} or less.",
                                "warning", tuple(off)))
    if "fuel" in keyed and "fuel" not in greyed and value["fuel"] <= 0:
        said.append(Consequence("M-R61", "Fuel 0: Running on Fumes (M-R61): Cruising Speed halved, no Flanking, Arm "
                                         "Agility −2 and Strength 0 for melee damage, BID EN costs doubled, until "
                                         "1 Fuel is gained (L1670-1678).", "warning"))
    for key, t in keyed.items():
        if key in greyed or value[key] > 0:
            continue
        if key.endswith(".ap") and key.startswith("gear["):
            said.append(Consequence("M-R64", f"{t.lines[0]} at 0 AP: Destroyed and jettisoned; the {t.group} takes "
                                             f"its own hits again (M-R64).", "warning", (key,)))
        elif key.endswith(".magazine"):
            said.append(Consequence("M-R63", f"{t.lines[0]}: Magazine empty; it fires again only once refilled from "
                                             f"its Reserve, outside combat (M-R63).", "info"))
    return said


def component_down(t: Track, slot: str, step: int, tracks: list[Track]) -> Consequence:
    """M-R45: a Disabled or Destroyed Component, its own tracks and, Offline with it, its Gear's."""
    state = STEPS[step]
    if slot == "core":  # L1818: a Disabled Core takes the Anvil out of the Sortie
        return Consequence("M-R45", f"{t.group} is {state} (M-R45): {LOSES['core']}.", "error",
                           tuple(o.key for o in tracks if o.key != t.key))
    destroyed = step > DOWN
    offline = destroyed or t.facts.get("disabled-gear") == "offline"
    own = [o.key for o in tracks if o.group == t.group and o.key != t.key and
           (offline or not o.key.startswith("gear["))]
    carries = "disabled-gear" in t.facts  # a Component Gear is mounted on
    loses = LOSES[("arm" if carries else "weapon_arm") if slot.endswith("_arm") else slot]
    gear = list(t.lines) if carries else []
    said = f"{t.group} is {state} (M-R45): {loses}"
    if gear:
        said += f"; {join(gear)} {'is' if len(gear) == 1 else 'are'} " + ("Offline" if offline else "still working")
    said += "; its Load no longer counts." if destroyed else "; its Load stays."
    if slot == "generator":
        own += ["en", "heat", "charge"]
    return Consequence("M-R45", said, "warning", tuple(k for k in own if any(o.key == k for o in tracks)))


def join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def anvil_played(document: dict[str, Any], tracks: list[Track], state: Mapping[str, int]) -> dict[str, Any]:
    """The Anvil with each Component's condition as the table has it (the preview's Anvil applies M-R45), and every
    Shield at 0 AP jettisoned (M-R64): off the Gear, so off the Carried Load that sets the Flanking Speed a Slam or
    Sideswipe rolls."""
    value = {t.key: state.get(t.key, t.start) for t in tracks}
    condition = {slot: CONDITIONS[value[f"condition.{slot}"]] for slot in COMPONENT_SLOTS
                 if f"condition.{slot}" in value}
    condition = {slot: c for slot, c in condition.items() if c != "intact"}
    dropped = {f"gear[{i}]" for i in range(len(document.get("gear") or []))
               if value.get(f"gear[{i}].ap", 1) <= 0}
    gear = [dict(g) for i, g in enumerate(document.get("gear") or []) if f"gear[{i}]" not in dropped]
    return {**document, "condition": condition, "gear": gear}


# --- a Pilot's tracks -----------------------------------------------------------------------------------------------

def pilot_tracks(build: Any, catalogue, report, linked) -> list[Track]:
    # Reading (digest 8.3 #16): no pool floor is given; Mettle stops at 1, which the Pilot's document also holds.
    found = [Track("mettle", "Mettle", "", 1, build.mettle, build.mettle,
                   note=f"Every pool rolls Mettle {build.mettle} plus its bonus dice (M-R90, M-R92). The Core's Damage "
                        f"Steps take 1 each: until the end of the next Turn (Damaged-1, Degraded-5, Degraded-4), for "
                        f"the Sortie (Degraded-3 to -1) or the next Sortie (Disabled) (L1824-1846); a Mobility Base's "
                        f"Disabled-3 1 for the Sortie.", rule="M-R90")]
    for held in report.detail.skills:
        skill = catalogue.items.get(held.key)
        if skill is None:
            continue
        costs = ", ".join(f"{n} {what}" for what, n in skill.costs.model_dump().items() if n)
        paying = f"; costs {costs}" if costs else ""
        if skill.category == "sustained":
            found.append(Track(f"skill.{skill.key}.on", f"{skill.name} on", "Skills",
                               note=f"Sustained: switched only in Upkeep, never on and off in one Round "
                                    f"(M-R106){paying}.", rule="M-R106", lines=(skill.name,)))
        if skill.frequency:
            found.append(uses(skill, paying))
    return found


def uses(skill, paying: str) -> Track:
    """A Skill's uses as its frequency allows (M-R107): a box for one, a count for more."""
    found = FREQUENCY.fullmatch(skill.frequency.strip())
    if found is None:  # a frequency the table cannot count: a box, ticked and cleared by hand
        return Track(f"skill.{skill.key}", f"{skill.name} used", "Skills",
                     note=f"{skill.frequency} (M-R107, counted by hand){paying}.", rule="M-R107", lines=(skill.name,))
    times, per = int(found.group(1)), found.group(2).lower()
    return Track(f"skill.{skill.key}", f"{skill.name} used", "Skills", 0, max(1, times), 0,
                 note=f"{skill.frequency} (M-R107){paying}.", rule="M-R107", lines=(skill.name,),
                 resets=per if per in ("turn", "round") else "")


def pilot_consequences(tracks: list[Track], state: Mapping[str, int]) -> list[Consequence]:
    mettle = next((t for t in tracks if t.key == "mettle"), None)
    now = state.get("mettle", mettle.start) if mettle is not None else 0
    if mettle is None or now >= mettle.high:
        return []
    return [Consequence("M-R90", f"Mettle {now} of {mettle.high}: every pool rolls {mettle.high - now} "
                                 f"di{'e' if mettle.high - now == 1 else 'ce'} fewer, the Anvil's attacks included "
                                 f"(M-R90).", "warning")]


def pilot_played(document: dict[str, Any], tracks: list[Track], state: Mapping[str, int]) -> dict[str, Any]:
    """The Pilot with its Mettle as the table has it: the Anvil's preview rolls the Pilot's Mettle (M-R90)."""
    mettle = next((t for t in tracks if t.key == "mettle"), None)
    if mettle is None:
        return dict(document)
    return {**document, "mettle": state.get("mettle", mettle.start)}


ANVIL = Tabletop(anvil_tracks, anvil_consequences, anvil_played)
PILOT = Tabletop(pilot_tracks, pilot_consequences, pilot_played)
