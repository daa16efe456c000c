"""METALLURGENT combat preview (digest section 5) and the battlefield worked examples of 5.12."""
from pathlib import Path

import pytest

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.metallurgent.dice import metallurgent_pool
from catalogue.rulesets.metallurgent import battlefield as bf
from catalogue.rulesets.metallurgent import preview
from catalogue.rulesets.packs import read_pack
from tests.metallurgent.factories import anvil, make_catalogue, part, weapon
from tests.metallurgent.previews import attack_named, plain_target, resolved, run

DATA = Path(__file__).resolve().parents[2] / "catalogue/rulesets/metallurgent/data"


# --- pool, criterion, Target Number (5.2-5.4) -------------------------------------------------------

def test_pool_is_mettle_plus_accuracy_and_p_hit_is_exact():
    result = run([weapon("rifle", accuracy=2, range=10)], {"range": 6})
    rifle = attack_named(result, "gear[0]")
    assert (rifle["pool"], rifle["criterion"], rifle["target_number"]) == (8, 4, 4)
    assert rifle["p_hit"] == pytest.approx(metallurgent_pool(8, 4).at_least(4))  # 5549/6912


def test_arm_agility_counts_within_three_hexes_only():
    cat = make_catalogue(weapon("rifle", accuracy=0, range=10), part("track-fcs", "fcs", targeting_type="tracking"))
    doc = anvil([("rifle", "left_arm")], fcs="track-fcs")
    close = preview.preview(resolved(doc, cat), plain_target(), preview.Situation(range=3))
    far = preview.preview(resolved(doc, cat), plain_target(), preview.Situation(range=4))
    assert attack_named(close, "gear[0]")["pool"] == 7 and attack_named(far, "gear[0]")["pool"] == 6


def test_beyond_fcs_range_raises_the_criterion():
    result = run([weapon("rifle", range=20)], {"range": 15})  # FCS reaches 12
    assert attack_named(result, "gear[0]")["criterion"] == 5


def test_indirect_beyond_range_no_sixes_doubled_and_ke_halved():
    result = run([weapon("mortar", range=6, damage=9)], {"range": 10})
    mortar = attack_named(result, "gear[0]")
    assert mortar["indirect"] and not mortar["sixes_count_twice"] and mortar["criterion"] == 5
    assert mortar["damage"] == 5  # KE halved beyond Range, rounded up


def test_artillery_ignores_the_indirect_penalties():
    result = run([weapon("howitzer", range=6, functions=["Artillery"])], {"range": 10})
    assert attack_named(result, "gear[0]")["sixes_count_twice"] and attack_named(result, "gear[0]")["criterion"] == 4


def test_energetic_weapons_do_not_reach_past_range():
    result = run([weapon("laser", range=6, category="energetic", damage_type="TE")], {"range": 8})
    assert not attack_named(result, "gear[0]")["reachable"]


def test_target_number_dodge_flanking_low():
    result = run([weapon("rifle")], {"range": 4, "target_dodging": True, "target_flanking": True, "target_low": True},
                 target=plain_target(defence=4, dodge_bonus=2))
    assert attack_named(result, "gear[0]")["target_number"] == 4 + 2 + 1 + 1


def test_t12_smoke_occlusion_raises_the_target_number():
    result = run([weapon("rifle")], {"range": 4, "smoke": [2]}, target=plain_target(defence=4))
    assert attack_named(result, "gear[0]")["target_number"] == 6


def test_t13_several_smokes_count_once():
    assert bf.strongest_occlusion([2, 2, 2]) == 2
    result = run([weapon("rifle")], {"range": 4, "smoke": [2, 2, 2]}, target=plain_target(defence=4))
    assert attack_named(result, "gear[0]")["target_number"] == 6


def test_time_of_day_occlusion():
    result = run([weapon("rifle")], {"range": 4, "time_of_day": "night"}, target=plain_target(defence=4))
    assert attack_named(result, "gear[0]")["target_number"] == 6


def test_flanking_attacker_and_heavy_winds_cost_dice():
    result = run([weapon("rifle", accuracy=0)], {"range": 4, "attacker_flanking": True, "weather": "winds_heavy"})
    assert attack_named(result, "gear[0]")["pool"] == 4


def test_laser_fcs_bonus_within_reliable_range_unless_the_target_flanks():
    cat = make_catalogue(weapon("rifle", accuracy=0), part("laser-fcs", "fcs", targeting_type="laser"))
    doc = anvil([("rifle", "core")], fcs="laser-fcs")
    near = preview.preview(resolved(doc, cat), plain_target(), preview.Situation(range=5))
    flanking = preview.preview(resolved(doc, cat), plain_target(), preview.Situation(range=5, target_flanking=True))
    assert attack_named(near, "gear[0]")["pool"] == 7 and attack_named(flanking, "gear[0]")["pool"] == 6


# --- damage (5.8, 5.9) -------------------------------------------------------------------------------

