"""MEGA MERCS unit rules, one test per rule ID at the limit and past it (digest section 3), and the cases MM-T07
to MM-T11, MM-T16, MM-T49 and MM-T50."""
import pytest
from pydantic import TypeAdapter, ValidationError

from catalogue.rulesets.base import BuildError
from catalogue.rulesets.megamercs import damage
from catalogue.rulesets.megamercs.rules import validate
from catalogue.rulesets.megamercs.schema import (HARDPOINT_TYPE_LABELS, Chassis, Hardpoint, InfantrySquad, Profile,
                                                 Weapon)
from tests.megamercs.factories import MECHA, TANK, codes, item, make_catalogue, shot, unit


def issues(report, code):
    return [i for i in report.issues if i.code == code]


@pytest.fixture(scope="module")
def cat():
    return make_catalogue(
        item("small", "equipment", size=1, types=["utility"]),
        item("medium-box", "equipment", size=2, types=["utility"]),
        item("big", "equipment", size=4, types=["utility"], on_grid=False),
        item("ram-spike", "weapon", size=1, types=["specialist"], specialist_for=["tank"],
             profiles=[shot(range="melee")]),
        item("pike", "weapon", size=1, types=["melee"], profiles=[shot(range="melee")]),
        item("shell-1", "weapon", size=1, types=["main_gun"], on_grid=False, profiles=[shot()]),
        item("shell-2", "weapon", size=2, types=["main_gun"], on_grid=False, profiles=[shot()]),
    )


# --- hard-points ---------------------------------------------------------------------------------

def test_mm_r01_a_unit_needs_a_chassis(cat):
    assert "MM-R01" in codes(validate(unit(None), cat), "error")
    assert "MM-R01" not in codes(validate(unit("mecha"), cat))


def test_mm_r01_hardpoints_have_a_size_and_types():
    bad = {**MECHA, "hardpoints": [{"key": "x", "size": 0, "types": ["melee"], "location": "torso"}]}
    with pytest.raises(ValidationError, match="hardpoints.0.size"):
        Chassis.model_validate({"key": "m", **bad})
    with pytest.raises(ValidationError, match="types"):
        Chassis.model_validate({"key": "m", **{**MECHA, "hardpoints": [{"key": "x", "size": 1, "types": [],
                                                                      "location": "torso"}]}})


def test_mm_r02_an_item_shares_a_type_with_its_hardpoint(cat):
    assert "MM-R02" not in codes(validate(unit("mecha", ("hmg", "r-arm")), cat))
    [issue] = issues(validate(unit("mecha", ("hmg", "torso")), cat), "MM-R02")
    assert issue.severity == "error" and issue.path == "mounts[0]" and "Light Weapon" in issue.message


def test_mm_r02_a_multi_type_item_fits_either(cat):
    """MM-A24: jump jets are Leg and Utility; either hard-point takes them."""
    assert "MM-R02" not in codes(validate(unit("mecha", ("jets", "legs")), cat))
    assert "MM-R02" not in codes(validate(unit("mecha", ("jets", "torso")), cat))


def test_mm_r03_capacity_at_the_limit(cat):
    """A size-3 hard-point holds 1 + 2."""
    report = validate(unit("mecha", ("small", "torso"), ("medium-box", "torso")), cat)
    assert "MM-R03" not in codes(report)
    assert next(m for m in report.meters if m.key == "hp-torso").used == 3


def test_mm_r03_capacity_exceeded(cat):
    report = validate(unit("mecha", ("medium-box", "torso"), ("medium-box", "torso")), cat)
    [issue] = issues(report, "MM-R03")
    assert issue.severity == "error" and issue.path == "hardpoints.torso" and "size 4 in 3" in issue.message


def test_mm_t07_a_size_4_hardpoint_holds_two_2s_four_1s_or_one_4(cat):
    for load in (["shell-2"] * 2, ["shell-1"] * 4, ["cannon"]):
        report = validate(unit("tank", *[(key, "turret") for key in load]), cat)
        assert "MM-R03" not in codes(report) and next(m for m in report.meters if m.key == "hp-turret").used == 4
    assert "MM-R03" in codes(validate(unit("tank", *[("shell-1", "turret")] * 5), cat), "error")


def test_mm_t50_two_size_1_and_a_size_2_on_a_size_3_hardpoint_is_an_error(cat):
    report = validate(unit("mecha", ("small", "torso"), ("small", "torso"), ("medium-box", "torso")), cat)
    [issue] = issues(report, "MM-R03")
    assert issue.severity == "error" and "size 4 in 3" in issue.message


