"""Payloads in the combat preview (digest 6.13): each load is its own attack, modelled where the rulebook gives
its numbers, and otherwise shown as not modelled with the reason."""
from collections import Counter
from itertools import product
from pathlib import Path

import pytest

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.metallurgent import preview
from catalogue.rulesets.packs import read_pack
from tests.metallurgent.factories import weapon
from tests.metallurgent.previews import attack_named, plain_target, run

DATA = Path(__file__).resolve().parents[2] / "catalogue/rulesets/metallurgent/data"
DIGEST_PAYLOADS = ["Blast 1", "Cluster", "Scatter 6", "Penetration", "Exothermic", "Demolition", "Laser-Guided",
                   "Semi-Guided", "Illuminant", "Flashbulb", "Obscurant", "Anti-Air", "Cooling", "High Impact",
                   "Distance", "Lingering"]


def unit_target(**extra):
    """A conventional unit: it does not track Heat."""
    return preview.Target("Unit", "unit", 0, [preview.Part("Hull", 30, {"KE": 1, "CE": 5, "TE": 2})],
                          damage_steps=3, tracks_heat=False, **extra)


def test_each_payload_is_an_attack_of_its_own_beside_the_standard_load():
    result = run([weapon("cannon", payloads=["Penetration", "Blast 1"])], {"range": 4})
    rows = [a for a in result["attacks"] if a["weapon"] == "gear[0]"]
    assert [(a["key"], a["payload"]) for a in rows] == [
        ("gear[0]", None), ("gear[0]/penetration", "Penetration"), ("gear[0]/blast-1", "Blast 1")]
    assert rows[0]["effects"] == [] and result["track"]["plan"] == ["Cannon"]


def test_the_loads_of_one_weapon_share_its_magazine():
    result = run([weapon("cannon", magazine=3, reserve=0, payloads=["Blast 1"])],
                 {"range": 4, "turns": 2, "plan": ["gear[0]", "gear[0]/blast-1"]})
    assert [t["fired"] for t in result["track"]["turns"]] == [["Cannon", "Cannon (Blast 1)"], ["Cannon"]]
    assert result["track"]["turns"][1]["skipped"] == ["Cannon (Blast 1) (magazine empty)"]


@pytest.mark.parametrize("label", DIGEST_PAYLOADS + ["Whizbang"])
def test_no_payload_is_dropped_silently(label):
    result = run([weapon("gun", payloads=[label])], {"range": 4, "cover": [1]})
    row = next(a for a in result["attacks"] if a["payload"] == label)
    assert row["effects"] and all(e["name"] == label and e["text"] for e in row["effects"])
    unmodelled = [e for e in row["effects"] if not e["modelled"]]
    assert all("rulebook" in e["text"] or "removed" in e["text"] or "Cover" in e["text"] for e in unmodelled)
    if label == "Whizbang":
        assert unmodelled[0]["text"] == "not a Payload the rulebook names"


def test_laser_guided_lowers_the_criterion_against_a_painted_target():
    guided = run([weapon("atgm", payloads=["Laser-Guided"])], {"range": 4, "target_painted": True})
    assert attack_named(guided, "gear[0]/laser-guided")["criterion"] == 3
    assert attack_named(guided, "gear[0]")["criterion"] == 4
    plain = run([weapon("atgm", payloads=["Laser-Guided"])], {"range": 4})
    assert attack_named(plain, "gear[0]/laser-guided")["criterion"] == 4
    assert "not Painted" in attack_named(plain, "gear[0]/laser-guided")["effects"][0]["text"]


def test_painted_adds_a_die_to_ranged_attacks():
    painted = run([weapon("rifle", accuracy=0)], {"range": 4, "target_painted": True})
    plain = run([weapon("rifle", accuracy=0)], {"range": 4})
    assert attack_named(painted, "gear[0]")["pool"] == attack_named(plain, "gear[0]")["pool"] + 1


def test_guided_criterion_adds_to_the_other_criterion_changes():
    # Beyond the FCS's reach (+1) and indirect (+1), then guided (−1): 5+.
    far = run([weapon("atgm", range=8, payloads=["Laser-Guided"])], {"range": 15, "target_painted": True})
    assert attack_named(far, "gear[0]/laser-guided")["criterion"] == 5


def test_semi_guided_lowers_the_criterion_against_a_locked_target_and_locked_cancels_flanking():
    locked = run([weapon("missile", payloads=["Semi-Guided"])],
                 {"range": 4, "target_locked": True, "target_flanking": True}, target=plain_target(defence=4))
    missile = attack_named(locked, "gear[0]/semi-guided")
    assert missile["criterion"] == 3 and missile["target_number"] == 4
    assert "Locked" in missile["target_number_explain"]
    free = run([weapon("missile", payloads=["Semi-Guided"])], {"range": 4, "target_flanking": True},
               target=plain_target(defence=4))
    assert (attack_named(free, "gear[0]/semi-guided")["criterion"],
            attack_named(free, "gear[0]/semi-guided")["target_number"]) == (4, 5)


