"""The MEGA MERCS unit builder: a chassis, its hard-points with what they mount, the internals grids drawn as hexes,
the stat line with each stacked bonus explained, and the d100 combat preview.

The page is a plain HTML form that htmx posts on every change; each hard-point's picker offers every weapon and
equipment card, those sharing its type symbols first, and marks what would break a rule (MM-R02, MM-R04) rather
than hiding it. Choosing an ammunition is a value edit: only its mount's issues and the weapons list change.
"""
from __future__ import annotations

import math
from typing import Any

from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.megamercs import damage
from catalogue.rulesets.megamercs.rules import EDGE_LABELS, GridCell, GridLayout, types_label
from catalogue.rulesets.megamercs.schema import EDGES, LOCATION_LABELS, Chassis, Equipment, Weapon

from ... import forms
from ..base import KindPage

MAX_FORM_MOUNTS = 32
MAX_BOXES = 120  # HP boxes a card prints
STATLINE = ("hp", "agility", "movement", "movement_type", "vision", "ewar", "accuracy", "attacks")
HEX = 14  # the drawn hexes' radius, in SVG units
TARGET_FLAGS = ("evading", "electronic_defence", "beacon", "optical_stealth", "flying", "in_building")
SITUATION_FLAGS = ("line_of_sight", "locked", "network_lock", "jammed", "lock_attempt", "jam_attempt", "hack_attempt")
GRID_LABELS = {"track": "Internal track", "bi_directional": "Bi-directional track", "radial": "Radial grid"}
# Hex fills by content, set on the drawing itself so that screen and PDF agree without a stylesheet.
FILLS = {"pilot": "#f3c9a8", "crew": "#f3c9a8", "leg_parts": "#d9e2ec", "treads": "#d9e2ec", "item": "#e6eedf",
         "empty": "#ffffff"}


class Page(KindPage):
    preview_flags = (("Situation", (("line_of_sight", "line of sight", True), ("locked", "target locked", False),
                                    ("network_lock", "a networked ally holds a lock", False),
                                    ("jammed", "attacker jammed", False))),
                     ("Target", (("evading", "evading", False), ("electronic_defence", "has Electronic Defence", False),
                                 ("beacon", "carries a Beacon", False),
                                 ("optical_stealth", "has optical stealth (seen only on sensors)", False),
                                 ("flying", "flying", False), ("in_building", "squad in a building", False))),
                     ("E-War actions", (("lock_attempt", "lock on", False), ("jam_attempt", "jam", False),
                                        ("hack_attempt", "hack", False))))
    to_fit = ("MM-R01",)  # no chassis picked yet
    summary_meters: dict[str, str] = {}
    live_fragments = ("builder/megamercs/unit/fragments/live.jinja",)
    anchors = (("mounts[{i}]", "mount-{i}"), ("hardpoints.{key}*", "hardpoint-{key}"), ("grids.{key}*", "grid-{key}"),
               ("chassis", "chassis-card"))

    def describe(self, document: dict[str, Any]) -> str:
        return ""

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        mounts = []
        for row in forms.rows(post, "mount", MAX_FORM_MOUNTS):
            if row.get("item"):
                mount = {"item": row.get("item"), "hardpoint": row.get("hardpoint")}
                if row.get("ammo"):
                    mount["ammo"] = row.get("ammo")
                mounts.append(mount)
        verb, index = forms.action(post)
        if verb == "remove":
            del mounts[forms.row(index, mounts)]
        chassis = post.get("chassis") or None
        card = catalogue.items.get(chassis) if chassis else None
        if isinstance(card, Chassis):
            for hardpoint in card.hardpoints:
                if post.get(f"add-{hardpoint.key}"):
                    mounts.append({"item": post.get(f"add-{hardpoint.key}"), "hardpoint": hardpoint.key})
            # A new chassis keeps what still has a hard-point of the same name to go on.
            keys = {h.key for h in card.hardpoints}
            mounts = [m for m in mounts if m["hardpoint"] in keys]
        return {**self.header(pack_ref), "name": post.get("name", "").strip() or "Unnamed unit",
                "notes": post.get("notes", ""), "chassis": chassis, "mounts": mounts}

    def structure(self, document: dict[str, Any]) -> dict[str, Any]:
        """An ammunition shows only in its mount's issues and the weapons list; what is mounted where shapes the
        rest."""
        return {**super().structure(document),
                "mounts": [(m["item"], m["hardpoint"]) for m in document.get("mounts", [])]}

    def context(self, request, checked, build=None) -> dict[str, Any]:
        return context(checked)

    def share_context(self, request, checked, build) -> dict[str, Any]:
        return context(checked)

    def sheet_context(self, checked, build) -> dict[str, Any]:
        stats = checked.report.stats
        context_ = context(checked)
        items = [checked.catalogue.items[m["item"]] for m in checked.document.get("mounts", [])] + context_["integrated"]
        mecha = context_["chassis"] is not None and context_["chassis"].unit_type == "mecha"
        return {**context_, "statline": [stats[k] for k in STATLINE if k in stats],
                "hit_table": damage.hit_table() if mecha else [],
                "hp_boxes": range(min(stats["hp"].value, MAX_BOXES)) if "hp" in stats else range(0),
                "table_notes": damage.table_notes(context_["chassis"], items) if context_["chassis"] else []}

    # --- combat preview ------------------------------------------------------------------------

    def preview_context(self, request, document, build) -> dict[str, Any]:
        return {**super().preview_context(request, document, build),
                "edges": [(e, EDGE_LABELS[e]) for e in EDGES]}

    def preview_request(self, fields) -> dict[str, Any]:
        agility = str(fields.get("agility", "") or "").strip()
        target = {"kind": forms.choice(fields, "kind", ("unit", "mecha", "infantry"), "unit"),
                  "edge": forms.choice(fields, "edge", EDGES, "front"),
                  **{name: forms.whole_number(fields, name, 0, 0, 99) for name in ("dr", "top_dr")},
                  "agility": forms.whole_number(fields, "agility", low=0, high=100) if agility else None,
                  "ewar": forms.whole_number(fields, "ewar", 30, 0, 100),
                  "network_defence": forms.whole_number(fields, "network_defence", 0, 0, 100),
                  "interceptor": forms.whole_number(fields, "interceptor", 0, 0, 20),
                  "members": forms.whole_number(fields, "members", 6, 1, 6),
                  "ish": forms.whole_number(fields, "ish", 1, 1, 9),
                  "blast_resistance": forms.whole_number(fields, "blast_resistance", 40, 0, 100),
                  "cover_points": forms.whole_number(fields, "cover_points", 0, 0, 6),
                  **{flag: fields.get(flag) == "on" for flag in TARGET_FLAGS}}
        situation = {"distance": forms.whole_number(fields, "distance", 3, 1, 99),
                     "cover": forms.whole_number(fields, "cover", 0, -100, 100),
                     **{flag: fields.get(flag) == "on" for flag in SITUATION_FLAGS}}
        return {"target": target, "situation": situation}


