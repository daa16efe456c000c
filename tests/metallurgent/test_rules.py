"""METALLURGENT Anvil rules, one pass-at-the-limit and one fail-past-it test per rule ID (digest 3.1-3.8)."""
import pytest

from catalogue.rulesets.base import BuildError
from catalogue.rulesets.metallurgent.rules import validate
from tests.metallurgent.factories import anvil, codes, equipment, make_catalogue, part, weapon


def issues(report, code):
    return [i for i in report.issues if i.code == code]


def test_base_anvil_is_legal():
    report = validate(anvil(), make_catalogue())
    assert report.legal, report.issues
    assert report.issues == []


# --- 3.1 composition ---------------------------------------------------------------------------

@pytest.mark.parametrize("slot", ["core", "mobility_base", "left_arm", "right_arm", "generator", "electronics", "fcs"])
def test_m_r01_missing_component(slot):
    report = validate(anvil(**{slot: None}), make_catalogue())
    [issue] = issues(report, "M-R01")
    assert issue.path == slot and issue.severity == "error"
    assert not report.legal
    assert issue.hint == {"electronics": "Pick an Electronics.", "fcs": "Pick a Fire Control System."}.get(
        slot, issue.hint) and " a E" not in issue.hint


def test_m_r01_all_components_and_fcs_present():
    assert "M-R01" not in codes(validate(anvil(), make_catalogue()))


def test_m_r02_wrong_category_in_slot_is_unreadable():
    with pytest.raises(BuildError) as raised:
        validate(anvil(left_arm="core"), make_catalogue())
    assert "M-R02" in str(raised.value)


def test_m_r02_weapon_arm_and_standard_arm_may_mix():
    report = validate(anvil(left_arm="gun-arm"), make_catalogue())
    assert report.legal, report.issues


def test_m_r05_twelve_gear_at_the_limit():
    cat = make_catalogue(*(equipment(f"tank-{i}", "fuel_tank", load=0) for i in range(2)),
                         *(weapon(f"w{i}", c, load=0) for i, c in enumerate(["primary", "primary", "secondary",
                                                                             "secondary", "tertiary", "tertiary"])),
                         *(equipment(f"rad-{i}", "radiator", load=0) for i in range(2)),
                         *(equipment(f"apu-{i}", "apu", load=0) for i in range(2)),
                         part("big-core", "core", hardpoints=8), part("big-arm", "arm", hardpoints=2))
    gear = ([(f"w{i}", "core") for i in range(6)] + [("tank-0", "core"), ("tank-1", "core")]
            + [("rad-0", "left_arm"), ("rad-1", "left_arm"), ("apu-0", "right_arm"), ("apu-1", "right_arm")])
    report = validate(anvil(gear, core="big-core", left_arm="big-arm", right_arm="big-arm"), cat)
    assert len(gear) == 12
    assert "M-R05" not in codes(report)
    assert report.legal, report.issues


def test_m_r05_thirteen_gear_exceeded():
    cat = make_catalogue(equipment("tank", "fuel_tank", load=0), part("big-core", "core", hardpoints=12))
    report = validate(anvil([("tank", "core")] * 13, core="big-core"), cat)
    [issue] = issues(report, "M-R05")
    assert "13 pieces of Gear" in issue.message and "at most 12" in issue.message


def test_m_r07_disabled_part_warns():
    document = anvil()
    document["condition"] = {"left_arm": "disabled"}
    [issue] = issues(validate(document, make_catalogue()), "M-R07")
    assert issue.severity == "warning" and issue.path == "left_arm"


def test_m_r07_damaged_part_is_fine():
    document = anvil()
    document["condition"] = {"left_arm": "damaged"}
    assert "M-R07" not in codes(validate(document, make_catalogue()))


# --- 3.2 hardpoints and mounting ----------------------------------------------------------------

def test_m_r10_gear_on_weapon_arm():
    cat = make_catalogue(weapon("rifle", "secondary"))
    report = validate(anvil([("rifle", "left_arm")], left_arm="gun-arm"), cat)
    [issue] = issues(report, "M-R10")
    assert issue.path == "gear[0]" and "Weapon Arm" in issue.message


