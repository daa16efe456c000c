"""COMP/CON pilots (the LANCER companion app's pilot export, JSON) read into Hardpoint pilot documents and back.

The field names are COMP/CON's own serialisation (massif-press/compcon, tag v2: Pilot.Serialize and its
controllers, Mech.Serialize, MechLoadout.Serialize, EquippableMount.Serialize, WeaponSlot.Serialize, and
src/io/V2Exporter.ts, with which COMP/CON 3 still writes that v2 shape and V2Importer.ts reads it). COMP/CON 3's
own pilot file differs in two places read here too: `loadouts` with `active_index` for the pilot's gear, and CORE
bonuses as objects with an `id`.

Only the choices Hardpoint models are read, and the pilot's notes; portraits, reserves, clocks, damage and the
rest are left. Ids
the pack does not know (in the right category) are left out of the document and returned as Unknown with where the
file used them, so an import never loses anything without a word.
"""
from __future__ import annotations

import json
import re
import uuid
from copy import deepcopy
from datetime import datetime, timezone
from itertools import zip_longest
from typing import Any

from ..base import BuildError, Catalogue, pack_refs, parse_as
from ..reading import Unreadable, loads_json
from ..spec import Unknown, Wanted
from . import construction as c
from .rules import mech_bonuses, pilot_stats, resolve
from .schema import MountLoadout, PilotBuild

MAX_BYTES = 2 * 1024 * 1024
KEPT = "compcon"  # the key of the COMP/CON file a build keeps (BuildDocument.kept)
KEEP_AT_MOST = 96 * 1024  # within the build's own limit on what it keeps
CORE = "lancer-core"  # lancer-data's core content, by the name its info.json gives (COMP/CON's brews omit it)
HASE = ("hull", "agility", "systems", "engineering")  # the order of COMP/CON's `mechSkills` array
PILOT_GEAR_LISTS = ("armor", "weapons", "gear", "extendedWeapons", "extendedGear")
# The mounts a CORE bonus adds (L-B09), by COMP/CON's loadout field: read into the mounts after the frame's.
BONUS_MOUNTS = {"improved_armament": "cb_improved_armament", "integratedWeapon": "cb_integrated_weapon"}
# Mounts a talent or other content adds, which Hardpoint does not model: their weapons are listed as left out.
EXTRA_MOUNTS = {"superheavy_mounting": "superheavy mounting", "extraMounts": "extra mount",
                "extraIntegratedMounts": "extra integrated mount"}
REFIT = "cb_mount_retrofitting"  # on a frame mount COMP/CON names it among the mount's `bonus_effects`
# COMP/CON's weapon slots for each mount type (Mount.generateSlots): (slots, extra). A Flex mount's second
# Auxiliary weapon goes in `extra`.
SLOTS = {"Main": (["Main"], []), "Heavy": (["Heavy"], []), "Flex": (["Flex"], ["Auxiliary"]),
         "Main/Aux": (["Main", "Auxiliary"], []), "Aux/Aux": (["Auxiliary", "Auxiliary"], []),
         "Aux": (["Auxiliary"], []), "Integrated": (["Integrated"], []), "Superheavy": (["Superheavy"], [])}
HOLDS = {"Main": {"Main", "Auxiliary"}, "Flex": {"Main", "Auxiliary"}, "Auxiliary": {"Auxiliary"},
         "Heavy": {"Superheavy", "Heavy", "Main", "Auxiliary"}, "Superheavy": {"Superheavy"}}
SIZES = ["Superheavy", "Heavy", "Main", "Auxiliary"]
_FORBIDDEN = re.compile(r"[<>\x00-\x1f\x7f]")
_KINDS = {str: "text", int: "a whole number", bool: "true or false", list: "a list", dict: "an object"}


# --- COMP/CON → Hardpoint ---------------------------------------------------------------------------

