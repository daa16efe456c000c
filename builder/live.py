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
from typing import Any

from django.core.cache import cache
from django.http import HttpResponse
from django_htmx.http import reswap, retarget, trigger_client_event

from catalogue.rulesets.picks import Option, Place, choices, what_if

from .fragments import render_fragment

PICKER_CACHE_SECONDS = 3600
TRY_AT_ONCE = 400  # choices a first load tries before it is drawn (a character with a dozen allies has over 1,600)
CHOOSER_FROM = 2  # a picker with more choices than this has a chooser beside it: three generators differ on eight stats
VIEWS = ("live", "pickers", "chooser")
# An item's fields a chooser never makes a column of: who it is, and prose.
UNCOMPARED = {"key", "name", "description", "source", "effect", "flavour", "license", "license_id", "id"}
LONGEST_CELL = 40  # longer text is prose, not a stat to compare


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


def pickers(checked, tried: bool = True, at_once: int | None = None) -> dict[str, dict[str, Any]]:
    """Each place with its choices tried on the build, by form field; cached by the mechanics. Not `tried`, or with
    more choices than `at_once`, choices not in the cache yet come untried (and `pending`), for the page to ask
    for with `view=pickers`: a redraw never waits for hundreds of trial builds."""
    where = places(checked)
    key = f"pickers:{checked.ruleset.key}:{checked.kind.key}:{mechanics(checked)}"
    options: dict[str, list[Option]] | None = cache.get(key)
    if options is None or set(options) != set(where):
        untried = {field: choices(checked.ruleset, checked.catalogue, place) for field, place in where.items()}
        if not tried or (at_once is not None and sum(map(len, untried.values())) > at_once):
            return {field: picker(where[field], listed, pending=True) for field, listed in untried.items()}
        options = {field: what_if(checked.ruleset, checked.kind, checked.document, checked.catalogue, checked.linked,
                                  checked.report, place) for field, place in where.items()}
        cache.set(key, options, PICKER_CACHE_SECONDS)
    return {field: picker(place, options[field]) for field, place in where.items()}


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
    mine = _stats(ruleset, fitted) if fitted else {}
    tables = []
    for group, options in picked["groups"]:
        rows, columns = [], []
        for option in options:
            stats = _stats(ruleset, catalogue.items[option.key])
            columns += [c for c in stats if c not in columns]
            rows.append({"option": option, "stats": stats})
        for row in rows:
            row["cells"] = [_compared(ruleset, c, row["stats"].get(c), mine.get(c)) for c in columns]
        tables.append({"label": group, "rows": rows, "columns": [ruleset.stat_label(c) for c in columns],
                       "costs": any(row["option"].cost for row in rows)})
    meter = next((m for m in checked.report.meters if m.key == place.meter), None)
    return {"field": field, "place": place, "tables": tables, "fitted": fitted,
            "cost_label": f"{meter.label} after" if meter else "After",
            "verb": place.action, "count": len(picked["options"]),
            "fits": sum(not o.reason for o in picked["options"])}


def _stats(ruleset, item: Any) -> dict[str, Any]:
    flat = ruleset.flatten(item.model_dump(mode="json", exclude=UNCOMPARED & set(type(item).model_fields)))
    return {k: v for k, v in flat.items() if not (isinstance(v, str) and len(v) > LONGEST_CELL) and v not in ("", [])}


def _compared(ruleset, column: str, value: Any, fitted: Any) -> dict[str, Any]:
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (value, fitted))
    difference = value - fitted if numbers else 0
    return {"shown": ruleset.display_value(column, value) if value is not None else "",
            "difference": f"{difference:+g}" if difference else ""}


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