def test_exothermic_turns_to_te_against_a_unit_without_heat():
    result = run([weapon("launcher", damage=10, damage_type="CE", payloads=["Exothermic"])], {"range": 4},
                 target=unit_target())
    exo, standard = attack_named(result, "gear[0]/exothermic"), attack_named(result, "gear[0]")
    assert exo["damage_type"] == "TE" and exo["parts"][0]["damage_per_hit"] == 8  # TE Resistance 2
    assert standard["parts"][0]["damage_per_hit"] == 5  # CE Resistance 5
    assert exo["effects"][0]["modelled"]


def test_exothermic_against_an_anvil_keeps_its_type_and_says_its_heat_is_missing():
    exo = attack_named(run([weapon("launcher", damage_type="CE", payloads=["Exothermic"])], {"range": 4}),
                       "gear[0]/exothermic")
    assert exo["damage_type"] == "CE"
    assert [e["modelled"] for e in exo["effects"]] == [False] and "Heat" in exo["effects"][0]["text"]


def test_t15_exothermic_through_cover_4_still_loses_4_and_destroys_the_cover():
    exo = attack_named(run([weapon("gun", damage=8, payloads=["Exothermic"])], {"range": 4, "cover": [4]}),
                       "gear[0]/exothermic")
    assert exo["damage"] == 4
    assert any("destroys the Cover" in e["text"] and not e["modelled"] for e in exo["effects"])


def test_anti_air_deals_half_damage_to_surface_units_only():
    surface = attack_named(run([weapon("mg", damage=9, payloads=["Anti-Air"])], {"range": 4},
                               target=plain_target(resistance=0)), "gear[0]/anti-air")
    assert surface["damage"] == 5  # ceil(9 / 2)
    flier = attack_named(run([weapon("mg", damage=9, payloads=["Anti-Air"])], {"range": 4},
                             target=unit_target(airborne=True)), "gear[0]/anti-air")
    assert flier["damage"] == 9
    assert [e["modelled"] for e in flier["effects"]] == [False]


def test_helicopters_are_the_fliers():
    units = read_pack(DATA / "units.yaml", ACTIVE).catalogue
    kinds = {preview.target_from_unit(u).airborne for u in units.of("conventional_unit")
             if u.unit_type == "helicopter"}
    assert kinds == {True}
    assert not preview.target_from_unit(units.items["t-72b-mbt"]).airborne


def test_cluster_spreads_a_hit_but_its_misses_are_not_counted():
    result = run([weapon("shell", damage=20, payloads=["Cluster"])], {"range": 4},
                 target=plain_target(defence=4, resistance=0))
    cluster = attack_named(result, "gear[0]/cluster")
    assert cluster["drift"] is None
    assert cluster["expected_damage"] == pytest.approx(cluster["p_hit"] * (20 + 10 * 5))
    assert [e["modelled"] for e in cluster["effects"]] == [True, False]


def test_blocking_an_aoe_is_said_to_be_unmodelled():
    blast = attack_named(run([weapon("shell", payloads=["Blast 1"])], {"range": 4, "target_blocking": True}),
                         "gear[0]/blast-1")
    assert any("Blocked" in e["text"] and not e["modelled"] for e in blast["effects"])


def jams(roll):
    """L2594 as written: more 1s than 2s, than 3s, … than 6s, each face counted on its own."""
    counts = Counter(roll)
    return all(counts[1] > counts[face] for face in range(2, 7))


def test_temperamental_jam_odds_match_every_roll_counted():
    assert jams((1, 1, 2, 3, 4, 5)) and not jams((1, 2)) and not jams((1, 1, 2, 2))  # the rulebook's example
    for dice in range(1, 6):
        rolls = list(product(range(1, 7), repeat=dice))
        assert preview.jam_chance(dice) == pytest.approx(sum(map(jams, rolls)) / len(rolls))
    assert preview.jam_chance(1) == pytest.approx(1 / 6) and preview.jam_chance(0) == 0


def test_temperamental_marks_every_load_and_is_not_a_load():
    result = run([weapon("gun", accuracy=0, payloads=["Temperamental", "Blast 1"])], {"range": 4})
    rows = [a for a in result["attacks"] if a["weapon"] == "gear[0]"]
    assert [a["payload"] for a in rows] == [None, "Blast 1"]
    for row in rows:
        jam = next(e for e in row["effects"] if e["name"] == "Temperamental" and e["modelled"])
        assert f"{preview.jam_chance(row['pool']):.1%}" in jam["text"]