def test_mm_r04_an_item_larger_than_its_hardpoint(cat):
    report = validate(unit("mecha", ("medium-box", "legs")), cat)
    assert "MM-R04" in codes(report, "error")
    assert "MM-R04" not in codes(validate(unit("mecha", ("mace", "r-arm")), cat))  # size 2 on size 2


def test_mm_t49_a_size_2_mace_on_a_size_1_hardpoint_is_an_error(cat):
    report = validate(unit("mecha", ("mace", "legs")), cat)
    assert "MM-R04" in codes(report, "error") and "MM-R03" in codes(report, "error")


def test_mm_r05_integrated_items_take_no_capacity(cat):
    integrated = make_catalogue(mecha={"integrated": ["fcs"]})
    report = validate(unit("mecha", ("spotter", "torso"), ("radar", "torso"), ("jets", "torso")), integrated)
    assert "MM-R03" not in codes(report)
    assert "FCS +10" in report.stats["accuracy"].explain
    assert report.stats["credits"].value == 400 + 30 + 60 + 40  # MM-A21: in the chassis price


def test_mm_r05_an_integrated_item_the_pack_lacks_is_an_error():
    missing = make_catalogue(mecha={"integrated": ["fcs", "gyro-x"]})
    [issue] = issues(validate(unit("mecha"), missing), "MM-R05")
    assert issue.severity == "error" and issue.path == "chassis" and "'gyro-x'" in issue.message
    assert "MM-R05" not in codes(validate(unit("mecha"), make_catalogue(mecha={"integrated": ["fcs"]})))


def test_mm_r06_a_specialist_item_fits_only_its_unit(cat):
    assert "MM-R06" not in codes(validate(unit("tank", ("ram-spike", "turret")), cat), "error")
    [issue] = issues(validate(unit("mecha", ("ram-spike", "r-arm")), cat), "MM-R06")
    assert issue.severity == "error"
    with pytest.raises(ValidationError, match="MM-R06"):
        Weapon.model_validate({"key": "x", "name": "X", "size": 1, "types": ["specialist"], "profiles": [shot()]})


def test_mm_r07_leg_hardpoints_are_a_mechas_legs():
    Chassis.model_validate({"key": "m", **MECHA})
    legless_tank = {**TANK, "hardpoints": TANK["hardpoints"] + [{"key": "l", "size": 1, "types": ["leg"],
                                                                 "location": "hull"}]}
    with pytest.raises(ValidationError, match="MM-R07"):
        Chassis.model_validate({"key": "t", **legless_tank})


def test_mm_r08_pintle_without_a_commander_is_warned(cat):
    assert "MM-R08" not in codes(validate(unit("tank", ("hmg", "pintle")), cat))
    no_commander = make_catalogue(item("gun-carrier", "chassis", **{
        **TANK, "unit_type": "vtol", "movement_type": "flying_vtol", "actions": ["M", "A", "U"],
        "grids": [{"location": "hull", "type": "track", "hexes": 8, "special": {"crew": 2}}]}))
    [issue] = issues(validate(unit("gun-carrier", ("hmg", "pintle")), no_commander), "MM-R08")
    assert issue.severity == "warning"


def test_mm_r09_a_mecha_chooses_one_ammunition(cat):
    report = validate(unit("mecha", ("autocannon", "r-arm")), cat)
    [issue] = issues(report, "MM-R09")
    assert issue.severity == "error" and "AP, HE" in issue.hint
    chosen = validate(unit("mecha", ("autocannon", "r-arm", "HE")), cat)
    assert "MM-R09" not in codes(chosen) and [p.name for p in chosen.detail.weapons[0].profiles] == ["HE"]


def test_mm_r09_a_tank_keeps_every_ammunition(cat):
    report = validate(unit("tank", ("cannon", "turret")), cat)
    assert "MM-R09" not in codes(report)
    assert [p.name for p in report.detail.weapons[0].profiles] == ["AP", "HE"]
    assert issues(validate(unit("tank", ("cannon", "turret", "AP")), cat), "MM-R09")[0].severity == "info"


def test_mm_r47_the_ammunition_is_one_of_the_weapons(cat):
    [issue] = issues(validate(unit("mecha", ("autocannon", "r-arm", "Canister")), cat), "MM-R47")
    assert issue.severity == "error"


