"""MEGA MERCS preview against the digest's cases MM-T12 to MM-T15 and the derived MM-T31 to MM-T47 (the opposed-roll
table among them), and the preview's house-rule readings (MM-A05, MM-A09, MM-A10, MM-A14)."""
import pytest

from catalogue.rulesets.megamercs.dice import d100_opposed
from catalogue.rulesets.megamercs import preview
from catalogue.rulesets.megamercs.preview import Situation, Target
from catalogue.rulesets.megamercs.rules import parse, resolve
from tests.megamercs.factories import item, make_catalogue, shot, unit


@pytest.fixture(scope="module")
def cat():
    return make_catalogue(
        item("ap-gun", "weapon", size=1, types=["light_weapon"], profiles=[
            shot(accuracy=60, damage=6, attributes=[{"name": "armour_penetration", "x": 3, "y": 4}])]),
        item("spall-gun", "weapon", size=1, types=["light_weapon"], profiles=[
            shot(accuracy=60, rof=1, internal=1, penetration=20, attributes=[{"name": "spalling", "x": 2}])]),
        item("seeker", "weapon", size=1, types=["launcher"], profiles=[
            shot(accuracy=40, rof=1, damage=8, penetration=30, attributes=[{"name": "homing"}])]),
        item("tracker", "weapon", size=1, types=["launcher"], profiles=[
            shot(accuracy=40, rof=1, attributes=[{"name": "tracking", "x": 15}])]),
        item("mortar", "weapon", size=1, types=["launcher"], profiles=[
            shot(accuracy=50, range=10, rof=1, damage=6, damage_type="impact",
                 attributes=[{"name": "indirect_fire", "x": 3}, {"name": "blast", "x": 4, "y": 1}])]),
        item("grazer", "weapon", size=1, types=["light_weapon"], profiles=[
            shot(accuracy=100, rof=1, damage=10, attributes=[{"name": "graze", "x": 5}])]),
        item("rifles", "weapon", size=1, types=["light_weapon"], profiles=[
            shot(accuracy=50, rof=4, damage=0, damage_type="small_arms", internal=0, penetration=0)]),
        item("rockets", "weapon", size=1, types=["launcher"], profiles=[
            shot(accuracy=50, rof=4, attributes=[{"name": "large_projectile"}])]),
        item("guided-mortar", "weapon", size=1, types=["launcher"], profiles=[
            shot(accuracy=50, range=10, rof=1,
                 attributes=[{"name": "indirect_fire", "x": 3}, {"name": "tracking", "x": 15}])]),
        item("scope", "equipment", size=1, types=["sensor"], attributes=[{"name": "optical_detection", "x": 3}]),
    )


def attack(cat, weapon, hardpoint="r-arm", target=None, situation=None, profile=None, **house_rules):
    built = resolve(parse(unit("mecha", (weapon, hardpoint), house_rules=house_rules)), cat)
    rows = preview.odds(built, target or Target(), situation or Situation())["attacks"]
    return next(r for r in rows if profile is None or r["profile"] == profile)


def test_mm_t31_hmg_hits(cat):
    row = attack(cat, "hmg")
    expected = [0.03125, 0.15625, 0.3125, 0.3125, 0.15625, 0.03125]
    assert [row["hits"][str(k)] for k in range(6)] == pytest.approx(expected)
    assert row["expected_hits"] == pytest.approx(2.5) and row["tn"] == 50


def test_mm_t32_hmg_against_a_locked_target(cat):
    row = attack(cat, "hmg", situation=Situation(locked=True))
    assert row["tn"] == 60 and "lock +10" in row["tn_terms"]
    assert [row["hits"][str(k)] for k in range(6)] == pytest.approx([0.01024, 0.0768, 0.2304, 0.3456, 0.2592, 0.07776])


def test_mm_t33_hmg_penetration(cat):
    row = attack(cat, "hmg")
    assert row["p_penetration"] == pytest.approx(0.03)
    assert row["p_any_penetration"] == pytest.approx(1 - 0.97 ** 5, abs=1e-4)
    assert row["expected_internal"] == pytest.approx(0.15)


def test_mm_t34_hmg_blind_without_a_lock(cat):
    blind = attack(cat, "hmg", situation=Situation(line_of_sight=False))
    assert blind["tn"] == 30 and blind["expected_hits"] == pytest.approx(1.5)
    locked = attack(cat, "hmg", situation=Situation(line_of_sight=False, locked=True))
    assert locked["tn"] == 50


