"""Ember construction rules by ID (digest 3), each broken and at its limit, on hand-written Part cards."""
import pytest
from pydantic import ValidationError

from catalogue.rulesets.ember import construction as c
from catalogue.rulesets.ember.schema import Drone, Pilot
from tests.ember.factories import ACE, BACK, CHASSIS, LEFT, RIGHT, TORSO, TWIN, mech, part


def codes(issues):
    return [i.code for i in issues]


def test_e_r01_one_part_a_slot_is_the_mapping_by_slot():
    built = mech(TORSO, CHASSIS, LEFT, RIGHT, BACK, part("spare", "torso"))
    assert len(built.parts) == 5 and built.parts["torso"].key == "spare"  # a slot holds one card


def test_e_r02_a_part_goes_in_its_own_slot():
    wrong = c.Mech("Hound", {"torso": TORSO, "chassis": CHASSIS, "right_arm": LEFT}, ACE)
    assert [(i.code, i.path) for i in c.check_mech(wrong)] == [("E-R02", "parts.right_arm")]


def test_e_r03_chassis_torso_and_an_arm():
    assert codes(c.check_mech(mech(TORSO, CHASSIS))) == ["E-R03", "E-R04"]
    assert codes(c.check_mech(mech(TORSO, LEFT, RIGHT, BACK))) == ["E-R03"]
    assert c.check_mech(mech(TORSO, CHASSIS, RIGHT)) == []


def test_e_r04_three_to_five_parts():
    assert c.check_mech(mech(TORSO, CHASSIS, LEFT)) == []  # the least
    assert c.check_mech(mech(TORSO, CHASSIS, LEFT, RIGHT, BACK)) == []  # the most a Mech has slots for


def test_e_r05_exactly_one_pilot():
    assert codes(c.check_mech(mech(TORSO, CHASSIS, LEFT, pilot=None))) == ["E-R05"]


def test_e_r07_a_handheld_part_carries_its_discard_card():
    with pytest.raises(ValidationError, match="E-R07"):
        part("gun", "right_arm", handheld=True)
    assert RIGHT.discard.freehand


def test_e_r08_throw_needs_another_free_hand():
    thrower = part("sling", "right_arm", actions=[{"name": "Hurl", "type": "firing", "length": "short",
                                                   "keywords": [{"name": "Throw"}]}])
    assert codes(c.check_mech(mech(TORSO, CHASSIS, thrower))) == ["E-R08"]
    assert c.check_mech(mech(TORSO, CHASSIS, thrower, LEFT)) == []
    # the rifle's Discard side frees a hand too
    dropped = c.check_mech(mech(TORSO, CHASSIS, RIGHT, part("sling", "left_arm", actions=thrower.actions),
                                discarded={"right_arm"}))
    assert dropped == []


def test_e_r08_a_throw_with_no_free_hand_is_not_a_starting_action():
    thrower = part("sling", "right_arm", actions=[{"name": "Hurl", "type": "firing", "length": "short",
                                                   "keywords": [{"name": "Throw"}]}])
    alone = mech(TORSO, CHASSIS, thrower)
    assert "Hurl" not in c.timings(alone)["firing"] and "E-R08" in c.not_performable(alone)["Hurl"]
    assert "Hurl" in c.timings(mech(TORSO, CHASSIS, thrower, LEFT))["firing"]  # at the limit: one free hand


def test_e_r19_a_mech_of_electronic_value_0_lists_no_scan():
    """L646: a unit with EV 0 cannot initiate electronic warfare; L786: Scan is an Electronic Attack."""
    blind = mech(part("shell", "torso", armor=4, electronic=0), CHASSIS, LEFT)
    assert "Scan" not in c.timings(blind)["tactical"] and c.not_performable(blind) == {
        "Scan": "Electronic Value 0: E-R19"}
    seeing = mech(part("eye", "torso", armor=4, electronic=1), CHASSIS, LEFT)  # at the limit: EV 1
    assert "Scan" in c.timings(seeing)["tactical"] and c.not_performable(seeing) == {}


