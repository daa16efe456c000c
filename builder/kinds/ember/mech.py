"""The Ember Mech builder: a Part card in each of the five slots (or none), the Pilot, the deployment stance, which
Handheld Parts start on their Discard side and which Parts stay secret; each Part shown as its card, with its
actions' dice as coloured dice, and the Mech's values, Timings and tokens beside.

Value edits (the name, the stance, a Discard side, a secret) get the Mech's live fragments back: each slot's card
and issues, and the Pilot's and the Parts' issues (builder.live)."""
from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from catalogue.loader import find_pack
from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.ember import construction as c
from catalogue.rulesets.ember.places import SLOT_LABELS
from catalogue.rulesets.ember.schema import SLOT_LETTERS, SLOTS, TIMINGS, PartCard, Pilot

from ... import forms
from ...session import mine
from ..base import KindPage

STANCES = {"offensive": "Offensive", "defensive": "Defensive", "mobility": "Mobility"}
LENGTHS = {"short": "S", "medium": "M", "long": "L"}
DEFENDER_STANCES = {"deployed": "as deployed (a Part: Offensive)", "offensive": "Offensive", "defensive": "Defensive",
                    "mobility": "Mobility", "shutdown": "Shutdown"}


class Page(KindPage):
    preview_flags = (("Target", (("damaged", "the Part is Damaged (rolls its Structure)", False),
                                 ("terrain", "Terrain protection", False), ("unit_cover", "Unit protection", False))),
                     ("Attack", (("focus", "Focus: reroll every die that scored nothing", False),)))
    to_fit = ("E-R03", "E-R05")  # a slot or the Pilot not chosen yet
    summary_meters = {"parts": "Parts"}
    secret_label = "secret Parts"
    value_fields = ("name", "notes", "stance", "discarded", "secret")
    live_fragments = ("builder/ember/mech/fragments/live.jinja",)
    anchors = (("parts.{slot}", "slot-{slot}"), ("pilot*", "pilot-section"), ("parts*", "slots"),
               ("secret*", "slots"), ("discarded*", "slots"))

    def describe(self, document: dict[str, Any]) -> str:
        return f"{STANCES.get(document.get('stance', 'offensive'), '')} stance"

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        parts = {slot: post.get(f"part-{slot}") for slot in SLOTS if post.get(f"part-{slot}")}

        def ticked(box: str) -> list[str]:
            # A box holds the card it was ticked for: a card fitted in its slot since starts without it.
            return [s for s in SLOTS if s in parts and post.get(f"{box}-{s}") == parts[s]]
        return {**self.header(pack_ref), "name": post.get("name", "").strip() or "Unnamed Mech",
                "notes": post.get("notes", ""), "parts": parts, "pilot": post.get("pilot") or None,
                "stance": forms.choice(post, "stance", STANCES, "offensive"),
                "discarded": ticked("discarded"), "secret": ticked("secret")}

    def context(self, request, checked, build=None) -> dict[str, Any]:
        return context(checked)

    def preview_context(self, request, document, build) -> dict[str, Any]:
        """Targets: a Part described, the pack's example Mechs, and this browser's other Mechs."""
        return {**super().preview_context(request, document, build), "stance_choices": DEFENDER_STANCES,
                "example_mechs": [e["name"] for e in example_mechs(document.get("pack", ""))],
                "my_mechs": [b for b in mine(request, self.ruleset.key, "mech") if build is None or b.pk != build.pk]
                if request else []}

    def preview_request(self, fields) -> dict[str, Any]:
        structure = str(fields.get("structure", "") or "").strip()
        choice = str(fields.get("target", "") or "")
        link = forms.share_id(fields.get("target_link"), "target_link")
        whole = ({"build": link} if link else {"mech": choice[8:]} if choice.startswith("example:")
                 else {"build": choice[6:]} if choice.startswith("build:") else {})
        target = {**whole, "armor": forms.whole_number(fields, "armor", 4, 0, 20),
                  "electronic": forms.whole_number(fields, "electronic", 1, 0, 20),
                  "structure": forms.whole_number(fields, "structure", low=0, high=20) if structure else None,
                  "dodge": forms.whole_number(fields, "dodge", 0, 0, 20),
                  "stance": forms.choice(fields, "stance", DEFENDER_STANCES, "deployed"),
                  "fragile": forms.whole_number(fields, "fragile", 0, 0, 10),
                  **{flag: fields.get(flag) == "on" for flag in ("damaged", "terrain", "unit_cover")}}
        return {"target": target, "situation": {"policy": forms.choice(fields, "policy", ("P1", "P2"), "P1"),
                                                "focus": fields.get("focus") == "on"}}

    def sheet_sections(self, build, checked, share_url: str) -> list[str]:
        """The control panel, then the Part cards at card size (each Handheld Part's Discard side too)."""
        shown = context(checked)
        cards = []
        for s in shown["slots"]:
            if s["card"] is None:
                continue
            part = s["card"]["part"]
            cards.append(printed(card(part, False), f"{s['label']} · {part.cost} pts", s["letter"]))
            if part.handheld:
                cards.append(printed(card(part, True), f"Discard side of {part.name}", s["letter"]))
        html = render_to_string("builder/ember/_cards.html", {"build": build, "cards": cards, "unsourced": True})
        return super().sheet_sections(build, checked, share_url) + [html]