def test_mm_t35_mace_bash_against_dr_4(cat):
    row = attack(cat, "mace", "l-arm", Target(dr=4), Situation(distance=1), profile="Bash")
    assert row["expected_damage"] == pytest.approx(4.5) and row["expected_internal"] == pytest.approx(0.2)


def test_mm_t36_mace_bash_against_evasion_focus(cat):
    target = Target(dr=4, agility=30, evading=True)
    row = attack(cat, "mace", "l-arm", target, Situation(distance=1), profile="Bash")
    assert row["expected_damage"] == pytest.approx(3.15) and row["expected_internal"] == pytest.approx(0.14)
    rear = attack(cat, "mace", "l-arm", target.model_copy(update={"edge": "rear"}), Situation(distance=1),
                  profile="Bash")
    assert rear["evasion"] == 0  # only through the front arc


def test_mm_t37_penetration_above_the_hit_tn(cat):
    low = make_catalogue(hmg={"profiles": [shot(accuracy=5, rof=1, penetration=10)]})
    assert attack(low, "hmg")["p_penetration"] == pytest.approx(0.05)


def test_mm_t38_armour_penetration_within_its_reach(cat):
    assert attack(cat, "ap-gun", target=Target(dr=5), situation=Situation(distance=4))["dr"] == 2
    assert attack(cat, "ap-gun", target=Target(dr=5), situation=Situation(distance=5))["dr"] == 5


def opposed(a, d):
    rolls = d100_opposed(a, d)
    return rolls["attacker"], rolls["defender"], rolls["neither"]


def test_mm_t39_opposed_50_against_50():
    assert opposed(50, 50) == pytest.approx((0.3725, 0.3775, 0.25), abs=1e-4)


def test_mm_t40_opposed_60_against_40():
    assert opposed(60, 40) == pytest.approx((0.5180, 0.2420, 0.24), abs=1e-4)


def test_mm_t41_opposed_40_against_60():
    assert opposed(40, 60) == pytest.approx((0.2380, 0.5220, 0.24), abs=1e-4)


def test_mm_t42_opposed_70_against_30():
    assert opposed(70, 30) == pytest.approx((0.6535, 0.1365, 0.21), abs=1e-4)


def test_mm_t43_opposed_80_against_80():
    assert opposed(80, 80) == pytest.approx((0.4760, 0.4840, 0.04), abs=1e-4)


def test_mm_t44_opposed_100_against_100():
    assert opposed(100, 100) == pytest.approx((0.495, 0.505, 0.0), abs=1e-4)


def test_mm_t13_indirect_fire_without_los_or_lock_is_minus_20(cat):
    row = attack(cat, "mortar", "torso", situation=Situation(distance=5, line_of_sight=False))
    assert row["tn"] == 30 and "indirect, no lock -20" in row["tn_terms"]


def test_mm_t14_indirect_fire_without_los_but_locked_has_neither_penalty_nor_bonus(cat):
    locked_blind = Situation(distance=5, line_of_sight=False, locked=True)
    assert attack(cat, "mortar", "torso", situation=locked_blind)["tn"] == 50
    # ... plus its Tracking X, blind or not (L374)
    assert attack(cat, "guided-mortar", "torso", situation=locked_blind)["tn"] == 50 + 15
    assert attack(cat, "guided-mortar", "torso", situation=Situation(distance=5, locked=True))["tn"] == 50 + 15


def test_mm_t15_a_stealth_target_seen_on_sensors_is_a_blind_attack(cat):
    stealthed = Target(optical_stealth=True)
    blind = attack(cat, "hmg", target=stealthed)
    assert blind["tn"] == 30 and "blind, no lock -20" in blind["tn_terms"]
    assert attack(cat, "hmg", target=stealthed, situation=Situation(locked=True))["tn"] == 50  # a lock cancels it
    assert attack(cat, "hmg", target=Target(optical_stealth=True, beacon=True))["tn"] == 50  # MM-R39


def test_mm_c39_optical_detection_sees_stealth_within_its_range(cat):
    def tn(distance):
        built = resolve(parse(unit("mecha", ("hmg", "r-arm"), ("scope", "torso"))), cat)
        return preview.odds(built, Target(optical_stealth=True), Situation(distance=distance))["attacks"][0]["tn"]
    assert tn(3) == 50 and tn(4) == 30


