"""DARK METAL dice and combat: the worked examples of digest 5.7 (WE-12 to WE-33), the Moroc fight included."""
import pytest

from catalogue.rulesets.darkmetal import preview as dm


def test_dm_we12_a_one_cancels_a_ten():
    assert not dm.read_roll([10, 1]).hit


def test_dm_we13_ten_nine_one_against_8_passes():
    assert dm.read_roll([10, 9, 1], target=8).hit


def test_dm_we14_we15_machine_pistol_target_numbers():
    assert dm.target_number(to_hit=-1) == 5
    assert dm.target_number(to_hit=2) == 8  # beyond 5": +2 replaces the −1 (A-19)


def test_dm_we16_per_die_chances():
    assert dm.hit_chance(1, 6) == pytest.approx(0.5) and dm.hit_chance(1, 7) == pytest.approx(0.4)


def test_dm_we17_hacking_one_six_eight_against_6():
    assert dm.read_roll([1, 6, 8], target=6).hit


def test_dm_we18_security_five_two_against_3():
    assert dm.read_roll([5, 2], target=3).hit


def test_dm_we19_dash():
    assert [dm.dash_bonus(m) for m in (2, 3, 5)] == [1, 1, 2]


def test_dm_we20_terry_falls():
    successes = dm.read_roll([3, 5, 7], target=7).successes
    assert dm.fall_damage(1.75, successes) == 1


def test_dm_we21_detection_odds():
    assert dm.hit_chance(2, 5) == pytest.approx(0.72) and dm.hit_chance(2, 6) == pytest.approx(0.65)


def test_dm_we22_undetected_first_strike_with_an_automatic_ten():
    assert dm.read_roll([2, 4], [2], target=6, auto_tens=1).hit
    assert dm.hit_chance(2, 6, defence_dice=1, auto_tens=1) == pytest.approx(13 / 15)


def test_dm_we23_we24_supporting_dice():
    assert 2 + dm.support_dice(1) == 3 and 1 + dm.support_dice(1) == 2 and dm.support_dice(5) == 2


def test_dm_we25_shooting_into_melee_past_a_friendly():
    assert dm.into_melee_defence(1) == 2


def test_dm_we26_shock_on_cyber_3_systems_1():
    assert dm.shock(1, 3, 1) == (4, 8)


def test_dm_we27_venom_tokens():
    assert dm.venom_tokens([1, 1]) == 2 and dm.venom_tokens([2, 2]) == 4


def test_dm_we28_aim_dice_by_awareness():
    assert [dm.aim_dice(h) for h in (2, 4, 5, 9, 10)] == [1, 1, 2, 2, 3]
    assert [dm.aim_dice(p, leader=False) for p in (1, 2, 3, 4, 5)] == [1, 1, 2, 2, 3]


def test_dm_we29_a_short_throw():
    assert dm.throw_shortfall(5, 3) == 2


def test_dm_we30_entangle_ties_go_to_the_attacker():
    assert dm.entangle_attacker_wins(7, 7) and not dm.entangle_attacker_wins(6, 7)


def test_dm_we31_a_reserve_point_turns_a_miss_into_a_hit():
    assert not dm.read_roll([8, 4, 6], [1, 3], target=7).hit
    assert dm.read_roll(dm.with_reserve([8, 4, 6], 7, 1), [1, 3], target=7).hit


def test_dm_we32_allies_shared_between_players():
    assert [dm.max_allies_for_players(4, n) for n in (1, 2, 3, 4)] == [4, 2, 1, 1]


MOROC = [  # (d10, d6, hit?) as printed, all at difficulty 5 (A-20, A-21: the bandits' dice as printed)
    ([4, 7, 8], [2, 1], True), ([4, 5, 1], [2, 6], False), ([3], [4, 3], False), ([10], [1, 5], False),
    ([3, 8], [1, 3], False), ([10, 8], [2, 2], True), ([9, 7, 6], [1, 3], True), ([1, 6, 7], [1], False),
    ([6], [1, 1], False), ([2], [], False), ([3, 2, 7], [2], True), ([4, 8, 10], [1], True),
]


@pytest.mark.parametrize("step,roll", list(enumerate(MOROC, start=1)))
def test_dm_we33_moroc_against_two_bandits(step, roll):
    d10, d6, hit = roll
    assert dm.read_roll(d10, d6, target=dm.target_number(close_range=True)).hit is hit


def test_dm_we33_moroc_wins():
    bandit_a, bandit_b, moroc = 2, 2, 3
    for step, (d10, d6, hit) in enumerate(MOROC, start=1):
        if dm.read_roll(d10, d6, target=5).hit:
            if step in (1, 7):
                bandit_a -= 1
            elif step == 6:
                moroc -= 1
            else:
                bandit_b -= 1
    assert (bandit_a, bandit_b, moroc) == (0, 0, 2)


def test_dm_target_number_armor_and_pierce():
    assert dm.target_number("small", armor=2, pierce=1) == 9
    assert dm.target_number("large", armor=1, pierce=3) == 5  # Pierce beyond Armor helps nothing
    assert dm.hit_chance(5, 11) == 0  # "this can make an attack impossible"


def test_dm_aimed_beam_rifle_expected_damage():
    assert dm.expected_net_damage(3, 6, 1) == pytest.approx(7 / 6)


def test_dm_we09_a_rifle_in_close_combat_rolls_no_dice():
    from catalogue.rulesets import ACTIVE
    from catalogue.rulesets.packs import read_pack

    rifle = read_pack(ACTIVE["darkmetal"].data_dir / "rulebook.yaml", ACTIVE).catalogue.items["standard-rifle"]
    odds = dm.weapon_odds(rifle, {"ath": 2, "pre": 1}, 0, dm.Situation(close_combat=True))
    assert odds["dice"] == 0 and odds["p_hit"] == 0  # Ath 2 − 2 for the rifle: "rolling no dice" (L648)
