"""The live path every registered kind gets from builder.live: value edits, picker refreshes and choosers.

A value edit's fragments, swapped into the page it was made on, give the page the server draws for the edited
build; the pickers a refresh sends are the page's own pickers; every picker of a build opens a chooser."""
from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from builder import store
from builder.kinds import PAGES
from catalogue.loader import latest_pack
from tests.helpers.html_forms import HTMX, OOB, element, read_form, settled, swapped, without_state

pytestmark = pytest.mark.django_db
KINDS = sorted(PAGES)
IDS = [f"{r}-{k}" for r, k in KINDS]
# Value edits a player makes on each kind, beyond renaming it: (form field, new value). Each must leave the form's
# shape alone, so it gets the live fragments back.
VALUE_EDITS: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("metallurgent", "anvil"): [("task", "sniper"), ("condition-left_arm", "damaged")],
    ("metallurgent", "pilot"): [("callsign", "Echo"), ("mettle", "7"), ("lifepath", "selenite-spacer-kid"),
                                ("profession", "anvil-ground-crew"), ("development-dev-night-school", "2"),
                                ("talents", "Steady hands")],
    ("metallurgent", "squad"): [("players", "5"), ("opponent", "abcd1234")],
    ("darkmetal", "leader"): [("trait-ath", "4"), ("trait-kno", "6"), ("skill-med", "1"), ("skill-eng", "5"), ("player", "Dana")],
    ("megamercs", "unit"): [("mount-0-ammo", "HE")],
    ("megamercs", "company"): [("credit_budget", "1000"), ("infantry-0-count", "3"), ("aircraft-0-count", "2")],
    ("lancer", "pilot"): [("callsign", "WREN"), ("ll", "5"), ("hase-hull", "2"), ("hase-systems", "4"),
                          ("hase-engineering", "4"), ("trigger-sk_spot", "3"), ("talent-t_iron_nerve", "3"),
                          ("licence-mf_cairn", "1")],
    ("lancer", "lance"): [],
    ("ember", "mech"): [("stance", "defensive")],
    ("ember", "squad"): [("drone-0-count", "5")],
}


def examples(ruleset: str, kind: str) -> list[str]:
    """The builder addresses of the kind's pack examples, and of a blank build."""
    pack = latest_pack(ruleset, kind)
    url = f"/new/{ruleset}/{kind}/"
    return [url] + [f"{url}?example={i}" for i, e in enumerate(pack.examples) if e.get("kind") == kind]