def example_mechs(pack_ref: str) -> list[dict[str, Any]]:
    pack = find_pack(str(pack_ref)[:100])
    return [e for e in (pack.examples if pack else []) if e.get("kind") == "mech"]


def dice_icons(yellow: int, red: int) -> list[str]:
    return ["yellow"] * yellow + ["red"] * red


def card_actions(actions) -> list[dict[str, Any]]:
    """Each action as a card shows it: type and length ("Firing-S", a Drone's "Command"), dice, tokens, keywords."""
    return [{"action": a, "dice": dice_icons(a.yellow, a.red),
             "kind": f"{a.type.title()}{'-' + LENGTHS[a.length] if a.length else ''}"
                     f"{' · ' + a.control.title() if a.control else ''}",
             "ammo": range(a.ammo), "intercept": range(a.intercept),
             "keywords": ", ".join(k.name + (f" {k.x}" if k.x is not None else "") for k in a.keywords)}
            for a in actions]


def card(part: PartCard, discarded: bool) -> dict[str, Any]:
    """A Part as its card shows it (or its Discard side): values, tags and actions with their dice."""
    side = part.discard if discarded and part.discard else part
    return {"part": part, "side": side, "discarded": discarded, "actions": card_actions(side.actions),
            "structure": side.structure if side.structure is not None else "—",
            "tags": [t for t, on in (("Handheld", part.handheld and not discarded),
                                     ("Freehand", c.freehand(part, discarded))) if on],
            "keywords": ", ".join(k.name + (f" {k.x}" if k.x is not None else "") for k in part.keywords)}


def printed(shown: dict[str, Any], subtitle: str, corner: str) -> dict[str, Any]:
    """A Part card as the card sheet prints it."""
    side = shown["side"]
    return {"title": side.name, "subtitle": subtitle, "corner": corner, "keywords": shown["keywords"],
            "values": [("Armor", side.armor), ("Structure", shown["structure"]), ("Dodge", side.dodge),
                       ("EV", side.electronic)], "actions": shown["actions"]}


def context(checked) -> dict[str, Any]:
    document, items, report = checked.document, checked.catalogue.items, checked.report
    parts = document.get("parts", {})
    slots = []
    for slot in SLOTS:
        part = items.get(parts.get(slot, ""))
        slots.append({"slot": slot, "label": SLOT_LABELS[slot], "letter": SLOT_LETTERS[slot],
                      "card": card(part, slot in document.get("discarded", [])) if isinstance(part, PartCard) else None,
                      "secret": slot in document.get("secret", []),
                      "masked": slot in document.get("masked", []),
                      "issues": report.issues_at(f"parts.{slot}")})
    pilot = items.get(document.get("pilot") or "")
    timings = report.detail.timings
    return {"slots": slots, "pilot": pilot if isinstance(pilot, Pilot) else None, "stances": STANCES,
            "initiative": [(t.title(), pilot.initiative[t]) for t in TIMINGS] if isinstance(pilot, Pilot) else [],
            "link_boxes": range(pilot.max_link) if isinstance(pilot, Pilot) else range(0),
            "timings": [(t.title(), timings.get(t, [])) for t in TIMINGS],
            "not_performable": report.detail.not_performable,
            "pilot_issues": report.issues_at("pilot"),
            "mech_issues": [i for i in report.issues if i.path != "pilot" and not i.path.startswith("parts.")]}
