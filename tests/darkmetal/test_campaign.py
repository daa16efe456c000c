"""DARK METAL campaign records: ally ARP income and upgrade paths (DM-R62-DM-R67) and the optional Injury rule
(DM-R71), each at its limit and one past it."""
import pytest

from catalogue.rulesets.base import BuildError
from catalogue.rulesets.darkmetal import audit, campaign, rules
from tests.darkmetal.factories import ally, check, codes, leader, trait

INFANTRY_PATH = {"template": "standard-infantry", "hired_as": "recruit",
                 "upgrades": [{"template": "standard-infantry", "campaign": 0, "paid_with": "arp"}]}


def member(name="Ash", **fields):
    """A Recruit-tree ally; `fields` may name its tier and path."""
    return {"name": name, "template": "recruit", **fields}


def record(report, index=0):
    return report.detail.ally_records[index]


def problem_paths(catalogue, **fields):
    with pytest.raises(BuildError) as error:
        check(catalogue, **fields)
    return [p["path"] for p in error.value.problems]


# --- DM-R65: ARP income ---------------------------------------------------------------------------

def test_dm_r65_arp_earned_per_scenario_campaign_and_training(catalogue):
    ash = ally("recruit", name="Ash", arp=[{"campaign": 0, "scenarios": 2, "training": 1}, {"campaign": 1, "scenarios": 1}])
    bo = ally("recruit", name="Bo", hired=1)  # joined in campaign 1: only that campaign's success counts
    report = check(catalogue, campaign=1, traits={"com": 9}, allies=[ash, bo],
                   campaigns=[{"campaign": 0, "scenarios": 3, "won": True}, {"campaign": 1, "scenarios": 2, "won": True}])
    assert report.legal
    assert record(report, 0).arp_earned == 2 + 1 + 1 + 2  # scenarios, Training, and both won campaigns
    assert record(report, 1).arp_earned == 1  # it sat the scenarios out but the campaign still counts


def test_dm_r65_training_needs_communication_4_half(catalogue):
    trained = [ally("recruit", name="Ash", arp=[{"campaign": 0, "scenarios": 1, "training": 1}])]
    played = [{"campaign": 0, "scenarios": 1}]
    assert "DM-R65" not in codes(check(catalogue, traits={"com": 9}, allies=trained, campaigns=played))
    assert "DM-R65" in codes(check(catalogue, traits={"com": 8}, allies=trained, campaigns=played))


def test_dm_r65_training_at_most_one_per_completed_scenario(catalogue):
    allies = [ally("recruit", name=n, arp=[{"campaign": 0, "scenarios": 2, "training": 1}]) for n in ("Ash", "Bo")]
    assert "DM-R65" not in codes(check(catalogue, traits={"com": 9}, allies=allies,
                                       campaigns=[{"campaign": 0, "scenarios": 2}]))
    allies[1]["arp"][0]["training"] = 2
    assert "DM-R65" in codes(check(catalogue, traits={"com": 9}, allies=allies, campaigns=[{"campaign": 0, "scenarios": 2}]))


def test_dm_r65_scenarios_within_the_campaigns_record(catalogue):
    played = [{"campaign": 0, "scenarios": 3}]
    assert "DM-R65" not in codes(check(catalogue, allies=[ally("recruit", arp=[{"campaign": 0, "scenarios": 3}])],
                                       campaigns=played))
    assert "DM-R65" in codes(check(catalogue, allies=[ally("recruit", arp=[{"campaign": 0, "scenarios": 4}])],
                                   campaigns=played))
    assert "DM-R65" in codes(check(catalogue, allies=[ally("recruit", arp=[{"campaign": 0, "scenarios": 1}])]))


def test_dm_r65_impossible_records_are_refused_naming_the_field(catalogue):
    assert problem_paths(catalogue, campaign=1, campaigns=[{"campaign": 2}]) == ["campaigns[0].campaign"]
    assert problem_paths(catalogue, campaign=1, campaigns=[{"campaign": 1}, {"campaign": 1}]) == ["campaigns[1].campaign"]
    late = ally("recruit", hired=1, arp=[{"campaign": 0}])
    assert problem_paths(catalogue, campaign=1, allies=[late]) == ["allies[0].arp[0].campaign"]
    assert problem_paths(catalogue, campaign=0, allies=[ally("recruit", hired=3)]) == ["allies[0].hired"]
    with pytest.raises(BuildError):
        check(catalogue, campaigns=[{"campaign": 0, "scenarios": -1}])


