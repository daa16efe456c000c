"""Pilot and squad pages, links between builds, copies, the squad PDF, and bad input on the new forms."""
import io
import json
import subprocess

import pytest

from builder import store
from builder.models import Build
from catalogue.loader import latest_pack
from tests.helpers.refs import pack_ref

pytestmark = pytest.mark.django_db

NEW_PILOT, NEW_SQUAD = "/new/metallurgent/pilot/", "/new/metallurgent/squad/"


PILOTS, UNITS = pack_ref("metallurgent", "pilot"), pack_ref("metallurgent", "squad")


def pilot_form(**overrides):
    data = {"pack": PILOTS, "name": "Vesna", "xp": "30", "mettle": "6", "history": "[]",
            "saved-history": "0"}
    data.update(overrides)
    return data


def squad_form(platoons, **overrides):
    data = {"pack": UNITS, "name": "Red Force", "platoon-count": str(len(platoons))}
    for i, members in enumerate(platoons):
        data[f"platoon-{i}-name"] = f"Platoon {i + 1}"
        data[f"platoon-{i}-count"] = str(len(members))
        for j, member in enumerate(members):
            data[f"platoon-{i}-member-{j}"] = member
    data.update(overrides)
    return data


def saved(build_kind, **document):
    base = {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": build_kind}
    return store.create(store.check({**base, **document}))


@pytest.fixture
def vanguard(packs):
    return dict(latest_pack("metallurgent").examples[0])


# --- pilots ---------------------------------------------------------------------------------------

def test_new_pilot_page_shows_trees_pools_and_sp(client, packs):
    html = client.get(NEW_PILOT).content.decode()
    for text in ("Skill trees", "Dice pools", "Skill Points", "Battlemaster", "Lightning Strike", "Lifepath"):
        assert text in html


def test_choosing_a_spec_and_buying_off_spec_shows_the_markup(client, packs):
    chosen = client.post(NEW_PILOT, pilot_form(specialisation="guardian"))
    history = json.loads(chosen.context["history_json"])
    assert history == [{"specialise": "guardian"}]
    bought = client.post(NEW_PILOT, pilot_form(history=json.dumps(history), action="learn:bm-lightning-strike"))
    html = bought.content.decode()
    assert json.loads(bought.context["history_json"])[-1] == {"learn": "bm-lightning-strike", "paid": 3}
    assert "×1.5" in html and bought.context["stats"]["sp_spent"].value == 3


def test_m_r96_a_spec_chosen_on_an_unsaved_page_can_still_be_changed_until_saved(client, packs):
    """M-R96 fixes a Specialisation once chosen; picking one in the form is not choosing until it is saved."""
    chosen = client.post(NEW_PILOT, pilot_form(specialisation="guardian"))
    assert b'id="spec-locked"' not in chosen.content and b'<option value="guardian" selected>' in chosen.content
    history = chosen.context["history_json"]
    changed = client.post(NEW_PILOT, pilot_form(history=history, specialisation="battlemaster"))
    assert json.loads(changed.context["history_json"]) == [{"specialise": "battlemaster"}]
    cleared = client.post(NEW_PILOT, pilot_form(history=history, specialisation=""))
    assert json.loads(cleared.context["history_json"]) == []
    pilot = saved("pilot", pack=PILOTS, name="Vesna", xp=30, history=[{"specialise": "guardian"}])
    assert b'<fieldset id="spec-locked" disabled' in client.get(pilot.get_absolute_url()).content  # saved: fixed
    learned = json.dumps([{"specialise": "guardian"}, {"learn": "gd-brace-for-impact", "paid": 1}])
    assert b'id="spec-locked"' in client.post(NEW_PILOT, pilot_form(history=learned)).content  # Skills bought on it


def test_the_learn_picker_learns_a_skill_at_todays_price(client, packs):
    history = json.dumps([{"specialise": "guardian"}])
    bought = client.post(NEW_PILOT, pilot_form(history=history, learn="bm-lightning-strike", action="learn"))
    assert json.loads(bought.context["history_json"])[-1] == {"learn": "bm-lightning-strike", "paid": 3}  # M-R100
    html = bought.content.decode()
    picker = html[html.index('<select name="learn"'):html.index("</select>", html.index('<select name="learn"'))]
    assert 'value="bm-lightning-strike"' not in picker and 'value="gd-brace-for-impact"' in picker  # held: not offered
    unknown = client.post(NEW_PILOT, pilot_form(learn="no-such-skill"))
    assert unknown.status_code == 422 and "<code>learn" in unknown.content.decode()


def test_an_xp_edit_is_a_value_edit_and_the_pickers_follow_it(client, packs):
    """More XP makes more Skills affordable: the live answer redraws the SP, the issues and each Skill's button, and
    the pickers' refresh that it asks for marks what can be learned now; together they are the page of the edit."""
    from tests.helpers.html_forms import HTMX, read_form, swapped, without_state

    values, _ = read_form(client.get(NEW_PILOT).content.decode())
    before = client.post(NEW_PILOT, values, **HTMX).content.decode()
    edited = {**values, "xp": ["30"]}
    answer = client.post(NEW_PILOT, {**edited, "view": ["live"]}, **HTMX)
    assert "HX-Retarget" not in answer and "pickers-stale" in answer["HX-Trigger-After-Settle"]
    assert 'id="buy-bm-quickstep" hx-swap-oob="true"><button class="small" name="action" value="learn:bm-quickstep"' \
        in answer.content.decode()
    pickers = client.post(NEW_PILOT, {**edited, "view": ["pickers"]}, **HTMX).content.decode()
    after = client.post(NEW_PILOT, edited, **HTMX).content.decode()
    state = ["xp", "csrfmiddlewaretoken"]
    assert without_state(swapped(swapped(before, answer.content.decode()), pickers), state) == without_state(after, state)


def test_undo_removes_only_unsaved_events(client, packs):
    history = [{"specialise": "guardian"}, {"learn": "gd-brace-for-impact", "paid": 1}]
    undone = client.post(NEW_PILOT, pilot_form(history=json.dumps(history), action="undo", **{"saved-history": "1"}))
    assert json.loads(undone.context["history_json"]) == history[:1]
    kept = client.post(NEW_PILOT, pilot_form(history=json.dumps(history[:1]), action="undo", **{"saved-history": "1"}))
    assert json.loads(kept.context["history_json"]) == history[:1]


def test_saved_pilot_history_cannot_be_rewritten(client, packs):
    build = saved("pilot", pack=PILOTS, name="Vesna", xp=30,
                  history=[{"specialise": "guardian"}])
    rewritten = {**build.document, "history": [{"specialise": "scout"}]}
    response = client.put(f"/api/builds/{build.edit_token}", {"version": 1, "build": rewritten},
                          content_type="application/json")
    assert response.status_code == 422 and "history" in response.json()["problems"][0]["path"]
    grown = {**build.document, "history": build.document["history"] + [{"learn": "gd-brace-for-impact", "paid": 1}]}
    assert client.put(f"/api/builds/{build.edit_token}", {"version": 1, "build": grown},
                      content_type="application/json").status_code == 200


def test_pilot_bad_input_is_422_and_nothing_saved(client, packs):
    for bad, field in (({"history": "{not json"}, "history"), ({"history": '"a string"'}, "history"),
                       ({"action": "learn:no-such-skill"}, "action"), ({"xp": "lots"}, "xp"), ({"mettle": "٣"}, "mettle"),
                       ({"history": json.dumps([{"learn": "gd-brace-for-impact"}])}, "history[0]"),
                       ({"name": "<img src=x>"}, "name"), ({"lifepath": "nimbus-core"}, "lifepath")):
        response = client.post(NEW_PILOT, pilot_form(**{"action": "save", **bad}))
        assert response.status_code == 422 and f"<code>{field}" in response.content.decode(), bad
    assert Build.objects.count() == 0


# --- an Anvil's Pilot -------------------------------------------------------------------------------

def test_anvil_names_its_pilot_and_the_sheet_shows_it(client, vanguard, tmp_path):
    crew = saved("pilot", pack=PILOTS, name="Vesna Orlova", xp=30,
                 history=[{"specialise": "guardian"}, {"learn": "bm-lightning-strike", "paid": 3}])
    anvil = saved("anvil", **{**vanguard, "pilot": crew.share_id})
    checked = store.check(anvil.document)
    assert checked.report.detail.pilot.name == "Vesna Orlova"

    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(client.get(f"/s/{anvil.share_id}.pdf").content)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Vesna Orlova" in text and "Lightning Strike" in text and "Guardian" in text
    share = client.get(f"/s/{anvil.share_id}/").content.decode()
    assert 'id="pilot"' in share and "Vesna Orlova" in share and "Lightning Strike" in share
    assert f"/s/{crew.share_id}/" in share


def test_anvil_with_a_deleted_pilot_still_opens(client, vanguard):
    crew = saved("pilot", pack=PILOTS, name="Gone")
    anvil = saved("anvil", **{**vanguard, "pilot": crew.share_id})
    crew.delete()
    response = client.get(f"/s/{anvil.share_id}/")
    assert response.status_code == 200 and "no longer exists" in response.content.decode()


# --- squads -----------------------------------------------------------------------------------------

def test_squad_from_units_and_a_saved_anvil(client, vanguard):
    anvil = saved("anvil", **vanguard)
    response = client.post(NEW_SQUAD, squad_form([[f"build:{anvil.share_id}"], ["unit:t-72b-mbt", "unit:m60a3-mbt"]],
                                                 action="save"))
    squad = Build.objects.get(kind="squad")
    assert response["Location"] == f"/b/{squad.edit_token}/"
    page = client.get(f"/b/{squad.edit_token}/").content.decode()
    assert "Hailwall Vanguard" in page and "T-72B main battle tank" in page and "ceil((6 + 5) / 2)" in page


def test_squad_search_adds_by_name_and_says_when_nothing_matches(client, packs):
    found = client.post(NEW_SQUAD, squad_form([[]], **{"add-0": "T-72B main battle tank"}))
    assert "T-72B main battle tank" in found.content.decode() and found.status_code == 200
    missing = client.post(NEW_SQUAD, squad_form([[]], **{"add-0": "Zeppelin"}))
    assert "Nothing matches" in missing.content.decode()


def test_squad_search_takes_part_of_a_name_and_lists_the_several_it_could_mean(client, packs):
    from tests.helpers.html_forms import read_form

    found = client.post(NEW_SQUAD, squad_form([[]], **{"add-0": "t-72"}))
    values, _ = read_form(found.content.decode())
    assert values["platoon-0-member-0"] == ["unit:t-72b-mbt"]
    several = client.post(NEW_SQUAD, squad_form([[]], **{"add-0": "tank"})).content.decode()
    assert "“tank” matches" in several and "T-72B main battle tank" in several and "platoon-0-member-0" not in several


def test_each_platoon_picks_conventional_units_and_marks_those_that_would_overfill_it(client, packs):
    added = client.post(NEW_SQUAD, squad_form([["unit:rifle-squad"], []], **{"platoon-1-add-unit": "t-72b-mbt"}))
    assert [[m["unit"] for m in p["members"]] for p in added.context["document"]["platoons"]] == \
        [["rifle-squad"], ["t-72b-mbt"]]
    html = client.post(NEW_SQUAD, squad_form([["unit:rifle-squad"] * 4])).content.decode()
    picker = html[html.index('<select name="platoon-0-add-unit"'):]
    picker = picker[:picker.index("</select>")]
    assert '<optgroup label="Tanks">' in picker and picker.count('data-reason="M-R80') == picker.count("<option") - 1


def test_squad_platoon_actions(client, packs):
    form = squad_form([["unit:rifle-squad"], ["unit:t-72b-mbt"]])
    moved_up = client.post(NEW_SQUAD, {**form, "action": "up:1"}).context["document"]["platoons"]
    assert [m["unit"] for m in moved_up[0]["members"]] == ["t-72b-mbt"]
    added = client.post(NEW_SQUAD, {**form, "action": "add-platoon"}).context["document"]["platoons"]
    assert len(added) == 3
    moved = client.post(NEW_SQUAD, {**form, "platoon-0-member-0-to": "1"}).context["document"]["platoons"]
    assert moved[0]["members"] == [] and len(moved[1]["members"]) == 2


def test_squad_with_a_deleted_anvil_still_opens_and_names_it(client, vanguard):
    anvil = saved("anvil", **vanguard)
    squad = saved("squad", pack=UNITS, name="Blue",
                  platoons=[{"name": "Alpha", "members": [{"build": anvil.share_id}]}])
    anvil.delete()
    for url in (f"/s/{squad.share_id}/", f"/b/{squad.edit_token}/"):
        html = client.get(url).content.decode()
        assert f"missing build {anvil.share_id}" in html and "no longer exists" in html
    assert client.get(f"/s/{squad.share_id}.pdf").status_code == 200


def test_copy_squad_forks_every_anvil_and_pilot(client, vanguard):
    crew = saved("pilot", pack=PILOTS, name="Vesna")
    anvil = saved("anvil", **{**vanguard, "pilot": crew.share_id})
    squad = saved("squad", pack=UNITS, name="Blue",
                  platoons=[{"name": "Alpha", "members": [{"build": anvil.share_id}]},
                            {"name": "Bravo", "members": [{"unit": "rifle-squad"}]}])
    response = client.__class__().post(f"/s/{squad.share_id}/copy")
    copy = Build.objects.get(kind="squad", name="Blue (copy)")
    assert response["Location"] == f"/b/{copy.edit_token}/"
    anvil_copy = Build.objects.get(share_id=copy.document["platoons"][0]["members"][0]["build"])
    assert anvil_copy.pk != anvil.pk and anvil_copy.forked_from == anvil
    assert anvil_copy.document["pilot"] != crew.share_id
    assert Build.objects.get(share_id=anvil_copy.document["pilot"]).forked_from == crew
    assert [m["unit"] for m in copy.document["platoons"][1]["members"]] == ["rifle-squad"]


def test_squad_pdf_has_a_cover_then_every_anvil_and_pilot(client, vanguard, tmp_path):
    crew = saved("pilot", pack=PILOTS, name="Vesna Orlova")
    anvil = saved("anvil", **{**vanguard, "pilot": crew.share_id})
    squad = saved("squad", pack=UNITS, name="Blue Force",
                  platoons=[{"name": "Alpha", "members": [{"build": anvil.share_id}]},
                            {"name": "Bravo", "members": [{"unit": "t-72b-mbt"}, {"unit": "m60a3-mbt"}]}])
    path = tmp_path / "squad.pdf"
    path.write_bytes(client.get(f"/s/{squad.share_id}.pdf").content)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    assert "ROSTER" in pages[0] and "INITIATIVE ORDER" in pages[0] and "T-72B main battle tank" in pages[0]
    assert any("Hailwall Vanguard" in p and "TRACKERS" in p for p in pages[1:])
    assert any("Vesna Orlova" in p and "DICE POOLS" in p for p in pages[1:])
    assert squad.edit_token not in text and anvil.edit_token not in text


def test_squad_json_export_and_import(client, vanguard):
    squad = saved("squad", pack=UNITS, name="Blue",
                  platoons=[{"name": "Alpha", "members": [{"unit": "rifle-squad"}]}])
    exported = client.get(f"/s/{squad.share_id}.json").content
    assert json.loads(exported)["kind"] == "squad"
    upload = io.BytesIO(exported)
    upload.name = "squad.json"
    client.post("/import/", {"file": upload})
    assert Build.objects.filter(kind="squad").count() == 2


def test_squad_api_create_read_and_stale_update(client, packs):
    document = {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad",
                "pack": UNITS, "name": "API Squad",
                "platoons": [{"name": "A", "members": [{"unit": "t-72b-mbt"}]}]}
    created = client.post("/api/builds", document, content_type="application/json").json()
    read = client.get(f"/api/builds/{created['share_id']}").json()
    assert read["report"]["detail"]["platoons"][0]["initiative"] == 6
    first = client.put(f"/api/builds/{created['edit_token']}", {"version": 1, "build": {**document, "name": "B"}},
                       content_type="application/json")
    stale = client.put(f"/api/builds/{created['edit_token']}", {"version": 1, "build": {**document, "name": "C"}},
                       content_type="application/json")
    assert first.status_code == 200 and stale.status_code == 409
    assert Build.objects.get().name == "B"


def test_squad_bad_input_is_4xx_and_nothing_saved(client, packs):
    for bad, field in (({"platoon-0-member-0": "tank:t-72b"}, "platoon-0-member-0"),
                       ({"platoon-count": "999"}, "platoon-count"), ({"platoon-0-count": "x"}, "platoon-0-count"),
                       ({"players": "²"}, "players"),
                       ({"platoon-0-member-0": "unit:no-such-unit"}, "platoons[0].members[0].unit"),
                       ({"opponent": "not a link!"}, "opponent"), ({"name": "<b>x</b>"}, "name")):
        response = client.post(NEW_SQUAD, squad_form([["unit:rifle-squad"]], action="save", **bad))
        assert response.status_code == 422 and f"<code>{field}</code>" in response.content.decode(), bad
    document = {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad",
                "pack": UNITS, "name": "X", "platoons": [{"name": "A", "members": [{}]}]}
    for members in ([{}], [{"build": "abc", "unit": "rifle-squad"}]):
        document["platoons"] = [{"name": "A", "members": members}]
        response = client.post("/api/builds", document, content_type="application/json")
        assert response.status_code == 422 and response.json()["problems"][0]["path"].startswith("platoons[0].members[0]")
    assert Build.objects.count() == 0


def test_a_squads_check_reads_its_linked_builds_in_a_fixed_number_of_queries(vanguard, django_assert_max_num_queries):
    crew = saved("pilot", pack=PILOTS, name="Crew")
    anvils = [saved("anvil", **{**vanguard, "name": f"A{n}", "pilot": crew.share_id}) for n in range(6)]
    document = {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad", "pack": UNITS,
                "name": "Many", "platoons": [{"name": f"P{n}", "members": [{"build": a.share_id}]}
                                             for n, a in enumerate(anvils)]}
    store.check(document)  # the packs are read once per process
    with django_assert_max_num_queries(2):  # the Anvils, then their Pilots: one query a level of links
        report = store.check(document).report
    assert report.stats["units"].value == 6


# --- share pages, cached by version -------------------------------------------------------------------

def test_share_page_is_checked_and_rendered_once_per_version_of_what_it_shows(client, vanguard, monkeypatch):
    """The build part is cached by the versions of the build and of the builds it names; an edit of either,
    or a deleted link, shows at once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    crew = saved("pilot", pack=PILOTS, name="Vesna Orlova", xp=30, history=[{"specialise": "guardian"}])
    anvil = saved("anvil", **{**vanguard, "pilot": crew.share_id})
    checks = []
    real = store.check_saved
    monkeypatch.setattr(store, "check_saved", lambda build: checks.append(build.share_id) or real(build))
    url = f"/s/{anvil.share_id}/"
    assert "Vesna Orlova" in client.get(url).content.decode() and len(checks) == 1
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url).content.decode()
    assert "Vesna Orlova" in again and len(checks) == 1
    assert len(queries) <= 4, [q["sql"][:80] for q in queries]  # the build, its links, the session
    store.update(crew, store.check({**crew.document, "name": "Vesna Kade"}), crew.version)
    assert "Vesna Kade" in client.get(url).content.decode() and len(checks) == 2
    store.update(anvil, store.check({**anvil.document, "name": "Renamed Anvil"}), anvil.version)
    assert "Renamed Anvil" in client.get(url).content.decode() and len(checks) == 3
    crew.delete()
    assert "Vesna Kade" not in client.get(url).content.decode() and len(checks) == 4


def test_share_page_frame_belongs_to_each_visitor(vanguard, packs):
    """Cached build part, but each browser gets its own form token and its own Anvils as preview targets."""
    from django.test import Client

    shared = saved("anvil", **{**vanguard, "name": "Shared Anvil"})
    mine, theirs = Client(), Client()
    own = saved("anvil", **{**vanguard, "name": "Only Mine"})
    mine.get(own.get_absolute_url())  # visiting the edit link keeps it on this browser
    url = f"/s/{shared.share_id}/"
    first, second = mine.get(url).content.decode(), theirs.get(url).content.decode()
    assert "Only Mine" in first and "Only Mine" not in second
    token = 'name="csrfmiddlewaretoken" value="'
    assert first.split(token)[1][:20] != second.split(token)[1][:20]


def test_share_page_kept_whole_for_visitors_without_builds_still_gives_each_a_working_token(vanguard, packs):
    from django.test import Client

    from builder.kinds.base import token_stand_in

    shared = saved("anvil", **{**vanguard, "name": "Shared Anvil"})
    url = f"/s/{shared.share_id}/"
    Client().get(url)  # the first visitor's page is the one kept
    visitor = Client(enforce_csrf_checks=True)
    html = visitor.get(url).content.decode()
    assert token_stand_in() not in html and "Shared Anvil" in html
    token = html.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert f'"X-CSRFToken": "{token}"' in html
    copied = visitor.post(f"/s/{shared.share_id}/copy", {"csrfmiddlewaretoken": token})
    assert copied.status_code == 302 and Build.objects.filter(forked_from=shared).count() == 1
    refused = Client(enforce_csrf_checks=True).post(f"/s/{shared.share_id}/copy", {"csrfmiddlewaretoken": token})
    assert refused.status_code == 403  # a token works only with its own browser's cookie


# --- drafts ----------------------------------------------------------------------------------------

def test_a_draft_left_on_a_new_builder_comes_back_and_can_be_discarded(client, packs):
    """A new build's draft lives at its own address (?draft=): a reload there restores it; the menu's "New" starts
    blank and offers to resume it; discarding drops it for good."""
    from tests.helpers.html_forms import read_form

    values, _ = read_form(client.get("/new/metallurgent/anvil/?example=0").content.decode())
    token = values["draft"][0]
    at = f"/new/metallurgent/anvil/?draft={token}"
    left = client.post("/draft/", {**values, "name": ["Half-built"], "draft_for": at})
    assert left.status_code == 204
    back = client.get(at).content.decode()
    assert 'value="Half-built"' in back and "Restored the unsaved changes" in back and "unsaved changes" in back
    assert 'value="Half-built"' not in client.get("/new/metallurgent/anvil/?example=0").content.decode()
    new = client.get("/new/metallurgent/anvil/").content.decode()
    assert 'value="Half-built"' not in new and "You left an unsaved Anvil “Half-built”" in new
    assert f'href="{at}">Resume it' in new
    discarded = client.get(f"/new/metallurgent/anvil/?discard={token}")
    assert discarded.status_code == 302 and discarded["Location"] == "/new/metallurgent/anvil/"
    assert "You left" not in client.get("/new/metallurgent/anvil/").content.decode()
    assert 'value="Half-built"' not in client.get(at).content.decode()


def test_every_edit_keeps_the_draft_so_a_reload_finds_it_at_once(client, vanguard):
    """No beacon needed: the edit itself keeps the draft, and the page's address becomes the draft's."""
    from tests.helpers.html_forms import read_form

    values, _ = read_form(client.get("/new/metallurgent/anvil/?example=0").content.decode())
    edited = client.post("/new/metallurgent/anvil/", {**values, "name": ["Mid-edit"], "view": ["live"]},
                         HTTP_HX_REQUEST="true")
    at = f"/new/metallurgent/anvil/?draft={values['draft'][0]}"
    assert edited.status_code == 200 and edited["HX-Replace-Url"] == at
    assert 'value="Mid-edit"' in client.get(at).content.decode()
    build = saved("anvil", **vanguard)
    url = build.get_absolute_url()
    form, _ = read_form(client.get(url).content.decode())
    client.post(url, {**form, "name": ["Renamed, unsaved"]}, HTTP_HX_REQUEST="true")
    assert 'value="Renamed, unsaved"' in client.get(url).content.decode()
    client.post(url, form, HTTP_HX_REQUEST="true")  # edited back to the saved build: nothing left to restore
    assert "Restored" not in client.get(url).content.decode()


def test_a_draft_on_a_saved_build_is_dropped_once_saved_or_stale(client, vanguard):
    from tests.helpers.html_forms import read_form

    build = saved("anvil", **vanguard)
    url = build.get_absolute_url()
    values, _ = read_form(client.get(url).content.decode())
    assert client.post("/draft/", {**values, "name": ["Draft name"], "draft_for": url}).status_code == 204
    assert 'value="Draft name"' in client.get(url).content.decode()
    client.post(url, {**values, "name": ["Saved name"], "action": ["save"]})
    assert 'value="Saved name"' in client.get(url).content.decode()  # the save dropped the draft
    assert client.post("/draft/", {**values, "name": ["Old draft"], "draft_for": url}).status_code == 204
    assert 'value="Old draft"' not in client.get(url).content.decode()  # drafted against version 1, now 2


def test_drafts_refuse_other_addresses_and_huge_forms(client, packs):
    assert client.post("/draft/", {"draft_for": "/s/abc/", "name": "x"}).status_code == 400
    assert client.post("/draft/", {"draft_for": "javascript:alert(1)"}).status_code == 400
    assert client.post("/draft/", {"draft_for": "/new/metallurgent/anvil/", "name": "x"}).status_code == 400
    huge = {"draft_for": "/new/metallurgent/anvil/?draft=abcdefgh12", "notes": "n" * 70_000}
    assert client.post("/draft/", huge).status_code == 413
    assert client.get("/new/metallurgent/anvil/").status_code == 200