def form_of(client, url: str) -> dict[str, list[str]]:
    values, _ = read_form(client.get(url).content.decode())
    return values


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_a_value_edit_swaps_in_what_the_whole_page_would_show(client, packs, ruleset, kind):
    edits = [("name", "Renamed for the table")] + VALUE_EDITS.get((ruleset, kind), [])
    for url in examples(ruleset, kind):
        values = form_of(client, url)
        post_to = url.split("?")[0]
        before = settled(client, post_to, values, client.post(post_to, values, **HTMX).content.decode())
        for field, value in edits:
            if field not in values and field != "name":
                continue
            edited = {**values, field: [value]}
            answer = client.post(post_to, {**edited, "view": ["live"]}, **HTMX)
            assert answer.status_code == 200 and "HX-Retarget" not in answer, (url, field)
            after = settled(client, post_to, edited, client.post(post_to, edited, **HTMX).content.decode())
            fragments = answer.content.decode()
            if "pickers-stale" in answer.get("HX-Trigger-After-Settle", ""):  # the page asks for them next
                fragments += client.post(post_to, {**edited, "view": ["pickers"]}, **HTMX).content.decode()
            state = [field, "csrfmiddlewaretoken"]
            assert without_state(swapped(before, fragments), state) == without_state(after, state), (url, field)


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_an_edit_that_moves_nothing_drawn_sends_no_fragment(client, packs, ruleset, kind):
    """A post that leaves what the fragments draw as the page shows it (a rename, where no issue names the build)
    gets the title, the badges and the fingerprints back, and nothing the page already has."""
    for url in examples(ruleset, kind):
        values = form_of(client, url)
        answer = client.post(url.split("?")[0], {**values, "view": ["live"]}, **HTMX).content.decode()
        assert OOB.findall(answer) == [("span", "badges"), ("span", "fingerprints")], url


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_an_edit_that_reshapes_the_form_gets_the_whole_workbench(client, packs, ruleset, kind):
    url = examples(ruleset, kind)[-1]
    values = form_of(client, url)
    answer = client.post(url.split("?")[0], {**values, "structure": ["stale"], "view": ["live"]}, **HTMX)
    assert answer.status_code == 200 and answer["HX-Retarget"] == "#workbench" and answer["HX-Reswap"] == "outerHTML"
    assert answer.content.decode().lstrip().startswith('<div id="workbench">')


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_every_picker_refreshes_as_the_page_draws_it_and_opens_a_chooser(client, packs, monkeypatch, ruleset, kind):
    from builder import live

    monkeypatch.setattr(live, "TRY_AT_ONCE", 10_000)  # the page draws every choice tried
    for url in examples(ruleset, kind):
        page = client.get(url).content.decode()
        values, _ = read_form(page)
        post_to = url.split("?")[0]
        fields = picker_fields(ruleset, kind, values)
        refreshed = client.post(post_to, {**values, "view": ["pickers"]}, **HTMX).content.decode()
        for field in fields:
            on_page = element(page, field)
            assert on_page.startswith("<select"), f"{url}: the page has no picker for {field}"
            assert element(refreshed, field).replace(' hx-swap-oob="true"', "", 1) == on_page, (url, field)
        for field in fields:
            chooser = client.post(post_to, {**values, "view": ["chooser"], "chooser": [field]}, **HTMX)
            html = chooser.content.decode()
            assert chooser.status_code == 200 and f'id="chooser-filter-{field}"' in html, (url, field)
            options = re.findall(r'<option value="([^"]+)"', element(page, field))
            offered = re.findall(rf'data-fit="{re.escape(field)}" value="([^"]+)"', html)
            assert set(offered) | _fitted(html) == set(options), (url, field)
        refused = client.post(post_to, {**values, "view": ["chooser"], "chooser": ["no-such-picker"]}, **HTMX)
        assert refused.status_code == 422 and "no-such-picker" not in refused.content.decode()


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_a_first_load_with_many_choices_asks_for_their_marks_as_it_loads(client, packs, monkeypatch, ruleset, kind):
    """Over TRY_AT_ONCE choices (here: any), a first load is drawn without trying them and fetches the pickers the
    page would have shown; a post without JavaScript still shows them tried."""
    from builder import live

    url = examples(ruleset, kind)[-1]
    monkeypatch.setattr(live, "TRY_AT_ONCE", 10_000)
    tried = client.get(url).content.decode()
    values, _ = read_form(tried)
    monkeypatch.setattr(live, "TRY_AT_ONCE", 0)
    cache.clear()  # the marks the first load tried are kept, and drawn at once
    page = client.get(url).content.decode()
    lazy = re.search(r'hx-trigger="pickers-stale from:body([^"]*)"', page)
    fields = picker_fields(ruleset, kind, values)
    assert lazy and lazy.group(1) == (", load" if fields else ""), url
    refreshed = client.post(url.split("?")[0], {**values, "view": ["pickers"]}, **HTMX).content.decode()
    posted = client.post(url.split("?")[0], values).content.decode()
    for field in fields:
        assert element(refreshed, field).replace(' hx-swap-oob="true"', "", 1) == element(tried, field), field
        assert element(posted, field) == element(tried, field), field


def picker_fields(ruleset: str, kind: str, values: dict[str, list[str]]) -> list[str]:
    """The form fields of the pickers the build these form values make has."""
    checked = store.check(PAGES[ruleset, kind].read_post(_plain(values), values["pack"][0],
                                                          store.catalogue_by_ref(values["pack"][0])))
    return [place.field for place in checked.kind.places_of(checked.document, checked.catalogue)]


def _fitted(html: str) -> set[str]:
    return set(re.findall(r'<tr class="fitted" data-key="([^"]+)"', html))


def _plain(values: dict[str, list[str]]):
    from django.http import QueryDict

    query = QueryDict(mutable=True)
    for key, value in values.items():
        query.setlist(key, value)
    return query