# --- DM-R62, DM-R07: an ally's ARP is its own ---------------------------------------------------

def test_dm_r62_an_allys_earned_arp_pays_only_for_that_ally(catalogue):
    played = [{"campaign": 0, "scenarios": 10}, {"campaign": 1}]
    earner = member("Ash", deployed=False, arp=[{"campaign": 0, "scenarios": 10}])
    # Bo's upgrade (10 ARP) cannot be paid from Ash's 10 ARP; Communication ½ gives the Leader no ARP.
    spender = member("Bo", deployed=False, **INFANTRY_PATH)
    assert "DM-R07" in codes(check(catalogue, campaign=1, allies=[earner, spender], campaigns=played))
    paid = {**earner, **INFANTRY_PATH}
    report = check(catalogue, campaign=1, allies=[paid], campaigns=played)
    assert report.legal and record(report).arp_left == 0
    assert next(m for m in report.meters if m.key == "arp").used == 0  # nothing drawn from the Leader's ARP


def test_dm_r62_arp_gear_is_charged_to_the_ally(catalogue):
    carried = member(paid_with="arp", deployed=False, weapons=["heavy-rifle"], arp=[{"campaign": 0, "scenarios": 4}])
    report = check(catalogue, allies=[carried], campaigns=[{"campaign": 0, "scenarios": 4}])
    assert report.legal  # 35 Rep of rifle is 4 ARP, the ally's own
    carried["arp"][0]["scenarios"] = 3
    assert "DM-R07" in codes(check(catalogue, allies=[carried], campaigns=[{"campaign": 0, "scenarios": 3}]))


# --- DM-R63: refunds --------------------------------------------------------------------------------

def test_dm_r63_dismissing_returns_rep_to_the_leader_and_arp_to_the_ally(catalogue):
    played = [{"campaign": 0, "scenarios": 10}]
    ash = {**ally("recruit", name="Ash", arp=[{"campaign": 0, "scenarios": 10}]), **INFANTRY_PATH}
    report = check(catalogue, campaign=1, traits={"com": 2}, allies=[ash], campaigns=played)
    rec, cost = record(report), report.detail.ally_costs[0]
    assert (rec.rep_paid, rec.arp_paid) == (0, 10) and (cost.refund_rep, cost.refund_arp) == (0, 10)


@pytest.mark.parametrize("currency", ["with-hire", "rep"])
def test_dm_r63_a_dismissed_allys_gear_comes_back_as_it_was_paid(catalogue, currency):
    """A-43: an ARP-hired ally's 35-Rep rifle was paid as 4 ARP, unless the table pays all gear in Rep."""
    carried = member(paid_with="arp", deployed=False, weapons=["heavy-rifle"], arp=[{"campaign": 0, "scenarios": 4}])
    bare = {**carried, "weapons": []}
    costs = [check(catalogue, allies=[a], campaigns=[{"campaign": 0, "scenarios": 4}],
                   house_rules={"ally-gear-currency": currency}).detail.ally_costs[0] for a in (carried, bare)]
    gear = (costs[0].refund_rep - costs[1].refund_rep, costs[0].refund_arp - costs[1].refund_arp)
    assert gear == ((0, 4) if currency == "with-hire" else (35, 0))


# --- DM-R64: who drops, who stays aboard ------------------------------------------------------------

@pytest.mark.django_db
def test_dm_r64_allies_left_on_the_ship_are_shown_so(client, packs):
    from builder import store
    from tests.helpers.html_forms import without_text_to_paste
    from tests.helpers.refs import pack_ref

    document = {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "name": "Moroc",
                "pack": pack_ref("darkmetal", "leader"), "traits": {"com": 2},
                "allies": [{"name": "Ash", "template": "recruit"}, {"name": "Bo", "template": "recruit", "deployed": False}]}
    build = store.create(store.check(document))
    share = without_text_to_paste(client.get(f"/s/{build.share_id}/").content.decode())
    assert share.count("on the ship") == 1
    assert next(m for m in build_report(document).meters if m.key == "allies").used == 1


