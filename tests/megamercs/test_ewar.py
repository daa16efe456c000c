"""MEGA MERCS electronic warfare: capabilities from the equipment that grants them (MM-R40), the Beacon against locks
(MM-T45), and the preview's lock, jamming and hacking attempts (MM-C32 to MM-C35)."""
import pytest

from catalogue.rulesets.megamercs.dice import d100_opposed
from catalogue.rulesets.megamercs import preview
from catalogue.rulesets.megamercs.preview import Situation, Target
from catalogue.rulesets.megamercs.rules import parse, resolve, validate
from tests.megamercs.factories import codes, item, make_catalogue, unit


@pytest.fixture(scope="module")
def cat():
    return make_catalogue(
        item("jammer", "equipment", size=1, types=["sensor"], attributes=[{"name": "ecm"}]),
        item("link", "equipment", size=1, types=["sensor"], attributes=[{"name": "data_link"}]),
        item("firewall", "equipment", size=1, types=["sensor"], attributes=[{"name": "network_defence"}]),
        item("seeker", "weapon", size=1, types=["launcher"], profiles=[
            {"accuracy": 40, "range": 12, "rof": 1, "damage": 8, "damage_type": "shaped_charge",
             "attributes": [{"name": "homing"}]}]),
    )


def ewar(cat, *mounts, target=None, **situation):
    """The E-War actions a test mecha (E-War 40) carrying `mounts` on its torso attempts against the target."""
    built = resolve(parse(unit("mecha", *[(key, "torso") for key in mounts])), cat)
    return preview.odds(built, target or Target(), Situation(**situation))["ewar"]


def through(attacker, defender):
    """The chance an action gets through an opposed E-War roll, both failing letting it through (MM-A05)."""
    rolls = d100_opposed(attacker, defender)
    return rolls["attacker"] + rolls["neither"]


# --- MM-T45, MM-F15: the Beacon ------------------------------------------------------------------

@pytest.mark.parametrize("ewar_rating, against_locks", [(30, 10), (50, 30), (60, 40), (70, 40), (80, 40)])
def test_mm_t45_a_beacon_lowers_e_war_against_locks(cat, ewar_rating, against_locks):
    target = Target(ewar=ewar_rating, electronic_defence=True, beacon=True)
    assert preview.ewar_against_locks(target) == against_locks
    lock = ewar(cat, target=target, lock_attempt=True)["lock"]
    assert lock["p"] == pytest.approx(through(40, against_locks)) and f"counts as {against_locks}" in lock["explain"]


def test_mm_f15_a_beacon_never_raises_e_war_and_spares_jamming(cat):
    """MM-A26 reading: the lower of EW − 20 and 40, never below 0; jamming and hacking meet the full E-War."""
    assert preview.ewar_against_locks(Target(ewar=10, beacon=True)) == 0
    assert preview.ewar_against_locks(Target(ewar=70)) == 70
    target = Target(ewar=70, electronic_defence=True, beacon=True)
    assert ewar(cat, "jammer", target=target, jam_attempt=True)["jam"]["p"] == pytest.approx(through(40, 70))


# --- MM-R40: capabilities from equipment --------------------------------------------------------------

def test_mm_r40_hacking_and_jamming_need_ecm(cat):
    bare = ewar(cat, jam_attempt=True, hack_attempt=True)
    assert bare["jam"] == {"p": 0.0, "explain": "jamming needs ECM equipment (MM-R40)"}
    assert bare["hack"]["p"] == 0 and "ECM" in bare["hack"]["explain"]
    assert ewar(cat, "jammer", jam_attempt=True)["jam"]["p"] == 1
    assert validate(unit("mecha"), cat).stats["ewar_actions"].value == "Electronic Resistance"
    equipped = validate(unit("mecha", ("jammer", "torso"), ("link", "torso")), cat).stats["ewar_actions"]
    assert equipped.value == "Electronic Resistance, Hacking, Jamming, Network"
    assert "Hacking, Jamming from Jammer" in equipped.explain and "Network from Link" in equipped.explain


