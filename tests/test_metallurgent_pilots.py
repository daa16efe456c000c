"""METALLURGENT Pilots (digest 2.9, 3.11): SP from XP, Skill prices and prerequisites, background, pools."""
from pathlib import Path

import pytest

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import BuildError
from catalogue.rulesets.metallurgent import pilots
from catalogue.rulesets.packs import read_pack

DATA = Path(__file__).resolve().parent.parent / "catalogue/rulesets/metallurgent/data/pilots.yaml"


@pytest.fixture(scope="module")
def catalogue():
    return read_pack(DATA, ACTIVE).catalogue


def pilot(catalogue, history=(), xp=100, **fields):
    return {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "pilot", "pack": catalogue.pack,
            "name": "Test Pilot", "xp": xp, "history": list(history), **fields}


def codes(report, severity="error"):
    return {i.code for i in report.issues if i.severity == severity}


def spec(key):
    return {"specialise": key}


def learn(key, paid):
    return {"learn": key, "paid": paid}


# --- SP (M-R98, M-R99) --------------------------------------------------------------------------

@pytest.mark.parametrize("xp,sp", [(0, 0), (1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (10, 4), (20, 8), (30, 10),
                                   (50, 15), (100, 25), (499, 95)])
def test_m_r98_t29_sp_is_the_number_of_primes_up_to_xp(xp, sp):
    assert pilots.sp_earned(xp) == sp


def test_m_r99_mara_at_the_cap(catalogue):
    assert "M-R99" not in codes(pilots.validate(pilot(catalogue, xp=499), catalogue))


def test_m_r99_mara_over_the_cap(catalogue):
    assert "M-R99" in codes(pilots.validate(pilot(catalogue, xp=500), catalogue))


# --- prices (M-R100, M-R101) -----------------------------------------------------------------

def test_m_r100_t30_guardian_pays_three_for_lightning_strike(catalogue):
    skill = catalogue.items["bm-lightning-strike"]
    assert skill.sp == 2 and pilots.price(skill, "guardian") == 3 and pilots.price(skill, "battlemaster") == 2
    report = pilots.validate(pilot(catalogue, [spec("guardian"), learn("bm-lightning-strike", 3)]), catalogue)
    assert report.legal, report.issues
    [row] = report.detail["skills"]
    assert row["paid"] == 3 and row["marked_up"]


def test_m_r100_recorded_price_must_match(catalogue):
    report = pilots.validate(pilot(catalogue, [spec("guardian"), learn("bm-lightning-strike", 2)]), catalogue)
    [issue] = [i for i in report.issues if i.code == "M-R100"]
    assert "costs 3 SP" in issue.message


def test_m_r100_no_spec_yet_pays_the_markup(catalogue):
    assert pilots.price(catalogue.items["bm-lightning-strike"], None) == 3


def test_m_r101_spending_exactly_what_was_earned(catalogue):
    # 5 XP earns 3 SP: Lightning Strike at 3 off-Spec spends it all.
    report = pilots.validate(pilot(catalogue, [spec("guardian"), learn("bm-lightning-strike", 3)], xp=5), catalogue)
    assert report.stats["sp_available"].value == 0 and "M-R101" not in codes(report)


def test_m_r101_overspending(catalogue):
    report = pilots.validate(pilot(catalogue, [spec("guardian"), learn("bm-lightning-strike", 3)], xp=4), catalogue)
    assert "M-R101" in codes(report)


def test_m_r101_unlearning_refunds_the_base_price_only(catalogue):
    history = [spec("guardian"), learn("bm-lightning-strike", 3), {"unlearn": "bm-lightning-strike"}]
    report = pilots.validate(pilot(catalogue, history, xp=5), catalogue)
    assert report.stats["sp_spent"].value == 0 and report.stats["sp_lost"].value == 1
    assert report.stats["sp_available"].value == 2


# --- Spec (M-R96) ------------------------------------------------------------------------------

def test_m_r96_spec_chosen_once(catalogue):
    report = pilots.validate(pilot(catalogue, [spec("scout")]), catalogue)
    assert report.stats["specialisation"].value == "Scout" and report.legal


def test_m_r96_spec_cannot_change(catalogue):
    assert "M-R96" in codes(pilots.validate(pilot(catalogue, [spec("scout"), spec("guardian")]), catalogue))


def test_m_r96_new_pilot_may_have_no_spec(catalogue):
    report = pilots.validate(pilot(catalogue, xp=0), catalogue)
    assert report.legal and report.stats["specialisation"].value == "—"


# --- prerequisites (M-R102, M-R103, M-R104) -----------------------------------------------------

def test_m_r103_t31_heavy_gunner_cannot_start_with_in_the_zone(catalogue):
    report = pilots.validate(pilot(catalogue, [spec("heavy_gunner"), learn("mm-in-the-zone", 8)]), catalogue)
    [issue] = [i for i in report.issues if i.code == "M-R103"]
    assert "Specialist" in issue.message


def test_m_r103_t31_after_practised_perfection_in_the_zone_is_open(catalogue):
    history = [spec("heavy_gunner"), learn("mm-practised-perfection", 2), learn("mm-in-the-zone", 8)]
    report = pilots.validate(pilot(catalogue, history), catalogue)
    assert "M-R103" not in codes(report), report.issues


def test_m_r103_own_spec_needs_no_prerequisite(catalogue):
    report = pilots.validate(pilot(catalogue, [spec("marksmech"), learn("mm-in-the-zone", 5)]), catalogue)
    assert report.legal, report.issues


def test_m_r104_t32_refund_lunge_keep_wrack_and_ruin(catalogue):
    history = [spec("guardian"), learn("pg-lunge", 2), learn("pg-wrack-and-ruin", 8), {"unlearn": "pg-lunge"}]
    report = pilots.validate(pilot(catalogue, history), catalogue)
    assert report.legal, report.issues
    assert [s["key"] for s in report.detail["skills"]] == ["pg-wrack-and-ruin"]


def test_m_r102_subskill_needs_its_mother(catalogue):
    sub = catalogue.items["pg-follow-through"]
    report = pilots.validate(pilot(catalogue, [spec("pugilist"), learn("pg-follow-through", sub.sp)]), catalogue)
    assert "M-R102" in codes(report)


def test_m_r102_subskill_after_its_mother_and_refunded_with_it(catalogue):
    sub = catalogue.items["pg-follow-through"]
    history = [spec("guardian"), learn("pg-lunge", 2), learn("pg-follow-through", pilots.price(sub, "guardian")),
               {"unlearn": "pg-lunge"}]
    report = pilots.validate(pilot(catalogue, history), catalogue)
    assert report.legal, report.issues
    assert report.detail["skills"] == []
    markup = 1 + (pilots.price(sub, "guardian") - sub.sp)
    assert report.stats["sp_lost"].value == markup


def test_learning_a_skill_twice_is_unreadable(catalogue):
    with pytest.raises(BuildError):
        pilots.validate(pilot(catalogue, [learn("pg-lunge", 2), learn("pg-lunge", 2)]), catalogue)


def test_unknown_skill_is_unreadable(catalogue):
    with pytest.raises(BuildError):
        pilots.validate(pilot(catalogue, [learn("no-such-skill", 2)]), catalogue)


def test_skill_options_say_why_not(catalogue):
    report, ledger = pilots.assess(pilot(catalogue, [spec("heavy_gunner")], xp=3), catalogue)
    options = pilots.options(ledger, pilots.skill_tree(catalogue))
    assert options["mm-in-the-zone"]["reason"].startswith("M-R103")
    assert options["pg-follow-through"]["reason"].startswith("M-R102")
    assert options["mm-practised-perfection"] == {"price": 2, "marked_up": True, "held": False, "buyable": True,
                                                  "reason": ""}


# --- background (M-R90, M-R91, M-R93-M-R95) ----------------------------------------------------

def test_m_r95_profession_repeating_lifepath_knowledge_grants_an_improvement(catalogue):
    document = pilot(catalogue, lifepath="selenite-spacer-kid", profession="orbital-weather-forecaster",
                     proficiencies=[{"knowledge": "meteorology", "proficiency": "atmospheric"}])
    report = pilots.validate(document, catalogue)
    assert report.legal, report.issues
    meteorology = next(k for k in report.detail["knowledges"] if k["key"] == "meteorology")
    atmospheric = next(p for p in meteorology["proficiencies"] if p["key"] == "atmospheric")
    assert meteorology["held"] and atmospheric["level"] == 1 and atmospheric["criterion"] == 3


def test_m_r91_improvement_without_a_source(catalogue):
    document = pilot(catalogue, proficiencies=[{"knowledge": "medicine", "proficiency": "physical"}])
    assert "M-R91" in codes(pilots.validate(document, catalogue))


def test_m_r94_three_improvements_per_knowledge_at_most():
    from collections import Counter

    background = pilots.Background({}, ["medicine"], Counter(medicine=4),
                                   Counter({("medicine", "physical"): 4}), [])
    assert pilots.criterion("medicine", "physical", background) == 2  # never below 2+


def test_m_r94_more_than_three_improvements(catalogue):
    medicine = [d.key for d in catalogue.of("development") if d.knowledge == "medicine"]
    document = pilot(catalogue, developments=(medicine * 4)[:4],
                     proficiencies=[{"knowledge": "medicine", "proficiency": "physical"}] * 4)
    assert "M-R94" in codes(pilots.validate(document, catalogue))


def test_m_r93_t28_unproficient_rolls_at_5_plus(catalogue):
    report = pilots.validate(pilot(catalogue), catalogue)
    engineering = next(k for k in report.detail["knowledges"] if k["key"] == "engineering")
    assert not engineering["held"] and {p["criterion"] for p in engineering["proficiencies"]} == {5}


def test_m_r92_t27_athletics_bonus_adds_dice(catalogue):
    lifepath = next(lp for lp in catalogue.of("lifepath") if lp.attributes.get("athletics", 0) > 0)
    report = pilots.validate(pilot(catalogue, lifepath=lifepath.key), catalogue)
    athletics = next(a for a in report.detail["attributes"] if a["focus"] == "Athletics")
    assert athletics["pool"] == 6 + lifepath.attributes["athletics"]
    bonus2 = pilots.Background({"athletics": 2}, [], None, None, [])
    assert 6 + bonus2.attributes["athletics"] == 8  # T27: +2 Athletics rolls 8d6


def test_m_r90_mettle_other_than_six_warns(catalogue):
    assert "M-R90" in codes(pilots.validate(pilot(catalogue, mettle=7), catalogue), "warning")
    assert "M-R90" not in codes(pilots.validate(pilot(catalogue), catalogue), "warning")
