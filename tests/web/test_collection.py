"""A player's collection: one link on every browser (join, replace), the home page's list (by game and kind,
search, verdict, drafts, remove) and its file (download, upload anywhere, never twice)."""
from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from builder.models import Build, BuildVersion, Collection, Kept
from tests.helpers.kinds import documents, linking, saved

pytestmark = pytest.mark.django_db


def opened(client, *builds):
    """Open each build's edit link on this browser, which puts it in its collection."""
    for build in builds:
        assert client.get(f"/b/{build.edit_token}/").status_code == 200


def link_of(client) -> str:
    return re.search(r'id="collection-link-box"[^>]*value="http://testserver(/c/[0-9a-f]+/)"',
                     client.get("/").content.decode()).group(1)


def listed(client, **query) -> str:
    return client.get("/", query).content.decode().split('id="collection-list"')[1].split('id="collection-link"')[0]


def anvil(name="Hailwall", **changes) -> Build:
    return saved({**documents("metallurgent", "anvil")[0], "name": name, **changes})


def test_a_saved_build_starts_the_collection_and_lists_by_game_and_kind(client, packs):
    home = client.get("/").content.decode()
    assert "Your collection starts with the first build you save" in home and "collection-link-box" not in home
    document = documents("metallurgent", "anvil")[0]
    response = client.post("/new/metallurgent/anvil/", {"json": json.dumps(document), "action": "save"})
    assert response.status_code in (200, 302), response.content[:300]
    leader = saved(documents("darkmetal", "leader")[0])
    opened(client, leader)
    rows = listed(client)
    assert "METALLURGENT · Anvil" in rows and "DARK METAL · Squad Leader" in rows
    assert rows.index("DARK METAL") < rows.index("METALLURGENT") or rows.index("METALLURGENT") < rows.index("DARK")
    assert leader.name in rows and f'href="/b/{leader.edit_token}/"' in rows and "v1" in rows
    assert Collection.objects.count() == 1 and link_of(client).startswith("/c/")


def test_the_link_opened_on_another_browser_shows_and_edits_the_same_builds(client, packs):
    mine = anvil("Hailwall Prime")
    opened(client, mine)
    link = link_of(client)
    phone = Client()
    page = phone.get(link)
    assert page.status_code == 200 and "1 METALLURGENT Anvil" in page.content.decode()
    assert "Hailwall Prime" not in listed(phone)  # a link preview in a chat app joins nothing
    assert phone.post(link).status_code == 302
    assert "Hailwall Prime" in listed(phone)
    later = anvil("Saved on the phone")
    opened(phone, later)  # saved anywhere in the collection: on every browser at once
    assert "Saved on the phone" in listed(client)
    phone_copy = phone.post(f"/b/{mine.edit_token}/duplicate")
    assert phone_copy.status_code == 302 and "Hailwall Prime (copy)" in listed(client) or "Hailwall Prime" in listed(client)


def test_joining_brings_the_browsers_own_builds_along(client, packs):
    opened(client, anvil("At home"))
    phone = Client()
    opened(phone, anvil("On the bus"))
    page = phone.get(link_of(client)).content.decode()
    assert "The 1 build this browser keeps now will join it" in page
    phone.post(link_of(client))
    assert "On the bus" in listed(client) and "At home" in listed(phone)
    assert phone.get(link_of(client)).content.decode().count("already shows this collection") == 1


def test_a_replaced_link_stops_working_at_once_everywhere_but_here(client, packs):
    opened(client, anvil("Kept safe"))
    old = link_of(client)
    thief = Client()
    thief.post(old)
    assert "Kept safe" in listed(thief)
    response = client.post("/collection/replace")
    assert response.status_code == 302
    new = link_of(client)
    assert new != old and "Kept safe" in listed(client)
    assert client.get(old).status_code == 404 and thief.post(old).status_code == 404
    home = thief.get("/").content.decode()
    assert "has a new link now" in home and "Kept safe" not in home
    assert "has a new link now" not in thief.get("/").content.decode()  # said once
    opened(thief, anvil("Thief's own"))  # a browser that lost it starts a collection of its own
    assert "Thief's own" not in listed(client)


