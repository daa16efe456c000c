"""LANCER at the table: the pilot's HP and Limited gear, and each mech's HP, Heat, Structure, Stress, Repairs,
Overcharge, CORE power, Eject, reactions and Limited uses, as the mech sheet prints them; what the chapter draws from
them (a structure check at 0 HP, CRITICAL or destroyed out of Structure, an overheating check past the Heat Cap);
and the pilot as the table leaves it for the preview: a Limited weapon with no uses left no longer fires.

The beta chapter has no structure or overheating table (A-10, A-11): the table records the result the players'
own table gave, as a choice, and shows it as text.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..house_rules import setting
from ..spec import Consequence, Tabletop, Track
from . import construction as c
from .preview import OVERCHARGE
from .rules import OPTIONS
from .schema import tagged

STRUCTURE_RESULTS = ("not made", "no lasting effect", "Impaired", "Stunned", "a weapon or system lost", "destroyed")
OVERHEAT_RESULTS = ("not made", "no lasting effect", "Impaired", "Shut Down", "CORE BREACH", "reactor meltdown")
DESTROYING = {"destroyed", "reactor meltdown"}
OUT_OF_STRUCTURE = {
    "critical": "At 0: CRITICAL, no HP or repairs, a structure check whenever it takes damage (L-B14, beta reading "
                "of A-10). At 0 HP: a structure check, then 1 Structure damage (L976–977).",
    "destroyed": "At 0: destroyed (L-B14, 1.0 reading of A-10). At 0 HP: a structure check, then 1 Structure damage "
                 "(L976–977).",
}
MECH_KEY = re.compile(r"^(mechs\[\d+\])\.(.+)$")


def tracks(build: Any, catalogue, report, linked) -> list[Track]:
    found = [Track("pilot.hp", "Pilot HP", "", 0, report.stats["pilot_hp"].value, report.stats["pilot_hp"].value,
                   note=f"{report.stats['pilot_hp'].explain}; at 0 the pilot is down and out (L-R04, L-R05)",
                   rule="L-R05")]
    items = catalogue.items
    for g, key in enumerate(build.gear):  # on foot no Engineering adds uses (L-R09: talents and mechs' skills stay out)
        found += limited(f"gear[{g}]", items[key], 0, "", "L-R21")
    names = [mech.name for mech in build.mechs]
    for m, (mech, detail) in enumerate(zip(build.mechs, report.detail.mechs)):
        group = mech.name if names.count(mech.name) == 1 else f"{mech.name} ({m + 1})"
        found += mech_tracks(build, f"mechs[{m}]", group, mech, detail, items)
    return found


def mech_tracks(build: Any, at: str, group: str, mech, detail, items) -> list[Track]:
    stat = {k: int(v.value) for k, v in detail.stats.items() if k != "size"}
    hp, cap, structure, stress, repairs = (stat[k] for k in ("hp", "heatcap", "structure", "stress", "repcap"))
    zero = setting(OPTIONS, build, "structure-zero")
    steps = OVERCHARGE[setting(OPTIONS, build, "overcharge")]
    core = items[mech.frame].core_system
    found = [
        Track(f"{at}.hp", "HP", group, 0, hp, hp, rule="L-B08",
              # the chapter does not say HP refills after Structure damage; 1.0 refills it, the players do
              note=f"{detail.stats['hp'].explain} (L-B08). At 0: a structure check, then 1 Structure damage, then "
                   f"HP back to {hp} (L-B14)."),
        # A-11: heat stays on the gauge past the cap (what the check does to it is the players' table's); room for
        # a cap's worth more
        Track(f"{at}.heat", "Heat", group, 0, max(2 * cap, cap + 6), 0, mark=cap, rule="L-C05",
              note=f"Heat Cap {cap}: past it (not at it, A-11), an overheating check (L-C05). Stabilize or Shut Down "
                   f"clears it (L-R43, L-R44)."),
        Track(f"{at}.structure", "Structure", group, 0, structure, structure, rule="L-B14",
              note=OUT_OF_STRUCTURE[zero], facts={"structure-zero": zero}),
        Track(f"{at}.structure_check", "Structure check result", group, 0, len(STRUCTURE_RESULTS) - 1, 0,
              STRUCTURE_RESULTS, rule="L-B14",
              note="The beta chapter has no structure table (A-10): roll your table's, pick what it gave, and apply "
                   "it at the table (text only); back to \"not made\" for the next check (L-B14)."),
    ]
    if setting(OPTIONS, build, "stress") == "track":
        found.append(Track(f"{at}.stress", "Stress", group, 0, stress, stress, rule="L-B14",
                           note=f"1 Stress with each overheating check; at 0: "
                                f"{'CORE BREACH' if zero == 'critical' else 'reactor meltdown, destroyed'} "
                                f"(L-B14, A-11, A-12)."))
    found += [
        Track(f"{at}.overheat_check", "Overheating check result", group, 0, len(OVERHEAT_RESULTS) - 1, 0,
              OVERHEAT_RESULTS, rule="L-C05",
              note="The beta chapter has no overheating table (A-11): roll your table's, pick what it gave, and apply "
                   "it at the table (text only); back to \"not made\" for the next check (L-C05)."),
        Track(f"{at}.repairs", "Repairs", group, 0, repairs, repairs, rule="L-R18",
              note=f"Repair Cap {repairs} a mission (L-R18): Stabilize spends 1 to refill HP (L-R43)."),
        Track(f"{at}.overcharge", "Overcharge", group, 0, len(steps) - 1, 0,
              tuple(f"next: {step} heat" + (", then every time" if i == len(steps) - 1 else "")
                    for i, step in enumerate(steps)), rule="L-R31",
              note="Once a turn, a free quick action for the heat shown, rolled and added to Heat at the table; a full "
                   "repair sets it back (L-R31)."),
        Track(f"{at}.overcharged", "Overcharged this turn", group, rule="L-R31", resets="turn",
              note="Once a turn (L-R31)."),
        Track(f"{at}.core", f"CORE power: {core.active_name or core.name}", group, rule="L-M11",
              note=f"The frame's CORE system, {core.name}: ticked once used. The beta chapter has no CORE systems "
                   f"(L-M11): its effect, on the sheet, is text only."),
        Track(f"{at}.eject", "Eject used", group, rule="L-R20",
              note="Once per full repair; the pilot flies 6 (text only), the mech is Impaired until a full repair "
                   "(L-R20, L-R45)."),
        Track(f"{at}.brace", "Brace used", group, rule="L-R13", resets="round",
              note="Once a round, one reaction a turn (L-R13, L-R38); then +1 Difficulty against it, no reactions "
                   "and one quick action on its next turn (L-R39, text only)."),
        Track(f"{at}.overwatch", "Overwatch used", group, rule="L-R13", resets="round",
              note="Once a round, one reaction a turn (L-R13, L-R38, L-R40)."),
    ]
    more = stat["limited_bonus"]
    for n, mount in enumerate(mech.mounts):
        for w, key in enumerate(mount.weapons):
            found += limited(f"{at}.mounts[{n}].weapons[{w}]", items[key], more, group, "L-B08")
    for s, key in enumerate(mech.systems):
        found += limited(f"{at}.systems[{s}]", items[key], more, group, "L-B08")
    return found


def limited(key: str, item, more: int, group: str, rule: str) -> list[Track]:
    """A Limited item's uses left; one whose number is rolled at the table (a prototype's) is a box to tick once
    it is spent."""
    tag = tagged(item, "tg_limited")
    if tag is None:
        return []
    uses = c.limited_uses(item, more)
    if not uses:
        return [Track(key, f"{item.name}: out of uses", group, rule=rule,
                      note=f"Limited {tag.val}: the uses are rolled at the table (text only) ({rule}).")]
    bonus = f" + {more} from Engineering" if more else ""
    return [Track(key, f"{item.name} uses", group, 0, uses, uses, rule=rule,
                  note=f"Limited {tag.val}{bonus}: uses a mission ({rule}).")]


def spent(track: Track, value: int) -> bool:
    """Whether a Limited item's track says it has no uses left."""
    return value == 0 if track.high > 1 or track.start else value == 1


