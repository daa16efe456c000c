"""Every kind of page, in chromium: axe-core finds no serious or critical WCAG 2.2 AA violation, and nothing
is wider than a 390 px phone."""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

import yaml

from builder import store
from catalogue.loader import latest_pack, publish
from builder.kinds import page_for
from catalogue.rulesets import ACTIVE
from tests.helpers.browsing import WCAG_AA, shot
from tests.helpers.refs import pack_ref
from tests.web.uploads import DM_HEADER, SPIKE

pytestmark = pytest.mark.browser


@pytest.fixture
def every_page(catalogue) -> dict[str, str]:
    """A URL for each kind of page: home, catalogue, every builder empty and filled, every share page."""
    urls = {"home": "/", "catalogue": "/catalogue/"}
    for ruleset in ACTIVE.values():
        urls[f"catalogue {ruleset.key}"] = f"/catalogue/{ruleset.key}/"
        for kind in ruleset.kinds:
            new = f"/new/{ruleset.key}/{kind.key}/"
            urls[f"new {ruleset.key} {kind.key}"] = new
            pack = latest_pack(ruleset.key, kind.key)
            examples = [i for i, e in enumerate(pack.examples) if ruleset.kind_of(e) is kind]
            if examples:
                urls[f"example {ruleset.key} {kind.key}"] = f"{new}?example={examples[0]}"
            document = dict(pack.examples[examples[0]]) if examples else page_for(ruleset.key, kind.key).blank(pack.ref)
            saved = store.create(store.check(document))
            urls[f"share {ruleset.key} {kind.key}"] = saved.share_url()
            urls[f"edit {ruleset.key} {kind.key}"] = saved.get_absolute_url()
    anvil = store.create(store.check(dict(latest_pack("metallurgent").examples[0])))
    squad = store.create(store.check({
        "format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad", "pack": pack_ref("metallurgent", "squad"),
        "name": "Filled Squad", "platoons": [{"name": "Lance", "members": [{"build": anvil.share_id}]},
                                             {"name": "Armour", "members": [{"unit": "t-72b-mbt"}, {"unit": "bmp-2-ifv"}]}]}))
    urls["share metallurgent squad, filled"] = squad.share_url()
    urls["edit metallurgent squad, filled"] = squad.get_absolute_url()
    urls.update(pack_pages())
    return urls


def pack_pages() -> dict[str, str]:
    """An uploaded pack's pages, and a build on it that a newer version changes and that was saved twice."""
    def kit(version, damage, token=None):
        raw = yaml.safe_dump({**DM_HEADER, "version": version, "extends": pack_ref("darkmetal", "leader"),
                              "items": {"weapon": [{**SPIKE, "damage": damage}]}}).encode()
        return publish(raw, "kit.yaml", edit_token=token).user_pack

    owner = kit("1.0.0", 1)
    document = {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": "deep-kit@1.0.0",
                "name": "Knuckles", "hands": [{"item": "spike-knuckles"}]}
    leader = store.create(store.check(document))
    store.update(leader, store.check({**document, "name": "Knuckles II"}), 1)
    kit("1.1.0", 2, owner.edit_token)
    patchy = yaml.safe_dump({**DM_HEADER, "name": "patchy-kit", "extends": pack_ref("darkmetal", "leader"), "items": {
        "weapon": [SPIKE, {**SPIKE, "key": "bent-knuckles", "damage": "lots"}]}}).encode()  # a weapon left out
    return {"packs": "/packs/", "pack share": owner.share_url(), "pack edit": owner.get_absolute_url(),
            "pack that could not read an entry": publish(patchy, "patchy-kit.yaml").user_pack.share_url(),
            "changes": f"/s/{leader.share_id}/changes/", "changes, edit link": f"/b/{leader.edit_token}/changes/",
            "version": f"/s/{leader.share_id}/v/1/", "compare": f"/s/{leader.share_id}/compare/?a=1&b=2"}


def test_no_serious_accessibility_violations_on_any_page(new_context, every_page):
    page = new_context().new_page()
    axe = Axe()
    found = {}
    for name, url in every_page.items():
        page.goto(url)
        assert page.locator("h1").count() == 1, f"{name}: one h1 per page"
        assert page.locator("a.skip").get_attribute("href") == "#main", name
        results = axe.run(page, options=WCAG_AA)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        if serious:
            found[name] = [(v["id"], len(v["nodes"]), [(n["target"], n["failureSummary"][:200]) for n in v["nodes"][:3]])
                           for v in serious]
    assert not found, "\n".join(f"{name} ({every_page[name]}): {v}" for name, vs in found.items() for v in vs)


def test_the_skip_link_is_the_first_stop_and_moves_to_the_content(new_context, every_page):
    page = new_context().new_page()
    page.goto(every_page["example metallurgent anvil"])
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


def test_no_page_is_wider_than_a_phone(new_context, every_page):
    page = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    wide = {}
    for name, url in every_page.items():
        page.goto(url)
        shot(page, f"phone-{name.replace(' ', '-')}")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[name] = (width, page.evaluate("""() => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > 391 && !e.closest('.scroll'))
                .slice(0, 4).map(e => e.tagName + '.' + e.className + '#' + e.id)"""))
    assert not wide, wide


@pytest.mark.parametrize("width", [1280, 390])
def test_an_open_part_chooser_is_accessible_and_fits(new_context, every_page, width):
    page = new_context(viewport={"width": width, "height": 844}).new_page()
    page.goto(every_page["example metallurgent anvil"])
    page.locator("#chooser-part-mobility_base summary").click()
    expect(page.locator("#chooser-rows-part-mobility_base tbody tr")).not_to_have_count(0)
    serious = [v for v in Axe().run(page, options=WCAG_AA).response["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], v["nodes"][0]["target"]) for v in serious]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
