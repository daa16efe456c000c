"""DARK METAL Squad Leader and allies: one pass and one fail per rule ID, and the worked examples WE-01 to WE-11."""
import pytest

import catalogue.rulesets.darkmetal as dm
from catalogue.rulesets.base import BuildError
from catalogue.rulesets.darkmetal import rules
from catalogue.rulesets.darkmetal.schema import Splice
from catalogue.rulesets.packs import read_pack
from tests.darkmetal.factories import DATA, ally, check, codes, hands, mods, pack, trait


# --- budgets and traits (DM-R01-DM-R09) ----------------------------------------------------------

def test_dm_r01_traits_start_at_half_and_cost_nothing(catalogue):
    report = check(catalogue)
    assert report.legal and {t.base for t in report.detail.traits} == {"½"}
    assert report.stats["trait_rep_left"].value == 3000


@pytest.mark.parametrize("half_steps,cost", [(1, 0), (2, 100), (3, 250), (4, 450), (5, 700), (6, 1000), (7, 1350),
                                             (8, 1750), (9, 2200), (10, 2700)])
def test_dm_r03_we01_cumulative_trait_costs(half_steps, cost, catalogue):
    assert rules.trait_cost(half_steps) == cost
    row = next(r for r in catalogue.of("trait_level") if r.half_steps == half_steps)
    assert sum(r.step_cost for r in catalogue.of("trait_level") if r.half_steps <= half_steps) == cost
    if row.max_ally_value is not None:
        assert row.max_ally_value == cost  # "the Max Ally Value equals this cost" (L589)


def test_dm_r02_purchased_level_five_is_the_top(catalogue):
    assert "DM-R02" not in codes(check(catalogue, traits={"ath": 10}, extra_rep=1000))


def test_dm_r02_beyond_five_only_through_mes(catalogue):
    assert "DM-R02" in codes(check(catalogue, traits={"ath": 11}, extra_rep=5000))


def test_dm_r04_we02_worked_build_leaves_100(catalogue):
    report = check(catalogue, traits={"ath": 6, "ins": 5, "pre": 4, "awa": 3, "kno": 3, "com": 3})
    assert report.legal and report.stats["trait_rep_left"].value == 100  # 1000 + 700 + 450 + 3 × 250 = 2900


def test_dm_r04_exactly_3000(catalogue):
    report = check(catalogue, traits={"ath": 6, "pre": 6, "ins": 6})  # 3 × 1000
    assert report.legal and report.stats["trait_rep_left"].value == 0


def test_dm_r04_over_budget(catalogue):
    report = check(catalogue, traits={"ath": 10, "pre": 6})  # 2700 + 1000
    assert "DM-R04" in codes(report)


def test_dm_r04_carried_over_rep_pays(catalogue):
    assert "DM-R04" not in codes(check(catalogue, traits={"ath": 10, "pre": 6}, extra_rep=700))


def test_dm_r05_leftover_is_banked(catalogue):
    report = check(catalogue, traits={"ath": 10})
    assert report.stats["trait_rep_left"].value == 300 and "DM-R05" in report.stats["trait_rep_left"].explain


def test_dm_r06_gear_budget_at_the_limit(catalogue):
    # Battle Armor 1000 + Power Armor? one armour only: Battle Armor 1000 + MBMR? needs AP: Battle Armor has 4.
    report = check(catalogue, armor={"item": "battle-armor"}, attach=[{"item": "heavy-beam-rifle", "at": [3]},
                                                                      {"item": "armor-melee", "at": [1]},
                                                                      {"item": "carry-pack", "at": [4]}])
    assert report.stats and "DM-R06" not in codes(report)  # 1000 + 400 + 50 + 50 = 1500


def test_dm_r06_gear_over_budget(catalogue):
    report = check(catalogue, armor={"item": "battle-armor"}, attach=[{"item": "heavy-beam-rifle", "at": [3]},
                                                                      {"item": "power-pack", "at": [4]}])
    [issue] = [i for i in report.issues if i.code == "DM-R06"]
    assert "1600" in issue.message