def test_mm_r10_a_linked_weapon_needs_its_partner(cat):
    [issue] = issues(validate(unit("mecha", ("twin-gun", "r-arm")), cat), "MM-R10")
    assert issue.severity == "warning"
    assert "MM-R10" not in codes(validate(unit("mecha", ("twin-gun", "r-arm"), ("twin-gun", "l-arm")), cat))


def test_mm_r11_melee_focus_needs_opposite_arms(cat):
    assert "MM-R11" not in codes(validate(unit("mecha", ("pike", "r-arm"), ("pike", "l-arm")), cat))
    [issue] = issues(validate(unit("mecha", ("pike", "r-arm"), ("pike", "r-arm")), cat), "MM-R11")
    assert issue.severity == "warning"


def test_mm_r12_focus_for_mecha_commander_for_tanks():
    Chassis.model_validate({"key": "t", **TANK})
    with pytest.raises(ValidationError, match="MM-R12"):
        Chassis.model_validate({"key": "m", **{**MECHA, "actions": ["M", "A", "C"]}})
    with pytest.raises(ValidationError, match="MM-R12"):
        Chassis.model_validate({"key": "t", **{**TANK, "actions": ["M", "A", "U"]}})


def test_mm_r44_every_listed_action_symbol_is_accepted():
    Chassis.model_validate({"key": "m", **{**MECHA, "actions": ["M", "A", "U", "A/U", "U/M", "A/M", "W", "F"]}})
    Chassis.model_validate({"key": "t", **{**TANK, "actions": ["M", "A", "U", "A/U", "U/M", "A/M", "W", "C"]}})


def test_mm_r44_action_symbols_come_from_the_list():
    with pytest.raises(ValidationError, match="actions.1"):
        Chassis.model_validate({"key": "m", **{**MECHA, "actions": ["M", "X", "F"]}})


# --- grids ---------------------------------------------------------------------------------------

def test_mm_r15_grid_capacity_at_the_limit(cat):
    """The torso's 7 hexes: the Pilot and the torso hard-point's 3, in the order damage takes them, last first."""
    report = validate(unit("mecha", ("small", "torso"), ("medium-box", "torso")), cat)
    assert "MM-R15" not in codes(report)
    torso = next(g for g in report.detail.grids if g.location == "torso")
    assert [c.kind for c in torso.cells] == ["pilot", "item", "item", "item", "empty", "empty", "empty"]


def test_mm_r15_grid_capacity_exceeded():
    crowded = make_catalogue(item("block", "equipment", size=3, types=["utility"]),
                             mecha={"integrated": ["block", "block"]})
    report = validate(unit("mecha", ("fcs", "torso")), crowded)  # Pilot 1 + 3 + 3 + FCS 1 in 7 hexes
    [issue] = issues(report, "MM-R15")
    assert issue.severity == "error" and issue.path == "grids.torso" and "take 8" in issue.message


def test_mm_r15_off_grid_items_take_no_hexes(cat):
    report = validate(unit("mecha", ("big", "torso")), cat)
    assert "MM-R15" not in codes(report) and "MM-R04" in codes(report)


def test_mm_r29_mm_r30_a_tank_has_crew_and_two_treads():
    Chassis.model_validate({"key": "t", **TANK})
    one_crew = {**TANK, "grids": [{"location": "hull", "type": "track", "hexes": 8, "special": {"crew": 1, "treads": 2}}]}
    with pytest.raises(ValidationError, match="MM-R29"):
        Chassis.model_validate({"key": "t", **one_crew})
    three_treads = {**TANK, "grids": [{"location": "hull", "type": "track", "hexes": 8,
                                       "special": {"crew": 2, "treads": 3}}]}
    with pytest.raises(ValidationError, match="MM-R30"):
        Chassis.model_validate({"key": "t", **three_treads})


def test_mm_r31_a_mecha_has_four_part_grids_a_pilot_and_leg_parts():
    Chassis.model_validate({"key": "m", **MECHA})
    armless = {**MECHA, "grids": [g for g in MECHA["grids"] if g["location"] != "left_arm"]}
    with pytest.raises(ValidationError, match="MM-R31.*L. Arm"):
        Chassis.model_validate({"key": "m", **armless})
    pilotless = {**MECHA, "grids": [g if g["location"] != "torso" else {**g, "special": {}} for g in MECHA["grids"]]}
    with pytest.raises(ValidationError, match="MM-R31: a mecha has one Pilot hex"):
        Chassis.model_validate({"key": "m", **pilotless})


