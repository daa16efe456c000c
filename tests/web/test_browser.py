"""Real-browser tests: headless Debian chromium driven through Playwright against pytest-django's live server.

A value edit (a part, a toggle, the name) is an htmx post answered with out-of-band fragments and then a
second post that refreshes the pickers; a structural edit (mounting, moving, removing Gear, saving) swaps
the whole #workbench. `edit()` (tests/helpers/browsing.py) counts finished htmx requests so tests look only at the
settled page; the browser fixtures are in tests/conftest.py.
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.browsing import edit, shot

pytestmark = pytest.mark.browser

NEW_ANVIL = "/new/metallurgent/anvil/"
EDIT_URL = re.compile(r"/b/([^/]+)/$")


# --- helpers ------------------------------------------------------------------------------------------

def swap(page: Page, action) -> None:
    """A structural change or a save: one request that swaps the whole workbench."""
    edit(page, action, 1)


def choose(page: Page, selector: str, value: str) -> None:
    """Pick in a picker: two requests either way. A value edit gets its live fragments, then the pickers re-marked
    for the new build; a pick that reshapes the form (the Core, an Arm, Gear) redraws the workbench, whose pickers
    then fetch their marks."""
    edit(page, lambda: page.select_option(selector, value), 2)


def track_navigations(page: Page) -> list[str]:
    """URLs the main frame navigates to from now on; an htmx swap adds none."""
    navigations: list[str] = []
    # A document loaded: a reload or a new page. The address a new build's draft takes (history.replaceState) is
    # no navigation of the page.
    page.on("domcontentloaded", lambda loaded: navigations.append(loaded.url))
    return navigations


def mobility_issue(page: Page, code: str = "M-R32"):
    return page.locator(f'#slot-mobility_base .issue[data-code="{code}"]')


def edit_token(page: Page) -> str:
    match = EDIT_URL.search(page.url)
    assert match, f"not on an edit page: {page.url}"
    return match.group(1)


# --- tests --------------------------------------------------------------------------------------------


PARTS = {  # a legal Anvil from the starter pack: 24 ST with a rifle, 30 ST with the laser too
    "core": "thunderhead-core",
    "mobility_base": "mistral-biped",  # tops at 34 ST
    "left_arm": "gust-arm",
    "right_arm": "hailfist-arm",
    "generator": "updraft-generator",
    "electronics": "haze-electronics",
    "fcs": "glint-fcs",
}


def test_build_from_scratch_then_overload_without_reload(page):
    page.goto(NEW_ANVIL)
    expect(page.locator("#legal-badge")).to_have_text("empty")  # nothing chosen yet: not illegal

    for slot, key in PARTS.items():
        choose(page, f"#part-{slot}", key)
        expect(page.locator(f"#part-{slot}")).to_have_value(key)
    for slot, key in PARTS.items():  # every earlier pick survived the later swaps
        expect(page.locator(f"#part-{slot}")).to_have_value(key)

    choose(page, "#add-core", "hailstone-rifle")
    expect(page.locator("#mount-core table.gear")).to_contain_text("Hailstone")
    expect(page.locator("#add-core")).to_have_value("")
    expect(page.locator("#summary .legality.legal")).to_contain_text("Legal")
    expect(page.locator("#legal-badge")).to_have_text("legal")
    expect(mobility_issue(page)).to_have_count(0)

    page.evaluate("window.__marker = 1")
    navigations = track_navigations(page)

    choose(page, "#add-core", "solstice-laser")  # 30 ST: still under the biped's 34
    expect(page.locator("#mount-core table.gear")).to_contain_text("Solstice")
    expect(page.locator("#legal-badge")).to_have_text("legal")
    choose(page, "#part-mobility_base", "zephyr-hover")  # tops at 29 ST: overloaded

    issue = mobility_issue(page)
    expect(issue).to_be_visible()
    expect(issue).to_contain_text("30 ST")
    expect(page.locator("#legal-badge")).to_contain_text("illegal")
    expect(page.locator("#summary .legality.illegal")).to_contain_text("Not legal")
    expect(page.locator("#all-issues")).to_contain_text("M-R32")
    assert page.evaluate("window.__marker") == 1, "the page reloaded"
    assert navigations == [], f"the main frame navigated: {navigations}"
    assert NEW_ANVIL + "?draft=" in page.url  # the draft's address: a reload comes back to this build
    shot(page, "builder-overloaded")


def test_save_and_share_then_copy_in_another_browser(page, new_context):
    page.goto(NEW_ANVIL + "?example=0")
    page.get_by_role("button", name="Save and get links").click()
    page.wait_for_url(EDIT_URL)
    token = edit_token(page)
    expect(page.locator("ul.messages")).to_contain_text("Saved")
    share_link = page.locator('#links a.open-share')
    expect(share_link).to_have_count(1)
    share_path = share_link.get_attribute("href")
    assert re.fullmatch(r"/s/[^/]+/", share_path), share_path

    stranger = new_context().new_page()
    assert stranger.context.cookies() == []
    stranger.goto(share_path)
    expect(stranger.locator("h1")).to_have_text("Hailwall Vanguard")
    expect(stranger.locator(".titlebar .badge.legal")).to_have_text("legal")
    expect(stranger.locator("#summary .legality.legal")).to_contain_text("Legal")
    assert token not in stranger.content(), "the share page leaks the edit token"
    shot(stranger, "share")

    stranger.get_by_role("button", name="Copy to my builds").click()
    stranger.wait_for_url(EDIT_URL)
    copy_token = edit_token(stranger)
    assert copy_token != token
    expect(stranger.locator('input[name="name"]')).to_have_value("Hailwall Vanguard (copy)")
    expect(stranger.locator("ul.messages")).to_contain_text("Copied")


def test_builder_works_without_javascript(new_context):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(NEW_ANVIL + "?example=0")
    check = page.get_by_role("button", name="Check build")
    expect(check).to_be_visible()
    expect(mobility_issue(page)).to_have_count(0)

    page.select_option("#part-mobility_base", "zephyr-hover")  # no htmx: nothing is posted yet
    with page.expect_navigation():
        check.click()
    expect(page.locator("#part-mobility_base")).to_have_value("zephyr-hover")
    expect(mobility_issue(page)).to_be_visible()
    expect(page.locator("#legal-badge")).to_contain_text("illegal")
    expect(page.locator(".badge.dirty")).to_be_visible()

    with page.expect_navigation():
        page.get_by_role("button", name="Save and get links").click()
    page.wait_for_url(EDIT_URL)
    expect(page.locator("ul.messages")).to_contain_text("Saved")
    expect(page.locator("#part-mobility_base")).to_have_value("zephyr-hover")
    expect(mobility_issue(page)).to_be_visible()
    expect(page.locator('#links a.open-share')).to_have_count(1)


def test_pickers_explain_illegal_choices(page):
    page.goto(NEW_ANVIL + "?example=0")  # 32 ST on a biped that tops at 34
    expect(page.locator("#legal-badge")).to_have_text("legal")
    picker = page.locator("#part-mobility_base")
    expect(picker).to_have_value("mistral-biped")
    for lighter in ("zephyr-hover", "foehn-reverse-joint"):  # top out at 29 and 30 ST
        option = picker.locator(f'option[value="{lighter}"]')
        expect(option).to_have_count(1)
        expect(option).to_contain_text("breaks M-R32")
        expect(option).to_have_attribute("data-reason", re.compile(r"^M-R32"))
        expect(option).not_to_have_attribute("disabled", re.compile(".*"))
        expect(option).not_to_have_attribute("hidden", re.compile(".*"))
    for fits in ("mistral-biped", "sirocco-wheels", "bora-quadruped", "harmattan-tracks"):
        expect(picker.locator(f'option[value="{fits}"]')).not_to_contain_text("breaks")
    shot(page, "builder-example0")


def test_hardpoint_and_strength_bars_update(page):
    page.goto(NEW_ANVIL + "?example=0")
    strength = page.locator('#mount-left_arm .meter[data-meter="left_arm_strength"]')
    hardpoints = page.locator('#mount-left_arm .meter[data-meter="left_arm_hardpoints"]')
    budget = page.locator('#summary ~ section .meter[data-meter="left_arm_strength"]')
    expect(strength).to_contain_text("Left Arm Strength")
    expect(strength).to_contain_text("5 / 8 ST")
    expect(hardpoints).to_contain_text("2 / 2")
    expect(budget).to_contain_text("5 / 8 ST")
    page.evaluate("window.__marker = 1")
    navigations = track_navigations(page)

    choose(page, "#add-left_arm", "frostfin-radiator")  # Size 1, 1 ST

    expect(strength).to_contain_text("6 / 8 ST")
    expect(budget).to_contain_text("6 / 8 ST")
    expect(hardpoints).to_contain_text("3 / 2")
    expect(hardpoints).to_have_class(re.compile(r"\bover\b"))
    expect(page.locator("#mount-left_arm table.gear")).to_contain_text("Frostfin")
    assert page.evaluate("window.__marker") == 1, "the page reloaded"
    assert navigations == []


def test_import_a_build_file(page, tmp_path):
    response = page.request.get("/api/rulesets/metallurgent/examples")
    assert response.ok
    example = response.json()["examples"][2]
    path = tmp_path / "driftwatch.json"
    path.write_text(json.dumps({**example, "name": "Imported Driftwatch"}))

    page.goto("/")
    shot(page, "home")
    page.set_input_files("#import-file", str(path))
    with page.expect_navigation():
        page.locator('form[action="/import/"]').get_by_role("button", name="Import").click()
    page.wait_for_url(EDIT_URL)
    expect(page.locator('input[name="name"]')).to_have_value("Imported Driftwatch")
    expect(page.locator("ul.messages")).to_contain_text("Imported")
    expect(page.locator("#part-mobility_base")).to_have_value(example["parts"]["mobility_base"])

    page.goto("/")  # remembered on this browser
    expect(page.get_by_role("link", name="Imported Driftwatch")).to_be_visible()


def test_stale_edit_shows_conflict_and_keeps_first_save(new_context):
    first = new_context().new_page()
    created = first.request.post("/api/builds", data=json.dumps(
        first.request.get("/api/rulesets/metallurgent/examples").json()["examples"][0]),
        headers={"Content-Type": "application/json"})
    assert created.status == 201, created.text()
    token, share_id = created.json()["edit_token"], created.json()["share_id"]
    second = new_context().new_page()
    first.goto(f"/b/{token}/")
    second.goto(f"/b/{token}/")

    def rename(page: Page, name: str) -> None:
        field = page.locator('input[name="name"]')
        edit(page, lambda: (field.fill(name), field.press("Tab")), 1)  # a name changes no picker: no refresh
        expect(page.locator('input[name="name"]')).to_have_value(name)

    rename(first, "Saved in the first tab")
    swap(first, lambda: first.get_by_role("button", name="Save", exact=True).click())
    expect(first.locator(".titlebar .badge.legal", has_text="saved")).to_have_text("saved · v2")

    rename(second, "Saved in the second tab")
    swap(second, lambda: second.get_by_role("button", name="Save", exact=True).click())
    conflict = second.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("saved elsewhere")
    expect(conflict).to_contain_text("not saved")
    expect(second.locator('input[name="name"]')).to_have_value("Saved in the second tab")

    stored = second.request.get(f"/api/builds/{share_id}").json()
    assert stored["build"]["name"] == "Saved in the first tab"
    assert stored["version"] == 2


def test_catalogue_page_renders(page):
    page.goto("/catalogue/metallurgent/?category=weapon")
    expect(page.get_by_text("Hailstone Assault Rifle").first).to_be_visible()
    shot(page, "catalogue")


def test_pilot_skill_off_spec_into_anvil_into_squad_shared(page, new_context):
    page.goto("/new/metallurgent/pilot/")
    edit(page, lambda: (page.fill("#xp", "30"), page.press("#xp", "Tab")), 1)
    edit(page, lambda: page.select_option("#specialisation", "guardian"), 1)
    expect(page.locator("#specialisation")).to_have_value("guardian")  # still the player's to change (M-R96)
    page.locator("#spec-battlemaster").evaluate("tree => { tree.open = true; }")
    lightning = page.locator("#skill-bm-lightning-strike")
    expect(lightning.locator(".price")).to_contain_text("3 SP")
    expect(lightning.locator(".price .badge")).to_have_text("×1.5")
    edit(page, lambda: lightning.get_by_role("button", name="Learn for 3 SP").click(), 1)
    expect(page.locator("#skill-bm-lightning-strike.held")).to_have_count(1)
    expect(page.locator("[data-stat=sp_spent] summary")).to_have_text("3 SP")
    expect(page.locator("#spec-locked")).to_have_text("Guardian")  # a Skill was bought on it
    page.get_by_role("button", name="Save and get links").click()  # saving a new build navigates
    expect(page).to_have_url(EDIT_URL)

    page.goto(f"{NEW_ANVIL}?example=0")
    edit(page, lambda: page.select_option("#pilot", label="New Pilot"), 1)  # nor does the Pilot
    page.get_by_role("button", name="Save and get links").click()  # saving a new build navigates
    expect(page).to_have_url(EDIT_URL)

    page.goto("/new/metallurgent/squad/")
    page.fill("#add-0", "Hailwall")  # the roster box searches this browser's Anvils and the pack as it is typed in
    found = page.locator("#add-0-results li", has_text="Hailwall Vanguard")
    expect(found).to_contain_text("your Anvil")
    edit(page, lambda: found.get_by_role("button", name="Add Hailwall Vanguard").click(), 1)
    swap(page, lambda: page.get_by_role("button", name="+ Add a Platoon").click())
    edit(page, lambda: (page.fill("#add-1", "T-72B main battle tank"), page.press("#add-1", "Enter")), 1)
    expect(page.locator("#platoon-1")).to_contain_text("T-72B main battle tank")
    page.get_by_role("button", name="Save and get links").click()  # saving a new build navigates
    share = page.locator("#links a.open-share").get_attribute("href")
    token = EDIT_URL.search(page.url).group(1)

    friend = new_context().new_page()
    friend.goto(share)
    expect(friend.locator("h1")).to_have_text("New Squad")
    expect(friend.locator("main")).to_contain_text("Hailwall Vanguard")
    expect(friend.locator("main")).to_contain_text("T-72B main battle tank")
    assert token not in friend.content()
    shot(friend, "squad-share")


def test_combat_preview_panel_updates_without_reload(page):
    page.goto(f"{NEW_ANVIL}?example=0")
    page.evaluate("window.__marker = 1")
    edit(page, lambda: (page.fill("#preview-range", "4"), page.press("#preview-range", "Tab")), 1)
    results = page.locator("#preview-results")
    expect(results).to_contain_text("Hailstone Assault Rifle")
    expect(results.locator("svg").first).to_be_visible()
    first = results.locator("td.p-hit").first.inner_text()
    edit(page, lambda: page.get_by_label("Flanking", exact=True).check(), 1)  # +1 Target Number
    expect(results.locator("td.p-hit").first).not_to_have_text(first)
    name = page.locator('input[name="name"]')
    edit(page, lambda: (name.fill("Renamed Hailwall"), name.press("Tab")), 2)  # the edit, then the preview again
    expect(results).to_contain_text("Renamed Hailwall")
    assert page.evaluate("window.__marker") == 1
    shot(page, "preview")


def test_dark_metal_leader_over_budget_fixed_then_allies_and_share(page, new_context):
    page.goto("/new/darkmetal/leader/")
    edit(page, lambda: page.select_option("#trait-select-ath", "10"), 1)  # level 5: 2700 Rep
    edit(page, lambda: page.select_option("#trait-select-pre", "6"), 1)  # level 3: 1000 Rep
    trait_bar = page.locator('.meter[data-meter="trait_rep"]')
    expect(trait_bar).to_have_class(re.compile(r"\bover\b"))
    expect(page.locator("#summary")).to_contain_text("DM-R04")
    edit(page, lambda: page.select_option("#trait-select-pre", "2"), 1)  # level 1: back to 2800
    expect(trait_bar).not_to_have_class(re.compile(r"\bover\b"))
    expect(page.locator("#summary")).not_to_contain_text("DM-R04")
    edit(page, lambda: page.select_option("#trait-select-com", "4"), 1)  # Com 2: 3 allies, 450 Max Ally Value
    page.select_option("#trait-select-ath", "9")  # 2200 + 100 + 450 = 2750 Rep: within 3,000
    page.wait_for_function("() => window.__htmx.pending === 0")
    edit(page, lambda: page.select_option("#add-ally", "standard-infantry"), 1)
    edit(page, lambda: page.select_option("#add-ally", "rookie-medic"), 1)
    expect(page.locator(".ally")).to_have_count(2)
    expect(page.locator('.meter[data-meter="allies"]')).to_contain_text("2 / 3")
    expect(page.locator("#legal-badge")).to_have_text("legal")
    page.get_by_role("button", name="Save and get links").click()
    expect(page).to_have_url(EDIT_URL)
    share = page.locator("#links a.open-share").get_attribute("href")
    token = EDIT_URL.search(page.url).group(1)

    friend = new_context().new_page()
    friend.goto(share)
    expect(friend.locator("main")).to_contain_text("Standard Infantry")
    expect(friend.locator("main")).to_contain_text("Rookie Medic")
    assert token not in friend.content()
    shot(friend, "leader-share")


def test_enter_in_a_field_rechecks_and_never_saves(page):
    from builder.models import Build

    page.goto(NEW_ANVIL + "?example=0")
    swap(page, lambda: (page.fill('input[name="name"]', "Pressed Enter"), page.press('input[name="name"]', "Enter")))
    expect(page.locator('input[name="name"]')).to_have_value("Pressed Enter")
    # the address becomes the draft's (a reload comes back to it), never an edit link
    assert "?draft=" in page.url and "/b/" not in page.url and Build.objects.count() == 0

    page.goto("/new/metallurgent/squad/")
    search = page.locator("#add-0")
    swap(page, lambda: (search.fill("T-72B main battle tank"), search.press("Enter")))
    expect(page.locator("#platoon-0 table.gear")).to_contain_text("T-72B")
    assert Build.objects.count() == 0


def test_dark_metal_preview_on_the_builder_page(page):
    page.goto("/new/darkmetal/leader/?example=0")
    results = page.locator("#preview-results")
    edit(page, lambda: page.get_by_label("Target Armor").fill("2") or page.get_by_label("Target Armor").press("Tab"), 1)
    expect(results.locator("table")).to_be_visible()
    expect(results).not_to_contain_text("Cannot preview")
    shot(page, "leader-preview")


def test_a_slow_answer_to_an_earlier_change_never_wins(page, monkeypatch):
    """Two structural changes in quick succession: the page ends on the second, however the answers arrive."""
    import time

    from builder.kinds.metallurgent.anvil import Page as AnvilPage

    original = AnvilPage.document_from_post
    page.goto(NEW_ANVIL + "?example=0")
    current = page.locator("#part-left_arm").input_value()
    arms = [v for v in page.locator("#part-left_arm option").evaluate_all("os => os.map(o => o.value)") if v]
    slow, fast = [a for a in arms if a != current][:2]

    def slow_answer(self, post, *args, **kwargs):
        if post.get("part-left_arm") == slow:
            time.sleep(0.6)
        return original(self, post, *args, **kwargs)

    monkeypatch.setattr(AnvilPage, "document_from_post", slow_answer)
    page.select_option("#part-left_arm", slow)
    page.select_option("#part-left_arm", fast)
    page.wait_for_timeout(1200)
    page.wait_for_function("() => window.__htmx.pending === 0")
    expect(page.locator("#part-left_arm")).to_have_value(fast)
    name = page.locator(f'#part-left_arm option[value="{fast}"]').inner_text().split(" — ")[0].lstrip("⚠ ")
    expect(page.locator("#mount-left_arm h3")).to_contain_text(name)


def test_a_big_pdf_shows_its_progress_then_opens(page):
    """A squad PDF of more builds than a request renders: the page waits for the worker, then the PDF arrives."""
    from tests.helpers.pdf import run_worker, save_squad

    squad = save_squad(4)
    page.goto(f"/s/{squad.share_id}.pdf")
    expect(page.locator("#pdf-progress")).to_contain_text("Laid out 0 of 5 builds")
    expect(page.locator("#pdf-progress")).to_contain_text("Waiting for a worker")
    expect(page.get_by_role("link", name="Check again")).to_be_hidden()  # the page asks by itself
    shot(page, "pdf-progress")
    with page.expect_response(lambda r: r.headers.get("content-type") == "application/pdf") as response:
        run_worker()  # meanwhile the page keeps asking, and once the PDF is ready it goes there
    assert response.value.status == 200 and 'filename="Big-Squad.pdf"' in response.value.headers["content-disposition"]
    expect(page).to_have_url(re.compile(rf"/s/{squad.share_id}\.pdf\?paper=a4$"))  # chromium's PDF viewer


def test_the_tab_title_follows_the_name(page):
    """A rename is a value edit (live fragments) and a save of a saved build swaps the workbench: both retitle."""
    def rename(name: str) -> None:
        field = page.locator('input[name="name"]')
        edit(page, lambda: (field.fill(name), field.press("Tab")), 1)

    page.goto(NEW_ANVIL + "?example=0")
    rename("Ironbark")
    expect(page).to_have_title("Ironbark · Hardpoint")
    page.get_by_role("button", name="Save and get links").click()
    page.wait_for_url(EDIT_URL)
    rename("Ironbark II")
    swap(page, lambda: page.get_by_role("button", name="Save", exact=True).click())
    expect(page.locator("#badges")).to_contain_text("saved · v2")
    expect(page).to_have_title("Ironbark II · Hardpoint")


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_after_saving_the_links_are_above_the_fold_and_copy(new_context, viewport):
    context = new_context(viewport=viewport)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(NEW_ANVIL + "?example=0")
    page.get_by_role("button", name="Save and get links").click()
    page.wait_for_url(EDIT_URL)
    share = page.locator("#share-link")
    box = share.bounding_box()
    assert box["y"] + box["height"] <= viewport["height"], box  # no scrolling to find it
    assert share.input_value().endswith(page.locator("#links a.open-share").get_attribute("href"))
    page.locator('[data-copy="share-link"]').click()
    expect(page.locator("#links .copy-status")).to_have_text("Share link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == share.input_value()
    expect(page.locator("#links .badge.private")).to_be_visible()
    assert page.locator("#edit-link").input_value() == page.url
    shot(page, f"links-{viewport['width']}")


def test_leaving_with_unsaved_changes_asks_first_and_saving_does_not(page):
    page.goto(NEW_ANVIL + "?example=0")
    field = page.locator('input[name="name"]')
    edit(page, lambda: (field.fill("Unsaved Anvil"), field.press("Tab")), 1)
    expect(page.locator(".badge.dirty")).to_be_visible()
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    page.close(run_before_unload=True)
    page.wait_for_timeout(500)
    assert asked == ["beforeunload"]


def test_saving_leaves_without_asking(page):
    page.goto(NEW_ANVIL + "?example=0")
    field = page.locator('input[name="name"]')
    edit(page, lambda: (field.fill("Saved Anvil"), field.press("Tab")), 1)
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
    page.get_by_role("button", name="Save and get links").click()
    page.wait_for_url(EDIT_URL)
    expect(page.locator(".badge.dirty")).to_have_count(0)
    assert asked == []
    page.goto(NEW_ANVIL)  # what was saved is no unsaved draft to bring back to a new build
    expect(page.locator('input[name="name"]')).not_to_have_value("Saved Anvil")
    expect(page.get_by_text("Restored the unsaved changes")).to_have_count(0)


def open_chooser(page: Page, select: str):
    """An example Anvil's chooser for one picker, opened and loaded."""
    page.goto(NEW_ANVIL + "?example=0")
    chooser = page.locator(f"#chooser-{select}")
    edit(page, lambda: chooser.locator("summary").click(), 1)
    return chooser


