"""Every save of a build is a version: readable by number (page, JSON, PDF, API), listed on the share page, and
any two compared field by field with their rule issues."""
import json

import pytest

from builder.models import Build, BuildVersion
from tests.web.api_calls import create, example, put_json


@pytest.fixture
def three_saves(client, packs):
    document = example(client)
    created = create(client, {**document, "name": "First"})
    url = f"/api/builds/{created['edit_token']}"
    assert put_json(client, url, {"version": 1, "build": {**document, "name": "Second"}}).status_code == 200
    third = {**document, "name": "Third", "gear": document["gear"][:-1]}
    assert put_json(client, url, {"version": 2, "build": third}).status_code == 200
    return Build.objects.get(share_id=created["share_id"])


def test_every_save_is_kept_as_a_numbered_version(three_saves):
    assert list(three_saves.versions.values_list("number", "name")) == [(3, "Third"), (2, "Second"), (1, "First")]


def test_the_api_returns_a_version(client, three_saves):
    body = client.get(f"/api/builds/{three_saves.share_id}", {"version": 1}).json()
    assert body["version"] == 1 and body["build"]["name"] == "First"
    assert client.get(f"/api/builds/{three_saves.share_id}", {"version": 9}).status_code == 404
    assert client.get(f"/api/builds/{three_saves.share_id}", {"version": "one"}).status_code == 400


def test_a_versions_page_json_and_pdf(client, three_saves):
    page = client.get(f"/s/{three_saves.share_id}/v/1/").content.decode()
    assert "First" in page and "you are reading version 1, not the current one" in page
    assert f"/s/{three_saves.share_id}.json?version=1" in page and "paper=a4&amp;version=1" in page
    assert json.loads(client.get(f"/s/{three_saves.share_id}.json", {"version": 1}).content)["name"] == "First"
    pdf = client.get(f"/s/{three_saves.share_id}.pdf", {"paper": "a4", "version": 2})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.get(f"/s/{three_saves.share_id}/v/7/").status_code == 404
    assert client.get(f"/s/{three_saves.share_id}.json", {"version": "²"}).status_code == 404


def test_the_share_page_lists_versions_and_links_what_changed(client, three_saves):
    page = client.get(three_saves.share_url()).content.decode()
    assert "3 saved" in page and f"/s/{three_saves.share_id}/v/1/" in page
    assert f"/s/{three_saves.share_id}/compare/?a=2&amp;b=3" in page


def test_comparing_two_versions_shows_fields_and_issues(client, three_saves):
    page = client.get(f"/s/{three_saves.share_id}/compare/", {"a": 1, "b": 3}).content.decode()
    assert "<td>Name</td>" in page and "First" in page and "Third" in page
    assert "<td>Gear › #" in page and "gear[" not in page  # the Gear taken off in the third save, by label
    assert "Issues in v1" in page and "Issues in v3" in page
    assert client.get(f"/s/{three_saves.share_id}/compare/", {"a": 1, "b": 8}).status_code == 404


def test_a_copy_starts_its_own_history(client, three_saves):
    response = client.post(f"/s/{three_saves.share_id}/copy")
    copy = Build.objects.exclude(pk=three_saves.pk).get(forked_from=three_saves)
    assert response.status_code == 302 and list(copy.versions.values_list("number", flat=True)) == [1]


def test_a_refused_save_records_no_version(client, three_saves):
    url = f"/api/builds/{three_saves.edit_token}"
    assert put_json(client, url, {"version": 1, "build": three_saves.document}).status_code == 409
    assert BuildVersion.objects.filter(build=three_saves).count() == 3


def test_a_build_shows_when_it_was_last_saved_not_first(client, three_saves):
    """The share header and the home list read `updated_at`; a save is a queryset update, which skips auto_now."""
    first, last = three_saves.versions.order_by("number")[0].saved_at, three_saves.versions.order_by("-number")[0].saved_at
    assert three_saves.updated_at > first and abs((last - three_saves.updated_at).total_seconds()) < 1
    page = client.get(f"/s/{three_saves.share_id}/").content.decode()
    assert f"updated {three_saves.updated_at:%-d %b %Y %H:%M} UTC" in page
