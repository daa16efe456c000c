"""The METALLURGENT Anvil builder: one picker per Component, Gear per mount, live re-validation, combat preview.

Value edits (a Component other than the Core and Arms, a condition, a toggle, the Task) get the Anvil's live
fragments back: issues at each slot and Gear row, the mounts' meters, chart and stats (builder.live).
"""
from __future__ import annotations

from typing import Any

from catalogue.rulesets.base import Catalogue, field_or
from catalogue.rulesets.metallurgent import RULESET
from catalogue.rulesets.metallurgent import preview as engine
from catalogue.rulesets.metallurgent.places import MOUNTS
from catalogue.rulesets.metallurgent.rules import CHASSIS_ABILITIES, Anvil, LoadTolerance
from catalogue.rulesets.metallurgent.schema import (
    CHIPSET_CARRIERS,
    MAX_CHIPSETS,
    COMPONENT_SLOTS,
    EQUIPMENT_TYPE_LABELS,
    SLOT_LABELS,
    SLOTS,
    Weapon,
)
from catalogue.rulesets.metallurgent.tracks import chipset_carriers, loadable_chipsets, tracks

from ... import forms
from ...session import mine
from ..base import KindPage

TASKS = ("vanguard", "sniper", "recon", "defender", "artillerist", "commander")
CONDITIONS = ("intact", "damaged", "degraded", "disabled", "destroyed")
MAX_FORM_GEAR = 48
MAX_BOXES = 60  # tick boxes a sheet row shows
# Rules about the Gear a Component carries (Hardpoints, Strength): shown with that mount's Gear, not the part.
ON_MOUNT = ("M-R11", "M-R14")
FLAGS = ("target_flanking", "target_low", "target_painted", "target_locked", "attacker_flanking")
# M-C55: a target answers an activation with one of these at most (L659), so the form offers them as one choice.
BIDS = {"": "nothing", "target_dodging": "a Dodge", "target_blocking": "a Block",
        "target_intercepting": "an Intercept"}


