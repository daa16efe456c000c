"""The METALLURGENT squad page: Platoons of saved Anvils and catalogue units, slots, Initiative, turn order.

Units are added by searching (a datalist of this browser's Anvils and the pack's units, or a pasted
share link); nothing lists other people's builds, since share links are the only way to reach them. Each
Platoon also has a picker of the pack's conventional units. The players and the opponent are value edits:
they get back the squad's issues and the opponent's name (builder.live).
"""
from __future__ import annotations

from copy import deepcopy
from dataclasses import asdict
from typing import Any

from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.metallurgent import RULESET
from catalogue.rulesets.metallurgent.places import enlist_field

from ... import forms
from ...rosters import Roster, added
from ...session import mine
from ..base import KindPage, anchor_of

MAX_PLATOONS = 24
MAX_MEMBERS = 8
# An issue's place on the page: a unit row, a Platoon, or the squad summary.
ANCHORS = (("platoons[{p}].members[{m}]*", "member-{p}-{m}"), ("platoons[{p}]*", "platoon-{p}"), ("*", "summary"))

class Page(KindPage):
    value_fields = ("name", "notes", "players", "opponent")
    live_fragments = ("builder/metallurgent/squad/fragments/live.jinja",)
    anchors = ANCHORS

    def blank(self, pack_ref: str) -> dict[str, Any]:
        return {**super().blank(pack_ref), **deepcopy(self.kind.starter)}  # a copy: each new squad fills its own Platoon

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        platoons = []
        for row in forms.rows(post, "platoon", MAX_PLATOONS):
            i = row.index
            # A Platoon's members are `platoon-<i>-member-<j>`, counted by `platoon-<i>-count` (not `…-member-count`).
            member_rows = forms.rows(post, f"platoon-{i}-member", MAX_MEMBERS, count=row.name("count"))
            members = [_member(member.get(), member.name("")) for member in member_rows]
            moves = [member.number("to", i, 0, MAX_PLATOONS) for member in member_rows]
            platoons.append({"name": row.get("name").strip() or f"Platoon {i + 1}", "members": members, "moves": moves})
            found = added(post, request, self, self.roster_for(f"add-{i}"), catalogue, notices)
            if found is not None:
                members.append({"build" if found.source == "build" else "unit": found.value})
            if unit := post.get(enlist_field(i), ""):
                members.append({"unit": unit})
        # Moving a unit to another Platoon (a select per unit).
        for i, platoon in enumerate(platoons):
            for member, target in list(zip(platoon["members"], platoon.pop("moves"))):
                if target != i and target < len(platoons):
                    platoon["members"].remove(member)
                    platoons[target]["members"].append(member)
        verb, arg = forms.action(post)
        if verb == "add-platoon":
            platoons.append({"name": f"Platoon {len(platoons) + 1}", "members": []})
        elif verb == "remove-platoon":
            del platoons[forms.row(arg, platoons)]
        elif verb in ("up", "down"):
            index = forms.row(arg, platoons)
            other = index - 1 if verb == "up" else index + 1
            if 0 <= other < len(platoons):
                platoons[index], platoons[other] = platoons[other], platoons[index]
        elif verb == "remove-member":
            platoon, _, member = arg.partition(":")
            members = platoons[forms.row(platoon, platoons)]["members"]
            del members[forms.row(member, members)]
        players = post.get("players", "").strip()
        return {
            **self.header(pack_ref),
            "name": post.get("name", "").strip() or "New Squad", "notes": post.get("notes", ""),
            "players": forms.whole_number(post, "players", low=1, high=12) if players else None,
            "platoons": platoons,
            "opponent": forms.share_id(post.get("opponent", ""), "opponent"),
        }

    def roster_for(self, field: str) -> Roster | None:
        """Each Platoon's add box: this browser's Anvils or the pack's conventional units."""
        index = field.removeprefix("add-")
        if not (field.startswith("add-") and forms.INDEX.fullmatch(index) and int(index) < MAX_PLATOONS):
            return None
        return Roster(field, "anvil", "Anvil", item_category="conventional_unit", joins=f"Platoon {int(index) + 1}")

    def context(self, request, checked, build=None) -> dict[str, Any]:
        context_ = context(checked)
        my_anvils = mine(request, RULESET.key, "anvil")
        # Anvils this browser can edit (its own, or copied with the squad) link to their edit pages.
        editable = {anvil.share_id: anvil.get_absolute_url() for anvil in my_anvils}
        for platoon in context_["platoons"]:
            for unit in platoon["units"]:
                unit["edit_url"] = editable.get(unit["ref"]) if unit["kind"] == "anvil" else None
        for platoon in context_["platoons"]:
            platoon["roster"] = self.roster_for(f"add-{platoon['index']}")
        return {**context_,
                "my_squads": [s for s in mine(request, RULESET.key, "squad") if build is None or s.pk != build.pk]}

    def live_context(self, request, checked, build=None) -> dict[str, Any]:
        return context(checked)

    def share_context(self, request, checked, build) -> dict[str, Any]:
        return context(checked)

    def sheet_context(self, checked, build) -> dict[str, Any]:
        context_ = context(checked)
        units = [u for p in checked.report.detail.platoons for u in p.units]
        context_["conventional"] = list({u.ref: checked.catalogue.items[u.ref]
                                         for u in units if u.kind == "unit"}.values())
        return context_

def _member(value: str, path: str) -> dict[str, str]:
    kind, _, ref = value.partition(":")
    if kind not in ("build", "unit") or not ref:
        raise forms.problem(path, f"{value[:40]!r} is not a squad member")
    return {kind: ref}

def context(checked) -> dict[str, Any]:
    report, items = checked.report, checked.catalogue.items
    # The page's rows: each Platoon's and unit's fields with what the page adds (the Report stays as made).
    platoons = [{**asdict(platoon),
                 "units": [{**asdict(unit), "member": f"{'build' if unit.kind != 'unit' else 'unit'}:{unit.ref}",
                            "anchor": anchor_of(ANCHORS, unit.path), "issues": report.issues_at(unit.path),
                            "item": items.get(unit.ref) if unit.kind == "unit" else None}
                           for unit in platoon.units],
                 "issues": report.issues_at(f"platoons[{platoon.index}]"), "add_unit": enlist_field(platoon.index),
                 "meter": next(m for m in report.meters if m.key == f"platoon_{platoon.index}_slots")}
                for platoon in report.detail.platoons]
    squad_issues = [i for i in report.issues if not i.path.startswith("platoons[")]
    issue_links = [{"issue": i, "anchor": anchor_of(ANCHORS, i.path)} for i in report.issues]
    by_initiative = sorted((p for p in report.detail.platoons if p.initiative is not None), key=lambda p: -p.initiative)
    return {"document": checked.document, "report": report, "platoons": platoons, "squad_issues": squad_issues,
            "by_initiative": by_initiative,
            "issue_links": issue_links,
            "stats": report.stats,
            "turn_order": report.detail.turn_order, "opponent_name": report.detail.opponent}
