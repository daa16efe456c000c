"""How LANCER's nested LCP fields read in the catalogue's table: damage and ranges as a weapon card prints them,
tags by name, a frame's traits and CORE system by name, a talent's ranks in order."""
from __future__ import annotations

from typing import Any


def tag_names(tags: list[dict[str, Any]]) -> str:
    return ", ".join(t["id"].removeprefix("tg_").replace("_", " ").capitalize()
                     + (f" {t['val']}" if t.get("val") not in (None, "") else "") for t in tags)


CELLS = {
    "damage": lambda rows: " + ".join(f"{d['val']} {d['type'].lower()}" for d in rows),
    "range": lambda rows: ", ".join(f"{r['type']} {r['val']}" for r in rows),
    "tags": tag_names,
    "traits": lambda rows: ", ".join(t["name"] for t in rows),
    "core_system": lambda core: core["name"] + (f": {core['active_name']}" if core.get("active_name") else ""),
    "ranks": lambda rows: " · ".join(f"{n} {r['name']}" for n, r in zip(("I", "II", "III"), rows)),
    "license_id": lambda key: key or "—",
}
