"""The contract every registered (ruleset, kind) keeps, checked over all of them: a new kind gets these for free."""
from __future__ import annotations

import json
import re
import subprocess

import pytest

from builder import store
from builder.kinds import PAGES
from builder.models import Build
from catalogue.loader import latest_pack
from tests.helpers.html_forms import read_form
from tests.helpers.kinds import documents, put_at, saved

pytestmark = pytest.mark.django_db
KINDS = sorted(PAGES)
IDS = [f"{r}-{k}" for r, k in KINDS]


def post_form(client, url: str, values: dict, **changes):
    return client.post(url, {**values, **{k: [v] for k, v in changes.items()}})


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_blank_builder_renders(client, packs, ruleset, kind):
    response = client.get(f"/new/{ruleset}/{kind}/")
    html = response.content.decode()
    values, _ = read_form(html)
    assert response.status_code == 200 and values["pack"] == [latest_pack(ruleset, kind).ref]
    assert f"New {PAGES[ruleset, kind].kind.label}" in html


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_pack_examples_are_legal_and_round_trip_through_json(client, packs, ruleset, kind):
    pack = latest_pack(ruleset, kind)
    for example in [dict(e) for e in pack.examples if e.get("kind") == kind]:
        report = store.check(example).report
        assert report.legal, (example["name"], [i.as_dict() for i in report.errors])
    for document in documents(ruleset, kind):
        expected = store.check(document).document
        response = client.post("/import/", {"json": json.dumps(document)})
        build = Build.objects.get(edit_token=response["Location"].split("/")[2])
        # The owner's export (the reveal link: a share link masks what its kind keeps secret) round-trips whole.
        exported = json.loads(client.get(f"/s/{build.share_id}.json?reveal={build.reveal_token}").content)
        assert exported == expected
        again = client.post("/import/", {"json": json.dumps(exported)})
        assert Build.objects.get(edit_token=again["Location"].split("/")[2]).document == expected


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_saving_through_the_unchanged_form_loses_nothing(client, packs, ruleset, kind):
    for document in documents(ruleset, kind):
        build = saved(document)
        values, _ = read_form(client.get(build.get_absolute_url()).content.decode())
        response = post_form(client, build.get_absolute_url(), values, action="save")
        assert response.status_code == 200, response.content.decode()[:2000]
        build.refresh_from_db()
        assert build.version == 2 and build.document == store.check(document).document


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_bad_form_input_is_422_naming_the_field_and_saves_nothing(client, packs, ruleset, kind):
    url = f"/new/{ruleset}/{kind}/"
    values, numbers = read_form(client.get(url).content.decode())
    bad = {"name": "<b>bold</b>", "pack": "no-such-pack@9.9.9"}
    bad.update({field: "²" for field in numbers})
    for field, value in bad.items():
        response = post_form(client, url, values, action="save", **{field: value})
        assert response.status_code == 422, (field, response.status_code)
        assert f"<code>{field}</code>" in response.content.decode(), field
    assert Build.objects.count() == 0


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_share_page_json_and_pdf_never_show_the_edit_token(client, packs, ruleset, kind, tmp_path):
    build = saved(documents(ruleset, kind)[0])
    for url in (f"/s/{build.share_id}/", f"/s/{build.share_id}.json", f"/api/builds/{build.share_id}"):
        response = client.get(url)
        assert response.status_code == 200 and build.edit_token not in response.content.decode(), url
    response = client.get(f"/s/{build.share_id}.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    flat = "".join(text.split())  # the share link under the QR code may wrap
    assert build.name in text and build.share_id in flat and build.edit_token not in flat


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_api_creates_reads_updates_and_refuses_a_stale_put(client, packs, ruleset, kind):
    document = documents(ruleset, kind)[0]
    created = client.post("/api/builds", document, content_type="application/json")
    assert created.status_code == 201
    body = created.json()
    read = client.get(f"/api/builds/{body['share_id']}").json()
    assert read["build"] == store.check(document).document and read["version"] == 1
    changed = {**read["build"], "name": "Renamed"}
    first = client.put(f"/api/builds/{body['edit_token']}", {"version": 1, "build": changed},
                       content_type="application/json")
    assert first.status_code == 200 and first.json()["version"] == 2
    stale = client.put(f"/api/builds/{body['edit_token']}", {"version": 1, "build": {**changed, "name": "Lost"}},
                       content_type="application/json")
    assert stale.status_code == 409 and "version 2" in stale.json()["reason"]
    assert Build.objects.get(share_id=body["share_id"]).name == "Renamed"


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_deep_copy_gives_edit_links_to_every_copied_build(client, packs, ruleset, kind):
    page = PAGES[ruleset, kind]
    document = documents(ruleset, kind)[0]
    owned = []
    for link in page.kind.links:
        target = saved(documents(ruleset, link.kind)[0])
        put_at(document, link.steps(), target.share_id)
        if link.owned:
            owned.append(target)
    source = saved(document)
    before = set(Build.objects.values_list("pk", flat=True))
    response = client.post(f"/s/{source.share_id}/copy")
    copies = Build.objects.exclude(pk__in=before)
    assert response.status_code == 302 and copies.count() == 1 + len(owned)
    home = client.get("/").content.decode()
    for copy in copies:
        assert copy.get_absolute_url() in home, copy.name
    copied_ids = set(copies.values_list("share_id", flat=True))
    top = Build.objects.get(edit_token=response["Location"].split("/")[2])
    assert set(page.kind.owned_ids(top.document)) <= copied_ids
    assert not {o.share_id for o in owned} & set(page.kind.owned_ids(top.document))


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_the_badge_says_empty_on_a_blank_build_and_legal_on_an_example(client, packs, ruleset, kind):
    """One meaning everywhere: a blank build is empty (not illegal, not legal), in its builder and in the list."""
    html = client.get(f"/new/{ruleset}/{kind}/").content.decode()
    assert 'id="legal-badge">empty<' in html and "Empty: nothing chosen yet" in html
    values, _ = read_form(html)
    client.post(f"/new/{ruleset}/{kind}/", {**values, "action": ["save"]})
    assert Build.objects.get().verdict == "empty"
    assert '<span class="badge empty">empty</span>' in client.get("/").content.decode()
    pack = latest_pack(ruleset, kind)
    for index, example in enumerate(pack.examples):
        if example.get("kind") == kind:
            shown = client.get(f"/new/{ruleset}/{kind}/?example={index}").content.decode()
            assert 'id="legal-badge">legal<' in shown, example["name"]


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_every_issue_link_lands_on_the_builder_and_the_share_page(client, packs, ruleset, kind):
    """The verdict links each issue to the part of the page it is about: that part exists on both pages."""
    for document in documents(ruleset, kind) + [PAGES[ruleset, kind].blank(latest_pack(ruleset, kind).ref)]:
        build = saved(document)
        for url in (build.get_absolute_url(), build.share_url()):
            html = client.get(url).content.decode()
            verdict = html.split('id="all-issues"', 1)[-1].split("</ul>", 1)[0] if 'id="all-issues"' in html else ""
            for anchor in set(re.findall(r'href="#([^"]+)"', verdict)):
                assert f'id="{anchor}"' in html, (document["name"], url, anchor)


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_every_issue_links_to_an_element_of_its_builder_page(client, packs, ruleset, kind):
    """KindPage.anchors: an issue's link lands on the element it is about, blank and example builds alike."""
    page = PAGES[ruleset, kind]
    for document in documents(ruleset, kind) + [page.blank(latest_pack(ruleset, kind).ref)]:
        build = saved(document)
        html = client.get(build.get_absolute_url()).content.decode()
        checked = store.check(build.document)
        ids = set(re.findall(r'\bid="([^"]+)"', html))
        anchors = {page.anchor(issue.path) for issue in checked.report.issues} - {""}
        assert anchors <= ids, (document.get("name"), sorted(anchors - ids))
