"""Drift of a missed AOE attack (L629-633, L1405-1409, L1427, L2551) in the combat preview, checked against
hand-counted hex walks."""
from fractions import Fraction

import pytest

from catalogue.rulesets.metallurgent.dice import metallurgent_pool
from catalogue.rulesets.metallurgent import preview
from tests.metallurgent.factories import weapon
from tests.metallurgent.previews import SIDES, attack_named, caught, plain_target, run, walked

def test_two_drift_hexes_land_on_the_target_a_sixth_of_the_time():
    assert preview.landing_distances(2) == {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 2)}


@pytest.mark.parametrize("steps", [1, 3, 4, 5])
def test_drift_distances_match_every_roll_walked_out(steps):
    assert preview.landing_distances(steps) == walked(steps)


def test_wind_blows_the_same_whichever_side_it_comes_from():
    for side in SIDES:
        assert preview.landing_distances(2, 2) == walked(2, side, 2)
    assert preview.landing_distances(0, 1) == {1: 1}


def test_blast_falloff_half_in_the_landing_hex_then_halving():
    assert [preview.blast_falloff(20, r) for r in range(4)] == [10, 10, 5, 3]
    assert preview.blast_falloff(15, 0) == 8  # Golden Rule: rounded up


def one_die_blast(radius, **situation):
    """Mettle 6 − 5 Accuracy: one die at 4+ against TN 2, so 2 successes (1/6) Hit, 1 (1/3) is one short
    and 0 (1/2) two short."""
    result = run([weapon("shell", damage=20, damage_type="CE", accuracy=-5, payloads=[f"Blast {radius}"])],
                 {"range": 4, **situation}, target=plain_target(defence=2, resistance=0))
    return attack_named(result, f"gear[0]/blast-{radius}")


def test_t24_a_missed_blast_that_drifts_a_hex_still_hits():
    shell = one_die_blast(1)
    assert (shell["pool"], shell["criterion"], shell["target_number"]) == (1, 4, 2)
    assert shell["p_hit"] == pytest.approx(1 / 6)
    one_short, two_short = Fraction(1, 3) * caught(2, 1), Fraction(1, 2) * caught(4, 1)
    assert shell["drift"]["p_catch"] == pytest.approx(float(one_short + two_short))
    # Landing on the target's hex or the next one: 10 CE at one Hit Location and 5 to each of the other five.
    assert shell["drift"]["expected_damage"] == pytest.approx(float(one_short + two_short) * (10 + 5 * 5))
    hit = 1 / 6 * (20 + 10 * 5)
    assert shell["expected_damage"] == pytest.approx(hit + shell["drift"]["expected_damage"])
    assert "Drifts" in " ".join(e["text"] for e in shell["effects"])


def test_a_drift_back_onto_the_target_hex_is_all_a_blast_0_catches():
    shell = one_die_blast(0)
    on_target = Fraction(1, 3) * walked(2)[0] + Fraction(1, 2) * walked(4)[0]
    assert shell["drift"]["p_catch"] == pytest.approx(float(on_target))
    assert shell["drift"]["expected_damage"] == pytest.approx(float(on_target) * (10 + 5 * 5))


def test_a_drift_off_the_blast_radius_does_nothing():
    # Blast 2 also catches landings 2 hexes off, for ceil(20/4) = 5 and 3 to the others.
    wide, narrow = one_die_blast(2), one_die_blast(1)
    two_off = Fraction(1, 3) * walked(2)[2] + Fraction(1, 2) * walked(4)[2]
    assert wide["drift"]["expected_damage"] - narrow["drift"]["expected_damage"] == pytest.approx(
        float(two_off) * (5 + 3 * 5))
    assert not any(preview.drift_catches(metallurgent_pool(1, 4), 2, 1, 0, 2).get(d) for d in (2, 3, 4))


def test_attacks_without_an_aoe_ignore_drift():
    result = run([weapon("shell", damage=20, accuracy=-5, payloads=["Blast 1"])], {"range": 4},
                 target=plain_target(defence=2, resistance=0))
    standard = attack_named(result, "gear[0]")
    assert standard["drift"] is None
    assert standard["expected_damage"] == pytest.approx(standard["p_hit"] * 20)


def test_a_sure_hit_never_drifts():
    shell = run([weapon("shell", payloads=["Blast 1"])], {"range": 4}, target=plain_target(defence=0))
    assert attack_named(shell, "gear[0]/blast-1")["drift"]["p_catch"] == 0


def test_wind_adds_drift_to_indirect_attacks_only():
    direct = attack_named(run([weapon("mortar", range=6, payloads=["Blast 1"])],
                              {"range": 4, "weather": "winds_heavy"}), "gear[0]/blast-1")
    indirect = attack_named(run([weapon("mortar", range=6, payloads=["Blast 1"])],
                                {"range": 10, "weather": "winds_heavy"}), "gear[0]/blast-1")
    mild = attack_named(run([weapon("mortar", range=6, payloads=["Blast 1"])],
                            {"range": 10, "weather": "winds_mild"}), "gear[0]/blast-1")
    assert (direct["drift"]["wind"], indirect["drift"]["wind"], mild["drift"]["wind"]) == (0, 2, 1)
    assert "2 downwind" in " ".join(e["text"] for e in indirect["effects"])


def test_every_attempt_of_a_burst_can_drift():
    single = one_die_blast(1)
    burst = attack_named(run([weapon("shell", damage=20, damage_type="CE", accuracy=-5, payloads=["Blast 1"],
                                     functions=["Burst 2"])], {"range": 4},
                             target=plain_target(defence=2, resistance=0)), "gear[0]/blast-1")
    assert burst["drift"]["expected_damage"] == pytest.approx(2 * single["drift"]["expected_damage"])
