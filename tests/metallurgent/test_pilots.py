"""METALLURGENT Pilots (digest 2.9, 3.11): SP from XP, Skill prices and prerequisites, background, pools."""
import pytest

from catalogue.rulesets.base import BuildError
from catalogue.rulesets.metallurgent import RULESET, pilots, places
from catalogue.rulesets.picks import what_if
from tests.metallurgent.pilot_factories import codes, learn, pilot, pilots_catalogue, spec


@pytest.fixture(scope="module")
def catalogue():
    return pilots_catalogue()


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
    [row] = report.detail.skills
    assert row.paid == 3 and row.marked_up


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


def m_r101_issues(report):
    return [i for i in report.issues if i.code == "M-R101"]


def test_m_r101_a_step_that_leaves_exactly_nothing_is_legal(catalogue):
    # 5 XP earns 3 SP: Lightning Strike off-Spec takes all 3, the refund gives 2 back, Brace for Impact takes 1.
    history = [spec("guardian"), learn("bm-lightning-strike", 3), {"unlearn": "bm-lightning-strike"},
               learn("gd-brace-for-impact", 1)]
    report = pilots.validate(pilot(catalogue, history, xp=5), catalogue)
    assert not m_r101_issues(report) and report.legal, report.issues
    assert report.stats["sp_available"].value == 1


def test_m_r101_overspent_by_one_then_recovered_by_unlearning_names_the_step(catalogue):
    # 3 SP: Brace for Impact (1) leaves 2, Lightning Strike (3) leaves -1; unlearning it later leaves 1.
    history = [spec("guardian"), learn("gd-brace-for-impact", 1), learn("bm-lightning-strike", 3),
               {"unlearn": "bm-lightning-strike"}]
    report = pilots.validate(pilot(catalogue, history, xp=5), catalogue)
    assert report.stats["sp_available"].value == 1  # the final balance alone would pass
    [issue] = m_r101_issues(report)
    assert issue.severity == "error" and issue.path == "history[2]"
    assert "1 SP overspent" in issue.message and "MARA 7 earns 4 SP" in issue.hint


def test_m_r101_spending_8_of_5_earned_then_unlearning_is_reported_once(catalogue):
    # 11 XP earns 5 SP. Last Bastion (5) leaves 0; Shield Wall (2) overspends; Brace for Impact (1) overspends
    # further; unlearning Last Bastion brings the balance back to 2. Only the first overspend is reported.
    history = [spec("guardian"), learn("gd-last-bastion", 5), learn("gd-shield-wall", 2),
               learn("gd-brace-for-impact", 1), {"unlearn": "gd-last-bastion"}]
    report = pilots.validate(pilot(catalogue, history, xp=11), catalogue)
    assert report.stats["sp_available"].value == 2
    assert [i.path for i in m_r101_issues(report)] == ["history[2]"]


def test_m_r101_the_order_of_purchases_and_refunds_matters(catalogue):
    # The same three events with 3 SP: refunding before buying again is affordable, buying first is not.
    refund_first = [spec("guardian"), learn("bm-lightning-strike", 3), {"unlearn": "bm-lightning-strike"},
                    learn("gd-shield-wall", 2)]
    buy_first = [spec("guardian"), learn("bm-lightning-strike", 3), learn("gd-shield-wall", 2),
                 {"unlearn": "bm-lightning-strike"}]
    assert not m_r101_issues(pilots.validate(pilot(catalogue, refund_first, xp=5), catalogue))
    assert [i.path for i in m_r101_issues(pilots.validate(pilot(catalogue, buy_first, xp=5), catalogue))] == [
        "history[2]"]


def test_m_r101_xp_is_a_total_so_every_step_is_judged_against_todays_mara(catalogue):
    # Reading (M-R101): the history records no XP, so a purchase made before the XP that paid for it was
    # earned cannot be told apart: the first step is judged against the whole MARA, whichever came first.
    history = [spec("guardian"), learn("gd-last-bastion", 5)]
    assert not m_r101_issues(pilots.validate(pilot(catalogue, history, xp=11), catalogue))
    [issue] = m_r101_issues(pilots.validate(pilot(catalogue, history, xp=10), catalogue))
    assert issue.path == "history[1]" and "10 XP earns 4 SP" in issue.message


def test_m_r101_an_overspend_past_the_mara_cap_says_no_xp_pays_for_it(catalogue):
    # Every Skill bought without a Spec (all marked up) costs more than the 95 SP of MARA 499.
    skills = sorted(catalogue.of("skill"), key=lambda s: (s.position, s.mother is not None))
    history = [learn(s.key, pilots.price(s, None)) for s in skills]
    [issue] = m_r101_issues(pilots.validate(pilot(catalogue, history, xp=499), catalogue))
    assert "no MARA earns" in issue.hint and "499 XP earns 95 SP" in issue.message


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
    assert [s.key for s in report.detail.skills] == ["pg-wrack-and-ruin"]


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
    assert report.detail.skills == []
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
    meteorology = next(k for k in report.detail.knowledges if k.key == "meteorology")
    atmospheric = next(p for p in meteorology.proficiencies if p.key == "atmospheric")
    assert meteorology.held and atmospheric.level == 1 and atmospheric.criterion == 3