# --- stacking (MM-R21 to MM-R27) ------------------------------------------------------------------

def test_mm_r21_two_equal_bonuses_of_one_source_count_once():
    twins = make_catalogue(item("fcs-b", "equipment", size=1, types=["sensor"],
                                bonuses=[{"stat": "accuracy", "value": 10}]))
    report = validate(unit("mecha", ("fcs", "torso"), ("fcs-b", "torso")), twins)
    assert report.stats["accuracy"].value == "+10" and "Fcs B +10 dropped" in report.stats["accuracy"].explain


def test_mm_t08_two_fcs_plus_5_and_plus_10_give_plus_10(cat):
    report = validate(unit("mecha", ("fcs", "torso"), ("spotter", "torso")), cat)
    assert report.stats["accuracy"].value == "+10" and "Spotter +5 dropped" in report.stats["accuracy"].explain


def test_mm_r22_equal_bonuses_of_two_sources_both_count():
    gifted = make_catalogue(mecha={"bonuses": [{"stat": "accuracy", "value": 10, "source": "passive"}]})
    assert validate(unit("mecha", ("fcs", "torso")), gifted).stats["accuracy"].value == "+20"


def test_mm_t09_an_ability_plus_5_and_an_fcs_plus_10_give_plus_15():
    gifted = make_catalogue(mecha={"bonuses": [{"stat": "accuracy", "value": 5, "source": "passive"}]})
    assert validate(unit("mecha", ("fcs", "torso")), gifted).stats["accuracy"].value == "+15"


def test_mm_r23_armour_and_shield_stack_but_two_armours_do_not():
    thick = make_catalogue(item("thick-plates", "equipment", size=1, types=["utility"], on_grid=False,
                                bonuses=[{"stat": "dr", "value": 3, "source": "armour"}]))
    both = validate(unit("mecha", ("plates", "torso"), ("thick-plates", "torso")), thick)
    assert both.detail.dr["front"] == 3 + 3  # the better armour alone
    shielded = validate(unit("mecha", ("plates", "torso"), ("thick-plates", "torso"), ("shield", "l-arm")), thick)
    assert shielded.detail.dr["front"] == 3 + 3 + 3


def test_mm_t11_armour_and_shield_dr_stack(cat):
    report = validate(unit("mecha", ("plates", "torso"), ("shield", "l-arm")), cat)
    assert report.detail.dr["front"] == 3 + 2 + 3


def test_mm_r24_passive_and_active_stack_highest_of_each():
    cat = make_catalogue(mecha={"bonuses": [{"stat": "dr", "value": 2, "source": "passive"},
                                            {"stat": "dr", "value": 1, "source": "passive"},
                                            {"stat": "dr", "value": 4, "source": "active"}]})
    assert validate(unit("mecha"), cat).detail.dr["front"] == 3 + 2 + 4


def test_mm_t10_passive_shield_and_defence_focus_dr_stack():
    cat = make_catalogue(mecha={"bonuses": [{"stat": "dr", "value": 3, "source": "passive"},
                                            {"stat": "dr", "value": 2, "source": "active"}]})
    assert validate(unit("mecha"), cat).detail.dr["front"] == 3 + 3 + 2


def test_mm_r25_lock_bonuses_stack_with_passive():
    cat = make_catalogue(item("lock-computer", "equipment", size=1, types=["sensor"],
                              bonuses=[{"stat": "accuracy", "value": 5, "source": "lock"}]))
    assert validate(unit("mecha", ("fcs", "torso"), ("lock-computer", "torso")), cat).stats["accuracy"].value == "+15"


def test_mm_r25_two_lock_bonuses_give_the_higher():
    cat = make_catalogue(*[item(f"lock-{v}", "equipment", size=1, types=["sensor"],
                                bonuses=[{"stat": "accuracy", "value": v, "source": "lock"}]) for v in (5, 8)])
    assert validate(unit("mecha", ("lock-5", "torso"), ("lock-8", "torso")), cat).stats["accuracy"].value == "+8"


