"""MES numbers the effect-text audit found unmodelled, now computed: Cuttle Skin's Stealth level, Leg Splicing 3's
free Dashes, Internal Blades as a Melee Weapon, the Dual Cyber Arms' Power boost, and the grenade shots of the
launchers; each on the finished Leader, and gone under Sys armour (DM-R18)."""
import pytest

from builder import store
from builder.kinds import page_for
from catalogue.rulesets.darkmetal import RULESET
from catalogue.rulesets.darkmetal import preview as dm
from catalogue.rulesets.darkmetal.rules import parse
from tests.darkmetal.factories import attach, check, leader, mods

SYS_ARMOUR = {"item": "combat-armor"}  # Sys 1, one Attach Point


def skills(report):
    return {row.key: row.level for row in report.detail.skills}


def abilities(report):
    return {a.name: a.frequency for a in report.detail.abilities}


def test_dm_r18_cuttle_skin_adds_a_stealth_level_that_unlocks_stealth_abilities(catalogue):
    cuttle = mods(catalogue, "cuttle-skin")
    trained = {"traits": {"kno": 4}, "knowledge": {"ste": 2}}
    without = check(catalogue, **trained)
    with_skin = check(catalogue, modifications=cuttle, **trained)
    assert skills(without)["ste"] == 2 and "Stealth Overload" not in abilities(without)
    assert skills(with_skin)["ste"] == 3 and "Stealth Overload" in abilities(with_skin)  # a Ste 3 ability
    assert next(r for r in with_skin.detail.skills if r.key == "ste").bonus == 1
    negated = check(catalogue, modifications=cuttle, armor=SYS_ARMOUR, **trained)
    assert skills(negated)["ste"] == 2 and "Cuttle Skin" in negated.detail.negated


def test_dm_r31_leg_splicing_3_with_second_heart_gives_a_free_dash_per_splice_level(catalogue):
    legs = ("leg-splicing-1", "leg-splicing-2", "leg-splicing-3")
    alone = check(catalogue, modifications=mods(catalogue, *legs))
    assert "Free Dash after a Move" not in abilities(alone)  # not met: no Second Heart
    both = check(catalogue, modifications=mods(catalogue, *legs, "second-heart"))
    assert abilities(both)["Free Dash after a Move"] == "3/scenario"  # Splice 3: three Leg Splicings, the heart 0
    more = check(catalogue, modifications=mods(catalogue, *legs, "second-heart", "cat-reflexes"))
    assert abilities(more)["Free Dash after a Move"] == "4/scenario"  # a later Splice raises the count
    negated = check(catalogue, modifications=mods(catalogue, *legs, "second-heart"), armor=SYS_ARMOUR)
    assert "Free Dash after a Move" not in abilities(negated)


def test_dm_r25_internal_blades_strike_while_an_arm_attach_point_is_free(catalogue):
    """No armour (every armour with Attach Points has Sys): the Dual Cyber Arms give AP1 and AP2."""
    blades = mods(catalogue, "dual-cyber-arms", "internal-blades")
    one_arm = check(catalogue, modifications=blades, attach=[attach("power-pack", 1)])
    assert one_arm.detail.implants == ["internal-blades"]  # at the limit: AP2 is still free
    both_arms = check(catalogue, modifications=blades, attach=[attach("power-pack", 1), attach("carry-pack", 2)])
    assert both_arms.detail.implants == []
    assert check(catalogue, modifications=blades, armor=SYS_ARMOUR).detail.implants == []  # DM-R18


def preview(catalogue, document, **situation):
    attacks = RULESET.kind("leader").preview(parse(document), catalogue, {"situation": situation}, {})["attacks"]
    return {a["name"]: a for a in attacks}


def test_dm_r25_the_preview_and_sheet_fight_with_the_blades(packs, catalogue):
    document = leader(catalogue, modifications=mods(catalogue, "internal-blades"))
    blades = preview(catalogue, document, close_combat=True)["Internal Blades"]
    assert blades["damage"] == 1 and blades["notes"][0].startswith("Close Combat: Athletics")
    page = page_for("darkmetal", "leader")
    html = "".join(page.sheet_sections(None, store.check(document), "https://example.test/s/x/"))
    assert "Internal Blades" in html and "implant" in html


def test_dm_dual_cyber_arms_power_boost_adds_a_die_to_close_combat_attacks(catalogue):
    arms = mods(catalogue, "dual-cyber-arms")
    document = leader(catalogue, modifications=arms, hands=[{"item": "melee-weapon"}])
    knife = preview(catalogue, document, close_combat=True)["Melee Weapon"]
    plain, boosted = knife["modes"]
    assert boosted["dice"] == plain["dice"] + 1 and boosted["power"] == 1 and "Dual Cyber Arms" in boosted["mode"]
    rifle = preview(catalogue, leader(catalogue, modifications=arms, hands=[{"item": "standard-rifle"}]))
    assert rifle["Standard Rifle"]["modes"] == []  # a shot is no Close Combat attack: no boost offered


def test_the_launchers_fire_their_grenades_out_to_their_range(catalogue):
    m742 = catalogue.items["model-742-mil-spec-m-rifle"]
    pools = {"ath": 1, "pre": 3}
    in_range = dm.weapon_odds(m742, pools, 0, dm.Situation(range=12, modes={m742.key: "grenade"}))
    assert in_range["reachable"] and in_range["damage"] == 1
    beyond = dm.weapon_odds(m742, pools, 0, dm.Situation(range=13, modes={m742.key: "grenade"}))
    assert not beyond["reachable"] and beyond["why"] == "Max Range 12"
    assert dm.weapon_odds(m742, pools, 0, dm.Situation(range=13))["reachable"]  # the rifle itself reaches on
    hc = catalogue.items["hc-grenade-launcher"]
    assert dm.weapon_odds(hc, pools, 0, dm.Situation(range=16))["damage"] == 1
    assert not dm.weapon_odds(hc, pools, 0, dm.Situation(range=17))["reachable"]


@pytest.mark.parametrize("armor, attach_pick", [("power-suit", ["hc-grenade-launcher", 3])])
def test_attach_point_weapons_get_a_profile_and_ammo_boxes_on_the_sheet(packs, catalogue, armor, attach_pick):
    document = leader(catalogue, armor={"item": armor}, attach=[attach(*attach_pick)])
    page = page_for("darkmetal", "leader")
    checked = store.check(document)
    context = page.sheet_context(checked, None)
    assert [w.name for w in context["weapons"]] == ["HC Grenade Launcher"]
    assert [(row["name"], len(row["boxes"])) for row in context["ammo"]] == [("HC Grenade Launcher", 6)]
    assert "HC Grenade Launcher" in preview(catalogue, document)
