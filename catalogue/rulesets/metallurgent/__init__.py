"""METALLURGENT (Beta 0.1.9a): Anvils, their Pilots, and squads of Platoons."""
from pathlib import Path
from typing import Any

from ..base import BuildError
from ..spec import Dice, DiceOption, ItemRef, Kind, Link, PackLink, Preview, Ruleset
from . import pilots, places, preview, rules, squads, summary, table
from .dice import metallurgent_pool
from .schema import CATEGORIES, CATEGORY_LABELS, AnvilBuild, PilotBuild, SquadBuild


def validate_anvil(build, catalogue, linked):
    report = rules.validate(build, catalogue)
    if build.pilot:
        rules.check_pilot(build.pilot, linked.get(build.pilot), report)
    return report


def check_pilot_update(old: dict[str, Any], new: dict[str, Any]) -> None:
    """A saved Pilot's history only grows: the Spec stays (M-R96) and paid prices stand (M-R101, M-R104)."""
    before = old.get("history", [])
    if new.get("history", [])[: len(before)] != before:
        raise BuildError([{"path": "history", "message": "a Pilot's history can only be added to, "
                                                         "not rewritten (M-R96, M-R101)"}])


RULESET = Ruleset(
    key="metallurgent",
    name="METALLURGENT",
    tagline="Silver Age Anvils on d6 pools: Load Tolerance, EN, Hardpoints and Arm Strength; Pilots and Platoons.",
    kinds=(
        Kind("anvil", "Anvil", AnvilBuild, "core", validate_anvil, links=(Link("pilot", "pilot"),),
             items=(ItemRef("parts{}"), ItemRef("gear[].item", "gear[]"), ItemRef("gear[].chipsets[]", "gear[].chipsets[]")),
             places=places.anvil_places, cosmetic=("name", "notes", "task"), resolve=rules.resolve,
             detail=rules.AnvilDetail, summary=summary.anvil, tabletop=table.ANVIL,
             # A target is a conventional unit from the newest units pack, a saved Anvil, or one written in.
             previewer=Preview(preview.preview_anvil, {"target": preview.TargetSpec, "situation": preview.Situation},
                               (Link("target.build", "anvil", owned=False),), "conventional_unit")),
        Kind("pilot", "Pilot", PilotBuild, "skill", lambda build, catalogue, linked: pilots.validate(build, catalogue),
             check_update=check_pilot_update,
             items=(ItemRef("lifepath"), ItemRef("profession"), ItemRef("developments[]", "developments[]"),
                    ItemRef("history[].learn", "history[]"), ItemRef("history[].unlearn", "history[]")),
             places=places.pilot_places, cosmetic=("name", "notes", "callsign"), detail=pilots.PilotDetail,
             summary=summary.pilot, tabletop=table.PILOT),
        Kind("squad", "Squad", SquadBuild, "conventional_unit", squads.validate,
             links=(Link("platoons[].members[].build", "anvil"), Link("opponent", "squad", owned=False)),
             items=(ItemRef("platoons[].members[].unit", "platoons[].members[]"),), places=places.squad_places,
             starter={"platoons": [{"name": "Platoon 1", "members": []}]}, detail=squads.SquadDetail,
             summary=summary.squad),
    ),
    categories=CATEGORIES,
    category_labels=CATEGORY_LABELS,
    data_dir=Path(__file__).parent / "data",
    dice=Dice((DiceOption("pool", "number of d6"), DiceOption("criterion", "success criterion (2-6)", 2, 6),
               DiceOption("indirect", "indirect fire: 6s do not count twice", flag=True)),
              lambda pool, criterion, indirect: metallurgent_pool(pool, criterion, duplicate=not indirect)),
    stat_labels={"ap": "AP", "resistance.KE": "KE Res", "resistance.CE": "CE Res", "resistance.TE": "TE Res",
                 "en_output": "EN Output", "en_capacity": "EN Capacity", "en_cost": "EN Cost",
                 "en_drain": "EN Drain", "en_offset": "EN Offset", "fcs": "FCS", "weapon.en_cost": "EN Cost",
                 "block_bonus": "Block Bonus", "block_cost": "Block Cost"},
    signed_stats=frozenset({"agility", "camera_modifier", "initiative", "accuracy", "cruise", "init"}),
    leading_columns=("type", "subtype", "weapon_class", "weapon_type", "category", "chassis", "cooling",
                     "targeting_type", "load", "size", "mount", "hardpoints", "strength", "defence", "damage",
                     "damage_type", "range"),
    pack_links=(PackLink("skill", "mother", ("skill",)),),
    item_summary=places.summary,
)