def build_report(document):
    from builder import store

    return store.check(document).report


# --- DM-R66: upgrade paths and their prices ----------------------------------------------------------

def test_dm_r66_upgrades_follow_the_tree(catalogue):
    played = [{"campaign": 0, "scenarios": 30}]
    rich = {"arp": [{"campaign": 0, "scenarios": 30}]}
    path = {"template": "veteran-infantry", "hired_as": "recruit",
            "upgrades": [{"template": "standard-infantry", "paid_with": "arp"},
                         {"template": "veteran-infantry", "paid_with": "arp"}]}
    report = check(catalogue, traits={"com": 4}, allies=[member(**rich, **path)], campaigns=played)
    assert "DM-R66" not in codes(report)
    assert [t.price for t in record(report).tiers] == [0, 10, 15]  # each step its own listed cost
    skipped = {**path, "upgrades": [{"template": "veteran-infantry", "paid_with": "arp"}]}
    assert "DM-R66" in codes(check(catalogue, traits={"com": 4}, allies=[member(**rich, **skipped)], campaigns=played))
    crossed = {**path, "upgrades": [path["upgrades"][0], {"template": "veteran-marine", "paid_with": "arp"}],
               "template": "veteran-marine"}
    assert "DM-R66" in codes(check(catalogue, traits={"com": 4}, allies=[member(**rich, **crossed)], campaigns=played))


def test_dm_r66_the_path_ends_at_the_allys_tier(catalogue):
    assert "DM-R66" in codes(check(catalogue, traits={"com": 4}, allies=[member(**{**INFANTRY_PATH, "template": "elite-infantry"})]))


def test_dm_r66_medic_steps_cost_the_difference_of_totals(catalogue):
    medic, rookie = catalogue.items["medic"], catalogue.items["rookie-medic"]
    assert campaign.step_cost(rookie, medic) == (125, 15)
    assert campaign.step_cost(catalogue.items["standard-marine"], catalogue.items["sniper"]) == (325, 37)


def test_dm_r66_upgrades_need_the_tier_hired(catalogue):
    upgrades = INFANTRY_PATH["upgrades"]
    assert problem_paths(catalogue, allies=[member(template="standard-infantry", upgrades=upgrades)]) == [
        "allies[0].hired_as"]
    early = [{"template": "standard-infantry", "campaign": 0}]
    assert problem_paths(catalogue, campaign=2, allies=[member(hired=1, hired_as="recruit", upgrades=early,
                                                           template="standard-infantry")]) == [
        "allies[0].upgrades[0].campaign"]


def test_dm_r66_a_saved_allys_upgrades_only_grow():
    before = {"campaign": 1, "campaigns": [{"campaign": 0, "scenarios": 2, "won": True}],
              "allies": [{"name": "Ash", **INFANTRY_PATH, "arp": [{"campaign": 0, "scenarios": 2, "training": 0}]}]}
    grown = {**before, "allies": [{**before["allies"][0], "template": "veteran-infantry",
                                   "upgrades": INFANTRY_PATH["upgrades"] + [{"template": "veteran-infantry"}]}]}
    campaign.check_update(before, grown)
    campaign.check_update(before, {**before, "allies": []})  # dismissed
    rewritten = {**before, "allies": [{**before["allies"][0], "upgrades": [{**INFANTRY_PATH["upgrades"][0], "paid_with": "rep"}]}]}
    with pytest.raises(BuildError, match="Ash's upgrades"):
        campaign.check_update(before, rewritten)
    forgotten = {**before, "allies": [{**before["allies"][0], "arp": []}]}
    with pytest.raises(BuildError):
        campaign.check_update(before, forgotten)
    with pytest.raises(BuildError, match="campaigns already played"):
        campaign.check_update(before, {**before, "campaigns": []})


# --- DM-R67: knocked out ---------------------------------------------------------------------------

