"""A LANCER pilot document checked whole: advancement rules and budgets as bars, each mech's derived stats and
load-out rules, unknown ids refused naming the field."""
from types import SimpleNamespace

import pytest

from catalogue.rulesets.base import BuildError, Catalogue, Linked
from catalogue.rulesets.lancer import rules
from catalogue.rulesets.lancer.construction import limited_uses
from catalogue.rulesets.lancer.schema import CATEGORIES, Tag
from tests.lancer.factories import catalogue_of

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
    return catalogue_of(ITEMS)


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
    stats = report.detail.mechs[0].stats
    assert stats["hp"].value == 8 + 1 + 4 and stats["sp"].value == 5 + 1 + 1
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


def test_l_r02_grit_reading_floor_changes_every_stat_that_carries_it(cat):
    """A-04: the beta's "half your level" read as rounding down; LL3 gives Grit 1 instead of 2."""
    mech = {"name": "Gull", "frame": "kite", "mounts": [{"weapons": []}, {"weapons": []}]}
    three = pilot(ll=3, mechs=[mech], hase={"hull": 2, "systems": 3}, talents={"ace": 3, "brawler": 2, "crack": 1},
                  triggers={"a": 2, "b": 2, "c": 1, "d": 2}, licences={"kite": 2})
    ceil, floor = rules.validate(three, cat), rules.validate({**three, "house_rules": {"grit": "floor"}}, cat)
    assert ceil.stats["grit"].value == 2 and floor.stats["grit"].value == 1
    assert "rounded down" in floor.stats["grit"].explain
    up, down = ceil.detail.mechs[0].stats, floor.detail.mechs[0].stats
    assert up["hp"].value - down["hp"].value == 1 and up["sp"].value - down["sp"].value == 1
    assert up["save"].value - down["save"].value == 1


def test_l_r17_a_fifth_mech_skill_only_under_the_beta_reading(cat):
    """A-01: Targeting is a mech skill only when the table plays the beta's five; it spends the same points."""
    targeting = pilot(hase={"hull": 2, "targeting": 2})
    assert "L-B03" in codes(rules.validate(targeting, cat))
    beta = rules.validate({**targeting, "house_rules": {"mech-skills": "beta-five"}}, cat)
    assert beta.legal and next(m for m in beta.meters if m.key == "hase").used == 4


def test_l_r03_l_r04_grit_adds_to_sp_and_hp(cat):
    mech = {"name": "Gull", "frame": "kite", "mounts": [{"weapons": []}, {"weapons": []}]}
    stats = rules.validate(pilot(mechs=[mech], hase={}), cat).detail.mechs[0].stats
    assert stats["sp"].value == 5 + 1 and "Grit 1" in stats["sp"].explain
    assert stats["hp"].value == 8 + 1 and "Grit 1" in stats["hp"].explain


def test_l_r05_a_pilot_on_foot(cat):
    report = rules.validate(pilot(), cat)
    assert report.stats["pilot_hp"].value == 6 + 1 and report.stats["pilot_defence"].value == "10 / 10"
    assert report.stats["pilot_speed"].value == 4 and report.stats["pilot_armor"].value == 0


def test_l_r01_mech_armor_capped_at_4(cat):
    heavy = Catalogue("lancer", cat.pack, {**cat.items, "slab": CATEGORIES["frame"].model_validate(
        {"id": "slab", "name": "Slab", "mechtype": ["Defender"], "mounts": ["Main"], "core_system": {"name": "Wall"},
         "stats": {"size": 2, "armor": 6, "hp": 8, "evasion": 6, "edef": 6, "heatcap": 5, "repcap": 4,
                   "sensor_range": 10, "tech_attack": 0, "save": 10, "speed": 3, "sp": 5}})}, {**cat.categories, "slab": "frame"}, "Test")
    stats = rules.validate(pilot(mechs=[{"name": "Wall", "frame": "slab", "mounts": [{"weapons": []}]}]),
                           heavy).detail.mechs[0].stats
    assert stats["armor"].value == 4 and "at most 4" in stats["armor"].explain


def test_l_r10_one_ai_at_most(cat):
    mech = {"name": "Gull", "frame": "mule", "mounts": [{"weapons": []}], "systems": ["nhp"]}
    assert rules.validate(pilot(mechs=[mech]), cat).legal
    assert "L-B12" in codes(rules.validate(pilot(mechs=[{**mech, "systems": ["nhp", "nhp"]}]), cat))


def lance(*share_ids):
    return {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "lance", "pack": "lancer-test@1.0.0",
            "name": "Blue", "pilots": [{"build": s} for s in share_ids]}


def test_hp_member_an_illegal_pilot_is_an_error_naming_its_codes(cat):
    good = rules.validate(pilot(), cat)
    bad = rules.validate(pilot(ll=1), cat)  # over every budget of LL1
    linked = {"aaaa1111": Linked("aaaa1111", "pilot", "Ace", pilot(), good),
              "bbbb2222": Linked("bbbb2222", "pilot", "Rook", pilot(ll=1), bad)}
    report = rules.validate_lance(lance("aaaa1111", "bbbb2222"), cat, linked)
    assert [i.code for i in report.issues] == ["HP-MEMBER"] and report.issues[0].severity == "error"
    assert "Rook breaks" in report.issues[0].message and "L-B03" in report.issues[0].message
    assert report.issues[0].path == "pilots[1]" and not report.legal
    assert report.stats["pilots"].value == 2 and report.stats["ll"].value == "1–2"
    assert rules.validate_lance(lance("aaaa1111"), cat, linked).legal