class Page(KindPage):
    preview_flags = (("The target is…", (("target_flanking", "Flanking", False), ("target_low", "Low", False),
                                         ("target_painted", "Painted", False), ("target_locked", "Locked", False),
                                         ("attacker_flanking", "and I am Flanking", False))),)
    to_fit = ("M-R01",)  # a Component or the FCS not chosen yet
    summary_meters = {"load": "Load", "en_drain": "EN drain", "gear": "Gear"}
    live_fragments = ("builder/metallurgent/anvil/fragments/live.jinja",)
    anchors = (("gear[{i}]", "gear-{i}"), *((slot, f"slot-{slot}") for slot in SLOTS))

    def describe(self, document: dict[str, Any]) -> str:
        return (document.get("task") or "").capitalize()

    def common(self, checked, build=None) -> dict[str, Any]:
        context = super().common(checked, build)
        for link in context["issue_links"]:
            if link["issue"].code in ON_MOUNT:
                link["anchor"] = f"mount-{link['issue'].path}"
        return context

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue | None = None, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        gear = []
        for row in forms.rows(post, "gear", MAX_FORM_GEAR):
            if not row.get("item"):
                continue
            entry: dict[str, Any] = {"item": row.get("item"), "mount": row.get("mount"), "active": row.checked("active")}
            if row.get("reserve").strip():
                entry["reserve"] = row.number("reserve", low=0)
            # An LCA's or Radio's Chipsets, a hidden field per loaded copy, plus the one its Load picker names.
            chipsets = [key for key in row.getlist("chipset") + [row.get("load")] if key]
            if chipsets:
                entry["chipsets"] = chipsets[:MAX_CHIPSETS]
            gear.append(entry)
        verb, index = forms.action(post)
        if verb == "remove":
            del gear[forms.row(index, gear)]
        elif verb == "unload":
            row, _, copy = index.partition(":")
            chipsets = gear[forms.row(row, gear)].get("chipsets", [])
            del chipsets[forms.row(copy, chipsets)]
        for mount in MOUNTS:
            item = post.get(f"add-{mount}", "")
            if item:
                gear.append({"item": item, "mount": mount, "active": True})
        condition = {slot: state for slot in COMPONENT_SLOTS
                     if (state := forms.choice(post, f"condition-{slot}", CONDITIONS, "intact")) != "intact"}
        return {
            **self.header(pack_ref),
            "name": post.get("name", "").strip() or "Unnamed Anvil",
            "task": forms.choice(post, "task", TASKS),
            "notes": post.get("notes", ""),
            "parts": {slot: post.get(f"part-{slot}") or None for slot in SLOTS},
            "gear": gear,
            "condition": condition,
            "pilot": forms.share_id(post.get("pilot", ""), "pilot"),
        }

    def structure(self, document: dict[str, Any]) -> dict[str, Any]:
        """The Core and Arms host the Gear section, and each Gear row's item, mount and Chipsets shape its row."""
        return {"pack": document["pack"], "pilot": document.get("pilot"), "removed": document.get("removed"),
                "house_rules": document.get("house_rules"),
                "mounts": {m: (document.get("parts") or {}).get(m) for m in MOUNTS},
                "gear": [(g["item"], g["mount"], g.get("chipsets")) for g in document.get("gear", [])]}

    def live_context(self, request, checked, build=None) -> dict[str, Any]:
        return live(checked)

    def context(self, request, checked, build=None) -> dict[str, Any]:
        context = workbench(checked)
        context["my_pilots"] = mine(request, RULESET.key, "pilot")
        context["pilot_is_mine"] = any(p.share_id == checked.document.get("pilot") for p in context["my_pilots"])
        return context

    def share_context(self, request, checked, build) -> dict[str, Any]:
        context = live(checked)
        context["sheet"] = component_sheet(context["anvil"])
        return context

    def sheet_context(self, checked, build) -> dict[str, Any]:
        context = self.share_context(None, checked, build)
        context["trackers"] = trackers(context["anvil"], context["stats"])
        context["chipsets"] = chipset_carriers(context["anvil"], checked.catalogue)
        context["printing"] = True  # the Components get their damage boxes
        return context

    # --- combat preview ------------------------------------------------------------------------

    def preview_context(self, request, document, build) -> dict[str, Any]:
        """Targets: the conventional units (the base's) and this browser's other Anvils."""
        return {**super().preview_context(request, document, build),
                "preview_anvils": [b for b in mine(request, RULESET.key, "anvil") if build is None or b.pk != build.pk],
                # "winds_heavy" reads "Winds, heavy"
                "weathers": [(w, w.replace("_", ", ").capitalize())
                             for w in engine.Situation.model_fields["weather"].annotation.__args__],
                "times": list(engine.OCCLUSION), "arcs": list(engine.ARC_LABELS.items()), "bids": BIDS}

    def preview_request(self, fields) -> dict[str, Any]:
        cover = forms.whole_number(fields, "cover", 0, 0, 20)
        choice = str(fields.get("target", "")).strip()
        if choice.startswith("unit:"):
            target: Any = {"unit": choice[5:]}
        else:
            target = {"build": forms.share_id(choice.removeprefix("build:"), "target")}
            if target["build"] is None:
                raise forms.problem("target", "pick a target unit or paste an Anvil's share link")
        situation = {"range": forms.whole_number(fields, "range", 6, 0, 99),
                     "turns": forms.whole_number(fields, "turns", 5, 1, engine.MAX_TURNS),
                     "cover": [cover] if cover else [],
                     "weather": fields.get("weather") or "calm", "time_of_day": fields.get("time_of_day") or "daylight",
                     "climate": fields.get("climate") or "temperate",
                     "attack_arc": forms.choice(fields, "attack_arc", engine.ARC_LABELS, "nose"),
                     **{f: fields.get(f) == "on" for f in FLAGS}}
        if bid := forms.choice(fields, "bid", BIDS, ""):
            situation[bid] = True
        return {"target": target, "situation": situation}


def trackers(anvil, stats) -> list[dict]:
    """The Anvil's tracks (tracks.py) as rows of tick boxes, a long one cut at MAX_BOXES."""
    return [{"label": t.label,
             "note": t.note + (f" ({t.count} — shown up to {MAX_BOXES})" if t.count > MAX_BOXES else ""),
             "boxes": [i + 1 == t.mark for i in range(min(max(t.count, 0), MAX_BOXES))]}
            for t in tracks(anvil, stats)]


def live(checked) -> dict[str, Any]:
    """What changes on every edit: issues at each slot and Gear row, bars, chart and stats (cheap)."""
    document, catalogue, report, anvil = checked.document, checked.catalogue, checked.report, checked.resolved
    meters = {m.key: m for m in report.meters}
    arcs = report.detail.arcs
    shown_paths = set(SLOTS)
    # Core and Arms host Gear, so changing them reshapes the Gear section: a structural edit.
    slots = [{"slot": slot, "label": SLOT_LABELS[slot], "part": anvil.parts[slot],
              "issues": [i for i in report.issues_at(slot) if i.code not in ON_MOUNT], "condition": anvil.condition.get(slot, "intact")} for slot in SLOTS]
    mounts = []
    for mount in MOUNTS:
        part = anvil.parts[mount]
        rows = []
        for g in anvil.on(mount):
            shown_paths.add(g.path)
            rows.append({"index": g.index, "entry": g.entry, "item": g.item, "kind": _gear_kind(g.item),
                         "issues": report.issues_at(g.path), "arcs": arcs.get(g.path, []),
                         "toggles": bool(field_or(g.item, "en_drain", 0) or field_or(g.item, "en_offset", 0)),
                         "takes_ammo": isinstance(g.item, Weapon) and g.item.reserve > 0,
                         "chipsets": g.chipsets if field_or(g.item, "type", "") in CHIPSET_CARRIERS else None})
        mounts.append({"mount": mount, "label": SLOT_LABELS[mount], "part": part, "rows": rows,
                       "hosts_gear": part is not None and "hardpoints" in part.__dict__,
                       "hardpoints": meters.get(f"{mount}_hardpoints"), "strength": meters.get(f"{mount}_strength"),
                       "issues": [i for i in report.issues_at(mount) if i.code in ON_MOUNT]})
    return {
        "document": document, "slots": slots, "mounts": mounts, "report": report, "anvil": anvil,
        "other_issues": [i for i in report.issues if i.path not in shown_paths],
        "meters": report.meters, "gear_meter": meters.get("gear"), "stats": report.stats,
        "load_chart": load_chart(report.detail.load_tolerance),
        "chipset_options": loadable_chipsets(catalogue),
    }