def test_mm_r26_the_worst_negative_is_combined_with_the_best_positive():
    cat = make_catalogue(item("heavy-plates", "equipment", size=1, types=["utility"],
                              bonuses=[{"stat": "agility", "value": -10}]),
                         item("bulky", "equipment", size=1, types=["utility"],
                              bonuses=[{"stat": "agility", "value": -5}]),
                         item("gyro", "equipment", size=1, types=["utility"], bonuses=[{"stat": "agility", "value": 5}]))
    report = validate(unit("mecha", ("heavy-plates", "torso"), ("bulky", "torso"), ("gyro", "torso")), cat)
    assert report.stats["agility"].value == 30 + 5 - 10


def test_mm_r26_penalties_of_two_sources_add():
    cat = make_catalogue(item("heavy-plates", "equipment", size=1, types=["utility"],
                              bonuses=[{"stat": "agility", "value": -10}]),
                         mecha={"bonuses": [{"stat": "agility", "value": -5, "source": "passive"}]})
    assert validate(unit("mecha", ("heavy-plates", "torso")), cat).stats["agility"].value == 30 - 10 - 5


def test_mm_r28_each_weapon_fires_once_a_turn(cat):
    """MM-T04: pool A A with two weapons fires each once; with one weapon only once."""
    assert validate(unit("mecha", ("hmg", "r-arm")), cat).stats["attacks"].value == 1
    assert validate(unit("mecha", ("hmg", "r-arm"), ("hmg", "l-arm")), cat).stats["attacks"].value == 2
    assert validate(unit("mecha", ("hmg", "r-arm"), ("hmg", "l-arm"), ("pike", "l-arm")), cat).stats["attacks"].value == 2


def test_mm_r28_the_commander_fires_the_pintle(cat):
    report = validate(unit("tank", ("cannon", "turret"), ("hmg", "pintle")), cat)
    assert report.stats["attacks"].value == 2 and "Pintle" in report.stats["attacks"].explain


# --- capabilities ----------------------------------------------------------------------------------

def test_mm_r39_a_beacon_cancels_stealth(cat):
    assert "MM-R39" not in codes(validate(unit("mecha", ("cloak", "torso")), cat))
    [issue] = issues(validate(unit("mecha", ("cloak", "torso"), ("beacon", "torso")), cat), "MM-R39")
    assert issue.severity == "warning" and "Optical stealth" in issue.message


def test_mm_r40_locks_come_from_equipment(cat):
    assert validate(unit("mecha"), cat).stats["locks"].value == "Visual"
    assert validate(unit("mecha", ("radar", "torso")), cat).stats["locks"].value == "Visual, Sensor"


def test_mm_r20_credits_are_the_chassis_and_every_item(cat):
    report = validate(unit("mecha", ("hmg", "r-arm"), ("mace", "l-arm")), cat)
    assert report.stats["credits"].value == 400 + 50 + 75


# --- pack data rules ---------------------------------------------------------------------------------

def test_mm_r17_a_squad_is_at_most_six():
    squad = dict(key="s", name="S", blast_resistance=40, cqc=50, movement=2, vision=6, actions=["M", "A"],
                 weapons=[{"weapon": "rifle", "count": 6}])
    InfantrySquad.model_validate({**squad, "members": 6})
    with pytest.raises(ValidationError, match="members"):
        InfantrySquad.model_validate({**squad, "members": 7})


def test_mm_r18_ish_at_least_one():
    squad = dict(key="s", name="S", members=4, blast_resistance=40, cqc=50, movement=2, vision=6,
                 actions=["M", "A"], weapons=[{"weapon": "rifle", "count": 4}])
    InfantrySquad.model_validate({**squad, "ish": 1})
    with pytest.raises(ValidationError, match="ish"):
        InfantrySquad.model_validate({**squad, "ish": 0})


def test_mm_r33_several_attack_types_are_named():
    with pytest.raises(ValidationError, match="MM-R33"):
        Weapon.model_validate({"key": "x", "name": "X", "size": 1, "types": ["melee"],
                               "profiles": [shot(range="melee"), shot(range="melee")]})
    with pytest.raises(ValidationError, match="MM-R33"):
        Weapon.model_validate({"key": "x", "name": "X", "size": 1, "types": ["melee"],
                               "profiles": [shot(name="Bash", range="melee"), shot(name="Bash", range="melee")]})


def test_mm_r33_one_unnamed_or_several_named_attack_types_pass():
    shape = {"key": "x", "name": "X", "size": 1, "types": ["melee"]}
    assert Weapon.model_validate({**shape, "profiles": [shot(range="melee")]})
    six = [shot(name=f"Swing {i}", range="melee") for i in range(6)]
    assert len(Weapon.model_validate({**shape, "profiles": six}).profiles) == 6