def from_compcon(raw: bytes | str | dict, catalogue: Catalogue, pack_ref: str) -> tuple[dict, list[Unknown]]:
    """A COMP/CON pilot as a Hardpoint pilot document on `pack_ref`, and the ids it had to leave out.

    BuildError, naming the field, when the file is no COMP/CON pilot (not JSON, not an object, a field of the
    wrong type). Choices that break the rules (an LL of 14, a rank 4 talent) are kept for the validator to report.
    """
    return _Import(catalogue).pilot(_load(raw), pack_ref)


def _load(raw: bytes | str | dict) -> dict:
    if isinstance(raw, dict):
        return raw
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise BuildError([{"path": "(file)", "message": f"{size} bytes; a COMP/CON pilot is read up to 2 MB"}])
    try:
        data = loads_json(raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw.removeprefix("\ufeff"))
    except UnicodeDecodeError as exc:
        raise BuildError([{"path": "(file)", "message": f"not UTF-8 text (byte {exc.start})"}]) from None
    except json.JSONDecodeError as exc:
        raise BuildError([{"path": "(file)", "message": f"not JSON: line {exc.lineno}, column {exc.colno} "
                                                        f"({exc.msg})"}]) from None
    except Unreadable as exc:  # numbers too long to read, nesting too deep, NUL in a string
        raise BuildError([exc.problem("(file)")]) from None
    if not isinstance(data, dict):
        raise BuildError([{"path": "(file)", "message": f"a COMP/CON pilot is a JSON object, not {_kind(data)}"}])
    return data


