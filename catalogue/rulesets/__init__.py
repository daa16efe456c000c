"""The rulesets Hardpoint knows: one folder each, registered here and nowhere else.

Each folder's `RULESET` (a `spec.Ruleset`) is all the rest of Hardpoint sees of a game.
"""
from importlib import import_module
from typing import Any

from .base import BuildError
from .spec import Kind, Ruleset

# One line per game, in the order the site lists them. A ruleset without kinds is shown as coming.
KEYS = ("metallurgent", "darkmetal", "megamercs", "lancer", "ember")

RULESETS: dict[str, Ruleset] = {key: import_module(f"{__name__}.{key}").RULESET for key in KEYS}
ACTIVE: dict[str, Ruleset] = {key: ruleset for key, ruleset in RULESETS.items() if ruleset.active}
COMING: tuple[Ruleset, ...] = tuple(r for r in RULESETS.values() if not r.active)
KINDS: dict[tuple[str, str], Kind] = {(r.key, k.key): k for r in ACTIVE.values() for k in r.kinds}


def resolve(document: Any) -> tuple[Ruleset, Kind]:
    """The ruleset and kind a build document declares, or a BuildError naming the field."""
    if not isinstance(document, dict):
        raise BuildError([{"path": "(document)", "message": "a build is a JSON object"}])
    key = document.get("ruleset")
    ruleset = ACTIVE.get(key) if isinstance(key, str) else None
    if ruleset is None:
        raise BuildError([{"path": "ruleset", "message": f"unknown ruleset {str(key)[:40]!r}; "
                                                         f"expected one of {', '.join(ACTIVE)}"}])
    return ruleset, ruleset.kind_of(document)


EXCHANGES = {exchange.key: (ruleset, exchange) for ruleset in ACTIVE.values() for exchange in ruleset.exchanges}
