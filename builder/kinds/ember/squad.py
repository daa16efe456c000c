"""The Ember squad page: saved Mechs by share link (or this browser's, by name), Drones with counts, the points bar
of the unsourced format, command capacity against the Drones that take Commands, and each Mech's Pilot ID.

A Drone's count is a value edit: it gets the squad's live fragments back (the squad's and each Drone's issues)."""
from __future__ import annotations

import json
from typing import Any

from django.template.loader import render_to_string

from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.ember.places import MAX_DRONES, MAX_OF_A_KIND, with_drone
from catalogue.rulesets.ember.schema import Drone, WrittenMech

from .mech import card_actions

from ... import forms
from ...rosters import Roster, added
from ..base import KindPage

MAX_MECHS = 12
MAX_INLINE = 4000  # characters of one written-in Mech in the form


class Page(KindPage):
    rosters = (Roster("add-mech", "mech", "Mech", examples=True),)
    summary_meters = {"points": "Points", "commands": "Commands"}
    live_fragments = ("builder/ember/squad/fragments/live.jinja",)
    anchors = (("mechs[{i}]*", "mechs-{i}"), ("drones[{i}]*", "drones-{i}"), ("drones", "drones"), ("mechs", "mechs"))

    def blank(self, pack_ref: str) -> dict[str, Any]:
        return {**super().blank(pack_ref), "name": "New squad"}

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        mechs = [forms.roster_line(row.get(), row.name(""), "mech", MAX_INLINE)
                 for row in forms.rows(post, "mech", MAX_MECHS)]
        drones = [{"drone": row.get("drone"), "count": row.number("count", 1, 1, MAX_OF_A_KIND)}
                  for row in forms.rows(post, "drone", MAX_DRONES)]
        found = added(post, request, self, self.rosters[0], catalogue, notices)
        if found is not None and len(mechs) < MAX_MECHS:
            mechs.append({"build": found.value} if found.source == "build" else
                         {"mech": {k: v for k, v in found.value.items() if k in WrittenMech.model_fields}})
        added_drone = post.get("add-drone", "")
        if isinstance(catalogue.items.get(added_drone), Drone):
            drones = with_drone(drones, added_drone)
        verb, index = forms.action(post)
        rows = {"remove-mech": mechs, "remove-drone": drones}.get(verb)
        if rows is not None:
            del rows[forms.row(index, rows)]
        return {**self.header(pack_ref), "name": post.get("name", "").strip() or "New squad",
                "notes": post.get("notes", ""), "mechs": mechs, "drones": drones}

    def structure(self, document: dict[str, Any]) -> dict[str, Any]:
        """A Drone's count reshapes nothing: its row stays, only the points, Commands and issues move."""
        return {**super().structure(document), "drones": [row["drone"] for row in document.get("drones", [])]}

    def context(self, request, checked, build=None) -> dict[str, Any]:
        return context(checked)

    def share_context(self, request, checked, build) -> dict[str, Any]:
        return context(checked)

    def sheet_sections(self, build, checked, share_url: str) -> list[str]:
        """The team sheet, then the Drone and Projectile cards at card size; saved Mechs print their own sheets."""
        items = checked.catalogue.items
        drones = [(items[d["drone"]], d["count"]) for d in checked.document.get("drones", [])]
        cards = [printed_card(d, f"Drone · {d.size} {d.movement} · {d.stance} stance, fixed · ×{n}", "D")
                 for d, n in drones]
        cards += [printed_card(items[k], f"{items[k].kind.title()} · {items[k].stance} stance, fixed", "P")
                  for k in checked.report.detail.projectiles]
        html = render_to_string("builder/ember/_cards.html", {"build": build, "cards": cards, "unsourced": True})
        return super().sheet_sections(build, checked, share_url) + ([html] if cards else [])


def printed_card(item, subtitle: str, corner: str) -> dict[str, Any]:
    """A Drone or Projectile card as the card sheet prints it."""
    values = [("Armor", item.armor), ("Structure", item.structure if item.structure is not None else "—"),
              ("Dodge", item.dodge), ("EV", item.electronic)]
    if getattr(item, "movement_range", None) is not None:
        values.append(("Move", item.movement_range))
    if getattr(item, "missile_group", None):
        values.append(("Missile Group", item.missile_group))
    return {"title": item.name, "subtitle": subtitle, "corner": corner, "values": values,
            "keywords": ", ".join(k.name + (f" {k.x}" if k.x is not None else "") for k in item.keywords),
            "actions": card_actions(item.actions)}


def context(checked) -> dict[str, Any]:
    document, report, items = checked.document, checked.report, checked.catalogue.items
    roster = {row.path: row for row in report.detail.roster}
    mechs = []
    for i, entry in enumerate(document.get("mechs", [])):
        written = entry.get("mech")
        mechs.append({"index": i, "field": f"build:{entry['build']}" if entry.get("build") else
                      f"mech:{json.dumps(written)}", "ref": entry.get("build"), "row": roster.get(f"mechs[{i}]"),
                      "issues": [issue for issue in report.issues if issue.path == f"mechs[{i}]"
                                 or issue.path.startswith(f"mechs[{i}].")]})
    drones = [{"index": i, "drone": items[d["drone"]], "count": d["count"], "issues": report.issues_at(f"drones[{i}]"),
               "load": [items[key].name for key in items[d["drone"]].load if key in items]}
              for i, d in enumerate(document.get("drones", []))]
    return {"mechs": mechs, "drones": drones, "drone_issues": report.issues_at("drones"),
            "squad_issues": [i for i in report.issues
                             if i.path != "drones" and not i.path.startswith(("mechs[", "drones["))]}
