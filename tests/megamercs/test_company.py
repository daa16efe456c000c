"""MEGA MERCS companies: drones on controllers (MM-R13, MM-R14), infantry (MM-R16, MM-R19, MM-A01), the credit
budget (MM-R20), saved and written-in units."""
import pytest

from catalogue.rulesets.base import BuildError, Linked
from catalogue.rulesets.megamercs import company, rules
from tests.megamercs.factories import PACK, codes, item, make_catalogue, unit


@pytest.fixture(scope="module")
def cat():
    return make_catalogue(
        item("sparrow", "drone", size="small", flying=True, hp=4, ish=1, movement=6, vision=8, ewar=20,
             actions=["M", "A"], cost=30),
        item("ox", "drone", size="large", hp=20, movement=4, vision=6, ewar=20, actions=["M", "A"], cost=120),
        item("riflemen", "infantry", members=5, blast_resistance=40, cqc=50, movement=2, vision=6,
             actions=["M", "A"], weapons=[{"weapon": "hmg", "count": 5}], cost=60),
        item("tough", "infantry", members=4, blast_resistance=70, cqc=50, movement=2, vision=6,
             actions=["M", "A"], weapons=[{"weapon": "hmg", "count": 4}], cost=90),
        item("hawk", "aircraft", ahp=4, agility=50, ewar=40, short_range=True, cost=300),
        *[item(f"braced-{br}", "infantry", members=4, blast_resistance=br, cqc=50, movement=2, vision=6,
               actions=["M", "A"], weapons=[{"weapon": "hmg", "count": 4}]) for br in (60, 61)],
    )


def carrier(name="Carrier"):
    """A written-in mecha with one drone controller (docks 2): 400 + 80 credits."""
    return {"unit": {"name": name, "chassis": "mecha", "mounts": [{"item": "controller", "hardpoint": "torso"}]}}


def document(**fields):
    return {"format": "hardpoint.build/1", "ruleset": "megamercs", "kind": "company", "pack": PACK,
            "name": "Test company", **fields}


def issues(report, code):
    return [i for i in report.issues if i.code == code]


def test_mm_r13_one_deployed_drone_per_controller(cat):
    ok = company.validate(document(units=[carrier()], drones=[{"drone": "ox", "controller": 0}]), cat)
    assert "MM-R13" not in codes(ok) and ok.legal
    two = company.validate(document(units=[carrier()], drones=[{"drone": "ox", "controller": 0},
                                                               {"drone": "sparrow", "controller": 0}]), cat)
    [issue] = issues(two, "MM-R13")
    assert issue.severity == "error" and issue.path == "units[0]" and "2 drones with 1 controller" in issue.message


def test_mm_r13_a_controller_mounted_where_it_does_not_fit_deploys_no_drone(cat):
    """L731: a drone needs a mounted controller; one refused by MM-R02 (L813) counts for nothing."""
    misplaced = {"unit": {"name": "Askew", "chassis": "mecha", "mounts": [{"item": "controller", "hardpoint": "r-arm"}]}}
    report = company.validate(document(units=[misplaced], drones=[{"drone": "ox", "controller": 0}]), cat)
    assert "MM-R13" in codes(report, "error") and "HP-MEMBER" in codes(report, "error") and not report.legal


def test_mm_r13_a_drone_needs_a_controller(cat):
    bare = {"unit": {"name": "Bare", "chassis": "mecha", "mounts": []}}
    [issue] = issues(company.validate(document(units=[bare], drones=[{"drone": "ox", "controller": 0}]), cat), "MM-R13")
    assert issue.path == "drones[0]" and "has none" in issue.message
    [issue] = issues(company.validate(document(units=[carrier()], drones=[{"drone": "ox", "controller": 3}]), cat),
                     "MM-R13")
    assert "no unit 4" in issue.message


def test_mm_r14_small_drones_dock_within_room(cat):
    docked = [{"drone": "sparrow", "controller": 0, "docked": True}] * 2
    assert "MM-R14" not in codes(company.validate(document(units=[carrier()], drones=docked), cat))
    [issue] = issues(company.validate(document(units=[carrier()], drones=docked * 2), cat), "MM-R14")
    assert issue.severity == "error" and "docks 4 small drones" in issue.message


def test_mm_r14_large_drones_never_dock(cat):
    [issue] = issues(company.validate(document(units=[carrier()], drones=[{"drone": "ox", "controller": 0,
                                                                           "docked": True}]), cat), "MM-R14")
    assert issue.severity == "error" and "large drones cannot dock" in issue.message


