"""A collection in two browsers at once (a desktop and a 390 px phone): the link joins the phone, both see and edit the
same builds, the search answers as the player types, a replaced link shuts the phone out at once, and the file
downloaded on one uploads twice into a fresh database on a third: builds and links as they were, none twice.
axe-core finds nothing serious on the way."""
from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from builder import store
from builder.models import Build, Collection
from tests.helpers.browsing import WCAG_AA, edit, shot
from tests.helpers.kinds import documents

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def serious(page) -> list:
    found = Axe().run(page, options=WCAG_AA).response["violations"]
    return [(v["id"], v["nodes"][0]["target"]) for v in found if v["impact"] in ("serious", "critical")]


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_collection_on_two_browsers_then_replaced_then_carried_to_a_third(new_context, tmp_path):
    anvil = store.create(store.check({**documents("metallurgent", "anvil")[0], "name": "Hailwall Home"}))
    leader = store.create(store.check(documents("darkmetal", "leader")[0]))
    desk = new_context().new_page()
    for build in (anvil, leader):
        desk.goto(f"/b/{build.edit_token}/")
    desk.goto("/")
    expect(desk.locator("#collection-list")).to_contain_text("METALLURGENT · Anvil")
    expect(desk.locator("#collection-list")).to_contain_text("DARK METAL · Squad Leader")
    assert not serious(desk)
    shot(desk, "collection-desk")
    link = desk.locator("#collection-link-box").input_value()
    assert link.startswith("http") and "/c/" in link

    phone = new_context(**PHONE).new_page()
    phone.goto(link)
    expect(phone.locator("main")).to_contain_text("1 DARK METAL Squad Leader, 1 METALLURGENT Anvil")
    assert not serious(phone) and fits(phone)
    shot(phone, "collection-join-phone")
    phone.get_by_role("button", name="Open the collection on this browser").click()
    expect(phone.locator("#collection-list")).to_contain_text("Hailwall Home")
    assert fits(phone) and not serious(phone)
    shot(phone, "collection-phone")

    # An edit on the phone is on the desk's list at its next look.
    phone.get_by_role("link", name="Hailwall Home").click()
    field = phone.locator("#builder-form input[name=name]")
    edit(phone, lambda: (field.fill("Hailwall Renamed"), field.press("Tab")), 1)
    edit(phone, lambda: phone.locator("#builder-form button[name=action][value=save]").click(), 1)
    assert Build.objects.get(pk=anvil.pk).version == 2
    desk.goto("/")
    expect(desk.locator("#collection-list")).to_contain_text("Hailwall Renamed")
    expect(desk.locator("#collection-list")).to_contain_text("v2")

    # The search answers as the player types, without a reload.
    desk.locator("#collection-q").fill("renamed")
    expect(desk.locator("#collection-list")).not_to_contain_text(leader.name)
    expect(desk.locator("#collection-list")).to_contain_text("1 of 2 builds match")
    desk.locator("#collection-q").fill("")
    expect(desk.locator("#collection-list")).to_contain_text(leader.name)

    # Replaced: the phone is out at once, and the old link opens nothing.
    desk.once("dialog", lambda dialog: dialog.accept())
    desk.get_by_role("button", name="Replace the link").click()
    expect(desk.locator(".messages")).to_contain_text("Your collection has a new link")
    assert desk.locator("#collection-link-box").input_value() != link
    phone.goto("/")
    expect(phone.locator(".messages")).to_contain_text("has a new link now")
    expect(phone.locator("#collection")).not_to_contain_text("Hailwall Renamed")
    assert phone.goto(link).status == 404

    # The file, downloaded on the desk, uploaded on a third browser: the same builds, none twice.
    with desk.expect_download() as got:
        desk.get_by_role("link", name="Download the collection file").click()
    path = tmp_path / "collection.json"
    got.value.save_as(path)
    assert {b["name"] for b in json.loads(path.read_text())["builds"]} == {"Hailwall Renamed", leader.name}
    links = set(Build.objects.values_list("edit_token", "share_id", "name", "version"))
    Build.objects.all().delete()  # as on a fresh database: another server
    Collection.objects.all().delete()
    third = new_context().new_page()
    third.goto("/")
    for _ in range(2):
        third.locator("#collection-upload-file").set_input_files(str(path))
        third.get_by_role("button", name="Upload", exact=True).click()
        expect(third.locator("#collection-list")).to_contain_text("Hailwall Renamed")
    expect(third.locator(".messages")).to_contain_text("were here already")
    assert set(Build.objects.values_list("edit_token", "share_id", "name")) == {link[:3] for link in links}
    third.goto(f"/s/{anvil.share_id}/")  # the old share link opens it here
    expect(third.locator("h1")).to_contain_text("Hailwall Renamed")

    # Removing takes it off the list (and says how to put it back), the build stays.
    third.goto("/")
    third.get_by_role("button", name=f"Take {leader.name} out of the collection").click()
    expect(third.locator("#collection-list")).to_contain_text(f"Took “{leader.name}” out of your collection")
    expect(third.locator("#collection-list .collection-rows")).not_to_contain_text(leader.name)
    assert Build.objects.filter(share_id=leader.share_id).exists()
