"""Anvil rule IDs of digest 3.0-3.8 that had no named test: where each is checked, derived or honoured."""
import pytest
from pydantic import TypeAdapter, ValidationError

from catalogue.rulesets.base import BuildError
from catalogue.rulesets.metallurgent import battlefield as bf
from catalogue.rulesets.metallurgent import preview as engine
from catalogue.rulesets.metallurgent.options import OPTIONS
from catalogue.rulesets.metallurgent.rules import (
    MAX_EQUIPMENT,
    deployment_zone,
    dissipation,
    parse,
    resolve,
    validate,
)
from catalogue.rulesets.metallurgent.schema import CATEGORIES, AnvilBuild
from tests.metallurgent.factories import (BASE_ITEMS, EXAMPLE_SPREAD, anvil, codes, equipment, make_catalogue, part,
                                          sheet_html, weapon)
from tests.metallurgent.previews import plain_target


def issues(report, code):
    return [i for i in report.issues if i.code == code]


# --- 3.0 general ---------------------------------------------------------------------------------

def test_m_r00a_an_items_own_mount_rule_overrides_the_general_one():
    # In general Gear goes on any Hardpoint (M-R10); an item that says "Core only" is held to it.
    cat = make_catalogue(equipment("plain-radio", "radio"), equipment("core-radio", "radio", mount="core"))
    assert validate(anvil([("plain-radio", "left_arm")]), cat).legal
    [issue] = issues(validate(anvil([("core-radio", "left_arm")]), cat), "M-R15")
    assert issue.severity == "error" and "only on the Core" in issue.message
    assert validate(anvil([("core-radio", "core")]), cat).legal


def test_m_r00b_only_the_items_of_the_pinned_pack_may_be_used():
    with pytest.raises(BuildError, match="unknown item 'borrowed-core'"):
        validate(anvil(core="borrowed-core"), make_catalogue())
    with pytest.raises(BuildError, match="unknown item 'borrowed-gun'"):
        validate(anvil([("borrowed-gun", "core")]), make_catalogue())


# --- 3.1 composition -----------------------------------------------------------------------------

def test_m_r03_the_fcs_has_no_ap_or_load_and_takes_no_damage():
    fcs = {"key": "f", "name": "F", "max_range": 10, "reliable_range": 6, "targeting_type": "laser"}
    TypeAdapter(CATEGORIES["fcs"]).validate_python(fcs)
    for extra in ({"ap": 10}, {"load": 1}):
        with pytest.raises(ValidationError, match="Extra inputs"):
            TypeAdapter(CATEGORIES["fcs"]).validate_python({**fcs, **extra})
    document = anvil()
    document["condition"] = {"fcs": "disabled"}  # no condition to track: it cannot be damaged
    with pytest.raises(BuildError):
        parse(document)
    assert "Fire Control" not in validate(anvil(), make_catalogue()).stats["carried_load"].explain


def test_m_r04_a_unit_has_one_to_six_components():
    unit = {"key": "u", "name": "U", "unit_type": "tank", "defence": 4, "initiative": 3, "height": 1,
            "damage_steps": 3, "move": 5}
    component = {"name": "Hull", "ap": 10, "resistance": {"KE": 1}}
    adapter = TypeAdapter(CATEGORIES["conventional_unit"])
    for count in (1, 6):
        assert len(adapter.validate_python({**unit, "components": [component] * count}).components) == count
    for count in (0, 7):
        with pytest.raises(ValidationError):
            adapter.validate_python({**unit, "components": [component] * count})


def test_m_r06_anvils_are_three_levels_tall_wherever_height_matters():
    assert bf.ANVIL_HEIGHT == 3
    assert bf.safe_depth() == 2 and bf.combined_height(4, bf.ANVIL_HEIGHT) == 7
    assert bf.elevation_cost(2) == bf.elevation_cost(2, height=3) == 1
    assert "height" not in AnvilBuild.model_fields  # not a build choice


# --- 3.2 mounting --------------------------------------------------------------------------------

