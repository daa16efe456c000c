"""Ember·Obsidian Protocol: M.A.P. mechs from Part cards and a Pilot, squads with Drones, on custom dice."""
from pathlib import Path

from ..spec import Dice, DiceOption, ItemRef, Kind, Link, PackLink, Preview, Ruleset
from . import dice, places, preview, rules, summary, table
from .secrecy import SECRECY
from .schema import CATEGORIES, CATEGORY_LABELS, MechBuild, SquadBuild

KINDS = (
    # The stance a Mech deploys in matters at the table (the preview), to no construction rule.
    Kind("mech", "Mech", MechBuild, "part", lambda build, catalogue, linked: rules.validate(build, catalogue),
         items=(ItemRef("parts{}", dropped=True), ItemRef("pilot")), secrecy=SECRECY, places=places.mech_places,
         cosmetic=("name", "notes", "stance"), resolve=rules.resolve, detail=rules.MechDetail,
         previewer=Preview(preview.preview_mech, {"target": preview.DefenderModel, "situation": preview.SituationModel},
                           (Link("target.build", "mech", owned=False),)), summary=summary.mech,
         tabletop=table.MECH),
    Kind("squad", "Squad", SquadBuild, "part", rules.validate_squad, links=(Link("mechs[].build", "mech"),),
         detail=rules.SquadDetail,
         items=(ItemRef("mechs[].mech.parts{}", "mechs[]"), ItemRef("mechs[].mech.pilot", "mechs[]"),
                ItemRef("drones[].drone", "drones[]")), places=places.squad_places, summary=summary.squad,
         tabletop=table.SQUAD),
)

RULESET = Ruleset(
    key="ember",
    name="Ember·Obsidian Protocol",
    tagline="M.A.P. mechs from Part cards and a Pilot, custom dice.",
    kinds=KINDS,
    categories=CATEGORIES,
    category_labels=CATEGORY_LABELS,
    data_dir=Path(__file__).parent / "data",
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
    item_summary=places.summary,
    pack_links=(PackLink("drone", "load[]", ("part",)),),
)
