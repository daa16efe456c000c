"""The printable Anvil sheet: the share page's data through a print template and WeasyPrint."""
from __future__ import annotations

import segno
from django.template.loader import render_to_string
from django.utils import timezone
from weasyprint import HTML

from . import anvil


def qr_data_uri(url: str) -> str:
    return segno.make(url, error="m").svg_data_uri(scale=3, border=1)


MAX_BOXES = 60


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


def render_sheet(build, checked, paper: str, share_url: str) -> bytes:
    workbench = anvil.workbench(checked.document, checked.catalogue, checked.report)
    context = {
        **workbench, "trackers": trackers(workbench),
        "build": build, "paper": paper, "share_url": share_url, "qr": qr_data_uri(share_url),
        "pack": checked.catalogue, "printed_at": timezone.now(),
    }
    html = render_to_string("pdf/anvil_sheet.html", context)
    return HTML(string=html).write_pdf()
