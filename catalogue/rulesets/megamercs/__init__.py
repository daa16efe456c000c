"""MEGA MERCS 2028: mecha and tanks on typed, sized hardpoints, d100 roll-under. Listed as coming; its dice work."""
from ..dice import d100_roll_under
from ..spec import Dice, DiceOption, Ruleset

RULESET = Ruleset(
    key="megamercs",
    name="MEGA MERCS 2028",
    tagline="Mecha and tanks with typed, sized hardpoints on d100.",
    dice=Dice((DiceOption("target", "roll at or under this on d100", 0, 100),), d100_roll_under),
)
