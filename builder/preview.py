"""The combat preview for the web, the API and the CLI: resolve attacker and target, run the engine, chart it."""
from __future__ import annotations

import json
from typing import Any

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_POST
from pydantic import ValidationError

from catalogue.loader import catalogue_by_ref, latest_pack
from catalogue.rulesets.base import BuildError, build_error_from_validation
from catalogue.rulesets.darkmetal import preview as dm_engine
from catalogue.rulesets.metallurgent import preview as engine
from catalogue.rulesets.metallurgent import rules

from . import anvil, leader, store
from .models import Build

CHART_W, CHART_H = 220, 70


def situation_from(data: dict[str, Any]) -> engine.Situation:
    try:
        return engine.Situation.model_validate(data)
    except ValidationError as exc:
        raise BuildError([{"path": f"situation.{p['path']}", "message": p["message"]}
                          for p in build_error_from_validation(exc).problems]) from None


def saved_anvil(share_id: str, role: str) -> dict[str, Any]:
    build = Build.objects.filter(share_id=share_id).first()
    if build is None or build.kind != "anvil":
        raise BuildError([{"path": role, "message": f"{share_id[:40]!r} is not a saved Anvil's share id"}])
    return build.document


def attacker_of(document: dict[str, Any]):
    """The attacking Anvil, resolved, and its Pilot's Mettle (6 without a Pilot, M-R90)."""
    checked = store.check(document)
    if checked.document["kind"] != "anvil":
        raise BuildError([{"path": "attacker", "message": "the attacker must be an Anvil"}])
    pilot = checked.report.detail.get("pilot")
    crew = Build.objects.filter(share_id=pilot["share_id"]).first() if pilot else None
    mettle = crew.document.get("mettle", rules.METTLE) if crew else rules.METTLE
    return rules.resolve(rules.parse(checked.document), checked.catalogue), mettle


def target_of(spec: Any) -> engine.Target:
    """A target: {"unit": key} from the units pack, {"build": share id} of a saved Anvil, or an Anvil document."""
    if isinstance(spec, dict) and set(spec) == {"unit"}:
        pack = latest_pack("metallurgent", "squad")
        catalogue = catalogue_by_ref(pack.ref) if pack else None
        unit = catalogue.items.get(spec["unit"]) if catalogue else None
        if unit is None or catalogue.categories[spec["unit"]] != "conventional_unit":
            raise BuildError([{"path": "target.unit", "message": f"unknown unit {str(spec['unit'])[:40]!r}"}])
        return engine.target_from_unit(unit)
    if isinstance(spec, dict) and set(spec) == {"build"}:
        spec = saved_anvil(str(spec["build"]), "target.build")
    if not isinstance(spec, dict):
        raise BuildError([{"path": "target", "message": 'give {"unit": key}, {"build": share id} or an Anvil'}])
    target, _ = attacker_of(spec)
    return engine.target_from_anvil(target)


def run(attacker: dict[str, Any], target: Any, situation: dict[str, Any]) -> dict[str, Any]:
    if isinstance(attacker, dict) and attacker.get("ruleset") == "darkmetal":
        return leader_run(attacker, situation)
    anvil_, mettle = attacker_of(attacker)
    return engine.preview(anvil_, target_of(target), situation_from(situation), mettle)


def leader_run(document: dict[str, Any], situation: dict[str, Any]) -> dict[str, Any]:
    """A DARK METAL Leader's weapons (hands and Attach Points) against the target the situation describes."""
    checked = store.check(document)
    try:
        chosen = dm_engine.Situation.model_validate(situation)
    except ValidationError as exc:
        raise BuildError([{"path": f"situation.{p['path']}", "message": p["message"]}
                          for p in build_error_from_validation(exc).problems]) from None
    items = checked.catalogue.items
    weapons = [items[p["item"]] for p in checked.document.get("hands", [])]
    weapons += [items[p["item"]] for p in checked.document.get("attach", [])
                if items[p["item"]].damage or items[p["item"]].melee]
    awareness = checked.document.get("traits", {}).get("awa", 1)
    result = dm_engine.leader_preview(checked.report, weapons, awareness, chosen)
    result["attacker"] = checked.document["name"]
    return result


