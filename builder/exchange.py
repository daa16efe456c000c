"""Builds to and from other apps' files (a ruleset's `exchanges`, such as COMP/CON pilots): shared by the import
form, the API and `manage.py import_<format>`."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from catalogue.loader import catalogue_by_ref, catalogue_for, latest_pack
from catalogue.models import Pack, UserPack
from catalogue.rulesets import EXCHANGES
from catalogue.rulesets.base import MAX_EXTENSIONS, BuildError, pack_refs, pack_set
from catalogue.rulesets.spec import Exchange, Unknown

from . import store
from .models import Build

MAX_REMOVED = 50  # the notes a build keeps (BuildDocument.removed)


def exchange_for(key: str) -> Exchange:
    found = EXCHANGES.get(key)
    if found is None:
        raise BuildError([{"path": "format", "message": f"no import format {key[:40]!r}; Hardpoint reads "
                                                        f"{', '.join(EXCHANGES) or 'none'}"}])
    return found[1]


def pack_for(key: str, wanted: str = "") -> str:
    """The pack an import reads against: one named (name@version, or an uploaded pack's share link, newest
    version), else the newest pack serving the format's kind."""
    ruleset, exchange = EXCHANGES[key]
    wanted = str(wanted or "").strip()[:1000]
    if "@" in wanted:
        ref = wanted
    elif wanted:
        owner = UserPack.by_link(wanted)
        newest = owner.newest() if owner else None
        ref = newest.ref if newest else ""
    else:
        pack = latest_pack(ruleset.key, exchange.kind)
        ref = pack.ref if pack else ""
    catalogue = catalogue_by_ref(ref) if ref else None
    if catalogue is None or catalogue.ruleset != ruleset.key:
        raise BuildError([{"path": "pack", "message": f"no loaded {ruleset.name} pack {wanted[:60] or ''}".strip()}])
    return ref


@dataclass
class Imported:
    checked: store.Checked
    unknown: list[Unknown]  # the ids no pack of the build knows, left out
    missing: list[str]  # the packs the file names that are not loaded here, as it names them


def read(key: str, raw: bytes | str, pack: str = "", mine: Iterable[Pack] = ()) -> Imported:
    """The other app's file as a checked Hardpoint build on the packs named by `pack` (name@version or a share
    link), else on the packs the file says it uses, from the public ones and `mine` (the uploaded packs the
    requester may use)."""
    exchange = exchange_for(key)
    if str(pack or "").strip():
        ref, missing = pack_for(key, pack), []
    else:
        ref, missing = chosen_packs(key, raw, list(mine))
    document, unknown = exchange.read(raw, catalogue_by_ref(ref), ref)
    if missing:
        hint = f"; the file names {', '.join(missing)}, not loaded here"
        unknown = [Unknown(u.id, f"{u.where}{hint}") for u in unknown]
    # What the packs lack stays on the build as an HP-IMPORT error: an import missing a part is never legal.
    left_out = [{"name": f"{u.id} ({u.where})"[:120], "key": u.id[:80], "path": "import",
                 "pack": pack_refs(ref)[0], "by": "import"} for u in unknown]
    if left_out:
        document["removed"] = [*document.get("removed", []), *left_out][-MAX_REMOVED:]
    return Imported(store.check(document), unknown, missing)


def chosen_packs(key: str, raw: bytes | str, mine: list[Pack]) -> tuple[str, list[str]]:
    """The pack set for a file that names none here: the packs it names (the exact version when loaded, else the
    newest), on the base pack holding most of its ids, then whichever other packs hold the ids still unknown.
    Also the packs it names that are not loaded."""
    ruleset, exchange = EXCHANGES[key]
    default = pack_for(key)
    if exchange.wants is None:
        return default, []
    wanted = exchange.wants(raw)
    candidates = _candidates(ruleset.key, mine)
    named, missing = [], []
    for title, version in wanted.packs:
        found = _named(title, version, candidates)
        if found is None:
            missing.append(f"{title} @ {version}" if version else title)
        elif found not in named:
            named.append(found)
    category = ruleset.kind(exchange.kind).pack_category
    bases = [p for p in candidates if p.extends_id is None and category in catalogue_for(p).categories.values()]
    ids = set(wanted.ids)

    def extending(base: Pack, packs: list[Pack]) -> list[Pack]:
        return [p for p in packs if p.extends_id and p.extends.name == base.name]

    # A base the file names or the named packs extend, else the one that with its extensions holds most of the ids.
    base = max(bases, key=lambda p: ((p in named) + len(extending(p, named)), len(ids & catalogue_for(p).items.keys()) + sum(
        len(ids & _own(q)) for q in extending(p, candidates)), p.ref == default), default=None)
    if base is None:
        return default, missing
    chosen = [p for p in named if p.name != base.name][:MAX_EXTENSIONS]
    unknown = ids - catalogue_for(base).items.keys() - {k for p in chosen for k in _own(p)}
    while unknown and len(chosen) < MAX_EXTENSIONS:
        best = max((p for p in candidates if p.name not in {base.name, *(c.name for c in chosen)}),
                   key=lambda p: len(unknown & _own(p)), default=None)
        if best is None or not unknown & _own(best):
            break
        chosen.append(best)
        unknown -= _own(best)
    return pack_set(base.ref, [p.ref for p in chosen]), missing


def _candidates(ruleset: str, mine: list[Pack]) -> list[Pack]:
    """The newest version of each public pack of the ruleset, and of the requester's own packs."""
    newest: dict[str, Pack] = {}
    for pack in [*Pack.objects.filter(ruleset__key=ruleset, source__in=Pack.PUBLIC).select_related("ruleset",
                                                                                                  "extends"),
                 *(p for p in mine if p.ruleset.key == ruleset)]:
        if pack.name not in newest or pack.semver > newest[pack.name].semver:
            newest[pack.name] = pack
    return list(newest.values())


def _named(title: str, version: str, candidates: list[Pack]) -> Pack | None:
    """The candidate a file names by its title (or name), at the version named when that one is loaded."""
    wanted = title.casefold()
    pack = next((p for p in candidates if wanted in (p.title.casefold(), p.name)), None)
    if pack is None:
        return None
    exact = Pack.objects.filter(name=pack.name, version=version).select_related("ruleset").first() if version else None
    return exact or pack


def _own(pack: Pack) -> set[str]:
    """The items a pack adds to the one it extends."""
    items = catalogue_for(pack).items.keys()
    return set(items - catalogue_for(pack.extends).items.keys()) if pack.extends_id else set(items)


def write(build: Build, key: str) -> dict[str, Any]:
    """A saved build in the other app's format."""
    exchange = exchange_for(key)
    if EXCHANGES[key][0].key != build.ruleset or exchange.kind != build.kind:
        raise BuildError([{"path": "format", "message": f"a {build.kind} build has no {exchange.label} format"}])
    checked = store.check_saved(build)
    return exchange.write(checked.document, checked.catalogue)


def unknown_as_dicts(unknown: list[Unknown]) -> list[dict[str, str]]:
    return [{"id": u.id, "where": u.where} for u in unknown]
