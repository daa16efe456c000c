"""Ember·Obsidian Protocol: M.A.P. mechs from Part cards and a Pilot. Listed as coming; its dice work."""
from ..spec import Dice, DiceOption, Ruleset
from . import dice

RULESET = Ruleset(
    key="ember",
    name="Ember·Obsidian Protocol",
    tagline="M.A.P. mechs from Part cards and a Pilot, custom dice.",
    dice=Dice((DiceOption("attack", "the attack pool: Yellow and Red dice, e.g. 2Y+2R", pattern=dice.ATTACK),
               DiceOption("defence", "the defence pool: White dice, and Blue ones, e.g. 4W or 4W+2B",
                          pattern=dice.DEFENCE),
               DiceOption("attacker-stance", "OFF makes hollow attack icons count", default="SD", choices=dice.STANCES),
               DiceOption("defender-stance", "DEF makes hollow White icons count; MOB adds --dodge Blue dice",
                          default="SD", choices=dice.STANCES),
               DiceOption("dodge", "the defender's Dodge Value (Blue dice in Mobility)", 0, 20, default=0),
               DiceOption("policy", "P1 dodges damage first; P2 dodges Lightning once a Penetration is certain",
                          default="P1", choices=("P1", "P2"))),
              lambda **o: dice.command(o["attack"], o["defence"], o["attacker-stance"], o["defender-stance"],
                                       o["dodge"], o["policy"])),
)
