"""The DARK METAL Squad Leader page: the two Rep pools and ARP as bars, the trait ladder, a body diagram of
hands, Attach Points and backpack, Knowledge Skills, MES in the order bought, and the allies.

Splices and Cyber bought in the current campaign are re-priced in order on every change (they may still be
exchanged freely, DM-R51); those from earlier campaigns keep the price paid then (DM-R28).

Value edits (trait ranks, Knowledge, budgets, an ally's currency, deployment and campaign record) get the Leader's
live fragments back: each trait's ladder and pool, what Knowledge unlocks, the body's stats, MES prices, and each
ally's refund, record and issues (builder.live).
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.template.loader import render_to_string

from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.darkmetal import rules
from catalogue.rulesets.darkmetal.campaign import AllyRecord
from catalogue.rulesets.darkmetal.places import HANDS, attached, held, hired, reprice
from catalogue.rulesets.darkmetal.schema import SKILLS, TRAIT_NAMES, TRAITS, Weapon

from ... import forms
from ..base import KindPage

MAX_ROWS = 12
MAX_RECORDS = 100  # campaigns of history a Leader and each ally keep
# An ally's fields that only change numbers its fragments show (its refund, record and issues).
ALLY_VALUES = ("paid_with", "deployed", "hired", "arp", "knocked_out", "petitioned")
FLAGS = ("close_combat", "dodging", "dashing", "aimed", "close_range", "undetected")
COUNTS = ("supporting_attackers", "supporting_defenders", "friendlies_in_the_way")


MES = ("splice", "cyber")  # the categories a Leader's modifications are bought from


class Page(KindPage):
    preview_flags = (("Situation", (("close_combat", "in Close Combat", False), ("aimed", "Aimed", False),
                                    ("dodging", "target Dodging (+2)", False), ("dashing", "target Dashing (+1)", False),
                                    ("close_range", 'under 3" (−1, A-20)', False),
                                    ("undetected", "undetected first strike (a 10)", False))),)
    summary_meters = {"trait_rep": "Traits", "gear_rep": "Gear", "arp": "ARP"}
    value_fields = ("name", "notes", "player", "extra_rep", "players", "traits", "knowledge", "wipe_rebuild_used")
    live_fragments = ("builder/darkmetal/leader/fragments/live.jinja",)
    anchors = (("allies[{i}]*", "ally-{i}"),)

    def describe(self, document: dict[str, Any]) -> str:
        return f"played by {document['player']}" if document.get("player") else ""

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        # Prices depend on the table's readings of the MES price rules, chosen in the same form.
        return {**self.header(pack_ref), **leader_document(post, catalogue, forms.house_rules(post, self.house_rule_options()))}

    def structure(self, document: dict[str, Any]) -> dict[str, Any]:
        """Beside the purchases, an ally's rows shape the form: how many ARP records it has and whether it was ever
        knocked out (which opens its record), not what they say; a logged campaign's number labels its row."""
        allies = [{**{k: v for k, v in ally.items() if k not in ALLY_VALUES}, "arp": len(ally["arp"]),
                   "knocked_out": ally["knocked_out"] is not None} for ally in document.get("allies", [])]
        return {**super().structure(document), "allies": allies,
                "campaigns": [c["campaign"] for c in document.get("campaigns", [])]}

    def context(self, request, checked, build=None) -> dict[str, Any]:
        return context(checked)

    def sheet_sections(self, build, checked, share_url: str) -> list[str]:
        """The Leader's sheet, then the allies' sheet: a card each, as many to a page as fit."""
        sections = super().sheet_sections(build, checked, share_url)
        allies = context(checked)["allies"]
        if not allies:
            return sections
        return sections + [render_to_string(self.template("ally_sheet"), {"allies": allies, "build": build})]

    def sheet_context(self, checked, build) -> dict[str, Any]:
        context_ = context(checked)
        stats = context_["stats"]
        bonus = checked.report.detail.ammo_bonus
        context_.update(ammo=[{"name": w.name, "boxes": range(rules.carried_ammo(w.ammo, bonus))}
                              for w in context_["weapons"] if w.ammo],
                        fate_boxes=range(stats["general_fate"].value), bhp_boxes=range(stats["bhp"].value),
                        ahp_boxes=range(stats["ahp"].value))
        return context_

    # --- combat preview ------------------------------------------------------------------------

    def preview_request(self, fields) -> dict[str, Any]:
        situation = {"range": forms.whole_number(fields, "range", 6, 0, 60),
                     "armor": forms.whole_number(fields, "armor", 0, 0, 4),
                     "defence_dice": forms.whole_number(fields, "defence_dice", 1, 0, 12),
                     **{name: forms.whole_number(fields, name, 0, 0, 12) for name in COUNTS},
                     "size": fields.get("size") or "average", "cover": fields.get("cover") or "none",
                     **{flag: fields.get(flag) == "on" for flag in FLAGS},
                     "modes": {name[len("mode-"):]: value for name, value in fields.items()
                               if name.startswith("mode-") and value}}
        return {"situation": situation}


