"""Builds to and from other apps' files (a ruleset's `exchanges`, such as COMP/CON pilots): shared by the import
form, the API and `manage.py import_<format>`."""
from __future__ import annotations

import re
from typing import Any

from catalogue.loader import catalogue_by_ref, latest_pack
from catalogue.models import UserPack
from catalogue.rulesets import EXCHANGES
from catalogue.rulesets.base import BuildError
from catalogue.rulesets.spec import Exchange, Unknown

from . import store
from .models import Build

MAX_REMOVED = 50  # the notes a build keeps (BuildDocument.removed)
PACK_LINK = re.compile(r"(?:/packs/)?([A-Za-z0-9_-]{4,32})/?$")


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
    wanted = str(wanted or "").strip()[:200]
    if "@" in wanted:
        ref = wanted
    elif wanted:
        found = PACK_LINK.search(wanted)
        owner = UserPack.objects.filter(share_id=found.group(1)).first() if found else None
        newest = owner.newest() if owner else None
        ref = newest.ref if newest else ""
    else:
        pack = latest_pack(ruleset.key, exchange.kind)
        ref = pack.ref if pack else ""
    catalogue = catalogue_by_ref(ref) if ref else None
    if catalogue is None or catalogue.ruleset != ruleset.key:
        raise BuildError([{"path": "pack", "message": f"no loaded {ruleset.name} pack {wanted[:60] or ''}".strip()}])
    return ref


def read(key: str, raw: bytes | str, pack: str = "") -> tuple[store.Checked, list[Unknown]]:
    """The other app's file as a checked Hardpoint build, and the ids no loaded pack knows (left out)."""
    exchange = exchange_for(key)
    ref = pack_for(key, pack)
    document, unknown = exchange.read(raw, catalogue_by_ref(ref), ref)
    # What the pack lacks stays on the build as an HP-IMPORT error: an import missing a part is never legal.
    left_out = [{"name": f"{u.id} ({u.where})"[:120], "key": u.id[:80], "path": "import", "pack": ref, "by": "import"}
                for u in unknown]
    if left_out:
        document["removed"] = [*document.get("removed", []), *left_out][-MAX_REMOVED:]
    return store.check(document), unknown


def write(build: Build, key: str) -> dict[str, Any]:
    """A saved build in the other app's format."""
    exchange = exchange_for(key)
    if EXCHANGES[key][0].key != build.ruleset or exchange.kind != build.kind:
        raise BuildError([{"path": "format", "message": f"a {build.kind} build has no {exchange.label} format"}])
    checked = store.check_saved(build)
    return exchange.write(checked.document, checked.catalogue)


def unknown_as_dicts(unknown: list[Unknown]) -> list[dict[str, str]]:
    return [{"id": u.id, "where": u.where} for u in unknown]
