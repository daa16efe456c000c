"""Derived stats (digest section 4) and the worked examples of sections 2-4 (T01, T02, T23, T33)."""
import pytest

from catalogue.rulesets.metallurgent.rules import ceil_half
from catalogue.rulesets.metallurgent.rules import deployment_zone, dissipation, validate
from tests.metallurgent.factories import anvil, equipment, make_catalogue, part, weapon


def test_m_r00_t01_t02_always_round_up():
    assert ceil_half(5) == 3  # T01
    assert ceil_half(1) == 1  # T02
    assert ceil_half(4) == 2


@pytest.mark.parametrize("load,cruise,flank,init", [
    (20, 7, 4, 5),   # ≤20: +1 Cruise, 4 Flank, +2 Init on a 6-Cruise, Init-3 base
    (21, 6, 4, 5),   # ≤22
    (26, 6, 3, 4),   # ≤26, exactly on the breakpoint
    (31, 5, 2, 2),   # ≤32: −1 Cruise, −1 Init
])
def test_m_d03_t33_example_spread_breakpoints(load, cruise, flank, init):
    cat = make_catalogue(equipment("ballast", "fuel_tank", load=load - 17))
    report = validate(anvil([("ballast", "core")]), cat)
    stats = report.stats
    assert stats["carried_load"].value == load
    assert (stats["cruising_speed"].value, stats["flanking_speed"].value, stats["initiative"].value) == (cruise, flank, init)
    assert report.legal


def test_m_d03_t33_over_the_top_breakpoint_is_overloaded():
    cat = make_catalogue(equipment("ballast", "fuel_tank", load=16))
    report = validate(anvil([("ballast", "core")]), cat)
    assert report.stats["breakpoint"].value == "Overloaded" and "cruising_speed" not in report.stats
    assert report.detail.load_tolerance.active is None


def test_m_d01_m_d02_carried_load_and_gross_weight():
    cat = make_catalogue(weapon("rifle", load=3))
    report = validate(anvil([("rifle", "left_arm")]), cat)
    assert report.stats["carried_load"].value == 20
    assert "Mobility Base excluded" in report.stats["carried_load"].explain
    assert report.stats["gross_weight"].value == 40


@pytest.mark.parametrize("initiative,zone", [(-1, "Green"), (0, "Green"), (2, "Green"), (3, "Blue"), (5, "Blue"),
                                             (6, "Purple"), (8, "Purple"), (9, "White"), (14, "White")])
def test_m_d07_deployment_zone(initiative, zone):
    assert deployment_zone(initiative) == zone


def test_m_d07_t23_initiative_9_may_use_every_zone():
    cat = make_catalogue(part("quick-legs", "biped", initiative=7))
    stat = validate(anvil(mobility_base="quick-legs"), cat).stats["deployment_zone"]
    assert stat.value == "White"  # Init 7 + 2 at the lightest breakpoint
    assert "White, Purple, Blue, Green" in stat.explain


def test_m_d10_m_d11_defence_and_flanking_defence():
    stat = validate(anvil(), make_catalogue()).stats["defence"]
    assert stat.value == 4 and "5 while Flanking" in stat.explain and "6 when Dodging" in stat.explain


def test_m_d12_m_d13_en_output_and_capacity():
    cat = make_catalogue(equipment("array", "lca", en_offset=4), equipment("scope", "radar", en_drain=2))
    stats = validate(anvil([("array", "core"), ("scope", "core")]), cat).stats
    assert stats["en_output"].value == 12 - 6 - 2
    assert stats["en_capacity"].value == 16


def test_m_d14_effective_fcs_range():
    assert validate(anvil(), make_catalogue()).stats["fcs_range"].value == 12  # 10 + Camera 2


def test_m_d16_m_d17_free_hardpoints_and_strength():
    cat = make_catalogue(weapon("rifle", load=3))
    meters = {m.key: m for m in validate(anvil([("rifle", "left_arm")]), cat).meters}
    assert (meters["left_arm_hardpoints"].used, meters["left_arm_hardpoints"].limit) == (1, 2)
    assert (meters["left_arm_strength"].used, meters["left_arm_strength"].limit) == (3, 10)
    assert "right_arm_strength" in meters and "core_strength" not in meters


def test_m_d18_punch_dice_damage_and_count():
    cat = make_catalogue(part("clumsy", "arm", agility=-1, strength=11))
    attacks = validate(anvil(left_arm="clumsy"), cat).detail.attacks
    left = next(a for a in attacks if a.name == "Punch (Left Arm)")
    right = next(a for a in attacks if a.name == "Punch (Right Arm)")
    assert (left.dice, left.damage) == ("5d6", "6 KE") and "1 per Round" in left.note
    assert (right.dice, right.damage) == ("7d6", "5 KE")


def test_m_d19_ke_melee_weapon_adds_half_strength():
    cat = make_catalogue(weapon("blade", category="melee", damage=10, magazine=None, reserve=0))
    [line] = validate(anvil([("blade", "left_arm")]), cat).detail.weapons
    assert line["damage"] == 15 and line["indirect_range"] is None


def test_m_d20_kick_and_ram():
    kick = next(a for a in validate(anvil(), make_catalogue()).detail.attacks if a.name == "Kick")
    assert (kick.dice, kick.damage) == ("8d6", "20 KE")
    cat = make_catalogue(part("wheels", "biped", chassis="wheels"))
    names = [a.name for a in validate(anvil(mobility_base="wheels"), cat).detail.attacks]
    assert "Ram" in names and "Sideswipe" in names and "Kick" not in names  # M-D22


def test_m_d21_slam_for_quadrupeds():
    cat = make_catalogue(part("quad", "biped", chassis="quadruped", load=18))
    slam = next(a for a in validate(anvil(mobility_base="quad"), cat).detail.attacks if a.name == "Slam")
    assert slam.damage == "36 KE"


def test_m_d23_arm_weapons_gain_agility_within_three_hexes():
    cat = make_catalogue(weapon("rifle", accuracy=2))
    lines = validate(anvil([("rifle", "left_arm"), ("rifle", "core")]), cat).detail.weapons

    assert [(w["dice"], w["close_dice"]) for w in lines] == [(8, 9), (8, None)]


@pytest.mark.parametrize("cooling,heat,climate,shed", [
    ("gas", 30, "cold", 12), ("gas", 30, "temperate", 10), ("gas", 30, "hot", 8),
    ("liquid", 9, "temperate", 5), ("liquid", 9, "cold", 6), ("liquid", 9, "hot", 4),
    ("plasma", 27, "temperate", 27),
])
def test_m_d24_heat_dissipation(cooling, heat, climate, shed):
    assert dissipation(cooling, heat, 0, climate) == shed


def test_m_d24_radiators_add_to_dissipation():
    assert dissipation("gas", 30, 2) == 12