def test_m_r10_gear_on_missing_arm():
    cat = make_catalogue(weapon("rifle", "secondary"))
    report = validate(anvil([("rifle", "left_arm")], left_arm=None), cat)
    assert issues(report, "M-R10")


def test_m_r10_gear_on_standard_arm_and_core():
    cat = make_catalogue(weapon("rifle", "secondary"), weapon("gun", "tertiary"))
    report = validate(anvil([("rifle", "left_arm"), ("gun", "core")]), cat)
    assert "M-R10" not in codes(report)


def test_m_r11_hardpoints_filled_to_the_limit():
    cat = make_catalogue(weapon("long", "secondary", size=2, load=1), weapon("pistol", "tertiary", size=1, load=1))
    report = validate(anvil([("long", "core"), ("pistol", "core")]), cat)  # Core has 3 Hardpoints
    assert "M-R11" not in codes(report)
    assert {m.key: m.used for m in report.meters}["core_hardpoints"] == 3


def test_m_r11_hardpoints_exceeded():
    cat = make_catalogue(weapon("long", "secondary", size=2, load=1), weapon("pistol", "tertiary", size=1, load=1))
    report = validate(anvil([("long", "core"), ("pistol", "core"), ("pistol", "core")]), cat)
    [issue] = issues(report, "M-R11")
    assert issue.path == "core" and "Size 4 on 3 Hardpoints" in issue.message


def test_m_r12_gear_cannot_be_split():
    cat = make_catalogue(weapon("cannon", "secondary", size=3, load=2))
    report = validate(anvil([("cannon", "left_arm")]), cat)  # arm has 2 Hardpoints
    [issue] = issues(report, "M-R12")
    assert issue.path == "gear[0]" and "may not be split" in issue.message


def test_m_r12_gear_as_big_as_the_component_fits():
    cat = make_catalogue(weapon("cannon", "secondary", size=3, load=2))
    assert "M-R12" not in codes(validate(anvil([("cannon", "core")]), cat))


def test_m_r14_arm_strength_at_the_limit():
    cat = make_catalogue(weapon("heavy", "secondary", load=6), weapon("light", "tertiary", load=4))
    report = validate(anvil([("heavy", "right_arm"), ("light", "right_arm")]), cat)  # 10 ST on Strength 10
    assert "M-R14" not in codes(report)


def test_m_r14_arm_strength_exceeded():
    cat = make_catalogue(weapon("heavy", "secondary", load=6), weapon("light", "tertiary", load=5))
    report = validate(anvil([("heavy", "right_arm"), ("light", "right_arm")]), cat)
    [issue] = issues(report, "M-R14")
    assert issue.path == "right_arm"
    assert issue.message == "Right Arm carries 11 ST of Gear; its Strength is 10."
    assert "1 ST" in issue.hint


def test_m_r15_shield_on_core():
    cat = make_catalogue(equipment("buckler", "shield"))
    [issue] = issues(validate(anvil([("buckler", "core")]), cat), "M-R15")
    assert issue.severity == "error" and "Shields mount only on a Standard Arm" in issue.message


def test_m_r15_shield_on_standard_arm():
    cat = make_catalogue(equipment("buckler", "shield"))
    assert "M-R15" not in codes(validate(anvil([("buckler", "left_arm")]), cat))


def test_m_r15_core_only_gear_on_arm():
    cat = make_catalogue(equipment("mast", "radar", mount="core"))
    [issue] = issues(validate(anvil([("mast", "left_arm")]), cat), "M-R15")
    assert issue.severity == "error"


def test_m_r15_melee_weapon_on_core_warns():
    cat = make_catalogue(weapon("blade", "primary", category="melee", magazine=None, reserve=0))
    [issue] = issues(validate(anvil([("blade", "core")]), cat), "M-R15")
    assert issue.severity == "warning"


def test_m_r16_arcs_by_mount_and_tracks_widen_them():
    cat = make_catalogue(weapon("rifle", "primary"), part("treads", "biped", chassis="tracks"))
    gear = [("rifle", "core"), ("rifle", "left_arm")]
    report = validate(anvil(gear), cat)
    assert report.detail.arcs == {"gear[0]": ["N"], "gear[1]": ["N", "RL", "FL"]}
    tracked = validate(anvil(gear, mobility_base="treads"), cat)
    assert tracked.detail.arcs["gear[0]"] == ["N", "FR", "FL"]
    assert tracked.detail.arcs["gear[1]"] == ["N", "FR", "A", "RL", "FL"]



