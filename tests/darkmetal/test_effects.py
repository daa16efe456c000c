"""DARK METAL effects that depend on a score hold on the finished Leader (DM-R31): judged after every purchase
and the backpack's Bulk, never when bought (base, purchases, conditions, negation)."""
import pytest

import catalogue.rulesets.darkmetal as dm
from tests.darkmetal.factories import armed_ally, check, mods

SPLICES = ("hormone-booster", "cat-reflexes", "brain-augmentation")  # Splice 1 each
CYBER = ("internal-blades", "plated-dermal-layer", "internal-power-cables")  # Cyber 1 each
TRAINED = {"kno": 10}  # Knowledge 5: points for any one skill at 5


def stat(report, key):
    return report.stats[key].value


def pack(*keys):
    return [{"item": key} for key in keys]


@pytest.mark.parametrize("skill, level, score_items, hp", [
    ("sci", 1, SPLICES, "bhp"),  # Robust Genetics (L815): Splice 3+ adds 1 BHP
    ("hac", 5, CYBER, "ahp"),  # Metal Shoulder (L802): Cyber 3+ adds 1 AHP
])
def test_dm_r26_dm_r33_an_ability_that_needs_a_score_counts_it_on_the_final_build(catalogue, skill, level, score_items, hp):
    def gain(items):  # what the trained ability adds over the same Leader untrained
        trained = check(catalogue, traits=TRAINED, knowledge={skill: level}, modifications=mods(catalogue, *items))
        untrained = check(catalogue, traits=TRAINED, modifications=mods(catalogue, *items))
        return stat(trained, hp) - stat(untrained, hp)

    assert gain(score_items) == 1  # at the limit: a score of 3
    assert gain(score_items[:2]) == 0  # a score of 2: not met


def test_dm_r33_a_score_reached_by_a_later_purchase_turns_the_ability_on(catalogue):
    """Robust Genetics trained first, the third Splice bought last: the BHP still comes."""
    before = check(catalogue, traits=TRAINED, knowledge={"sci": 1}, modifications=mods(catalogue, *SPLICES[:2]))
    after = check(catalogue, traits=TRAINED, knowledge={"sci": 1}, modifications=mods(catalogue, *SPLICES))
    assert stat(after, "bhp") == stat(before, "bhp") + 1 and stat(after, "splice") == 3


def test_dm_r31_functional_tail_holds_only_at_bulk_0_on_the_final_build(catalogue):
    tail = mods(catalogue, "functional-tail")
    light = check(catalogue, modifications=tail, backpack=pack("trauma-kit", "trauma-kit"))
    loaded = check(catalogue, modifications=tail, backpack=pack("trauma-kit", "trauma-kit", "trauma-kit"))
    bare = check(catalogue, backpack=pack("trauma-kit", "trauma-kit", "trauma-kit"))
    ath = lambda report: next(t for t in report.detail.traits if t.trait == "ath").modifier  # noqa: E731
    assert stat(light, "bulk") == 0 and ath(light) == 0.5  # at the limit: Bulk 0
    assert stat(loaded, "bulk") == 1 and ath(loaded) == ath(bare) == 0  # a full backpack, bought later, turns it off


def test_dm_r31_functional_tail_under_sys_armour_is_met_then_negated_and_named(catalogue):
    """Combat Armor (Sys 1, Bulk 1) with an Avian Modification (Bulk −1): Bulk 0 meets the condition, then Sys
    negates the bonus (the negation step comes last) and DM-R18 names it."""
    report = check(catalogue, armor={"item": "combat-armor"},
                   modifications=mods(catalogue, "avian-modification", "functional-tail"))
    assert stat(report, "bulk") == 0
    assert "Functional Tail" in next(i.message for i in report.issues if i.code == "DM-R18")


def test_dm_r47_tesla_cracker_in_the_backpack_brings_its_2_power(catalogue):
    without = check(catalogue, backpack=pack("trauma-kit"))
    with_it = check(catalogue, backpack=pack("trauma-kit", "tesla-cracker"))
    assert stat(with_it, "power") == stat(without, "power") + 2


def gear_spent(catalogue, *allies):
    return next(m.used for m in check(catalogue, traits={"com": 6}, allies=list(allies)).meters if m.key == "gear_rep")


