"""METALLURGENT (Beta 0.1.9a): Anvils, their Pilots, and squads of Platoons."""
from pathlib import Path
from typing import Any

from ..base import BUILD_FORMAT, BuildError, Catalogue, Linked, Report
from . import pilots, rules, squads
from .schema import CATEGORIES, CATEGORY_LABELS

KEY = "metallurgent"
NAME = "METALLURGENT"
TAGLINE = "Silver Age Anvils on d6 pools: Load Tolerance, EN, Hardpoints and Arm Strength; Pilots and Platoons."
KINDS = {"anvil": "Anvil", "pilot": "Pilot", "squad": "Squad"}
# Which pack serves which kind of build: the newest pack holding items of this category.
KIND_CATEGORY = {"anvil": "core", "pilot": "skill", "squad": "conventional_unit"}
DATA_DIR = Path(__file__).parent / "data"
_RULES = {"anvil": rules, "pilot": pilots, "squad": squads}


def _rules_for(document: Any):
    kind = getattr(document, "kind", None) or (document.get("kind", "anvil") if isinstance(document, dict) else None)
    if kind not in _RULES:
        raise BuildError([{"path": "kind", "message": f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}"}])
    return _RULES[kind]


def parse(document: Any):
    return _rules_for(document).parse(document)


def links(build: Any) -> list[str]:
    """Share ids of the saved builds this build names (an Anvil's Pilot, a squad's Anvils and opponent)."""
    if build.kind == "anvil":
        return [build.pilot] if build.pilot else []
    return squads.links(build) if build.kind == "squad" else []


def validate(build: Any, catalogue: Catalogue, linked: dict[str, Linked | None] | None = None) -> Report:
    build = parse(build)
    if build.kind == "squad":
        return squads.validate(build, catalogue, linked)
    if build.kind == "pilot":
        return pilots.validate(build, catalogue)
    report = rules.validate(build, catalogue)
    if build.pilot:
        rules.check_pilot(build.pilot, (linked or {}).get(build.pilot), report)
    return report


def check_update(old: dict[str, Any], new: dict[str, Any]) -> None:
    """A saved Pilot's history only grows: the Spec stays (M-R96) and paid prices stand (M-R101, M-R104)."""
    if new["kind"] == "pilot":
        before = old.get("history", [])
        if new.get("history", [])[: len(before)] != before:
            raise BuildError([{"path": "history", "message": "a Pilot's history can only be added to, "
                                                             "not rewritten (M-R96, M-R101)"}])


def example_build(example: dict[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    """A pack's example as a full build document; it must read against the pack's own items."""
    kind = example.get("kind", "anvil")
    document = {"format": BUILD_FORMAT, "ruleset": KEY, "kind": kind, "pack": catalogue.pack, **example}
    validate(document, catalogue)
    return document


# The interface every ruleset folder offers to the registry (catalogue/rulesets/__init__.py).
__all__ = ["CATEGORIES", "CATEGORY_LABELS", "DATA_DIR", "KEY", "KINDS", "KIND_CATEGORY", "NAME", "TAGLINE",
           "check_update", "example_build", "links", "parse", "validate"]