class _Import:
    """One file's reading: wrong field types are gathered (all named at once), unknown ids listed."""

    def __init__(self, catalogue: Catalogue):
        self.catalogue = catalogue
        self.problems: list[dict[str, str]] = []
        self.unknown: list[Unknown] = []

    def pilot(self, data: dict, pack_ref: str) -> tuple[dict, list[Unknown]]:
        callsign = _text(self.get(data, "callsign", str, "callsign", ""), 40)
        pack, *extensions = pack_refs(pack_ref)
        document = {
            "format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": pack,
            **({"extensions": extensions} if extensions else {}),
            "name": _text(self.get(data, "name", str, "name", ""), 80) or callsign or "Imported pilot",
            "callsign": callsign,
            "ll": _clamp(self.get(data, "level", int, "level", 0), -1, 99),
            "notes": self.get(data, "notes", str, "notes", "")[:4000],
            "hase": self.hase(data),
            "triggers": self.ranks(data, "skills", "skill", "skill trigger"),
            "talents": self.ranks(data, "talents", "talent", "talent"),
            "licences": self.ranks(data, "licenses", "frame", "licence"),
            "core_bonuses": self.core_bonuses(data),
            "gear": self.gear(data),
            "mechs": [],
        }
        at = []  # the file's index of each mech read
        for m, mech in self.entries(data, "mechs", "mechs"):
            loaded = self.mech(mech, f"mechs[{m}]", m)
            if loaded is not None:
                document["mechs"].append(loaded)
                at.append(m)
        if self.problems:
            raise BuildError(self.problems)
        if (file := _small(data)) is not None:
            document["kept"] = {KEPT: {"file": file, "read": deepcopy(document), "mechs_at": at}}
        return document, self.unknown

    # typed access ---------------------------------------------------------------------------------
    def get(self, obj: dict, key: str, kind: type, path: str, default: Any = None) -> Any:
        """obj[key] if it is of `kind`; null or missing is the default, any other type a problem."""
        value = obj.get(key)
        if value is None:
            return default
        found = _whole(value) if kind is int else value if isinstance(value, kind) else None
        if found is not None:
            return found
        self.problem(path, f"should be {_KINDS[kind]}, not {_kind(value)}")
        return default

    def problem(self, path: str, message: str) -> None:
        self.problems.append({"path": path, "message": message})

    def entries(self, obj: dict, key: str, path: str) -> list[tuple[int, dict]]:
        """The objects of a list field; null entries are COMP/CON's empty slots and skipped."""
        found = []
        for i, entry in enumerate(self.get(obj, key, list, path, [])):
            if isinstance(entry, dict):
                found.append((i, entry))
            elif entry is not None:
                self.problem(f"{path}[{i}]", f"should be an object, not {_kind(entry)}")
        return found

    def known(self, key: str, category: str, where: str) -> bool:
        if self.catalogue.categories.get(key) == category:
            return True
        self.unknown.append(Unknown(key, where))
        return False

    def item_id(self, obj: dict, path: str) -> str:
        key = self.get(obj, "id", str, f"{path}.id", "")
        if obj.get("id") is None:
            self.problem(f"{path}.id", "missing: every item names its id")
        return key

    # the pilot --------------------------------------------------------------------------------------
    def hase(self, data: dict) -> dict[str, int]:
        values = self.get(data, "mechSkills", list, "mechSkills", [])
        hase = {}
        for i, (name, value) in enumerate(zip(HASE, values)):
            if _whole(value) is None:
                self.problem(f"mechSkills[{i}]", f"should be a whole number, not {_kind(value)}")
            elif value:
                hase[name] = _clamp(_whole(value), 0, 99)
        return hase

    def ranks(self, data: dict, key: str, category: str, label: str) -> dict[str, int]:
        ranks: dict[str, int] = {}
        for i, entry in self.entries(data, key, key):
            path = f"{key}[{i}]"
            item, rank = self.item_id(entry, path), _clamp(self.get(entry, "rank", int, f"{path}.rank", 1), 0, 9)
            if not item:
                continue
            if self.get(entry, "custom", bool, f"{path}.custom", False):
                self.unknown.append(Unknown(item, f"{label} (a custom skill; packs hold no custom skills)"))
            elif self.known(item, category, label) and rank:
                ranks[item] = rank
        return ranks

    def core_bonuses(self, data: dict) -> list[str]:
        found = []
        for i, entry in enumerate(self.get(data, "core_bonuses", list, "core_bonuses", [])):
            key = entry.get("id") if isinstance(entry, dict) else entry  # COMP/CON 3 writes objects
            if not isinstance(key, str):
                self.problem(f"core_bonuses[{i}]", "should be a CORE bonus id")
            elif self.known(key, "core_bonus", "CORE bonus"):
                found.append(key)
        return found

    def gear(self, data: dict) -> list[str]:
        loadout, path = self.get(data, "loadout", dict, "loadout"), "loadout"
        if loadout is None:  # COMP/CON 3: several loadouts, one active
            loadouts = self.get(data, "loadouts", list, "loadouts", [])
            index = _clamp(self.get(data, "active_index", int, "active_index", 0), 0, max(len(loadouts) - 1, 0))
            path = f"loadouts[{index}]"
            loadout = loadouts[index] if loadouts else {}
            if not isinstance(loadout, dict):
                self.problem(path, f"should be an object, not {_kind(loadout)}")
                return []
        found = []
        for name in PILOT_GEAR_LISTS:
            for i, entry in self.entries(loadout, name, f"{path}.{name}"):
                key = self.item_id(entry, f"{path}.{name}[{i}]")
                if key and self.known(key, "pilot_gear", "pilot gear"):
                    found.append(key)
        return found

    # mechs ------------------------------------------------------------------------------------------
    def mech(self, mech: dict, path: str, index: int) -> dict | None:
        frame = self.get(mech, "frame", str, f"{path}.frame", "")
        if mech.get("frame") in (None, ""):
            self.problem(f"{path}.frame", "missing: a mech names its frame")
        name = _text(self.get(mech, "name", str, f"{path}.name", ""), 80)
        label = f"mech '{name or f'#{index + 1}'}'"
        loadouts = self.get(mech, "loadouts", list, f"{path}.loadouts", [])
        active = self.get(mech, "active_loadout_index", int, f"{path}.active_loadout_index", 0)
        active = active if 0 <= active < len(loadouts) else 0
        path = f"{path}.loadouts[{active}]"
        loadout = loadouts[active] if loadouts else {}
        if not isinstance(loadout, dict):
            self.problem(path, f"should be an object, not {_kind(loadout)}")
            return None
        if not frame or not self.known(frame, "frame", f"{label} frame (the mech and its load-out were not imported)"):
            return None
        mounts = [self.mount(mount, f"{path}.mounts[{n}]", f"{label} mount {n + 1}")
                  for n, mount in self.entries(loadout, "mounts", f"{path}.mounts")]
        missing = len(self.catalogue.items[frame].mounts) - len(mounts)  # one entry per frame mount, in order
        mounts += [{"weapons": [], "mods": [], "bracing": False}] * missing
        for key, bonus in BONUS_MOUNTS.items():
            added = self.get(loadout, key, dict, f"{path}.{key}")
            read = self.mount(added, f"{path}.{key}", f"{label} {key} mount") if added else None
            if read and read["weapons"]:  # COMP/CON writes each such mount, empty when the bonus is not taken
                mounts.append({**read, "core_bonus": bonus})
        self.extra_mounts(loadout, path, label)
        systems = [key for s, entry in self.entries(loadout, "systems", f"{path}.systems")
                   if (key := self.item_id(entry, f"{path}.systems[{s}]"))
                   and self.known(key, "system", f"{label} system")]
        return {"name": name or self.catalogue.items[frame].name, "frame": frame, "mounts": mounts, "systems": systems}

    def extra_mounts(self, loadout: dict, path: str, label: str) -> None:
        """Weapons on mounts a CORE bonus or talent adds are listed as left out, not dropped unsaid."""
        for key, what in EXTRA_MOUNTS.items():
            if key.startswith("extra"):
                mounts = [(f"{path}.{key}[{n}]", m) for n, m in self.entries(loadout, key, f"{path}.{key}")]
            else:
                mounts = [(f"{path}.{key}", m)] if (m := self.get(loadout, key, dict, f"{path}.{key}")) else []
            for mount_path, mount in mounts:
                for weapon in self.mount(mount, mount_path, f"{label} {what}")["weapons"]:
                    where = f"{label} {what} weapon (Hardpoint has only the frame's mounts)"
                    self.unknown.append(Unknown(weapon, where))

    def mount(self, mount: dict, path: str, label: str) -> dict:
        weapons, mods = [], []
        slots = [(f"{path}.{part}[{i}]", slot) for part in ("slots", "extra")
                 for i, slot in self.entries(mount, part, f"{path}.{part}")]
        for slot_path, slot in slots:
            weapon = self.get(slot, "weapon", dict, f"{slot_path}.weapon")
            if weapon is None:
                continue
            key, mod = self.item_id(weapon, f"{slot_path}.weapon"), self.mod(weapon, f"{slot_path}.weapon.mod")
            if not key:
                continue
            if not self.known(key, "weapon", f"{label} weapon"):
                if mod:
                    self.unknown.append(Unknown(mod, f"{label} mod (left out with its weapon)"))
                continue
            weapons.append(key)
            mods.append(mod if mod and self.known(mod, "mod", f"{label} mod") else None)
        while mods and mods[-1] is None:
            mods.pop()
        # COMP/CON locks the mount a Superheavy weapon braces on ("SUPERHEAVY WEAPON BRACING" in its stat blocks).
        bracing = self.get(mount, "lock", bool, f"{path}.lock", False) and not weapons
        effects = self.get(mount, "bonus_effects", list, f"{path}.bonus_effects", [])
        return {"weapons": weapons, "mods": mods, "bracing": bracing,
                **({"core_bonus": REFIT} if REFIT in effects else {})}

    def mod(self, weapon: dict, path: str) -> str:
        mod = weapon.get("mod")
        if isinstance(mod, str):  # COMP/CON 1 named the mod by its id alone
            return mod
        if isinstance(mod, dict):
            return self.item_id(mod, path)
        self.get(weapon, "mod", dict, path)  # null is no mod; any other value is named as a problem
        return ""


