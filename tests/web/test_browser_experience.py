"""What a player meets in every builder, in chromium, for every registered kind: the chooser beside a picker
(search, the rule a choice would break, Fit), a roster's add box keeping unsaved work when the link is wrong, a new
build's draft coming back on a reload, a severity override in the House rules panel, and the builder and share
pages on a phone (no sideways scrolling, a slim opaque title bar, no serious axe violation with a chooser open).

Each test is parametrised over `sorted(PAGES)`, so a kind registered later is exercised too. A kind whose blank
builder lacks what a test needs uses its first pack example; where neither has it, the test says so.
"""
from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from builder import store
from builder.kinds import PAGES
from catalogue.loader import latest_pack
from catalogue.rulesets import ACTIVE
from tests.helpers.browsing import SHOTS, WCAG_AA, rich_document, shot

pytestmark = pytest.mark.browser

KINDS = sorted(PAGES)
IDS = [f"{r}-{k}" for r, k in KINDS]
ROSTERS = {  # each roster kind: its add box, and the kind of build it takes
    ("metallurgent", "squad"): ("add-0", "anvil"),
    ("megamercs", "company"): ("add-unit", "unit"),
    ("lancer", "lance"): ("add-pilot", "pilot"),
    ("ember", "squad"): ("add-mech", "mech"),
}
RULE_ID = re.compile(r"⚠ breaks ([A-Z]{1,3}-[A-Z]?\d+)\b")
PHONE = {"width": 390, "height": 844}
RENAME = "Zebulon Testcase"


# --- helpers ------------------------------------------------------------------------------------------


def settle(page: Page, action, quiet_ms: int = 400) -> None:
    """Run a change and wait until every htmx request it starts has settled, follow-ups included (a value edit
    asks for the pickers once its own answer has settled; a roster search waits 250 ms before it asks)."""
    before = page.evaluate("window.__htmx.settled")
    action()
    page.wait_for_function("n => window.__htmx.settled > n && window.__htmx.pending === 0 "
                           "&& window.__htmx.settling === 0", arg=before)
    quiet(page, quiet_ms)


def quiet(page: Page, quiet_ms: int = 400) -> None:
    """Until no htmx request is under way and none started in the last `quiet_ms`."""
    while True:
        page.wait_for_function("() => window.__htmx.pending === 0 && window.__htmx.settling === 0")
        count = page.evaluate("window.__htmx.settled")
        page.wait_for_timeout(quiet_ms)
        if page.evaluate("window.__htmx.settled") == count and page.evaluate("window.__htmx.pending") == 0:
            return


def first_example(ruleset: str, kind: str) -> int | None:
    """The index of the kind's first example in its pack (`?example=N`), or None when the pack has none."""
    spec = ACTIVE[ruleset]
    for index, example in enumerate(latest_pack(ruleset, kind).examples):
        if spec.kind_of(example).key == kind:
            return index
    return None


def blank_url(ruleset: str, kind: str) -> str:
    return f"/new/{ruleset}/{kind}/"


def example_url(ruleset: str, kind: str) -> str | None:
    index = first_example(ruleset, kind)
    return None if index is None else f"{blank_url(ruleset, kind)}?example={index}"


def chooser_ids(page: Page) -> list[str]:
    return page.locator("details.chooser[id]").evaluate_all("ds => ds.map(d => d.id)")


def open_chooser(page: Page, chooser_id: str):
    """Open a chooser (its table loads with htmx) and wait for its rows."""
    chooser = page.locator(f"#{chooser_id}")
    if chooser.get_attribute("open") is None:
        settle(page, lambda: chooser.locator("summary").click())
    expect(chooser.locator("tr[data-key]").first).to_be_attached()
    return chooser


def close_chooser(page: Page, chooser_id: str) -> None:
    chooser = page.locator(f"#{chooser_id}")
    if chooser.get_attribute("open") is not None:
        settle(page, lambda: chooser.locator("summary").click())  # a toggle: the chooser asks again


def view_shot(page: Page, selector: str, name: str) -> None:
    """What the player sees with `selector` at the top of the window (a full page would shrink it out of sight)."""
    page.locator(selector).evaluate("e => { e.scrollIntoView({block: 'start'}); window.scrollBy(0, -150); }")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"browser-{name}.png"))


def field_of(chooser_id: str) -> str:
    return chooser_id.removeprefix("chooser-")