# --- 3.3 gear counts ----------------------------------------------------------------------------

def test_m_r20_two_primaries_at_the_limit():
    cat = make_catalogue(weapon("rifle", "primary"))
    assert "M-R20" not in codes(validate(anvil([("rifle", "core"), ("rifle", "core")]), cat))


def test_m_r20_three_primaries_exceeded():
    cat = make_catalogue(weapon("rifle", "primary"))
    report = validate(anvil([("rifle", "core")] * 3), cat)
    [issue] = issues(report, "M-R20")
    assert issue.path == "gear[2]"


def test_m_r17_weapon_arm_counts_as_primary():
    cat = make_catalogue(weapon("rifle", "primary"))
    report = validate(anvil([("rifle", "core"), ("rifle", "right_arm")], left_arm="gun-arm"), cat)
    [issue] = issues(report, "M-R20")
    assert "Weapon Arm's weapon counts as Primary" in issue.message


def test_m_r17_weapon_arm_and_one_primary_at_the_limit():
    cat = make_catalogue(weapon("rifle", "primary"))
    assert "M-R20" not in codes(validate(anvil([("rifle", "core")], left_arm="gun-arm"), cat))


@pytest.mark.parametrize("code,weapon_class", [("M-R21", "secondary"), ("M-R22", "tertiary")])
def test_m_r21_m_r22_class_limits(code, weapon_class):
    cat = make_catalogue(weapon("gun", weapon_class, load=1))
    assert code not in codes(validate(anvil([("gun", "core")] * 2), cat))
    assert code in codes(validate(anvil([("gun", "core")] * 3), cat))


def test_m_r21_three_secondaries_exceeded():
    cat = make_catalogue(weapon("gun", "secondary", load=1))
    assert issues(validate(anvil([("gun", "core")] * 3), cat), "M-R21")


def test_m_r22_three_tertiaries_exceeded():
    cat = make_catalogue(weapon("gun", "tertiary", load=1))
    assert issues(validate(anvil([("gun", "core")] * 3), cat), "M-R22")


def _equipment_build(kinds):
    items = [equipment(f"e{i}", kind, load=0) for i, kind in enumerate(kinds)]
    cat = make_catalogue(*items, part("big-core", "core", hardpoints=12))
    return validate(anvil([(f"e{i}", "core") for i in range(len(kinds))], core="big-core"), cat)


def test_m_r23_six_equipment_at_the_limit():
    report = _equipment_build(["radio", "radio", "fuel_tank", "fuel_tank", "apu", "apu"])
    assert "M-R23" not in codes(report)


def test_m_r23_seven_equipment_exceeded():
    report = _equipment_build(["radio", "radio", "fuel_tank", "fuel_tank", "apu", "apu", "radiator"])
    [issue] = issues(report, "M-R23")
    assert issue.path == "gear[6]"


def test_m_r24_two_of_a_type_at_the_limit():
    assert "M-R24" not in codes(_equipment_build(["radiator", "radiator"]))


def test_m_r24_three_radiators_exceeded():
    [issue] = issues(_equipment_build(["radiator", "radiator", "radiator"]), "M-R24")
    assert "whatever their names" in issue.message and issue.path == "gear[2]"


def test_m_r24_weapons_have_no_same_type_limit():
    cat = make_catalogue(weapon("a", "primary"), weapon("b", "secondary"), weapon("c", "tertiary"))
    report = validate(anvil([("a", "core"), ("b", "core"), ("c", "core")]), cat)
    assert "M-R24" not in codes(report)


def test_m_r25_radars_of_different_subtypes_share_a_type():
    items = [equipment("r1", "radar", subtype="tracking", en_drain=0),
             equipment("r2", "radar", subtype="spotting", en_drain=0),
             equipment("r3", "radar", subtype="ewacs", en_drain=0)]
    cat = make_catalogue(*items)
    assert "M-R25" not in codes(validate(anvil([("r1", "core"), ("r2", "core")]), cat))
    [issue] = issues(validate(anvil([("r1", "core"), ("r2", "core"), ("r3", "core")]), cat), "M-R25")
    assert "tracking" in issue.message and "ewacs" in issue.message


