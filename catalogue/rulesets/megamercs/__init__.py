"""MEGA MERCS 2028: mecha, tanks and VTOLs on typed, sized hard-points, companies on a credit budget, d100."""
from pathlib import Path

from ..spec import Dice, DiceOption, ItemRef, Kind, Link, PackLink, Preview, Ruleset
from . import company, places, preview, rules, summary, table
from .cells import CELLS
from .dice import d100_roll_under
from .schema import CATEGORIES, CATEGORY_LABELS, CompanyBuild, UnitBuild

RULESET = Ruleset(
    key="megamercs",
    name="MEGA MERCS 2028",
    tagline="Mecha and tanks with typed, sized hard-points, internals grids and companies on a credit budget, on d100.",
    kinds=(
        Kind("unit", "Unit", UnitBuild, "chassis", lambda build, catalogue, linked: rules.validate(build, catalogue),
             items=(ItemRef("chassis"), ItemRef("mounts[].item", "mounts[]")),
             places=places.unit_places, resolve=rules.resolve, detail=rules.UnitDetail,
             previewer=Preview(preview.preview_unit, {"target": preview.Target, "situation": preview.Situation}),
             summary=summary.unit, tabletop=table.UNIT),
        Kind("company", "Company", CompanyBuild, "chassis", company.validate,
             links=(Link("units[].build", "unit"),),
             items=(ItemRef("units[].unit.chassis", "units[]"), ItemRef("units[].unit.mounts[].item", "units[].unit.mounts[]"),
                    ItemRef("drones[].drone", "drones[]"), ItemRef("infantry[].item", "infantry[]"),
                    ItemRef("aircraft[].item", "aircraft[]")),
             places=places.company_places, detail=company.CompanyDetail, summary=summary.company,
             tabletop=table.COMPANY),
    ),
    categories=CATEGORIES,
    category_labels=CATEGORY_LABELS,
    data_dir=Path(__file__).parent / "data",
    dice=Dice((DiceOption("target", "roll at or under this on d100", 0, 100),), d100_roll_under),
    stat_labels={"hp": "HP", "ewar": "E-War", "dr.front": "DR front", "dr.top": "DR top", "rof": "RoF",
                 "ish": "ISH", "ahp": "AHP", "cqc": "CQC"},
    leading_columns=("unit_type", "role", "size", "types", "hp", "agility", "movement", "movement_type", "vision",
                     "ewar", "cost"),
    cell_text=CELLS,
    pack_links=(PackLink("drone", "weapons[]", ("weapon",)), PackLink("infantry", "weapons[].weapon", ("weapon",))),
    item_summary=places.summary,
)
