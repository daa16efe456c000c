"""LANCER 1.0 construction (Hardpoint's codes L-B01 to L-B14): each advancement budget at its limit and past it,
the derived statistics with their computations, mount fittings and licence gating."""
import pytest

from catalogue.rulesets.lancer import construction as c

SKILLS = {"act_unseen": 1, "apply_fists": 1, "assault": 1, "blow_something_up": 1}
LL0 = dict(hase={"hull": 1, "agility": 1}, triggers=SKILLS, talents={"ace": 1, "brawler": 1, "crack_shot": 1})


def codes(pilot):
    return {i.code for i in c.check_pilot(pilot)}


def test_l_b01_licence_level_0_to_12():
    assert "L-B01" not in codes(c.Pilot(ll=12, hase={}, triggers=SKILLS))
    assert "L-B01" in codes(c.Pilot(ll=13)) and "L-B01" in codes(c.Pilot(ll=-1))


@pytest.mark.parametrize("ll, ceil, floor", [(0, 0, 0), (1, 1, 0), (3, 2, 1), (12, 6, 6)])
def test_l_b02_grit_is_half_the_level_rounded_up(ll, ceil, floor):
    assert c.grit(ll) == ceil and c.grit(ll, "floor") == floor


def test_l_b03_hase_budget_and_cap():
    assert codes(c.Pilot(ll=0, **LL0)) == set()
    assert "L-B03" in codes(c.Pilot(ll=0, **{**LL0, "hase": {"hull": 2, "agility": 1}}))  # 3 of 2
    assert "L-B03" not in codes(c.Pilot(ll=4, **{**LL0, "hase": {"hull": 6}}))  # 6 of 6, at the cap
    assert "L-B03" in codes(c.Pilot(ll=6, **{**LL0, "hase": {"hull": 7}}))  # over the cap of 6


def test_l_b04_triggers_four_at_start_then_one_rank_a_level():
    assert "L-B04" not in codes(c.Pilot(ll=2, **{**LL0, "triggers": {**SKILLS, "assault": 3}}))  # 6 of 6
    assert "L-B04" in codes(c.Pilot(ll=2, **{**LL0, "triggers": {**SKILLS, "assault": 3, "pull_rank": 1}}))
    assert "L-B04" in codes(c.Pilot(ll=0, **{**LL0, "triggers": {"assault": 1}}))  # fewer than four
    assert "L-B04" in codes(c.Pilot(ll=12, **{**LL0, "triggers": {**SKILLS, "assault": 4}}))  # rank 4: +8
    assert [c.trigger_bonus(r) for r in (1, 2, 3)] == [2, 4, 6]


def test_l_b05_talents_three_ranks_then_one_a_level():
    assert "L-B05" not in codes(c.Pilot(ll=1, **{**LL0, "talents": {"ace": 2, "brawler": 1, "crack_shot": 1}}))
    assert "L-B05" in codes(c.Pilot(ll=0, **{**LL0, "talents": {"ace": 2, "brawler": 1, "crack_shot": 1}}))
    assert "L-B05" in codes(c.Pilot(ll=12, **{**LL0, "talents": {"ace": 4}}))


def test_l_b06_licence_ranks_one_a_level_at_most_three_each():
    assert "L-B06" not in codes(c.Pilot(ll=3, **LL0, licences={"balor": 3}))
    assert "L-B06" in codes(c.Pilot(ll=3, **LL0, licences={"balor": 3, "drake": 1}))
    assert "L-B06" in codes(c.Pilot(ll=4, **LL0, licences={"balor": 4}))


def test_l_b07_a_core_bonus_at_3_6_9_12():
    assert [c.budgets(ll)["core_bonuses"] for ll in (2, 3, 5, 6, 12)] == [0, 1, 1, 2, 4]
    assert "L-B07" not in codes(c.Pilot(ll=3, **LL0, core_bonuses=["auto_stabilizing"]))
    assert "L-B07" in codes(c.Pilot(ll=2, **LL0, core_bonuses=["auto_stabilizing"]))


FRAME = c.FrameStats(size=1, hp=10, armor=1, evasion=8, edef=8, heatcap=6, repcap=5, sensor_range=10,
                     tech_attack=0, save=10, speed=4, sp=6)


def test_l_b08_derived_stats_with_their_computations():
    stats = c.derived(FRAME, ll=3, hase={"hull": 2, "agility": 3, "systems": 1, "engineering": 2})
    values = {k: v for k, (v, _) in stats.items()}
    assert values == {"hp": 10 + 2 + 4, "repcap": 5 + 1, "evasion": 8 + 3, "speed": 4 + 1, "edef": 8 + 1,
                      "tech_attack": 0 + 1, "sp": 6 + 2 + 0, "heatcap": 6 + 2, "limited_bonus": 1, "save": 10 + 2,
                      "armor": 1, "structure": 4, "stress": 4}
    assert stats["hp"][1] == "frame 10 + Grit 2 + 2 × Hull 2"


def test_l_b14_armor_at_most_4():
    heavy = c.FrameStats(**{**FRAME.__dict__, "armor": 5})
    assert c.derived(heavy, 0, {})["armor"][0] == 4
    assert c.derived(c.FrameStats(**{**FRAME.__dict__, "armor": 4}), 0, {})["armor"][0] == 4


@pytest.mark.parametrize("mount, sizes, ok", [
    ("Aux", ["Aux"], True), ("Aux", ["Main"], False), ("Main", ["Main"], True), ("Main", ["Aux"], True),
    ("Main", ["Aux", "Aux"], False), ("Flex", ["Aux", "Aux"], True), ("Flex", ["Main", "Aux"], False),
    ("Heavy", ["Heavy"], True), ("Heavy", ["Main"], True), ("Heavy", ["Heavy", "Aux"], False),
    ("Main/Aux", ["Main", "Aux"], True), ("Main/Aux", ["Aux", "Main"], True), ("Aux/Aux", ["Aux", "Aux"], True),
    ("Aux/Aux", ["Main"], False),
])
def test_l_b09_mount_fittings(mount, sizes, ok):
    assert c.fits(mount, sizes) is ok


def test_l_b09_a_superheavy_takes_a_heavy_mount_and_another():
    assert c.superheavy_fits(["Heavy", "Main"]) and not c.superheavy_fits(["Heavy"])
    assert not c.superheavy_fits(["Main", "Flex"])


def test_l_b13_licence_gating():
    assert c.licensed(0, None, {})
    assert c.licensed(2, "balor", {"balor": 2}) and not c.licensed(3, "balor", {"balor": 2})
    assert not c.licensed(1, "drake", {"balor": 3})
