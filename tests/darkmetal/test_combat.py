"""DARK METAL dice and combat: the worked examples of digest 5.7 (WE-12 to WE-33), the Moroc fight included.

Rolled dice are read with the face rule the exact odds are built from (`dice.darkmetal_face`). WE-19 (Dash),
WE-20 (falling), WE-26 (Shock), WE-27 (Venom), WE-29 (throws), WE-30 (Entangle) and WE-31 (Reserve points)
resolve a roll at the table; the builder does not preview them (docs/rulesets/darkmetal.md).
"""
import itertools

import pytest

from catalogue.rulesets.base import BuildError
from catalogue.rulesets.darkmetal import preview as dm
from catalogue.rulesets.darkmetal import rules
from catalogue.rulesets.darkmetal.rules import ally_share
from catalogue.rulesets.darkmetal.dice import darkmetal_face
from tests.darkmetal.factories import CATALOGUE, ITEMS, KNIFE, RIFLE


def hits(d10, d6=(), target=6, auto_tens=0) -> bool:
    """Successes outnumber the 1s on the attack d10 and the defence d6 (L1050)."""
    successes = sum(darkmetal_face(face, target) == 1 for face in d10) + auto_tens
    ones = sum(face == 1 for face in d10) + sum(face == 1 for face in d6)
    return successes > ones


def test_dm_we12_a_one_cancels_a_ten():
    assert not hits([10, 1])


def test_dm_we13_ten_nine_one_against_8_passes():
    assert hits([10, 9, 1], target=8)


def test_dm_we14_we15_machine_pistol_target_numbers():
    assert dm.target_number(to_hit=-1) == 5
    assert dm.target_number(to_hit=2) == 8  # beyond 5": +2 replaces the −1 (A-19)


def test_dm_we16_per_die_chances():
    assert dm.hit_chance(1, 6) == pytest.approx(0.5) and dm.hit_chance(1, 7) == pytest.approx(0.4)


def test_dm_we17_hacking_one_six_eight_against_6():
    assert hits([1, 6, 8], target=6)


def test_dm_we18_security_five_two_against_3():
    assert hits([5, 2], target=3)


def test_dm_we21_detection_odds():
    assert dm.hit_chance(2, 5) == pytest.approx(0.72) and dm.hit_chance(2, 6) == pytest.approx(0.65)


def test_dm_we22_undetected_first_strike_with_an_automatic_ten():
    assert hits([2, 4], [2], target=6, auto_tens=1)
    assert dm.hit_chance(2, 6, defence_dice=1, auto_tens=1) == pytest.approx(13 / 15)


def test_dm_we23_we24_supporting_dice_in_close_combat():
    heather = dm.weapon_odds(KNIFE, {"ath": 2, "pre": 1}, 0, dm.Situation(close_combat=True, supporting_attackers=1))
    assert heather["dice"] == 3  # WE-23: Heather rolls 3 dice
    mary = dm.weapon_odds(KNIFE, {"ath": 2, "pre": 1}, 0, dm.Situation(close_combat=True, supporting_defenders=1))
    assert mary["defence_dice"] == 1 + 1  # WE-24: +1 defence die
    crowd = dm.Situation(close_combat=True, supporting_attackers=5, supporting_defenders=5)
    assert dm.weapon_odds(KNIFE, {"ath": 2, "pre": 1}, 0, crowd)["dice"] == 4  # at most +2


def test_dm_we25_shooting_into_melee_past_a_friendly():
    odds = dm.weapon_odds(RIFLE, {"ath": 1, "pre": 2}, 0, dm.Situation(friendlies_in_the_way=1))
    assert odds["defence_dice"] == 1 + 2


def test_dm_we22_an_undetected_first_strike_in_the_preview():
    odds = dm.weapon_odds(KNIFE, {"ath": 2, "pre": 1}, 0, dm.Situation(close_combat=True, undetected=True))
    assert odds["p_hit"] == pytest.approx(13 / 15)


