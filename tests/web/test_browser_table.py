"""Every kind's table in two real browsers at once, a 390 px phone and a desk: "Play" on the share page opens it, a
change on the phone is on the desk within two seconds, undo walks it back, the desk's next turn is on the phone, and
axe-core finds nothing serious on the phone."""
from __future__ import annotations

import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from builder.kinds import PAGES
from tests.helpers.browsing import WCAG_AA, shot
from tests.helpers.kinds import linking, saved

pytestmark = pytest.mark.django_db(transaction=True)
KINDS = sorted(PAGES)
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
ARRIVAL = 2.5  # seconds: every screen asks each second; the rest is the round trip and the swap


def first_change(page):
    """A track's first change a player would make: a count up or down, else the next option of a choice or a box."""
    for track in page.locator("#table-live li.track").all():
        for button in track.locator("button[name=after]").all():
            if button.is_enabled() and button.get_attribute("aria-pressed") != "true":
                return track.get_attribute("data-key"), track.get_attribute("data-value"), button
    raise AssertionError("no track to change")


def value_of(page, key):
    return page.locator(f"#table-live li.track[data-key='{key}']")


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=[f"{r}-{k}" for r, k in KINDS])
def test_a_table_on_a_phone_and_a_desk(new_context, ruleset, kind):
    document, _ = linking(ruleset, kind)
    build = saved(document)
    phone = new_context(**PHONE).new_page()
    phone.goto(f"/s/{build.share_id}/")
    phone.get_by_role("button", name="Play", exact=True).click()
    expect(phone.locator("h1")).to_contain_text("at the table")
    desk = new_context().new_page()
    desk.goto(phone.url)

    found = Axe().run(phone, options=WCAG_AA).response["violations"]
    assert not [(v["id"], v["nodes"][0]["target"]) for v in found if v["impact"] in ("serious", "critical")]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    small = phone.evaluate("""() => [...document.querySelectorAll('#table-live button')]
        .filter(b => b.offsetParent && (b.getBoundingClientRect().height < 44 || b.getBoundingClientRect().width < 44))
        .map(b => b.textContent.trim()).slice(0, 5)""")
    assert not small, f"targets under 44 px: {small}"

    key, before, button = first_change(phone)
    button.click()
    began = time.monotonic()
    expect(value_of(desk, key)).not_to_have_attribute("data-value", before, timeout=ARRIVAL * 1000)
    assert time.monotonic() - began <= ARRIVAL
    changed = value_of(phone, key).get_attribute("data-value")
    assert changed != before

    phone.locator(".log li").first.get_by_role("button", name="Undo").click()
    expect(value_of(desk, key)).to_have_attribute("data-value", before, timeout=ARRIVAL * 1000)
    expect(desk.locator(".log li.undone")).to_have_count(1)

    desk.get_by_role("button", name="Next turn").click()
    expect(phone.locator(".counter-now")).to_contain_text("Turn 2", timeout=ARRIVAL * 1000)
    shot(phone, f"table-{ruleset}-{kind}-phone")
