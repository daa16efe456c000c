"""The Anvil's printed sheet aids: post-jettison breakpoints (M-R34), Chipsets and Orders (M-R70, M-R71, M-R74),
Shield AP (M-R64), EN and Fuel boxes (M-R60, M-R61)."""
import re

import pytest

from builder import store
from catalogue.loader import latest_pack
from catalogue.rulesets.metallurgent.rules import jettison_breakpoints, parse, resolve, validate
from tests.helpers.pdf import pdf_text
from tests.metallurgent.factories import anvil, make_catalogue, part, sheet_html, weapon

# The factory Anvil carries 17 ST on the example spread 20/22/26/30/32.
GEAR = [weapon("rifle", load=3), weapon("cannon", "secondary", load=4), weapon("pistol", "tertiary", load=3),
        part("big-core", "core", hardpoints=4)]


def rows(gear, **parts):
    return jettison_breakpoints(resolve(parse(anvil(gear, **parts)), make_catalogue(*GEAR)))


def test_m_r34_each_arm_gear_shows_the_breakpoint_without_it():
    # 17 + 3 + 4 + 3 = 27 ST: at the ≤ 30 breakpoint. Dropping the cannon gives 23 (≤ 26); the rifle 24 (≤ 26).
    found = rows([("rifle", "left_arm"), ("cannon", "right_arm"), ("pistol", "core")], core="big-core")
    assert [(r.name, r.load_after, r.breakpoint, r.flank, r.initiative, r.changes) for r in found] == [
        ("Rifle", 24, 26, 3, 4, True), ("Cannon", 23, 26, 3, 4, True)]


def test_m_r34_core_mounted_gear_cannot_be_jettisoned():
    assert rows([("pistol", "core"), ("rifle", "core")], core="big-core") == []


def test_m_r34_a_jettison_that_stays_in_the_same_breakpoint():
    # 17 + 3 = 20 ST sits on ≤ 20 already; 17 is still ≤ 20.
    [row] = rows([("rifle", "left_arm")])
    assert row.breakpoint == 20 and not row.changes and row.cruise == 7


def test_m_r34_overloaded_anvil_learns_which_jettison_gets_it_moving():
    heavy = make_catalogue(weapon("anchor", load=8), weapon("brick", "secondary", load=9), part("big-core", "core"))
    found = jettison_breakpoints(resolve(parse(anvil([("anchor", "left_arm"), ("brick", "right_arm")])), heavy))
    # 17 + 8 + 9 = 34 ST, over the top 32: without the anchor 26 (≤ 26), without the brick 25 (≤ 26).
    assert [(r.load_after, r.breakpoint) for r in found] == [(26, 26), (25, 26)]
    report = validate(anvil([("anchor", "left_arm"), ("brick", "right_arm")]), heavy)
    assert report.detail.jettison == found  # the Report carries the same rows the sheet prints


@pytest.fixture
def saved(packs):
    def save(index, **changes):
        return store.create(store.check({**latest_pack("metallurgent").examples[index], **changes}))
    return save


def test_m_r34_sheet_prints_the_post_jettison_breakpoints(client, saved, tmp_path):
    build = saved(0)  # Hailwall Vanguard: 32 ST on its ≤ 32 breakpoint
    html = sheet_html(build)
    assert "If jettisoned (M-R34)" in html
    text = pdf_text(client.get(f"/s/{build.share_id}.pdf").content, tmp_path)
    assert "IF JETTISONED (M-R34)" in text.upper()
    # The rifle (3 ST) takes it to 29 ST and the ≤ 29 breakpoint; the Buckler (2 ST) to 30, still ≤ 32.
    assert re.search(r"Hailstone Assault Rifle.*3 ST\s+29 ST\s+≤ 29 ST ◀ new", text)
    assert re.search(r"Windbreak Buckler.*2 ST\s+30 ST\s+≤ 32 ST\s", text)
    assert "Core-mounted Gear cannot be jettisoned" in text


def test_m_r70_m_r71_m_r74_sheet_prints_chipsets_and_orders(client, saved, tmp_path):
    example = latest_pack("metallurgent").examples[5]  # Isobar Commander: an LCA and a Radio on the Core
    gear = [dict(g) for g in example["gear"]]
    gear[0]["chipsets"] = ["squall-line-barrage", "squall-line-barrage", "eye-of-the-storm"]
    gear[1]["chipsets"] = ["relief-column"]
    build = saved(5, gear=gear)
    assert store.check(build.document).report.legal
    text = pdf_text(client.get(f"/s/{build.share_id}.pdf").content, tmp_path)
    assert "Isobar Command Array: 3 loaded of 4" in text
    assert "Highwire Field Radio: 1 loaded of 2 (Support Chipsets only)" in text
    assert text.count("Squall Line Barrage") == 2  # each copy burns out on its own (M-R71)
    for stock in ("Adjust Attitude", "Check System", "Covering Fire", "Double Time", "Stay Cool", "Fuse Sensors"):
        assert stock in text
    assert re.search(r"Stay Cool\s+Command \(stock\)\s+3", text)
    assert "Orders: Isobar Command" in text and "Order Limit 4" in text  # the label wraps
    html = sheet_html(build)
    orders = re.search(r"Orders: Isobar Command Array</th><td class=\"boxes\">((?:<span></span>)*)", html)
    assert orders and orders.group(1).count("<span>") == 4  # a box per Order it may hold


def test_m_r64_sheet_gives_each_shield_its_ap_boxes(saved):
    html = sheet_html(saved(0))  # the Windbreak Buckler
    shield = re.search(r"Shield AP: Windbreak Buckler</th><td class=\"boxes\">((?:<span></span>)*)", html)
    assert shield and shield.group(1).count("<span>") > 0
    assert "at 0 AP Destroyed and jettisoned" in html


def test_m_r60_m_r61_sheet_starts_with_en_and_fuel_boxes(saved):
    build = saved(0)
    report = store.check(build.document).report
    html = sheet_html(build)
    for label, stat in (("EN", "en_capacity"), ("Fuel", "fuel")):
        boxes = re.search(rf"<th[^>]*>{label}</th><td class=\"boxes\">((?:<span[^>]*></span>)*)", html)
        assert boxes and boxes.group(1).count("<span") == report.stats[stat].value, label
