"""The builder as plain HTML form posts (no JavaScript), htmx partials, saving, sharing and build actions."""
import re

import pytest

from builder.models import Build
from catalogue.loader import latest_pack
from tests.metallurgent.factories import form_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def example(packs):
    return dict(latest_pack("metallurgent").examples[0])


def save_new(client, document, **overrides):
    response = client.post("/new/metallurgent/anvil/", form_for(document, action="save", **overrides))
    assert response.status_code == 302
    return Build.objects.get(edit_token=response["Location"].split("/")[2])


def test_home_lists_rulesets_examples_and_import(client, packs):
    html = client.get("/").content.decode()
    for name in ("METALLURGENT", "MEGA MERCS 2028", "DARK METAL", "LANCER", "Ember·Obsidian Protocol"):
        assert name in html
    assert "badge coming" not in html and "New Squad Leader" in html and "New Company" in html and "New Lance" in html
    assert "/new/ember/mech/" in html and "/new/ember/squad/" in html
    assert html.count("/new/metallurgent/anvil/?example=") == 6
    assert html.count("/new/darkmetal/leader/?example=") == 3
    assert 'name="file"' in html


def test_new_builder_page_offers_every_slot(client, packs):
    html = client.get("/new/metallurgent/anvil/").content.decode()
    for slot in ("core", "mobility_base", "left_arm", "right_arm", "generator", "electronics", "fcs"):
        assert f'name="part-{slot}"' in html
    assert "M-R01" in html  # an empty Anvil says what is missing


def test_example_opens_legal(client, example):
    html = client.get("/new/metallurgent/anvil/?example=0").content.decode()
    assert example["name"] in html and "✔ Legal Anvil" in html


def test_unknown_example_is_404(client, packs):
    assert client.get("/new/metallurgent/anvil/?example=99").status_code == 404
    assert client.get("/new/metallurgent/anvil/?example=x").status_code == 404


def test_plain_post_revalidates_and_shows_issue_at_slot(client, example):
    response = client.post("/new/metallurgent/anvil/",
                           form_for(example, **{"part-mobility_base": "zephyr-hover", "action": "check"}))
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html
    slot = html[html.index('id="slot-mobility_base"'):html.index('id="slot-left_arm"')]
    assert 'data-code="M-R32"' in slot
    assert Build.objects.count() == 0  # checking is not saving


