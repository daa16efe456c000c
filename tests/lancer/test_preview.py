"""LANCER attack odds, exact: accuracy and difficulty as the highest of d6, hits and criticals, damage dice,
critical re-rolls, Armor then Resistance (digest 5.1, 5.2)."""
import itertools
from fractions import Fraction

import pytest

from catalogue.rulesets.lancer import preview as lp


def test_the_highest_of_k_d6_has_the_digests_means():
    """Digest 5.2: E[max of k d6] = 3.500, 4.472, 4.958, 5.245, 5.431."""
    assert [round(lp.highest_of(k).mean(), 3) for k in range(1, 6)] == [3.5, 4.472, 4.958, 5.245, 5.431]


def test_difficulty_takes_the_highest_away():
    assert lp.accuracy(-2).mean() == pytest.approx(-4.472, abs=1e-3)
    assert lp.accuracy(0).mean() == 0 and lp.accuracy(2, "flat").mean() == 2


def test_a_hit_meets_the_defence_by_enumeration():
    """d20 + Grit 2 + 1 accuracy against Evasion 15, counted over every d20 and d6."""
    hits = sum(1 for d20, d6 in itertools.product(range(1, 21), range(1, 7)) if d20 + 2 + d6 >= 15)
    p_hit, _ = lp.hit_and_crit(2, 1, 15)
    assert p_hit == pytest.approx(hits / 120)


def test_a_critical_is_a_weapon_total_of_20_or_more():
    p_hit, p_crit = lp.hit_and_crit(0, 0, 10)
    assert p_hit == pytest.approx(11 / 20) and p_crit == pytest.approx(1 / 20)
    assert lp.hit_and_crit(0, 0, 10, weapon=False)[1] == 0  # tech attacks do not crit
    assert lp.hit_and_crit(4, 0, 22)[1] == pytest.approx(3 / 20)  # a crit still has to hit


@pytest.mark.parametrize("expression, mean, low, high", [("3", 3, 3, 3), ("1d6", 3.5, 1, 6), ("2d6+1", 8, 3, 13),
                                                          ("1d3", 2, 1, 3)])
def test_damage_values(expression, mean, low, high):
    roll = lp.damage_roll(expression)
    values = [v for v, p in roll.items() if p > 0]
    assert roll.mean() == pytest.approx(mean) and (min(values), max(values)) == (low, high)


def test_a_bad_damage_value_is_refused():
    with pytest.raises(ValueError, match="not a damage value"):
        lp.damage_roll("lots")


def test_a_critical_keeps_the_higher_of_two_rolls():
    crit = lp.critical(lp.damage_roll("1d6"))
    assert crit.mean() == pytest.approx(Fraction(161, 36))
    assert dict(crit.items())[6] == pytest.approx(11 / 36)


def test_armor_then_resistance_rounding_up():
    roll = lp.damage_roll("7")
    assert lp.after_defences(roll, armor=2).mean() == 5
    assert lp.after_defences(roll, armor=2, resistant=True).mean() == 3  # ceil(5 / 2)
    assert lp.after_defences(roll, armor=2, armor_piercing=True, resistant=True).mean() == 4
    assert lp.after_defences(lp.damage_roll("1"), armor=3).mean() == 0


def test_expected_damage_splits_normal_and_critical_hits():
    normal, crit = 3.5, 161 / 36
    assert lp.expected_damage("1d6", 0.6, 0.1) == pytest.approx(0.5 * normal + 0.1 * crit)