def test_t14_ten_ke_through_cover_4_is_6():
    result = run([weapon("gun", damage=10)], {"range": 4, "cover": [4]})
    assert attack_named(result, "gear[0]")["damage"] == 6


def test_t15_eight_at_an_anvil_in_cover_4_and_the_cover_degrades():
    result = run([weapon("gun", damage=8)], {"range": 4, "cover": [4]})
    assert attack_named(result, "gear[0]")["damage"] == 4
    assert bf.cover_after_hit(4, 8) == 3 and bf.cover_after_hit(4, 3) == 4
    assert bf.cover_after_hit(4, 8, "Exothermic") == 0


def test_t16_eight_through_three_cover_2_is_2():
    result = run([weapon("gun", damage=8)], {"range": 4, "cover": [2, 2, 2]})
    assert attack_named(result, "gear[0]")["damage"] == 2


def test_spotting_ignores_cover():
    cat = make_catalogue(weapon("gun", damage=8), part("spot-fcs", "fcs", targeting_type="spotting"))
    result = preview.preview(resolved(anvil([("gun", "core")], fcs="spot-fcs"), cat), plain_target(),
                             preview.Situation(range=4, cover=[4]))
    assert attack_named(result, "gear[0]")["damage"] == 8


def test_t25_blast_20_ce_intercept_5():
    cat = make_catalogue(weapon("bomb", damage=20, damage_type="CE", payloads=["Blast 1"]))
    target = plain_target(defence=0, resistance=0, intercept_bonus=5)  # a sure Hit: no miss drifts
    result = preview.preview(resolved(anvil([("bomb", "core")]), cat), target,
                             preview.Situation(range=4, target_intercepting=True))
    bomb = attack_named(result, "gear[0]/blast-1")
    assert bomb["damage"] == 15 and bomb["p_hit"] == 1
    assert {p["damage_per_hit"] for p in bomb["parts"]} == {15}
    # Each Component is hit directly 1/6 of the time for 15, and by the blast otherwise for ceil(15/2) = 8.
    assert [p["expected"] for p in bomb["parts"]] == pytest.approx([15 / 6 + 8 * 5 / 6] * 6)
    # The standard load is no Blast: its Hit stays on one Component.
    assert attack_named(result, "gear[0]")["expected_damage"] == pytest.approx(15)


def test_t26_ciws_takes_8_off_a_15_ce_blast():
    cat = make_catalogue(weapon("bomb", damage=15, damage_type="CE", payloads=["Blast 1"]))
    result = preview.preview(resolved(anvil([("bomb", "core")]), cat), plain_target(intercept_bonus=8),
                             preview.Situation(range=4, target_intercepting=True))
    assert attack_named(result, "gear[0]/blast-1")["damage"] == 7


def test_resistance_subtracts_per_component():
    result = run([weapon("gun", damage=10)], {"range": 4}, target=plain_target(resistance=3))
    assert {p["damage_per_hit"] for p in attack_named(result, "gear[0]")["parts"]} == {7}


def test_heavy_precipitation_can_stop_thermal_weapons():
    result = run([weapon("torch", damage=4, damage_type="TE", category="energetic")],
                 {"range": 4, "weather": "precipitation_heavy"})
    assert not attack_named(result, "gear[0]")["reachable"]


def test_burst_makes_several_attempts():
    result = run([weapon("smg", functions=["Burst 3"])], {"range": 4})
    smg = attack_named(result, "gear[0]")
    assert smg["attempts"] == 3 and smg["expected_hits"] == pytest.approx(3 * smg["p_hit"])


def test_blocking_sends_hits_to_the_toughest_component():
    target = preview.Target("T", "anvil", 4, [preview.Part("Soft", 30, {"KE": 0, "CE": 0, "TE": 0}),
                                               preview.Part("Hard", 30, {"KE": 5, "CE": 0, "TE": 0})], block_bonus=2)
    result = run([weapon("gun", damage=8)], {"range": 4, "target_blocking": True}, target=target)
    soft, hard = attack_named(result, "gear[0]")["parts"]
    assert soft["expected"] == 0 and hard["location"] == 1.0


def test_activations_to_disable_count_three_damage_steps():
    # 10 damage a hit against 30 AP: 3 hits a Damage Step, 9 to Disable; each hit lands here 1 time in 6.
    result = run([weapon("gun", damage=10)], {"range": 4}, target=plain_target(defence=1, ap=30))
    gun = attack_named(result, "gear[0]")
    assert gun["parts"][0]["activations_to_disable"] == pytest.approx(9 * 6 / gun["p_hit"])


def test_kicks_land_on_the_mobility_base_unless_the_target_is_low():
    catalogue = read_pack(DATA / "starter.yaml", ACTIVE).catalogue
    vanguard = resolved(read_pack(DATA / "starter.yaml", ACTIVE).examples[0], catalogue)
    target = preview.target_from_anvil(vanguard)
    kick = attack_named(preview.preview(vanguard, target, preview.Situation(range=1)), "kick")
    assert [p["location"] for p in kick["parts"]] == [0, 1.0, 0, 0, 0, 0]
    low = attack_named(preview.preview(vanguard, target, preview.Situation(range=1, target_low=True)), "kick")
    assert all(p["location"] == pytest.approx(1 / 6) for p in low["parts"])


