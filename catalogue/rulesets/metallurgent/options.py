"""METALLURGENT's house rules (data/house_rules/), read once: the Anvil's, the Pilot's and the squad's rules and the
pickers all play by them."""
from pathlib import Path

from ..house_rules import load

OPTIONS = load(Path(__file__).parent / "data")  # e.g. the Gear limit (M-R05), weapons per class (M-R20)
