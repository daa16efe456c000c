"""Ember's custom dice, exact: each die's faces as the digest's table (5.3), the reference probabilities of 5.10 to
1e-3, the worked examples of 5.9 with their computed references, electronic warfare (5.6) and the Black die."""
import json
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from catalogue.rulesets.ember import dice as d

DEFENCES = {"3W": (3, 0, False), "4W": (4, 0, False), "5W": (5, 0, False), "4W DEF": (4, 0, True),
            "4W+5B": (4, 5, False), "3W+2B": (3, 2, False)}
# 5.10: P(Penetration) / E[un-offset damage] by attack pool, Offensive or not, and defence.
TABLE = {
    ("2R", False): ((.574, .74), (.523, .67), (.476, .60), (.523, .67), (.182, .22), (.386, .48)),
    ("2R", True): ((.760, 1.09), (.699, .98), (.640, .88), (.651, .89), (.278, .35), (.553, .74)),
    ("1Y+3R", False): ((.831, 1.74), (.789, 1.58), (.745, 1.44), (.722, 1.23), (.450, .77), (.692, 1.34)),
    ("1Y+3R", True): ((.951, 2.49), (.925, 2.30), (.895, 2.11), (.854, 1.69), (.643, 1.27), (.865, 2.03)),
    ("2Y+2R", False): ((.827, 1.89), (.782, 1.71), (.734, 1.54), (.627, 1.02), (.471, .90), (.700, 1.50)),
    ("2Y+2R", True): ((.936, 2.56), (.906, 2.35), (.870, 2.14), (.766, 1.40), (.633, 1.35), (.847, 2.10)),
    ("5Y", False): ((.896, 3.04), (.864, 2.82), (.828, 2.60), (.538, 1.40), (.666, 1.83), (.828, 2.60)),
    ("5Y", True): ((.953, 3.64), (.932, 3.40), (.906, 3.17), (.643, 1.80), (.772, 2.31), (.906, 3.17)),
    ("3Y", False): ((.719, 1.63), (.662, 1.45), (.605, 1.28), (.288, .54), (.398, .76), (.605, 1.28)),
}
POOLS = {"2R": (0, 2), "1Y+3R": (1, 3), "2Y+2R": (2, 2), "5Y": (5, 0), "3Y": (3, 0)}


def mean(distribution):
    return sum(k * p for k, p in distribution.items())


@pytest.mark.parametrize("pool, offensive", sorted(TABLE))
def test_the_reference_table_of_5_10(pool, offensive):
    attack = d.attack_pool(*POOLS[pool], offensive)
    for (name, defence), (pen, damage) in zip(DEFENCES.items(), TABLE[pool, offensive]):
        result = d.resolve(attack, d.defence_pool(*defence))
        assert float(result["p_penetration"]) == pytest.approx(pen, abs=1e-3), (pool, offensive, name)
        assert float(mean(result["surplus"])) == pytest.approx(damage, abs=6e-3), (pool, offensive, name)


def test_each_die_has_the_digests_icon_odds():
    """5.3: E[Light] 0.75 on Yellow (0.875 Offensive); Red 0.5 Heavy (0.625 + 0.125 Light Offensive); White
    Defense 0.125 (0.625 Defensive), Dodge 0.125, Lightning 2/8; Blue Dodge 0.25."""
    assert mean({k[0]: p for k, p in d.attack_pool(1, 0).items()}) == Fraction(3, 4)
    assert mean({k[0]: p for k, p in d.attack_pool(1, 0, True).items()}) == Fraction(7, 8)
    off = d.attack_pool(0, 1, True)
    assert mean({k[1]: p for k, p in off.items()}) == Fraction(5, 8) and mean({k[0]: p for k, p in off.items()}) == Fraction(1, 8)
    assert mean({k[0]: p for k, p in d.defence_pool(1, 0, True).items()}) == Fraction(5, 8)
    assert mean({k[1]: p for k, p in d.defence_pool(0, 1).items()}) == Fraction(1, 4)
    assert mean({k[1]: p for k, p in d.defence_pool(0, 1, low_profile=True).items()}) == Fraction(1, 2)


def test_sanity_2r_against_4w_is_the_closed_form():
    closed = Fraction(3, 4) * Fraction(7, 8) ** 4 + Fraction(1, 4) * 4 * Fraction(1, 8) * Fraction(7, 8) ** 3
    assert d.resolve(d.attack_pool(0, 2), d.defence_pool(4))["p_penetration"] == closed


def test_e_t01_single_shot_against_a_mobile_defender():
    """1 Yellow + 3 Red against Armor 4 and Dodge 5 in Mobility: 4 White + 5 Blue; P(pen) 0.4495 (0.6428 OFF)."""
    defence = d.defence_pool(4, 5)
    assert float(d.resolve(d.attack_pool(1, 3), defence)["p_penetration"]) == pytest.approx(.4495, abs=1e-4)
    assert float(d.resolve(d.attack_pool(1, 3, True), defence)["p_penetration"]) == pytest.approx(.6428, abs=1e-4)
    assert d.offset(light=0, heavy=1, lightning=0, defense=3, dodge=0) == (1, 0)  # the book's one Heavy gets through