def test_m_r91_improvement_without_a_source(catalogue):
    document = pilot(catalogue, proficiencies=[{"knowledge": "medicine", "proficiency": "physical"}])
    assert "M-R91" in codes(pilots.validate(document, catalogue))


def test_m_r93_a_criterion_never_drops_below_2_plus():
    from collections import Counter

    background = pilots.Background({}, ["medicine"], Counter(medicine=4),
                                   Counter({("medicine", "physical"): 4}), [])
    assert pilots.criterion("medicine", "physical", background) == 2  # never below 2+


def test_m_r94_more_than_three_improvements(catalogue):
    document = pilot(catalogue, developments=["dev-night-school"] * 4,
                     proficiencies=[{"knowledge": "mathematics", "proficiency": "logic"}] * 4)
    assert "M-R94" in codes(pilots.validate(document, catalogue))


def test_m_r93_t28_unproficient_rolls_at_5_plus(catalogue):
    report = pilots.validate(pilot(catalogue), catalogue)
    engineering = next(k for k in report.detail.knowledges if k.key == "engineering")
    assert not engineering.held and {p.criterion for p in engineering.proficiencies} == {5}


def test_m_r92_t27_athletics_bonus_adds_dice(catalogue):
    # T27: +2 Athletics rolls 8d6 (Canal-Zone Runner gives +1, Hit the Gym another +1).
    report = pilots.validate(pilot(catalogue, lifepath="canal-zone-runner", developments=["dev-hit-the-gym"]),
                             catalogue)
    athletics = next(a for a in report.detail.attributes if a.focus == "Athletics")
    assert athletics.bonus == 2 and athletics.pool == 8


def test_m_r92_pool_follows_mettle(catalogue):
    report = pilots.validate(pilot(catalogue, lifepath="canal-zone-runner", mettle=7), catalogue)
    composure = next(a for a in report.detail.attributes if a.focus == "Composure")
    assert composure.bonus == -1 and composure.pool == 6


def test_m_r91_a_new_pilot_has_no_bonuses_and_no_knowledges(catalogue):
    report = pilots.validate(pilot(catalogue), catalogue)
    assert report.legal and {a.bonus for a in report.detail.attributes} == {0}
    assert not any(k.held for k in report.detail.knowledges) and report.detail.talents == []


def test_m_r91_an_improvement_a_development_grants_is_legal(catalogue):
    document = pilot(catalogue, developments=["dev-night-school"],
                     proficiencies=[{"knowledge": "mathematics", "proficiency": "logic"}])
    report = pilots.validate(document, catalogue)
    assert report.legal, report.issues
    mathematics = next(k for k in report.detail.knowledges if k.key == "mathematics")
    assert mathematics.held and mathematics.granted == 1


def test_m_r94_three_improvements_in_one_knowledge_at_the_limit(catalogue):
    # Two levels of Logic and one of Statistics: three improvements, the most one Knowledge may take.
    document = pilot(catalogue, developments=["dev-night-school"] * 3,
                     proficiencies=[{"knowledge": "mathematics", "proficiency": p}
                                    for p in ("logic", "logic", "statistics")])
    report = pilots.validate(document, catalogue)
    assert report.legal and not [i for i in report.issues if i.code == "M-R94"], report.issues
    mathematics = next(k for k in report.detail.knowledges if k.key == "mathematics")
    assert {p.key: p.criterion for p in mathematics.proficiencies} == {
        "geometry": 4, "logic": 2, "statistics": 3}


def test_m_r90_mettle_other_than_six_warns(catalogue):
    assert "M-R90" in codes(pilots.validate(pilot(catalogue, mettle=7), catalogue), "warning")
    assert "M-R90" not in codes(pilots.validate(pilot(catalogue), catalogue), "warning")


# --- XP, learning, frequency (M-R97, M-R105-M-R107) -------------------------------------------------

def test_m_r97_the_mara_stat_lists_what_a_sortie_awards(catalogue):
    explain = pilots.validate(pilot(catalogue, xp=12), catalogue).stats["mara"].explain
    for what, xp in pilots.SORTIE_XP:
        assert f"{xp} for {what}" in explain
    assert [what for what, _ in pilots.SORTIE_XP] == [
        "surviving it", "the Main Objective", "each Secondary or Hidden Objective",
        "each hostile Anvil Disabled or Destroyed"] and {xp for _, xp in pilots.SORTIE_XP} == {1}


def test_m_r105_an_unlearned_skill_can_be_learned_again(catalogue):
    # Learning and unlearning are events in the order they happened, whenever the table allows them.
    history = [spec("pugilist"), learn("pg-lunge", 1), {"unlearn": "pg-lunge"}, learn("pg-lunge", 1)]
    report = pilots.validate(pilot(catalogue, history, xp=5), catalogue)
    assert report.legal, report.issues
    assert [s.key for s in report.detail.skills] == ["pg-lunge"] and report.stats["sp_available"].value == 2


