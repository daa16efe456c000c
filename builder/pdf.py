"""Printable sheets: an Anvil, a Pilot, or a whole squad (a cover page, then every Anvil and Pilot sheet)."""
from __future__ import annotations

from typing import Callable

import segno
from django.template.loader import render_to_string
from django.utils import timezone
from weasyprint import HTML

from . import anvil, leader, pilot, squad, store
from .models import Build

MAX_BOXES = 60


def qr_data_uri(url: str) -> str:
    return segno.make(url, error="m").svg_data_uri(scale=3, border=1)


def trackers(context: dict) -> list[dict]:
    """Tick-box rows for the table: EN, Heat (Tolerance marked), Charge and Fuel."""
    generator = next(s["part"] for s in context["slots"] if s["slot"] == "generator")
    if generator is None:
        return []
    stats = context["stats"]
    rows = [
        ("EN", stats["en_capacity"].value, "", None),
        ("Heat", generator.heat_tolerance + 4, f"Overheat past {generator.heat_tolerance}", generator.heat_tolerance),
        ("Charge", generator.charge_capacity, "", None),
        ("Fuel", stats["fuel"].value, "", None),
    ]
    return [{"label": label, "note": note + (f" ({count} — shown up to {MAX_BOXES})" if count > MAX_BOXES else ""),
             "boxes": [i + 1 == limit for i in range(min(max(count, 0), MAX_BOXES))]}
            for label, count, note, limit in rows]


def anvil_section(build: Build, checked, share_url: str) -> str:
    context = anvil.sheet_context(checked)
    context.update(build=build, share_url=share_url, qr=qr_data_uri(share_url), pack=checked.catalogue,
                   trackers=trackers(context))
    return render_to_string(anvil.SHEET_TEMPLATE, context)


def pilot_section(build: Build, checked, share_url: str) -> str:
    context = pilot.sheet_context(checked)
    items = checked.catalogue.items
    context.update(build=build, share_url=share_url, qr=qr_data_uri(share_url), pack=checked.catalogue,
                   lifepath=items.get(checked.document.get("lifepath") or ""),
                   profession=items.get(checked.document.get("profession") or ""))
    return render_to_string(pilot.SHEET_TEMPLATE, context)


def squad_sections(build: Build, checked, share_url: str, url_for: Callable[[Build], str]) -> list[str]:
    context = squad.context(checked)
    units = [u for p in context["platoons"] for u in p["units"]]
    conventional = {u["ref"]: checked.catalogue.items[u["ref"]] for u in units if u["kind"] == "unit"}
    context.update(build=build, share_url=share_url, qr=qr_data_uri(share_url), conventional=conventional.values())
    sections = [render_to_string("pdf/_squad_cover.html", context)]
    anvils = Build.objects.in_bulk([u["ref"] for u in units if u["kind"] == "anvil"], field_name="share_id")
    pilots_done = set()
    for ref in dict.fromkeys(u["ref"] for u in units if u["kind"] == "anvil"):
        member = anvils[ref]
        sections.append(anvil_section(member, store.check(member.document), url_for(member)))
        pilot_ref = member.document.get("pilot")
        crew = Build.objects.filter(share_id=pilot_ref, kind="pilot").first() if pilot_ref else None
        if crew is not None and crew.share_id not in pilots_done:
            pilots_done.add(crew.share_id)
            sections.append(pilot_section(crew, store.check(crew.document), url_for(crew)))
    return sections


def leader_sections(build: Build, checked, share_url: str) -> list[str]:
    """A DARK METAL Squad Leader's sheet, then one sheet for each ally."""
    context = leader.sheet_context(checked)
    stats = context["stats"]
    context.update(ammo=[{"name": w.name, "boxes": range(w.ammo)} for w in context["hands"] if w.ammo], build=build, share_url=share_url, qr=qr_data_uri(share_url),
                   fate_boxes=range(stats["general_fate"].value), bhp_boxes=range(stats["bhp"].value),
                   ahp_boxes=range(stats["ahp"].value))
    sections = [render_to_string(leader.SHEET_TEMPLATE, context)]
    sections += [render_to_string("pdf/_ally_body.html", {"ally": ally, "build": build}) for ally in context["allies"]]
    return sections


def render_pdf(build: Build, paper: str, share_url: str, url_for: Callable[[Build], str]) -> bytes:
    checked = store.check(build.document)
    if build.ruleset == "darkmetal":
        sections = leader_sections(build, checked, share_url)
    elif build.kind == "squad":
        sections = squad_sections(build, checked, share_url, url_for)
    elif build.kind == "pilot":
        sections = [pilot_section(build, checked, share_url)]
    else:
        sections = [anvil_section(build, checked, share_url)]
    html = render_to_string("pdf/document.html", {"sections": sections, "paper": paper, "title": build.name,
                                                  "printed_at": timezone.now()})
    return HTML(string=html).write_pdf()