# --- 3.4 load -----------------------------------------------------------------------------------

def _ballast(load):
    return make_catalogue(equipment("ballast", "fuel_tank", load=load))


def test_m_r32_load_at_the_top_breakpoint():
    report = validate(anvil([("ballast", "core")]), _ballast(15))  # 17 + 15 = 32
    assert report.stats["carried_load"].value == 32
    assert "M-R32" not in codes(report)


def test_m_r32_overloaded():
    report = validate(anvil([("ballast", "core")]), _ballast(16))
    [issue] = issues(report, "M-R32")
    assert issue.path == "mobility_base"
    assert "Carried Load 33 ST" in issue.message and "32 ST" in issue.message and "may not deploy" in issue.message
    assert report.stats["breakpoint"].value == "Overloaded"


def test_m_r30_mobility_base_load_excluded_from_carried_load():
    report = validate(anvil(), make_catalogue())
    assert report.stats["carried_load"].value == 17
    assert report.stats["gross_weight"].value == 37  # M-R33: plus the Mobility Base's 20


# --- 3.5 energy ---------------------------------------------------------------------------------

def test_m_r41_en_output_exactly_zero_is_legal():
    cat = make_catalogue(part("weak-gen", "gas-gen", en_output=6))  # drains: 5 Components + FCS = 6
    report = validate(anvil(generator="weak-gen"), cat)
    assert report.stats["en_output"].value == 0
    assert "M-R41" not in codes(report)


def test_m_r41_component_drain_exceeds_output():
    cat = make_catalogue(part("weak-gen", "gas-gen", en_output=5))
    [issue] = issues(validate(anvil(generator="weak-gen"), cat), "M-R41")
    assert issue.severity == "error" and "EN Output after Drain is -1" in issue.message


def test_m_r41_active_drain_gear_exceeds_output():
    cat = make_catalogue(equipment("hungry", "jammer", en_drain=7))
    report = validate(anvil([("hungry", "core")]), cat)
    [issue] = issues(report, "M-R41")
    assert issue.severity == "error" and "start active" in issue.message


def test_m_r41_idle_drain_gear_only_warns():
    cat = make_catalogue(equipment("hungry", "jammer", en_drain=7))
    document = anvil([("hungry", "core")])
    document["gear"][0]["active"] = False
    [issue] = issues(validate(document, cat), "M-R41")
    assert issue.severity == "warning"


def test_m_r42_offset_to_exactly_zero():
    cat = make_catalogue(equipment("array", "lca", en_offset=20))
    report = validate(anvil([("array", "core")]), cat)
    assert report.stats["en_capacity"].value == 0
    assert "M-R42" not in {i.code for i in report.errors}


def test_m_r42_offset_below_zero():
    cat = make_catalogue(equipment("array", "lca", en_offset=21))
    [issue] = [i for i in validate(anvil([("array", "core")]), cat).errors if i.code == "M-R42"]
    assert "EN Capacity after Offset is -1" in issue.message


def test_m_r44_cost_equal_to_capacity_is_usable():
    cat = make_catalogue(weapon("lance", "primary", en_cost=20))
    assert "M-R44" not in codes(validate(anvil([("lance", "core")]), cat))


def test_m_r44_cost_above_capacity_warns():
    cat = make_catalogue(weapon("lance", "primary", en_cost=21))
    [issue] = issues(validate(anvil([("lance", "core")]), cat), "M-R44")
    assert issue.severity == "warning" and issue.path == "gear[0]"


# --- 3.6 heat -----------------------------------------------------------------------------------

def test_m_r50_heat_equal_to_tolerance():
    cat = make_catalogue(weapon("hot", "primary", heat=20))
    assert "M-R50" not in codes(validate(anvil([("hot", "core")]), cat))


def test_m_r50_single_activation_overheats():
    cat = make_catalogue(weapon("hot", "primary", heat=21))
    [issue] = issues(validate(anvil([("hot", "core")]), cat), "M-R50")
    assert issue.severity == "warning"


