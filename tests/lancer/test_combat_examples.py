"""The beta combat chapter's worked examples that carry numbers (digest 5.6), its formulas (digest 4) and the
digest's computed tables (5.2), each checked against Hardpoint's LANCER engine."""
import pytest

from catalogue.rulesets.lancer import movement
from catalogue.rulesets.lancer import preview as engine

# Digest 5.2: P(hit) under the d6 model, by need (defence − Grit) and net accuracy.
P_HIT = {2: (.702, .726, .775, .950, 1.000, 1.000, 1.000), 10: (.302, .326, .375, .550, .725, .774, .798),
         16: (.023, .042, .083, .250, .425, .474, .498), 20: (.000, .000, .000, .050, .225, .274, .298),
         24: (0, 0, 0, 0, .050, .081, .100)}


@pytest.mark.parametrize("need", sorted(P_HIT))
def test_l_c01_l_c02_p_hit_table(need):
    for net, expected in zip(range(-3, 4), P_HIT[need]):
        hit, _ = engine.hit_and_crit(0, net, need)
        assert hit == pytest.approx(expected, abs=5e-4), (need, net)


@pytest.mark.parametrize("grit, row", [(0, (.000, .000, .050, .225, .274)), (4, (.042, .083, .250, .425, .474)),
                                       (6, (.126, .175, .350, .525, .574))])
def test_l_c03_p_crit_table(grit, row):
    for net, expected in zip(range(-2, 3), row):
        _, crit = engine.hit_and_crit(grit, net, 0)
        assert crit == pytest.approx(expected, abs=5e-4), (grit, net)


@pytest.mark.parametrize("dice, normal, whole, each", [("1d6", 3.5, 4.472, 4.472), ("2d6", 7.0, 8.372, 8.944),
                                                       ("4d6", 14.0, 15.933, 17.889), ("2d3", 4.0, 4.642, 4.889)])
def test_l_c03_critical_damage_whole_roll_and_each_die(dice, normal, whole, each):
    damage = [engine._Damage("Kinetic", dice)]
    assert engine.damage_roll(dice).mean() == pytest.approx(normal)
    assert engine.critical_roll(damage, "whole").mean() == pytest.approx(whole, abs=5e-4)
    assert engine.critical_roll(damage, "each").mean() == pytest.approx(each, abs=5e-4)


def test_l_c02_the_digests_illustrative_attack():
    """Grit 2 against Evasion 10 behind heavy cover with Lock On: net −1, P(hit) .475, P(crit) 3/120; a 1d6+2
    weapon against Armor 1 deals 4.5 on an ordinary hit."""
    target = engine.Target(evasion=10, armor=1, lock_on=True)
    situation = engine.Situation(cover="heavy")
    net, terms = engine.net_accuracy([], False, target, situation)
    assert net == -1 and terms == ["+1 Lock On", "−2 heavy cover"]
    hit, crit = engine.hit_and_crit(2, net, 10)
    assert hit == pytest.approx(.475) and crit == pytest.approx(3 / 120)
    assert engine.after_defences(engine.damage_roll("1d6+2"), armor=1).mean() == pytest.approx(4.5)


def test_l_c02_melee_ignores_cover_and_engaged():
    target, situation = engine.Target(), engine.Situation(cover="heavy", engaged=True, impaired=True)
    assert engine.net_accuracy([], True, target, situation)[0] == -1  # Impaired only
    assert engine.net_accuracy([], False, target, situation)[0] == -4


def test_l_c02_flat_reading_counts_each_point_as_one():
    assert engine.hit_and_crit(0, 2, 12, model="flat")[0] == pytest.approx(11 / 20)
    assert engine.hit_and_crit(0, -2, 12, model="flat")[0] == pytest.approx(7 / 20)


def test_l_c04_armor_then_resistance_and_shredded():
    roll = engine.damage_roll(7)
    assert engine.after_defences(roll, armor=2, resistant=True).mean() == 3  # ⌈5 / 2⌉
    assert engine.after_defences(roll, armor=9).mean() == 0  # never below 0
    assert engine.after_defences(roll, armor=2, armor_piercing=True).mean() == 7


def test_f24_overcharge_steps_expected_heat():
    """Digest F24: 1, 1d3, 1d6, 1d6+3 average 1, 2, 3.5, 6.5 (beta); 1.0's last step is 1d6+4."""
    assert [engine.damage_roll(s).mean() for s in engine.OVERCHARGE["beta"]] == [1, 2, 3.5, 6.5]
    assert engine.damage_roll(engine.OVERCHARGE["1.0"][3]).mean() == 7.5


def test_f27_self_destruct_4d6_averages_14():
    assert engine.damage_roll("4d6").mean() == pytest.approx(14)


def test_f33_invisibility_halves_every_hit_before_the_roll():
    seen = engine.weapon_odds("Gun", "Main", "Rifle", [engine._Damage("Kinetic", 4)], [], 0,
                              engine.Target(evasion=1, invisible=True), engine.Situation(), {})
    assert seen["p_hit"] == pytest.approx(.5) and seen["expected_damage"] == pytest.approx(2)


def test_worked_example_4_a_larger_mech_passes_through_a_smaller_one():
    assert movement.passes_through(1, 0.5) and movement.passes_through(2, 1)
    assert not movement.passes_through(1, 1) and not movement.passes_through(0.5, 1)


def test_worked_example_5_a_size_1_mech_jumps_one_space_high():
    assert movement.jump(1, 6) == (3, 1)


def test_worked_example_19_a_size_2_mech_covers_2_by_2_spaces():
    assert movement.footprint(2) == (2, 2) and movement.footprint(0.5) == (1, 1) and movement.footprint(3) == (3, 3)


def test_worked_example_15_two_size_1_grapplers_count_as_size_2_and_drag_it():
    side = movement.grapple_size([1, 1])
    assert side == 2 and movement.drag_and_lift(side)[0] >= 2


@pytest.mark.parametrize("spaces, damage", [(2, 0), (3, 3), (5, 3), (6, 6), (9, 9), (12, 12), (30, 12)])
def test_f18_falling_damage(spaces, damage):
    assert movement.falling_damage(spaces) == damage

