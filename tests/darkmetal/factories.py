"""DARK METAL test documents on the rulebook pack, read from its file (no database): a Squad Leader with the fields
a test names, checked by the validator; purchases priced in order; hands, backpack, Attach Points and allies as a
document writes them; and the rulebook's catalogue with its items, for the combat rules.

The `catalogue` fixture (tests/darkmetal/conftest.py) is `rulebook_catalogue()`, read once a module."""
from pathlib import Path

import catalogue.rulesets.darkmetal as dm
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.darkmetal import rules
from catalogue.rulesets.packs import read_pack

DATA = Path(__file__).resolve().parents[2] / "catalogue/rulesets/darkmetal/data/rulebook.yaml"


def rulebook_catalogue():
    return read_pack(DATA, {"darkmetal": dm.RULESET}).catalogue


# --- a Squad Leader -----------------------------------------------------------------------------------------------

def leader(catalogue, **fields):
    return {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": catalogue.pack,
            "name": "Moroc", **fields}


def check(catalogue, **fields):
    return rules.validate(leader(catalogue, **fields), catalogue)


def codes(report, severity="error"):
    return {i.code for i in report.issues if i.severity == severity}


def mods(catalogue, *keys):
    """Purchases in order, each at the price it costs then (so only the rule under test can fail)."""
    return rules.priced_in_order(catalogue, keys)


def trait(report, key):
    return next(t for t in report.detail.traits if t.trait == key)


def hands(*keys):
    return [{"item": k} for k in keys]


def pack(*keys):
    return [{"item": k} for k in keys]


def attach(key, *points):
    return {"item": key, "at": list(points)}


# --- allies -------------------------------------------------------------------------------------------------------

def ally(template, **fields):
    return {"name": fields.pop("name", template.title()), "template": template, **fields}


def armed_ally(template, *weapons):
    """An ally bought with Rep and deployed, carrying these weapons."""
    return {"name": "Ash", "template": template, "paid_with": "rep", "deployed": True, "armor": None,
            "weapons": list(weapons), "items": []}


# --- the rulebook's items, for the combat rules -------------------------------------------------------------------

CATALOGUE = read_pack(ACTIVE["darkmetal"].data_dir / "rulebook.yaml", ACTIVE).catalogue
ITEMS = CATALOGUE.items
KNIFE, RIFLE = ITEMS["melee-weapon"], ITEMS["standard-rifle"]