def test_m_r13_hardpoints_need_not_be_filled():
    report = validate(anvil([("rifle", "core")]), make_catalogue(weapon("rifle")))
    assert report.legal, report.issues
    meters = {m.key: (m.used, m.limit) for m in report.meters}
    assert meters["core_hardpoints"] == (1, 3) and meters["left_arm_hardpoints"] == (0, 2)


# --- 3.3 Gear counts -----------------------------------------------------------------------------

def test_m_r26_class_and_equipment_limits_add_up_to_the_gear_limit():
    """The rulebook's numbers, which are the house-rule options' defaults."""
    class_limit, gear_limit = OPTIONS["weapon-class-limit"].default, OPTIONS["gear-limit"].default
    assert 3 * class_limit + MAX_EQUIPMENT == gear_limit == 12


# --- 3.4 Load ------------------------------------------------------------------------------------

@pytest.mark.parametrize("load,shown", [(20, "≤ 20 ST"), (21, "≤ 22 ST"), (22, "≤ 22 ST"), (23, "≤ 26 ST")])
def test_m_r31_the_smallest_breakpoint_that_holds_the_load(load, shown):
    cat = make_catalogue(weapon("ballast", load=load - 17))
    assert validate(anvil([("ballast", "core")]), cat).stats["breakpoint"].value == shown


def test_m_r33_gross_weight_adds_the_mobility_base_and_meets_the_roof():
    report = validate(anvil(), make_catalogue(part("light-biped", "biped", load=13)))
    assert report.stats["gross_weight"].value == 17 + 20
    light = validate(anvil(mobility_base="light-biped"), make_catalogue(part("light-biped", "biped", load=13)))
    assert light.stats["gross_weight"].value == 30
    # T17: a Density 7 roof holds 35 ST, so 30 ST stands on it; Density 4 (20 ST) gives way.
    assert bf.roof_supports(7, light.stats["gross_weight"].value)
    assert not bf.roof_supports(4, light.stats["gross_weight"].value)


def test_m_r35_each_mobility_base_lists_its_own_ascending_spread():
    adapter = TypeAdapter(CATEGORIES["mobility_base"])
    _, data = BASE_ITEMS["biped"]
    adapter.validate_python({"key": "b", **data})
    for spread in (list(reversed(EXAMPLE_SPREAD)), EXAMPLE_SPREAD[:1] + EXAMPLE_SPREAD[:4], EXAMPLE_SPREAD[:3]):
        with pytest.raises(ValidationError):
            adapter.validate_python({"key": "b", **data, "load_tolerance": spread})


def test_m_r35_the_starter_mobility_bases_have_spreads_of_their_own(packs):
    from catalogue.loader import catalogue_by_ref, latest_pack

    bases = catalogue_by_ref(latest_pack("metallurgent").ref).of("mobility_base")
    spreads = {tuple((b.max_load, b.cruise, b.flank, b.init) for b in mb.load_tolerance) for mb in bases}
    assert len(spreads) == len(bases) >= 6


# --- 3.5 Energy ----------------------------------------------------------------------------------

def test_m_r40_en_output_after_component_fcs_and_active_gear_drain():
    cat = make_catalogue(equipment("radar", "radar", en_drain=2), equipment("jammer", "jammer", en_drain=3))
    document = anvil([("radar", "core"), ("jammer", "core")])
    document["gear"][1]["active"] = False
    stat = validate(document, cat).stats["en_output"]
    assert stat.value == 12 - 6 - 2  # the idle Jammer drains nothing yet
    assert "Component and FCS Drain 6" in stat.explain and "active Gear Drain 2" in stat.explain


def test_m_r43_drain_and_offset_gear_starts_active_unless_set_otherwise():
    assert AnvilBuild.model_validate(anvil([("lca", "core")])).gear[0].active is True
    cat = make_catalogue(equipment("lca", "lca", en_offset=8))
    assert validate(anvil([("lca", "core")]), cat).stats["en_capacity"].value == 12
    document = anvil([("lca", "core")])
    document["gear"][0]["active"] = False
    assert validate(document, cat).stats["en_capacity"].value == 20


