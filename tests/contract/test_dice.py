"""The exact dice core against the digests' oracle tables, hand-computed values and Monte Carlo sampling."""
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogue.rulesets import dice
from catalogue.rulesets.darkmetal.dice import darkmetal_die, darkmetal_pool
from catalogue.rulesets.dice import Distribution
from catalogue.rulesets.lancer.dice import d20_check
from catalogue.rulesets.megamercs.dice import d100_opposed, d100_roll_under
from catalogue.rulesets.metallurgent.dice import metallurgent_die, metallurgent_pool

# METALLURGENT digest 5.1: P(successes >= TN) for pools at a criterion, a 6 counting twice.
ORACLE = {
    (4, 4, True): [.9375, .7708, .5208, .2801, .1150, .0347, .0069, .0008],
    (5, 4, True): [.9688, .8646, .6736, .4421, .2377, .1024, .0342, .0085],
    (6, 4, True): [.9844, .9219, .7865, .5897, .3785, .2041, .0908, .0327],
    (7, 4, True): [.9922, .9557, .8646, .7106, .5169, .3265, .1765, .0806],
    (8, 4, True): [.9961, .9753, .9162, .8028, .6394, .4540, .2832, .1536],
    (9, 4, True): [.9980, .9863, .9492, .8694, .7400, .5739, .3995, .2469],
    (10, 4, True): [.9990, .9925, .9697, .9155, .8180, .6785, .5144, .3523],
    (6, 5, True): [.9122, .7805, .5665, .3745, .2047, .1013, .0404, .0146],
    (6, 3, True): [.9986, .9863, .9359, .8124, .6105, .3783, .1856, .0695],
    (6, 5, False): [.9122, .6488, .3196, .1001, .0178, .0014, 0, 0],
}


@pytest.mark.parametrize("key", ORACLE)
def test_metallurgent_pool_matches_the_digest_oracle(key):
    n, criterion, duplicate = key
    distribution = metallurgent_pool(n, criterion, duplicate)
    for tn, expected in enumerate(ORACLE[key], start=1):
        assert distribution.at_least(tn) == pytest.approx(expected, abs=6e-5), (key, tn)


@pytest.mark.parametrize("tn,fraction", [(2, Fraction(59, 64)), (4, Fraction(1019, 1728)), (5, Fraction(109, 288)),
                                         (6, Fraction(529, 2592))])
def test_metallurgent_6d6_at_4_exact_fractions(tn, fraction):
    assert metallurgent_pool(6, 4).at_least(tn) == pytest.approx(float(fraction), abs=1e-12)


def test_metallurgent_exact_fractions_other_pools():
    assert metallurgent_pool(8, 4).at_least(4) == pytest.approx(5549 / 6912, abs=1e-12)
    assert metallurgent_pool(6, 5).at_least(4) == pytest.approx(91 / 243, abs=1e-12)


def test_metallurgent_hand_computed_at_least_two_on_6d6_at_4():
    # P(0) = (1/2)^6; P(1) = 6 · (1/3) · (1/2)^5 (one plain success, no 6): P(>=2) = 1 − 1/64 − 1/16 = 59/64.
    assert metallurgent_pool(6, 4).at_least(2) == pytest.approx(1 - 1 / 64 - 6 * (1 / 3) * (1 / 2) ** 5)


@pytest.mark.parametrize("criterion,p0,p1,p2", [(2, 1, 4, 1), (3, 2, 3, 1), (4, 3, 2, 1), (5, 4, 1, 1), (6, 5, 0, 1)])
def test_metallurgent_single_die(criterion, p0, p1, p2):
    assert metallurgent_die(criterion).probabilities == pytest.approx((p0 / 6, p1 / 6, p2 / 6))


def test_metallurgent_indirect_sixes_do_not_duplicate():
    assert metallurgent_die(5, duplicate=False).probabilities == pytest.approx((4 / 6, 2 / 6))