def test_dm_r07_arp_pays_for_allies_only_within_the_bonus(catalogue):
    allies = [{"name": "Ash", "template": "standard-infantry", "paid_with": "arp"}]
    assert "DM-R07" not in codes(check(catalogue, traits={"com": 2}, allies=allies))  # 10 ARP of 10
    assert "DM-R07" in codes(check(catalogue, traits={"com": 1}, allies=allies))  # no bonus ARP at Com ½


def test_dm_r08_bonus_arp():
    assert [rules.bonus_arp(h) for h in (1, 2, 3, 4, 5, 10)] == [0, 10, 10, 20, 20, 50]


# --- Knowledge (DM-R10-DM-R14) ---------------------------------------------------------------------

def test_dm_r10_thirteen_skills(catalogue):
    assert {s.key for s in catalogue.of("knowledge_skill")} == set(dm.schema.SKILLS)
    with pytest.raises(BuildError):
        check(catalogue, knowledge={"tracking": 1})


def test_dm_r11_skill_levels_up_to_five(catalogue):
    assert "DM-R11" not in codes(check(catalogue, traits={"kno": 4}, knowledge={"med": 5}))
    assert "DM-R11" in codes(check(catalogue, traits={"kno": 4}, knowledge={"med": 6}))


def test_dm_r12_we04_kno_1_half_gives_six_points(catalogue):
    assert rules.knowledge_points(3) == 6 and rules.knowledge_points(10) == 55 and rules.knowledge_points(1) == 1
    assert check(catalogue, traits={"kno": 3}, knowledge={"exp": 3, "med": 3}).legal
    assert "DM-R12" in codes(check(catalogue, traits={"kno": 3}, knowledge={"exp": 3, "med": 4}))


def test_dm_r13_abilities_unlock_at_1_3_5(catalogue):
    report = check(catalogue, traits={"kno": 3}, knowledge={"med": 3})
    assert {a.level for a in report.detail.abilities} == {1, 3} and {a.skill for a in report.detail.abilities} == {"Medic"}


def test_dm_r14_we03_communication_2_half(catalogue):
    report = check(catalogue, traits={"com": 5})
    assert report.stats["max_ally_value"].value == 700 and report.stats["max_allies"].value == 4
    assert [s.name for s in report.detail.communication] == ["Group Activate", "Move It", "Taunt", "Inspire"]


# --- effective traits, armour (DM-R15-DM-R21) -------------------------------------------------------

def test_dm_r15_r16_we08_power_armor_keeps_the_reserve_die(catalogue):
    report = check(catalogue, traits={"ath": 6}, armor={"item": "power-armor"})
    ath = trait(report, "ath")
    assert ath.pool == 2 and ath.reserve == ["d10"] and ath.fate == 1


def test_dm_r15_pools_never_below_zero(catalogue):
    report = check(catalogue, armor={"item": "battle-armor"})
    assert trait(report, "ath").pool == 0


def test_dm_r17_one_armour_at_a_time(catalogue):
    with pytest.raises(BuildError):
        check(catalogue, armor=[{"item": "combat-suit"}, {"item": "battle-armor"}])


def test_dm_r18_sys_armour_negates_splice_bonuses(catalogue):
    plain = check(catalogue, traits={"ins": 4}, modifications=mods(catalogue, "twitch-musculature"))
    armoured = check(catalogue, traits={"ins": 4}, armor={"item": "combat-armor"},
                     modifications=mods(catalogue, "twitch-musculature"))
    assert trait(plain, "ins").pool == 3
    assert trait(armoured, "ins").pool == 1  # 2 − 1 (armour), the +1 negated
    assert "DM-R18" in codes(armoured, "warning") and "DM-R18" not in codes(plain, "warning")


def test_dm_r19_scramble_suit_needs_cyber_1_or_less(catalogue):
    one = mods(catalogue, "internal-blades")
    two = mods(catalogue, "internal-blades", "internal-power-cables")
    assert "DM-R19" not in codes(check(catalogue, armor={"item": "scramble-suit"}, modifications=one))
    assert "DM-R19" in codes(check(catalogue, armor={"item": "scramble-suit"}, modifications=two))