def consequences(tracks: list[Track], state: Mapping[str, int]) -> list[Consequence]:
    value = {t.key: state.get(t.key, t.start) for t in tracks}
    said = []
    by_key = {t.key: t for t in tracks}
    pilot = by_key.get("pilot.hp")
    if pilot is not None and value[pilot.key] == 0:
        said.append(Consequence("L-R05", "The pilot is at 0 HP: down and out (L-R05).", "error"))
    said += [Consequence(t.rule, f"{t.label.removesuffix(' uses').removesuffix(': out of uses')} has no uses left "
                                 f"({t.rule}).", "info", (t.key,))
             for t in tracks if t.key.startswith("gear[") and spent(t, value[t.key])]
    mechs: dict[str, dict[str, Track]] = {}
    for track in tracks:
        found = MECH_KEY.match(track.key)
        if found:
            mechs.setdefault(found[1], {})[found[2]] = track
    for own in mechs.values():
        said += mech_consequences(own, value)
    return said


def mech_consequences(own: dict[str, Track], value: Mapping[str, int]) -> list[Consequence]:
    name = own["hp"].group
    at = {part: value[track.key] for part, track in own.items()}
    structure, stress = own["structure"], own.get("stress")
    structure_result = STRUCTURE_RESULTS[at["structure_check"]]
    overheat_result = OVERHEAT_RESULTS[at["overheat_check"]]
    critical = structure.facts["structure-zero"] == "critical"

    def wrecked(cause: str, message: str) -> list[Consequence]:
        return [Consequence("L-B14", message, "error", tuple(t.key for part, t in own.items() if part != cause))]

    if at["structure"] == 0 and not critical:
        return wrecked("structure", f"{name} is out of Structure: destroyed (L-B14).")
    if structure_result in DESTROYING:
        return wrecked("structure_check", f"{name}: the structure check destroyed it (your table's result, L-B14).")
    if overheat_result in DESTROYING:
        return wrecked("overheat_check", f"{name}: the overheating check ended in a reactor meltdown, destroyed "
                                         f"(your table's result, L-C05).")
    if stress is not None and at["stress"] == 0 and not critical:
        return wrecked("stress", f"{name} is out of Stress: reactor meltdown, destroyed (L-B14).")
    said = []
    if at["structure"] == 0:
        said.append(Consequence("L-B14", f"{name} is CRITICAL: it cannot gain HP or repair, and makes a structure "
                                         f"check each time it takes damage (L-B14).", "error", (own["repairs"].key,)))
    if stress is not None and at["stress"] == 0:
        said.append(Consequence("L-B14", f"{name} is in CORE BREACH: it cannot cool or lose heat, and makes an "
                                         f"overheating check each time it takes heat (L-B14)."))
    if at["hp"] == 0 and at["structure"]:
        said.append(Consequence("L-B14", f"{name} is at 0 HP: make a structure check, then mark 1 Structure damage "
                                         f"and refill HP to {own['hp'].high} (L-B14)."))
    lost = structure.high - at["structure"]
    if lost and structure_result == "not made":
        said.append(Consequence("L-B14", f"{name} has taken {lost} Structure damage: pick the structure check's "
                                         f"result (the beta chapter has no table, A-10) (L-B14)."))
    elif structure_result != "not made":
        said.append(Consequence("L-B14", f"{name}'s structure check: {structure_result}, applied at the table "
                                         f"(L-B14).", "info"))
    heat, cap = at["heat"], own["heat"].mark
    if heat > cap:
        cost = " and mark 1 Stress" if stress is not None else ""
        pick = ", and pick its result" if stress is None and overheat_result == "not made" else ""
        said.append(Consequence("L-C05", f"{name}'s Heat {heat} is past its Heat Cap {cap}: make an overheating "
                                         f"check{cost}{pick} (L-C05)."))
    if stress is not None and stress.high > at["stress"] and overheat_result == "not made":
        said.append(Consequence("L-B14", f"{name} has taken {stress.high - at['stress']} Stress: pick the "
                                         f"overheating check's result (the beta chapter has no table, A-11) (L-B14)."))
    elif overheat_result != "not made":
        said.append(Consequence("L-C05", f"{name}'s overheating check: {overheat_result}, applied at the table "
                                         f"(L-C05).", "info"))
    if at["repairs"] == 0 and own["repairs"].high:
        said.append(Consequence("L-R18", f"{name} has no Repairs left this mission: Stabilize can cool but not "
                                         f"refill HP (L-R18, L-R43).", "info"))
    if at["eject"]:
        said.append(Consequence("L-R20", f"{name} is Impaired until a full repair: its pilot ejected (L-R20)."))
    said += [Consequence(t.rule, f"{name}: {t.label.removesuffix(' uses').removesuffix(': out of uses')} has no "
                                 f"uses left ({t.rule}).", "info", (t.key,))
             for part, t in own.items() if part.startswith(("mounts[", "systems[")) and spent(t, at[part])]
    return said


