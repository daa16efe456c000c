"""METALLURGENT (Beta 0.1.9a): Anvils built from six Components, an FCS and up to 12 Gear."""
from pathlib import Path
from typing import Any

from ..base import BUILD_FORMAT, Catalogue
from .rules import parse, resolve, validate
from .schema import CATEGORIES, CATEGORY_LABELS

KEY = "metallurgent"
NAME = "METALLURGENT"
TAGLINE = "Silver Age Anvils on d6 pools: Load Tolerance, EN, Hardpoints and Arm Strength."
KINDS = {"anvil": "Anvil"}
DATA_DIR = Path(__file__).parent / "data"


def example_build(example: dict[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    """A pack's example Anvil as a full build document; it must read against the pack's own items."""
    document = {"format": BUILD_FORMAT, "ruleset": KEY, "kind": "anvil", "pack": catalogue.pack, **example}
    resolve(parse(document), catalogue)
    return document


__all__ = ["CATEGORIES", "CATEGORY_LABELS", "DATA_DIR", "KEY", "KINDS", "NAME", "TAGLINE",
           "example_build", "parse", "validate"]
