"""What the real-browser tests share: headless Debian chromium as Playwright drives it, `edit()` that waits for a
builder change's htmx requests to settle, screenshots, axe-core's WCAG 2.2 AA rules, and a rich document of each kind.

A value edit (a part, a toggle, the name) is an htmx post answered with out-of-band fragments and then a
second post that refreshes the pickers; a structural edit (mounting, moving, removing Gear, saving) swaps
the whole #workbench. `edit()` counts finished htmx requests so tests look only at the settled page. The fixtures
(`browser`, `catalogue`, `new_context`, `page`) are in tests/conftest.py.
"""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from builder import store
from builder.kinds import PAGES
from catalogue.loader import latest_pack

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
SHOTS = Path("/tmp/shots")
TIMEOUT_MS = 20_000  # a loaded CI machine once needed more than 10 s for one htmx round trip

COUNT_HTMX_REQUESTS = """
window.__htmx = {pending: 0, settled: 0, settling: 0};
document.addEventListener("htmx:beforeRequest", () => window.__htmx.pending++);
// afterRequest fires once per request, after its swaps (afterSettle fires once per swapped fragment).
document.addEventListener("htmx:afterRequest", () => { window.__htmx.pending--; window.__htmx.settled++; });
// New content listens for changes only once it has settled: an edit before that would be lost.
document.addEventListener("htmx:afterSwap", () => window.__htmx.settling++);
document.addEventListener("htmx:afterSettle", () => { window.__htmx.settling = Math.max(0, window.__htmx.settling - 1); });
"""

WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
           "resultTypes": ["violations"]}


def edit(page: Page, action, requests: int) -> None:
    """Run one builder change and wait until its `requests` htmx requests have settled."""
    before = page.evaluate("window.__htmx.settled")
    action()
    page.wait_for_function("n => window.__htmx.settled >= n && window.__htmx.pending === 0 && window.__htmx.settling === 0",
                           arg=before + requests)


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"browser-{name}.png"), full_page=True)


def entries(node) -> int:
    """How many list entries a document holds, at any depth: the richer example exercises more of the form."""
    if isinstance(node, dict):
        return sum(entries(v) for v in node.values())
    if isinstance(node, list):
        return len(node) + sum(entries(v) for v in node)
    return 0


def rich_document(ruleset: str, kind: str) -> dict:
    """A document to save, with several list entries. Kinds whose pack has no example get one written here
    (the Pilot with two of each repeated field); any other kind takes its richest example, else its blank."""
    pack = latest_pack(ruleset, kind)
    header = {"format": "hardpoint.build/1", "ruleset": ruleset, "kind": kind, "pack": pack.ref}
    if (ruleset, kind) == ("metallurgent", "pilot"):
        # Night School taken twice (a count, which a checkbox once cut to one) and two Proficiencies (selects all
        # named `proficiency`), each in the order the page lists them so a plain save keeps the document as it is.
        # Debris-Fall Survivor and Combat Medic both give Medicine: an improvement there (M-R95); Night School one
        # in Mathematics each time.
        return {**header, "name": "Round Trip Pilot", "callsign": "Echo", "xp": 30,
                "lifepath": "debris-fall-survivor", "profession": "combat-medic",
                "developments": ["dev-hit-the-gym", "dev-night-school", "dev-night-school"],
                "proficiencies": [{"knowledge": "mathematics", "proficiency": "logic"},
                                  {"knowledge": "medicine", "proficiency": "physical"}]}
    if (ruleset, kind) == ("metallurgent", "squad"):
        return {**header, "name": "Round Trip Squad", "players": 2,
                "platoons": [{"name": "Armour", "members": [{"unit": "t-72b-mbt"}, {"unit": "bmp-2-ifv"}]},
                             {"name": "Infantry", "members": [{"unit": "rifle-squad"}, {"unit": "m998-humvee"}]}]}
    if (ruleset, kind) == ("lancer", "lance"):
        pilots = sorted((e for e in latest_pack("lancer", "pilot").examples if e.get("kind") == "pilot"),
                        key=entries, reverse=True)[:2]
        saved = [store.create(store.check(dict(p))) for p in pilots]
        return {**header, "name": "Round Trip Lance", "pilots": [{"build": s.share_id} for s in saved]}
    examples = [dict(e) for e in pack.examples if e.get("kind") == kind]
    return max(examples, key=entries) if examples else PAGES[ruleset, kind].blank(pack.ref)