WEAPON_KEY = re.compile(r"^mechs\[(\d+)\]\.mounts\[(\d+)\]\.weapons\[(\d+)\]$")


def played(document: dict[str, Any], tracks: list[Track], state: Mapping[str, int]) -> dict[str, Any]:
    """The pilot with each Limited weapon that has no uses left taken off its mount (with its mod), which is what the
    preview reads of the table: the weapons it fires."""
    gone: dict[tuple[int, int], set[int]] = {}
    for track in tracks:
        found = WEAPON_KEY.match(track.key)
        if found and spent(track, state.get(track.key, track.start)):
            m, n, w = map(int, found.groups())
            gone.setdefault((m, n), set()).add(w)
    mechs = []
    for m, mech in enumerate(document.get("mechs", [])):
        mounts = []
        for n, mount in enumerate(mech.get("mounts", [])):
            out = gone.get((m, n), set())
            if out:
                weapons = mount.get("weapons", [])
                mods = list(mount.get("mods", [])) + [None] * (len(weapons) - len(mount.get("mods", [])))
                mount = {**mount, "weapons": [k for w, k in enumerate(weapons) if w not in out],
                         "mods": [k for w, k in enumerate(mods) if w not in out]}
            mounts.append(mount)
        mechs.append({**mech, "mounts": mounts})
    return {**document, "mechs": mechs} if "mechs" in document else dict(document)


PILOT = Tabletop(tracks, consequences, played)
