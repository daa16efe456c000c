"""In chromium: build a mecha, mount an item of the wrong type and see MM-R02 beside it, fix it, save, add the
unit to a company over its credit budget, see the credit bar, and share the company."""
import pytest
from playwright.sync_api import expect

from catalogue.loader import catalogue_by_ref, latest_pack
from tests.helpers.browsing import edit, shot

pytestmark = pytest.mark.browser


def test_build_a_mecha_fix_a_mismatch_and_field_it_over_budget(page):
    pack = latest_pack("megamercs")
    items = catalogue_by_ref(pack.ref)
    mecha = next(c for c in items.of("chassis") if c.unit_type == "mecha")
    arm = next(h for h in mecha.hardpoints if h.location in ("right_arm", "left_arm"))
    wrong = next(i for i in items.of("equipment") + items.of("weapon")
                 if not set(i.types) & set(arm.types) and not i.specialist_for)
    right = next(i for i in items.of("weapon") if set(i.types) & set(arm.types) and i.size <= arm.size
                 and not i.specialist_for and not i.variable_ammo)

    page.goto("/new/megamercs/unit/")
    edit(page, lambda: (page.fill("input[name=name]", "Browser Mecha"), page.press("input[name=name]", "Tab")), 1)
    edit(page, lambda: page.select_option("#chassis", mecha.key), 1)
    edit(page, lambda: page.select_option(f"#add-{arm.key}", wrong.key), 1)
    expect(page.locator("#mount-0")).to_contain_text("MM-R02")
    expect(page.locator(".legality")).to_contain_text("Not legal")
    shot(page, "megamercs-mismatch")
    edit(page, lambda: page.get_by_role("button", name=f"Remove {wrong.name} from the {arm.name}").click(), 1)
    expect(page.locator("#mount-0")).to_have_count(0)
    edit(page, lambda: page.select_option(f"#add-{arm.key}", right.key), 1)
    expect(page.locator("#mount-0")).to_contain_text(right.name)
    expect(page.locator("#mount-0")).not_to_contain_text("MM-R02")
    expect(page.locator("#grids-heading")).to_be_visible()
    page.get_by_role("button", name="Save and get links").click()
    expect(page.locator("#links")).to_be_visible()
    share_link = page.locator("#share-link").input_value()
    credits = page.locator("[data-stat=credits] summary").first.inner_text().split()[0]

    page.goto("/new/megamercs/company/")
    edit(page, lambda: (page.fill("input[name=name]", "Browser Company"), page.press("input[name=name]", "Tab")), 1)
    page.fill("#add-unit", share_link)
    edit(page, lambda: page.press("#add-unit", "Enter"), 1)
    expect(page.locator("table.gear")).to_contain_text("Browser Mecha")
    page.fill("#credit-budget", "1")
    edit(page, lambda: page.locator("#credit-budget").dispatch_event("change"), 1)
    meter = page.locator("[data-meter=credits]").first
    expect(page.locator("#workbench [data-code=MM-R20]").first).to_be_visible()
    expect(meter).to_contain_text(f"{credits} / 1")
    shot(page, "megamercs-company")
    page.get_by_role("button", name="Save and get links").click()
    expect(page.locator("#links")).to_be_visible()
    page.goto(page.locator("#share-link").input_value())
    expect(page.locator("body")).to_contain_text("Browser Mecha")
    expect(page.locator("main")).to_contain_text("MM-R20")