def test_dm_r20_olfactory_editing_and_armour(catalogue):
    bought = mods(catalogue, "olfactory-editing")
    assert "DM-R20" not in codes(check(catalogue, armor={"item": "combat-suit"}, modifications=bought))
    assert "DM-R20" in codes(check(catalogue, armor={"item": "combat-armor"}, modifications=bought))


# --- Cyber and Splices (DM-R22-DM-R33) ---------------------------------------------------------------

def test_dm_r22_we05_cyber_priced_by_splice(catalogue):
    bought = mods(catalogue, "cat-reflexes", "strength-musculature", "hormone-booster", "eye-replacement")
    assert bought[-1]["paid"] == 100 * 4  # Splice 3: × (3 + 1)
    assert "DM-R22" not in codes(check(catalogue, modifications=bought))


def test_dm_r22_wrong_recorded_cyber_price(catalogue):
    bought = mods(catalogue, "cat-reflexes", "eye-replacement")
    bought[-1]["paid"] = 100
    assert "DM-R22" in codes(check(catalogue, modifications=bought))


def test_dm_r27_we06_we07_splice_prices():
    item = Splice(key="x", name="X", cost=100, score=1)
    assert rules.mes_price(item, 3, 0) == 600 and rules.mes_price(item, 3, 1) == 800
    assert rules.mes_price(item, 0, 2) == 100  # no multiplier at Splice 0


def test_dm_r27_wrong_recorded_splice_price(catalogue):
    bought = mods(catalogue, "cat-reflexes", "brain-augmentation")
    assert bought[1]["paid"] == 200 and "DM-R27" not in codes(check(catalogue, modifications=bought))
    bought[1]["paid"] = 100
    assert "DM-R27" in codes(check(catalogue, modifications=bought))


def test_dm_r28_order_changes_prices(catalogue):
    # Cyber first: Eye Replacement 100 × (0 + 1), then Cat Reflexes at Splice 0: 100. Splice first: 100, then 100 × 2.
    assert [p["paid"] for p in mods(catalogue, "eye-replacement", "cat-reflexes")] == [100, 100]
    assert [p["paid"] for p in mods(catalogue, "cat-reflexes", "eye-replacement")] == [100, 200]


def test_dm_r23_targeting_network_needs_eye_replacement(catalogue):
    assert "DM-R23" in codes(check(catalogue, modifications=mods(catalogue, "targeting-network")))
    assert "DM-R23" not in codes(check(catalogue, modifications=mods(catalogue, "eye-replacement", "targeting-network")))


def test_dm_r24_plated_dermal_layer_twice(catalogue):
    assert "DM-R24" not in codes(check(catalogue, modifications=mods(catalogue, "plated-dermal-layer", "plated-dermal-layer")))
    assert "DM-R24" in codes(check(catalogue, modifications=mods(catalogue, *["plated-dermal-layer"] * 3)))
    assert "DM-R24" in codes(check(catalogue, modifications=mods(catalogue, "cat-reflexes", "cat-reflexes")))


@pytest.mark.parametrize("pair", [("strength-musculature", "twitch-musculature"),
                                  ("twitch-musculature", "strength-musculature"),
                                  ("avian-modification", "strength-musculature"),
                                  ("twitch-musculature", "avian-modification")])
def test_dm_r29_incompatible_splices(catalogue, pair):
    assert "DM-R29" in codes(check(catalogue, modifications=mods(catalogue, *pair)))


def test_dm_r29_compatible_splices(catalogue):
    assert "DM-R29" not in codes(check(catalogue, modifications=mods(catalogue, "strength-musculature", "cat-reflexes")))


def test_dm_r30_leg_splicing_in_order(catalogue):
    assert "DM-R30" in codes(check(catalogue, modifications=mods(catalogue, "leg-splicing-2")))
    assert "DM-R30" not in codes(check(catalogue, modifications=mods(catalogue, "leg-splicing-1", "leg-splicing-2")))