def test_dm_r58_a_recruits_basic_weapon_is_free_and_stays_free_through_upgrades(catalogue):
    """L1441: a Recruit comes with a basic melee weapon (0 Rep) and one basic weapon; a second weapon is paid."""
    assert gear_spent(catalogue, armed_ally("recruit", "melee-weapon", "standard-rifle")) == 0
    assert gear_spent(catalogue, armed_ally("recruit", "standard-rifle", "heavy-pistol")) == 20  # only one comes free
    assert gear_spent(catalogue, armed_ally("recruit", "heavy-rifle")) == 35  # not a basic weapon
    hired = gear_spent(catalogue, armed_ally("standard-infantry", "standard-rifle"))
    assert hired == gear_spent(catalogue, armed_ally("standard-infantry")), "a Recruit-tree ally keeps the free kit (A-40)"


def test_dm_r50_two_kits_two_grenades_or_one_of_each_carry_without_penalty(catalogue):
    for load in (("trauma-kit", "trauma-kit"), ("attack-grenade", "attack-grenade"), ("trauma-kit", "attack-grenade")):
        report = check(catalogue, backpack=pack(*load))
        assert stat(report, "bulk") == 0 and "DM-R47" not in {i.code for i in report.issues}, load


def test_dm_r69_general_fate_is_1_and_2_at_communication_5(catalogue):
    assert stat(check(catalogue, traits={"com": 9}), "general_fate") == 1  # Communication 4½
    assert stat(check(catalogue, traits={"com": 10}), "general_fate") == 2  # at the limit: 5


def test_dm_r21_the_evosuit_is_free_with_no_stats_and_no_sys(catalogue):
    bare, suited = check(catalogue), check(catalogue, armor={"item": "evosuit"})
    for key in ("ahp", "armor", "power", "bulk", "systems", "move"):
        assert stat(suited, key) == stat(bare, key), key
    assert catalogue.items["evosuit"].cost == 0


def test_dm_r16_a_negative_mes_never_takes_away_fate_from_the_base_level(catalogue):
    """Avian Modification lowers Athletics by 1; Fate and Reserve still come from the base level (A-10)."""
    def athletics(report):
        return next(t for t in report.detail.traits if t.trait == "ath")

    base = check(catalogue, traits={"ath": 8})  # Athletics 4
    lowered = check(catalogue, traits={"ath": 8}, modifications=mods(catalogue, "avian-modification"))
    assert athletics(lowered).pool < athletics(base).pool
    assert (athletics(lowered).fate, athletics(lowered).reserve) == (athletics(base).fate, athletics(base).reserve)


def codes(report):
    return {i.code for i in report.issues if i.severity == "error"}


def test_dm_r35_a_two_handed_and_a_one_handed_weapon_each_take_one_hand(catalogue):
    assert not codes(check(catalogue, hands=pack("standard-rifle", "heavy-pistol"))) & {"DM-R34", "DM-R35"}
    assert codes(check(catalogue, hands=pack("standard-rifle", "heavy-pistol", "machine-pistol"))) & {"DM-R34", "DM-R35"}


def test_dm_r25_internal_blades_take_no_hand_or_slot(catalogue):
    """The blades act as a melee weapon without a slot; that an arm's busy Attach Point stops them is played."""
    bladed = check(catalogue, modifications=mods(catalogue, "internal-blades"), hands=pack("standard-rifle", "heavy-pistol"))
    assert not codes(bladed) and next(m.used for m in bladed.meters if m.key == "backpack") == 0


def test_dm_r32_removing_a_splice_shows_what_it_returns(catalogue):
    """The exchange table gives each Splice's refund under the general rules; the once-a-mission full refund
    of DM-R32 is kept at the table (the rule index says so)."""
    report = check(catalogue, campaign=2, modifications=[{"item": "cat-reflexes", "paid": 100, "campaign": 2}])
    [row] = report.detail.exchange
    assert row.name == "Cat Reflexes" and row.refund == 100
    assert "table" in dm.RULESET.rules()["DM-R32"].how


def test_dm_r72_usage_limits_reach_the_sheet_with_each_ability(catalogue):
    report = check(catalogue, traits={"kno": 10}, knowledge={"med": 1})
    limited = [a for a in report.detail.abilities if a.frequency]
    listed = {a.name: a.frequency for a in catalogue.of("knowledge_ability")}
    assert limited and all(a.frequency == listed[a.name] for a in limited)


def test_dm_r09_each_trait_shows_the_rep_its_next_level_costs_between_campaigns(catalogue):
    ath = next(t for t in check(catalogue, traits={"ath": 4}).detail.traits if t.trait == "ath")
    assert ath.next_cost == 250 and ath.cost == 450  # level 2 → 2½: 100L² + 50L − 50 steps