def test_removing_takes_a_build_out_but_its_links_still_open_it(client, packs):
    build = anvil("Out of the list")
    opened(client, build)
    response = client.post("/collection/remove", {"build": build.share_id}, HTTP_HX_REQUEST="true",
                           HTTP_HX_TARGET="collection-list")
    part = response.content.decode()
    assert response.status_code == 200 and part.lstrip().startswith('<div id="collection-list"')
    assert "Took “Out of the list” out of your collection" in part
    assert Build.objects.filter(pk=build.pk).exists() and "Out of the list</a>" not in listed(client)
    assert client.get(f"/s/{build.share_id}/").status_code == 200
    opened(client, build)  # its edit link puts it back
    assert "Out of the list</a>" in listed(client)
    stranger = anvil("Not in the collection")
    assert client.post("/collection/remove", {"build": stranger.share_id}).status_code == 404
    assert Client().post("/collection/remove", {"build": build.share_id}).status_code == 404


def test_search_by_name_and_verdict_and_as_the_player_types(client, packs):
    legal = anvil("Gale Runner")
    broken = anvil("Gale Breaker", parts={**documents("metallurgent", "anvil")[0]["parts"], "generator": None})
    opened(client, legal, broken, anvil("Storm"))
    assert broken.verdict != "legal" and legal.verdict == "legal"
    rows = listed(client, q="gale")
    assert "Gale Runner" in rows and "Gale Breaker" in rows and "Storm</a>" not in rows and "2 of 3 builds" in rows
    rows = listed(client, q="gale", verdict="legal")
    assert "Gale Runner" in rows and "Gale Breaker" not in rows
    part = client.get("/", {"q": "storm"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="collection-list").content.decode()
    assert part.lstrip().startswith('<div id="collection-list"') and "Storm</a>" in part and "<html" not in part
    assert "No build matches" in listed(client, q="nothing like it")
    unfiltered = re.sub(r'csrfmiddlewaretoken" value="\w+"', "", listed(client))
    assert re.sub(r'csrfmiddlewaretoken" value="\w+"', "", listed(client, verdict="<script>")) == unfiltered


def test_drafts_in_progress_are_listed_with_the_builds_they_change(client, packs):
    build = anvil("Half done")
    opened(client, build)
    form = {"json": json.dumps({**build.document, "name": "Half done, renamed"})}
    new_page = client.get("/new/metallurgent/anvil/").content.decode()
    token = re.search(r'name="draft" value="([^"]+)"', new_page).group(1)
    assert client.post("/draft/", {**form, "draft_for": f"/new/metallurgent/anvil/?draft={token}"}).status_code < 400
    assert client.post("/draft/", {**form, "draft_for": f"/b/{build.edit_token}/"}).status_code < 400
    rows = listed(client)
    assert "Drafts in progress" in rows and f"/new/metallurgent/anvil/?draft={token}" in rows
    assert "unsaved changes" in rows


def test_a_deleted_build_leaves_the_collection(client, packs):
    build = anvil("Gone")
    opened(client, build)
    client.post(f"/b/{build.edit_token}/delete")
    assert not Kept.objects.exists() and "Gone</a>" not in listed(client)


def test_a_list_kept_before_collections_moves_in_whole(client, packs):
    builds = [anvil("Old one"), anvil("Old two")]
    session = client.session
    session["builds"] = [b.edit_token for b in builds] + ["f" * 48]
    session.save()
    rows = listed(client)
    assert "Old one" in rows and "Old two" in rows and "builds" not in client.session
    assert Collection.objects.get().builds.count() == 2


# --- the collection file --------------------------------------------------------------------------------------

def download(client) -> dict:
    response = client.get("/collection/file")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="hardpoint-collection-')
    return json.loads(response.content)


def upload(client, data, name="collection.json"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post("/collection/upload", {"file": SimpleUploadedFile(name, raw, "application/json")})


def roster(client):
    """A squad of two saved Anvils and a Pilot's Anvil, all in the collection."""
    document, members = linking("metallurgent", "squad")
    squad = saved(document)
    opened(client, squad, *members)
    return squad, members


def test_the_file_holds_every_build_with_its_document_and_links(client, packs):
    squad, members = roster(client)
    data = download(client)
    assert data["format"] == "hardpoint.collection/1"
    entries = {e["share_id"]: e for e in data["builds"]}
    assert set(entries) == {squad.share_id, *(m.share_id for m in members)}
    entry = entries[squad.share_id]
    assert entry["document"] == squad.document and entry["edit_token"] == squad.edit_token
    assert entry["links"] == {"edit": f"http://testserver/b/{squad.edit_token}/",
                              "share": f"http://testserver/s/{squad.share_id}/"}


def test_the_same_file_twice_adds_nothing_twice(client, packs):
    roster(client)
    data = download(client)
    builds, versions = Build.objects.count(), BuildVersion.objects.count()
    other = Client()
    assert upload(other, data).status_code == 302
    assert upload(other, data).status_code == 302
    assert "were here already and kept as they were" in other.get("/").content.decode()
    assert Build.objects.count() == builds and BuildVersion.objects.count() == versions
    assert Collection.objects.count() == 2 and all(e["document"]["name"] in listed(other) for e in data["builds"])


def test_the_file_round_trips_into_a_fresh_database_links_and_all(client, packs):
    squad, members = roster(client)
    data = download(client)
    data["builds"].sort(key=lambda e: e["kind"] != "squad")  # the squad first: its members are saved before it
    before = {b.share_id: (b.edit_token, b.name, b.verdict, b.document) for b in Build.objects.all()}
    Build.objects.all().delete()
    Collection.objects.all().delete()
    elsewhere = Client()
    assert upload(elsewhere, data).status_code == 302
    after = {b.share_id: (b.edit_token, b.name, b.verdict, b.document) for b in Build.objects.all()}
    assert after == before
    saved_at = {e["share_id"]: e["saved_at"] for e in data["builds"]}
    assert all(b.updated_at.isoformat(timespec="seconds") == saved_at[b.share_id] for b in Build.objects.all())
    squad_page = elsewhere.get(f"/s/{squad.share_id}/").content.decode()
    assert members[0].name in squad_page and "missing build" not in squad_page  # found again by its link
    assert elsewhere.get(f"/b/{squad.edit_token}/").status_code == 200
    assert download(elsewhere)["builds"] == sorted(data["builds"], key=lambda e: (e["ruleset"], e["kind"], e["name"]))


def test_one_entry_that_does_not_read_here_is_skipped_and_named(client, packs):
    opened(client, anvil("Reads"), anvil("Does not"))
    data = download(client)
    Build.objects.all().delete()
    bad = next(i for i, e in enumerate(data["builds"]) if e["name"] == "Does not")
    data["builds"][bad]["document"]["pack"] = "no-such-pack@9.9.9"
    other = Client()
    assert upload(other, data).status_code == 302
    home = other.get("/").content.decode()
    assert f"Skipped builds[{bad}].document.pack" in home and "“Does not”" in home
    assert list(Build.objects.values_list("name", flat=True)) == ["Reads"]


def test_a_share_link_taken_here_by_another_build_is_not_taken_over(client, packs):
    victim = anvil("Someone else's")
    opened(client, anvil("Mine"))
    data = download(client)
    Build.objects.exclude(pk=victim.pk).delete()
    data["builds"][0]["share_id"] = victim.share_id
    assert upload(Client(), data).status_code == 302
    assert Build.objects.get(share_id=victim.share_id).name == "Someone else's" and Build.objects.count() == 1


@pytest.mark.parametrize("raw,field", [
    (b"not json", "(document)"),
    (b"[]", "(document)"),
    (json.dumps({"format": "hardpoint.build/1", "builds": []}).encode(), "format"),
    (json.dumps({"format": "hardpoint.collection/1", "builds": [], "extra": 1}).encode(), "extra"),
    (json.dumps({"format": "hardpoint.collection/1", "builds": {}}).encode(), "builds"),
    (json.dumps({"format": "hardpoint.collection/1", "builds": [{"name": "x"}]}).encode(), "builds[0]"),
])
def test_a_file_that_is_no_collection_file_is_refused_naming_the_field_and_saves_nothing(client, packs, raw, field):
    opened(client, anvil("Already here"))
    data = download(client)
    builds, kept = Build.objects.count(), Kept.objects.count()
    other = Client()
    response = upload(other, raw)
    assert response.status_code == 422
    page = response.content.decode()
    assert "not a collection file we can read" in page and f"<code>{field}" in page
    assert Build.objects.count() == builds and Kept.objects.count() == kept and Collection.objects.count() == 1
    entry = dict(data["builds"][0], edit_token="guessable")
    response = upload(other, {**data, "builds": [entry]})
    assert response.status_code == 422 and "builds[0].edit_token" in response.content.decode()


def test_no_file_or_a_huge_one_is_refused(client, packs, settings):
    assert client.post("/collection/upload").status_code == 422
    from builder import collection

    collection.MAX_FILE, old = 100, collection.MAX_FILE
    try:
        response = upload(client, {"format": "hardpoint.collection/1", "builds": [], "exported_at": "x" * 40})
    finally:
        collection.MAX_FILE = old
    assert response.status_code == 422 and "a collection file is at most 100" in response.content.decode()
    assert not Collection.objects.exists()