def test_dm_r30_cuttle_skin_needs_stealth(catalogue):
    assert "DM-R30" in codes(check(catalogue, modifications=mods(catalogue, "cuttle-skin")))
    assert "DM-R30" not in codes(check(catalogue, knowledge={"ste": 1}, modifications=mods(catalogue, "cuttle-skin")))


def test_dm_r26_r33_scores(catalogue):
    report = check(catalogue, modifications=mods(catalogue, "cat-reflexes", "second-heart", "dual-cyber-arms"))
    assert report.stats["splice"].value == 1 and report.stats["cyber"].value == 2
    assert report.stats["bhp"].value == 4 and report.stats["ahp"].value == 1


# --- hands, Attach Points, backpack (DM-R34-DM-R50) ------------------------------------------------

def test_dm_r34_r36_two_one_handed_weapons(catalogue):
    assert check(catalogue, hands=hands("heavy-pistol", "melee-weapon")).legal


def test_dm_r34_three_hand_weapons(catalogue):
    assert "DM-R34" in codes(check(catalogue, hands=hands("heavy-pistol", "melee-weapon", "machine-pistol")))


def test_dm_r37_two_two_handed_weapons(catalogue):
    assert "DM-R37" in codes(check(catalogue, hands=hands("standard-rifle", "heavy-rifle")))
    assert "DM-R37" not in codes(check(catalogue, hands=hands("standard-rifle", "melee-weapon")))


def test_dm_r39_palm_device_needs_a_free_hand(catalogue):
    assert "DM-R39" in codes(check(catalogue, hands=hands("palm-shocker", "heavy-pistol", "melee-weapon")))
    assert "DM-R39" not in codes(check(catalogue, hands=hands("palm-shocker", "heavy-pistol")))


def test_dm_r40_maggripper(catalogue):
    assert "DM-R40" in codes(check(catalogue, hands=hands("maggripper-set", "melee-weapon")))
    assert "DM-R40" not in codes(check(catalogue, hands=hands("maggripper-set", "palm-shocker")))
    assert "DM-R40" in codes(check(catalogue, armor={"item": "combat-armor"}, hands=hands("maggripper-set")))


def test_dm_r41_an_arm_attach_point_takes_a_hand(catalogue):
    armed = {"armor": {"item": "power-armor"}, "attach": [{"item": "armor-melee", "at": [1]}]}
    assert "DM-R41" in codes(check(catalogue, hands=hands("heavy-pistol", "melee-weapon"), **armed))
    assert "DM-R41" not in codes(check(catalogue, hands=hands("heavy-pistol"), **armed))


def test_dm_r42_r43_attach_points_to_capacity(catalogue):
    two = [{"item": "power-shotgun", "at": [3]}, {"item": "carry-pack", "at": [4]}]
    assert "DM-R43" not in codes(check(catalogue, armor={"item": "power-suit"}, attach=two))
    assert "DM-R43" in codes(check(catalogue, armor={"item": "combat-armor"}, attach=two))


def test_dm_r42_cyber_arms_add_attach_points(catalogue):
    report = check(catalogue, armor={"item": "combat-suit"}, modifications=mods(catalogue, "cyber-arm"),
                   attach=[{"item": "power-shotgun", "at": [3]}])
    assert "DM-R43" not in codes(report) and "DM-R46" not in codes(report)


def test_dm_r43_placement_must_match_the_points_used(catalogue):
    assert "DM-R43" in codes(check(catalogue, armor={"item": "battle-armor"}, attach=[{"item": "mbmr", "at": [3, 4]}]))


def test_dm_r44_we11_mbmr_fills_both_shoulders_then_one_arm(catalogue):
    assert "DM-R44" not in codes(check(catalogue, armor={"item": "battle-armor"}, attach=[{"item": "mbmr", "at": [3, 4, 1]}]))
    assert "DM-R44" in codes(check(catalogue, armor={"item": "battle-armor"}, attach=[{"item": "mbmr", "at": [1, 2, 3]}]))


def test_dm_r45_melee_never_on_a_shoulder(catalogue):
    assert "DM-R45" in codes(check(catalogue, armor={"item": "power-armor"}, attach=[{"item": "armor-melee", "at": [3]}]))
    assert "DM-R45" not in codes(check(catalogue, armor={"item": "power-armor"}, attach=[{"item": "armor-melee", "at": [2]}]))