def test_e_r09_two_handed_needs_another_free_hand():
    heavy = part("maul", "right_arm", actions=[{"name": "Overhead", "type": "melee", "length": "medium", "red": 3,
                                                "conditions": ["[Two-Handed]"]}])
    assert codes(c.check_mech(mech(TORSO, CHASSIS, heavy))) == ["E-R09"]
    assert c.check_mech(mech(TORSO, CHASSIS, heavy, LEFT)) == []


def test_e_r10_command_generation_is_a_torso_keyword():
    relay = part("relay", "backpack", keywords=[{"name": "Command Generation", "x": 3}])
    assert codes(c.check_mech(mech(TORSO, CHASSIS, LEFT, relay))) == ["E-R10"]
    hub = part("hub", "torso", keywords=[{"name": "Command Generation", "x": 4}])
    assert c.check_mech(mech(hub, CHASSIS, LEFT)) == [] and c.derived(mech(hub, CHASSIS, LEFT))["commands"][0] == 4


def test_e_r23_non_humanoid_x_must_leave_a_link():
    strain = part("tail", "backpack", actions=[{"name": "Lash", "type": "melee", "length": "short",
                                                "keywords": [{"name": "Non-humanoid", "x": 4}]}])
    assert codes(c.check_mech(mech(TORSO, CHASSIS, LEFT, strain))) == ["E-R23"]  # Link 4 would reach 0
    assert c.check_mech(mech(TORSO, CHASSIS, LEFT, strain, pilot=Pilot(**{**ACE.model_dump(), "max_link": 5}))) == []


def test_e_r24_d13_d14_derived_values_and_starting_tokens():
    stats = c.derived(mech(TORSO, CHASSIS, LEFT, RIGHT, BACK))
    assert stats["dodge"] == (5, "Core 0 + Legs 3 + Claw 2 + Rifle 0 + Pack 0")  # 3 + 2 = 5 (E-T01)
    assert stats["electronic"][0] == 2 and stats["maneuver"] == (3, "Legs") and stats["link"][0] == 4
    assert (stats["ammo"][0], stats["charge"][0], stats["interception"][0]) == (2, 1, 2)


def test_e_r21_e_r22_timings_with_a_starting_action():
    found = c.timings(mech(TORSO, CHASSIS, LEFT, RIGHT, BACK))
    assert found["firing"] == ["Single Shot"] and found["projectile"] == ["Rockets"]
    assert "Punch/Kick" in found["melee"] and found["swift"] == ["Discard", "Charge"]
    assert c.timings(mech(TORSO, CHASSIS, LEFT))["firing"] == []  # no Firing action: no Firing Timing


def test_e_r06_e_r27_one_pilot_id_a_squad():
    issues = c.check_squad([mech(TORSO, CHASSIS, LEFT, RIGHT), mech(TORSO, CHASSIS, LEFT, RIGHT, pilot=TWIN,
                                                                     name="Jackal")], [])
    assert [(i.code, i.path) for i in issues] == [("E-R06", "mechs[1].pilot")] and "ID 07" in issues[0].message


def test_e_r18_command_capacity_against_drones():
    hyena = Drone(key="hyena", name="Hyena", size="medium", movement="ground", movement_range=3, stance="offensive",
                  actions=[{"name": "Burst", "type": "firing", "control": "command", "yellow": 2}], electronic=1)
    one = [mech(TORSO, CHASSIS, LEFT, RIGHT)]
    assert "E-R18" not in codes(c.check_squad(one, [hyena]))
    assert [i.code for i in c.check_squad(one, [hyena, hyena])] == ["E-R18"]


def test_e_r19_nobody_to_scan_is_a_warning():
    blind = part("blind", "torso", electronic=0)
    assert codes(c.check_squad([mech(blind, CHASSIS, LEFT, RIGHT)], [])) == ["E-R19"]
    assert c.check_squad([mech(TORSO, CHASSIS, LEFT, RIGHT)], []) == []


def test_e_r20_a_three_part_mech_is_fragile():
    assert codes(c.check_squad([mech(TORSO, CHASSIS, LEFT)], [])) == ["E-R20"]
    assert c.check_squad([mech(TORSO, CHASSIS, LEFT, RIGHT)], []) == []
