"""MEGA MERCS rules played at the table, as the unit card prints them: the digest's cases MM-T01 to MM-T06,
MM-T17 to MM-T30, MM-T46 and MM-T48, each a test, and the mecha's d10 hit table (MM-C22)."""
import pytest

from catalogue.rulesets.megamercs import damage, preview
from catalogue.rulesets.megamercs.preview import Situation, Target
from catalogue.rulesets.megamercs.rules import parse, resolve, validate
from catalogue.rulesets.megamercs.schema import Chassis
from tests.megamercs.factories import MECHA, TANK, item, make_catalogue, shot, unit


def test_mm_t01_rolls_at_or_under_the_tn_succeed():
    assert [damage.succeeds(roll, 67) for roll in (49, 71, 38)] == [True, False, True]
    assert damage.succeeds(67, 67)


def test_mm_t02_of_two_successes_the_higher_roll_wins():
    assert damage.opposed((60, 70), (40, 70)) == "attacker"
    assert damage.opposed((30, 70), (40, 70)) == "defender"


def test_mm_c02_the_closed_form_is_every_pair_of_rolls_resolved():
    from catalogue.rulesets.megamercs.dice import d100_opposed

    for a, d in ((60, 40), (50, 50), (100, 100), (0, 30)):
        counts = {"attacker": 0, "defender": 0, "neither": 0}
        for x in range(1, 101):
            for y in range(1, 101):
                counts[damage.opposed((x, a), (y, d))] += 1
        assert {k: v / 10_000 for k, v in counts.items()} == pytest.approx(d100_opposed(a, d))


def test_mm_t03_a_tie_of_successes_goes_to_the_defender():
    assert damage.opposed((40, 70), (40, 70)) == "defender"
    assert damage.opposed((80, 70), (90, 70)) == "neither"


def test_mm_t04_each_weapon_fires_once_so_a_a_needs_two_weapons():
    cat = make_catalogue(mecha={"actions": ["A", "A", "F"]})
    assert validate(unit("mecha", ("hmg", "r-arm")), cat).stats["attacks"].value == 1
    assert validate(unit("mecha", ("hmg", "r-arm"), ("hmg", "l-arm")), cat).stats["attacks"].value == 2


def test_mm_t05_overwatch_is_an_attack_and_a_utility_never_a_move():
    assert damage.overwatch(["M", "A", "U", "F"]) and damage.overwatch(["A/U", "W"])
    assert not damage.overwatch(["M", "M", "A", "C"]) and not damage.overwatch(["A/U", "F"])


def test_mm_t06_a_flexible_action_is_one_or_the_other():
    """A/U counts once: as the attack or as the utility of an overwatch, not both."""
    assert not damage.overwatch(["A/U", "M", "F"])
    cat = make_catalogue(mecha={"actions": ["A/U", "M", "F"]})
    assert validate(unit("mecha", ("hmg", "r-arm"), ("hmg", "l-arm")), cat).stats["attacks"].value == 1


@pytest.fixture(scope="module")
def cat():
    return make_catalogue(
        item("two-blasts", "weapon", size=1, types=["launcher"], profiles=[
            shot(attributes=[{"name": "blast", "x": 3, "y": 2}, {"name": "blast", "x": 6, "y": 1}])]),
        item("satchel", "weapon", size=1, types=["launcher"], profiles=[
            shot(range=2, attributes=[{"name": "blast", "x": 8, "y": 0}])]),
        item("lobber", "weapon", size=1, types=["launcher"], profiles=[
            shot(range=10, attributes=[{"name": "indirect_fire", "x": 2}, {"name": "blast", "x": 4, "y": 1}])]))


def odds(cat, weapon, target=None, situation=None):
    built = resolve(parse(unit("mecha", (weapon, "torso"))), cat)
    return preview.odds(built, target or Target(), situation or Situation())["attacks"][0]


def test_mm_t17_the_highest_blast_counts(cat):
    assert odds(cat, "two-blasts")["blast"]["damage"] == 6


def test_mm_t18_a_missed_blast_scatters_1_2_direct_1_4_indirect(cat):
    assert odds(cat, "two-blasts")["blast"]["scatter"] == "1 to 2 hexes"
    assert odds(cat, "lobber", situation=Situation(distance=5, line_of_sight=False))["blast"]["scatter"] == "1 to 4 hexes"