def test_dm_r46_attach_weapons_need_an_attach_point(catalogue):
    assert "DM-R46" in codes(check(catalogue, attach=[{"item": "power-shotgun", "at": [3]}]))


def test_dm_r47_four_backpack_slots(catalogue):
    assert "DM-R47" not in codes(check(catalogue, backpack=pack(*["trauma-kit"] * 4)))
    assert "DM-R47" in codes(check(catalogue, backpack=pack(*["trauma-kit"] * 5)))


def test_dm_r47_carry_pack_adds_two(catalogue):
    report = check(catalogue, armor={"item": "combat-armor"}, attach=[{"item": "carry-pack", "at": [1]}],
                   backpack=pack(*["trauma-kit"] * 6))
    assert "DM-R47" not in codes(report)


def test_dm_r48_r50_we10_backpack_bulk(catalogue):
    assert check(catalogue, backpack=pack("trauma-kit", "trauma-kit")).stats["bulk"].value == 0
    assert check(catalogue, backpack=pack("trauma-kit", "item-attack-grenade")).stats["bulk"].value == 0
    assert check(catalogue, backpack=pack(*["trauma-kit"] * 3)).stats["bulk"].value == 1


def test_dm_r48_weight_balancing_raises_the_threshold(catalogue):
    report = check(catalogue, traits={"kno": 6}, knowledge={"eng": 5}, backpack=pack(*["trauma-kit"] * 3))
    assert report.stats["bulk"].value == 0


def test_dm_r49_a_stowed_two_handed_weapon_takes_two_slots(catalogue):
    report = check(catalogue, backpack=pack("standard-rifle", "trauma-kit", "trauma-kit"))
    assert {m.key: m.used for m in report.meters}["backpack"] == 4
    assert "DM-R49" in codes(check(catalogue, hands=hands("attack-grenade")))


def test_dm_r70_boosters_cost_300_per_bulk(catalogue):
    light = check(catalogue, armor={"item": "combat-armor"}, attach=[{"item": "leg-boosters", "at": [1]}])
    heavy = check(catalogue, armor={"item": "battle-armor"}, attach=[{"item": "leg-boosters", "at": [1]}])
    light_spent, heavy_spent = (next(m.used for m in r.meters if m.key == "gear_rep") for r in (light, heavy))
    assert light_spent == 250 + 300 and heavy_spent == 1000 + 900


# --- allies (DM-R54-DM-R61) -------------------------------------------------------------------------

def test_dm_r54_allies_within_max_number(catalogue):
    assert "DM-R54" not in codes(check(catalogue, traits={"com": 2}, allies=[ally("recruit"), ally("recruit")]))
    assert "DM-R54" in codes(check(catalogue, traits={"com": 2}, allies=[ally("recruit")] * 3))


def test_dm_r55_we32_multiplayer_share(catalogue):
    recruits = [ally("recruit", name=f"R{i}") for i in range(3)]
    assert "DM-R55" not in codes(check(catalogue, traits={"com": 5}, players=1, allies=recruits))
    assert "DM-R55" in codes(check(catalogue, traits={"com": 5}, players=2, allies=recruits))
    benched = recruits[:2] + [{**recruits[2], "deployed": False}]
    assert "DM-R55" not in codes(check(catalogue, traits={"com": 5}, players=2, allies=benched))


def test_dm_r56_max_ally_value(catalogue):
    # Com 1: Max Ally Value 100. A Standard Infantry costs 75 RP; a Veteran 75 + 125 = 200.
    assert "DM-R56" not in codes(check(catalogue, traits={"com": 2}, allies=[ally("standard-infantry")]))
    assert "DM-R56" in codes(check(catalogue, traits={"com": 2}, allies=[ally("veteran-infantry")]))


def test_dm_r56_tree_costs_add_up_from_the_recruit(catalogue):
    assert rules.template_cost(catalogue.items["elite-infantry"], catalogue) == (300, 40)
    assert rules.template_cost(catalogue.items["elite-medic"], catalogue) == (300, 40)


