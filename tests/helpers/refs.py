"""The refs of the packs the repository ships, read from their files: tests never spell a version out."""
from functools import cache

import yaml

from catalogue.rulesets import ACTIVE


@cache
def pack_ref(ruleset: str, kind: str) -> str:
    """`name@version` of the newest shipped pack serving this kind, as the builder would pick it."""
    category = ACTIVE[ruleset].kind(kind).pack_category
    found = []
    for path in ACTIVE[ruleset].data_dir.glob("*.yaml"):
        pack = yaml.safe_load(path.read_text())
        if category in (pack.get("items") or {}):
            found.append((tuple(int(n) for n in pack["version"].split(".")), f"{pack['name']}@{pack['version']}"))
    return max(found)[1]
