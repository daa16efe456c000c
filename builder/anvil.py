"""The METALLURGENT Anvil builder page: form posts in, a workbench to render out.

The page works as a plain HTML form; htmx only posts the same form on every change and swaps
the workbench, so both paths go through `document_from_post` and `workbench`.
"""
from __future__ import annotations

import json
import re
from typing import Any

from django.shortcuts import render as render_template
from django_htmx.http import trigger_client_event

from catalogue.loader import catalogue_by_ref, latest_pack
from catalogue.rulesets.base import (
    BuildError,
    Catalogue,
    Report,
    display_value,
    flatten,
    stat_label,
)
from catalogue.rulesets.metallurgent.preview import OCCLUSION, Situation
from catalogue.rulesets.metallurgent.rules import (
    CHASSIS_ABILITIES,
    Anvil,
    Mounted,
    issues_for,
    parse,
    resolve,
)
from catalogue.rulesets.metallurgent.schema import (
    EQUIPMENT_TYPE_LABELS,
    SLOT_CATEGORIES,
    SLOT_LABELS,
    SLOTS,
    GearEntry,
    Weapon,
)

from .session import mine

MOUNTS = ("core", "left_arm", "right_arm")
SHARE_TEMPLATE = "builder/metallurgent/share.html"
SHEET_TEMPLATE = "pdf/_anvil_body.html"
SHARE_ID_IN_TEXT = re.compile(r"(?:/s/)?([A-Za-z0-9_-]{4,32})/?(?:\.(?:json|pdf))?$")
TASKS = ("vanguard", "sniper", "recon", "defender", "artillerist", "commander")
MAX_FORM_GEAR = 48


