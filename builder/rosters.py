"""Adding members to a roster (a squad's Anvils, a company's units, a lance's pilots), the same for every roster kind.

The add box searches this browser's builds of the member kind, the pack's examples and (where a member may be
one) the pack's items, and reads a pasted share link. What it cannot add (a link to another kind of build, a
name nothing matches, garbage) is said beside the box; the rest of the form is drawn as the player left it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catalogue.loader import find_pack
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import BuildError, with_article

from . import forms
from .models import Build
from .session import mine

MAX_RESULTS = 12


@dataclass(frozen=True)
class Roster:
    """A roster's add box: its form field and what a member may be."""

    field: str  # "add-pilot"
    member: str  # the member kind: "pilot"
    label: str  # how the box names a member: "pilot"
    examples: bool = False  # the pack's examples of the member kind may be written in
    item_category: str = ""  # pack items of this category may be members (a squad's conventional units)
    joins: str = ""  # what the member joins, where a build has several rosters: "Platoon 2"

    @property
    def heading(self) -> str:
        return f"Add {with_article(self.label)}" + (f" to {self.joins}" if self.joins else "")


@dataclass(frozen=True)
class Found:
    """What the add box named: a saved build, a pack example written in, or a pack item."""

    source: str  # "build", "example" or "item"
    value: Any  # the share id, the example's document, or the item's key


@dataclass(frozen=True)
class Notice:
    """Why the add box added nothing, shown beside it."""

    field: str
    message: str
    text: str = ""  # what the player typed, left in the box to fix

    def __str__(self) -> str:
        return self.message


def added(post, request, page, roster: Roster, catalogue, notices: list | None) -> Found | None:
    """What the add box (or a picked search result) names, or None with a notice saying why nothing was added."""
    text = str(post.get(roster.field, "")).strip()
    if not text:
        return None
    found, problem = lookup(text, request, page, roster, catalogue)
    if problem and notices is not None:
        notices.append(Notice(roster.field, problem, text[:200]))
    return found


def lookup(text: str, request, page, roster: Roster, catalogue) -> tuple[Found | None, str]:
    """What the text names, or why it names nothing that may join."""
    source, _, value = text.partition(":")
    if source == "example" and roster.examples:
        written = examples(page, roster, catalogue)
        if forms.INDEX.fullmatch(value) and int(value) < len(written):
            return Found("example", written[int(value)]), ""
        return None, "That example is not in this pack."
    if source == "item" and roster.item_category:
        if catalogue.categories.get(value) == roster.item_category:
            return Found("item", value), ""
        return None, f"This pack has no {roster.item_category.replace('_', ' ')} {value[:40]!r}."
    share_id = value if source == "build" else _share_id(text)
    if share_id:
        return _saved(share_id, page, roster)
    named = matches(text, request, page, roster, catalogue)
    if len(named) == 1:
        return lookup(named[0]["token"], request, page, roster, catalogue)
    if named:
        return None, f"“{text[:60]}” matches {len(named)}: pick one from the list."
    return None, f"Nothing matches “{text[:60]}”: search your {roster.label}s by name, or paste a share link."


def _share_id(text: str) -> str:
    if "/s/" not in text and " " in text:
        return ""
    try:
        share_id = forms.share_id(text, "add")
    except BuildError:  # no share link in it: a name to search for
        return ""
    return share_id if "/s/" in text or Build.objects.filter(share_id=share_id).exists() else ""


def _saved(share_id: str, page, roster: Roster) -> tuple[Found | None, str]:
    build = Build.objects.filter(share_id=share_id).first()
    if build is None:
        return None, f"No saved build has the share link {share_id[:40]!r}: it may have been deleted."
    if (build.ruleset, build.kind) != (page.ruleset.key, roster.member):
        ruleset = ACTIVE.get(build.ruleset)
        other = ruleset.kind(build.kind) if ruleset else None
        what = f"{ruleset.name} {other.label}" if other else "build of another kind"
        return None, f"“{build.name}” is {with_article(what)}, not {with_article(f'{page.ruleset.name} {roster.label}')}."
    return Found("build", build.share_id), ""


def examples(page, roster: Roster, catalogue) -> list[dict[str, Any]]:
    pack = find_pack(catalogue.pack)
    return [e for e in (pack.examples if pack else []) if e.get("kind") == roster.member]


def matches(text: str, request, page, roster: Roster, catalogue,
            describe: Callable[[dict[str, Any]], str] = lambda document: "") -> list[dict[str, Any]]:
    """The search results for the add box's text: this browser's builds, the pack's examples and items whose name
    holds it (all of them for no text), each with what a list shows of it (`describe`: the member kind's line)."""
    words = text.strip().lower()
    found = [{"token": f"build:{b.share_id}", "name": b.name, "where": f"your {roster.label}", "verdict": b.verdict,
              "about": describe(b.document), "saved": b.updated_at}
             for b in (mine(request, page.ruleset.key, roster.member) if request is not None else [])
             if words in b.name.lower()]
    if roster.examples:
        found += [{"token": f"example:{i}", "name": e["name"], "where": "example", "verdict": "legal",
                   "about": describe(e)}
                  for i, e in enumerate(examples(page, roster, catalogue)) if words in e["name"].lower()]
    if roster.item_category:
        found += [{"token": f"item:{item.key}", "name": item.name, "where": page.ruleset.category_label(
                   roster.item_category), "verdict": "legal", "about": page.ruleset.summary(roster.item_category, item)}
                  for item in catalogue.of(roster.item_category) if words in item.name.lower()]
    exact = [row for row in found if row["name"].lower() == words]
    return exact or found
