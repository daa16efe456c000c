"""M-R45 and M-R07: a Component's condition (the build's `condition`) applied once, before every stat and check."""
import pytest

from catalogue.rulesets.metallurgent import preview
from catalogue.rulesets.metallurgent.rules import parse, resolve, validate
from tests.metallurgent.factories import anvil, codes, equipment, make_catalogue, part, weapon

# Drain on the base Anvil: Core 1, Mobility Base 1, Arms 1 + 1, Electronics 1, FCS 1 = 6.
SHORT = part("short-gen", "gas-gen", en_output=5)


def conditioned(condition, gear=None, **parts):
    document = anvil(gear, **parts)
    document["condition"] = condition
    return document


def errors(report, code):
    return [i for i in report.issues if i.code == code and i.severity == "error"]


def test_m_r45_disabled_arm_drains_nothing_so_the_anvil_is_legal():
    cat = make_catalogue(SHORT)
    report = validate(conditioned({"left_arm": "disabled"}, generator="short-gen"), cat)
    assert not errors(report, "M-R41"), report.issues
    assert report.stats["en_output"].value == 0  # 5 − (6 − the arm's 1)
    assert report.legal


def test_m_r45_damaged_or_degraded_arm_still_drains():
    cat = make_catalogue(SHORT)
    for state in ("damaged", "degraded"):
        report = validate(conditioned({"left_arm": state}, generator="short-gen"), cat)
        [issue] = errors(report, "M-R41")
        assert "-1" in issue.message, state


def test_m_r45_changing_the_condition_changes_the_verdict():
    cat = make_catalogue(SHORT)
    assert not validate(conditioned({}, generator="short-gen"), cat).legal
    assert validate(conditioned({"right_arm": "disabled"}, generator="short-gen"), cat).legal
    assert not validate(conditioned({"right_arm": "intact"}, generator="short-gen"), cat).legal


def test_m_r45_disabled_part_keeps_its_load_destroyed_part_loses_it():
    cat = make_catalogue()
    assert validate(conditioned({}), cat).stats["carried_load"].value == 17
    assert validate(conditioned({"left_arm": "disabled"}), cat).stats["carried_load"].value == 17
    assert validate(conditioned({"left_arm": "destroyed"}), cat).stats["carried_load"].value == 14


def test_m_r45_gear_on_a_disabled_component_is_offline():
    # A Drain Radar on the arm would take EN Output below 0; Offline it drains nothing, and its Load stays.
    cat = make_catalogue(SHORT, equipment("radar", "radar", en_drain=3, load=2))
    gear = [("radar", "left_arm")]
    report = validate(conditioned({}, gear, generator="short-gen"), cat)
    assert errors(report, "M-R41")
    report = validate(conditioned({"left_arm": "disabled"}, gear, generator="short-gen"), cat)
    assert not errors(report, "M-R41") and report.stats["carried_load"].value == 19
    assert report.stats["targeting"].value == "Laser"  # the Offline Radar adds no Targeting Type


def test_m_r45_offline_weapon_leaves_the_attack_list_but_still_counts_as_mounted():
    cat = make_catalogue(weapon("gun", "primary"), weapon("gun2", "primary"), weapon("gun3", "primary"))
    report = validate(conditioned({"right_arm": "disabled"}, [("gun", "right_arm"), ("gun2", "core")]), cat)
    assert [w["name"] for w in report.detail.weapons] == ["Gun2"]
    assert [a.name for a in report.detail.attacks if a.name.startswith("Punch")] == ["Punch (Left Arm)"]
    # Building rules still see it: three Primaries are too many even if one is on a Disabled arm.
    report = validate(conditioned({"right_arm": "disabled"},
                                  [("gun", "right_arm"), ("gun2", "core"), ("gun3", "core")]), cat)
    assert "M-R20" in codes(report, "error")


def test_m_r45_mounting_limits_are_those_the_part_was_built_with():
    cat = make_catalogue(weapon("heavy", load=10, size=2))
    report = validate(conditioned({"left_arm": "disabled"}, [("heavy", "left_arm")]), cat)
    assert not {"M-R11", "M-R14"} & codes(report)
    assert report.legal, report.issues


def test_m_r45_disabled_generator_gives_no_en_output():
    report = validate(conditioned({"generator": "disabled"}), make_catalogue())
    assert report.stats["en_output"].value == -6 and errors(report, "M-R41")
    assert report.stats["charge"].value == 0


def test_m_r45_disabled_core_mobility_base_and_electronics_lose_their_actions():
    cat = make_catalogue()
    report = validate(conditioned({"core": "disabled", "mobility_base": "disabled", "electronics": "disabled"}), cat)
    assert {"block", "dodge", "intercept"}.isdisjoint(report.stats)
    assert report.stats["defence"].value == 0
    assert not any(a.name == "Kick" for a in report.detail.attacks)

    # Only positive stats go: the Mobility Base keeps its thresholds, so the Anvil is not overloaded, but its
    # Cruising Speed, Initiative and the breakpoint's bonuses go.
    assert "M-R32" not in codes(report)
    assert report.stats["cruising_speed"].value == 0 and report.stats["initiative"].value == 0
    assert report.stats["en_output"].value == 12 - 3  # Core, MB and Electronics drain nothing
    assert "Out of action" == report.stats["condition"].label


def test_m_r45_negative_stats_stay_negative():
    cat = make_catalogue(part("clumsy", "arm", agility=-2), part("dim", "electronics", camera_modifier=-3))
    resolved = resolve(parse(conditioned({"left_arm": "disabled", "electronics": "disabled"},
                                         left_arm="clumsy", electronics="dim")), cat)
    assert resolved.final["left_arm"].agility == -2 and resolved.final["left_arm"].strength == 0
    assert resolved.final["electronics"].camera_modifier == -3
    assert resolved.parts["left_arm"].strength == 10  # the part as built is untouched (the sheet prints it)


@pytest.mark.parametrize("state", ["disabled", "destroyed"])
def test_m_r07_out_of_action_part_warns_and_says_what_it_does(state):
    [issue] = [i for i in validate(conditioned({"left_arm": state}), make_catalogue()).issues if i.code == "M-R07"]
    assert issue.severity == "warning" and "M-R45" in issue.message


def test_m_r45_the_preview_fires_nothing_from_a_disabled_component():
    """The combat preview reads the same condition: no gun on a Disabled arm, no punch from it, no Kick from a
    Disabled Mobility Base; the working arm still fights."""
    cat = make_catalogue(weapon("gun", "primary"), weapon("gun2", "primary"))
    document = conditioned({"right_arm": "disabled", "mobility_base": "disabled"},
                           [("gun", "right_arm"), ("gun2", "core")])
    anvil_ = resolve(parse(document), cat)
    target = preview.Target("Dummy", "anvil", 4, [preview.Part("C", 30, {"KE": 0, "CE": 0, "TE": 0})])
    names = {a["name"] for a in preview.preview(anvil_, target, preview.Situation())["attacks"]}
    assert "Punch (Left Arm)" in names and any(name.startswith("Gun2") for name in names)
    assert not {"Punch (Right Arm)", "Kick"} & names
    assert not any(name.startswith("Gun ") or name == "Gun" for name in names)
