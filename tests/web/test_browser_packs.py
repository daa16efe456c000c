"""In chromium: upload a CSV pack, build with it, publish a new version, see what it changes, and upgrade."""
import pytest
from playwright.sync_api import expect

from tests.helpers.browsing import shot
from tests.helpers.refs import pack_ref
from tests.web.uploads import SPIKE, as_csv

pytestmark = pytest.mark.browser


def upload_csv(page, tmp_path, damage, version=None):
    path = tmp_path / "weapon.csv"
    path.write_bytes(as_csv({**SPIKE, "damage": damage}, {**SPIKE, "key": "tusk-blade", "name": "Tusk Blade"})
                     if version is None else as_csv({**SPIKE, "damage": damage}))
    page.set_input_files("input[type=file]", str(path))
    page.get_by_text("For a lone CSV file").click()
    page.select_option("select[name=ruleset]", "darkmetal")
    page.fill("input[name=name]", "deep-kit")
    page.fill("input[name=version]", version or "1.0.0")
    page.fill("input[name=title]", "Deep kit")
    page.fill("input[name=extends]", pack_ref("darkmetal", "leader"))


def test_upload_a_csv_pack_build_with_it_publish_and_upgrade(page, tmp_path):
    page.goto("/packs/")
    upload_csv(page, tmp_path, damage=1)
    page.get_by_role("button", name="Upload").click()
    expect(page.locator(".messages")).to_contain_text("Uploaded deep-kit@1.0.0 (2 items added to")
    expect(page.locator("#catalogue-table")).to_contain_text("Spike Knuckles")
    edit_link = page.url
    shot(page, "pack-edit")

    page.get_by_role("link", name="New Squad Leader").click()
    page.select_option("#hand-1", "spike-knuckles")
    page.select_option("#hand-2", "tusk-blade")
    page.get_by_role("button", name="Save and get links").click()
    expect(page.locator("#links")).to_be_visible()
    build_edit = page.url

    page.goto(edit_link)
    upload_csv(page, tmp_path, damage=2, version="1.1.0")
    page.get_by_role("button", name="Publish").click()
    expect(page.locator(".messages")).to_contain_text("Published deep-kit@1.1.0")

    page.goto(build_edit)
    expect(page.locator(".newer-pack")).to_contain_text("deep-kit@1.1.0")
    page.get_by_role("link", name="See what it changes and upgrade").click()
    expect(page.locator("table.changes")).to_contain_text("damage")
    expect(page.locator("body")).to_contain_text("an upgrade empties")
    expect(page.locator("body")).to_contain_text("Tusk Blade")
    shot(page, "pack-changes")
    page.get_by_role("button", name="Upgrade to deep-kit@1.1.0").click()
    expect(page.locator(".messages")).to_contain_text("Moved to deep-kit@1.1.0. Emptied")
    expect(page.locator("#hand-1")).to_have_value("spike-knuckles")
    expect(page.locator("#hand-2")).to_have_value("")
    expect(page.locator(".newer-pack")).to_have_count(0)


def test_house_rules_change_the_budgets_live_and_survive_the_save(page):
    page.goto("/new/darkmetal/leader/")
    page.locator("#house-rules summary").click()
    page.fill("#hr-gear-budget", "2000")
    page.locator("#hr-gear-budget").dispatch_event("change")
    expect(page.locator("[data-meter=gear_rep]").first).to_contain_text("/ 2000")
    expect(page.locator("#house-rules summary")).to_contain_text("1 in force")
    page.get_by_role("button", name="Save and get links").click()
    expect(page.locator("#links")).to_be_visible()
    expect(page.locator("#hr-gear-budget")).to_have_value("2000")
    page.goto(page.locator("#share-link").input_value())
    expect(page.locator(".house-rules-in-use")).to_contain_text("MES, weapons, items and allies budget: 2000")
