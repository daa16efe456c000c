"""Browse and compare a pack's items of one category, in a table sortable by any column."""
from __future__ import annotations

from collections import Counter
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.shortcuts import render

from .loader import catalogue_for, find_pack, latest_pack_with
from .models import Pack
from .rulesets import ACTIVE
from .rulesets.packs import to_csv

HIDDEN_COLUMNS = {"key", "name", "description"}


def _sort_key(value: Any) -> tuple:
    if value is None or value == "":
        return (2, 0, "")
    if isinstance(value, bool):
        return (1, 0, str(value))
    if isinstance(value, (int, float)):
        return (0, value, "")
    return (1, 0, str(value).lower())


def _named(path: str) -> str:
    """The field a dotted path ends on, skipping list indexes: modes.1.damage is damage."""
    return next(part for part in reversed(path.split(".")) if not part.isdigit())


def index(request):
    return render(request, "catalogue/index.html", {"rulesets": list(ACTIVE.values())})


def rules(request, ruleset: str):
    """The rule index: every rule ID with our statement, its rulebook lines, where Hardpoint honours it and
    the reading chosen where the rulebook is unclear. Builder issues link here by rule ID."""
    spec = ACTIVE.get(ruleset)
    if spec is None or not spec.rules():
        raise Http404("No rule index for this ruleset")
    index = list(spec.rules().values())
    options = spec.house_rules()
    return render(request, "catalogue/rules.html", {
        "ruleset": spec, "rules": [(rule, [(reading, options.get(reading.option)) for reading in rule.readings])
                                   for rule in index],
        "readings": sum(len(rule.readings) for rule in index),
        "enforced": Counter(label for rule in index for label in rule.where_labels()).most_common(),
    })


def browse(request, ruleset: str):
    spec = ACTIVE.get(ruleset)
    if spec is None:
        raise Http404("No such ruleset")
    category = request.GET.get("category") or next(iter(spec.categories))
    if category not in spec.categories:
        raise Http404("No such category")
    ref = request.GET.get("pack")
    pack = public_pack(spec, category, ref)
    return render(request, "catalogue/browse.html",
                  items_table(request, spec, pack, category, spec.category_labels, {"pack": ref} if ref else {}))


def public_pack(spec, category: str, ref: str | None) -> Pack:
    """The Hardpoint pack a catalogue page shows: the one named, or the newest holding the category. An
    uploaded pack is seen through its own share link only."""
    pack = find_pack(ref) if ref else latest_pack_with(spec.key, category)
    if pack is None or pack.source not in Pack.PUBLIC or pack.ruleset.key != spec.key:
        raise Http404("No such pack")
    return pack


def export_csv(request, ruleset: str):
    """One category of a Hardpoint pack as CSV: a spreadsheet to start your own pack from, which uploads back."""
    spec = ACTIVE.get(ruleset)
    category = request.GET.get("category", "")
    if spec is None or category not in spec.categories:
        raise Http404("No such ruleset or category")
    pack = public_pack(spec, category, request.GET.get("pack"))
    items = [item.model_dump(mode="json", exclude_defaults=True) for item in catalogue_for(pack).of(category)]
    response = HttpResponse(to_csv(items), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{category}.csv"'
    return response


def items_table(request, spec, pack: Pack, category: str, categories, keep: dict[str, str],
                only: set[str] | None = None) -> dict[str, Any]:
    """One category of a pack as a table sortable by any column and searchable by name or description, with
    how the builder handles each item's effect where the ruleset says. `keep` are the page's own query
    parameters (which pack, which version), kept by every tab, sort and search link; `only` limits the rows to
    these item keys (an extending pack's own)."""
    catalogue = catalogue_for(pack)
    query = request.GET.get("q", "").strip()[:80]
    rows, columns = [], []
    for item in catalogue.of(category):
        if only is not None and item.key not in only:
            continue
        if query.lower() not in f"{item.name} {getattr(item, 'description', '')}".lower():
            continue
        flat = spec.flatten(item.model_dump(mode="json"))
        for column in flat:
            if column not in HIDDEN_COLUMNS and column not in columns:
                columns.append(column)
        rows.append({"item": item, "cells": flat})
    # What a player compares first leads; the rest keep pack order.
    lead = spec.leading_columns
    columns.sort(key=lambda c: lead.index(c) if c in lead else len(lead))
    sort = request.GET.get("sort", "name")
    descending = sort.startswith("-")
    field = sort.lstrip("-")
    if field != "name" and field not in columns:
        field, descending = "name", False
    rows.sort(key=lambda r: _sort_key(r["cells"].get(field)), reverse=descending)
    for row in rows:
        row["values"] = [spec.display_value(c, row["cells"].get(c)) for c in columns]
        row["notes"] = [{"note": note, "fields": ", ".join(dict.fromkeys(spec.stat_label(_named(f)) for f in note.fields))}
                        for note in (spec.effect_notes(pack.name, category, row["item"].key) if spec.effect_notes else [])]
    return {
        "ruleset": spec, "pack": pack, "category": category, "categories": categories,
        "category_label": categories.get(category, category),
        "columns": [{"name": c, "label": spec.stat_label(c),
                     "sort": ("-" if field == c and not descending else "") + c,
                     "active": field == c, "descending": descending} for c in columns],
        "name_sort": "-name" if field == "name" and not descending else "name",
        "rows": rows, "sort_field": field, "query": query,
        "keep": keep, "keep_query": urlencode(keep) + "&" if keep else "",
    }