def _kind(value: Any) -> str:
    names = {bool: "true or false", int: "a number", float: "a number", str: "text", list: "a list",
             dict: "an object", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _whole(value: Any) -> int | None:
    """A JSON whole number (JavaScript may write 3 as 3.0), or None; true and false are no numbers here."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def _text(value: str, limit: int) -> str:
    """Names as Hardpoint shows them: plain text on one line, cut to its length."""
    return " ".join(_FORBIDDEN.sub(" ", value).split())[:limit].strip()


# --- Hardpoint → COMP/CON ---------------------------------------------------------------------------

def to_compcon(document: dict, catalogue: Catalogue) -> dict:
    """A pilot document as a COMP/CON pilot file (the v2 shape, which COMP/CON 2 and 3 both import). A pilot that
    came from COMP/CON is written back into the file it came from, with its ids, state and everything Hardpoint
    does not model; what the player changed here replaces what it was. Any other pilot gets fresh ids."""
    pilot = parse_as(PilotBuild, document)
    fresh = _fresh(pilot, catalogue)
    kept = pilot.kept.get(KEPT)
    return _written_back(fresh, pilot, kept, catalogue) if kept else fresh


def _fresh(pilot: PilotBuild, catalogue: Catalogue) -> dict:
    resolve(pilot, catalogue)
    items = catalogue.items
    ll = _clamp(pilot.ll, 0, c.MAX_LL)
    gear: dict[str, list] = {"Armor": [], "Weapon": [], "Gear": []}
    for key in pilot.gear:
        gear[items[key].type].append(_equipment(key, c.limited_uses(items[key], 0)))
    now = _js_date()
    written = {
        "id": str(uuid.uuid4()), "level": pilot.ll, "callsign": pilot.callsign, "name": pilot.name,
        "player_name": "", "status": "Active", "dead": False, "text_appearance": "", "notes": pilot.notes,
        "history": "", "quirks": [], "background": "", "resistances": [], "portrait": "", "cloud_portrait": "",
        # COMP/CON clamps a pilot's HP to its maximum; what it reads is the pilot's health now.
        "current_hp": pilot_stats(pilot, catalogue, ll, c.grit(ll))["pilot_hp"].value,
        "group": "", "sort_index": 0, "cc_ver": "", "isDeleted": False, "expireTime": "", "deleteTime": "",
        "lastModified": now, "lastUpdate_cloud": "", "lastSync": "",
        "skills": [{"id": k, "rank": r} for k, r in pilot.triggers.items()],
        "talents": [{"id": k, "rank": r} for k, r in pilot.talents.items()],
        "licenses": [{"id": k, "rank": r} for k, r in pilot.licences.items()],
        "core_bonuses": list(pilot.core_bonuses),
        "mechSkills": [pilot.hase.get(k, 0) for k in HASE],  # a beta-rules Targeting has no place here
        "reserves": [], "orgs": [], "counter_data": [], "custom_counters": [],
        "brews": brews(catalogue),
        # COMP/CON's pilot loadout has 1 armour, 2 weapon and 3 gear slots, empty ones null (PilotLoadout).
        "loadout": {"id": str(uuid.uuid4()), "name": "Primary", "armor": _padded(gear["Armor"], 1),
                    "weapons": _padded(gear["Weapon"], 2), "gear": _padded(gear["Gear"], 3),
                    "extendedWeapons": [None], "extendedGear": [None, None]},
        # Hardpoint keeps no mech in use: the first is COMP/CON's active one
        "mechs": [_mech(mech, pilot, catalogue, now, active=m == 0) for m, mech in enumerate(pilot.mechs)],
    }
    written["state"] = _at_rest(written["mechs"][0]["id"] if written["mechs"] else "")
    return written


def _at_rest(active_mech_id: str) -> dict:
    """COMP/CON's play state (ActiveState) of a pilot between missions, as a new one starts: the active mech named,
    no mission run, no combat statistics."""
    return {"active_mech_id": active_mech_id, "stage": "Narrative", "mission": 0, "turn": 1, "actions": 2,
            "braced": False, "overcharged": False, "prepare": False, "bracedCooldown": False, "redundant": False,
            "mounted": False, "deployed": [],
            "stats": {key: 0 for key in ("moves", "kills", "damage", "hp_damage", "structure_damage", "overshield",
                                         "heat_damage", "reactor_damage", "overcharge_uses", "core_uses")}}


# What each of Hardpoint's pilot fields is written as in COMP/CON's file.
WRITTEN_AS = {"name": ("name",), "callsign": ("callsign",), "ll": ("level",), "notes": ("notes",),
              "hase": ("mechSkills",), "triggers": ("skills",), "talents": ("talents",), "licences": ("licenses",),
              "core_bonuses": ("core_bonuses",)}
MECH_FIELDS = ("frame", "mounts", "systems")


def _written_back(fresh: dict, pilot: PilotBuild, kept: dict, catalogue: Catalogue) -> dict:
    """The file a pilot was imported from, with each field the player changed here replaced by its new value."""
    file, at = deepcopy(kept["file"]), kept.get("mechs_at", [])
    read = parse_as(PilotBuild, kept["read"])
    changed = False
    for field, keys in WRITTEN_AS.items():
        if getattr(pilot, field) != getattr(read, field):
            file.update({key: fresh[key] for key in keys})
            changed = True
    if pilot.gear != read.gear:
        _put_loadout(file, fresh["loadout"])
        changed = True
    if pilot.pack_set != read.pack_set:
        file["brews"] = fresh["brews"]
        changed = True
    originals = file.get("mechs") if isinstance(file.get("mechs"), list) else []
    mechs, used = [], set()
    for m, mech in enumerate(pilot.mechs):
        # The mech it was: the same frame, and its name or its loadout unchanged.
        match = next((j for j, before in enumerate(read.mechs) if j not in used and j < len(at)
                      and before.frame == mech.frame and (before.name == mech.name or
                                                          (before.mounts, before.systems) == (mech.mounts, mech.systems))),
                     None)
        if match is None or not isinstance(originals[at[match]], dict):
            mechs.append(fresh["mechs"][m])
            changed = True
            continue
        used.add(match)
        original = originals[at[match]]
        if read.mechs[match] != mech:
            original["name"] = mech.name
            _put_mech_loadout(original, fresh["mechs"][m]["loadouts"][0])
            changed = True
        mechs.append(original)
    unread = [mech for i, mech in enumerate(originals) if i not in at]  # frames no pack here knows: kept as they were
    if len(used) < len(read.mechs):
        changed = True
    file["mechs"] = mechs + unread
    if mechs and not any(isinstance(m, dict) and m.get("active") for m in file["mechs"]):
        mechs[0]["active"] = True
    if changed:
        file["lastModified"] = fresh["lastModified"]
    return file


def _put_loadout(file: dict, loadout: dict) -> None:
    """The pilot's gear into the loadout COMP/CON reads, `loadout` (v2) or the active one of `loadouts` (3), under
    the id it had."""
    listed = file.get("loadouts") if isinstance(file.get("loadouts"), list) and file.get("loadouts") else None
    index = _clamp(_whole(file.get("active_index")) or 0, 0, len(listed) - 1) if listed else 0
    before = listed[index] if listed else file.get("loadout")
    written = {**loadout, "id": before["id"]} if isinstance(before, dict) and "id" in before else loadout
    if listed:
        listed[index] = written
    else:
        file["loadout"] = written


def _put_mech_loadout(mech: dict, loadout: dict) -> None:
    """A mech's new mounts and systems into its active loadout, the other loadouts as they were."""
    loadouts = mech.get("loadouts") if isinstance(mech.get("loadouts"), list) else []
    index = _whole(mech.get("active_loadout_index")) or 0
    if 0 <= index < len(loadouts) and isinstance(loadouts[index], dict):
        loadouts[index] = {**loadouts[index], **{k: loadout[k] for k in ("mounts", "systems", *BONUS_MOUNTS)}}
    else:
        mech["loadouts"], mech["active_loadout_index"] = [loadout], 0


def _small(data: dict) -> dict | None:
    """The file as kept with the build: whole when it fits, else without its long texts (a portrait written into
    the file), else not at all (an export then writes a new pilot)."""
    if len(json.dumps(data)) <= KEEP_AT_MOST:
        return data
    trimmed = _without_long_texts(data)
    return trimmed if len(json.dumps(trimmed)) <= KEEP_AT_MOST else None


def _without_long_texts(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_long_texts(v) for k, v in value.items() if not (isinstance(v, str) and len(v) > 2000)}
    if isinstance(value, list):
        return [_without_long_texts(v) for v in value]
    return value


def brews(catalogue: Catalogue) -> list[str]:
    """The content packs COMP/CON must have, as it names them ("Long Rim @ 1.0.0"); the core content is none."""
    found = []
    for ref in pack_refs(catalogue.ref):
        name, _, version = ref.partition("@")
        if name != CORE:
            found.append(f"{catalogue.titles.get(ref, catalogue.title)} @ {version}")
    return found


def wants(raw: bytes | str | dict) -> Wanted:
    """The content packs a COMP/CON pilot names (`brews`) and every id it uses, for an import to choose packs by."""
    data = _load(raw)
    named, listed = [], data.get("brews")
    for brew in listed if isinstance(listed, list) else []:
        if isinstance(brew, dict):  # COMP/CON 3 writes {LcpId, LcpName, LcpVersion, Website}
            brew = f"{brew.get('LcpName') or brew.get('name') or ''} @ {brew.get('LcpVersion') or brew.get('version') or ''}"
        title, _, version = str(brew).rpartition(" @ ") if " @ " in str(brew) else (str(brew), "", "")
        if title.strip() and title.strip().casefold() not in ("core", CORE):  # the core content goes unnamed
            named.append((title.strip()[:120], version.strip()[:20]))
    return Wanted(tuple(named[:20]), frozenset(_ids(data)))


def _ids(value: Any, depth: int = 0) -> set[str]:
    """Every id a pilot file names: `id` fields, frames and CORE bonuses (its own uuids too, which no pack has)."""
    found: set[str] = set()
    if depth > 12:
        return found
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in ("id", "frame") and isinstance(inner, str):
                found.add(inner[:80])
            elif key == "core_bonuses" and isinstance(inner, list):
                found.update(b[:80] for b in inner if isinstance(b, str))
            if isinstance(inner, (dict, list)):
                found |= _ids(inner, depth + 1)
    elif isinstance(value, list):
        for inner in value:
            found |= _ids(inner, depth + 1)
    return found


def _mech(mech, pilot: PilotBuild, catalogue: Catalogue, now: str, active: bool) -> dict:
    frame = catalogue.items[mech.frame]
    stats = c.FrameStats(**{k: getattr(frame.stats, k) for k in c.FrameStats.__dataclass_fields__})
    ll = _clamp(pilot.ll, 0, c.MAX_LL)
    derived = {k: v for k, (v, _) in c.derived(stats, ll, dict(pilot.hase),
                                               extra=mech_bonuses(pilot, mech, catalogue, ll, c.grit(ll))).items()}
    more = derived["limited_bonus"]
    own = list(zip_longest(frame.mounts, mech.mounts[:len(frame.mounts)]))
    mounts = [_mount(c.REFITTED_MOUNTS.get(loadout.core_bonus, kind) if loadout else kind, loadout or MountLoadout(),
                     catalogue, more) for kind, loadout in own]
    added = {m.core_bonus: m for m in mech.mounts[len(frame.mounts):]}
    return {
        "id": str(uuid.uuid4()), "name": mech.name, "notes": "", "gm_note": "", "frame": mech.frame,
        "active": active,
        # COMP/CON reads these as the mech's state now: at or over its maximum is undamaged, HP 0 loses structure.
        "current_structure": derived["structure"], "current_move": derived["speed"], "boost": 0,
        "current_hp": derived["hp"], "overshield": 0, "current_stress": derived["stress"], "current_heat": 0,
        "current_repairs": derived["repcap"], "current_overcharge": 0, "current_core_energy": 1,
        "statuses": [], "conditions": [], "resistances": [], "reactions": [], "burn": 0, "destroyed": False,
        "defeat": "", "activations": 1, "meltdown_imminent": False, "reactor_destroyed": False,
        "core_active": False, "portrait": "", "cloud_portrait": "", "cc_ver": "", "lastModified": now,
        "isDeleted": False, "expireTime": "", "deleteTime": "", "counter_data": [], "custom_counters": [],
        "active_loadout_index": 0,
        # No integratedSystems / integratedMounts: COMP/CON then fills them from the frame (MechLoadout.Deserialize).
        "loadouts": [{"id": str(uuid.uuid4()), "name": "Primary",
                      "systems": [_equipment(key, c.limited_uses(catalogue.items[key], more)) for key in mech.systems],
                      "mounts": mounts,
                      **{key: _mount(c.ADDED_MOUNTS[bonus], added.get(bonus), catalogue, more)
                         for key, bonus in BONUS_MOUNTS.items()},
                      "superheavy_mounting": _mount("Superheavy"), "extraMounts": [], "extraIntegratedMounts": []}],
    }


def _mount(kind: str, loadout=None, catalogue: Catalogue | None = None, more: int = 0) -> dict:
    sizes, extra_sizes = SLOTS.get(kind, (["Main"], []))
    slots = [{"size": size, "weapon": None} for size in sizes]
    extra = [{"size": size, "weapon": None} for size in extra_sizes]
    if loadout is not None:
        left = sorted(zip(loadout.weapons, list(loadout.mods) + [None] * len(loadout.weapons)),
                      key=lambda w: SIZES.index(catalogue.items[w[0]].mount))
        for slot in slots + extra:  # the larger weapons first: a Main/Aux mount's Main slot gets the Main weapon
            fitting = next((w for w in left if slot["size"] not in HOLDS
                            or catalogue.items[w[0]].mount in HOLDS[slot["size"]]), None)
            if fitting:
                left.remove(fitting)
                slot["weapon"] = _weapon(*fitting, c.limited_uses(catalogue.items[fitting[0]], more))
        extra += [{"size": "Auxiliary", "weapon": _weapon(*w, c.limited_uses(catalogue.items[w[0]], more))}
                  for w in left]  # kept, though no slot fits
    refit = loadout is not None and loadout.core_bonus in c.REFITTED_MOUNTS
    return {"mount_type": kind, "lock": bool(loadout is not None and loadout.bracing and not loadout.weapons),
            "slots": slots, "extra": extra, "bonus_effects": [loadout.core_bonus] if refit else [],
            "modifiable": loadout is None or loadout.core_bonus not in c.UNMODDED}


def _weapon(key: str, mod: str | None, uses: int = 0) -> dict:
    return {**_equipment(key, uses), "loaded": True, "mod": _equipment(mod) if mod else None, "maxUseOverride": 0,
            "selectedProfile": 0}


def _equipment(key: str, uses: int = 0) -> dict:
    return {"id": key, "destroyed": False, "cascading": False, "note": "", "uses": uses, "flavorName": "",
            "flavorDescription": "", "customDamageType": None}


def _padded(entries: list, size: int) -> list:
    return entries + [None] * (size - len(entries))


def _js_date() -> str:
    """Now as JavaScript's Date.toString() writes it, as COMP/CON stores `lastModified`."""
    return datetime.now(timezone.utc).strftime("%a %b %d %Y %H:%M:%S GMT+0000 (Coordinated Universal Time)")


read, write = from_compcon, to_compcon  # the ruleset's Exchange("compcon", ...) names them so
