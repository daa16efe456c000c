"""LANCER (beta mech combat): pilots and mechs on d20. Listed as coming; its dice work, and its content packs
(.lcp) read as Hardpoint packs."""
from ..dice import d20_check
from ..spec import Dice, DiceOption, Ruleset
from . import lcp
from .schema import CATEGORIES, CATEGORY_LABELS

RULESET = Ruleset(
    key="lancer",
    name="LANCER (beta mech combat)",
    tagline="Pilots and mechs: mounts, weapons by size, systems.",
    categories=CATEGORIES,
    category_labels=CATEGORY_LABELS,
    dice=Dice((DiceOption("target", "the number to meet on d20 + modifier", 1, 40),
               DiceOption("modifier", "added to the d20", -20, 20, default=0)), d20_check),
    pack_readers={".lcp": lcp.read},
)