def test_mm_t26_spalling_adds_one_on_a_penetrating_hit(cat):
    """Spall 2, ID 1: a penetrating hit does 3, any other hit 2."""
    row = attack(cat, "spall-gun")
    assert row["expected_internal"] == pytest.approx(0.2 * 3 + 0.4 * 2)


def test_mm_r27_mm_t12_tracking_replaces_the_lock_bonus(cat):
    row = attack(cat, "tracker", "torso", situation=Situation(locked=True))
    assert row["tn"] == 55 and "lock +10" not in row["tn_terms"]
    assert attack(cat, "tracker", "torso", situation=Situation(locked=True, jammed=True))["tn"] == 40


def test_mm_r27_a_tracking_below_10_still_replaces_the_lock_bonus():
    weak = make_catalogue(item("weak-tracker", "weapon", size=1, types=["launcher"], profiles=[
        shot(accuracy=40, rof=1, attributes=[{"name": "tracking", "x": 5}])]))
    row = attack(weak, "weak-tracker", "torso", situation=Situation(locked=True))
    assert row["tn"] == 45 and row["tn_terms"] == ["base 40", "Tracking +5"]


def test_mm_c06_homing_hits_when_locked(cat):
    row = attack(cat, "seeker", "torso", Target(agility=50, evading=True), Situation(locked=True))
    assert row["homing"] and row["p_hit"] == 1 and row["evasion"] == 0 and row["expected_damage"] == 8
    assert attack(cat, "seeker", "torso")["p_hit"] == pytest.approx(0.4)


def test_megamercs_homing_penetration(cat):
    locked = Situation(locked=True)
    assert attack(cat, "seeker", "torso", situation=locked)["p_penetration"] == pytest.approx(0.3)
    never = attack(cat, "seeker", "torso", situation=locked, **{"homing-penetration": "never"})
    assert never["p_penetration"] == 0


def test_megamercs_evaded_hits(cat):
    target = Target(dr=4, agility=30, evading=True)
    default = attack(cat, "mace", "l-arm", target, Situation(distance=1), profile="Bash")
    still = attack(cat, "mace", "l-arm", target, Situation(distance=1), profile="Bash", **{"evaded-hits": "internal"})
    assert default["expected_internal"] == pytest.approx(0.14) and still["expected_internal"] == pytest.approx(0.2)


def test_megamercs_graze_dr(cat):
    target = Target(dr=3, agility=100, evading=True)
    assert attack(cat, "grazer", target=target)["expected_damage"] == pytest.approx(2)
    assert attack(cat, "grazer", target=target, **{"graze-dr": "ignored"})["expected_damage"] == pytest.approx(5)


def test_megamercs_building_halving(cat):
    inside = Target(kind="infantry", in_building=True)
    assert attack(cat, "spall-gun", target=inside, situation=Situation(cover=-5))["tn"] == 27
    assert attack(cat, "spall-gun", target=inside, situation=Situation(cover=-5),
                  **{"building-halving": "up"})["tn"] == 28


def test_megamercs_both_fail(cat):
    built = resolve(parse(unit("mecha")), cat)
    defended = Target(ewar=40, electronic_defence=True)
    lock = preview.odds(built, defended, Situation(lock_attempt=True))["ewar"]["lock"]
    rolls = d100_opposed(40, 40)
    assert lock["p"] == pytest.approx(rolls["attacker"] + rolls["neither"])
    strict = resolve(parse(unit("mecha", house_rules={"both-fail": "defender"})), cat)
    strict_lock = preview.odds(strict, defended, Situation(lock_attempt=True))["ewar"]["lock"]
    assert strict_lock["p"] == pytest.approx(rolls["attacker"])
    assert preview.odds(built, Target(), Situation(lock_attempt=True))["ewar"]["lock"]["p"] == 1


def test_mm_t47_the_mecha_hit_table(cat):
    row = attack(cat, "hmg", target=Target(kind="mecha"))
    by_location = row["internal_by_location"]
    assert by_location["torso"] == pytest.approx(0.4 * row["expected_internal"])
    assert by_location["legs"] == by_location["right_arm"] == by_location["left_arm"] == pytest.approx(0.2 * row["expected_internal"])
    side = attack(cat, "hmg", target=Target(kind="mecha", edge="front_left"))["internal_by_location"]
    assert side["left_arm"] == pytest.approx(3 * side["right_arm"])