def test_melee_needs_an_adjacent_target():
    catalogue = read_pack(DATA / "starter.yaml", ACTIVE).catalogue
    vanguard = resolved(read_pack(DATA / "starter.yaml", ACTIVE).examples[0], catalogue)
    result = preview.preview(vanguard, preview.target_from_anvil(vanguard), preview.Situation(range=2))
    assert not attack_named(result, "punch-left_arm")["reachable"]


# --- EN and Heat over turns (5.10) --------------------------------------------------------------------

def test_turn_track_finds_the_overheat_turn_and_the_en_shortfall():
    # Gas cooling sheds 10 a Turn: a 14-Heat weapon fired every turn passes Tolerance 20 on turn 3 (14, 18, 22).
    # The Generator holds 20 EN and regains 6 a Turn (12 − 6 Drain): 5 EN shots never run it dry, 9 EN ones
    # leave 11, 8, 5, 2 and then 8 < 9 on turn 5.
    result = run([weapon("hot", heat=14, en_cost=5, magazine=None, reserve=0)], {"range": 4, "turns": 6})
    track = result["track"]
    assert track["overheat_turn"] == 3
    assert [t["heat"] for t in track["turns"][:3]] == [14, 18, 22]
    assert track["en_exhausted_turn"] is None
    costly = run([weapon("hog", en_cost=9, heat=0, magazine=None, reserve=0)], {"range": 4, "turns": 6})
    assert costly["track"]["en_exhausted_turn"] == 5


def test_turn_track_stops_when_the_magazine_is_empty():
    result = run([weapon("rifle", magazine=2, reserve=0)], {"range": 4, "turns": 3})
    assert [len(t["fired"]) for t in result["track"]["turns"]] == [1, 1, 0]


# --- battlefield worked examples (5.12) -------------------------------------------------------------

def test_t05_secondary_ends_cruising_then_flanking():
    assert bf.distance_moved(cruise=6, flank=3, cruise_used_before_secondary=3) == 6


def test_t06_minimum_movement_into_heavy_woods():
    assert bf.may_enter(cost=2, cruise_left=1, flank_available=3) and not bf.may_enter(2, 1, 0)


def test_t07_combined_height():
    assert bf.combined_height(4, 3) == 7


def test_t08_tank_behind_a_level_1_berm_is_visible():
    assert not bf.line_of_sight_blocked(obstacle=1, attacker=3, defender=1)


def test_t09_vads_behind_level_3_hexes():
    assert bf.line_of_sight_blocked(obstacle=3, attacker=3, defender=1)
    assert not bf.line_of_sight_blocked(obstacle=3, attacker=bf.combined_height(1, 3), defender=1)
    assert bf.line_of_sight_blocked(obstacle=3, attacker=bf.combined_height(1, 3), defender=1, defender_adjacent=True)


def test_t10_elevation_changes_for_an_anvil():
    assert bf.elevation_cost(1) == 0 and bf.elevation_cost(2) == 1 and bf.elevation_cost(3) == 0
    assert bf.elevation_cost(3, chassis="tracks") is None and bf.elevation_cost(2, chassis="quadruped") == 0


def test_t11_anvil_in_depth_2_water_is_safe():
    assert bf.safe_depth(3) == 2


def test_t17_structure_roof_support():
    assert bf.roof_supports(density=7, gross_weight=30) and not bf.roof_supports(density=4, gross_weight=30)


def test_t18_three_hex_structure_falls_at_two():
    assert not bf.structure_destroyed(3, 1) and bf.structure_destroyed(3, 2)


def test_t19_melee_vertical_reach():
    assert bf.melee_reach(0, 3, 4, 3) and bf.melee_reach(0, 3, -2, 1)
    assert not bf.melee_reach(0, 3, 5, 3)


def test_t20_falling_five_levels():
    assert bf.fall_damage(5) == (20, 10) and bf.fall_damage(5, jumping=True) == (10, 5)


def test_t21_no_kick_up_two_levels():
    assert not bf.can_kick(2) and bf.can_kick(1)


def test_t24_a_drifting_blast_still_hits():
    assert bf.blast_still_hits(blast_radius=1, drift=1) and not bf.blast_still_hits(1, 2)


def test_t34_t72_damage_steps():
    assert bf.damage_steps_left(3, 1) == 2 and bf.damage_steps_left(3, 3) == 0


def test_t35_wall_next_to_the_target_stops_indirect_fire():
    assert bf.indirect_blocked(4, adjacent_to="target", attacker=3, defender=1)


def test_t36_building_next_to_the_attacker_stops_indirect_fire():
    assert bf.indirect_blocked(4, adjacent_to="attacker", attacker=3, defender=1)
    assert not bf.indirect_blocked(2, adjacent_to="attacker", attacker=3, defender=1)