def workbench(checked) -> dict[str, Any]:
    """Everything the builder page shows."""
    context = live(checked)
    context["sheet"] = component_sheet(context["anvil"])
    context["tasks"] = TASKS
    context["conditions"] = CONDITIONS
    return context


def _gear_kind(item: Any) -> str:
    if isinstance(item, Weapon):
        return f"{item.weapon_class.title()} · {item.weapon_type}"
    return EQUIPMENT_TYPE_LABELS[item.type] + (f" ({item.subtype})" if "subtype" in item.__dict__ else "")


CHART_WIDTH, CHART_HEIGHT, CHART_LEFT, CHART_RIGHT = 360, 150, 76, 8  # the left margin holds the row labels


def load_chart(tolerance: LoadTolerance | None) -> dict[str, Any] | None:
    """Geometry for the Load Tolerance chart: one band per breakpoint and a marker at the current load.

    The axis starts a little below the first breakpoint, where the choices are, not at 0 ST.
    """
    if tolerance is None:
        return None
    spread, load = tolerance.breakpoints, tolerance.load
    top = spread[-1].max_load
    low = max(0, min(spread[0].max_load - 6, load - 2))
    high = max(top, load) + 4
    plot = CHART_WIDTH - CHART_LEFT - CHART_RIGHT

    def x(value: float) -> float:
        return round(CHART_LEFT + plot * (value - low) / (high - low), 1)

    def svg(value: float) -> str:
        return f"{value:.1f}"  # preformatted: the template would localise every float

    bands, previous = [], low
    for index, bp in enumerate(spread):
        bands.append({
            "x": svg(x(previous)), "width": svg(x(bp.max_load) - x(previous)),
            "active": index == tolerance.active, "mid": svg((x(previous) + x(bp.max_load)) / 2),
            "max_load": bp.max_load, "cruise": bp.cruise, "flank": bp.flank, "init": bp.init,
        })
        previous = bp.max_load
    return {
        "width": CHART_WIDTH, "height": CHART_HEIGHT, "bands": bands, "load": load, "top": top,
        "marker": svg(x(load)), "label_x": svg(min(max(x(load), CHART_LEFT + 30), CHART_WIDTH - 60)),
        "overloaded": tolerance.active is None, "over_x": svg(x(top)),
        "over_width": svg(x(high) - x(top)), "over_mid": svg((x(high) + x(top)) / 2),
        "mobility_base": tolerance.mobility_base, "low": low, "label_right": CHART_LEFT - 6,
    }


SHEET_SKIPS = {"key", "name", "description", "load_tolerance"}


def component_sheet(anvil: Anvil) -> list[dict[str, Any]]:
    """Every Component's full stat line, in Hit Location order, for the share page and the sheet."""
    rows = []
    for number, slot in enumerate(SLOTS, start=1):
        part = anvil.parts[slot]
        if part is None:
            rows.append({"slot": slot, "label": SLOT_LABELS[slot], "part": None, "stats": []})
            continue
        flat = RULESET.flatten(part.model_dump(mode="json", exclude=SHEET_SKIPS))
        stats = [(RULESET.stat_label(k), RULESET.display_value(k, v)) for k, v in flat.items()]
        note = ""
        if slot == "mobility_base":
            note = f"{'Striding' if part.striding else 'Driving'} · " + ", ".join(CHASSIS_ABILITIES[part.chassis])
        rows.append({"slot": slot, "label": SLOT_LABELS[slot], "part": part, "stats": stats, "note": note,
                     "location": number if slot != "fcs" else None, "condition": anvil.condition.get(slot),
                     # tick boxes for the table: its AP, which refill at each Damage Step (L1792)
                     "ap_boxes": range(min(field_or(part, "ap", 0), MAX_BOXES))})
    return rows