def test_mm_t20_blast_save_capped_at_60(cat):
    squad = Target(kind="infantry", blast_resistance=40, cover_points=3)
    row = attack(cat, "mortar", "torso", squad, Situation(distance=5))
    assert row["blast_save"] == 60
    assert row["blast"] == {"damage": 4, "radius": 1, "after_dr": 4, "scatter": "1 to 2 hexes"}


def test_mm_r19_a_blast_save_reaches_60_and_stops_there(cat):
    def save(resistance, cover):
        squad = Target(kind="infantry", blast_resistance=resistance, cover_points=cover)
        return attack(cat, "mortar", "torso", squad, Situation(distance=5))["blast_save"]
    assert save(29, 3) == 59 and save(30, 3) == 60
    assert save(31, 3) == 60 and save(61, 0) == 60


def test_mm_r35_small_arms_only_hurt_ish(cat):
    squad = attack(cat, "rifles", target=Target(kind="infantry", members=2, ish=1))
    assert squad["expected_ish_lost"] == pytest.approx(sum(min(k, 2) * p for k, p in
                                                           ((int(k), p) for k, p in squad["hits"].items())))
    mecha = attack(cat, "rifles", target=Target(kind="mecha"))
    assert mecha["expected_damage"] == 0 and any("MM-R35" in n for n in mecha["notes"])


def test_mm_c38_interceptors_negate_large_projectiles(cat):
    row = attack(cat, "rockets", "torso", Target(interceptor=3))
    assert row["shots"] == 1 and row["expected_hits"] == pytest.approx(0.5)
    assert attack(cat, "hmg", target=Target(interceptor=3))["shots"] == 5


@pytest.mark.parametrize("distance, los, reason", [
    (2, True, "inside the indirect minimum range of 3"), (11, True, "out of range (10 hexes)")])
def test_mm_r34_indirect_minimum_and_range(cat, distance, los, reason):
    assert attack(cat, "mortar", "torso", situation=Situation(distance=distance, line_of_sight=los))["reason"] == reason


def test_mm_r32_melee_needs_adjacency(cat):
    assert not attack(cat, "mace", "l-arm", situation=Situation(distance=2), profile="Bash")["eligible"]


def test_a_chosen_ammunition_is_the_only_profile_previewed(cat):
    built = resolve(parse(unit("mecha", ("autocannon", "r-arm", "HE"))), cat)
    assert [r["profile"] for r in preview.odds(built, Target(), Situation())["attacks"]] == ["HE"]


def test_mm_r37_evasion_only_through_the_front_arc_and_not_against_blasts(cat):
    evading = Target(agility=40, evading=True)
    assert attack(cat, "hmg", target=evading)["evasion"] == pytest.approx(0.4)
    assert attack(cat, "hmg", target=evading.model_copy(update={"edge": "rear_left"}))["evasion"] == 0
    assert attack(cat, "mortar", "torso", evading, Situation(distance=5))["evasion"] == 0  # Blast (4, 1)
    assert attack(cat, "hmg", target=Target(agility=None, evading=True))["evasion"] == 0


def test_mm_r38_a_flying_target_has_no_cover(cat):
    assert attack(cat, "hmg", target=Target(), situation=Situation(cover=-20))["tn"] == 30
    assert attack(cat, "hmg", target=Target(flying=True), situation=Situation(cover=-20))["tn"] == 50
    row = attack(cat, "mortar", "torso", Target(flying=True), Situation(distance=5))
    assert any("MM-C31" in note for note in row["notes"])


def test_mm_c02_opposed_ties_go_to_the_defender():
    rolls = d100_opposed(100, 100)
    assert rolls["defender"] > rolls["attacker"] and sum(rolls.values()) == pytest.approx(1)


def test_mm_c09_a_squad_in_a_building_halves_the_tn(cat):
    assert attack(cat, "hmg", target=Target(kind="infantry"))["tn"] == 50
    assert attack(cat, "hmg", target=Target(kind="infantry", in_building=True))["tn"] == 25


def test_mm_c17_graze_still_hurts_an_evading_target(cat):
    row = attack(cat, "grazer", target=Target(dr=0, agility=100, evading=True))
    assert row["expected_damage"] == pytest.approx(5) and row["evasion"] == 1
