"""How MEGA MERCS's nested card fields read in the catalogue's table: a weapon's profiles as its stat lines, a
chassis's hard-points and grids as the card prints them."""
from __future__ import annotations

from typing import Any

from .schema import HARDPOINT_TYPE_LABELS, LOCATION_LABELS

# Short type names for the dense hard-point cell: "r-arm 3 [Light, Medium, Melee] R. Arm".
SHORT = {"light_weapon": "Light", "medium_weapon": "Medium", "main_gun": "Main Gun", "artillery": "Artillery",
         "launcher": "Launcher", "melee": "Melee", "thrown": "Thrown", "applique_armour": "Applique",
         "electronic_support": "E-Support", "sensor": "Sensor", "utility": "Utility", "leg": "Leg",
         "drone_controller": "Drone Ctrl", "specialist": "Specialist"}


def attributes(rows: list[dict[str, Any]]) -> str:
    return ", ".join(" ".join([a["name"].replace("_", " ")] + [str(v) for v in (a.get("x"), a.get("y")) if v is not None])
                     for a in rows)


def profiles(rows: list[dict[str, Any]]) -> str:
    """Each profile as the card's stat line: Acc / Range / RoF / Dmg type / Int / Pen, then its attributes."""
    lines = []
    for p in rows:
        damage = "small arms" if p["damage_type"] == "small_arms" else f"{p['damage']} {p['damage_type'].replace('_', ' ')}"
        line = f"{p['accuracy']} / {p['range']} / {p['rof']} / {damage} / {p.get('internal', 0)} / {p.get('penetration', 0)}"
        extra = attributes(p.get("attributes", []))
        lines.append(f"{p['name'] + ': ' if p.get('name') else ''}{line}{' (' + extra + ')' if extra else ''}")
    return " · ".join(lines)


def hardpoints(rows: list[dict[str, Any]]) -> str:
    return " · ".join(f"{h['key']} {h['size']} [{', '.join(SHORT[t] for t in h['types'])}] "
                      f"{LOCATION_LABELS[h['location']]}{' Pintle' if h.get('pintle') else ''}"
                      f"{' Co-Axial' if h.get('coaxial') else ''}" for h in rows)


def grids(rows: list[dict[str, Any]]) -> str:
    return " · ".join(f"{LOCATION_LABELS[g['location']]} {g['type'].replace('_', '-')} {g['hexes']}"
                      + "".join(f", {n} {kind.replace('_', ' ')}" for kind, n in g.get("special", {}).items())
                      for g in rows)


def labels(keys: list[str]) -> str:
    return ", ".join(HARDPOINT_TYPE_LABELS.get(k, k.replace("_", " ")) for k in keys)


def bonuses(rows: list[dict[str, Any]]) -> str:
    return ", ".join(f"{b['stat']} {b['value']:+d} ({b.get('source', 'equipment')})" for b in rows)


def squad_weapons(rows: list[dict[str, Any]]) -> str:
    return ", ".join(f"{w['count']} × {w['weapon']}" for w in rows)


CELLS = {"profiles": profiles, "hardpoints": hardpoints, "grids": grids, "types": labels, "attributes": attributes,
         "bonuses": bonuses, "weapons": lambda rows: squad_weapons(rows) if rows and isinstance(rows[0], dict)
         else ", ".join(rows)}
