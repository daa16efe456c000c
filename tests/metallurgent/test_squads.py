"""METALLURGENT squads (digest 2.10, 3.10): Platoon slots, composite Initiative, DZ, Rule of Twos, advice."""
from pathlib import Path

import pytest

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import BuildError, Linked, Report, Stat
from catalogue.rulesets.metallurgent import rules, squads
from catalogue.rulesets.packs import read_pack

DATA = Path(__file__).resolve().parents[2] / "catalogue/rulesets/metallurgent/data/units.yaml"


@pytest.fixture(scope="module")
def catalogue():
    return read_pack(DATA, ACTIVE).catalogue


def anvil(name="Anvil", initiative=3, legal=True, task=None):
    report = Report(detail=rules.AnvilDetail())
    report.stats["initiative"] = Stat("Initiative", initiative, "")
    if not legal:
        report.add("M-R32", "error", "mobility_base", "overloaded")
    return Linked("anvil" + name.lower().replace(" ", ""), "anvil", name, {"task": task}, report)


def squad(catalogue, *platoons, **fields):
    return {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad", "pack": catalogue.pack,
            "name": "Test Squad", "platoons": [{"name": f"P{i + 1}", "members": list(m)} for i, m in enumerate(platoons)],
            **fields}


def unit(key):
    return {"unit": key}


def ref(linked):
    return {"build": linked.share_id}


def issues(report, code):
    return [i for i in report.issues if i.code == code]


def test_slot_costs_follow_component_counts(catalogue):
    assert squads.slot_cost(1) == squads.slot_cost(3) == 1 and squads.slot_cost(4) == 2


# --- M-R80 / M-R81 ------------------------------------------------------------------------------

def test_m_r80_four_units_at_the_limit(catalogue):
    report = squads.validate(squad(catalogue, [unit("rifle-squad")] * 4), catalogue)
    assert report.legal, report.issues


def test_m_r80_empty_platoon(catalogue):
    assert issues(squads.validate(squad(catalogue, []), catalogue), "M-R80")


def test_m_r80_five_units_exceeded(catalogue):
    report = squads.validate(squad(catalogue, [unit("rifle-squad")] * 5), catalogue)
    assert issues(report, "M-R80") and issues(report, "M-R81")


def test_m_r81_anvil_takes_all_four_slots(catalogue):
    alone = anvil()
    report = squads.validate(squad(catalogue, [ref(alone)]), catalogue, {alone.share_id: alone})
    assert report.legal and report.detail.platoons[0].slots == 4


def test_m_r81_anvil_with_another_unit_exceeded(catalogue):
    alone = anvil()
    report = squads.validate(squad(catalogue, [ref(alone), unit("m998-humvee")]), catalogue, {alone.share_id: alone})
    [issue] = issues(report, "M-R81")
    assert "5 of 4 slots" in issue.message


def test_m_r81_two_four_component_units_fill_a_platoon(catalogue):
    report = squads.validate(squad(catalogue, [unit("ah-64a-apache"), unit("mi-24v-gunship")]), catalogue)
    assert report.legal and report.detail.platoons[0].slots == 4


def test_m_r81_two_slot_units_overfill(catalogue):
    report = squads.validate(squad(catalogue, [unit("ah-64a-apache"), unit("mi-24v-gunship"),
                                               unit("rifle-squad")]), catalogue)
    assert issues(report, "M-R81")


# --- M-R82 / M-D07 / M-D08 -------------------------------------------------------------------

def test_m_r82_m_d08_composite_initiative_rounds_up(catalogue):
    # T-72B (6) and M60A3 (5): average 5.5, rounded up to 6 (M-R00).
    report = squads.validate(squad(catalogue, [unit("t-72b-mbt"), unit("m60a3-mbt")]), catalogue)
    platoon = report.detail.platoons[0]
    assert platoon.initiative == 6 and platoon.zone == "Purple" and "ceil((6 + 5) / 2)" in platoon.explain


def test_m_d07_platoon_deployment_zone(catalogue):
    report = squads.validate(squad(catalogue, [unit("m109a2-sph")]), catalogue)
    assert report.detail.platoons[0].zone == "Green"


# --- M-R83 Rule of Twos ------------------------------------------------------------------------