def chart(attack: dict[str, Any]) -> dict[str, Any] | None:
    """Bars of P(k successes), the ones that hit in the accent colour; geometry preformatted for the SVG."""
    if not attack["reachable"] or not attack["distribution"]:
        return None
    outcomes = sorted(attack["distribution"].items())
    hit_from = attack.get("hit_from", attack["target_number"])  # DARK METAL hits on net successes ≥ 1
    top = max(p for _, p in outcomes)
    width = (CHART_W - 10) / len(outcomes)
    bars = []
    for i, (k, p) in enumerate(outcomes):
        height = (CHART_H - 16) * p / top
        bars.append({"x": f"{5 + i * width:.1f}", "w": f"{max(1.0, width - 1):.1f}", "y": f"{CHART_H - 12 - height:.1f}",
                     "h": f"{height:.1f}", "hit": k >= hit_from, "k": k, "p": f"{100 * p:.1f}",
                     "label_x": f"{5 + i * width + width / 2:.1f}"})
    return {"w": CHART_W, "h": CHART_H, "bars": bars, "label_y": CHART_H - 2,
            "every": max(1, len(outcomes) // 8)}


FLAGS = ("target_dodging", "target_blocking", "target_intercepting", "target_flanking", "target_low",
         "attacker_flanking")


def situation_from_post(post) -> dict[str, Any]:
    def number(name: str, default: int) -> int:
        value = post.get(name, "").strip()
        if not value:
            return default
        if not value.isdigit():
            raise BuildError([{"path": name, "message": f"expected a whole number, got {value[:20]!r}"}])
        return int(value)

    cover = number("cover", 0)
    return {"range": number("range", 6), "turns": number("turns", 5), "cover": [cover] if cover else [],
            "weather": post.get("weather") or "calm", "time_of_day": post.get("time_of_day") or "daylight",
            "climate": post.get("climate") or "temperate", **{flag: post.get(flag) == "on" for flag in FLAGS}}


def target_from_post(post) -> Any:
    choice = post.get("target", "").strip()
    if choice.startswith("unit:"):
        return {"unit": choice[5:]}
    if choice.startswith("build:"):
        return {"build": choice[6:]}
    found = anvil.SHARE_ID_IN_TEXT.search(choice) if choice else None
    if found is None:
        raise BuildError([{"path": "target", "message": "pick a target unit or paste an Anvil's share link"}])
    return {"build": found.group(1)}


DM_FLAGS = ("close_combat", "dodging", "dashing", "aimed", "close_range")


def leader_panel(request):
    try:
        if request.POST.get("trait-ath") is not None:
            document = leader.document_from_post(request.POST, request.POST.get("pack", ""),
                                                 catalogue_by_ref(request.POST.get("pack", "")) or _no_pack())
        elif request.POST.get("attacker_build"):
            build = Build.objects.filter(share_id=request.POST["attacker_build"], ruleset="darkmetal").first()
            if build is None:
                raise BuildError([{"path": "attacker", "message": "not a saved Squad Leader"}])
            document = build.document
        else:
            raise BuildError([{"path": "attacker", "message": "no Squad Leader to preview"}])
        situation = {name: _number(request.POST, name, default)
                     for name, default in (("range", 6), ("armor", 0), ("defence_dice", 1))}
        situation.update(size=request.POST.get("size") or "average", cover=request.POST.get("cover") or "none",
                         **{flag: request.POST.get(flag) == "on" for flag in DM_FLAGS})
        result = leader_run(document, situation)
    except BuildError as error:
        return render(request, "builder/darkmetal/_preview.html", {"problems": error.problems}, status=422)
    for attack in result["attacks"]:
        attack["chart"] = chart(attack) if attack["reachable"] else None
    template = "builder/darkmetal/_preview.html" if request.htmx else "builder/darkmetal/preview_page.html"
    return render(request, template, {"result": result})


def _no_pack():
    raise BuildError([{"path": "pack", "message": "that pack is not loaded here"}])


def _number(post, name: str, default: int) -> int:
    value = post.get(name, "").strip()
    if not value:
        return default
    if not value.lstrip("-").isdigit():
        raise BuildError([{"path": name, "message": f"expected a whole number, got {value[:20]!r}"}])
    return int(value)


@require_POST
def panel(request, ruleset: str):
    """The preview panel: htmx gets the results fragment; without JavaScript, a page with the results."""
    if ruleset == "darkmetal":
        return leader_panel(request)
    if ruleset != "metallurgent":
        raise Http404("No preview for this ruleset yet")
    try:
        if request.POST.get("part-core") is not None or request.POST.get("gear-count") is not None:
            attacker = anvil.document_from_post(request.POST, request.POST.get("pack", ""))
        elif request.POST.get("attacker_build"):
            attacker = saved_anvil(request.POST["attacker_build"], "attacker")
        else:
            attacker = json.loads(request.POST.get("attacker", "") or "null")
        result = run(attacker, target_from_post(request.POST), situation_from_post(request.POST))
    except (BuildError, json.JSONDecodeError) as error:
        problems = error.problems if isinstance(error, BuildError) else [{"path": "attacker", "message": "not JSON"}]
        return render(request, "builder/metallurgent/_preview.html", {"problems": problems}, status=422)
    for attack in result["attacks"]:
        attack["chart"] = chart(attack)
    template = "builder/metallurgent/_preview.html" if request.htmx else "builder/metallurgent/preview_page.html"
    return render(request, template, {"result": result})