def test_dm_r67_knocked_out_allies_sit_out_the_campaign(catalogue):
    out = ally("standard-infantry", knocked_out=1)
    assert "DM-R67" in codes(check(catalogue, campaign=1, traits={"com": 2}, allies=[out]))
    assert "DM-R67" not in codes(check(catalogue, campaign=1, traits={"com": 2}, allies=[{**out, "deployed": False}]))
    assert "DM-R67" not in codes(check(catalogue, campaign=2, traits={"com": 2}, allies=[out]))  # back at full health


def test_dm_r67_recruits_are_not_revived_unless_petitioned(catalogue):
    recruit = ally("recruit", knocked_out=0)
    report = check(catalogue, campaign=1, allies=[recruit])
    assert "DM-R67" in codes(report) and record(report).status == "not revived"
    assert "DM-R67" not in codes(check(catalogue, campaign=1, allies=[{**recruit, "petitioned": True}]))


# --- DM-R71: the optional Injury rule ---------------------------------------------------------------

def injured(catalogue, *taken, now=0, **fields):
    return check(catalogue, campaign=now, injury_rule=True, traits={"ath": 6, "pre": 6, "ins": 6, "awa": 6, "kno": 4,
                                                                      "com": 2},
                 injuries=[{"item": key, "campaign": when} for key, when in taken], **fields)


def test_dm_r71_an_injury_lowers_pools_in_the_same_pass(catalogue):
    report = injured(catalogue, ("eye-damage", 0))
    assert (trait(report, "awa").pool, trait(report, "ath").pool) == (2, 2)
    assert trait(report, "awa").fate == 1  # bonuses of the base level stay (DM-R16)
    assert injured(catalogue, ("crippled-leg", 0)).stats["move"].value == 3


def test_dm_r71_the_boon_comes_two_campaigns_later(catalogue):
    assert trait(injured(catalogue, ("eye-damage", 0), now=1), "pre").pool == 3
    assert trait(injured(catalogue, ("eye-damage", 0), now=2), "pre").pool == 4


def test_dm_r71_a_repeated_injury_stacks_its_losses_not_its_boon(catalogue):
    report = injured(catalogue, ("crippled-arm", 0), ("crippled-arm", 1), now=3)
    assert trait(report, "ath").pool == 1 and trait(report, "awa").pool == 4  # −2 Ath, boon +1 Awa once
    assert report.stats["injury_rep_bonus"].value == 10


def test_dm_r71_rep_bonus_for_every_injury_but_a_broken_rib(catalogue):
    assert injured(catalogue, ("broken-rib", 0)).stats["injury_rep_bonus"].value == 0
    assert injured(catalogue, ("broken-rib", 0), ("wicked-scar", 0), ("the-shakes", 0)).stats[
        "injury_rep_bonus"].value == 20


def test_dm_r71_a_broken_rib_heals_after_two_campaigns(catalogue):
    assert trait(injured(catalogue, ("broken-rib", 0), now=2), "ins").pool == 3


def test_dm_r71_injuries_only_with_the_optional_rule(catalogue):
    assert problem_paths(catalogue, injuries=[{"item": "eye-damage"}]) == ["injuries"]
    assert problem_paths(catalogue, injury_rule=True, injuries=[{"item": "eye-damage", "campaign": 1}]) == [
        "injuries[0].campaign"]
    assert problem_paths(catalogue, injury_rule=True, injuries=[{"item": "trauma-kit"}]) == ["injuries[0].item"]
    assert "injury_rep_bonus" not in check(catalogue).stats


def test_dm_r71_wicked_scar_keeps_knowledge_points(catalogue):
    report = injured(catalogue, ("wicked-scar", 0), knowledge={"sec": 5, "ste": 5})
    assert trait(report, "kno").pool == 1 and "DM-R12" not in codes(report)  # points follow the base level
    # The good looks and experience points "don't actually do anything": the effect audit says so.
    assert {n.reason for n in audit.notes(audit.PACK_NAME, "injury", "wicked-scar")} >= {"changes nothing in play"}


def test_leader_document_reads_the_injury_fields(catalogue):
    assert rules.parse(leader(catalogue, injury_rule=True, injuries=[{"item": "eye-damage", "campaign": 0}])).injuries
