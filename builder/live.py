"""The builder's live path, the same for every kind: value edits, picker refreshes and choosers.

Every change in a builder posts the form with `view=live`. The page carries two fingerprints of what it shows:
`structure` (what shapes the form: its rows, its pickers), `mechanics` (what the rules read) and `shown` (what the
live fragments draw: all but the name, and the issues). An edit that leaves the structure alone gets only the kind's live fragments
back, swapped in place by id, or none of them when it moved nothing they draw (a rename); one that changes the
structure gets the whole workbench. An edit that changes the mechanics then asks for `view=pickers`, the pickers with each
choice tried on the new build. `view=chooser` is one picker's choices as a table to compare.
"""
from __future__ import annotations

import hashlib
import json
import pickle
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.core.cache import cache
from django.http import HttpResponse
from django_htmx.http import reswap, retarget, trigger_client_event
from markupsafe import Markup, escape

from catalogue.rulesets.base import memo
from catalogue.rulesets.picks import Option, Place, choices, what_if

from .fragments import render_fragment

PICKER_CACHE_SECONDS = 3600
TRY_AT_ONCE = 400  # choices a first load tries before it is drawn (a character with a dozen allies has over 1,600)
CHOOSER_FROM = 2  # a picker with more choices than this has a chooser beside it: three generators differ on eight stats
VIEWS = ("live", "pickers", "chooser")
# An item's fields a chooser never makes a column of: who it is, and prose.
UNCOMPARED = {"key", "name", "description", "source", "effect", "flavour", "license", "license_id", "id"}
LONGEST_CELL = 40  # longer text is prose, not a stat to compare
TABLES_KEPT = 256  # chooser tables kept drawn, by catalogue (each a few dozen rows)


def fingerprint(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:24]


def fingerprints(checked, structure: dict[str, Any]) -> dict[str, str]:
    """The page's fingerprints (see above) of a checked build whose form has this structure."""
    # The name shows in the title bar, whose input the browser holds, the tab title, and the issues that name the
    # build; nothing else a live fragment draws reads it.
    unnamed = {key: value for key, value in checked.document.items() if key != "name"}
    issues = [(i.code, i.severity, i.path, i.message, i.hint) for i in checked.report.issues]
    return {"structure": fingerprint(structure), "mechanics": mechanics(checked),
            "shown": fingerprint([unnamed, _linked(checked), issues])}


def mechanics(checked) -> str:
    """What the pickers' annotations depend on: the document's rule-read fields and the saved builds it names."""
    return fingerprint([checked.kind.mechanics(checked.document), _linked(checked)])


def _linked(checked) -> dict[str, Any]:
    return {key: other.document if other else None for key, other in sorted(checked.linked.items())}


def places(checked) -> dict[str, Place]:
    return {place.field: place for place in checked.kind.places_of(checked.document, checked.catalogue)}


def pickers(checked, tried: bool = True, at_once: int | None = None) -> Mapping[str, dict[str, Any]]:
    """Each place with its choices tried on the build, by form field; cached by the mechanics. Tried, a place's
    choices are tried when its picker is first read: a chooser tries its own place only. Not `tried`, or with more
    choices not in the cache yet than `at_once`, those come untried (and `pending`), for the page to ask for with
    `view=pickers`: a redraw never waits for hundreds of trial builds."""
    where = places(checked)
    found = Pickers(checked, where)
    if tried and at_once is None:
        return found
    untried = {field: choices(checked.ruleset, checked.catalogue, place) for field, place in where.items()
               if field not in found.cached()}
    if not tried or (at_once is not None and sum(map(len, untried.values())) > at_once):
        return {field: picker(where[field], untried[field], pending=True) if field in untried else found[field]
                for field in where}
    return dict(found.items())