def test_mm_r34_indirect_minimum_range_within_range():
    TypeAdapter(Profile).validate_python(shot(range=8, attributes=[{"name": "indirect_fire", "x": 8}]))
    with pytest.raises(ValidationError, match="MM-R34"):
        TypeAdapter(Profile).validate_python(shot(range=8, attributes=[{"name": "indirect_fire", "x": 9}]))


def test_mm_r35_small_arms_have_a_percentage_not_damage():
    TypeAdapter(Profile).validate_python(shot(damage=0, damage_type="small_arms"))
    with pytest.raises(ValidationError, match="MM-R35"):
        TypeAdapter(Profile).validate_python(shot(damage=2, damage_type="small_arms"))


def test_unknown_items_and_hardpoints_are_refused_naming_the_field(cat):
    with pytest.raises(BuildError) as error:
        validate(unit("mecha", ("laser-sword", "r-arm"), ("hmg", "tail")), cat)
    paths = {p["path"] for p in error.value.problems}
    assert paths == {"mounts[0].item", "mounts[1].hardpoint"}


def test_mm_r36_a_squad_lists_each_weapon_type_with_its_count():
    squad = InfantrySquad.model_validate(dict(key="s", name="S", members=5, blast_resistance=40, cqc=50, movement=2,
                                              vision=6, actions=["M", "A"],
                                              weapons=[{"weapon": "rifle", "count": 4}, {"weapon": "rpg", "count": 1}]))
    assert [(w.weapon, w.count) for w in squad.weapons] == [("rifle", 4), ("rpg", 1)]


def test_mm_r36_one_weapon_type_at_two_targets_is_illegal():
    assert damage.split_fire([("rifle", "A"), ("rifle", "A"), ("rpg", "B")]) == []
    assert damage.split_fire([("rifle", "A"), ("rifle", "B"), ("rpg", "B")]) == ["rifle"]


def test_mm_t16_four_rifles_and_an_rpg_may_split_by_type_not_within_one():
    rifles_at_a = [("rifle", "A")] * 4
    assert damage.split_fire(rifles_at_a + [("rpg", "B")]) == []
    assert damage.split_fire([("rifle", "A")] * 2 + [("rifle", "B")] * 2 + [("rpg", "B")]) == ["rifle"]


def test_mm_r37_an_evading_unit_has_an_agility():
    Chassis.model_validate({"key": "m", **MECHA})
    with pytest.raises(ValidationError, match="MM-R37"):
        Chassis.model_validate({"key": "m", **{**MECHA, "agility": None}})


def test_mm_r38_a_flying_unit_is_noted(cat):
    flyer = make_catalogue(item("gunship", "chassis", **{
        **TANK, "unit_type": "vtol", "movement_type": "flying_vtol", "actions": ["M", "A", "U"],
        "grids": [{"location": "hull", "type": "radial", "hexes": 7, "special": {"crew": 2}}]}))
    assert issues(validate(unit("gunship"), flyer), "MM-R38")[0].severity == "info"
    assert "MM-R38" not in codes(validate(unit("tank"), cat))


def test_mm_r41_limited_ammo_is_one_to_twenty_uses():
    shape = {"key": "x", "name": "X", "size": 1, "types": ["launcher"], "profiles": [shot()]}
    assert Weapon.model_validate({**shape, "limited_ammo": 20}).limited_ammo == 20
    with pytest.raises(ValidationError, match="limited_ammo"):
        Weapon.model_validate({**shape, "limited_ammo": 0})


def test_mm_r42_transports_are_played_at_the_table():
    """The rulebook gives no transport capacity (MM-A22): a company cannot record embarked squads."""
    from catalogue.rulesets.megamercs.schema import CompanyBuild

    with pytest.raises(ValidationError, match="embarked"):
        CompanyBuild.model_validate({"pack": "x@1.0.0", "embarked": [{"squad": "a", "in": 0}]})


def test_mm_r43_every_listed_type_is_accepted():
    assert set(HARDPOINT_TYPE_LABELS.values()) == {
        "Light Weapon", "Medium Weapon", "Main Gun", "Artillery Weapon", "Launcher", "Mecha Scale Melee Weapon",
        "Mecha Scale Thrown Item", "Applique Armour", "Electronic Support Equipment", "Sensor Equipment",
        "Utility Equipment", "Leg Hardpoint", "Drone Controller", "Specialist Item"}
    for kind in HARDPOINT_TYPE_LABELS:
        assert Hardpoint.model_validate({"key": "h", "size": 1, "types": [kind], "location": "torso"}).types == [kind]


