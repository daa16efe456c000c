"""The table every kind gets from the contract (Kind.tabletop, served by builder.table), driven over every registered
kind: "Play" on its share page opens a table with its own tracks or its members', each with a rule ID; a change
moves one track and is logged; another screen's change in between is a conflict, never overwritten; undo and reset;
the counter refills what refills; bad posts are refused naming the field and change nothing."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest

from builder import store
from builder import table as tables
from builder.kinds import PAGES
from builder.models import Table, TableEvent
from tests.helpers.kinds import linking, saved

pytestmark = pytest.mark.django_db
KINDS = sorted(PAGES)
IDS = [f"{r}-{k}" for r, k in KINDS]
JSON = {"HTTP_ACCEPT": "application/json"}


def opened(client, ruleset, kind) -> Table:
    """A table of the kind's first document, its links naming saved builds (a roster's members)."""
    document, _ = linking(ruleset, kind)
    build = saved(document)
    response = client.post(f"/s/{build.share_id}/play")
    assert response.status_code == 302, response.content[:300]
    table = Table.objects.get(build=build)
    assert response["Location"] == f"/t/{table.token}/"
    return table


def post(client, table, what="change", **fields):
    return client.post(f"/t/{table.token}/{what}", fields, **JSON)


def first_count(table) -> tuple[str, tables.Track]:
    """The first track of the table that counts (not a choice, not a box), else the first track."""
    known = [(k, t) for k, (t, _) in tables.tracks_by_key(table).items() if not k.startswith("@")]
    return next(((k, t) for k, t in known if not t.options and t.high - t.low > 1), known[0])


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_every_kind_has_tracks_at_the_table_each_with_a_rule_id(client, packs, ruleset, kind):
    table = opened(client, ruleset, kind)
    assert table.sheet and all(section["tracks"] for section in table.sheet)
    keys = [key for key in tables.tracks_by_key(table)]
    assert len(keys) == len(set(keys))
    for section in table.sheet:
        for track in tables.tracks_of(section):
            assert track.rule, (section["title"], track.label)
            assert track.low <= track.start <= track.high and (not track.options or track.high == len(track.options) - 1)
    page = client.get(f"/t/{table.token}/")
    assert page.status_code == 200 and page["Cache-Control"].startswith("max-age=0")
    html = page.content.decode()
    assert all(section["title"] in html for section in table.sheet) and "Round 1" in html
    assert f'href="/t/{table.token}/"' in client.get("/").content.decode()  # a game in progress, on the home page


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_a_change_is_logged_and_undone_and_a_stale_one_is_a_conflict(client, packs, ruleset, kind):
    table = opened(client, ruleset, kind)
    key, track = first_count(table)
    start = track.start
    after = start + 1 if start < track.high else start - 1
    answer = post(client, table, key=key, before=start, after=after, change="one")
    assert answer.status_code == 200 and answer.json()["revision"] == 1
    assert post(client, table, key=key, before=start, after=after, change="one").json()["what"] == "already made"
    conflict = post(client, table, key=key, before=start, after=start, change="two")
    assert conflict.status_code == 409
    assert conflict.json() | {"current": after, "before": start, "key": key} == conflict.json()
    table.refresh_from_db()
    assert table.state[key] == after and table.revision == 1 and table.events.count() == 1
    if PAGES[ruleset, kind].previews:  # the preview on the table reads the document as the table leaves it
        html = client.get(f"/t/{table.token}/").content.decode()
        shown = re.search(r'id="preview-attacker" value="([^"]*)"', html).group(1)
        assert json.loads(unescape(shown)) == tables.played(table)
    assert post(client, table, "undo", revision=1).status_code == 200
    table.refresh_from_db()
    assert table.state[key] == start and table.revision == 2
    assert post(client, table, "undo", revision=1).status_code == 409  # undone already
    assert post(client, table, "undo", revision=2).status_code == 409  # an undo is not undone; change it again
    live = client.get(f"/t/{table.token}/live", {"revision": 2})
    assert live.status_code == 204 and client.get(f"/t/{table.token}/live", {"revision": 1}).status_code == 200


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_a_new_round_refills_what_refills_and_reset_puts_everything_back(client, packs, ruleset, kind):
    table = opened(client, ruleset, kind)
    known = tables.tracks_by_key(table)
    for key, (track, _) in known.items():
        if not key.startswith("@") and track.high > track.start:
            post(client, table, key=key, before=track.start, after=track.start + 1)
    post(client, table, key="@turn", before=1, after=2)
    post(client, table, key="@round", before=1, after=2)
    table.refresh_from_db()
    assert table.state["@round"] == 2 and table.state["@turn"] == 1
    for key, (track, _) in known.items():
        if track.resets and not key.startswith("@"):
            assert table.state.get(key, track.start) == track.start, key
    assert post(client, table, "reset").status_code == 200
    table.refresh_from_db()
    assert all(table.state.get(k, t.start) == t.start for k, (t, _) in known.items())
    assert post(client, table, "undo", revision=table.revision).status_code == 200  # a reset can be undone


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_bad_posts_are_refused_naming_the_field_and_change_nothing(client, packs, ruleset, kind):
    table = opened(client, ruleset, kind)
    key, track = first_count(table)
    for fields, path, status in (({"key": "no-such", "before": 0, "after": 1}, "key", 400),
                                 ({"key": key, "before": "x", "after": 1}, "before", 400),
                                 ({"key": key, "before": "--1", "after": 1}, "before", 400),
                                 ({"key": key, "before": track.start, "after": "١"}, "after", 400),
                                 ({"key": key, "before": track.start, "after": "9" * 50}, "after", 400),
                                 ({"key": key, "before": track.start, "after": track.high + 1}, "after", 400),
                                 ({"key": key, "before": track.start, "after": track.low - 1}, "after", 400)):
        answer = post(client, table, **fields)
        assert (answer.status_code, answer.json()["path"]) == (status, path), fields
        page = client.post(f"/t/{table.token}/change", fields)  # without JavaScript: the table again, saying why
        assert page.status_code == status and f"<code>{path}</code>" in page.content.decode()
    assert post(client, table, "undo", revision="7").status_code == 409
    table.refresh_from_db()
    assert table.revision == 0 and table.state == {} and not TableEvent.objects.exists()
    assert client.post("/t/nosuchtable/change", {"key": key}, **JSON).status_code == 404
    assert client.get("/t/nosuchtable/").status_code == 404


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_the_table_keeps_the_version_it_was_opened_on(client, packs, ruleset, kind):
    table = opened(client, ruleset, kind)
    build = table.build
    store.update(build, store.check({**build.document, "name": "Saved since"}), build.version)
    html = client.get(f"/t/{table.token}/").content.decode()
    assert f"version {table.version}" in html and table.sheet[0]["title"] in html
    assert tables.played(table)["name"] != "Saved since"  # what the combat preview reads