def leader_document(post, catalogue: Catalogue, house_rules: dict[str, Any]) -> dict[str, Any]:
    items = catalogue.items
    campaign = forms.whole_number(post, "campaign", 0, 0, 999)
    action, arg = forms.action(post)

    def known(field: str, *categories: str) -> str:
        key = post[field]
        if catalogue.categories.get(key) not in categories:
            raise forms.problem(field, f"'{key[:40]}' is not a {' or '.join(categories)}")
        return key

    mods = [{"item": row.get("item"), "paid": row.number("paid", 0, 0, 100_000),
             "campaign": row.number("campaign", campaign, 0, 999)} for row in forms.rows(post, "mod", MAX_ROWS)]
    if post.get("add-mod"):
        mods.append({"item": known("add-mod", "splice", "cyber"), "paid": 0, "campaign": campaign})
    attach = [{"item": row.get("item"), "at": _points(row.get("at")),
               "campaign": row.number("campaign", campaign, 0, 999)} for row in forms.rows(post, "attach", MAX_ROWS)]
    if post.get("add-attach"):
        attach.append(attached(items[known("add-attach", "attach_weapon")], attach, campaign))
    backpack = [{"item": row.get("item"), "campaign": row.number("campaign", campaign, 0, 999)}
                for row in forms.rows(post, "pack", MAX_ROWS)]
    if post.get("add-pack"):
        backpack.append({"item": known("add-pack", "item", "weapon"), "campaign": campaign})
    allies = [ally_from_post(row, campaign, known) for row in forms.rows(post, "ally", MAX_ROWS)]
    if action == "add-arp":
        earned = allies[forms.row(arg, allies)]["arp"]
        if all(entry["campaign"] != campaign for entry in earned):
            earned.append({"campaign": campaign, "scenarios": 0, "training": 0})
    if post.get("add-ally"):
        allies.append(hired(items[known("add-ally", "ally_template")], allies, campaign))
    campaigns = [{"campaign": row.number("campaign", campaign, 0, 999), "scenarios": row.number("scenarios", 0, 0, 50),
                  "won": row.checked("won")} for row in forms.rows(post, "log", MAX_RECORDS)]
    if action == "add-log" and all(c["campaign"] != campaign for c in campaigns):
        campaigns.append({"campaign": campaign, "scenarios": 0, "won": False})
    injuries = [{"item": row.get("item"), "campaign": row.number("campaign", campaign, 0, 999)}
                for row in forms.rows(post, "injury", MAX_ROWS)]
    if post.get("add-injury"):
        injuries.append({"item": known("add-injury", "injury"), "campaign": campaign})
    lists = {"mod": mods, "attach": attach, "pack": backpack, "ally": allies, "log": campaigns, "injury": injuries}
    if action == "remove":
        which, _, index = arg.partition(":")
        if which not in lists:
            raise forms.problem("action", f"{which[:20]!r} is no list of this Leader's")
        del lists[which][forms.row(index, lists[which])]
    hands = held([post.get(f"hand-{n}", "") for n in HANDS], campaign)
    injury_rule = post.get("injury_rule") == "on"
    armor = post.get("armor")
    return {
        "name": post.get("name", "").strip() or "New Squad Leader", "player": post.get("player", "").strip(),
        "notes": post.get("notes", ""), "extra_rep": forms.whole_number(post, "extra_rep", 0, 0, 100_000), "campaign": campaign,
        "players": forms.whole_number(post, "players", 1, 1, 8),
        "traits": {t: forms.whole_number(post, f"trait-{t}", 1, 1, 12) for t in TRAITS},
        "knowledge": {s: v for s in SKILLS if (v := forms.whole_number(post, f"skill-{s}", 0, 0, 9))},
        "armor": {"item": armor, "campaign": campaign} if armor else None,
        # Only Splices and Cyber are priced by their order; anything else is left for the rules to refuse.
        "modifications": (reprice(mods, catalogue, campaign, house_rules)
                          if all(catalogue.categories.get(m["item"]) in MES for m in mods) else mods),
        "hands": hands, "attach": attach, "backpack": backpack, "allies": allies,
        "wipe_rebuild_used": post.get("wipe_rebuild_used") == "on",
        # Turning the optional rule off drops the injuries recorded under it.
        "campaigns": campaigns, "injury_rule": injury_rule, "injuries": injuries if injury_rule else [],
    }


