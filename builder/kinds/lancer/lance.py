"""The LANCER lance page, for a GM: saved pilots by share link, each with their Licence Level, legality and the key
statistics of every mech they own, so a table can check a group before the game."""
from __future__ import annotations

from typing import Any

from catalogue.rulesets.base import Catalogue

from ... import forms
from ...rosters import Notice, Roster, added
from ...session import mine
from ..base import KindPage

MAX_PILOTS = 12


class Page(KindPage):
    rosters = (Roster("add-pilot", "pilot", "pilot"),)
    anchors = (("pilots[{i}]*", "pilots-{i}"),)

    def blank(self, pack_ref: str) -> dict[str, Any]:
        return {**super().blank(pack_ref), "name": "New lance"}

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        pilots = [forms.share_id(row.get(), row.name("")) for row in forms.rows(post, "pilot", MAX_PILOTS) if row.get()]
        found = added(post, request, self, self.rosters[0], catalogue, notices)
        if found is not None and found.value in pilots and notices is not None:
            notices.append(Notice("add-pilot", "That pilot is in the lance already."))
        elif found is not None and len(pilots) < MAX_PILOTS:
            pilots.append(found.value)
        verb, index = forms.action(post)
        if verb == "remove-pilot":
            del pilots[forms.row(index, pilots)]
        return {**self.header(pack_ref), "name": post.get("name", "").strip() or "New lance",
                "notes": post.get("notes", ""), "pilots": [{"build": p} for p in pilots]}

    def context(self, request, checked, build=None) -> dict[str, Any]:
        own = mine(request, self.ruleset.key, "pilot") if request is not None else []
        return context(checked, {b.share_id: b.get_absolute_url() for b in own})

    def share_context(self, request, checked, build) -> dict[str, Any]:
        return context(checked, {})


def context(checked, editable: dict[str, str]) -> dict[str, Any]:
    report = checked.report
    return {"roster": [{"pilot": row, "index": i, "issues": report.issues_at(row.path),
                        "edit_url": editable.get(row.ref)} for i, row in enumerate(report.detail.pilots)],
            "lance_issues": [i for i in report.issues if not i.path.startswith("pilots[")]}
