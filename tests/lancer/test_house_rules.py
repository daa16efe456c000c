"""Each LANCER house rule does what it says, one test per option (the beta chapter against 1.0), on the starter
pack's example pilots."""

import pytest

from catalogue.rulesets.lancer import preview as engine
from catalogue.rulesets.lancer import rules
from tests.lancer.factories import sheets, text


def checked(starter, name, **house):
    catalogue, docs = starter
    return rules.validate({**docs[name], "house_rules": house}, catalogue)


def test_lancer_grit(starter):
    assert checked(starter, "Dace Varro").stats["grit"].value == 2
    assert checked(starter, "Dace Varro", grit="floor").stats["grit"].value == 1


def test_lancer_mech_skills(starter):
    catalogue, docs = starter
    targeting = {**docs["Mara Okonjo"], "hase": {"hull": 1, "targeting": 1}}
    assert "L-B03" in {i.code for i in rules.validate(targeting, catalogue).issues}
    assert rules.validate({**targeting, "house_rules": {"mech-skills": "beta-five"}}, catalogue).legal


def test_lancer_armor_cap(starter):
    assert checked(starter, "Ilse Marrow").detail.mechs[1].stats["armor"].value == 2
    capped = checked(starter, "Ilse Marrow", **{"armor-cap": 1}).detail.mechs[1].stats["armor"]
    assert capped == rules.MechStat(1, "frame 2, at most 1")


def turn_heat(starter, reading):
    catalogue, docs = starter
    report = rules.validate(docs["Ilse Marrow"], catalogue)
    return engine.odds(docs["Ilse Marrow"], catalogue, 4, 0, report.detail.mechs[0], engine.Target(),
                       engine.Situation(overcharge=True, overcharges=3),
                       {"accuracy": "d6", "crit-dice": "whole", "overcharge": reading})["turn"]["expected_heat"]


def test_lancer_overcharge(starter):
    assert turn_heat(starter, "1.0") - turn_heat(starter, "beta") == pytest.approx(1)


def test_lancer_accuracy():
    assert engine.hit_and_crit(0, 1, 15, model="d6")[0] == pytest.approx(engine.attack_total(0, 1).at_least(15))
    assert engine.hit_and_crit(0, 1, 15, model="flat")[0] == pytest.approx(7 / 20)


def test_lancer_crit_dice():
    two = [engine._Damage("Kinetic", "2d6")]
    assert engine.critical_roll(two, "each").mean() > engine.critical_roll(two, "whole").mean()


@pytest.mark.django_db
def test_lancer_structure_zero(packs):
    """Printed on the mech sheet's Structure track; nothing for the validator to check."""
    document = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": "lancer-starter@1.0.0",
                "name": "Z", "triggers": {"sk_spot": 1, "sk_survive": 1, "sk_patch": 1, "sk_resist": 1},
                "mechs": [{"name": "Old", "frame": "mf_commons_drover", "mounts": [{}, {}, {}]}]}
    assert "at 0: destroyed" in text(sheets(document)[1])
    assert "at 0: CRITICAL" in text(sheets({**document, "house_rules": {"structure-zero": "critical"}})[1])


@pytest.mark.django_db
def test_lancer_stress(packs):
    document = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": "lancer-starter@1.0.0",
                "name": "Z", "mechs": [{"name": "Old", "frame": "mf_commons_drover", "mounts": [{}, {}, {}]}]}
    assert "Stress" in text(sheets(document)[1]) and "No Stress track" not in text(sheets(document)[1])
    assert "No Stress track" in text(sheets({**document, "house_rules": {"stress": "none"}})[1])