def test_m_r51_passive_heat_within_gas_dissipation():
    # Gas sheds 10 a Turn (temperate): 10 Heat a Turn never accumulates.
    cat = make_catalogue(equipment("lamp", "jammer", en_drain=0, heat=10))
    report = validate(anvil([("lamp", "core")]), cat)
    assert "M-R51" not in codes(report)


def test_m_r51_passive_heat_accumulates_past_tolerance():
    cat = make_catalogue(equipment("lamp", "jammer", en_drain=0, heat=11), part("fragile", "gas-gen", heat_tolerance=10))
    [issue] = issues(validate(anvil([("lamp", "core")], generator="fragile"), cat), "M-R51")
    assert issue.path == "generator"


def test_m_r51_liquid_cooling_settles_at_about_twice_the_input():
    cat = make_catalogue(equipment("lamp", "jammer", en_drain=0, heat=6),
                         part("wet", "gas-gen", cooling="liquid", heat_tolerance=10))
    report = validate(anvil([("lamp", "core")], generator="wet"), cat)
    assert "M-R51" in codes(report)  # 6, 9, 10, 11, 11...: shedding half, it settles at 11
    cat = make_catalogue(equipment("lamp", "jammer", en_drain=0, heat=6),
                         part("wet", "gas-gen", cooling="liquid", heat_tolerance=11))
    assert "M-R51" not in codes(validate(anvil([("lamp", "core")], generator="wet"), cat))


# --- 3.7 FCS ------------------------------------------------------------------------------------

def test_m_r55_weapon_range_within_effective_fcs_range():
    cat = make_catalogue(weapon("rifle", "primary", range=12))  # FCS 10 + Camera 2
    report = validate(anvil([("rifle", "core")]), cat)
    assert report.stats["fcs_range"].value == 12
    assert "M-R55" not in codes(report)


def test_m_r55_weapon_outranges_fcs():
    cat = make_catalogue(weapon("rifle", "primary", range=13))
    [issue] = issues(validate(anvil([("rifle", "core")]), cat), "M-R55")
    assert issue.severity == "warning" and "+1 success criterion" in issue.message


def test_m_r55_camera_penalty_never_below_reliable_range():
    cat = make_catalogue(part("bad-eyes", "electronics", camera_modifier=-9))
    assert validate(anvil(electronics="bad-eyes"), cat).stats["fcs_range"].value == 6


# --- 3.8 reserve ammunition ---------------------------------------------------------------------

def test_m_r63_reserve_at_the_listed_value():
    document = anvil([("rifle", "core")])
    document["gear"][0]["reserve"] = 4
    assert "M-R63" not in codes(validate(document, make_catalogue(weapon("rifle"))))


def test_m_r63_reserve_exceeded():
    document = anvil([("rifle", "core")])
    document["gear"][0]["reserve"] = 5
    [issue] = issues(validate(document, make_catalogue(weapon("rifle"))), "M-R63")
    assert issue.severity == "error" and "listed Reserve is 4" in issue.message


def test_every_issue_has_code_severity_path_message():
    cat = make_catalogue(weapon("rifle", "primary", load=12))
    report = validate(anvil([("rifle", "left_arm")] * 3, core=None), cat)
    assert len(report.issues) >= 3
    for issue in report.issues:
        assert issue.code.startswith("M-R") and issue.severity in ("error", "warning", "info")
        assert issue.path and issue.message


def test_m_r41_apu_output_counts_against_component_drain():
    cat = make_catalogue(part("weak-gen", "gas-gen", en_output=4), equipment("apu", "apu", en_output=2))
    report = validate(anvil([("apu", "core")], generator="weak-gen"), cat)
    assert report.stats["en_output"].value == 0
    assert "M-R41" not in codes(report)


def test_m_r50_radar_burnthrough_heat_over_tolerance():
    cat = make_catalogue(equipment("loud", "radar", burnthrough_heat=21))
    [issue] = issues(validate(anvil([("loud", "core")]), cat), "M-R50")
    assert "Burnthrough" in issue.message and issue.severity == "warning"


def test_m_r50_passive_equipment_heat_is_not_an_activation():
    cat = make_catalogue(equipment("lamp", "jammer", en_drain=0, heat=21))
    assert "M-R50" not in codes(validate(anvil([("lamp", "core")]), cat))