def test_mm_t19_a_radius_0_blast_kills_one_and_the_rest_save(cat):
    row = odds(cat, "satchel", Target(kind="infantry", members=6, blast_resistance=40), Situation(distance=1))
    p_hit = 1 - row["hits"]["0"]
    assert row["blast_save"] == 40
    assert row["expected_casualties"] == pytest.approx(max(p_hit * (1 + 5 * 0.6), row["expected_hits"]))


def test_mm_t20_blast_save_40_with_3_cover_is_capped_at_60(cat):
    assert odds(cat, "lobber", Target(kind="infantry", blast_resistance=40, cover_points=3),
                Situation(distance=5))["blast_save"] == 60


def test_mm_t21_cqc_ties_go_against_the_attacker():
    assert damage.cqc_loser(attacker_losses=2, defender_losses=2) == "attacker"
    assert damage.cqc_loser(attacker_losses=1, defender_losses=2) == "defender"


def test_mm_t22_a_tank_losing_crew():
    assert damage.tank_state(1, 0, 4) == {"destroyed": False, "commander": False, "movement": 4}
    assert damage.tank_state(2, 0, 4)["destroyed"]


def test_mm_t23_a_tank_losing_treads():
    assert damage.tank_state(0, 1, 5)["movement"] == 3 and damage.tank_state(0, 2, 5)["movement"] == 0


def test_mm_t24_a_mecha_losing_leg_parts_and_its_legs():
    assert damage.mecha_movement(1, False, 5) == 4 and damage.mecha_movement(0, True, 5) == 1


def test_mm_t25_overkill_on_a_limb_is_wasted_then_goes_to_the_torso():
    assert damage.internal_hit(2, 5) == (2, 0)
    assert damage.internal_hit(0, 3) == (0, 3)


def test_mm_t27_damage_absorbed_by_dr_is_marked_minus_0(cat):
    assert damage.hp_damage(4, 6) == (0, "-0") and damage.hp_damage(9, 6) == (3, "-3")
    row = odds(cat, "lobber", Target(dr=9, top_dr=9), Situation(distance=5))  # indirect fire strikes the top
    assert row["damage_per_hit"] == 0 and "DR absorbs every hit (-0)" in row["notes"]


def test_mm_t28_attacks_of_opportunity_spare_flying_units():
    assert damage.attack_of_opportunity(flying=False) == 5 and damage.attack_of_opportunity(flying=True) == 0


def test_mm_t29_look_around_adds_4_vision():
    tank = Chassis.model_validate({"key": "t", **TANK})
    assert ("Look Around", "Vision 12") in damage.table_notes(tank, [])


def test_mm_t30_emp_shock_leaves_a_wildcard_and_the_focus():
    assert damage.emp_pool(["A", "A", "U/M", "F"]) == ["W", "F"]
    mecha = Chassis.model_validate({"key": "m", **MECHA})
    assert ("EMP shock", "pool becomes W F") in damage.table_notes(mecha, [])


@pytest.mark.parametrize("size, lost, state", [(1, 1, "destroyed"), (2, 1, "unusable"), (4, 2, "unusable"),
                                               (3, 1, "working"), (3, 2, "unusable")])
def test_mm_t46_equipment_after_hexes_lost(size, lost, state):
    assert damage.equipment_state(size, lost) == state


def test_mm_t48_a_ram_after_5_straight_hexes():
    assert damage.ram(5) == {"damage": 5, "tn": 30, "rammer_takes": 2}
    mecha = Chassis.model_validate({"key": "m", **MECHA})
    assert ("Ram", "at full Movement (5 hexes straight): 5 impact at TN 30; you take 2 on your front") in \
        damage.table_notes(mecha, [])


def test_mm_c22_the_mecha_card_prints_the_d10_hit_table():
    assert damage.hit_table() == [("1", "R. Arm", "Far arm"), ("2", "R. Arm", "Near arm"), ("3–4", "L. Arm", "Near arm"),
                                  ("5–6", "Legs", "Legs"), ("7–10", "Torso", "Torso")]