def test_htmx_post_returns_only_the_workbench(client, example):
    response = client.post("/new/metallurgent/anvil/", form_for(example), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="workbench">') and "<html" not in html


def test_add_and_remove_gear_by_form(client, example):
    added = client.post("/new/metallurgent/anvil/", form_for(example, **{"add-core": "sunspot-designator"}))
    assert "Sunspot Target Designator" in added.content.decode()
    count = len(example["gear"])
    removed = client.post("/new/metallurgent/anvil/", form_for(example, action=f"remove:{count - 1}"))
    assert removed.content.decode().count('name="gear-') < added.content.decode().count('name="gear-')


def test_picker_explains_illegal_choices(client, example):
    html = client.get("/new/metallurgent/anvil/?example=0").content.decode()
    options = re.findall(r"<option value=\"zephyr-hover\"[^>]*>([^<]*)</option>", html)
    assert options and "breaks M-R32" in options[0]


def test_save_creates_build_with_separate_links(client, example):
    build = save_new(client, example)
    assert len(build.edit_token) >= 32 and build.share_id != build.edit_token
    assert build.legal and build.version == 1
    page = client.get(f"/b/{build.edit_token}/").content.decode()
    assert f"/s/{build.share_id}/" in page
    assert build.collections.get().token == client.session["collection"]
    assert build.name in client.get("/").content.decode()  # remembered on this browser


def test_share_page_never_shows_the_edit_token(client, example):
    build = save_new(client, example)
    for url in (f"/s/{build.share_id}/", f"/s/{build.share_id}.json"):
        response = client.get(url)
        assert response.status_code == 200
        assert build.edit_token not in response.content.decode()
    fresh = client.__class__()
    assert build.edit_token not in fresh.get(f"/s/{build.share_id}/").content.decode()


def test_share_page_shows_build_and_legality(client, example):
    build = save_new(client, example, **{"part-mobility_base": "zephyr-hover"})
    html = client.get(f"/s/{build.share_id}/").content.decode()
    assert build.name in html and "Not legal" in html and "M-R32" in html
    assert "Copy to my builds" in html


def test_fork_copies_to_my_builds(client, example):
    build = save_new(client, example)
    visitor = client.__class__()
    response = visitor.post(f"/s/{build.share_id}/copy")
    copy = Build.objects.exclude(pk=build.pk).get()
    assert response["Location"] == f"/b/{copy.edit_token}/"
    assert copy.forked_from == build and copy.document["parts"] == build.document["parts"]
    assert copy.name.endswith("(copy)")


def test_save_existing_bumps_version(client, example):
    build = save_new(client, example)
    response = client.post(f"/b/{build.edit_token}/", form_for(example, name="Renamed", version="1", action="save"))
    build.refresh_from_db()
    assert response.status_code == 200 and build.name == "Renamed" and build.version == 2


def test_stale_save_is_refused_with_409_and_nothing_lost(client, example):
    build = save_new(client, example)
    client.post(f"/b/{build.edit_token}/", form_for(example, name="First edit", version="1", action="save"))
    response = client.post(f"/b/{build.edit_token}/", form_for(example, name="Second edit", version="1", action="save"))
    assert response.status_code == 409
    html = response.content.decode()
    assert "saved elsewhere" in html
    # The banner shows how the refused edit differs from what is saved now.
    assert "How yours differs from the saved version 2" in html
    assert "<td>Name</td><td>First edit</td><td>Second edit</td>" in html
    build.refresh_from_db()
    assert build.name == "First edit" and build.version == 2


def test_conflict_can_be_saved_as_a_copy(client, example):
    build = save_new(client, example)
    client.post(f"/b/{build.edit_token}/", form_for(example, name="First edit", version="1", action="save"))
    response = client.post(f"/b/{build.edit_token}/", form_for(example, name="Mine", version="1", action="save_copy"))
    assert response.status_code == 302
    assert set(Build.objects.values_list("name", flat=True)) == {"First edit", "Mine"}


def test_rename_duplicate_and_delete_from_edit_link(client, example):
    build = save_new(client, example)
    client.post(f"/b/{build.edit_token}/", form_for(example, name="Hammer", version="1", action="save"))
    response = client.post(f"/b/{build.edit_token}/duplicate")
    copy = Build.objects.exclude(pk=build.pk).get()
    assert response["Location"] == f"/b/{copy.edit_token}/" and copy.name == "Hammer (copy)"
    client.post(f"/b/{build.edit_token}/delete")
    assert not Build.objects.filter(pk=build.pk).exists()
    assert client.get(f"/b/{build.edit_token}/").status_code == 404
    assert client.get(f"/s/{build.share_id}/").status_code == 404


def test_build_actions_need_post(client, example):
    build = save_new(client, example)
    assert client.get(f"/b/{build.edit_token}/delete").status_code == 405
    assert Build.objects.filter(pk=build.pk).exists()


def test_tampered_form_is_rejected_and_nothing_saved(client, example):
    for bad, field in (({"part-core": "no-such-core"}, "parts.core"), ({"part-left_arm": "nimbus-core"}, "parts.left_arm"),
                       ({"gear-0-mount": "left_leg"}, "gear[0].mount"), ({"gear-count": "9999"}, "gear-count"),
                       ({"gear-count": "x"}, "gear-count"), ({"gear-count": "²"}, "gear-count"),
                       ({"condition-core": "melted"}, "condition-core"), ({"name": "<b>bold</b>"}, "name")):
        response = client.post("/new/metallurgent/anvil/", form_for(example, action="save", **bad))
        html = response.content.decode()
        assert response.status_code == 422 and f"<code>{field}</code>" in html, bad
        assert "Nothing was saved" in html
    assert Build.objects.count() == 0


def test_hostile_text_is_escaped(client, example):
    document = {**example, "notes": "<script>alert(1)</script>", "name": "Ørn & \"Sons\""}
    build = save_new(client, document)
    html = client.get(f"/s/{build.share_id}/").content.decode()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


def test_import_json_file(client, example):
    import io
    import json

    upload = io.BytesIO(json.dumps(example).encode())
    upload.name = "anvil.json"
    response = client.post("/import/", {"file": upload})
    build = Build.objects.get()
    assert response["Location"] == f"/b/{build.edit_token}/" and build.name == example["name"]


def test_import_garbage_is_422(client, packs):
    import io

    upload = io.BytesIO(b"{not json")
    upload.name = "anvil.json"
    response = client.post("/import/", {"file": upload})
    assert response.status_code == 422 and "not valid JSON" in response.content.decode()
    response = client.post("/import/", {"json": "[]"})
    assert response.status_code == 422 and "<code>(document)</code>" in response.content.decode()
    assert Build.objects.count() == 0


def test_catalogue_page_sorts(client, packs):
    html = client.get("/catalogue/metallurgent/?category=core&sort=-defence").content.decode()
    assert "<table" in html and "Nimbus Line Core" in html


def test_m_r07_condition_survives_saving_through_the_form(client, example):
    from builder import store
    from tests.helpers.html_forms import read_form

    build = store.create(store.check({**example, "condition": {"left_arm": "damaged", "core": "destroyed"}}))
    html = client.get(build.get_absolute_url()).content.decode()
    values, _ = read_form(html)
    assert values["condition-left_arm"] == ["damaged"] and values["condition-core"] == ["destroyed"]
    assert client.post(build.get_absolute_url(), {**values, "action": ["save"]}).status_code == 200
    build.refresh_from_db()
    assert build.version == 2 and build.document["condition"] == {"left_arm": "damaged", "core": "destroyed"}


def test_pickers_refresh_only_when_the_mechanics_change(client, example):
    from tests.helpers.html_forms import read_form

    values, _ = read_form(client.get("/new/metallurgent/anvil/?example=0").content.decode())
    assert values["mechanics"][0]
    live = {**values, "view": ["live"]}
    renamed = client.post("/new/metallurgent/anvil/", {**live, "name": ["Renamed"]}, HTTP_HX_REQUEST="true")
    assert renamed.status_code == 200 and "pickers-stale" not in renamed.get("HX-Trigger-After-Settle", "")
    assert "build-changed" in renamed["HX-Trigger-After-Settle"]  # a preview on show runs again
    regeared = client.post("/new/metallurgent/anvil/", {**live, "gear-0-active": []}, HTTP_HX_REQUEST="true")
    assert "pickers-stale" in regeared["HX-Trigger-After-Settle"]
    refreshed = client.post("/new/metallurgent/anvil/", {**values, "view": ["pickers"]}, HTTP_HX_REQUEST="true")
    assert 'id="fingerprints"' in refreshed.content.decode() and 'hx-swap-oob="true"' in refreshed.content.decode()


def _element(html: str, element_id: str) -> str:
    """The outer HTML of the element with this id (its own tag name closes it; fragments do not nest alike)."""
    start = html.index(f'id="{element_id}"')
    start = html.rindex("<", 0, start)
    tag = html[start + 1:html.index(" ", start)]
    depth, at = 0, start
    while True:
        opening, closing = html.find(f"<{tag}", at + 1), html.find(f"</{tag}>", at + 1)
        if opening != -1 and opening < closing:
            depth, at = depth + 1, opening
        elif depth:
            depth, at = depth - 1, closing
        else:
            return html[start:closing + len(tag) + 3]


def test_live_fragments_match_the_full_page(client, example):
    """The Jinja2 fragments a value edit returns are the markup the Django page places: one source, same HTML."""
    from tests.helpers.html_forms import read_form

    page = client.get("/new/metallurgent/anvil/?example=0").content.decode()
    values, _ = read_form(page)
    live = client.post("/new/metallurgent/anvil/", {**values, "view": ["live"], "shown": ["before an edit"]},
                       HTTP_HX_REQUEST="true")
    fragments = live.content.decode().replace(' hx-swap-oob="true"', "")
    for element_id in ("live-summary", "issues-core", "gear-general", "meters-core", "issues-gear-0"):
        assert _element(fragments, element_id) == _element(page, element_id), element_id


def test_picker_annotations_are_cached_by_mechanics(client, example, monkeypatch):
    from builder import live
    from tests.helpers.html_forms import read_form

    rendered = []
    real = live.what_if
    monkeypatch.setattr(live, "what_if", lambda *args: rendered.append(args[-1].field) or real(*args))
    values, _ = read_form(client.get("/new/metallurgent/anvil/?example=0").content.decode())
    ask = {**values, "view": ["pickers"]}
    first = client.post("/new/metallurgent/anvil/", ask, HTTP_HX_REQUEST="true").content
    renamed = client.post("/new/metallurgent/anvil/", {**ask, "name": ["Other"]}, HTTP_HX_REQUEST="true").content
    places = len(rendered)
    assert first == renamed and places == 10  # 7 Component slots, 3 mounts: each tried once
    regeared = client.post("/new/metallurgent/anvil/", {**ask, "gear-0-active": []}, HTTP_HX_REQUEST="true")
    assert len(rendered) == 2 * places and regeared.status_code == 200


def test_m_r01_a_new_anvil_is_empty_then_incomplete_not_illegal_until_saved(client, packs):
    """A blank builder says empty; parts not chosen yet read as work to do on a build in progress; once saved
    they are broken rules."""
    from tests.helpers.html_forms import read_form

    html = client.get("/new/metallurgent/anvil/").content.decode()
    assert "Empty: nothing chosen yet" in html and 'id="legal-badge">empty<' in html and "Not legal" not in html
    assert html.count('class="issue error todo"') == 7
    values, _ = read_form(html)
    core = re.findall(r'<option value="([^"]+)"', html.split('id="part-core"')[1].split("</select>")[0])[0]
    values["part-core"] = [core]
    live = client.post("/new/metallurgent/anvil/", {**values, "view": ["live"], "shown": ["before an edit"]},
                       HTTP_HX_REQUEST="true")
    assert "Incomplete: 6 parts to fit" in live.content.decode() and "incomplete · 6 to fit" in live.content.decode()
    saved = client.post("/new/metallurgent/anvil/", {**values, "action": ["save"]}, follow=True).content.decode()
    assert "Not legal: 6 rules broken" in saved and 'class="issue error todo"' not in saved


def test_m_r01_a_missing_part_beside_a_broken_rule_names_both(example):
    from builder import store
    from builder.kinds import page_for

    overloaded = store.check({**example, "parts": {**example["parts"], "fcs": None}, "gear": example["gear"] * 4})
    context = page_for("metallurgent", "anvil").common(overloaded)
    assert context["unfitted"] == 1 and context["broken"] and all(i.code != "M-R01" for i in context["broken"])


def test_m_r11_m_r14_show_with_the_gear_of_their_mount_not_under_the_part(client, example):
    """Too much Gear on an Arm is a Gear problem: it shows in that mount's Gear section, and the verdict links there."""
    from builder import store

    arm_gear = [g for g in example["gear"] if g["mount"] == "left_arm"] or [{**example["gear"][0], "mount": "left_arm"}]
    overloaded = {**example, "gear": example["gear"] + arm_gear * 6}
    build = store.create(store.check(overloaded))
    assert {"M-R11", "M-R14"} & {i.code for i in store.check(overloaded).report.errors}
    html = client.get(build.get_absolute_url()).content.decode()
    mount, part = _element(html, "meters-left_arm"), _element(html, "issues-left_arm")
    assert 'data-code="M-R11"' in mount or 'data-code="M-R14"' in mount
    assert 'data-code="M-R11"' not in part and 'data-code="M-R14"' not in part
    assert 'href="#mount-left_arm"' in html


def test_catalogue_search_finds_by_name_and_keeps_the_query_while_sorting(client, packs):
    html = client.get("/catalogue/metallurgent/?category=core&q=nimbus").content.decode()
    assert "Nimbus Line Core" in html and html.count("<tr><td><strong>") == 1
    assert "&amp;q=nimbus" in html.split("<thead>")[1].split("</thead>")[0]  # sorting keeps the search
    none = client.get("/catalogue/metallurgent/?category=core&q=%3Cscript%3E").content.decode()
    assert "Nothing here matches “&lt;script&gt;”" in none and "<script>" not in none.split("<main")[1]


def test_the_part_chooser_compares_every_part_that_fits_with_the_fitted_one(client, example):
    from tests.helpers.html_forms import read_form

    values, _ = read_form(client.get("/new/metallurgent/anvil/?example=0").content.decode())
    ask = {**values, "view": ["chooser"], "chooser": ["part-generator"]}
    html = client.post("/new/metallurgent/anvil/", ask, HTTP_HX_REQUEST="true").content.decode()
    generators = [k for k, c in packs_categories(example).items() if c == "generator"]
    assert html.count('data-fit="part-generator"') == len(generators) - 1  # every one but the fitted
    assert 'class="fitted"' in html and "Updraft Gas Turbine" in html and 'class="diff"' in html
    refused = client.post("/new/metallurgent/anvil/", {**ask, "chooser": ["part-wings"]}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422 and "chooser" in refused.content.decode()
    gear = client.post("/new/metallurgent/anvil/", {**ask, "chooser": ["add-left_arm"]}, HTTP_HX_REQUEST="true")
    assert gear.status_code == 200 and 'data-fit="add-left_arm"' in gear.content.decode() and "Mount " in gear.content.decode()


def packs_categories(document):
    from catalogue.loader import catalogue_by_ref

    return catalogue_by_ref(document["pack"]).categories


def test_the_summary_under_the_name_shows_the_kinds_budgets_and_any_meter_over(client, example):
    html = client.get("/new/metallurgent/anvil/?example=0").content.decode()
    badges = re.sub(r"<[^>]+>", "", _element(html, "badges"))
    assert re.search(r"Load \d+/\d+ ST", badges) and "EN drain" in badges and f"Gear {len(example['gear'])}/12" in badges
    assert "Hardpoints" not in badges  # a meter within its limit that is not a headline stays in the side panel
    overloaded = client.post("/new/metallurgent/anvil/", form_for(example, **{"part-mobility_base": "zephyr-hover"}))
    assert 'class="budget over">Load' in overloaded.content.decode()


def test_one_pdf_control_offers_both_papers(client, example):
    build = save_new(client, example)
    for url in (build.get_absolute_url(), f"/s/{build.share_id}/"):
        html = client.get(url).content.decode()
        assert html.count('class="pdf-choice"') == 1, url
        for paper in ("a4", "letter"):
            assert client.get(f"/s/{build.share_id}.pdf?paper={paper}").status_code == 200
            assert f'href="/s/{build.share_id}.pdf?paper={paper}"' in html


def test_the_load_chart_names_each_row(client, example):
    """Cruise and Initiative rows are modifiers, Flanking Speed a value: each row is labelled with which (M-R31)."""
    html = client.get("/new/metallurgent/anvil/?example=0").content.decode()
    chart = html[html.index('<figure class="chart"'):html.index("</figure>")]
    for label in ("Load up to", "Cruise ±", "Flank Speed", "Initiative ±"):
        assert f">{label}</text>" in chart


def test_m_r71_chipsets_load_and_unload_through_the_form_and_survive_a_save(client, example):
    """An LCA's Chipsets are part of the build: loading, keeping and unloading them never drops one silently."""
    from tests.helpers.html_forms import read_form

    with_lca = {**example, "gear": [{"item": "isobar-lca", "mount": "core", "active": True}]}
    html = client.post("/new/metallurgent/anvil/", form_for(with_lca, **{"gear-0-load": "tailwind"})).content.decode()
    assert 'name="gear-0-chipset" value="tailwind"' in html and "Load a Chipset" in html
    values, _ = read_form(html)
    values["gear-0-load"] = ["static-burst"]
    html = client.post("/new/metallurgent/anvil/", values).content.decode()
    assert html.count('name="gear-0-chipset"') == 2
    values, _ = read_form(html)
    saved = save_new(client, with_lca, **{k: v for k, v in values.items() if k.startswith("gear-")})
    assert saved.document["gear"][0]["chipsets"] == ["tailwind", "static-burst"]
    values["action"] = ["unload:0:0"]
    html = client.post("/new/metallurgent/anvil/", values).content.decode()
    assert re.findall(r'name="gear-0-chipset" value="([^"]+)"', html) == ["static-burst"]
