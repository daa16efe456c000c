"""In chromium: build an Ember Mech without a Chassis and see E-R03, fix it, keep its secret Part secret and save;
field it with a second Mech of the same Pilot in a squad and see E-R06; open the first Mech's share link in a fresh
browser and see the Part masked, then its reveal link and see it whole."""
import pytest
from playwright.sync_api import expect

from tests.helpers.browsing import edit, shot

pytestmark = pytest.mark.browser
PILOT = "lin-shuyao"
SECRET_ARM = "stormcoil-arm"  # its card has a secret configuration (E-R25)


def build_mech(page, name: str, chassis: bool) -> None:
    page.goto("/new/ember/mech/")
    edit(page, lambda: (page.fill("input[name=name]", name), page.press("input[name=name]", "Tab")), 1)
    for field, key in (("pilot", PILOT), ("part-torso", "flint-assault-torso"),
                       ("part-left_arm", "ridgeline-rifle-arm"), ("part-right_arm", SECRET_ARM)):
        edit(page, lambda: page.select_option(f"select[name={field}]", key), 1)
    if chassis:
        edit(page, lambda: page.select_option("select[name=part-chassis]", "strider-legs"), 1)


def save(page) -> str:
    page.get_by_role("button", name="Save and get links").click()
    expect(page.locator("#links")).to_be_visible()
    return page.locator("#share-link").input_value()


def test_a_mech_missing_its_chassis_then_two_on_one_pilot_then_its_secret_part_masked(page, new_context):
    build_mech(page, "Browser Hound", chassis=False)
    expect(page.locator('.issue[data-code="E-R03"]').first).to_contain_text("needs a chassis")
    shot(page, "ember-no-chassis")
    edit(page, lambda: page.select_option("select[name=part-chassis]", "strider-legs"), 1)
    expect(page.locator('[data-code="E-R03"]')).to_have_count(0)
    expect(page.locator("#slot-right_arm")).to_contain_text("Ion Arc")
    edit(page, lambda: page.check("input[name=secret-right_arm]"), 1)
    hound = save(page)
    reveal = page.locator("#reveal-link").input_value()
    assert "?reveal=" in reveal and reveal.startswith(hound)

    build_mech(page, "Browser Jackal", chassis=True)
    jackal = save(page)

    page.goto("/new/ember/squad/")
    edit(page, lambda: (page.fill("input[name=name]", "Browser Embers"), page.press("input[name=name]", "Tab")), 1)
    for link in (hound, jackal):
        page.fill("#add-mech", link)
        edit(page, lambda: page.press("#add-mech", "Enter"), 1)
    expect(page.locator("#mechs")).to_contain_text("Browser Jackal")
    expect(page.locator('#mechs .issue[data-code="E-R06"]')).to_contain_text("one Pilot ID per squad")
    expect(page.locator("#mechs-0")).to_contain_text("1 secret")
    expect(page.locator("#mechs-1")).not_to_contain_text("secret")  # the Jackal keeps its Stormcoil Arm in view
    expect(page.locator("#mechs")).not_to_contain_text("Stormcoil")
    shot(page, "ember-squad-e-r06")

    stranger = new_context().new_page()
    stranger.goto(hound)
    expect(stranger.locator("main")).to_contain_text("Secret Part")
    expect(stranger.locator("main")).to_contain_text("This link masks secret Parts")
    expect(stranger.locator("main")).not_to_contain_text("Stormcoil")
    expect(stranger.locator("main")).not_to_contain_text("Ion Arc")
    shot(stranger, "ember-share-masked")
    stranger.goto(reveal)
    expect(stranger.locator("main")).to_contain_text("Stormcoil Arm")
    expect(stranger.locator("main")).to_contain_text("Revealed")