def test_mm_r40_a_networked_allys_lock_needs_a_data_link(cat):
    def tn(*mounts, **situation):
        built = resolve(parse(unit("mecha", ("hmg", "r-arm"), *[(key, "torso") for key in mounts])), cat)
        result = preview.odds(built, Target(), Situation(network_lock=True, **situation))
        return result["attacks"][0]["tn"], result["notes"]
    tn_alone, notes = tn()
    assert tn_alone == 50 and any("data link" in note for note in notes)
    assert tn("link") == (60, [])
    assert tn("link", jammed=True)[0] == 50  # jamming disables the data link (MM-C35)


def test_mm_r40_network_defence_without_a_data_link_is_warned(cat):
    [issue] = [i for i in validate(unit("mecha", ("firewall", "torso")), cat).issues if i.code == "MM-R40"]
    assert issue.severity == "warning" and "Firewall" in issue.message
    assert "MM-R40" not in codes(validate(unit("mecha", ("firewall", "torso"), ("link", "torso")), cat))


def test_mm_r40_a_homing_weapon_without_lock_equipment_is_noted(cat):
    [issue] = [i for i in validate(unit("mecha", ("seeker", "torso")), cat).issues if i.code == "MM-R40"]
    assert issue.severity == "info" and "Visual lock" in issue.message
    assert "MM-R40" not in codes(validate(unit("mecha", ("seeker", "torso"), ("radar", "torso")), cat))


def test_mm_r40_a_lock_without_line_of_sight_needs_sensor_lock_equipment(cat):
    blind = ewar(cat, line_of_sight=False, lock_attempt=True)["lock"]
    assert blind["p"] == 0 and "sensor-lock equipment" in blind["explain"]
    assert ewar(cat, "radar", line_of_sight=False, lock_attempt=True)["lock"]["p"] == 1


# --- the attempts: reach, jamming, hacking -------------------------------------------------------------

def test_mm_c32_a_lock_reaches_10_hexes(cat):
    assert ewar(cat, distance=10, lock_attempt=True)["lock"]["p"] == 1
    assert ewar(cat, distance=11, lock_attempt=True)["lock"]["p"] == 0


def test_mm_c35_jamming_takes_no_roll_unless_electronic_defence_resists(cat):
    assert ewar(cat, "jammer", distance=8, jam_attempt=True)["jam"]["p"] == 1
    assert ewar(cat, "jammer", distance=9, jam_attempt=True)["jam"]["p"] == 0
    resisted = ewar(cat, "jammer", target=Target(ewar=55, electronic_defence=True), jam_attempt=True)["jam"]
    assert resisted["p"] == pytest.approx(through(40, 55)) and resisted["defender"] == d100_opposed(40, 55)["defender"]


def test_mm_c35_a_jammed_unit_cannot_lock_or_hack(cat):
    jammed = ewar(cat, "jammer", jammed=True, lock_attempt=True, hack_attempt=True)
    assert jammed["lock"]["p"] == 0 and jammed["hack"]["p"] == 0


def test_mm_c34_hacking_against_electronic_defence_is_an_opposed_roll(cat):
    defended = Target(ewar=50, electronic_defence=True)
    assert ewar(cat, "jammer", target=defended, hack_attempt=True)["hack"]["p"] == pytest.approx(through(40, 50))
    assert ewar(cat, "jammer", target=defended, distance=9, hack_attempt=True)["hack"]["p"] == 0


def test_mm_c34_hacking_an_undefended_target_gives_no_odds(cat):
    """MM-A25: the rulebook asks for a roll against the target's E-War without giving its target number."""
    hack = ewar(cat, "jammer", hack_attempt=True)["hack"]
    assert hack["p"] is None and "MM-A25" in hack["explain"]


def test_mm_f21_network_defence_lends_the_best_e_war_against_hacking(cat):
    lent = ewar(cat, "jammer", target=Target(ewar=30, network_defence=70), hack_attempt=True)["hack"]
    assert lent["p"] == pytest.approx(through(40, 70)) and "Network Defence lends 70" in lent["explain"]
    own = ewar(cat, "jammer", target=Target(ewar=60, electronic_defence=True, network_defence=50), hack_attempt=True)
    assert own["hack"]["p"] == pytest.approx(through(40, 60))