def row_name(row) -> str:
    """A chooser row's item name: its row header without the ⚠ reason."""
    return row.locator("th[scope=row]").evaluate(
        "th => { const c = th.cloneNode(true); c.querySelectorAll('.reason').forEach(r => r.remove());"
        " return c.textContent.trim(); }")


SHOWN_OUTSIDE_PICKERS = """name => {
  const copy = document.getElementById("workbench").cloneNode(true);
  copy.querySelectorAll("select, details.chooser, .roster-found, template, noscript").forEach(e => e.remove());
  return copy.textContent.replace(/\\s+/g, " ").includes(name);
}"""

WIDE_ELEMENTS = """width => {
  // The outermost elements reaching past the viewport, other than inside a box that scrolls or clips sideways.
  const clips = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX; if (o === "auto" || o === "scroll" || o === "hidden") return true; }
    return false; };
  const wide = [...document.querySelectorAll("body *")].filter(e => {
    const r = e.getBoundingClientRect(); return r.width > 0 && r.right > width + 0.5 && !clips(e); });
  const outer = wide.filter(e => !wide.includes(e.parentElement));
  return outer.slice(0, 6).map(e => {
    const r = e.getBoundingClientRect();
    const name = e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
      (typeof e.className === "string" && e.className.trim() ? "." + e.className.trim().split(/\\s+/).join(".") : "");
    return `${name} right=${Math.round(r.right)} width=${Math.round(r.width)} (${Math.round(r.right - width)} px past): ` +
      JSON.stringify((e.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 60));
  });
}"""


