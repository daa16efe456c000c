"""Ember·Obsidian Protocol: M.A.P. mechs from Part cards and a Pilot. Listed as coming."""
from ..spec import Ruleset

RULESET = Ruleset(
    key="ember",
    name="Ember·Obsidian Protocol",
    tagline="M.A.P. mechs from Part cards and a Pilot, custom dice.",
)
