"""Ember's rules that live in the data: each card's fields keep them, and the format rules the rulebook lacks are
marked unsourced (E-X). One test per rule ID."""
import pytest
from pydantic import ValidationError

from catalogue.rulesets import ember
from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.ember import construction as c
from catalogue.rulesets.ember.schema import Drone, MechBuild, PartCard, Pilot, Projectile, SquadBuild
from tests.ember.factories import ACE, CHASSIS, LEFT, TORSO, mech

DRONE = {"key": "mite", "name": "Mite", "size": "small", "movement": "ground", "movement_range": 3,
         "stance": "defensive"}


def test_e_r11_a_drone_carries_parts_as_load_and_a_pack_naming_no_part_is_caught():
    """L837: a Drone's card may carry Parts as Load (what the Drone gains from them: test_ember_rules)."""
    carrier = Drone.model_validate({**DRONE, "load": ["core"]})
    assert carrier.load == ["core"]
    core = PartCard(key="core", name="Core", slot="torso")
    load, = [link for link in ember.RULESET.pack_links if link.category == "drone"]
    held = Catalogue("ember", "t@1.0.0", {"mite": carrier, "core": core}, {"mite": "drone", "core": "part"}, "T")
    assert load.dangling(held) == []
    lost = Catalogue("ember", "t@1.0.0", {"mite": carrier}, {"mite": "drone"}, "T")
    assert [(key, where) for key, where, _ in load.dangling(lost)] == [("mite", "load[0]")]
    with pytest.raises(ValidationError, match="load"):
        Drone.model_validate({**DRONE, "load": ["x"] * 7})


def test_e_r12_a_mech_deploys_offensive_unless_told():
    assert MechBuild(pack="x@1.0.0").stance == "offensive"
    with pytest.raises(ValidationError, match="stance"):
        MechBuild(pack="x@1.0.0", stance="shutdown")


def test_e_r13_a_drones_stance_is_its_cards():
    assert Drone.model_validate(DRONE).stance == "defensive"
    with pytest.raises(ValidationError, match="stance"):
        SquadBuild.model_validate({"pack": "x@1.0.0", "drones": [{"drone": "mite", "stance": "offensive"}]})


def test_e_r15_e_r16_sizes_and_movement_types():
    with pytest.raises(ValidationError, match="size"):
        Drone.model_validate({**DRONE, "size": "huge"})
    with pytest.raises(ValidationError, match="movement"):
        Drone.model_validate({**DRONE, "movement": "swimming"})


def test_e_r17_identical_drones_by_count():
    squad = SquadBuild.model_validate({"pack": "x@1.0.0", "drones": [{"drone": "mite", "count": 2}]})
    assert squad.drones[0].count == 2


def test_e_r26_a_pilot_keeps_faction_and_squadron():
    pilot = Pilot.model_validate({"key": "p", "name": "P", "id_number": "1", "faction": "GOF", "squadron": "Choir",
                                  "max_link": 4, "initiative": {t: 3 for t in ("swift", "melee", "projectile",
                                                                               "firing", "movement", "tactical")}})
    assert (pilot.faction, pilot.squadron) == ("GOF", "Choir")
    with pytest.raises(ValidationError, match="faction"):
        Pilot.model_validate({**pilot.model_dump(), "faction": "NATO"})


def test_e_r27_pilot_ids_are_checked_squad_by_squad():
    """Two players may each field the same Pilot card; within one squad it is E-R06."""
    mine, theirs = [mech(TORSO, CHASSIS, LEFT, name="A")], [mech(TORSO, CHASSIS, LEFT, name="B")]
    assert "E-R06" not in [i.code for i in c.check_squad(mine, []) + c.check_squad(theirs, [])]
    assert "E-R06" in [i.code for i in c.check_squad(mine + theirs, [])]


def test_e_r28_the_black_die_reads_a_destroyed_part_as_the_torso():
    from catalogue.rulesets.ember import dice
    odds = dice.target_part({"torso", "chassis"})  # the arms and Backpack gone
    assert odds["torso"] == 4 * odds["chassis"]


@pytest.mark.parametrize("field", ["weight", "hardpoints", "series"])
def test_e_x02_e_x03_e_x04_no_weight_hardpoints_or_series_on_a_part(field):
    with pytest.raises(ValidationError, match=field):
        PartCard.model_validate({"key": "p", "name": "P", "slot": "torso", field: 1})


def test_e_x06_any_pilot_flies_any_mech():
    foreign = Pilot.model_validate({**ACE.model_dump(), "faction": "GOF"})
    assert c.check_mech(mech(TORSO, CHASSIS, LEFT, pilot=foreign)) == []  # a UN-less Part set takes a GOF Pilot


def test_e_x08_parts_and_drones_may_repeat_across_a_squad():
    other = Pilot(**{**ACE.model_dump(), "id_number": "08"})
    twins = [mech(TORSO, CHASSIS, LEFT, name="A"), mech(TORSO, CHASSIS, LEFT, name="B", pilot=other)]
    assert {i.code for i in c.check_squad(twins, [])} == {"E-R20"}  # only the three-Part warning


def test_e_x09_missions_are_left_to_the_table():
    with pytest.raises(ValidationError, match="mission"):
        SquadBuild.model_validate({"pack": "x@1.0.0", "mission": "Hold the Ridge"})


def test_projectile_cards_keep_their_missile_group():
    assert Projectile.model_validate({"key": "s", "name": "S", "kind": "projectile", "missile_group": 3}).missile_group == 3
