"""BID Bonuses by the Arc an attack comes from (L661) and Tracks' Defensible (L977), in the combat preview."""
from pathlib import Path

import pytest

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.metallurgent import preview
from catalogue.rulesets.packs import read_pack
from tests.metallurgent.factories import weapon
from tests.metallurgent.previews import attack_named, plain_target, resolved, run

DATA = Path(__file__).resolve().parents[2] / "catalogue/rulesets/metallurgent/data"


@pytest.mark.parametrize("arc,dodge", [("nose", 2), ("forward_left", 2), ("forward_right", 2),
                                       ("rear_left", 1), ("rear_right", 1), ("aft", 0)])
def test_dodge_bonus_by_the_arc_the_attack_comes_from(arc, dodge):
    result = run([weapon("rifle")], {"range": 4, "target_dodging": True, "attack_arc": arc},
                 target=plain_target(defence=4, dodge_bonus=2))
    rifle = attack_named(result, "gear[0]")
    assert rifle["target_number"] == 4 + dodge
    assert ("less" in rifle["target_number_explain"]) == (dodge != 2)


@pytest.mark.parametrize("arc,dodge", [("nose", 2), ("rear_left", 2), ("rear_right", 2), ("aft", 1)])
def test_tracks_defensible_takes_one_off_the_rear_and_aft_penalties(arc, dodge):
    result = run([weapon("rifle")], {"range": 4, "target_dodging": True, "attack_arc": arc},
                 target=plain_target(defence=4, dodge_bonus=2, defensible=True))
    rifle = attack_named(result, "gear[0]")
    assert rifle["target_number"] == 4 + dodge
    assert ("Defensible" in rifle["target_number_explain"]) == (arc == "aft")


def test_a_bid_bonus_never_goes_below_zero():
    for bonus in (0, 1):
        result = run([weapon("rifle")], {"range": 4, "target_dodging": True, "attack_arc": "aft"},
                     target=plain_target(defence=4, dodge_bonus=bonus))
        assert attack_named(result, "gear[0]")["target_number"] == 4


def test_only_tracked_anvils_are_defensible():
    pack = read_pack(DATA / "starter.yaml", ACTIVE)
    for example in pack.examples:
        target = preview.target_from_anvil(resolved(example, pack.catalogue))
        assert target.defensible == (example["parts"]["mobility_base"] == "harmattan-tracks")
    assert any(preview.target_from_anvil(resolved(e, pack.catalogue)).defensible for e in pack.examples)


@pytest.mark.parametrize("arc,intercept", [("nose", 3), ("rear_right", 2), ("aft", 1)])
def test_intercept_bonus_by_arc(arc, intercept):
    result = run([weapon("gun", damage=10)], {"range": 4, "target_intercepting": True, "attack_arc": arc},
                 target=plain_target(intercept_bonus=3))
    gun = attack_named(result, "gear[0]")
    assert gun["damage"] == 10 - intercept
    assert any(note.startswith(f"−{intercept} Intercept") for note in gun["notes"])


def test_block_from_the_rear_keeps_one_hit_from_the_aft_none():
    target = preview.Target("T", "anvil", 4, [preview.Part("Soft", 30, {"KE": 0, "CE": 0, "TE": 0}),
                                               preview.Part("Hard", 30, {"KE": 5, "CE": 0, "TE": 0})], block_bonus=2)
    rear = attack_named(run([weapon("gun", damage=8)], {"range": 4, "target_blocking": True,
                                                         "attack_arc": "rear_left"}, target=target), "gear[0]")
    assert rear["parts"][1]["location"] == 1.0 and rear["parts"][0]["expected"] == 0
    aft = attack_named(run([weapon("gun", damage=8)], {"range": 4, "target_blocking": True, "attack_arc": "aft"},
                           target=target), "gear[0]")
    assert [p["location"] for p in aft["parts"]] == [0.5, 0.5]
    assert any("Block 0 Hits (2, less 2 from the Aft Arc)" in note for note in aft["notes"])


def test_block_redirects_at_most_its_bonus_of_a_bursts_hits():
    # Block 1 against Burst 3: the Hard Component takes one Hit whenever any lands, the rest fall evenly.
    target = preview.Target("T", "anvil", 4, [preview.Part("Soft", 30, {"KE": 0, "CE": 0, "TE": 0}),
                                               preview.Part("Hard", 30, {"KE": 5, "CE": 0, "TE": 0})], block_bonus=2)
    smg = attack_named(run([weapon("smg", damage=8, functions=["Burst 3"])],
                           {"range": 4, "target_blocking": True, "attack_arc": "rear_right"}, target=target), "gear[0]")
    p = smg["p_hit"]
    blocked = 1 - (1 - p) ** 3
    soft = (3 * p - blocked) / 2
    assert smg["parts"][0]["expected"] == pytest.approx(soft * 8)
    assert smg["parts"][1]["expected"] == pytest.approx((soft + blocked) * 3)
    assert smg["parts"][1]["location"] == pytest.approx((soft + blocked) / (3 * p))