def test_dm_we28_aim_dice_by_awareness():
    assert [dm.aim_dice(h) for h in (2, 4, 5, 9, 10)] == [1, 1, 2, 2, 3]
    assert [dm.aim_dice(p, leader=False) for p in (1, 2, 3, 4, 5)] == [1, 1, 2, 2, 3]


def test_dm_we32_allies_shared_between_players():
    assert [ally_share(4, n) for n in (1, 2, 3, 4)] == [4, 2, 1, 1]


MOROC = [  # (d10, d6, hit?) as printed, all at difficulty 5 (A-20, A-21: the bandits' dice as printed)
    ([4, 7, 8], [2, 1], True), ([4, 5, 1], [2, 6], False), ([3], [4, 3], False), ([10], [1, 5], False),
    ([3, 8], [1, 3], False), ([10, 8], [2, 2], True), ([9, 7, 6], [1, 3], True), ([1, 6, 7], [1], False),
    ([6], [1, 1], False), ([2], [], False), ([3, 2, 7], [2], True), ([4, 8, 10], [1], True),
]


@pytest.mark.parametrize("step,roll", list(enumerate(MOROC, start=1)))
def test_dm_we33_moroc_against_two_bandits(step, roll):
    d10, d6, hit = roll
    assert hits(d10, d6, target=dm.target_number(close_range=True)) is hit


def test_dm_we33_moroc_wins():
    bandit_a, bandit_b, moroc = 2, 2, 3
    for step, (d10, d6, hit) in enumerate(MOROC, start=1):
        if hits(d10, d6, target=5):
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
    odds = dm.weapon_odds(RIFLE, {"ath": 2, "pre": 1}, 0, dm.Situation(close_combat=True))
    assert odds["dice"] == 0 and odds["p_hit"] == 0  # Ath 2 − 2 for the rifle: "rolling no dice" (L648)


# --- firing modes (digest 6.10) -------------------------------------------------------------------

def counted(dice: int, target: int, defence: int) -> float:
    """P(hit) counted face by face: successes at the target outnumber the 1s on every die."""
    faces = itertools.product(*[range(1, 11)] * dice, *[range(1, 7)] * defence)
    rolls = list(faces)
    return sum(hits(roll[:dice], roll[dice:], target) for roll in rolls) / len(rolls)


def test_dm_each_firing_mode_has_its_own_exact_odds():
    m_rifle = ITEMS["model-739-mil-spec-m-rifle"]
    odds = dm.weapon_odds(m_rifle, {"ath": 1, "pre": 3}, 0, dm.Situation(range=6))
    one, two = odds["modes"]
    assert (one["mode"], one["target_number"], one["damage"]) == ("1 ammo", 6, 1)
    assert (two["mode"], two["target_number"], two["damage"], two["ammo"]) == ("2 ammo", 8, 2, 2)
    assert one["p_hit"] == pytest.approx(counted(3, 6, 1)) and two["p_hit"] == pytest.approx(counted(3, 8, 1))
    assert two["expected_damage"] == pytest.approx(2 * counted(3, 8, 1))
    assert odds["mode"] == "1 ammo" and odds["p_hit"] == one["p_hit"]  # the first mode unless another is chosen


def test_dm_the_chosen_mode_is_the_attack():
    m_rifle = ITEMS["armor-m-rifle"]
    chosen = dm.weapon_odds(m_rifle, {"ath": 1, "pre": 2}, 0,
                            dm.Situation(armor=2, modes={"armor-m-rifle": "2 ammo"}))
    # 2 ammo: +2 toHit and 2 Pierce, which cancels the target's Armor 2: T = 6 + 2.
    assert chosen["mode"] == "2 ammo" and chosen["target_number"] == 8 and chosen["damage"] == 2
    with pytest.raises(BuildError) as error:
        dm.weapon_odds(m_rifle, {"ath": 1, "pre": 2}, 0, dm.Situation(modes={"armor-m-rifle": "3 ammo"}))
    assert error.value.problems[0]["path"] == "situation.modes.armor-m-rifle"