def test_mm_r20_credits_within_the_budget(cat):
    fields = dict(units=[carrier()], drones=[{"drone": "ox", "controller": 0}],
                  infantry=[{"item": "riflemen", "count": 2}], aircraft=[{"item": "hawk"}])
    total = 480 + 120 + 120 + 300
    at_limit = company.validate(document(credit_budget=total, **fields), cat)
    assert at_limit.stats["credits"].value == total and at_limit.legal
    assert next(m for m in at_limit.meters if m.key == "credits").limit == total
    over = company.validate(document(credit_budget=total - 1, **fields), cat)
    [issue] = issues(over, "MM-R20")
    assert issue.severity == "error" and issue.path == "credit_budget"


def test_mm_r20_no_budget_no_bar(cat):
    report = company.validate(document(units=[carrier()]), cat)
    assert not report.meters and report.detail.budget is None and report.stats["credits"].value == 480


def test_megamercs_credit_budget(cat):
    """The table's standing budget applies to a company that sets none; its own wins."""
    table = company.validate(document(units=[carrier()], house_rules={"credit-budget": 400}), cat)
    assert "MM-R20" in codes(table, "error")
    own = company.validate(document(units=[carrier()], credit_budget=500, house_rules={"credit-budget": 400}), cat)
    assert own.legal


def test_megamercs_player_infantry(cat):
    """MM-A01: infantry join as allies by default (a note), may be the players', or refused."""
    fields = dict(infantry=[{"item": "riflemen", "count": 1}])
    assert issues(company.validate(document(**fields), cat), "MM-R16")[0].severity == "info"
    assert not issues(company.validate(document(house_rules={"player-infantry": "players"}, **fields), cat), "MM-R16")
    assert "MM-R16" in codes(company.validate(document(house_rules={"player-infantry": "none"}, **fields), cat), "error")


def test_mm_r19_blast_resistance_over_the_cap_is_warned(cat):
    assert "MM-R19" not in codes(company.validate(document(infantry=[{"item": "riflemen"}]), cat))
    assert "MM-R19" in codes(company.validate(document(infantry=[{"item": "tough"}]), cat), "warning")


def test_mm_r19_blast_resistance_at_60_passes(cat):
    assert "MM-R19" not in codes(company.validate(document(infantry=[{"item": "braced-60"}]), cat))


def test_mm_r19_blast_resistance_at_61_warns(cat):
    [issue] = issues(company.validate(document(infantry=[{"item": "braced-61"}]), cat), "MM-R19")
    assert issue.severity == "warning" and "61" in issue.message


def test_a_saved_unit_counts_its_own_report(cat):
    saved = unit("mecha", ("controller", "torso"), ("hmg", "r-arm"))
    link = Linked("abcd1234", "unit", "Saved", saved, rules.validate(saved, cat))
    report = company.validate(document(units=[{"build": "abcd1234"}], drones=[{"drone": "ox", "controller": 0}]),
                              cat, {"abcd1234": link})
    assert report.legal and report.stats["credits"].value == 400 + 80 + 50 + 120
    assert report.detail.roster[0].ref == "abcd1234"


def test_a_missing_or_wrong_link_is_reported_not_a_crash(cat):
    report = company.validate(document(units=[{"build": "gone1234"}]), cat, {"gone1234": None})
    assert "HP-LINK" in codes(report, "error")
    pilot = Linked("pppp1234", "company", "Other", {}, company.validate(document(), cat))
    assert "HP-LINK" in codes(company.validate(document(units=[{"build": "pppp1234"}]), cat, {"pppp1234": pilot}))


def test_hp_member_an_illegal_unit_makes_the_company_illegal(cat):
    broken = {"unit": {"name": "Broken", "chassis": "mecha", "mounts": [{"item": "mace", "hardpoint": "legs"}]}}
    report = company.validate(document(units=[broken]), cat)
    assert "HP-MEMBER" in codes(report, "error") and report.detail.roster[0].legal is False
    assert not report.legal


def test_unknown_keys_are_refused_naming_the_field(cat):
    with pytest.raises(BuildError) as error:
        company.validate(document(units=[{"unit": {"name": "X", "chassis": "mecha",
                                                   "mounts": [{"item": "nope", "hardpoint": "torso"}]}}],
                                  drones=[{"drone": "hmg", "controller": 0}], infantry=[{"item": "ox"}]), cat)
    assert {p["path"] for p in error.value.problems} == {"drones[0].drone", "infantry[0].item"}
    with pytest.raises(BuildError) as error:
        company.validate(document(units=[{"unit": {"name": "X", "chassis": "mecha",
                                                   "mounts": [{"item": "nope", "hardpoint": "torso"}]}}]), cat)
    assert [p["path"] for p in error.value.problems] == ["units[0].unit.mounts[0].item"]


def test_mm_r16_a_company_of_large_units_has_no_infantry_note(cat):
    assert "MM-R16" not in codes(company.validate(document(units=[carrier()]), cat))
    assert "MM-R16" in codes(company.validate(document(units=[carrier()], infantry=[{"item": "riflemen"}]), cat), "info")