def test_metallurgent_criterion_clamps_between_2_and_6():
    assert metallurgent_die(0) == metallurgent_die(2)
    assert metallurgent_die(9) == metallurgent_die(6)


def test_m_t03_meet_or_beat_and_t04_brick_wall():
    # T04: a T-72 rolls 6d6 against a wall at TN 2; dice 1, 2, 3, 3, 6 and one failure give 2 successes: a hit.
    faces = [1, 2, 3, 3, 6, 1]
    successes = sum(2 if f == 6 else 1 if f >= 4 else 0 for f in faces)
    assert successes == 2 and successes >= 2
    assert metallurgent_pool(0, 4).at_least(1) == 0  # no dice, no hit


def sample_metallurgent(n, criterion, duplicate, rolls, rng):
    counts = {}
    for _ in range(rolls):
        total = 0
        for _ in range(n):
            face = rng.randint(1, 6)
            total += (2 if duplicate else 1) if face == 6 else 1 if face >= criterion else 0
        counts[total] = counts.get(total, 0) + 1
    return counts


@pytest.mark.parametrize("n,criterion,duplicate", [(6, 4, True), (9, 3, True), (5, 5, False)])
def test_metallurgent_agrees_with_monte_carlo(n, criterion, duplicate):
    rolls, rng = 20_000, random.Random(2028)
    counts = sample_metallurgent(n, criterion, duplicate, rolls, rng)
    for k, p in metallurgent_pool(n, criterion, duplicate).items():
        sigma = (p * (1 - p) / rolls) ** 0.5
        assert abs(counts.get(k, 0) / rolls - p) <= 5 * sigma + 1e-4, (k, p)


# --- MEGA MERCS ----------------------------------------------------------------------------------------

def test_mm_c01_roll_under_and_clamping():
    assert d100_roll_under(50).as_dict() == {"0": 0.5, "1": 0.5}
    assert d100_roll_under(130).at_least(1) == 1 and d100_roll_under(-5).at_least(1) == 0


def test_mm_t31_hmg_five_shots_at_50():
    hits = dice.pool(d100_roll_under(50), 5)
    assert [round(p, 5) for _, p in hits.items()] == [0.03125, 0.15625, 0.3125, 0.3125, 0.15625, 0.03125]
    assert hits.mean() == pytest.approx(2.5)


def test_mm_t32_hmg_locked_at_60():
    hits = dice.pool(d100_roll_under(60), 5)
    assert [round(p, 5) for _, p in hits.items()] == [0.01024, 0.0768, 0.2304, 0.3456, 0.2592, 0.07776]


@pytest.mark.parametrize("a,d,attacker,defender,neither", [
    (50, 50, .3725, .3775, .25), (60, 40, .5180, .2420, .24), (40, 60, .2380, .5220, .24),
    (70, 30, .6535, .1365, .21), (80, 80, .4760, .4840, .04), (100, 100, .495, .505, 0)])
def test_mm_c02_t39_t44_opposed_rolls(a, d, attacker, defender, neither):
    result = d100_opposed(a, d)
    assert result == pytest.approx({"attacker": attacker, "defender": defender, "neither": neither}, abs=1e-9)


def test_mm_c02_opposed_agrees_with_monte_carlo():
    rng, rolls, wins = random.Random(7), 40_000, 0
    for _ in range(rolls):
        x, y = rng.randint(1, 100), rng.randint(1, 100)
        wins += (x <= 60 and (y > 40 or x > y))
    assert wins / rolls == pytest.approx(d100_opposed(60, 40)["attacker"], abs=0.01)


