"""LANCER (beta mech combat): pilots on licences and the mechs they own, lances for a GM, on d20. Construction is
LANCER 1.0's; the beta chapter's differences are house-rule readings. Lancer Content Packs (.lcp) load as packs."""
from pathlib import Path

from ..spec import Dice, DiceOption, Exchange, ItemRef, Kind, Link, Preview, Ruleset
from . import compcon, lcp, places, preview, rules, summary, table
from .cells import CELLS
from .dice import d20_check
from .schema import CATEGORIES, CATEGORY_LABELS, LanceBuild, PilotBuild

MECH = "mechs[]"
RULESET = Ruleset(
    key="lancer",
    name="LANCER (beta mech combat)",
    tagline="Pilots on licences with the mechs they own: mounts, weapons by size, systems on SP, on d20.",
    kinds=(
        Kind("pilot", "Pilot", PilotBuild, "frame", lambda build, catalogue, linked: rules.validate(build, catalogue),
             items=(ItemRef("triggers{key}"), ItemRef("talents{key}"), ItemRef("licences{key}"),
                    ItemRef("core_bonuses[]", "core_bonuses[]"), ItemRef("gear[]", "gear[]"),
                    ItemRef("mechs[].frame", MECH), ItemRef("mechs[].mounts[].weapons[]", paired="mods"),
                    ItemRef("mechs[].mounts[].mods[]", in_place=True),
                    ItemRef("mechs[].systems[]", "mechs[].systems[]")),
             places=places.pilot_places, cosmetic=("name", "notes", "callsign"), detail=rules.PilotDetail,
             previewer=Preview(preview.preview_pilot, {"target": preview.Target, "situation": preview.Situation}),
             tabletop=table.PILOT, summary=summary.pilot),
        Kind("lance", "Lance", LanceBuild, "frame", rules.validate_lance, links=(Link("pilots[].build", "pilot"),),
             detail=rules.LanceDetail, summary=summary.lance),
    ),
    categories=CATEGORIES,
    category_labels=CATEGORY_LABELS,
    data_dir=Path(__file__).parent / "data",
    dice=Dice((DiceOption("target", "the number to meet on d20 + modifier", 1, 40),
               DiceOption("modifier", "added to the d20", -20, 20, default=0)), d20_check),
    stat_labels={"edef": "E-Defense", "hp": "HP", "sp": "SP", "heatcap": "Heat Cap", "repcap": "Repair Cap",
                 "tech_attack": "Tech Attack", "sensor_range": "Sensors", "mechtype": "Roles", "license_level": "LL",
                 "license_id": "Licence", "core_system": "CORE system"},
    signed_stats=frozenset({"tech_attack"}),
    leading_columns=("source", "license_id", "license_level", "mount", "type", "damage", "range", "sp", "tags",
                     "mechtype"),
    cell_text=CELLS,
    pack_readers={".lcp": lcp.read},
    exchanges=(Exchange("compcon", "COMP/CON pilot", "pilot", compcon.read, compcon.write, compcon.wants),),
    item_summary=places.summary,
)
