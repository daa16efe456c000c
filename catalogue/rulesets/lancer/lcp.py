"""Lancer Content Packs (.lcp): a zip of `lcp_manifest.json` and the data files lancer-data's README documents,
read as a Hardpoint user pack with every item id kept as its key. lancer-data's own zip of its `lib/` folder has
`info.json` in place of the manifest; its version comes from the file's name when info.json's is not a version.

Files a LANCER build has no use for (NPCs, statuses, downtime) are named in the pack's description as not read,
so nothing goes missing without a word.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

from ..base import PackError, PackUnreadable
from ..packs import EXACT_VERSION, Entries, matches, newest, semver, unzip, version_range
from ..reading import Unreadable, loads_json
from .schema import LCP_FILES

MANIFEST = "lcp_manifest.json"
INFO = "info.json"  # lancer-data's own zip of lib/ names the content here, with no manifest
FILE_VERSION = re.compile(r"-v?([0-9]{1,6}(?:\.[0-9]{1,6}){0,2})\.lcp$", re.IGNORECASE)
PLACEHOLDER = "missing_"  # lancer-data's stand-ins for content COMP/CON cannot find ("ERR: DATA NOT FOUND")


def read(raw: bytes, where: str, versions: Callable[[str], list[str]] = lambda name: []
         ) -> tuple[dict[str, Any], list[list[Entries]]]:
    """The pack header and entries of an .lcp; `versions` lists the loaded versions of a pack name, which the
    manifest's dependencies are matched against."""
    files = unzip(raw, where)
    named_by = MANIFEST if MANIFEST in files else INFO
    if named_by not in files:
        raise PackError(f"{where}: {MANIFEST}: missing; an .lcp holds a manifest naming the pack and its version")
    manifest = _json(files.pop(named_by), f"{where}/{named_by}")
    files.pop(INFO, None)
    if not isinstance(manifest, dict):
        raise PackError(f"{where}/{named_by}: an object with name, author, version and description")
    for field in ("name", "version"):
        if not isinstance(manifest.get(field), str) or not manifest[field].strip():
            raise PackError(f"{where}/{named_by}: field '{field}': missing — the manifest names the pack's {field}")
    version = manifest["version"]
    if named_by == INFO and not EXACT_VERSION.match(version.strip()) and (in_name := FILE_VERSION.search(where)):
        version = in_name.group(1)  # lancer-data's info.json says "July 2020 Release"; its zip is <name>-3.1.8.lcp
    document = {"name": slug(manifest["name"]), "version": semver(version, f"{where}/{named_by}"),
                "ruleset": "lancer", "title": manifest["name"].strip()[:80], "source": "user"}
    dependencies = manifest.get("dependencies") or []
    if dependencies:
        document["extends"] = extends(dependencies, f"{where}/{MANIFEST}", versions)
    entries, unread, placeholders = [], [], 0
    for name, data in sorted(files.items()):
        category = LCP_FILES.get(name)
        if category is None:
            unread.append(name)
            continue
        listed = _json(data, f"{where}/{name}")
        if not isinstance(listed, list):
            raise PackError(f"{where}/{name}: a list of {category.replace('_', ' ')} entries")
        kept = [_plain(entry) for entry in listed if not _id(entry).startswith(PLACEHOLDER)]
        placeholders += len(listed) - len(kept)
        entries.append([Entries(category, [(f"{where}/{name}", entry) for entry in kept], key_field="id")])
    description = str(manifest.get("description") or "")[:400]
    if unread:
        description += f" Not read (Hardpoint builds pilots and mechs only): {', '.join(unread)}."
    if placeholders:
        description += f" Left out: {placeholders} placeholder entries ({PLACEHOLDER}…, 'data not found')."
    document["description"] = description.strip()
    return document, entries


class _Text(HTMLParser):
    """The text of LCP rich text, as a page escapes it: line breaks and list bullets kept, every tag dropped."""

    BREAKS = {"br": "\n", "li": "\n• ", "p": "\n", "ul": "\n", "ol": "\n"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:
        self.parts.append(self.BREAKS.get(tag, ""))

    def handle_endtag(self, tag: str) -> None:
        self.parts.append("\n" if tag in ("p", "ul", "ol") else "")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _plain(value: Any) -> Any:
    """An entry with its rich text (lancer-data writes <br>, <b>, <ul><li>) as plain text with line breaks."""
    if isinstance(value, dict):
        return {key: _plain(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_plain(inner) for inner in value]
    if isinstance(value, str) and "<" in value and ">" in value:
        parser = _Text()
        parser.feed(value)
        parser.close()
        return re.sub(r"\n{3,}", "\n\n", "".join(parser.parts)).strip()
    return value


def _json(data: bytes, where: str) -> Any:
    try:
        return loads_json(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise PackUnreadable(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except Unreadable as exc:
        raise PackUnreadable(f"{where}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise PackUnreadable(f"{where}: not valid JSON at line {exc.lineno}, column {exc.colno} ({exc.msg})") from None
    except RecursionError:
        raise PackUnreadable(f"{where}: JSON nested too deeply") from None


def _id(entry: Any) -> str:
    return str(entry.get("id", "?"))[:60] if isinstance(entry, dict) else "?"


def slug(name: str) -> str:
    """A pack name Hardpoint can key: lower case, letters, digits and dashes ("Long Rim" → long-rim)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64] or "lcp"


def extends(dependencies: Any, where: str, versions: Callable[[str], list[str]]) -> str:
    """The loaded pack this one extends: its one dependency, at the newest loaded version its range allows (`*`,
    `=1.2.0` or `1.2.0` exactly, `^1.2.0`, `~1.2.0`, `>=1.2.0`). A dependency no loaded pack meets is named."""
    if not isinstance(dependencies, list) or not all(isinstance(d, dict) for d in dependencies):
        raise PackError(f"{where}: field 'dependencies': a list of {{name, version}} objects")
    found, missing = [], []
    for i, wanted in enumerate(dependencies):
        name, spec = slug(str(wanted.get("name", ""))), str(wanted.get("version", "*")).strip() or "*"
        wanted_range = version_range(spec, where, f"dependencies.{i}.version")
        allowed = [v for v in versions(name) if matches(v, wanted_range)]
        if allowed:
            found.append(f"{name}@{newest(allowed)}")
        else:
            missing.append(f"{name} {spec}")
    if missing:
        raise PackError(f"{where}: field 'dependencies': no loaded pack meets {'; '.join(missing)} — load "
                        f"{'it' if len(missing) == 1 else 'them'} first")
    if len(found) > 1:
        raise PackError(f"{where}: field 'dependencies': a Hardpoint pack extends one pack, and this names "
                        f"{', '.join(found)}; merge them into one pack first")
    return found[0]