def test_dm_a_rifle_in_close_combat_has_one_way_to_strike():
    odds = dm.weapon_odds(ITEMS["model-739-mil-spec-m-rifle"], {"ath": 4, "pre": 3}, 0,
                          dm.Situation(close_combat=True, modes={"model-739-mil-spec-m-rifle": "2 ammo"}))
    assert odds["modes"] == [] and odds["damage"] == 1 and odds["dice"] == 2


def test_dm_aimed_beam_rifle_fires_its_aimed_mode():
    beam = ITEMS["beam-rifle"]
    aimed = dm.weapon_odds(beam, {"ath": 1, "pre": 3}, 0, dm.Situation(aimed=True))
    assert aimed["mode"] == "aimed" and aimed["expected_damage"] == pytest.approx(dm.expected_net_damage(3, 6, 1))
    unaimed = dm.weapon_odds(beam, {"ath": 1, "pre": 3}, 0, dm.Situation())
    assert unaimed["mode"] == "shot" and unaimed["modes"][1]["why"] == "only when Aimed"


def test_dm_powered_heavy_beam_rifle_adds_the_unrolled_dice():
    """L779: defence d6 first, then attack d10 one at a time until successes outnumber 1s; dice left unrolled
    add damage. Counted face by face for 3d10 against 1d6 at T 5."""
    total = expected = 0
    for *d10, d6 in itertools.product(*[range(1, 11)] * 3, range(1, 7)):
        net = -(d6 == 1)
        for rolled, face in enumerate(d10, start=1):
            net += darkmetal_face(face, 5)
            if net > 0:
                expected += 1 + len(d10) - rolled
                total += 1
                break
    powered = dm.weapon_odds(ITEMS["heavy-beam-rifle"], {"ath": 1, "pre": 3}, 0,
                             dm.Situation(modes={"heavy-beam-rifle": "1 Power"}))
    assert powered["target_number"] == 5 and powered["power"] == 1
    assert powered["p_hit"] == pytest.approx(total / 6000) and powered["expected_damage"] == pytest.approx(expected / 6000)


def leader_report(**fields):
    return rules.validate({"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader",
                           "pack": CATALOGUE.pack, "name": "Brakk", **fields}, CATALOGUE)


def test_dm_pw_a_melee_damage_is_the_leaders_final_bulk():
    report = leader_report(traits={"ath": 8}, armor={"item": "power-armor"}, attach=[{"item": "pw-a-melee", "at": [1]}],
                           backpack=[{"item": "trauma-kit"}, {"item": "trauma-kit"}, {"item": "trauma-kit"}])
    bulk = report.stats["bulk"].value
    assert bulk == 3  # Power Armor 2, +1 for three backpack slots used (DM-R48)
    attack = dm.leader_preview(report, [ITEMS["pw-a-melee"]], 1, dm.Situation())["attacks"][0]
    assert attack["damage"] == bulk and attack["expected_damage"] == pytest.approx(bulk * attack["p_hit"])
    powered = attack["modes"][1]
    assert powered["dice"] == attack["dice"] + 1 and powered["shock"] and powered["damage"] == bulk


def test_dm_r36_each_weapon_held_is_its_own_attack():
    report = leader_report(traits={"pre": 6})
    pistols = [ITEMS["machine-pistol"], ITEMS["heavy-pistol"]]
    attacks = dm.leader_preview(report, pistols, 1, dm.Situation(range=5))["attacks"]
    assert [a["name"] for a in attacks] == ["Machine Pistol", "Heavy Pistol"]
    assert [a["target_number"] for a in attacks] == [5, 8]  # each its own range step


def test_dm_r38_close_combat_penalty_lowers_athletics_never_below_zero():
    heavy = ITEMS["heavy-rifle"]  # −3 Ath dice in Close Combat
    assert dm.weapon_odds(heavy, {"ath": 4, "pre": 1}, 0, dm.Situation(close_combat=True))["dice"] == 1
    assert dm.weapon_odds(heavy, {"ath": 2, "pre": 1}, 0, dm.Situation(close_combat=True))["dice"] == 0