def test_dm_r59_medic_weapons_and_items(catalogue):
    medic = ally("rookie-medic", weapons=["standard-rifle"], items=["trauma-kit"])
    assert check(catalogue, traits={"com": 4}, allies=[medic]).legal
    assert "DM-R59" in codes(check(catalogue, traits={"com": 4}, allies=[ally("rookie-medic", weapons=["heavy-rifle"])]))
    assert "DM-R59" in codes(check(catalogue, traits={"com": 4}, allies=[ally("rookie-medic", items=["item-attack-grenade"])]))


def test_dm_r60_mechanic_weapons(catalogue):
    assert "DM-R60" not in codes(check(catalogue, traits={"com": 4}, allies=[ally("rookie-mechie", weapons=["combat-shotgun"])]))
    assert "DM-R60" in codes(check(catalogue, traits={"com": 4}, allies=[ally("rookie-mechie", weapons=["energy-staff"])]))


def test_dm_r61_animalus_carries_nothing(catalogue):
    assert check(catalogue, allies=[ally("basic-animalus")]).legal
    assert "DM-R61" in codes(check(catalogue, allies=[ally("basic-animalus", items=["trauma-kit"])]))
    assert "DM-R61" in codes(check(catalogue, allies=[ally("basic-animalus", weapons=["melee-weapon"])]))


def test_dm_r57_infantry_may_use_any_weapon(catalogue):
    assert "DM-R57" not in codes(check(catalogue, traits={"com": 2}, allies=[ally("recruit", weapons=["heavy-rifle"])]))


def test_dm_r46_ally_attach_weapons_need_armour(catalogue):
    assert "DM-R46" in codes(check(catalogue, traits={"com": 4}, allies=[ally("recruit", weapons=["armor-melee"])]))
    assert "DM-R46" not in codes(check(catalogue, traits={"com": 4},
                                       allies=[ally("recruit", weapons=["armor-melee"], armor="combat-armor")]))


# --- derived (DM-R68, DM-R69) ------------------------------------------------------------------------

def test_dm_r68_r69_leader_health_and_fate(catalogue):
    report = check(catalogue, traits={"com": 10})
    assert report.stats["bhp"].value == 3 and report.stats["general_fate"].value == 2
    assert check(catalogue).stats["general_fate"].value == 1


def test_unknown_keys_are_unreadable(catalogue):
    for bad in ({"armor": {"item": "mithril"}}, {"hands": [{"item": "trauma-kit"}]}, {"allies": [ally("dragon")]}):
        with pytest.raises(BuildError):
            check(catalogue, **bad)


# --- changing equipment (DM-R51-DM-R53) -------------------------------------------------------------

def test_dm_r51_free_exchange_within_a_campaign(catalogue):
    report = check(catalogue, campaign=3, armor={"item": "combat-armor", "campaign": 2})
    [row] = report.detail.exchange
    assert row.refund == 250 and row.terms == "full exchange"


def test_dm_r52_half_back_after_a_campaign(catalogue):
    report = check(catalogue, campaign=3, armor={"item": "combat-armor", "campaign": 1},
                   modifications=[{"item": "cat-reflexes", "paid": 100, "campaign": 1}])
    assert [r.refund for r in report.detail.exchange] == [125, 50]
    assert rules.refund(101, 0, 5) == 50


def test_dm_r53_the_one_time_rebuild_is_recorded(catalogue):
    assert "still available" in next(i.message for i in check(catalogue).issues if i.code == "DM-R53")
    used = check(catalogue, wipe_rebuild_used=True)
    assert "has been used" in next(i.message for i in used.issues if i.code == "DM-R53")


def test_the_packs_example_leaders_are_legal(catalogue):
    examples = read_pack(DATA, {"darkmetal": dm.RULESET}).examples
    for example in examples:
        report = rules.validate(example, catalogue)
        assert report.legal, (example["name"], report.errors)
    moroc = rules.validate(examples[0], catalogue)
    assert moroc.stats["trait_rep_left"].value == 100  # WE-02: the rulebook's 2,900-Rep melee build