def test_the_part_chooser_filters_compares_and_fits(page):
    chooser = open_chooser(page, "part-generator")
    table = chooser.locator("#chooser-rows-part-generator")
    expect(table.locator("tr.fitted")).to_contain_text("Updraft Gas Turbine")
    rows = table.locator("tbody tr")
    total = rows.count()
    assert total > 2
    page.fill("#chooser-filter-part-generator", "turbine")
    visible = table.locator("tbody tr:not([hidden])")
    assert 0 < visible.count() < total and all("turbine" in t.lower() for t in visible.all_inner_texts())
    assert page.evaluate("window.__htmx.pending") == 0  # filtering posts nothing
    page.fill("#chooser-filter-part-generator", "")
    candidate = table.locator("tbody tr:not(.fitted) button[data-fit]").first
    key = candidate.get_attribute("value")
    edit(page, lambda: candidate.click(), 2)  # a value edit: live fragments, then the pickers
    expect(page.locator("#part-generator")).to_have_value(key)
    expect(chooser).not_to_have_attribute("open", "")
    shot(page, "chooser")


def test_undo_and_redo_step_through_the_edits(page):
    page.goto(NEW_ANVIL + "?example=0")
    undo = page.locator("[data-undo]")
    expect(undo).to_be_disabled()
    original = page.locator("#part-generator").input_value()
    choose(page, "#part-generator", "corona-generator")
    field = page.locator('input[name="name"]')
    edit(page, lambda: (field.fill("Second Edit"), field.press("Tab")), 1)
    swap(page, lambda: undo.click())
    expect(field).to_have_value("Hailwall Vanguard")
    expect(page.locator("#part-generator")).to_have_value("corona-generator")
    swap(page, lambda: page.locator("[data-undo]").click())
    expect(page.locator("#part-generator")).to_have_value(original)
    expect(page.locator("[data-undo]")).to_be_disabled()
    swap(page, lambda: page.locator("[data-redo]").click())
    expect(page.locator("#part-generator")).to_have_value("corona-generator")
    swap(page, lambda: page.locator("[data-redo]").click())
    expect(field).to_have_value("Second Edit")
    expect(page.locator("[data-redo]")).to_be_disabled()


