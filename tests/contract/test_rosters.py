"""Every roster kind's add box (builder/rosters.py): it searches this browser's builds, the pack's examples and a
pasted link; what cannot join is said beside the box and the unsaved form stays as the player left it."""
from __future__ import annotations

import re

import pytest

from builder import store
from builder.kinds import PAGES
from builder.models import Build
from catalogue.loader import latest_pack
from tests.helpers.html_forms import read_form

pytestmark = pytest.mark.django_db
# Each roster kind's add boxes: those it declares, or the first of those it numbers (a squad's Platoon 1).
ROSTERS = sorted((key, roster) for key, page in PAGES.items()
                 for roster in page.rosters or [r for r in [page.roster_for("add-0")] if r])
IDS = [f"{r}-{k}-{roster.field}" for (r, k), roster in ROSTERS]
HTMX = {"HTTP_HX_REQUEST": "true"}


def member_document(ruleset: str, roster) -> dict:
    """A legal member to add: the member kind's first pack example, or its blank."""
    pack = latest_pack(ruleset, roster.member)
    examples = [dict(e) for e in pack.examples if e.get("kind") == roster.member]
    return examples[0] if examples else PAGES[ruleset, roster.member].blank(pack.ref)


def other_kind(ruleset: str, roster) -> Build:
    """A saved build of another kind than the roster's members: another ruleset's first kind."""
    (other_ruleset, other), page = next(((key, page) for key, page in sorted(PAGES.items())
                                         if key[0] != ruleset), None)
    return store.create(store.check(page.blank(latest_pack(other_ruleset, other).ref)))


def open_builder(client, ruleset: str, kind: str):
    url = f"/new/{ruleset}/{kind}/"
    values, _ = read_form(client.get(url).content.decode())
    return url, values


def members(response) -> int:
    """The member rows the workbench draws: each has a remove button."""
    return len(re.findall(r'name="action" value="remove[^"]*:\d+', response.content.decode()))


@pytest.mark.parametrize("key,roster", ROSTERS, ids=IDS)
def test_the_add_box_finds_this_browsers_builds_and_adds_the_one_picked(client, packs, key, roster):
    ruleset, kind = key
    member = store.create(store.check({**member_document(ruleset, roster), "name": "Findable Member"}))
    client.get(member.get_absolute_url())  # opened here: one of this browser's builds
    url, values = open_builder(client, ruleset, kind)
    found = client.get(f"/roster/{ruleset}/{kind}/", {"field": roster.field, roster.field: "findable",
                                                      "pack": values["pack"][0]})
    html = found.content.decode()
    assert found.status_code == 200 and "Findable Member" in html and 'class="badge' in html
    token = re.search(rf'name="roster-pick" value="{re.escape(roster.field)} ([^"]+)"', html).group(1)
    before = members(client.post(url, values, **HTMX))
    added = client.post(url, {**values, "roster-pick": [f"{roster.field} {token}"], "action": ["add"]}, **HTMX)
    assert added.status_code == 200 and members(added) == before + 1 and "Findable Member" in added.content.decode()
    pasted = client.post(url, {**values, roster.field: [f"http://testserver/s/{member.share_id}/"],
                               "action": ["add"]}, **HTMX)
    assert members(pasted) == before + 1


@pytest.mark.parametrize("key,roster", ROSTERS, ids=IDS)
def test_a_wrong_link_or_garbage_is_said_in_the_roster_and_the_form_survives(client, packs, key, roster):
    ruleset, kind = key
    wrong = other_kind(ruleset, roster)
    url, values = open_builder(client, ruleset, kind)
    before = members(client.post(url, values, **HTMX))
    for text, said in ((f"http://testserver/s/{wrong.share_id}/", "not a"), ("!!! no such thing ¿", "Nothing matches"),
                       ("zzzzqqqq", "Nothing matches"), ("http://testserver/s/gone12345/", "No saved build")):
        answer = client.post(url, {**values, "name": ["Unsaved Rename"], roster.field: [text], "action": ["add"]},
                             **HTMX)
        html = answer.content.decode()
        assert answer.status_code == 200 and html.lstrip().startswith('<div id="workbench">'), text
        notice = html.split(f'id="roster-{roster.field}"')[1].split('id="' + roster.field + '-results"')[0]
        assert said in notice and 'role="alert"' in notice, text
        assert 'value="Unsaved Rename"' in html and members(answer) == before, text
        assert "<header class=\"site" not in html  # the workbench alone, never a page inside it
    search = client.get(f"/roster/{ruleset}/{kind}/", {"field": roster.field, "pack": values["pack"][0],
                                                       roster.field: f"http://testserver/s/{wrong.share_id}/"})
    assert search.status_code == 200 and "not a" in search.content.decode()


@pytest.mark.parametrize("key,roster", ROSTERS, ids=IDS)
def test_the_search_refuses_what_is_no_roster(client, packs, key, roster):
    ruleset, kind = key
    pack = latest_pack(ruleset, kind).ref
    assert client.get(f"/roster/{ruleset}/{kind}/", {"field": "nope", "pack": pack}).status_code == 404
    assert client.get(f"/roster/{ruleset}/{kind}/", {"field": roster.field, "pack": "nope@1"}).status_code == 404
    assert client.get(f"/roster/{ruleset}/{kind}/", {"field": roster.field, "pack": pack,
                                                     roster.field: "x" * 5000}).status_code == 200