def test_mm_r43_types_come_from_the_list():
    with pytest.raises(ValidationError, match="types.0"):
        Weapon.model_validate({"key": "x", "name": "X", "size": 1, "types": ["laser_cannon"], "profiles": [shot()]})


def test_mm_r46_every_item_says_whether_it_needs_power_and_has_sensitive_electronics(cat):
    for key in ("hmg", "radar", "shield"):
        assert cat.items[key].requires_power is False and cat.items[key].sensitive_electronics is False
    powered = make_catalogue(item("jammer", "equipment", size=1, types=["electronic_support"], requires_power=True,
                                  sensitive_electronics=True, attributes=[{"name": "ecm"}]))
    assert powered.items["jammer"].requires_power and powered.items["jammer"].sensitive_electronics


def test_megamercs_linked_pairs(cat):
    pair = make_catalogue(item("twin-gun-b", "weapon", size=1, types=["light_weapon"], profiles=[shot(attributes=[{"name": "linked"}])]))
    document = unit("mecha", ("twin-gun", "r-arm"), ("twin-gun-b", "l-arm"))  # same types, different names
    assert "MM-R10" in codes(validate(document, pair), "warning")
    assert "MM-R10" not in codes(validate({**document, "house_rules": {"linked-pairs": "type"}}, pair), "warning")


def test_megamercs_grid_placement(cat):
    document = unit("mecha", ("hmg", "r-arm"))
    by_location = {g.location: g for g in validate(document, cat).detail.grids}
    assert [c.label for c in by_location["right_arm"].cells][0] == "HMG"
    main = {g.location: g for g in validate({**document, "house_rules": {"grid-placement": "main"}}, cat).detail.grids}
    assert "HMG" in [c.label for c in main["torso"].cells] and main["right_arm"].cells[0].kind == "empty"


def test_megamercs_integrated_cost():
    integrated = make_catalogue(mecha={"integrated": ["fcs"]})
    assert validate(unit("mecha"), integrated).stats["credits"].value == 400
    added = validate(unit("mecha", house_rules={"integrated-cost": "added"}), integrated)
    assert added.stats["credits"].value == 400 + 60


# --- what cannot be fitted counts for nothing (MM-R02, MM-R04, MM-R06) --------------------------------

def test_mm_r02_a_drone_hive_on_a_hardpoint_it_does_not_fit_controls_no_drone(cat):
    catalogue = make_catalogue(item("hive", "equipment", size=1, types=["drone_controller", "utility"], docking=2))
    misplaced = validate(unit("mecha", ("hive", "r-arm")), catalogue)
    assert "MM-R02" in codes(misplaced) and "drones" not in misplaced.stats
    assert misplaced.detail.not_counted == ["Hive not counted: MM-R02"] and misplaced.detail.docking == 0
    assert misplaced.stats["credits"].value == validate(unit("mecha", ("hive", "torso")), catalogue).stats["credits"].value


def test_mm_r02_a_drone_hive_where_it_fits_controls_a_drone(cat):
    hive = item("hive", "equipment", size=1, types=["drone_controller", "utility"], docking=2)
    fitted = validate(unit("mecha", ("hive", "torso")), make_catalogue(hive))
    assert fitted.stats["drones"].value == 1 and fitted.detail.not_counted == [] and fitted.detail.docking == 2


@pytest.mark.parametrize("hardpoint, movement", [("legs", 5 + 2), ("torso", 5)])
def test_mm_r07_skates_add_movement_only_in_a_leg_hardpoint(hardpoint, movement):
    """L1154: skate systems are leg equipment; in a torso (MM-R02 by way of MM-R07) they move nothing."""
    skates = item("skates", "equipment", size=1, types=["leg"], bonuses=[{"stat": "movement", "value": 2}])
    report = validate(unit("mecha", ("skates", hardpoint)), make_catalogue(skates))
    assert report.stats["movement"].value == movement
    assert ("MM-R02" in codes(report, "error")) is (hardpoint == "torso")
    assert report.detail.not_counted == ([] if hardpoint == "legs" else ["Skates not counted: MM-R02"])