def test_unsaved_changes_left_behind_come_back(page):
    page.goto(NEW_ANVIL)
    field = page.locator('input[name="name"]')
    edit(page, lambda: (field.fill("Left Behind"), field.press("Tab")), 1)
    page.goto("/")  # leaving: the edit already kept the draft
    page.goto(NEW_ANVIL)  # "New Anvil" from the menu starts blank and offers the draft
    expect(page.locator('input[name="name"]')).to_have_value("New Anvil")
    expect(page.locator("#workbench")).to_contain_text("You left an unsaved Anvil “Left Behind”")
    page.get_by_role("link", name="Resume it").click()
    expect(page.locator('input[name="name"]')).to_have_value("Left Behind")
    expect(page.locator("#workbench")).to_contain_text("Restored the unsaved changes")
    page.get_by_role("link", name="Discard them").click()
    expect(page.locator('input[name="name"]')).to_have_value("New Anvil")
    expect(page.locator("#workbench")).not_to_contain_text("You left an unsaved")


def test_the_gear_chooser_mounts_what_it_shows(page):
    chooser = open_chooser(page, "add-core")
    expect(chooser.locator("table.chooser-table").first).to_be_visible()
    assert chooser.locator("table.chooser-table").count() >= 2  # one table per group of the picker
    rows = page.locator("#mount-core table.gear tbody tr[id^=gear-]")
    count = rows.count()
    button = chooser.locator("button[data-fit]").first
    name = button.get_attribute("aria-label").removeprefix("Mount ")
    swap(page, lambda: button.click())  # adding Gear is a structural edit
    expect(rows).to_have_count(count + 1)
    expect(page.locator("#mount-core")).to_contain_text(name)


def test_on_a_phone_the_verdict_and_budgets_stay_in_view_and_follow_edits(new_context):
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(NEW_ANVIL + "?example=0")
    gear = page.locator('#builder-form button[value^="remove:"]')
    count = gear.count()
    gear.last.scroll_into_view_if_needed()
    summary = page.locator("#badges")
    box = summary.bounding_box()
    assert page.evaluate("window.scrollY") > 1000 and 0 <= box["y"] and box["y"] + box["height"] <= 844, box
    expect(summary).to_contain_text(f"Gear {count}/12")
    expect(summary).to_contain_text("legal")
    swap(page, lambda: gear.last.click())
    expect(page.locator("#badges")).to_contain_text(f"Gear {count - 1}/12")
    shot(page, "phone-summary")