def context(checked) -> dict[str, Any]:
    document, catalogue, report = checked.document, checked.catalogue, checked.report
    chassis = catalogue.items.get(document.get("chassis") or "")
    mounts = document.get("mounts", [])
    hardpoints = []
    if isinstance(chassis, Chassis):
        free = {h.key: h.free for h in report.detail.hardpoints}
        meters = {m.key: m for m in report.meters}
        for hp in chassis.hardpoints:
            mine = [{"index": i, "item": catalogue.items[m["item"]], "ammo": m.get("ammo"),
                     "issues": report.issues_at(f"mounts[{i}]")}
                    for i, m in enumerate(mounts) if m["hardpoint"] == hp.key]
            meter = meters.get(f"hp-{hp.key}")
            hardpoints.append({
                "hp": hp, "name": hp.name, "types": types_label(hp.types), "location": LOCATION_LABELS[hp.location],
                "mounted": mine, "free": free.get(hp.key, hp.size),
                "issues": report.issues_at(f"hardpoints.{hp.key}"),
                "meter": meter,
            })
    return {"chassis": chassis if isinstance(chassis, Chassis) else None, "hardpoints": hardpoints,
            "mount_rows": [{"index": i, **m} for i, m in enumerate(mounts)],
            "integrated": [catalogue.items[k] for k in (chassis.integrated if isinstance(chassis, Chassis) else [])
                           if isinstance(catalogue.items.get(k), (Weapon, Equipment))],
            "grids": [drawn(g, report) for g in report.detail.grids],
            "weapons": report.detail.weapons,
            "dr": [(EDGE_LABELS[e], v) for e, v in report.detail.dr.items()],
            "unit_issues": [i for i in report.issues if not i.path.startswith(("mounts[", "hardpoints.", "grids."))]}


def drawn(layout: GridLayout, report) -> dict[str, Any]:
    """A grid's hexes placed for SVG: a track is a row, a bi-directional track a column, a radial grid rings."""
    cells = layout.cells
    w = math.sqrt(3) * HEX
    if layout.type == "track":
        centres = [(w / 2 + i * w, HEX) for i in range(len(cells))]
    elif layout.type == "bi_directional":
        centres = [(w / 2 + (i % 2) * w / 2, HEX + i * 1.5 * HEX) for i in range(len(cells))]
    else:
        centres = [axial_to_xy(q, r) for q, r in radial_order(len(cells))]
        low_x, low_y = min(x for x, _ in centres), min(y for _, y in centres)
        centres = [(x - low_x + w / 2, y - low_y + HEX) for x, y in centres]
    shapes = []
    for (x, y), cell in zip(centres, cells):
        points = " ".join(f"{x + HEX * math.cos(math.radians(a)):.1f},{y + HEX * math.sin(math.radians(a)):.1f}"
                          for a in (-90, -30, 30, 90, 150, 210))
        shapes.append({"points": points, "x": round(x, 1), "y": round(y + 3, 1), "kind": cell.kind,
                      "label": cell.label, "mark": mark(cell), "fill": FILLS[cell.kind]})
    return {"location": layout.location, "label": layout.label, "hexes": layout.hexes, "shapes": shapes,
            "type_label": GRID_LABELS[layout.type], "width": round(max(x for x, _ in centres) + w / 2 + 1, 1),
            "height": round(max(y for _, y in centres) + HEX + 1, 1),
            "issues": report.issues_at(f"grids.{layout.location}")}


def mark(cell: GridCell) -> str:
    """The letters inside a hex: P for the Pilot, C Crew, L Leg Parts, T Treads, an item's initials."""
    if cell.kind == "empty":
        return ""
    if cell.kind != "item":
        return {"pilot": "P", "crew": "C", "leg_parts": "L", "treads": "T"}[cell.kind]
    return "".join(word[0] for word in cell.label.split()[:2]).upper()


def radial_order(count: int) -> list[tuple[int, int]]:
    """Axial coordinates from the centre outwards, ring by ring (the centre hex is destroyed last)."""
    order, ring = [(0, 0)], 1
    directions = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    while len(order) < count:
        q, r = -ring, ring  # start on the ring, then walk its six sides
        for dq, dr in directions:
            for _ in range(ring):
                order.append((q, r))
                q, r = q + dq, r + dr
        ring += 1
    return order[:count]


def axial_to_xy(q: int, r: int) -> tuple[float, float]:
    return math.sqrt(3) * HEX * (q + r / 2), 1.5 * HEX * r