class Pickers(Mapping):
    """A build's pickers by form field, each place's choices tried, or read from the cache, when first asked for.

    The cache holds one entry a build (its mechanics), each place's tried choices in it pickled on their own: a
    chooser unpickles its place's alone, and a build's places take one entry of a bounded cache, not one each."""

    def __init__(self, checked, where: dict[str, Place]):
        self.checked, self.where, self.drawn = checked, where, {}
        # Not the key of the entries before them ("pickers:"), which held every place's choices in one pickle: a
        # cache a deploy keeps (Redis) never hands one shape to code that reads the other.
        self.key = f"picked:{checked.ruleset.key}:{checked.kind.key}:{mechanics(checked)}"
        self.kept: dict[str, bytes] | None = None

    def cached(self) -> dict[str, bytes]:
        """The cache's entry for this build: each place tried so far, by form field."""
        if self.kept is None:
            self.kept = cache.get(self.key) or {}
        return self.kept

    def __getitem__(self, field: str) -> dict[str, Any]:
        drawn = self.drawn.get(field)
        if drawn is None:
            self.draw([field])
            drawn = self.drawn[field]
        return drawn

    def draw(self, fields: list[str]) -> None:
        """These places' pickers, from the cache or else tried (and kept in the cache, in one write)."""
        c, tried = self.checked, {}
        for field in fields:
            place = self.where[field]
            pickled = self.cached().get(field)
            if pickled is not None:
                options = pickle.loads(pickled)
            else:
                options = what_if(c.ruleset, c.kind, c.document, c.catalogue, c.linked, c.report, place)
                tried[field] = pickle.dumps(options, pickle.HIGHEST_PROTOCOL)
            self.drawn[field] = picker(place, options)
        if tried:
            # Added to what the cache holds now: another request may have tried other places of the build meanwhile.
            self.kept = {**(cache.get(self.key) or {}), **tried}
            cache.set(self.key, self.kept, PICKER_CACHE_SECONDS)

    def __contains__(self, field: object) -> bool:
        return field in self.where

    def __iter__(self) -> Iterator[str]:
        return iter(self.where)

    def __len__(self) -> int:
        return len(self.where)

    def items(self):
        self.draw([field for field in self.where if field not in self.drawn])  # one write for every place tried
        return super().items()

    def values(self):
        self.draw([field for field in self.where if field not in self.drawn])
        return super().values()


def picker(place: Place, options: list[Option], pending: bool = False) -> dict[str, Any]:
    groups: dict[str, list[Option]] = {}
    for option in options:
        groups.setdefault(option.group, []).append(option)
    return {"place": place, "options": options, "groups": list(groups.items()), "chooser": len(options) > CHOOSER_FROM,
            "fitted": place.fitted, "pending": pending}


def pending(pickers_: dict[str, dict[str, Any]]) -> bool:
    return any(picked["pending"] for picked in pickers_.values())


def chooser(checked, field: str, picked: dict[str, Any]) -> dict[str, Any]:
    """One picker's choices as tables to compare, one per group: every stat a choice has, each number beside the
    fitted item's (+/−), the budget after the pick and the rule it would break."""
    ruleset, catalogue, place = checked.ruleset, checked.catalogue, picked["place"]
    fitted = catalogue.items.get(place.fitted or "")
    mine = _stats(ruleset, catalogue, place.fitted) if fitted else {}
    tables = []
    for group, options in picked["groups"]:
        table = _table(ruleset, catalogue, tuple(option.key for option in options))
        against = {i: mine[column] for i, column in enumerate(table.columns) if _number(mine.get(column))}
        rows = [_Row(option, table.compared(i, against) if against else table.drawn[i])
                for i, option in enumerate(options)]
        tables.append({"label": group, "rows": rows, "columns": table.labels,
                       "costs": any(option.cost for option in options)})
    meter = next((m for m in checked.report.meters if m.key == place.meter), None)
    return {"field": field, "place": place, "tables": tables, "fitted": fitted,
            "cost_label": f"{meter.label} after" if meter else "After",
            "verb": place.action, "count": len(picked["options"]),
            "fits": sum(not o.reason for o in picked["options"])}


class _Row(NamedTuple):
    """A chooser row: the choice, and its stat cells drawn (attributes, which Jinja reads without a fallback)."""

    option: Option
    cells: Markup


