"""Pack files as a user uploads them: YAML, a lone CSV (flattened, nested fields as dotted columns) or a zip, with
a METALLURGENT weapon and a DARK METAL melee weapon to put in them, and the pack a DARK METAL upload extends."""
import csv
import io
import json
import zipfile

import yaml

from tests.helpers.refs import pack_ref

RIFLE = {"key": "sleet-rifle", "name": "Sleet Rifle", "weapon_class": "primary", "weapon_type": "Assault Rifle",
         "category": "ballistic", "damage": 7, "damage_type": "KE", "range": 8, "accuracy": 1, "en_cost": 0,
         "heat": 1, "magazine": 6, "reserve": 12, "size": 1, "load": 3, "functions": ["Burst 2"], "payloads": []}
SPIKE = {"key": "spike-knuckles", "name": "Spike Knuckles", "cost": 30, "carry": "1H", "damage": 1, "pierce": 1,
         "close_combat": True, "weapon_type": "Melee Weapon"}
HEADER = {"name": "house-guns", "version": "1.0.0", "ruleset": "metallurgent", "title": "House guns"}
DM_HEADER = {"name": "deep-kit", "version": "1.0.0", "ruleset": "darkmetal", "title": "Deep kit"}
BASE = pack_ref("darkmetal", "leader")


def as_yaml(header=HEADER, items=None) -> bytes:
    return yaml.safe_dump({**header, "items": items or {"weapon": [RIFLE]}}, sort_keys=False).encode()


def flat(item: dict, prefix="") -> dict:
    cells = {}
    for key, value in item.items():
        if isinstance(value, dict):
            cells.update(flat(value, f"{prefix}{key}."))
        else:
            cells[f"{prefix}{key}"] = json.dumps(value) if isinstance(value, list) else str(value).lower() \
                if isinstance(value, bool) else value
    return cells


def as_csv(*items: dict) -> bytes:
    rows = [flat(i) for i in items]
    columns = list(dict.fromkeys(c for row in rows for c in row))
    out = io.StringIO()
    writer = csv.DictWriter(out, columns)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


def as_zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()
