"""In chromium: build an LL3 LANCER pilot, add a mech on a frame the pilot holds no licence for and read why it is
not legal beside the mech, fix it with a licence rank, mount a Superheavy and brace it, watch the SP bar fill with
a system, save, and open the share link."""
import pytest
from playwright.sync_api import expect

from tests.helpers.browsing import edit, shot

pytestmark = pytest.mark.browser
LIVE = 2  # an advancement edit: its live fragments, then the pickers annotated for the new build


def choose(page, selector: str, value: str, requests: int = 1) -> None:
    edit(page, lambda: page.select_option(selector, value), requests)


def test_an_ll3_pilot_breaks_the_licence_gate_fixes_it_and_braces_a_superheavy(page):
    page.goto("/new/lancer/pilot/")
    edit(page, lambda: (page.fill("input[name=name]", "Browser Pilot"), page.press("input[name=name]", "Tab")), 1)
    edit(page, lambda: (page.fill("#ll", "3"), page.press("#ll", "Tab")), LIVE)
    for skill in ("sk_spot", "sk_survive", "sk_patch", "sk_take_control"):
        choose(page, f"select[name=trigger-{skill}]", "1", LIVE)
    for talent in ("t_iron_nerve", "t_quartermaster", "t_long_watch"):
        choose(page, f"select[name=talent-{talent}]", "1", LIVE)
    expect(page.locator("[data-meter=triggers]").first).to_contain_text("4 / 7")

    choose(page, "#add-mech", "mf_cairn")  # no Cairn licence yet
    mech = page.locator("#mech-0")
    expect(mech.locator("[data-code=L-B13]")).to_contain_text("Cairn needs the Cairn licence at rank 2; the pilot has rank 0")
    expect(page.locator(".legality")).to_contain_text("Not legal")
    shot(page, "lancer-licence-gate")

    choose(page, "select[name=licence-mf_cairn]", "2", LIVE)
    expect(mech.locator("[data-code=L-B13]")).to_have_count(0)

    choose(page, "select[name=mech-0-mount-0-weapon-0]", "mw_siegebreaker")
    expect(page.locator("#mech-0 [data-code=L-B09]")).to_contain_text("one more mount, left empty to brace it")
    edit(page, lambda: page.check("input[name=mech-0-mount-1-bracing]"), 1)
    expect(page.locator("#mech-0 [data-code=L-B09]")).to_have_count(0)

    sp = page.locator("#mech-0 [data-meter=sp_0]")
    expect(sp).to_contain_text("0 / 8 SP")  # Cairn 6 + Grit 2 + half Systems 0
    choose(page, "select[name=mech-0-add-system]", "ms_munitions_hopper")
    expect(sp).to_contain_text("2 / 8 SP")
    expect(page.locator(".legality")).to_contain_text("Legal Pilot")
    shot(page, "lancer-superheavy")

    page.get_by_role("button", name="Save and get links").click()
    expect(page.locator("#links")).to_be_visible()
    page.goto(page.locator("#share-link").input_value())
    expect(page.locator("main")).to_contain_text("Siegebreaker")
    expect(page.locator("main")).to_contain_text("Left empty to brace the Superheavy weapon.")
    expect(page.locator("main")).to_contain_text("Legal Pilot")
