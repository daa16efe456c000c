"""What a newer version of its pack changes for a build, and moving the build onto it.

A build pins `name@version`; a newer version of that pack never changes it. Here a player sees, before
upgrading, which of the items the build uses changed (field by field) or are gone, what the new version adds,
and the rule issues before and after; an upgrade empties what is gone and says so, never silently.
"""
from __future__ import annotations

import re

from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from catalogue.loader import catalogue_by_ref, newest_version
from catalogue.models import Pack
from catalogue.rulesets.base import BuildError, issue_path, pack_refs, pack_set

from . import store

MAX_ADDED = 200  # a new version may add thousands of items; the list names the first ones


def newer_pack(ref: str) -> Pack | None:
    """The newest loaded version of one of this build's packs (the base first), when newer than the one it pins."""
    return next(iter(newer_packs(ref)), None)


def newer_packs(ref: str) -> list[Pack]:
    """Of each of a build's packs, base first, the newest loaded version when it is newer than the one pinned."""
    found = []
    for pinned in pack_refs(ref):
        name, _, version = pinned.partition("@")
        newest = newest_version(name)
        if newest is not None and version.replace(".", "").isdigit() and \
                newest.semver > tuple(int(n) for n in version.split(".")):
            found.append(newest)
    return found


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, inner in value.items():
            flat.update(_flat(inner, f"{prefix}{key}."))
        return flat
    return {prefix[:-1]: value}


def item_changes(old, new, used: set[str]) -> list[dict[str, Any]]:
    """The used items changed (field by field) or removed, then the items the new version adds."""
    rows = []
    for key in sorted(used):
        if key not in old.items:
            continue
        if key not in new.items:
            rows.append({"key": key, "name": old.items[key].name, "change": "removed", "fields": {}})
            continue
        before, after = _flat(old.items[key].model_dump(mode="json")), _flat(new.items[key].model_dump(mode="json"))
        fields = {f: [before.get(f), after.get(f)] for f in dict.fromkeys([*before, *after])
                  if before.get(f) != after.get(f)}
        if fields or old.categories[key] != new.categories[key]:
            rows.append({"key": key, "name": new.items[key].name, "change": "changed", "fields": fields})
    added = [k for k in new.items if k not in old.items][:MAX_ADDED]
    rows += [{"key": k, "name": new.items[k].name, "change": "added", "fields": {}} for k in added]
    return rows