def test_m_r43_the_sheet_records_the_starting_state(client, packs):
    from builder import store
    from catalogue.loader import latest_pack

    example = latest_pack("metallurgent").examples[5]
    gear = [dict(g) for g in example["gear"]]
    gear[4]["active"] = False  # the Weathervane Radar starts off
    html = sheet_html(store.create(store.check({**example, "gear": gear})))
    assert "starts off" in html and "starts on" in html


# --- 3.6 Heat ------------------------------------------------------------------------------------

def test_m_r52_three_cooling_types_each_shedding_its_own_way():
    assert dissipation("gas", 30, 0) == 10 and dissipation("liquid", 30, 0) == 15 and dissipation("plasma", 30, 0) == 30
    _, data = BASE_ITEMS["gas-gen"]
    with pytest.raises(ValidationError):
        TypeAdapter(CATEGORIES["generator"]).validate_python({"key": "g", **data, "cooling": "water"})


# --- 3.7 FCS and sensors -------------------------------------------------------------------------

def test_m_r56_targeting_types_combine_and_the_same_type_counts_once():
    cat = make_catalogue(equipment("track", "radar", subtype="tracking"), equipment("spot", "radar", subtype="spotting"),
                         part("tracker-fcs", "fcs", targeting_type="tracking"))
    assert validate(anvil([("track", "core"), ("spot", "core")]), cat).stats["targeting"].value == \
        "Laser, Spotting, Tracking"
    assert validate(anvil([("track", "core")], fcs="tracker-fcs"), cat).stats["targeting"].value == "Tracking"


def test_m_r57_a_radar_lends_its_range_but_an_ewacs_only_against_airborne_targets():
    long_gun = weapon("long-gun", range=14)
    cat = make_catalogue(long_gun, equipment("track", "radar", subtype="tracking", range=14),
                         equipment("ewacs", "radar", subtype="ewacs", range=20))
    assert "M-R55" in codes(validate(anvil([("long-gun", "core")]), cat))
    assert "M-R55" not in codes(validate(anvil([("long-gun", "core"), ("track", "left_arm")]), cat))
    [issue] = issues(validate(anvil([("long-gun", "core"), ("ewacs", "left_arm")]), cat), "M-R55")
    assert "reaches 14 hexes" in issue.message


# --- 3.8 deployment and resources ----------------------------------------------------------------

def test_m_r60_the_turn_track_starts_full_of_en_and_cold():
    cat = make_catalogue(weapon("rifle"), equipment("lca", "lca", en_offset=5))
    attacker = resolve(parse(anvil([("rifle", "core"), ("lca", "core")])), cat)
    result = engine.preview(attacker, plain_target(), engine.Situation(range=4, turns=2, plan=[]))
    first = result["track"]["turns"][0]
    assert result["track"]["capacity"] == 20 - 5 and first["en"] == 15 and first["heat"] == 0


def test_m_r61_an_anvil_without_fuel_is_warned():
    cat = make_catalogue(part("dry-gen", "gas-gen", fuel_capacity=0), equipment("tank", "fuel_tank", fuel=2))
    [issue] = issues(validate(anvil(generator="dry-gen"), cat), "M-R61")
    assert issue.severity == "warning" and "Running on Fumes" in issue.message
    report = validate(anvil([("tank", "core")], generator="dry-gen"), cat)
    assert "M-R61" not in codes(report) and report.stats["fuel"].value == 2


@pytest.mark.parametrize("initiative,zone", [(-1, "Green"), (2, "Green"), (3, "Blue"), (5, "Blue"), (6, "Purple"),
                                             (8, "Purple"), (9, "White")])
def test_m_r62_deployment_zone_by_initiative(initiative, zone):
    assert deployment_zone(initiative) == zone


def test_m_r62_lower_zones_may_always_be_used():
    # Initiative 3 + 2 at the lightest breakpoint = 5: Blue, or the shallower Green.
    stat = validate(anvil(), make_catalogue()).stats["deployment_zone"]
    assert stat.value == "Blue" and "may deploy in Blue, Green" in stat.explain
