"""DARK METAL: Mercenaries in the Deep. A Squad Leader and the allies hired from the same budgets, d10 pools."""
from pathlib import Path
from typing import Any

from ..base import BUILD_FORMAT, Catalogue, Linked, Report
from . import rules
from .schema import CATEGORIES, CATEGORY_LABELS

KEY = "darkmetal"
NAME = "DARK METAL"
TAGLINE = "Squad Leaders and allies on Reputation budgets, d10 pools."
KINDS = {"leader": "Squad Leader"}
KIND_CATEGORY = {"leader": "armor"}
DATA_DIR = Path(__file__).parent / "data"


def parse(document: Any):
    return rules.parse(document)


def links(build: Any) -> list[str]:
    return []


def validate(build: Any, catalogue: Catalogue, linked: dict[str, Linked | None] | None = None) -> Report:
    return rules.validate(build, catalogue)


def check_update(old: dict[str, Any], new: dict[str, Any]) -> None:
    """Saved Leaders may be changed freely; what a change costs is shown, not blocked (DM-R51-DM-R53)."""


def example_build(example: dict[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    """A pack's example Leader as a full build document; it must read against the pack's own items."""
    document = {"format": BUILD_FORMAT, "ruleset": KEY, "kind": "leader", "pack": catalogue.pack, **example}
    rules.validate(document, catalogue)
    return document


__all__ = ["CATEGORIES", "CATEGORY_LABELS", "DATA_DIR", "KEY", "KINDS", "KIND_CATEGORY", "NAME", "TAGLINE",
           "check_update", "example_build", "links", "parse", "validate"]