def _int(value: str, path: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BuildError([{"path": path, "message": f"expected a whole number, got {value!r}"}]) from None


def document_from_post(post, pack_ref: str, catalogue: Catalogue | None = None, request=None,
                       notices: list | None = None) -> dict[str, Any]:
    """The build document a builder form describes, with its add / remove / move actions applied."""
    count = _int(post.get("gear-count", "0"), "gear-count")
    if not 0 <= count <= MAX_FORM_GEAR:
        raise BuildError([{"path": "gear-count", "message": f"at most {MAX_FORM_GEAR} Gear rows"}])
    gear = []
    for i in range(count):
        item = post.get(f"gear-{i}-item", "")
        if not item:
            continue
        entry: dict[str, Any] = {"item": item, "mount": post.get(f"gear-{i}-mount", ""),
                                 "active": post.get(f"gear-{i}-active") == "on"}
        reserve = post.get(f"gear-{i}-reserve", "").strip()
        if reserve:
            entry["reserve"] = _int(reserve, f"gear-{i}-reserve")
        gear.append(entry)
    action = post.get("action", "")
    if action.startswith("remove:"):
        index = _int(action.partition(":")[2], "action")
        if 0 <= index < len(gear):
            del gear[index]
    for mount in MOUNTS:
        item = post.get(f"add-{mount}", "")
        if item:
            gear.append({"item": item, "mount": mount, "active": True})
    return {
        "format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "anvil", "pack": pack_ref,
        "name": post.get("name", "").strip() or "Unnamed Anvil",
        "task": post.get("task") or None,
        "notes": post.get("notes", ""),
        "parts": {slot: post.get(f"part-{slot}") or None for slot in SLOTS},
        "gear": gear,
        "pilot": share_id_from(post.get("pilot", "")),
    }


def share_id_from(text: str) -> str | None:
    """A share id from a pasted share link or a bare id; blank means none."""
    text = text.strip()
    if not text:
        return None
    found = SHARE_ID_IN_TEXT.search(text)
    if found is None:
        raise BuildError([{"path": "pilot", "message": f"{text[:60]!r} is not a share link"}])
    return found.group(1)


def blank(pack_ref: str) -> dict[str, Any]:
    return {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "anvil", "pack": pack_ref,
            "name": "New Anvil"}


def render(request, checked, status: int = 200, **extra):
    """The builder in the shape the request asked for.

    htmx value edits get `view=live` (issues, bars, stats) and are told to refresh the pickers,
    which come back as `view=pickers`; everything else gets the whole workbench or page.
    """
    view = request.POST.get("view") if request.htmx and request.method == "POST" else None
    if view == "live":
        context = live(checked.document, checked.catalogue, checked.report)
        template = "builder/metallurgent/_live.html"
    elif view == "pickers":
        context = pickers(live(checked.document, checked.catalogue, checked.report), checked.catalogue)
        template = "builder/metallurgent/_pickers.html"
    else:
        context = workbench(checked.document, checked.catalogue, checked.report)
        context.update(preview_form(request, checked, extra.get("build")))
        context["my_pilots"] = mine(request, "pilot")
        context["pilot_is_mine"] = any(p.share_id == checked.document.get("pilot") for p in context["my_pilots"])
        template = "builder/metallurgent/_workbench.html" if request.htmx else "builder/metallurgent/anvil.html"
    response = render_template(request, template, {**context, **extra}, status=status)
    if view == "live":
        trigger_client_event(response, "pickers-stale", after="settle")
    return response


def preview_form(request, checked, build=None) -> dict[str, Any]:
    """What the combat preview form offers: this browser's other Anvils and the conventional units as targets."""
    pack = latest_pack("metallurgent", "squad")
    return {"preview_units": catalogue_by_ref(pack.ref).of("conventional_unit") if pack else [],
            "preview_anvils": [b for b in mine(request, "anvil") if build is None or b.pk != build.pk],
            "weathers": Situation.model_fields["weather"].annotation.__args__, "times": list(OCCLUSION),
            "document_json": json.dumps(checked.document)}


def share_context(checked) -> dict[str, Any]:
    return workbench(checked.document, checked.catalogue, checked.report)


sheet_context = share_context


def summary(category: str, item: Any) -> str:
    """A one-line stat summary for pickers: the numbers a player compares."""
    if category == "core":
        return f"DV {item.defence} · {item.hardpoints} HP · Block {item.block_bonus} · {item.load} ST"
    if category == "mobility_base":
        top = item.load_tolerance[-1].max_load
        return f"{item.chassis.replace('_', '-').title()} · Cruise {item.cruising_speed} · up to {top} ST"
    if category == "standard_arm":
        return f"Str {item.strength} · {item.hardpoints} HP · Agi {item.agility:+d} · {item.load} ST"
    if category == "weapon_arm":
        w = item.weapon
        return f"{w.weapon_type} {w.damage} {w.damage_type} · Rng {w.range} · {item.load} ST"
    if category == "generator":
        return f"{item.cooling.title()} · EN {item.en_output}/{item.en_capacity} · Heat Tol {item.heat_tolerance} · {item.load} ST"
    if category == "electronics":
        return f"Intercept {item.intercept_bonus} · Camera {item.camera_modifier:+d} · {item.load} ST"
    if category == "fcs":
        return f"{item.targeting_type.title()} · Rng {item.reliable_range}/{item.max_range}"
    if category == "weapon":
        return (f"{item.weapon_class[0].upper()} · {item.damage} {item.damage_type} · Rng {item.range} · "
                f"Size {item.size} · {item.load} ST")
    return f"{EQUIPMENT_TYPE_LABELS[item.type]} · Size {item.size} · {item.load} ST"


def _new_errors(trial: Anvil, known: set[tuple[str, str]]):
    return [i for i in issues_for(trial).issues if i.severity == "error" and (i.code, i.path) not in known]


def _option(key: str, label: str, problems) -> dict[str, Any]:
    reason = f"{problems[0].code}: {problems[0].message}" if problems else ""
    return {"key": key, "label": label, "reason": reason}


def live(document: dict[str, Any], catalogue: Catalogue, report: Report) -> dict[str, Any]:
    """What changes on every edit: issues at each slot and Gear row, bars, chart and stats (cheap)."""
    anvil = resolve(parse(document), catalogue)
    meters = {m.key: m for m in report.meters}
    arcs = report.detail.get("arcs", {})
    shown_paths = set(SLOTS)
    # Core and Arms host Gear, so changing them reshapes the Gear section: a structural edit.
    slots = [{"slot": slot, "label": SLOT_LABELS[slot], "part": anvil.parts[slot], "issues": report.issues_at(slot),
              "structural": slot in MOUNTS} for slot in SLOTS]
    mounts = []
    for mount in MOUNTS:
        part = anvil.parts[mount]
        rows = []
        for g in anvil.on(mount):
            shown_paths.add(g.path)
            rows.append({"index": g.index, "entry": g.entry, "item": g.item, "kind": _gear_kind(g.item),
                         "issues": report.issues_at(g.path), "arcs": arcs.get(g.path, []),
                         "toggles": bool(getattr(g.item, "en_drain", 0) or getattr(g.item, "en_offset", 0)),
                         "takes_ammo": isinstance(g.item, Weapon) and g.item.reserve > 0})
        mounts.append({"mount": mount, "label": SLOT_LABELS[mount], "part": part, "rows": rows,
                       "hosts_gear": part is not None and hasattr(part, "hardpoints"),
                       "hardpoints": meters.get(f"{mount}_hardpoints"), "strength": meters.get(f"{mount}_strength")})
    return {
        "document": document, "slots": slots, "mounts": mounts, "report": report, "anvil": anvil,
        "other_issues": [i for i in report.issues if i.path not in shown_paths],
        "meters": report.meters, "gear_meter": meters.get("gear"), "stats": report.stats,
        "load_chart": load_chart(report.detail.get("load_tolerance")),
    }


def pickers(context: dict[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    """Annotate a live context's pickers: every item that fits each slot, and the rule it would break.

    Each candidate is the current Anvil with one part swapped or one Gear added, checked in full;
    only errors the build does not already have count as the reason.
    """
    anvil, report = context["anvil"], context["report"]
    known = {(i.code, i.path) for i in report.issues if i.severity == "error"}
    by_category = {c: catalogue.of(c) for c in set(catalogue.categories.values())}
    for slot in context["slots"]:
        options = []
        for category in SLOT_CATEGORIES[slot["slot"]]:
            for item in by_category.get(category, []):
                label = f"{item.name} — {summary(category, item)}"
                if item is slot["part"]:
                    options.append(_option(item.key, label, []))
                    continue
                trial = Anvil(anvil.name, {**anvil.parts, slot["slot"]: item}, anvil.gear, anvil.condition)
                options.append(_option(item.key, label, _new_errors(trial, known)))
        slot["options"] = options
    gear_items = [(c, item) for c in ("weapon", "equipment") for item in by_category.get(c, [])]
    for mount in context["mounts"]:
        groups: dict[str, list] = {}
        if mount["hosts_gear"]:
            for category, item in gear_items:
                entry = GearEntry(item=item.key, mount=mount["mount"])
                trial = Anvil(anvil.name, anvil.parts, anvil.gear + [Mounted(len(anvil.gear), entry, item)],
                              anvil.condition)
                groups.setdefault(_gear_group(item), []).append(
                    _option(item.key, f"{item.name} — {summary(category, item)}", _new_errors(trial, known)))
        mount["add_options"] = list(groups.items())
    return context


def workbench(document: dict[str, Any], catalogue: Catalogue, report: Report) -> dict[str, Any]:
    """Everything the builder page shows."""
    context = pickers(live(document, catalogue, report), catalogue)
    context["sheet"] = component_sheet(context["anvil"])
    context["tasks"] = TASKS
    return context


def _gear_kind(item: Any) -> str:
    if isinstance(item, Weapon):
        return f"{item.weapon_class.title()} · {item.weapon_type}"
    return EQUIPMENT_TYPE_LABELS[item.type] + (f" ({item.subtype})" if hasattr(item, "subtype") else "")


def _gear_group(item: Any) -> str:
    if isinstance(item, Weapon):
        return f"{item.weapon_class.title()} weapons"
    return "Equipment"


CHART_WIDTH, CHART_HEIGHT, CHART_LEFT = 360, 150, 8


def load_chart(detail: dict[str, Any] | None) -> dict[str, Any] | None:
    """Geometry for the Load Tolerance chart: one band per breakpoint and a marker at the current load.

    The axis starts a little below the first breakpoint, where the choices are, not at 0 ST.
    """
    if not detail:
        return None
    spread, load = detail["breakpoints"], detail["load"]
    top = spread[-1]["max_load"]
    low = max(0, min(spread[0]["max_load"] - 6, load - 2))
    high = max(top, load) + 4
    plot = CHART_WIDTH - 2 * CHART_LEFT

    def x(value: float) -> float:
        return round(CHART_LEFT + plot * (value - low) / (high - low), 1)

    def svg(value: float) -> str:
        return f"{value:.1f}"  # preformatted: the template would localise every float

    bands, previous = [], low
    for index, bp in enumerate(spread):
        bands.append({
            "x": svg(x(previous)), "width": svg(x(bp["max_load"]) - x(previous)),
            "active": index == detail["active"], "mid": svg((x(previous) + x(bp["max_load"])) / 2),
            "max_load": bp["max_load"], "cruise": bp["cruise"], "flank": bp["flank"], "init": bp["init"],
        })
        previous = bp["max_load"]
    return {
        "width": CHART_WIDTH, "height": CHART_HEIGHT, "bands": bands, "load": load, "top": top,
        "marker": svg(x(load)), "label_x": svg(min(max(x(load), 45), CHART_WIDTH - 60)),
        "overloaded": detail["active"] is None, "over_x": svg(x(top)),
        "over_width": svg(x(high) - x(top)), "over_mid": svg((x(high) + x(top)) / 2),
        "mobility_base": detail["mobility_base"],
        "low": low,
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
        flat = flatten(part.model_dump(mode="json", exclude=SHEET_SKIPS))
        stats = [(stat_label(k), display_value(k, v)) for k, v in flat.items()]
        note = ""
        if slot == "mobility_base":
            note = f"{'Striding' if part.striding else 'Driving'} · " + ", ".join(CHASSIS_ABILITIES[part.chassis])
        rows.append({"slot": slot, "label": SLOT_LABELS[slot], "part": part, "stats": stats, "note": note,
                     "location": number if slot != "fcs" else None, "condition": anvil.condition.get(slot)})
    return rows