def test_m_r83_t22_rule_of_twos_example():
    entries = [{"team": "them", "name": "T-72 (1)", "initiative": 6}, {"team": "them", "name": "T-72 (2)", "initiative": 6},
               {"team": "them", "name": "M60", "initiative": 5}, {"team": "us", "name": "Anvil A", "initiative": 3},
               {"team": "us", "name": "Anvil B", "initiative": 1}]
    order = squads.turn_order(entries)
    assert [e.name for e in order] == ["T-72 (1)", "T-72 (2)", "Anvil A", "M60", "Anvil B"]
    assert next(e for e in order if e.name == "M60").acts_at == 2


def test_m_r83_two_in_a_row_stand():
    entries = [{"team": "a", "name": "x", "initiative": 6}, {"team": "a", "name": "y", "initiative": 5},
               {"team": "b", "name": "z", "initiative": 4}]
    assert [e.name for e in squads.turn_order(entries)] == ["x", "y", "z"]


def test_m_r83_a_run_of_four_is_broken_twice():
    entries = [{"team": "a", "name": n, "initiative": i} for n, i in (("a1", 9), ("a2", 8), ("a3", 7), ("a4", 6))]
    entries += [{"team": "b", "name": "b1", "initiative": 5}, {"team": "b", "name": "b2", "initiative": 1}]
    names = [e.name for e in squads.turn_order(entries)]
    assert names == ["a1", "a2", "b1", "a3", "a4", "b2"]


def test_m_r83_turn_order_against_an_opponent(catalogue):
    ours = anvil("Ours", 3)
    enemy_report = squads.validate(squad(catalogue, [unit("t-72b-mbt")], [unit("t-72b-mbt")], [unit("m60a3-mbt")]),
                                   catalogue)
    enemy = Linked("enemysquad", "squad", "Red Force", {}, enemy_report)
    report = squads.validate(squad(catalogue, [ref(ours)], opponent="enemysquad"), catalogue,
                             {ours.share_id: ours, "enemysquad": enemy})
    assert [e.name for e in report.detail.turn_order] == ["P1", "P2", "P1", "P3"]
    assert [e.team for e in report.detail.turn_order] == ["theirs", "theirs", "ours", "theirs"]


# --- M-R84 ties / M-R86 deployment -------------------------------------------------------------

def test_m_r84_tied_initiatives_keep_the_given_order_for_the_roll_off():
    entries = [{"team": "ours", "name": "A", "initiative": 4}, {"team": "ours", "name": "B", "initiative": 4},
               {"team": "theirs", "name": "X", "initiative": 4}, {"team": "theirs", "name": "Y", "initiative": 6}]
    order = squads.turn_order(entries)
    assert [e.name for e in order] == ["Y", "A", "B", "X"]
    assert [e.acts_at for e in order] == [6, 4, 4, 4]  # nobody's Initiative is changed to settle a tie


@pytest.mark.django_db
def test_m_r84_the_turn_order_says_ties_are_rolled_off(client, packs):
    from builder import store
    from tests.helpers.refs import pack_ref

    base = {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad",
            "pack": pack_ref("metallurgent", "squad")}
    red = store.create(store.check({**base, "name": "Red", "platoons": [{"name": "Tanks",
                                                                         "members": [{"unit": "t-72b-mbt"}]}]}))
    blue = store.create(store.check({**base, "name": "Blue", "opponent": red.share_id,
                                     "platoons": [{"name": "Armour", "members": [{"unit": "t-72b-mbt"}]}]}))
    html = client.get(f"/b/{blue.edit_token}/").content.decode()
    assert 'id="turn-order"' in html and "ties are rolled off at the table (M-R84)" in html
    assert "M-R86" in html and "deploys in its own side" in html


def test_m_r86_an_opponent_deploys_in_its_own_zones(catalogue):
    ours, enemy = anvil(), Linked("enemysquad", "squad", "Red Force", {}, Report(detail=squads.SquadDetail()))
    report = squads.validate(squad(catalogue, [ref(ours)], opponent="enemysquad"), catalogue,
                             {ours.share_id: ours, "enemysquad": enemy})
    [issue] = issues(report, "M-R86")
    assert issue.severity == "info" and issue.path == "opponent" and report.legal
    assert "Red Force" in issue.message and "friendly NPCs" in issue.message


def test_m_r86_no_note_without_an_opponent(catalogue):
    assert not issues(squads.validate(squad(catalogue, [unit("rifle-squad")]), catalogue), "M-R86")


# --- M-R85 / M-R75 -----------------------------------------------------------------------------