def test_hp_link_a_missing_pilot_is_named(cat):
    report = rules.validate_lance(lance("gone9999"), cat, {"gone9999": None})
    assert [i.code for i in report.issues] == ["HP-LINK"] and report.detail.pilots[0].missing


def test_an_upgrade_that_drops_a_mod_keeps_the_other_mods_on_their_weapons(cat):
    """A mod's place says which weapon carries it: a mod a new pack version lacks leaves its place empty."""
    from builder.changes import upgraded
    from catalogue.rulesets import ACTIVE
    kind = ACTIVE["lancer"].kind("pilot")
    scope2 = CATEGORIES["mod"].model_validate({"id": "scope2", "name": "Scope II", "sp": 1})
    old = Catalogue("lancer", cat.pack, {**cat.items, "scope2": scope2}, {**cat.categories, "scope2": "mod"}, "Old")
    new = Catalogue("lancer", "lancer-test@1.1.0", cat.items, cat.categories, "New")
    mech = {"name": "Gull", "frame": "kite", "mounts": [{"weapons": ["rifle", "rifle"], "mods": ["scope2", "scope"]},
                                                        {"weapons": []}]}
    moved = upgraded(pilot(mechs=[mech]), kind, old, new)
    assert moved.document["mechs"][0]["mounts"][0]["mods"] == [None, "scope"]
    assert moved.emptied == [{"path": "mechs[0].mounts[0].mods[0]", "key": "scope2", "name": "Scope II"}]


def test_an_upgrade_that_drops_a_weapon_takes_its_mod_with_it(cat):
    from builder.changes import upgraded
    from catalogue.rulesets import ACTIVE
    kind = ACTIVE["lancer"].kind("pilot")
    gun = CATEGORIES["weapon"].model_validate({"id": "gun", "name": "Gun", "mount": "Auxiliary", "type": "Rifle"})
    old = Catalogue("lancer", cat.pack, {**cat.items, "gun": gun}, {**cat.categories, "gun": "weapon"}, "Old")
    new = Catalogue("lancer", "lancer-test@1.1.0", cat.items, cat.categories, "New")
    mech = {"name": "Gull", "frame": "kite", "mounts": [{"weapons": ["gun", "rifle"], "mods": [None, "scope"]},
                                                        {"weapons": []}]}
    moved = upgraded(pilot(mechs=[mech]), kind, old, new)
    assert moved.document["mechs"][0]["mounts"][0] == {"weapons": ["rifle"], "mods": ["scope"]}


@pytest.mark.parametrize("mods, left", [(["scope2", None], [None]), (["scope2", "scope"], ["scope"]),
                                        ([None, "scope2"], [None])])
def test_an_upgrade_that_drops_a_weapon_and_a_mod_together_empties_both(cat, mods, left):
    """A weapon and its own mod both gone, or a weapon gone and the next weapon's mod gone: what changed, the
    changes API and Upgrade once indexed past the end of the mods."""
    from builder.changes import upgraded
    from catalogue.rulesets import ACTIVE
    kind = ACTIVE["lancer"].kind("pilot")
    gun = CATEGORIES["weapon"].model_validate({"id": "gun", "name": "Gun", "mount": "Auxiliary", "type": "Rifle"})
    scope2 = CATEGORIES["mod"].model_validate({"id": "scope2", "name": "Scope II", "sp": 1})
    old = Catalogue("lancer", cat.pack, {**cat.items, "gun": gun, "scope2": scope2},
                    {**cat.categories, "gun": "weapon", "scope2": "mod"}, "Old")
    new = Catalogue("lancer", "lancer-test@1.1.0", cat.items, cat.categories, "New")
    mech = {"name": "Gull", "frame": "kite", "mounts": [{"weapons": ["gun", "rifle"], "mods": mods}, {"weapons": []}]}
    moved = upgraded(pilot(mechs=[mech]), kind, old, new)
    assert moved.document["mechs"][0]["mounts"][0] == {"weapons": ["rifle"], "mods": left}
    assert {e["key"] for e in moved.emptied} == {"gun", "scope2"}


@pytest.mark.parametrize("val, bonus, uses", [(3, 0, 3), (3, 2, 5), ("1d3", 2, 0), (None, 2, 0), ("9" * 7, 0, 0)])
def test_l_b08_limited_uses_are_the_tag_value_plus_the_mechs_bonus(val, bonus, uses):
    """L-B08: Limited X, plus ⌊Engineering / 2⌋ on a mech's; an item that rolls its uses, or an absurd X, has none."""
    item = SimpleNamespace(tags=[Tag(id="tg_limited", val=val)] if val is not None else [Tag(id="tg_heat_self", val=2)])
    assert limited_uses(item, bonus) == uses