def overflow(page: Page, width: int) -> str:
    """'' when the page fits `width`, else how wide it is and what sticks out."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll <= width:
        return ""
    return f"scrollWidth {scroll} > {width} (+{scroll - width} px); wide: {page.evaluate(WIDE_ELEMENTS, width)}"


def filled_document(ruleset: str, kind: str) -> dict:
    """A filled build of the kind: its first pack example; the kinds whose pack has none get the round-trip test's
    document (a Pilot with Developments, a squad of units, a lance of two saved pilots). The METALLURGENT Anvil
    also gets a saved Pilot by its share id."""
    index = first_example(ruleset, kind)
    if index is None:
        document = rich_document(ruleset, kind)
    else:
        document = dict(latest_pack(ruleset, kind).examples[index])
    if (ruleset, kind) == ("metallurgent", "anvil"):
        pilot = store.create(store.check(rich_document("metallurgent", "pilot")))
        document["pilot"] = pilot.share_id
    return document


# --- 1. the chooser -----------------------------------------------------------------------------------


def find_breaking_row(page: Page, url: str):
    """On `url`, open each chooser in turn until one holds a row marked `breaks`: (chooser id, row) or None."""
    page.goto(url)
    for chooser_id in chooser_ids(page):
        chooser = open_chooser(page, chooser_id)
        breaks = chooser.locator("tr.breaks")
        if breaks.count():
            return chooser_id, breaks.first
        close_chooser(page, chooser_id)
    return None


def find_fitting_button(page: Page, url: str | None, first: str):
    """On `url` (None: the page as it is), the first chooser (`first` tried first) with a row that fits and is not
    fitted: its Fit, Add or Mount button, or None."""
    if url is not None:
        page.goto(url)
    for chooser_id in [first] + [c for c in chooser_ids(page) if c != first]:
        if page.locator(f"#{chooser_id}").count() == 0:
            continue
        chooser = open_chooser(page, chooser_id)
        buttons = chooser.locator("tr[data-key]:not(.breaks):not(.fitted) button[data-fit]")
        if buttons.count():
            return chooser_id, buttons.first
        close_chooser(page, chooser_id)
    return None


def add_a_drone_controller(page: Page) -> None:
    """added the Jackal Drone Runner (a drone controller) from the unit search first"""
    page.locator("#add-unit").press_sequentially("Jackal Drone Runner")
    found = page.locator("#add-unit-results li", has_text="Jackal Drone Runner")
    expect(found).to_have_count(1)
    quiet(page)
    settle(page, lambda: found.get_by_role("button", name="Add Jackal Drone Runner").click())
    expect(page.locator("#workbench .main")).to_contain_text("Jackal Drone Runner")


# Where every choice breaks a rule on the blank builder and on the first example, the step a player takes first.
BEFORE_FITTING = {
    ("megamercs", "company"): (add_a_drone_controller, "every drone breaks MM-R13: no unit with a free drone controller"),
}


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_building_from_blank_with_the_chooser(page, ruleset, kind):
    notes = []
    url = blank_url(ruleset, kind)
    page.goto(url)
    if not chooser_ids(page):
        example = example_url(ruleset, kind)
        notes.append(f"no chooser on the blank builder; using {example}")
        if example is None:
            # Nothing to compare on this kind: say so out loud rather than pass, after checking it is really so.
            assert page.locator("option[data-reason]").count() == 0
            filled = store.create(store.check(filled_document(ruleset, kind)))
            page.goto(filled.get_absolute_url())
            assert not chooser_ids(page), "a filled build has choosers the blank one lacks"
            pytest.skip(f"{ruleset} {kind}: no chooser on its blank builder nor on a filled one (no picker of a pack "
                        f"item has more than 3 choices), and its pack has no {kind} example")
        url = example
        page.goto(url)
        assert chooser_ids(page), f"{ruleset} {kind}: no chooser on its blank builder nor on {url}"

    # Search: a word of one row's name keeps the rows that hold it and hides the others, posting nothing.
    first = chooser_ids(page)[0]
    field = field_of(first)
    chooser = open_chooser(page, first)
    rows = chooser.locator("tr[data-key]")
    texts = [t.lower() for t in rows.evaluate_all("rs => rs.map(r => r.textContent)")]
    names = [row_name(rows.nth(i)) for i in range(rows.count())]
    word = next((w for name in names for w in re.findall(r"[A-Za-z]{3,}", name)
                 if 0 < sum(w.lower() in t for t in texts) < len(texts)), None)
    assert word, f"{first}: no word of a row's name tells the rows apart: {names}"
    settled = page.evaluate("window.__htmx.settled")
    page.locator(f"#chooser-filter-{field}").press_sequentially(word)
    shown = rows.evaluate_all("rs => rs.map(r => !r.hidden)")
    expected = [word.lower() in t for t in texts]
    assert shown == expected, f"{first}: filtering by {word!r} showed {shown}, expected {expected}"
    assert 0 < sum(shown) < len(shown)
    assert page.evaluate("window.__htmx.settled") == settled and page.evaluate("window.__htmx.pending") == 0
    page.locator(f"#chooser-filter-{field}").fill("")
    assert all(rows.evaluate_all("rs => rs.map(r => !r.hidden)"))

    # A choice that would break a rule is marked, and its reason names the rule.
    found = find_breaking_row(page, url)
    tried = [url]
    if found is None and url == blank_url(ruleset, kind) and example_url(ruleset, kind):
        notes.append("no choice breaks a rule on the blank builder; looked on its first example")
        assert page.locator("option[data-reason]").count() == 0, "a select marks a reason no chooser row shows"
        tried.append(example_url(ruleset, kind))
        found = find_breaking_row(page, tried[-1])
    if found is None:
        for where in tried:  # no chooser row breaks anything: nor does any picker option say it would
            page.goto(where)
            assert page.locator("option[data-reason]").count() == 0, f"{where}: a select marks a reason, no chooser row"
        notes.append(f"no choice breaks a rule on {' or '.join(tried)}, and no option[data-reason] either")
    else:
        chooser_id, row = found
        reason = row.locator(".reason")
        expect(reason).to_be_visible()
        text = reason.inner_text()
        assert RULE_ID.search(text), f"{chooser_id}: the reason names no rule ID: {text!r}"

    # Fit (or Add, Mount…) a choice that fits: the select takes it and the workbench shows it.
    fitting = find_fitting_button(page, url, first)
    if fitting is None and url == blank_url(ruleset, kind) and example_url(ruleset, kind):
        notes.append("no choice fits on the blank builder; fitting on its first example")
        fitting = find_fitting_button(page, example_url(ruleset, kind), first)
    if fitting is None and (ruleset, kind) in BEFORE_FITTING:
        setup, why = BEFORE_FITTING[ruleset, kind]
        notes.append(f"nothing fits on the blank builder nor its example ({why}); {setup.__doc__}")
        page.goto(blank_url(ruleset, kind))
        setup(page)
        fitting = find_fitting_button(page, None, first)
    assert fitting is not None, f"{ruleset} {kind}: no chooser row fits on {url} (nor on its example)"
    chooser_id, button = fitting
    field = field_of(chooser_id)
    key = button.get_attribute("value")
    name = button.get_attribute("aria-label").split(" ", 1)[1]
    page.set_viewport_size({"width": 1280, "height": 900})
    view_shot(page, f"#{chooser_id}", f"experience-chooser-{ruleset}-{kind}")
    page.evaluate("""field => { window.__picked = null; document.addEventListener("change", (e) => {
        if (e.target.id === field) window.__picked = e.target.value; }, {capture: true, once: true}); }""", field)
    settle(page, lambda: button.click())
    assert page.evaluate("window.__picked") == key, f"#{field} did not take {key!r} when {name} was fitted"
    expect(page.locator(f"#{chooser_id}")).not_to_have_attribute("open", "")
    select = page.locator(f"select#{field}")
    if select.count():
        current = select.input_value()
        if current != key:  # only a picker that adds (Gear, a unit, a drone: "+ add…") empties itself again
            prompt = select.locator("option").first.inner_text()
            assert current == "" and prompt.startswith("+"), \
                f"#{field} holds {current!r} after fitting {key!r} (its prompt: {prompt!r})"
    assert page.evaluate(SHOWN_OUTSIDE_PICKERS, name), \
        f"the workbench does not show {name!r} (outside its pickers) after fitting it from #{chooser_id}"
    if select.count() and select.input_value() == "":
        notes.append(f"#{field} adds and empties itself: it took {key!r} (checked as the change fired)")
    print(f"{ruleset} {kind}: " + ("; ".join(notes) or "everything on the blank builder"))


# --- 2. roster add boxes ------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset,kind", sorted(ROSTERS), ids=[f"{r}-{k}" for r, k in sorted(ROSTERS)])
def test_a_roster_keeps_unsaved_work_when_a_link_is_wrong(page, live_server, ruleset, kind):
    field, member = ROSTERS[ruleset, kind]
    other = (("darkmetal", "leader") if (ruleset, kind) == ("metallurgent", "squad") else ("metallurgent", "anvil"))
    wrong = store.create(store.check(filled_document(*other)))
    saved = store.create(store.check({**filled_document(ruleset, member), "name": "Quillon Saved Member"}))
    page.goto(saved.get_absolute_url())  # opening its edit link keeps it among this browser's builds

    page.goto(blank_url(ruleset, kind))
    name = page.locator("#builder-form input[name=name]")
    settle(page, lambda: (name.fill(RENAME), name.press("Tab")))
    expect(name).to_have_value(RENAME)
    box = page.locator(f"#{field}")
    add = page.locator(f"#roster-{field} button[name=action][value=add]")

    for pasted in (f"{live_server.url}{wrong.share_url()}", "%%% garbage ¿?; DROP"):
        box.fill(pasted)
        quiet(page)  # the search as it is typed in
        settle(page, lambda: add.click())
        alert = page.locator(f"#roster-{field} p.issue[role=alert]")
        expect(alert).to_have_count(1)
        expect(alert).to_be_visible()
        expect(page.locator("#builder-form input[name=name]")).to_have_value(RENAME)
        expect(page.locator("header.site")).to_have_count(1)
        print(f"{ruleset} {kind}: {pasted[:40]!r} -> {alert.inner_text()!r}")

    box = page.locator(f"#{field}")
    box.fill("")
    box.press_sequentially("Quillon")
    result = page.locator(f"#{field}-results li", has_text="Quillon Saved Member")
    expect(result).to_have_count(1)
    settle(page, lambda: result.get_by_role("button", name="Add Quillon Saved Member").click())
    expect(page.locator(f"#{field}-results li")).to_have_count(0)
    expect(page.locator("#workbench .main")).to_contain_text("Quillon Saved Member")
    expect(page.locator(f"#roster-{field} p.issue[role=alert]")).to_have_count(0)
    expect(page.locator("#builder-form input[name=name]")).to_have_value(RENAME)
    expect(page.locator("header.site")).to_have_count(1)


# --- 3. drafts of new builds --------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_a_reload_restores_the_draft_and_new_starts_blank(page, ruleset, kind):
    new = blank_url(ruleset, kind)
    blank_name = PAGES[ruleset, kind].blank(latest_pack(ruleset, kind).ref)["name"]
    page.goto(new)
    name = page.locator("#builder-form input[name=name]")
    expect(name).to_have_value(blank_name)
    settle(page, lambda: (name.fill(RENAME), name.press("Tab")))
    expect(page).to_have_url(re.compile(r"\?draft="))
    draft = page.url

    page.reload()
    expect(page.locator("#builder-form input[name=name]")).to_have_value(RENAME)
    expect(page.locator("#workbench")).to_contain_text("Restored the unsaved changes")
    assert page.url == draft

    page.goto(new)
    page.wait_for_timeout(500)  # leaving sent the draft again (a beacon): let it land before discarding
    expect(page.locator("#builder-form input[name=name]")).to_have_value(blank_name)
    expect(page.get_by_text("Restored the unsaved changes")).to_have_count(0)
    expect(page.get_by_role("link", name="Resume it")).to_be_visible()
    with page.expect_navigation():
        page.get_by_role("link", name="Discard it").click()
    expect(page.get_by_role("link", name="Resume it")).to_have_count(0)

    page.goto(draft)
    expect(page.locator("#builder-form input[name=name]")).to_have_value(blank_name)
    expect(page.get_by_text("Restored the unsaved changes")).to_have_count(0)


# --- 4. House rules: a severity override --------------------------------------------------------------


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_a_severity_override_keeps_its_choice_on_every_kind(page, ruleset, kind):
    page.goto(blank_url(ruleset, kind))
    panel = page.locator("details#house-rules")
    panel.locator("summary").click()
    expect(panel).to_have_attribute("open", "")
    rule_select = panel.locator("select[name^=hr-severity-][name$=-rule]").last
    override = rule_select.get_attribute("name").removesuffix("-rule")
    rule = rule_select.locator("option:not([value=''])").first.get_attribute("value")
    settle(page, lambda: rule_select.select_option(rule))
    expect(page.locator(f"select[name={override}-rule]")).to_have_value(rule)
    expect(page.locator("details#house-rules")).to_have_attribute("open", "")
    level_select = page.locator(f"select[name={override}]")
    warning = level_select.locator("option", has_text="a warning").get_attribute("value")
    settle(page, lambda: level_select.select_option(warning))

    panel = page.locator("details#house-rules")
    expect(panel).to_have_attribute("open", "")
    chosen = panel.locator("select[name^=hr-severity-][name$=-rule]").evaluate_all(
        "ss => ss.filter(s => s.value).map(s => [s.name, s.value])")
    assert [value for _, value in chosen] == [rule], f"override rows hold {chosen}, expected one of {rule}"
    level = panel.locator(f"select[name={chosen[0][0].removesuffix('-rule')}]")
    expect(level).to_have_value(warning)
    expect(panel.locator("summary")).to_contain_text("1 in force")


# --- 5. phones, and axe with a chooser open -----------------------------------------------------------


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_phone_widths_and_choosers_open_pass_axe(new_context, ruleset, kind):
    build = store.create(store.check(filled_document(ruleset, kind)))
    page = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    problems = []

    page.goto(build.get_absolute_url())
    if wide := overflow(page, PHONE["width"]):
        problems.append(f"builder {build.get_absolute_url()}: {wide}")
    titlebar = page.locator("#builder-form .titlebar")
    expect(titlebar).to_have_count(1)
    box = titlebar.bounding_box()
    if box["height"] > 0.15 * PHONE["height"]:
        problems.append(f"titlebar is {box['height']:.0f} px tall, over 15% of {PHONE['height']} "
                        f"({0.15 * PHONE['height']:.0f} px)")
    style = titlebar.evaluate("e => { const s = getComputedStyle(e); return [s.position, s.backgroundColor]; }")
    alpha = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", style[1])
    if not alpha or (alpha.group(4) is not None and float(alpha.group(4)) < 1):
        problems.append(f"titlebar background {style[1]!r} is not opaque (position {style[0]})")
    if style[0] != "sticky":
        problems.append(f"titlebar position is {style[0]!r}, not sticky")

    choosers = chooser_ids(page)
    if choosers:
        open_chooser(page, choosers[0])
        view_shot(page, f"#{choosers[0]}", f"experience-phone-chooser-{ruleset}-{kind}")
        if wide := overflow(page, PHONE["width"]):
            problems.append(f"builder with #{choosers[0]} open: {wide}")
    else:
        print(f"{ruleset} {kind}: no chooser on the filled build; axe ran on the builder as it is")
        view_shot(page, "#builder-form", f"experience-phone-chooser-{ruleset}-{kind}")
    results = Axe().run(page, options=WCAG_AA)
    for violation in results.response["violations"]:
        if violation["impact"] in ("serious", "critical"):
            problems.append(f"axe {violation['id']} ({violation['impact']}) on {len(violation['nodes'])} node(s): "
                            + "; ".join(f"{n['target']} {n['failureSummary'][:160]!r}" for n in violation["nodes"][:4]))

    page.goto(build.share_url())
    if wide := overflow(page, PHONE["width"]):
        problems.append(f"share {build.share_url()}: {wide}")
    shot(page, f"experience-phone-share-{ruleset}-{kind}")
    assert not problems, "\n".join(problems)