@pytest.mark.parametrize("players,severity", [(4, None), (5, "warning"), (6, "error")])
def test_m_r85_player_count(catalogue, players, severity):
    report = squads.validate(squad(catalogue, [unit("rifle-squad")], players=players), catalogue)
    found = issues(report, "M-R85")
    assert [i.severity for i in found] == ([severity] if severity else [])


def test_m_r85_players_default_to_one_per_anvil(catalogue):
    anvils = [anvil(f"A{i}") for i in range(5)]
    report = squads.validate(squad(catalogue, *[[ref(a)] for a in anvils]), catalogue, {a.share_id: a for a in anvils})
    assert report.stats["players"].value == 5 and issues(report, "M-R85")[0].severity == "warning"


def test_m_r75_one_commander_is_fine(catalogue):
    assert not issues(squads.validate(squad(catalogue, [unit("m577a2-command-post")]), catalogue), "M-R75")


def test_m_r75_two_commanders_warn(catalogue):
    boss = anvil("Boss", task="commander")
    report = squads.validate(squad(catalogue, [unit("m577a2-command-post")], [ref(boss)]), catalogue,
                             {boss.share_id: boss})
    [issue] = issues(report, "M-R75")
    assert issue.severity == "warning" and issue.path == "platoons[1].members[0]"


# --- links (Hardpoint's own HP-LINK and HP-UNIT) ---------------------------------------------------

def test_hp_link_deleted_anvil_is_reported_not_a_crash(catalogue):
    report = squads.validate(squad(catalogue, [{"build": "gone1234"}], [unit("rifle-squad")]), catalogue, {"gone1234": None})
    [issue] = issues(report, "HP-LINK")
    assert issue.severity == "error" and issue.path == "platoons[0].members[0]" and "no longer exists" in issue.message
    assert report.detail.platoons[1].initiative == 4


def test_hp_link_a_pilot_is_not_a_platoon_member(catalogue):
    crew = Linked("crew1234", "pilot", "Vesna", {}, Report())
    report = squads.validate(squad(catalogue, [ref(crew)]), catalogue, {crew.share_id: crew})
    [issue] = issues(report, "HP-LINK")
    assert "Vesna is a pilot, not an Anvil" in issue.message and report.detail.platoons[0].slots == 0


def test_hp_link_an_existing_anvil_and_opponent_are_fine(catalogue):
    ours, enemy = anvil(), Linked("enemysquad", "squad", "Red Force", {}, Report(detail=squads.SquadDetail()))
    report = squads.validate(squad(catalogue, [ref(ours)], opponent="enemysquad"), catalogue,
                             {ours.share_id: ours, "enemysquad": enemy})
    assert not issues(report, "HP-LINK") and report.legal


def test_hp_link_an_opponent_that_is_not_a_saved_squad_warns(catalogue):
    ours = anvil()
    report = squads.validate(squad(catalogue, [ref(ours)], opponent="gone5678"), catalogue,
                             {ours.share_id: ours, "gone5678": None})
    [issue] = issues(report, "HP-LINK")
    assert issue.severity == "warning" and issue.path == "opponent" and report.detail.turn_order == []


def test_hp_link_an_anvils_deleted_pilot_warns():
    report = Report(detail=rules.AnvilDetail())
    rules.check_pilot("gone9999", None, report)
    [issue] = issues(report, "HP-LINK")
    assert issue.severity == "warning" and issue.path == "pilot" and report.detail.pilot is None


def test_hp_member_an_illegal_anvil_makes_the_squad_illegal(catalogue):
    bad = anvil("Heavy", legal=False)
    report = squads.validate(squad(catalogue, [ref(bad)]), catalogue, {bad.share_id: bad})
    [issue] = issues(report, "HP-MEMBER")
    assert issue.severity == "error" and "M-R32" in issue.message and not report.legal
    assert report.detail.platoons[0].units[0].legal is False


def test_hp_member_a_legal_anvil_is_not_flagged(catalogue):
    good = anvil("Light")
    report = squads.validate(squad(catalogue, [ref(good)]), catalogue, {good.share_id: good})
    assert not issues(report, "HP-MEMBER") and report.detail.platoons[0].units[0].legal is True



def test_unknown_unit_is_unreadable(catalogue):
    with pytest.raises(BuildError):
        squads.validate(squad(catalogue, [unit("no-such-tank")]), catalogue)
