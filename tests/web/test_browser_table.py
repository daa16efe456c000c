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


def test_a_change_made_offline_is_sent_on_reconnecting_and_a_clash_is_shown_never_lost(new_context):
    document, _ = linking("metallurgent", "anvil")
    build = saved(document)
    phone_context, desk_context = new_context(**PHONE), new_context()
    phone, desk = phone_context.new_page(), desk_context.new_page()
    phone.goto(f"/s/{build.share_id}/")
    phone.get_by_role("button", name="Play", exact=True).click()
    desk.goto(phone.url)
    heat = "li.track[data-key='heat']"

    desk_context.set_offline(True)
    desk.locator(f"{heat} button[data-step='1']").click()  # 0 → 1, waiting on the desk
    expect(desk.locator("#table-sync")).to_contain_text("Offline: 1 change waiting")
    assert desk.locator(heat).get_attribute("data-value") == "1"
    for _ in range(3):  # meanwhile the phone takes the Heat to 3
        value = int(phone.locator(heat).get_attribute("data-value"))
        phone.locator(f"{heat} button[data-step='1']").click()
        expect(phone.locator(heat)).to_have_attribute("data-value", str(value + 1))
    expect(phone.locator(heat)).to_have_attribute("data-value", "3")

    desk_context.set_offline(False)
    desk.evaluate("window.dispatchEvent(new Event('online'))")
    clash = desk.locator("#table-conflicts .conflict")
    expect(clash).to_contain_text("Heat is 3 on another screen; this screen changed it from 0 to 1")
    expect(desk.locator(heat)).to_have_attribute("data-value", "3")  # the table as it is, the clash beside it
    clash.get_by_role("button", name="Use mine (1)").click()
    expect(phone.locator(heat)).to_have_attribute("data-value", "1", timeout=ARRIVAL * 1000)
    expect(desk.locator("#table-conflicts .conflict")).to_have_count(0)
    desk.reload()  # nothing kept to send again
    expect(desk.locator("#table-conflicts .conflict")).to_have_count(0)
    expect(desk.locator(heat)).to_have_attribute("data-value", "1")
