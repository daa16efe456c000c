"""The METALLURGENT Pilot page: background, SP, the skill trees with what can be bought now, dice pools.

The form carries the Pilot's history as JSON; Learn, Unlearn and choosing a Spec append to it. Events
added since the last save can be undone; saved ones stand (the store refuses rewrites, M-R96, M-R101).
Every edit but of the history and the House rules is a value edit: it gets back the issues, Proficiency
improvements, dice pools and what each Skill's button says now (builder.live).
"""
from __future__ import annotations

import json
from typing import Any

from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.metallurgent import pilots
from catalogue.rulesets.metallurgent.places import learned, spec_of
from catalogue.rulesets.metallurgent.schema import KNOWLEDGES, MAX_DEVELOPMENTS, SPECIALISATIONS

from ... import forms
from ..base import KindPage

MAX_HISTORY = 400


class Page(KindPage):
    summary_meters = {"sp": "Skill Points"}
    value_fields = ("name", "notes", "callsign", "xp", "mettle", "lifepath", "profession", "developments",
                    "proficiencies", "talents")
    live_fragments = ("builder/metallurgent/pilot/fragments/live.jinja",)

    def describe(self, document: dict[str, Any]) -> str:
        return f"“{document['callsign']}”" if document.get("callsign") else ""

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        history = _history(post)
        saved = forms.whole_number(post, "saved-history", 0, 0, MAX_HISTORY)
        spec = spec_of(history)
        chosen = post.get("specialisation", "")
        if spec is not None and "specialisation" in post and open_spec(history, saved):
            history.pop()  # chosen since the last save and nothing after it: still the player's to change (M-R96)
            spec = None
        if chosen and spec is None:
            history.append({"specialise": chosen})
            spec = chosen
        verb, key = forms.action(post)
        # A Skill from the Learn picker, or a tree's Learn button: at today's price (M-R100), read by the House
        # rules in this form.
        for path, wanted in (("learn", post.get("learn", "")), ("action", key if verb == "learn" else "")):
            if wanted:
                skill = catalogue.items.get(wanted)
                if skill is None or catalogue.categories.get(wanted) != "skill":
                    raise forms.problem(path, f"unknown Skill {wanted[:40]!r}")
                history.append(learned(skill, spec, forms.house_rules(post, self.house_rule_options())))
        if verb == "unlearn":
            history.append({"unlearn": key})
        elif verb == "undo" and len(history) > saved:
            history.pop()  # only events not saved yet
        proficiencies = []
        for value in post.getlist("proficiency"):
            knowledge, _, proficiency = value.partition(":")
            if proficiency:
                proficiencies.append({"knowledge": knowledge, "proficiency": proficiency})
        return {
            **self.header(pack_ref),
            "name": post.get("name", "").strip() or "New Pilot",
            "callsign": post.get("callsign", "").strip(),
            "notes": post.get("notes", ""),
            "mettle": forms.whole_number(post, "mettle", pilots.DEFAULT_METTLE),
            "xp": forms.whole_number(post, "xp", 0),
            "lifepath": post.get("lifepath") or None,
            "profession": post.get("profession") or None,
            # A Development may be taken more than once (each adds its bonus again): a count each, never a checkbox.
            "developments": [d.key for d in catalogue.of("development")
                             for _ in range(forms.whole_number(post, f"development-{d.key}", 0, 0, MAX_DEVELOPMENTS))],
            "proficiencies": proficiencies,
            "talents": [t.strip() for t in post.get("talents", "").splitlines() if t.strip()],
            "history": history,
        }

    def context(self, request, checked, build=None) -> dict[str, Any]:
        # Events already saved cannot be undone; a new Pilot has none.
        return context(checked, len(build.document.get("history", [])) if build is not None else 0)

    def share_context(self, request, checked, build) -> dict[str, Any]:
        items = checked.catalogue.items
        return {**context(checked, len(checked.document.get("history", []))),
                "lifepath": items.get(checked.document.get("lifepath") or ""),
                "profession": items.get(checked.document.get("profession") or "")}


def _history(post) -> list[dict[str, Any]]:
    history = forms.json_field(post, "history", [], longest=256 * 1024)
    if not isinstance(history, list) or len(history) > MAX_HISTORY:
        raise forms.problem("history", f"a list of at most {MAX_HISTORY} events")
    return history


def open_spec(history: list, saved: int) -> bool:
    """Whether the Specialisation is the last event and not saved yet: M-R96 fixes a Spec once chosen, and a choice
    on an unsaved page is not made until it is saved (nor once Skills were learned on it)."""
    return len(history) > saved and isinstance(history[-1], dict) and "specialise" in history[-1]


def context(checked, saved_history: int) -> dict[str, Any]:
    catalogue = checked.catalogue
    report, ledger = pilots.assess(checked.document, catalogue)
    tree = pilots.skill_tree(catalogue)
    options = pilots.options(ledger, tree)
    own = [ledger.spec] if ledger.spec else []
    # Open the Specs the Pilot uses, and the one just acted in, so a re-render keeps the user's place.
    history = checked.document.get("history", [])
    last = history[-1].get("learn") or history[-1].get("unlearn") if history else None
    in_use = {tree.skills[k].spec for k in ledger.held} | ({tree.skills[last].spec} if last in tree.skills else set())
    specs = []
    for spec in own + [s for s in SPECIALISATIONS if s not in own]:
        item = catalogue.items.get(spec)
        if item is None:
            continue
        branches = [{"name": name, "skills": [{"skill": s, **options[s.key]} for s in skills]}
                    for name, skills in tree.branches.get(spec, [])]
        specs.append({"key": spec, "item": item, "own": spec == ledger.spec, "branches": branches,
                      "open": spec == ledger.spec or spec in in_use or not (own or in_use) and not specs})
    sp = report.stats
    earned = max(ledger.earned, 1)
    document = checked.document
    chosen = {}
    for choice in document.get("proficiencies", []):
        chosen.setdefault(choice["knowledge"], []).append(choice["proficiency"])
    improvements = []
    for row in report.detail.knowledges:
        picks = chosen.get(row.key, [])
        slots = max(row.granted, len(picks))
        improvements += [{"knowledge": row.key, "label": row.knowledge, "options": KNOWLEDGES[row.key],
                          "value": picks[n] if n < len(picks) else ""} for n in range(slots)]
    return {
        "document": document, "report": report, "ledger": ledger, "specs": specs,
        "developments": [{"item": d, "taken": document.get("developments", []).count(d.key)}
                         for d in catalogue.of("development")],
        "improvements": improvements,
        "history_json": json.dumps(document.get("history", [])),
        "talents_text": "\n".join(document.get("talents", [])),
        "saved_history": saved_history, "can_undo": len(document.get("history", [])) > saved_history,
        "spec_open": open_spec(document.get("history", []), saved_history),
        "sp_bar": {"spent": round(100 * min(ledger.spent, earned) / earned),
                   "lost": round(100 * min(ledger.markup_lost, earned) / earned),
                   "over": ledger.spent + ledger.markup_lost > ledger.earned},
        "stats": sp,
    }