@dataclass(frozen=True)
class _Table:
    """A chooser table of some items, the same for every build: its columns, and each item's stat cells drawn
    (`<td>stat</td>`, see chooser.jinja), kept apart and joined, with its numbers to compare by column."""

    labels: list[str]
    columns: list[str]
    cells: list[list[str]]
    drawn: list[Markup]
    numbers: list[list[tuple[int, int | float]]]

    def compared(self, row: int, fitted: dict[int, int | float]) -> Markup:
        """A row's cells with each number's difference to the fitted item's (+/−) beside it; `fitted` holds the
        fitted item's numbers by column."""
        cells = None
        for column, value in self.numbers[row]:
            difference = value - fitted[column] if column in fitted else 0
            if difference:
                cells = cells or list(self.cells[row])
                cells[column] = f'{cells[column].removesuffix("</td>")} <span class="diff">{difference:+g}</span></td>'
        return Markup("".join(cells)) if cells else self.drawn[row]


def _table(ruleset, catalogue, keys: tuple[str, ...]) -> _Table:
    """Worked out once per catalogue and set of items (a catalogue never changes; see base.memo). The sets a
    place offers can vary with the build (what it holds already), so only the last TABLES_KEPT are kept."""
    kept: OrderedDict[tuple, _Table] = memo(catalogue).setdefault(("chooser", ruleset.key), OrderedDict())
    found = kept.get(keys)
    if found is not None:
        with suppress(KeyError):  # dropped by another thread meanwhile
            kept.move_to_end(keys)
        return found
    stats = [_stats(ruleset, catalogue, key) for key in keys]
    columns = list(dict.fromkeys(column for row in stats for column in row))
    cells = [[f"<td>{escape(ruleset.display_value(c, row[c])) if row.get(c) is not None else ''}</td>"
              for c in columns] for row in stats]
    found = kept[keys] = _Table([ruleset.stat_label(column) for column in columns], columns, cells,
                                [Markup("".join(row)) for row in cells],
                                [[(i, row[c]) for i, c in enumerate(columns) if _number(row.get(c))] for row in stats])
    while len(kept) > TABLES_KEPT:
        with suppress(KeyError):
            kept.popitem(last=False)
    return found


def _stats(ruleset, catalogue, key: str) -> dict[str, Any]:
    """An item's stats as a chooser compares them, flat; worked out once per catalogue."""
    kept = memo(catalogue)
    found = kept.get(("stats", ruleset.key, key))
    if found is None:
        item = catalogue.items[key]
        flat = ruleset.flatten(item.model_dump(mode="json", exclude=UNCOMPARED & set(type(item).model_fields)))
        found = kept["stats", ruleset.key, key] = {
            k: v for k, v in flat.items() if not (isinstance(v, str) and len(v) > LONGEST_CELL) and v not in ("", [])}
    return found


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def live_response(request, context: dict[str, Any], status: int) -> HttpResponse:
    """A value edit's answer: the kind's live fragments, and a nudge to the pickers when the rules' input moved.
    With `unmoved` in the context, the fragments are left out: the page shows them already."""
    response = HttpResponse(render_fragment("partials/live.jinja", context, request), status=status)
    if request.POST.get("mechanics") != context["mechanics"]:
        trigger_client_event(response, "pickers-stale", after="settle")
    return response


def pickers_response(request, context: dict[str, Any], status: int) -> HttpResponse:
    return HttpResponse(render_fragment("partials/pickers.jinja", context, request), status=status)


def chooser_response(request, checked, context: dict[str, Any], status: int) -> HttpResponse:
    field = request.POST.get("chooser", "")
    picked = context["pickers"].get(field)
    if picked is None:
        named = ", ".join(context["pickers"]) or "none on this page"
        return HttpResponse(f"chooser: name a picker of this build, one of {named}", status=422,
                            content_type="text/plain")
    return HttpResponse(render_fragment("partials/chooser.jinja", {**context, **chooser(checked, field, picked)},
                                        request), status=status)


def whole_workbench(response: HttpResponse) -> HttpResponse:
    """A live post answered with the whole workbench (the edit reshaped the form)."""
    return reswap(retarget(response, "#workbench"), "outerHTML")