# --- DARK METAL ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("n,m,t,expected", [
    (1, 0, 6, Fraction(1, 2)), (1, 0, 7, Fraction(2, 5)), (1, 0, 5, Fraction(3, 5)), (1, 0, 8, Fraction(3, 10)),
    (1, 1, 6, Fraction(5, 12)), (2, 0, 6, Fraction(13, 20)), (2, 1, 6, Fraction(7, 12)), (3, 1, 6, Fraction(11, 16)),
    (3, 0, 7, Fraction(163, 250)), (3, 2, 7, Fraction(539, 1000)), (3, 2, 5, Fraction(1437, 2000)),
    (3, 1, 5, Fraction(153, 200)), (1, 2, 5, Fraction(5, 12)), (2, 2, 5, Fraction(3, 5)), (2, 1, 8, Fraction(39, 100))])
def test_dm_reference_hit_chances(n, m, t, expected):
    assert darkmetal_pool(n, t, defence=m).at_least(1) == pytest.approx(float(expected), abs=1e-12)


def test_dm_hit_grid_at_target_6():
    grid = [[.5000, .4167, .3472, .2894, .2411], [.6500, .5833, .5208, .4630, .4099],
            [.7400, .6875, .6354, .5845, .5353], [.8005, .7592, .7167, .6736, .6305],
            [.8440, .8113, .7767, .7409, .7041], [.8765, .8504, .8223, .7927, .7617]]
    for n, row in enumerate(grid, start=1):
        for m, expected in enumerate(row):
            assert darkmetal_pool(n, 6, defence=m).at_least(1) == pytest.approx(expected, abs=6e-5)


def test_dm_expected_net_for_an_aimed_beam_rifle():
    net = darkmetal_pool(3, 6, defence=1)
    assert sum(max(0, k) * p for k, p in net.items()) == pytest.approx(7 / 6)


def test_dm_a_one_never_succeeds_and_targets_over_10_are_impossible():
    assert darkmetal_die(1).probabilities == pytest.approx((0.1, 0.0, 0.9))
    assert darkmetal_pool(5, 11).at_least(1) == 0


def test_dm_agrees_with_monte_carlo():
    rng, rolls, counts = random.Random(11), 20_000, {}
    for _ in range(rolls):
        faces = [rng.randint(1, 10) for _ in range(4)]
        net = sum(f >= 7 for f in faces) - sum(f == 1 for f in faces)
        counts[net] = counts.get(net, 0) + 1
    for k, p in darkmetal_pool(4, 7).items():
        assert counts.get(k, 0) / rolls == pytest.approx(p, abs=5 * (p * (1 - p) / rolls) ** 0.5 + 1e-4)


# --- LANCER and custom dice -------------------------------------------------------------------------

def test_d20_check():
    assert d20_check(10, 0).at_least(1) == pytest.approx(11 / 20)
    assert d20_check(10, 3).at_least(1) == pytest.approx(14 / 20)
    assert d20_check(30, 0).at_least(1) == 0


def test_custom_faced_die():
    die = dice.custom_die([0, 0, 1, 1, 1, 2])
    assert die.as_dict() == {"0": pytest.approx(1 / 3), "1": 0.5, "2": pytest.approx(1 / 6)}
    assert dice.pool(die, 2).mean() == pytest.approx(2 * die.mean())


@settings(max_examples=60, deadline=None)
@given(faces=st.lists(st.integers(0, 5), min_size=1, max_size=7).filter(any), offset=st.integers(-3, 3),
       n=st.integers(0, 40))
def test_pool_by_doubling_equals_adding_one_die_at_a_time(faces, offset, n):
    """The fast paths (slice-wise sums, doubling with each cross product once) against the plain definition."""
    die = Distribution(offset, tuple(w / sum(faces) for w in faces))
    naive = dice.ZERO
    for _ in range(n):
        naive = Distribution(naive.offset + die.offset, tuple(
            sum(naive.probabilities[i] * die.probabilities[k - i]
                for i in range(len(naive.probabilities)) if 0 <= k - i < len(die.probabilities))
            for k in range(len(naive.probabilities) + len(die.probabilities) - 1)))
    fast = dice.pool(die, n)
    assert fast.offset == naive.offset
    assert fast.probabilities == pytest.approx(naive.probabilities, abs=1e-12)
