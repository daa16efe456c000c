"""Lancer Content Packs (.lcp): a zip of `lcp_manifest.json` and the data files lancer-data's README documents,
read as a Hardpoint user pack with every item id kept as its key.

Files a LANCER build has no use for (NPCs, statuses, downtime) are named in the pack's description as not read,
so nothing goes missing without a word.
"""
from __future__ import annotations

import json
import re
from typing import Any

from ..base import PackError, PackUnreadable
from ..packs import Entries, unzip
from .schema import LCP_FILES

MANIFEST = "lcp_manifest.json"
EXACT = re.compile(r"^=?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$")


def read(raw: bytes, where: str) -> tuple[dict[str, Any], list[list[Entries]]]:
    files = unzip(raw, where)
    if MANIFEST not in files:
        raise PackError(f"{where}: {MANIFEST}: missing; an .lcp holds a manifest naming the pack and its version")
    manifest = _json(files.pop(MANIFEST), f"{where}/{MANIFEST}")
    if not isinstance(manifest, dict):
        raise PackError(f"{where}/{MANIFEST}: an object with name, author, version and description")
    for field in ("name", "version"):
        if not isinstance(manifest.get(field), str) or not manifest[field].strip():
            raise PackError(f"{where}/{MANIFEST}: field '{field}': missing — the manifest names the pack's {field}")
    document = {"name": slug(manifest["name"]), "version": semver(manifest["version"], f"{where}/{MANIFEST}"),
                "ruleset": "lancer", "title": manifest["name"].strip()[:80], "source": "user"}
    dependencies = manifest.get("dependencies") or []
    if dependencies:
        document["extends"] = extends(dependencies, f"{where}/{MANIFEST}")
    entries, unread = [], []
    for name, data in sorted(files.items()):
        category = LCP_FILES.get(name)
        if category is None:
            unread.append(name)
            continue
        listed = _json(data, f"{where}/{name}")
        if not isinstance(listed, list):
            raise PackError(f"{where}/{name}: a list of {category.replace('_', ' ')} entries")
        entries.append([Entries(category, [(f"{where}/{name} id '{_id(entry)}'", entry) for entry in listed])])
    description = str(manifest.get("description") or "")[:400]
    if unread:
        description += f" Not read (Hardpoint builds pilots and mechs only): {', '.join(unread)}."
    document["description"] = description.strip()
    return document, entries


def _json(data: bytes, where: str) -> Any:
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise PackUnreadable(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise PackUnreadable(f"{where}: not valid JSON at line {exc.lineno}, column {exc.colno} ({exc.msg})") from None
    except RecursionError:
        raise PackUnreadable(f"{where}: JSON nested too deeply") from None


def _id(entry: Any) -> str:
    return str(entry.get("id", "?"))[:60] if isinstance(entry, dict) else "?"


def slug(name: str) -> str:
    """A pack name Hardpoint can key: lower case, letters, digits and dashes ("Long Rim" → long-rim)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64] or "lcp"


def semver(version: str, where: str) -> str:
    """1.2 → 1.2.0; an LCP version that is not numbers is refused, naming it."""
    found = EXACT.match(version.strip())
    if found is None:
        raise PackError(f"{where}: field 'version': '{version[:20]}' is not a version — write it as 1.2.0")
    return ".".join(part or "0" for part in found.groups())


def extends(dependencies: Any, where: str) -> str:
    """A Hardpoint pack extends one loaded pack, named exactly: an LCP's one dependency at an exact version."""
    if not isinstance(dependencies, list) or len(dependencies) != 1 or not isinstance(dependencies[0], dict):
        raise PackError(f"{where}: field 'dependencies': Hardpoint reads one dependency, the pack this one extends")
    wanted = dependencies[0]
    name, version = str(wanted.get("name", "")), str(wanted.get("version", "*"))
    if version.strip() in ("*", ""):
        raise PackError(f"{where}: field 'dependencies.0.version': '*' names no version — name the one it was made "
                        f"for (=1.2.0), so builds never change under it")
    return f"{slug(name)}@{semver(version.lstrip('^~'), where)}"