def test_e_t02_shield_bash_concussion_without_penetration():
    """5 Yellow in Offensive against 5 White in Defensive: P(pen) 0.5231; Concussion 0.4107 (P1) or 0.3310 (P2),
    E[Link lost] 0.512 or 0.418; the book's roll offsets all damage and leaves a Lightning."""
    attack, defence = d.attack_pool(5, 0, True), d.defence_pool(5, 0, True)
    first, smart = d.resolve(attack, defence, "P1"), d.resolve(attack, defence, "P2")
    assert float(first["p_penetration"]) == pytest.approx(.5231, abs=1e-4) == float(smart["p_penetration"])
    assert float(first["p_lightning"]) == pytest.approx(.4107, abs=1e-4)
    assert float(smart["p_lightning"]) == pytest.approx(.3310, abs=1e-4)
    assert float(first["expected_lightning"]) == pytest.approx(.512, abs=1e-3)
    assert float(smart["expected_lightning"]) == pytest.approx(.418, abs=1e-3)
    assert d.offset(light=3, heavy=0, lightning=1, defense=3, dodge=0) == (0, 1)


def test_e_t03_surplus_scatters_to_the_backpack_exactly():
    """2 Yellow + 2 Red against 4 White in Defensive: 0.6268; the Surplus {1 Light, 1 Heavy} against the Backpack's
    3 White in Defensive penetrates with exactly 391/512 (0.8809 not Defensive)."""
    assert float(d.resolve(d.attack_pool(2, 2), d.defence_pool(4, 0, True))["p_penetration"]) == pytest.approx(.6268, abs=1e-4)
    surplus = {(1, 1, 0): Fraction(1)}
    assert d.resolve(surplus, d.defence_pool(3, 0, True))["p_penetration"] == Fraction(391, 512)
    assert float(d.resolve(surplus, d.defence_pool(3))["p_penetration"]) == pytest.approx(.8809, abs=1e-4)


@pytest.mark.parametrize("initiator, row", [(1, (1.000, .641, .387, .233, .147, .099, .072)),
                                            (3, (1.000, .864, .706, .553, .422, .321, .247)),
                                            (6, (1.000, .940, .871, .793, .706, .615, .526))])
def test_electronic_warfare_counter_rolls(initiator, row):
    for responder, expected in enumerate(row):
        assert float(d.electronic_warfare(initiator, responder)) == pytest.approx(expected, abs=1e-3)


def test_electronic_warfare_offensive_and_strength_only():
    for n, expected in ((1, .672), (2, .621), (3, .598), (4, .585)):
        assert float(d.electronic_warfare(n, n, offensive=True)) == pytest.approx(expected, abs=1e-3)
    for n, expected in ((1, .375), (2, .141), (3, .053)):
        assert float(d.electronic_warfare(0, n)) == pytest.approx(expected, abs=1e-3)


def test_the_black_die_reads_a_missing_part_as_the_torso():
    four = d.target_part({"torso", "chassis", "left_arm", "right_arm"})
    assert four == {"torso": Fraction(2, 6), "chassis": Fraction(1, 6), "left_arm": Fraction(1, 6),
                    "right_arm": Fraction(1, 6), "any": Fraction(1, 6)}


def test_floats_agree_with_fractions():
    exact = d.resolve(d.attack_pool(2, 2), d.defence_pool(4, 5))
    fast = d.resolve(d.attack_pool(2, 2, exact=False), d.defence_pool(4, 5, exact=False))
    assert fast["p_penetration"] == pytest.approx(float(exact["p_penetration"]), abs=1e-12)


def test_the_dice_command_prints_the_odds_of_an_attack(capsys):
    call_command("dice", "ember", "--attack", "1Y+3R", "--defence", "4W", "--defender-stance", "MOB", "--dodge", "5")
    odds = json.loads(capsys.readouterr().out)
    assert odds["p_penetration"] == pytest.approx(.4495, abs=1e-4) and set(odds) == {"p_hit", "p_penetration",
                                                                                      "surplus", "p_lightning"}
    assert sum(odds["surplus"].values()) == pytest.approx(1) and odds["surplus"]["0"] == pytest.approx(1 - .4495, abs=1e-4)
    call_command("dice", "ember", "--attack", "5Y", "--defence", "5W", "--attacker-stance", "OFF",
                 "--defender-stance", "DEF", "--policy", "P2")
    assert json.loads(capsys.readouterr().out)["p_lightning"] == pytest.approx(.3310, abs=1e-4)
    with pytest.raises(CommandError, match="--attack '2X'"):
        call_command("dice", "ember", "--attack", "2X", "--defence", "4W")


def test_focus_rerolls_each_die_that_scored_nothing_exactly():
    """Focus (L490-493) as a fixed rule, die by die: a Red die hits 1/2 + 1/2 · 1/2 = 3/4 of the time; a plain
    White die shows Defense 1/8 + 6/8 · 1/8 = 14/64."""
    red = d.attack_pool(0, 1, focus=True)
    assert sum(p for (light, heavy, _), p in red.items() if heavy) == Fraction(3, 4)
    white = d.defence_pool(1, focus=True)
    assert sum(p for (defense, _), p in white.items() if defense) == Fraction(14, 64)
    assert sum(red.values()) == 1 and sum(white.values()) == 1
    plain = d.resolve(d.attack_pool(0, 2), d.defence_pool(4))["p_penetration"]
    assert d.resolve(d.attack_pool(0, 2, focus=True), d.defence_pool(4))["p_penetration"] > plain
    assert d.resolve(d.attack_pool(0, 2), d.defence_pool(4, focus=True))["p_penetration"] < plain
