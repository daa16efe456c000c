"""A table in two browsers on the two nodes, through a restart: a change on one screen is on the other within two
seconds; node A goes down, a change made on its screen meanwhile waits in the browser and is sent when A is back;
the table's state outlived the restart, on both nodes."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.helpers.browsing import TIMEOUT_MS
from tests.helpers.cluster import Node, call

pytestmark = pytest.mark.multinode
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def count_track(page):
    """The first track that counts (− and + buttons) and is not at its top."""
    for track in page.locator("#table-live li.track.count").all():
        if track.locator("button[data-step='1']").is_enabled():
            return track.get_attribute("data-key")
    raise AssertionError("no track to count up")


def shown(page, key: str) -> int:
    return int(page.locator(f"#table-live li.track[data-key='{key}']").get_attribute("data-value"))


def test_a_table_on_two_nodes_changes_live_and_outlives_a_restart(site, browser, tmp_path):
    examples = call("GET", f"{site.a.url}/api/rulesets/metallurgent/examples").json()["examples"]
    created = call("POST", f"{site.a.url}/api/builds", next(e for e in examples if e["kind"] == "anvil")).json()
    one = browser.new_context(base_url=site.a.url, **PHONE)
    other = browser.new_context(base_url=site.b.url, **PHONE)
    try:
        for context in (one, other):
            context.set_default_timeout(TIMEOUT_MS)
        a = one.new_page()
        a.goto(f"/s/{created['share_id']}/")
        a.get_by_role("button", name="Play", exact=True).click()
        expect(a.locator("h1")).to_contain_text("at the table")
        link = a.locator("#table-link").input_value()
        b = other.new_page()
        b.goto(link.replace(site.a.url, site.b.url))
        key = count_track(a)
        start = shown(a, key)

        a.locator(f"li.track[data-key='{key}'] button[data-step='1']").click()
        began = time.monotonic()
        expect(b.locator(f"li.track[data-key='{key}']")).to_have_attribute("data-value", str(start + 1), timeout=2500)
        assert time.monotonic() - began <= 2.5

        site.a.stop()  # node A restarts: its screen's next change waits in the browser
        a.locator(f"li.track[data-key='{key}'] button[data-step='1']").click()
        expect(a.locator("#table-sync")).to_contain_text("Offline", timeout=10_000)
        assert shown(a, key) == start + 2  # shown at once on the screen that made it
        site.a = Node(site.env, tmp_path / "a-again.log", port=site.a.port).start()
        expect(a.locator("#table-sync")).to_have_text("", timeout=15_000)
        expect(b.locator(f"li.track[data-key='{key}']")).to_have_attribute("data-value", str(start + 2))
        a.reload()
        assert shown(a, key) == start + 2 and "Offline" not in a.locator("#table-sync").inner_text()
        assert a.locator(".log li").count() == 2
    finally:
        one.close()
        other.close()
