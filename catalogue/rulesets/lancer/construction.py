"""LANCER 1.0 construction: a pilot's advancement budgets, a mech's derived stats and what each mount holds.

The seed is only the beta combat chapter, so these rules are the published 1.0 character creation, with the
constants of COMP/CON's public `lib/rules.json`. Their codes (L-Bnn) are Hardpoint's own; the rule index cites
the 1.0 source by section.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..base import memo, with_article
from .schema import tagged

MAX_LL = 12  # L-B01
MAX_HASE = 6  # L-B03
# A mech's statistics as the books name them, and a rank as they print it: the pages and the text say the same.
MECH_STAT_LABELS = {"hp": "HP", "armor": "Armor", "evasion": "Evasion", "edef": "E-Defense", "speed": "Speed",
                    "heatcap": "Heat Cap", "sp": "SP", "tech_attack": "Tech Attack", "save": "Save",
                    "sensor_range": "Sensors", "repcap": "Repair Cap", "limited_bonus": "Limited uses +",
                    "structure": "Structure", "stress": "Stress"}
RANK_NAMES = ("—", "I", "II", "III")
START_TRIGGERS, MAX_TRIGGER_RANK, TRIGGER_BONUS = 4, 3, 2  # L-B04: four at +2, each rank +2, at most +6
START_TALENTS, MAX_TALENT_RANK = 3, 3  # L-B05
MAX_LICENCE_RANK = 3  # L-B06
CORE_BONUS_EVERY = 3  # L-B07: one at LL 3, 6, 9 and 12
MAX_ARMOR = 4  # L-B14
SIZES = (0.5, 1, 2, 3)  # L-B08: a size bonus (Fomorian Frame) steps through these, "½ to 1, 1 to 2", up to 3
AI_CAP = 1  # L-B12: AIs a mech carries, more with an `ai_cap` bonus (The Lesson of Shaping)
BASE_STRUCTURE = BASE_STRESS = 4
HASE = ("hull", "agility", "systems", "engineering")
BETA_SKILLS = HASE + ("targeting",)  # the beta glossary's fifth modifier, a house-rule reading

# L-B09: what each mount holds, as sets of weapon sizes that fit together (mount_fittings, plus Flex's two Aux).
FITTINGS = {
    "Aux": [("Aux",)],
    "Main": [("Main",), ("Aux",)],
    "Flex": [("Main",), ("Aux",), ("Aux", "Aux")],
    "Heavy": [("Heavy",), ("Main",), ("Aux",)],
    "Main/Aux": [("Main", "Aux"), ("Main",), ("Aux",)],
    "Aux/Aux": [("Aux", "Aux"), ("Aux",)],
}
# L-B09: the mounts CORE bonuses give, by the bonus's id as COMP/CON models them (MechLoadout; lancer-data says so in
# text only). Improved Armament and Integrated Weapon add a mount after the frame's; Mount Retrofitting makes one of
# the frame's mounts Main/Aux.
ADDED_MOUNTS = {"cb_improved_armament": "Flex", "cb_integrated_weapon": "Aux"}
REFITTED_MOUNTS = {"cb_mount_retrofitting": "Main/Aux"}
FEWER_MOUNTS_THAN = {"cb_improved_armament": 3}  # only on a mech with fewer mounts, integrated ones not counted
UNMODDED = {"cb_integrated_weapon"}  # L-B11: "It can't be modified."


@dataclass
class Issue:
    code: str
    path: str
    message: str


@dataclass
class Pilot:
    """The choices an advancement rule is judged on."""

    ll: int
    hase: dict[str, int] = field(default_factory=dict)
    triggers: dict[str, int] = field(default_factory=dict)  # skill -> rank 1 to 3
    talents: dict[str, int] = field(default_factory=dict)  # talent -> rank 1 to 3
    licences: dict[str, int] = field(default_factory=dict)  # licence -> rank 1 to 3
    core_bonuses: list[str] = field(default_factory=list)


def grit(ll: int, reading: str = "ceil") -> int:
    """L-B02: Grit is half the Licence Level, rounded up in 1.0 (the beta's "½ your level" may round down)."""
    return math.ceil(ll / 2) if reading == "ceil" else ll // 2


def budgets(ll: int) -> dict[str, int]:
    """What a pilot of this Licence Level has to spend (L-B03 to L-B07)."""
    return {"hase": 2 + ll, "triggers": START_TRIGGERS + ll, "talents": START_TALENTS + ll, "licences": ll,
            "core_bonuses": ll // CORE_BONUS_EVERY}


def check_pilot(pilot: Pilot, skills: tuple[str, ...] = HASE) -> list[Issue]:
    """Every advancement rule the pilot breaks, by code; `skills` are the mech skills the table plays with."""
    issues: list[Issue] = []
    if not 0 <= pilot.ll <= MAX_LL:
        issues.append(Issue("L-B01", "ll", f"Licence Level {pilot.ll}: it runs from 0 to {MAX_LL}."))
        return issues
    spend = budgets(pilot.ll)

    def over(code: str, path: str, spent: int, allowed: int, what: str) -> None:
        if spent > allowed:
            issues.append(Issue(code, path, f"{spent} {what}; LL{pilot.ll} gives {allowed}."))

    over("L-B03", "hase", sum(pilot.hase.values()), spend["hase"], "mech skill points")
    for skill, value in pilot.hase.items():
        if skill not in skills:
            issues.append(Issue("L-B03", f"hase.{skill}", f"{skill.title()} is not a mech skill under these rules "
                                                           f"({', '.join(s.title() for s in skills)})."))
        elif not 0 <= value <= MAX_HASE:
            issues.append(Issue("L-B03", f"hase.{skill}", f"{skill.title()} {value}: each mech skill runs from 0 to {MAX_HASE}."))
    for name, ranks, code, cap, what in (
            ("triggers", pilot.triggers, "L-B04", MAX_TRIGGER_RANK, "skill trigger ranks"),
            ("talents", pilot.talents, "L-B05", MAX_TALENT_RANK, "talent ranks"),
            ("licences", pilot.licences, "L-B06", MAX_LICENCE_RANK, "licence ranks")):
        over(code, name, sum(ranks.values()), spend[name], what)
        for key, rank in ranks.items():
            if not 1 <= rank <= cap:
                issues.append(Issue(code, f"{name}.{key}", f"{key} at rank {rank}: ranks run from 1 to {cap}."))
    if len(pilot.triggers) < START_TRIGGERS:
        issues.append(Issue("L-B04", "triggers", f"{len(pilot.triggers)} skill triggers; every pilot starts with "
                                                 f"{START_TRIGGERS}."))
    over("L-B07", "core_bonuses", len(pilot.core_bonuses), spend["core_bonuses"], "CORE bonuses")
    return issues


CORE_BONUS_RANKS = 3  # L-B07: licence ranks a pilot needs among a manufacturer's frames for its CORE bonuses


def check_core_bonuses(bonuses: list, licences: dict[str, int], frames: list) -> list[Issue]:
    """L-B07: a CORE bonus needs 3 licence ranks among its manufacturer's frames; the generic maker's (the one
    with a licence-free frame) are open to all."""
    free = {f.source for f in frames if not f.license_level}
    issues = []
    for i, bonus in enumerate(bonuses):
        if bonus.source in free:
            continue
        ranks = sum(licences.get(f.key, 0) for f in frames if f.source == bonus.source)
        if ranks < CORE_BONUS_RANKS:
            issues.append(Issue("L-B07", f"core_bonuses[{i}]", f"{bonus.name} ({bonus.source}) needs {CORE_BONUS_RANKS} "
                                                             f"licence ranks among {bonus.source} frames; the pilot has {ranks}."))
    return issues


def trigger_bonus(rank: int) -> int:
    """L-B04: +2 a rank, so +2, +4 or +6."""
    return TRIGGER_BONUS * rank


@dataclass(frozen=True)
class FrameStats:
    """A frame's printed statistics, in COMP/CON's field names."""

    size: float
    hp: int
    armor: int
    evasion: int
    edef: int
    heatcap: int
    repcap: int
    sensor_range: int
    tech_attack: int
    save: int
    speed: int
    sp: int
    structure: int = BASE_STRUCTURE
    stress: int = BASE_STRESS


@dataclass(frozen=True)
class Bonus:
    """One of an LCP's structured `bonuses` on a stat, and the item or trait it comes from."""

    stat: str  # the LCP bonus id: hp, armor, sensor, pilot_evasion…
    value: int
    source: str
    replace: bool = False  # pilot armour sets Evasion, E-Defense and Speed rather than adding to them


# LCP bonus ids that add to a mech statistic, by the statistic's name in `derived`.
MECH_BONUSES = {"hp": "hp", "armor": "armor", "evasion": "evasion", "edef": "edef", "speed": "speed", "sp": "sp",
                "heatcap": "heatcap", "repcap": "repcap", "save": "save", "sensor": "sensor_range",
                "tech_attack": "tech_attack", "limited_bonus": "limited_bonus", "ai_cap": "ai_cap", "size": "size",
                "structure": "structure", "stress": "stress"}
TEMPLATE = re.compile(r"^\s*[-+]?\s*(\d+|\{ll\}|\{grit\})(\s*[-+]\s*(\d+|\{ll\}|\{grit\}))*\s*$")


def bonuses(entries: list, source: str, ll: int, grit_: int) -> list[Bonus]:
    """An item's `bonuses` that set a number: values may be written "{ll}", "{grit}" or "2 + {ll}" (lancer-data's
    README). Bonuses scoped to weapons or damage types, and dice lists (Overcharge), are effects on attacks, which
    the sheet keeps as text."""
    found = []
    for data in entries:
        if not isinstance(data, dict):
            continue
        if any(data.get(scope) for scope in ("weapon_types", "weapon_sizes", "damage_types", "range_types")):
            continue
        value = _number(data.get("val"), ll, grit_)
        if isinstance(data.get("id"), str) and value is not None:
            found.append(Bonus(data["id"], value, source, data.get("replace") is True))
    return found


def _number(value, ll: int, grit_: int) -> int | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if not isinstance(value, str) or not TEMPLATE.match(value):
        return None
    text = value.replace("{ll}", str(ll)).replace("{grit}", str(grit_)).replace(" ", "")
    return sum(int(term) for term in re.findall(r"[-+]?\d+", text))


def derived(frame: FrameStats, ll: int, hase: dict[str, int], grit_reading: str = "ceil",
            armor_cap: int = MAX_ARMOR, extra: list[Bonus] | None = None) -> dict[str, tuple[int, str]]:
    """L-B08: the mech's statistics from its frame, its pilot and the structured bonuses of what it carries (the
    frame's traits, its systems, the pilot's CORE bonuses and talents), each with its computation."""
    g = grit(ll, grit_reading)
    h, a, s, e = (hase.get(k, 0) for k in HASE)
    stats = {
        "hp": (frame.hp + g + 2 * h, f"frame {frame.hp} + Grit {g} + 2 × Hull {h}"),
        "repcap": (frame.repcap + h // 2, f"frame {frame.repcap} + ⌊Hull {h} / 2⌋"),
        "evasion": (frame.evasion + a, f"frame {frame.evasion} + Agility {a}"),
        "speed": (frame.speed + a // 2, f"frame {frame.speed} + ⌊Agility {a} / 2⌋"),
        "edef": (frame.edef + s, f"frame {frame.edef} + Systems {s}"),
        "tech_attack": (frame.tech_attack + s, f"frame {frame.tech_attack:+d} + Systems {s}"),
        "sp": (frame.sp + g + s // 2, f"frame {frame.sp} + Grit {g} + ⌊Systems {s} / 2⌋"),
        "heatcap": (frame.heatcap + e, f"frame {frame.heatcap} + Engineering {e}"),
        "limited_bonus": (e // 2, f"⌊Engineering {e} / 2⌋ more uses of Limited systems and weapons"),
        "save": (frame.save + g, f"frame {frame.save} + Grit {g}"),
        "sensor_range": (frame.sensor_range, f"frame {frame.sensor_range}"),
        "armor": (frame.armor, f"frame {frame.armor}"),
        "structure": (frame.structure, "frame"),
        "stress": (frame.stress, "frame"),
        "size": (frame.size, f"frame {frame.size:g}"),
        "ai_cap": (AI_CAP, "one AI"),
    }
    for bonus in extra or []:
        stat = MECH_BONUSES.get(bonus.stat)
        if stat is None:
            continue
        value, explain = stats[stat]
        stats[stat] = (value + bonus.value, f"{explain} {bonus.value:+d} {bonus.source}".strip())
    armor, explain = stats["armor"]
    if armor > armor_cap:
        stats["armor"] = (armor_cap, f"{explain}, at most {armor_cap}")
    size, explain = stats["size"]
    if size != frame.size:  # a bonus counts sizes, not spaces: from ½ one size up is 1
        step = SIZES.index(frame.size) + int(size - frame.size)
        stats["size"] = (SIZES[max(0, min(step, len(SIZES) - 1))], f"{explain}, counted in sizes (½, 1, 2, 3)")
    return stats


def limited_uses(item, bonus: int) -> int:
    """The uses a Limited item starts a mission with: its Limited value plus the mech's Limited bonus (L-B08), none
    for an item without a number (the prototypes roll theirs at the table) or with an absurd one."""
    limited = tagged(item, "tg_limited")
    value = str(limited.val) if limited is not None else ""
    return int(value) + bonus if value.isascii() and value.isdigit() and len(value) <= 6 else 0


def fits(mount: str, sizes: list[str]) -> bool:
    """L-B09: whether weapons of these sizes fit one mount together (Integrated mounts hold their own weapon)."""
    return tuple(sorted(sizes, reverse=True)) in [tuple(sorted(f, reverse=True)) for f in FITTINGS.get(mount, [])]


def adds_mount(bonus: str, frame_mounts: list[str]) -> bool:
    """L-B09: whether a CORE bonus adds a mount to a mech on a frame with these mounts."""
    limit = FEWER_MOUNTS_THAN.get(bonus)
    return bonus in ADDED_MOUNTS and (limit is None or sum(m != "Integrated" for m in frame_mounts) < limit)


def mount_type(frame_mounts: list[str], index: int, bonus: str | None) -> str | None:
    """L-B09: what a mech's mount `index` is: the frame's (Main/Aux where Mount Retrofitting refits it), or past the
    frame's, the one its CORE bonus adds; None where no rule gives that mount."""
    if index < len(frame_mounts):
        return REFITTED_MOUNTS.get(bonus or "", frame_mounts[index])
    return ADDED_MOUNTS.get(bonus or "")


def superheavy_fits(mounts: list[str]) -> bool:
    """L-B09: a Superheavy weapon takes a Heavy mount and one more mount."""
    return "Heavy" in mounts and len(mounts) >= 2


def granted(catalogue) -> frozenset[str]:
    """Items that come with something else, never picked on their own: a frame's integrated weapons and systems,
    and what a talent rank gives (its `integrated` and `special_equipment`, the items marked `talent_item`).
    Worked out once per catalogue: the pickers ask on every request."""
    kept = memo(catalogue)
    if "granted" not in kept:
        given = {key for frame in catalogue.of("frame") for key in listed(frame.core_system, "integrated")}
        for talent in catalogue.of("talent"):
            for rank in talent.ranks:
                given.update(listed(rank, "integrated"))
                given.update(listed(rank, "special_equipment"))
        kept["granted"] = frozenset(given | {key for key, item in catalogue.items.items()
                                             if (item.model_extra or {}).get("talent_item") is True})
    return kept["granted"]


def listed(part, field: str) -> list:
    """An LCP field kept as it came (not modelled), read as the list lancer-data writes there: a pack may hold
    anything in it, which counts for nothing."""
    value = (part.model_extra or {}).get(field)
    return [entry for entry in value if isinstance(entry, (str, dict))] if isinstance(value, list) else []


def licensed(licence_level: int, licence: str | None, ranks: dict[str, int]) -> bool:
    """L-B13: LL0 items are free to all; others need their licence at a rank at least their level."""
    return licence_level == 0 or (licence is not None and ranks.get(licence, 0) >= licence_level)


# --- a mech's load-out (L-B09 to L-B13) ---------------------------------------------------------------

SIZE = {"Auxiliary": "Aux", "Main": "Main", "Heavy": "Heavy", "Superheavy": "Superheavy"}  # Ship-class: no mount


@dataclass
class Mount:
    """One of a mech's mounts with what it holds. A mount left to brace a Superheavy weapon holds nothing."""

    type: str | None  # Aux, Main, Flex, Heavy, Main/Aux, Aux/Aux, Integrated (mount_type); None: no such mount
    weapons: list = field(default_factory=list)  # Weapon items
    mods: list = field(default_factory=list)  # Mod items, each on the weapon at the same index (or None)
    bracing: bool = False
    core_bonus: str | None = None  # the CORE bonus that adds or refits it


def check_mech(frame, mounts: list[Mount], systems: list, sp: int, licences: dict[str, int],
               licence_names: dict[str, str] | None = None, ai_cap: int = AI_CAP) -> list[Issue]:
    """The load-out rules a mech breaks: fittings (L-B09), SP (L-B10), mods (L-B11), Unique and AI systems
    (L-B12) and licences (L-B13)."""
    issues: list[Issue] = []
    licence_names = licence_names or {}
    braces = sum(m.bracing and not m.weapons for m in mounts)
    superheavies = 0
    for i, mount in enumerate(mounts):
        path = f"mounts[{i}]"
        sizes = [SIZE.get(w.mount, w.mount) for w in mount.weapons]
        if "Superheavy" in sizes:
            superheavies += 1
            if mount.type != "Heavy" or len(sizes) > 1:
                issues.append(Issue("L-B09", path, "A Superheavy weapon goes alone on a Heavy mount."))
        elif sizes and mount.type not in (None, "Integrated") and not fits(mount.type, sizes):
            mount_kind = with_article(mount.type)
            issues.append(Issue("L-B09", path, f"{mount_kind[0].upper()}{mount_kind[1:]} mount does not hold "
                                               f"{' + '.join(sizes)}."))
        if len(mount.mods) > len(mount.weapons):
            issues.append(Issue("L-B11", path, "A mod goes on a weapon, one mod a weapon."))
        for weapon, mod in zip(mount.weapons, mount.mods):
            if mod is not None and not mod_fits(mod, weapon):
                issues.append(Issue("L-B11", path, f"{mod.name} cannot go on {weapon.name} ({weapon.mount} {weapon.type})."))
    if superheavies > braces:
        issues.append(Issue("L-B09", "mounts", "A Superheavy weapon takes a Heavy mount and one more mount, left empty to "
                                               "brace it."))
    used = sum(s.sp for s in systems) + sum(m.sp for mount in mounts for m in mount.mods if m is not None)
    if used > sp:
        issues.append(Issue("L-B10", "systems", f"Systems and mods take {used} SP; the mech has {sp}."))
    keys = [s.key for s in systems]
    for key in sorted({k for k in keys if keys.count(k) > 1}):
        system = next(s for s in systems if s.key == key)
        if any(t.id == "tg_unique" for t in system.tags):
            issues.append(Issue("L-B12", "systems", f"{system.name} is Unique: one per mech."))
    if sum(s.type == "AI" or any(t.id == "tg_ai" for t in s.tags) for s in systems) > ai_cap:
        issues.append(Issue("L-B12", "systems", "A mech carries at most one AI." if ai_cap == 1 else
                            f"This mech carries at most {ai_cap} AIs."))
    gear = [("frame", frame)] + [(f"mounts[{i}].weapons[{w}]", weapon) for i, m in enumerate(mounts)
                                 for w, weapon in enumerate(m.weapons)]
    gear += [(f"systems[{s}]", system) for s, system in enumerate(systems)]
    gear += [(f"mounts[{i}].mods[{w}]", mod) for i, m in enumerate(mounts) for w, mod in enumerate(m.mods) if mod]
    for path, item in gear:
        if not licensed(item.license_level, item.license_id, licences):
            licence = licence_names.get(item.license_id, item.license_id)
            issues.append(Issue("L-B13", path, f"{item.name} needs the {licence} licence at rank {item.license_level}; "
                                               f"the pilot has rank {licences.get(item.license_id, 0)}."))
    return issues


def check_bonus_mounts(frame, mounts: list[Mount], held: list[str], names: dict[str, str]) -> list[Issue]:
    """L-B09: a mount past the frame's comes from a CORE bonus that adds one, a refitted mount from one that refits;
    the pilot holds it, it suits the frame and it gives one mount a mech. L-B11: the mount Integrated Weapon adds
    takes no mod."""
    issues = []
    own = len(frame.mounts)
    for i, mount in enumerate(mounts):
        bonus, path = mount.core_bonus, f"mounts[{i}]"
        name = names.get(bonus or "", bonus)
        if bonus is None:
            problem = (f"The {frame.name} has {own} mounts ({', '.join(frame.mounts)}); no CORE bonus adds this one."
                       if i >= own else "")
        elif bonus not in ADDED_MOUNTS and bonus not in REFITTED_MOUNTS:
            problem = f"{name} gives no mount."
        elif (bonus in ADDED_MOUNTS) != (i >= own):
            problem = (f"{name} adds a mount after the frame's; it changes none of them." if bonus in ADDED_MOUNTS
                       else f"{name} changes one of the frame's mounts; it adds none.")
        elif bonus not in held:
            problem = f"This mount comes from {name}, a CORE bonus the pilot has not taken."
        elif bonus in ADDED_MOUNTS and not adds_mount(bonus, frame.mounts):
            problem = (f"{name} adds a mount only to a mech with fewer than {FEWER_MOUNTS_THAN[bonus]} mounts; the "
                       f"{frame.name} has {own}.")
        elif bonus in [m.core_bonus for m in mounts[:i]]:
            problem = f"{name} gives one mount a mech."
        else:
            problem = ""
        if problem:
            issues.append(Issue("L-B09", path, problem))
        if bonus in UNMODDED and any(mount.mods):
            issues.append(Issue("L-B11", path, f"The weapon on the mount {name} adds takes no mod."))
    return issues


def mod_fits(mod, weapon) -> bool:
    """L-B11: a mod's allowed and restricted weapon types and sizes."""
    if mod.allowed_types and weapon.type not in mod.allowed_types:
        return False
    if mod.allowed_sizes and weapon.mount not in mod.allowed_sizes:
        return False
    return weapon.type not in mod.restricted_types and weapon.mount not in mod.restricted_sizes
