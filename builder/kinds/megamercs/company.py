"""The MEGA MERCS company page: saved units (by share link) or starter units written in, their drones, infantry and
support aircraft, the credit bar against the budget, and each unit's legality.

The budget and the infantry and aircraft counts are value edits: they change only the credit bar, the company's
issues, each support line's cost and issues, and what the pickers mark as over the budget (builder.live)."""
from __future__ import annotations

import json
from dataclasses import asdict
from types import SimpleNamespace
from typing import Any

from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.megamercs import RULESET
from catalogue.rulesets.megamercs.places import SUPPORT, add_drone, add_support

from ... import forms, store
from ...rosters import Roster, added
from ...session import mine
from ..base import KindPage
from .unit import Page as UnitPage

MAX_UNITS = 32
MAX_ROWS = 16
MAX_INLINE = 8000  # characters of one written-in unit in the form
SECTIONS = ("drone", "infantry", "aircraft")
HINTS = {"infantry": "Small units of up to six in one hex; they join as allies under the GM unless the House rules "
                     "say otherwise.",
         "aircraft": "Close air support, called in for its own phase; AHP counts its pilot's luck as well."}


class Page(KindPage):
    rosters = (Roster("add-unit", "unit", "unit", examples=True),)
    summary_meters = {"credits": "Credits"}
    value_fields = ("name", "notes", "credit_budget")
    live_fragments = ("builder/megamercs/company/fragments/live.jinja",)
    anchors = (("units[{i}]*", "units-{i}"), ("drones[{i}]*", "drones-{i}"), ("infantry[{i}]*", "infantry-{i}"),
               ("aircraft[{i}]*", "aircraft-{i}"), ("credit_budget", "budget"))

    def blank(self, pack_ref: str) -> dict[str, Any]:
        return {**super().blank(pack_ref), "name": "New company"}

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        units = [forms.roster_line(row.get(), row.name(""), "unit", MAX_INLINE)
                 for row in forms.rows(post, "unit", MAX_UNITS)]
        drones = [{"drone": row.get("drone"), "controller": row.number("controller", 0, 0, MAX_UNITS - 1),
                   "docked": row.checked("docked")}
                  for row in forms.rows(post, "drone", MAX_UNITS)]
        entries = {name: [{"item": row.get("item"), "count": row.number("count", 1, 1, 12)}
                          for row in forms.rows(post, name, MAX_ROWS)]
                   for name in SUPPORT}
        found = added(post, request, self, self.rosters[0], catalogue, notices)
        if found is not None and len(units) < MAX_UNITS:
            units.append({"build": found.value} if found.source == "build" else {"unit": written(found.value)})
        if post.get("add-drone"):
            drones = add_drone(drones, post["add-drone"])
        for name in SUPPORT:
            if post.get(f"add-{name}"):
                entries[name] = add_support(entries[name], post[f"add-{name}"])
        verb, index = forms.action(post)
        rows = {"remove-unit": units, "remove-drone": drones, "remove-infantry": entries["infantry"],
                "remove-aircraft": entries["aircraft"]}.get(verb)
        if rows is not None:
            del rows[forms.row(index, rows)]
        budget = post.get("credit_budget", "").strip()
        return {**self.header(pack_ref), "name": post.get("name", "").strip() or "New company",
                "notes": post.get("notes", ""),
                "credit_budget": forms.whole_number(post, "credit_budget", low=0, high=10_000_000) if budget else None,
                "units": units, "drones": drones, **entries}

    def structure(self, document: dict[str, Any]) -> dict[str, Any]:
        """A support line's count shows only in its cost and issues: which squads and aircraft there are shapes the
        form."""
        return {**super().structure(document), **{name: [row["item"] for row in document.get(name, [])]
                                                  for name in SUPPORT}}

    def context(self, request, checked, build=None) -> dict[str, Any]:
        editable = {b.share_id: b.get_absolute_url() for b in mine(request, RULESET.key, "unit")}
        return context(checked, editable)

    def share_context(self, request, checked, build) -> dict[str, Any]:
        return context(checked, {})

    def sheet_sections(self, build, checked, share_url: str) -> list[str]:
        """The roster, then a card for each unit written into the company (saved units print their own)."""
        unit_page = UNIT_PAGE
        cards = []
        for entry in checked.document.get("units", []):
            if entry.get("unit"):
                document = {**unit_page.header(checked.catalogue.ref), **entry["unit"]}
                # The card is headed by the unit's own name; its link is the company's, where it is written.
                card = SimpleNamespace(name=entry["unit"]["name"], version=build.version, share_id=build.share_id)
                cards += unit_page.sheet_sections(card, store.check(document), share_url)
        return super().sheet_sections(build, checked, share_url) + cards


# The unit page prints each written-in unit's card; built here rather than asked of the registry of pages, which
# imports this module.
UNIT_PAGE = UnitPage(RULESET, RULESET.kind("unit"))


def written(example: dict[str, Any]) -> dict[str, Any]:
    """A pack's example unit as the company writes it in."""
    return {"name": example["name"], "chassis": example["chassis"], "mounts": example.get("mounts", [])}


def context(checked, editable: dict[str, str]) -> dict[str, Any]:
    report, document = checked.report, checked.document
    roster = report.detail.roster
    units = [dict(asdict(m), entry=document["units"][i], edit_url=editable.get(m.ref),
                  issues=report.issues_at(m.path), anchor=f"units-{i}")
             for i, m in enumerate(r for r in roster if r.kind in ("unit", "missing"))]
    for unit in units:
        entry = unit["entry"]
        unit["field"] = f"build:{entry['build']}" if entry.get("build") else f"unit:{json.dumps(entry['unit'])}"
    rows = {name: [dict(asdict(m), index=i, issues=report.issues_at(m.path)) for i, m in
                   enumerate(r for r in roster if r.kind == name)] for name in SECTIONS}
    for row, entry in zip(rows["drone"], document.get("drones", [])):
        row.update(entry)
    for name in SUPPORT:
        for row, entry in zip(rows[name], document.get(name, [])):
            row["count"] = entry.get("count", 1)
    return {"units": units, "drones": rows["drone"], "infantry": rows["infantry"], "aircraft": rows["aircraft"],
            "support": [(name, rows[name], label, HINTS[name]) for name, label in SUPPORT.items()],
            "budget": report.detail.budget,
            "credit_meter": next((m for m in report.meters if m.key == "credits"), None),
            "company_issues": [i for i in report.issues if not i.path.startswith(("units[", "drones[",
                                                                                   "infantry[", "aircraft["))]}