def document_changes(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """Field by field, what differs between two versions of a build document (lists by position)."""
    old, new = _leaves(before), _leaves(after)
    return [{"path": path, "before": old.get(path), "after": new.get(path)}
            for path in dict.fromkeys([*old, *new]) if old.get(path) != new.get(path)]


def labelled(fields: list[dict[str, Any]], ruleset, catalogues: list) -> list[dict[str, Any]]:
    """Changed fields as a player reads them: "Traits › Athletics", "Gear #3 › Item", items by their names."""
    def shown(value: Any) -> Any:
        for catalogue in catalogues:
            if catalogue is not None and isinstance(value, str) and value in catalogue.items:
                return catalogue.items[value].name
        return value

    return [{**field, "label": field_label(field["path"], ruleset), "before": shown(field["before"]),
             "after": shown(field["after"])} for field in fields]


def field_label(path: str, ruleset) -> str:
    return " › ".join(f"#{int(index) + 1}" if index else ruleset.stat_label(name)
                      for name, index in _SEGMENT.findall(path))


_SEGMENT = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _leaves(value: Any, at: tuple = ()) -> dict[str, Any]:
    if isinstance(value, dict) and value:
        return {k: v for key, inner in value.items() for k, v in _leaves(inner, at + (key,)).items()}
    if isinstance(value, list) and value:
        return {k: v for i, inner in enumerate(value) for k, v in _leaves(inner, at + (i,)).items()}
    return {issue_path(at): value}


@dataclass
class Upgraded:
    document: dict[str, Any]
    emptied: list[dict[str, str]]  # {"path", "key", "name"} of every reference the new version has no item for


def upgraded(document: dict[str, Any], kind, old, new) -> Upgraded:
    """The document on the new pack: every reference to an item the new version lacks is emptied (the field
    set to none, or the list entry holding it taken out), and named."""
    gone = [(ref.cleared(where), where, key, ref) for ref, where, key in kind.items_used(document)
            if new.categories.get(key) != old.categories.get(key)]
    copy = deepcopy(document)
    copy["pack"] = new.pack
    if new.extensions:
        copy["extensions"] = list(new.extensions)
    moved_to = next((ref for ref in pack_refs(new.ref) if ref not in pack_refs(old.ref)), new.pack)
    # Places emptied where they stand first: that moves nothing, and a paired removal may then take one of them out
    # (a weapon with its mod). Then later list entries before earlier ones, so the indexes of earlier ones hold.
    # A place is emptied once, however many of its items are gone (a Mech whose Part and Pilot both went).
    targets = sorted({t: ref for t, _, _, ref in gone}.items(), key=lambda g: _order(g[0]), reverse=True)
    for target, ref in sorted(targets, key=lambda g: g[1].removal != "none"):
        _empty(copy, target, ref.removal, ref.paired)
    emptied = [{"path": issue_path(where), "key": key, "name": old.items[key].name if key in old.items else key}
               for _, where, key, _ in gone]
    # HP-UPGRADE: the build keeps a note of each until its player dismisses it.
    copy["removed"] = [*document.get("removed", []), *({**e, "pack": moved_to} for e in emptied)][-50:]
    return Upgraded(copy, emptied)


def versions(from_ref: str, to_ref: str) -> tuple[Any, Any]:
    """The catalogues of a build's packs and of the same packs with one of them at another loaded version. Any
    other pack is refused: "what changed" lists its items to anyone with the build's share link, and an uploaded
    pack is read through its own link only."""
    pinned = pack_refs(from_ref)
    name = to_ref.partition("@")[0]
    moved = [to_ref if ref.partition("@")[0] == name else ref for ref in pinned]
    old = catalogue_by_ref(from_ref)
    new = catalogue_by_ref(pack_set(moved[0], moved[1:]))
    if old is None or new is None or new.ruleset != old.ruleset or to_ref not in moved:
        raise BuildError([{"path": "pack", "message": f"{to_ref[:60]} is no loaded version of one of this build's "
                                                      f"packs {from_ref[:60]}"}])
    return old, new


def compare(document: dict[str, Any], kind, to_ref: str) -> dict[str, Any]:
    """The changes API's answer: items changed, removed and added, and the issues before and after."""
    old, new = versions(pack_set(document["pack"], document.get("extensions", ())), to_ref)
    used = {key for _, _, key in kind.items_used(document)}
    before = store.check(document).report
    moved = upgraded(document, kind, old, new)
    after = store.check(moved.document).report
    name = to_ref.partition("@")[0]
    moved_from, moved_to = (next(ref for ref in pack_refs(c.ref) if ref.partition("@")[0] == name) for c in (old, new))
    return {"from": moved_from, "to": moved_to, "items": item_changes(old, new, used),
            "issues_before": [i.as_dict() for i in before.issues],
            "issues_after": [i.as_dict() for i in after.issues],
            "emptied": moved.emptied, "legal_before": before.legal, "legal_after": after.legal}


def _order(path: tuple) -> list[tuple[int, Any]]:
    return [(0, step) if isinstance(step, int) else (1, str(step)) for step in path]


def _empty(document: dict[str, Any], path: tuple, removal: str = "", paired: str = "") -> None:
    """Takes the item at `path` out (a list element, or a mapping entry when `removal` is "out"), or sets it to
    None (a field, or a list element kept in its place when `removal` is "none"); a list element taken out takes
    the one at its index in the `paired` sibling list with it."""
    node: Any = document
    for step in path[:-1]:
        node = node[step]
    if removal == "out" or (isinstance(path[-1], int) and removal != "none"):
        del node[path[-1]]
        owner: Any = document
        for step in path[:-2]:
            owner = owner[step]
        partner = owner.get(paired) if paired and isinstance(owner, dict) else None
        if isinstance(partner, list) and isinstance(path[-1], int) and path[-1] < len(partner):
            del partner[path[-1]]
    else:
        node[path[-1]] = None