def ally_from_post(row: forms.Row, campaign: int, known) -> dict[str, Any]:
    """One ally's fields; its upgrade path and ARP record ride along as rows, and an upgrade picked is added."""
    post = row.post
    ally = {
        "name": row.get("name").strip() or f"Ally {row.index + 1}",
        "template": row.get("template"),
        # Only a missing currency means Rep: a blank one stays blank, for the check to refuse as before.
        "paid_with": post.get(row.name("paid"), "rep"),
        "deployed": row.checked("deployed"),
        "armor": row.get("armor") or None,
        "weapons": [w for w in (row.get("weapon-1"), row.get("weapon-2")) if w],
        "items": [w for w in (row.get("item-1"), row.get("item-2")) if w],
        "hired": row.number("hired", campaign, 0, 999),
        "hired_as": row.get("hired_as") or None,
        "upgrades": [{"template": up.get("template"), "campaign": up.number("campaign", campaign, 0, 999),
                      "paid_with": post.get(up.name("paid"), "arp")}
                     for up in forms.rows(post, row.name("up"), MAX_ROWS)],
        "arp": [{"campaign": arp.number("campaign", campaign, 0, 999), "scenarios": arp.number("scenarios", 0, 0, 50),
                 "training": arp.number("training", 0, 0, 50)}
                for arp in forms.rows(post, row.name("arp"), MAX_RECORDS)],
        "knocked_out": row.number("knocked_out", None, 0, 999) if row.get("knocked_out") else None,
        "petitioned": row.checked("petitioned"),
    }
    if row.get("upgrade"):
        ally["hired_as"] = ally["hired_as"] or ally["template"]
        ally["template"] = known(row.name("upgrade"), "ally_template")
        ally["upgrades"].append({"template": ally["template"], "campaign": campaign,
                                 "paid_with": post.get(row.name("upgrade-paid"), "arp")})
    return ally


def _points(text: str) -> list[int]:
    points = [int(p) for p in map(str.strip, text.split(",")) if p.isascii() and p.isdigit() and len(p) <= 2]
    if not points:
        raise forms.problem("attach", f"{text[:20]!r} is not a list of Attach Points")
    return points


