"""DARK METAL: Mercenaries in the Deep. Squad Leaders and allies on Reputation budgets, d10 pools.

Not yet in the active registry (catalogue/rulesets/__init__.py): it joins once its builder pages exist,
so the home page never offers a builder that is not there.
"""
from pathlib import Path

from .schema import CATEGORIES, CATEGORY_LABELS

KEY = "darkmetal"
NAME = "DARK METAL"
TAGLINE = "Squad Leaders and allies on Reputation budgets, d10 pools."
DATA_DIR = Path(__file__).parent / "data"

__all__ = ["CATEGORIES", "CATEGORY_LABELS", "DATA_DIR", "KEY", "NAME", "TAGLINE"]
