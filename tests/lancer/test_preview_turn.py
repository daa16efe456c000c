"""The LANCER preview on the starter pack's example pilots: each weapon's odds and damage against a target, the
turn's Barrage and Overcharge with its heat, and the rules the preview follows, by rule ID."""

import pytest
from pydantic import ValidationError

from catalogue.rulesets.lancer import construction as c
from catalogue.rulesets.lancer import preview as engine
from catalogue.rulesets.lancer import rules
from catalogue.rulesets.lancer.schema import Range, Weapon

DEFAULTS = {"accuracy": "d6", "crit-dice": "whole", "overcharge": "1.0"}


def odds(starter, pilot, mech=0, readings=DEFAULTS, **fields):
    catalogue, docs = starter
    document = docs[pilot]
    report = rules.validate(document, catalogue)
    target = engine.Target(**{k: v for k, v in fields.items() if k in engine.Target.model_fields})
    situation = engine.Situation(**{k: v for k, v in fields.items() if k in engine.Situation.model_fields})
    return engine.odds(document, catalogue, report.stats["grit"].value, mech, report.detail.mechs[mech], target,
                       situation, readings)


def attack(result, name):
    return next(a for a in result["attacks"] if a["name"] == name)


def test_each_weapon_has_exact_odds_and_a_distribution_that_sums_to_one(starter):
    result = odds(starter, "Ilse Marrow", evasion=10, armor=1)
    for row in result["attacks"]:
        assert sum(row["distribution"].values()) == pytest.approx(1)
        assert row["expected_damage"] == pytest.approx(sum(k * p for k, p in row["distribution"].items()))
    skyfall = attack(result, "Skyfall Battery")
    hit, crit = engine.hit_and_crit(4, 0, 10)  # Grit 4 at LL8
    assert skyfall["p_hit"] == pytest.approx(hit) and skyfall["p_crit"] == pytest.approx(crit)
    assert skyfall["distribution"][0] == pytest.approx(1 - hit)


def test_smart_weapons_attack_e_defense(starter):
    result = odds(starter, "Dace Varro", mech=1, evasion=5, edef=15)
    assert attack(result, "Gnat Cloud")["against"] == "E-Defense 15"
    assert attack(result, "Thornlance")["against"] == "Evasion 5"


def test_l_r24_an_improvised_attack_only_without_a_melee_weapon(starter):
    unarmed = odds(starter, "Mara Okonjo")["attacks"]  # guns only
    assert attack({"attacks": unarmed}, "Improvised Attack")["damage"] == "1d6 kinetic"
    seawall = odds(starter, "Ilse Marrow", mech=1)["attacks"]  # a Breaching Axe and an Anvil Maul
    assert "Improvised Attack" not in [a["name"] for a in seawall]


def test_l_r15_l_r39_braced_and_resistant_halve_once(starter):
    plain = attack(odds(starter, "Ilse Marrow", mech=1, evasion=0), "Anvil Maul")
    braced = attack(odds(starter, "Ilse Marrow", mech=1, evasion=0, braced=True), "Anvil Maul")
    both = attack(odds(starter, "Ilse Marrow", mech=1, evasion=0, braced=True, resistant=True), "Anvil Maul")
    assert braced["expected_damage"] < plain["expected_damage"]
    assert both["expected_damage"] == pytest.approx(braced["expected_damage"])


def test_l_r16_bonus_damage_only_on_kinetic_explosive_or_energy(starter):
    catalogue, _ = starter
    heat_only = engine.weapon_odds("Torch", "Main", "Rifle", [engine._Damage("Heat", 3)], [], 0,
                                   engine.Target(evasion=0), engine.Situation(bonus_damage=2), DEFAULTS)
    kinetic = engine.weapon_odds("Gun", "Main", "Rifle", [engine._Damage("Kinetic", 3)], [], 0,
                                 engine.Target(evasion=0), engine.Situation(bonus_damage=2), DEFAULTS)
    assert heat_only["bonus"] == 0 and heat_only["expected_damage"] == 0
    assert kinetic["bonus"] == 2 and kinetic["expected_damage"] == pytest.approx(5)


def test_l_r32_l_r33_l_r08_a_barrage_fires_two_weapons_or_a_superheavy_alone(starter):
    turn = odds(starter, "Ilse Marrow", evasion=8)["turn"]
    assert turn["weapons"] == ["Skyfall Battery"] and turn["actions"] == "Barrage"
    pair = odds(starter, "Mara Okonjo", evasion=8)["turn"]
    assert len(pair["weapons"]) == 2 and "Slugthrower" in pair["weapons"]


def test_l_r34_bonus_damage_counts_once_in_a_turn(starter):
    without = odds(starter, "Mara Okonjo", evasion=8)["turn"]["expected_damage"]
    with_bonus = odds(starter, "Mara Okonjo", evasion=8, bonus_damage=3)
    first = attack(with_bonus, with_bonus["turn"]["weapons"][0])
    gained = with_bonus["turn"]["expected_damage"] - without
    assert gained == pytest.approx(first["expected_damage"] - first["expected_without_bonus"])


def test_l_r31_l_c05_overcharge_heat_against_the_heat_cap(starter):
    """The Skyfall Battery heats its mech 3; a fourth Overcharge adds 1d6+4 (1.0) or 1d6+3 (beta)."""
    steady = odds(starter, "Ilse Marrow", evasion=8)["turn"]
    assert steady["expected_heat"] == 3 and steady["p_over_cap"] == 0 and steady["heat_cap"] == 11
    late = odds(starter, "Ilse Marrow", evasion=8, overcharge=True, overcharges=3)["turn"]
    assert late["overcharge_step"] == "1d6+4" and late["expected_heat"] == pytest.approx(3 + 7.5)
    assert late["weapons"] == ["Skyfall Battery", "Glimmer Pistol"]  # the Skirmish adds no heat of its own
    assert late["p_over_cap"] == pytest.approx(2 / 6)  # 3 + 1d6 + 4 passes 11 on a 5 or a 6
    beta = odds(starter, "Ilse Marrow", readings={**DEFAULTS, "overcharge": "beta"}, evasion=8, overcharge=True,
                overcharges=3)["turn"]
    assert beta["overcharge_step"] == "1d6+3" and beta["expected_heat"] == pytest.approx(3 + 6.5)


def test_l_r11_ranges_and_patterns_stay_separate(starter):
    catalogue, _ = starter
    skyfall = catalogue.items["mw_skyfall_battery"]
    assert [(r.type, r.val) for r in skyfall.range] == [("Range", 20), ("Blast", 2)]
    with pytest.raises(ValidationError):
        Range.model_validate({"type": "Radius", "val": 3})


def test_l_r06_weapon_sizes_are_the_four_mount_sizes():
    shape = {"id": "w", "name": "W", "type": "Rifle"}
    assert {Weapon.model_validate({**shape, "mount": m}).mount for m in ("Auxiliary", "Main", "Heavy", "Superheavy")}
    with pytest.raises(ValidationError, match="mount"):
        Weapon.model_validate({**shape, "mount": "Shoulder"})


def test_l_r07_two_auxiliaries_share_only_a_flex_or_aux_aux_mount():
    assert c.fits("Main/Aux", ["Main", "Aux"]) and c.fits("Flex", ["Aux", "Aux"]) and c.fits("Aux/Aux", ["Aux", "Aux"])
    assert not c.fits("Main", ["Aux", "Aux"]) and not c.fits("Heavy", ["Main", "Aux"])
