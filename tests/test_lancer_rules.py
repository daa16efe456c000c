"""A LANCER pilot document checked whole: advancement rules and budgets as bars, each mech's derived stats and
load-out rules, unknown ids refused naming the field."""
import pytest

from catalogue.rulesets.base import BuildError, Catalogue
from catalogue.rulesets.lancer import rules
from catalogue.rulesets.lancer.schema import CATEGORIES

ITEMS = {
    "frame": [{"id": "kite", "name": "Kite", "license_level": 2, "license_id": "kite", "mechtype": ["Striker"],
               "mounts": ["Main", "Heavy"], "core_system": {"name": "Burst"},
               "stats": {"size": 1, "armor": 1, "hp": 8, "evasion": 10, "edef": 8, "heatcap": 5, "repcap": 4,
                         "sensor_range": 10, "tech_attack": 0, "save": 10, "speed": 6, "sp": 5}},
              {"id": "mule", "name": "Mule", "license_level": 0, "mechtype": ["Balanced"], "mounts": ["Main"],
               "core_system": {"name": "Haul"},
               "stats": {"size": 1, "armor": 0, "hp": 10, "evasion": 8, "edef": 8, "heatcap": 6, "repcap": 5,
                         "sensor_range": 10, "tech_attack": 0, "save": 10, "speed": 4, "sp": 6}}],
    "weapon": [{"id": "rifle", "name": "Rifle", "mount": "Main", "type": "Rifle"},
               {"id": "rail", "name": "Rail", "mount": "Superheavy", "type": "Cannon", "license_level": 2,
                "license_id": "kite"}],
    "system": [{"id": "plate", "name": "Plate", "sp": 2}, {"id": "nhp", "name": "NHP", "sp": 3, "type": "AI"}],
    "mod": [{"id": "scope", "name": "Scope", "sp": 1, "allowed_types": ["Rifle"]}],
    "talent": [{"id": "ace", "name": "Ace", "ranks": [{"name": "I"}, {"name": "II"}, {"name": "III"}]},
               {"id": "brawler", "name": "Brawler", "ranks": [{"name": "I"}]},
               {"id": "crack", "name": "Crack", "ranks": [{"name": "I"}]}],
    "skill": [{"id": s, "name": s.title()} for s in ("a", "b", "c", "d", "e")],
    "core_bonus": [{"id": "cb", "name": "Bonus"}],
}


@pytest.fixture(scope="module")
def cat():
    items, categories = {}, {}
    for category, entries in ITEMS.items():
        for entry in entries:
            item = CATEGORIES[category].model_validate(entry)
            items[item.key], categories[item.key] = item, category
    return Catalogue("lancer", "lancer-test@1.0.0", items, categories, "Test")


def pilot(**fields):
    base = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": "lancer-test@1.0.0",
            "name": "Ace", "ll": 2, "hase": {"hull": 2, "systems": 2}, "triggers": {"a": 1, "b": 1, "c": 1, "d": 2, "e": 1},
            "talents": {"ace": 2, "brawler": 1, "crack": 1}, "licences": {"kite": 2}}
    return {**base, **fields}


def codes(report):
    return {i.code for i in report.issues}


def test_a_pilot_at_its_budgets_is_legal_with_bars(cat):
    report = rules.validate(pilot(), cat)
    assert report.legal, [i.message for i in report.issues]
    assert {m.key: (m.used, m.limit) for m in report.meters} == {
        "hase": (4, 4), "triggers": (6, 6), "talents": (4, 5), "licences": (2, 2), "core_bonuses": (0, 0)}
    assert report.stats["grit"].value == 1 and report.stats["pilot_hp"].value == 7


def test_a_mech_gets_its_derived_stats_and_an_sp_bar(cat):
    mech = {"name": "Gull", "frame": "kite", "mounts": [{"weapons": ["rifle"], "mods": ["scope"]}, {"weapons": []}],
            "systems": ["plate"]}
    report = rules.validate(pilot(mechs=[mech]), cat)
    assert report.legal, [i.message for i in report.issues]
    stats = report.detail["mechs"][0]["stats"]
    assert stats["hp"]["value"] == 8 + 1 + 4 and stats["sp"]["value"] == 5 + 1 + 1
    assert next(m for m in report.meters if m.key == "sp_0").used == 3


def test_load_out_rules_report_on_the_mech(cat):
    mech = {"name": "Gull", "frame": "kite", "mounts": [{"weapons": ["rail"]}, {"weapons": []}],
            "systems": ["nhp", "nhp", "plate"]}
    report = rules.validate(pilot(mechs=[mech], licences={"kite": 1}, ll=1, hase={"hull": 3},
                                  talents={"ace": 1, "brawler": 1, "crack": 2}, triggers={"a": 1, "b": 1, "c": 1, "d": 2}), cat)
    assert {"L-B09", "L-B10", "L-B12", "L-B13"} <= codes(report)
    assert all(i.path.startswith("mechs[0].") for i in report.issues if i.code in ("L-B09", "L-B10", "L-B12"))


def test_a_mech_must_list_every_mount_of_its_frame(cat):
    report = rules.validate(pilot(mechs=[{"name": "Short", "frame": "mule", "mounts": []}]), cat)
    assert "L-B09" in codes(report)


def test_unknown_ids_are_refused_naming_the_field(cat):
    with pytest.raises(BuildError) as error:
        rules.validate(pilot(talents={"nope": 1}, mechs=[{"name": "X", "frame": "rifle", "systems": ["ghost"]}]), cat)
    assert {p["path"] for p in error.value.problems} == {"talents.nope", "mechs[0].frame", "mechs[0].systems[0]"}