def test_m_r105_an_unlearned_skill_cannot_be_unlearned_again(catalogue):
    history = [spec("pugilist"), learn("pg-lunge", 2), {"unlearn": "pg-lunge"}, {"unlearn": "pg-lunge"}]
    with pytest.raises(BuildError) as error:
        pilots.validate(pilot(catalogue, history), catalogue)
    assert error.value.problems[0]["path"] == "history[3]"


def test_m_r106_a_held_sustained_skill_says_it_toggles_in_upkeep(catalogue):
    history = [spec("battlemaster"), learn("bm-open-throttle", 1), learn("bm-redline", 2)]
    rows = {s.key: s for s in pilots.validate(pilot(catalogue, history), catalogue).detail.skills}
    assert rows["bm-redline"].category == "sustained"
    assert rows["bm-redline"].frequency == "toggled in Upkeep, not on and off in one Round"
    assert rows["bm-open-throttle"].frequency == "unlimited"


def test_m_r106_every_sustained_skill_in_the_pack_toggles_in_upkeep_and_costs_per_upkeep(catalogue):
    sustained = [s for s in catalogue.of("skill") if s.category == "sustained"]
    assert sustained
    for skill in sustained:
        assert "Toggle it in Upkeep only" in skill.description, skill.key
        assert any(skill.costs.model_dump().values()) and skill.frequency is None, skill.key


def test_m_r107_frequency_shown_as_listed_and_none_means_unlimited(catalogue):
    history = [spec("battlemaster"), learn("bm-quickstep", 1), learn("bm-snap-turn", 1), learn("bm-open-throttle", 1)]
    rows = {s.key: s.frequency for s in pilots.validate(pilot(catalogue, history), catalogue).detail.skills}

    assert rows == {"bm-quickstep": "1/Turn", "bm-snap-turn": "1/Round", "bm-open-throttle": "unlimited"}


def test_m_r107_every_listed_frequency_is_a_count_per_turn_round_or_sortie(catalogue):
    import re

    listed = {s.frequency for s in catalogue.of("skill") if s.frequency}
    assert listed and all(re.fullmatch(r"\d+/(Turn|Round|Sortie)", f) for f in listed), listed


# --- the pickers (places.pilot_places) ------------------------------------------------------------

PILOT = RULESET.kind("pilot")


def places_of(document, catalogue):
    return {p.field: p for p in places.pilot_places(document, catalogue)}


def test_the_learn_picker_offers_the_skills_not_held_at_todays_price(catalogue):
    held = pilot(catalogue, [spec("guardian"), learn("gd-brace-for-impact", 1), learn("pg-lunge", 3),
                             {"unlearn": "pg-lunge"}])
    place = places_of(held, catalogue)["learn"]
    offered = {s.key for s in place.offered(catalogue)}
    assert "gd-brace-for-impact" not in offered and "pg-lunge" in offered  # unlearned, so learnable again (M-R105)
    assert len(offered) == len(catalogue.of("skill")) - 1
    assert place.choose(held, "bm-lightning-strike")["history"][-1] == learn("bm-lightning-strike", 3)  # M-R100
    assert held["history"][-1] == {"unlearn": "pg-lunge"}  # choosing tries a copy


def test_the_learn_picker_names_the_rule_each_skill_would_break(catalogue):
    document = PILOT.parse(pilot(catalogue, [spec("heavy_gunner")], xp=3)).model_dump(mode="json")  # 2 SP
    report = PILOT.validate(PILOT.parse(document), catalogue, {})
    options = {o.key: o for o in what_if(RULESET, PILOT, document, catalogue, {}, report,
                                         places_of(document, catalogue)["learn"])}
    assert options["mm-in-the-zone"].reason.startswith("M-R103")
    assert options["pg-follow-through"].reason.startswith("M-R102")
    assert options["bm-lightning-strike"].reason.startswith("M-R101")  # 3 SP off-Spec, 2 earned
    fits = options["mm-practised-perfection"]
    assert fits.reason == "" and fits.cost == "2/2 SP" and fits.group == "Marksmech"


def test_m_r96_the_spec_picker_stays_while_the_choice_is_the_last_event(catalogue):
    assert places_of(pilot(catalogue), catalogue)["specialisation"].fitted == ""
    chosen = pilot(catalogue, [spec("guardian")])
    place = places_of(chosen, catalogue)["specialisation"]
    assert place.fitted == "guardian" and place.choose(chosen, "scout")["history"] == [spec("scout")]
    built_on = pilot(catalogue, [spec("guardian"), learn("gd-brace-for-impact", 1)])
    assert "specialisation" not in places_of(built_on, catalogue)


def test_the_background_pickers_set_their_field(catalogue):
    place = places_of(pilot(catalogue), catalogue)["lifepath"]
    assert place.fitted == "" and place.choose(pilot(catalogue), "selenite-spacer-kid")["lifepath"] == "selenite-spacer-kid"
    assert RULESET.summary("lifepath", catalogue.items["selenite-spacer-kid"]) == "Finesse +2 · Endurance -1 · Meteorology"