def context(checked) -> dict[str, Any]:
    catalogue, document, report = checked.catalogue, checked.document, checked.report
    items = catalogue.items
    levels = sorted(catalogue.of("trait_level"), key=lambda row: row.half_steps)
    traits = []
    for row in report.detail.traits:
        base = document["traits"].get(row.trait, 1)
        unlocks = []
        for level in levels:
            if level.half_steps > rules.MAX_PURCHASED:
                continue
            note = {"kno": f"{level.knowledge_points} Knowledge points" if level.knowledge_points else "",
                    "com": level.communication_effect}.get(row.trait, level.attribute_effect)
            unlocks.append({"half_steps": level.half_steps, "label": level.name, "note": note,
                            "total": rules.trait_cost(level.half_steps), "reached": level.half_steps <= base})
        traits.append({**asdict(row), "half_steps": base, "ladder": unlocks})
    negated = set(report.detail.negated)
    mods = [{"index": i, "item": items[m["item"]], "paid": m["paid"], "campaign": m["campaign"],
             "kind": catalogue.categories[m["item"]], "negated": items[m["item"]].name in negated}
            for i, m in enumerate(document.get("modifications", []))]
    attach = [{"index": i, "item": items[a["item"]], "at": a["at"], "campaign": a["campaign"]}
              for i, a in enumerate(document.get("attach", []))]
    body = {point: next((a["item"].name for a in attach if point in a["at"]), "") for point in (1, 2, 3, 4)}
    hands = [items[h["item"]] for h in document.get("hands", [])]
    allies = []
    for i, ally in enumerate(document.get("allies", [])):
        template = items[ally["template"]]
        cost, record = report.detail.ally_costs[i], report.detail.ally_records[i]
        allies.append({**ally, "index": i, "field": f"ally-{i}-", "template_item": template,
                       "hire_rep": cost.hire_rep, "hire_arp": cost.hire_arp, "refund": refund(cost, record),
                       "record": record, "next_tiers": [t for t in catalogue.of("ally_template") if template.key in t.upgrades_from],
                       "weapon_items": [items[k] for k in ally["weapons"]], "item_items": [items[k] for k in ally["items"]],
                       "armor_item": items.get(ally.get("armor") or ""),
                       "bhp_boxes": range(template.bhp), "ahp_boxes": range(template.ahp or 0),
                       "issues": report.issues_at(f"allies[{i}]")})
    return {
        "document": document, "report": report, "stats": report.stats, "meters": report.meters, "traits": traits,
        "skills": [{"key": k, "name": v, "value": document.get("knowledge", {}).get(k, 0)} for k, v in SKILLS.items()],
        "known_skills": [{"name": row.name, "value": row.level, "bonus": row.bonus} for row in report.detail.skills],
        "armor": items.get((document.get("armor") or {}).get("item", "")), "mods": mods, "attach": attach,
        "body": body, "hands": hands,
        # Every weapon held, carried, mounted or built in, for the profiles table of the share page and sheet.
        "weapons": [w for w in hands + [items[p["item"]] for p in document.get("backpack", [])]
                    if isinstance(w, Weapon)] + rules.attacks(checked.build, items, report.detail.implants),
        "backpack": [{"index": i, "item": items[p["item"]], "campaign": p["campaign"]}
                     for i, p in enumerate(document.get("backpack", []))],
        "allies": allies,
        "injuries": [{"index": i, "item": items[t["item"]], "campaign": t["campaign"]}
                     for i, t in enumerate(document.get("injuries", []))],
        "injury_options": catalogue.of("injury"),
        "trait_names": TRAIT_NAMES, "issues_for": {i.path: i for i in report.issues},
        "other_issues": [i for i in report.issues if not i.path.startswith("allies[")],
    }


def refund(cost: rules.AllyCost, record: AllyRecord) -> str:
    """What dismissing the ally returns, as the rules count it: Rep to the Leader, ARP to the ally only."""
    rep, arp = cost.refund_rep, cost.refund_arp
    parts = [f"{rep} Rep"] if rep or not arp else []
    return " and ".join(parts + ([f"{arp} ARP to {record.name}"] if arp else []))

