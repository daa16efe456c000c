"""LANCER test catalogues: the starter pack read from its file (no database), small catalogues of hand-written
LCP-shaped items, the official data (lancer-data) fetched from the npm registry, Lancer Content Packs written
here, and a pilot's printed sheets as HTML and as text."""
import io
import json
import re
import tarfile
import urllib.error
import urllib.request
import zipfile
from functools import cache
from pathlib import Path

import pytest

from builder import store
from builder.kinds import page_for
from catalogue.rulesets import ACTIVE, RULESETS
from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.lancer import rules
from catalogue.rulesets.lancer.schema import CATEGORIES
from catalogue.rulesets.packs import read_pack, read_upload

STARTER = Path(rules.__file__).parent / "data" / "starter.yaml"


@cache
def starter() -> tuple[Catalogue, dict[str, dict]]:
    """The starter pack's catalogue, and its example pilots by name as full build documents."""
    data = read_pack(STARTER, ACTIVE)
    return data.catalogue, {e["name"]: {"format": "hardpoint.build/1", "ruleset": "lancer", "pack": data.header.ref,
                                        **e} for e in data.examples}


def catalogue_of(items: dict[str, list[dict]], pack: str = "lancer-test@1.0.0") -> Catalogue:
    """A catalogue of LCP-shaped entries by category."""
    found, categories = {}, {}
    for category, entries in items.items():
        for entry in entries:
            item = CATEGORIES[category].model_validate(entry)
            found[item.key], categories[item.key] = item, category
    return Catalogue("lancer", pack, found, categories, "Test")


LANCER_DATA = "3.1.8"
# A small pack in lancer-data's exact shapes, written by us (see its README).
MINI = Path(__file__).resolve().parents[1] / "data" / "lancer_data_mini" / "lib"
TARBALL = f"https://registry.npmjs.org/@massif/lancer-data/-/lancer-data-{LANCER_DATA}.tgz"


def fetch_lancer_data() -> dict[str, bytes]:
    """lancer-data's lib/ files, from the npm registry (OSError when it cannot be reached)."""
    with urllib.request.urlopen(TARBALL, timeout=30) as answer:
        raw = answer.read()
    files = {}
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.startswith("package/lib/") and member.name.endswith(".json"):
                files[member.name.removeprefix("package/lib/")] = archive.extractfile(member).read()
    return files


def lancer_data_or_skip() -> dict[str, bytes]:
    """lancer-data's files; the test is skipped only when the registry cannot be reached."""
    try:
        return fetch_lancer_data()
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        pytest.skip(f"the npm registry cannot be reached ({exc}); lancer-data {LANCER_DATA} not fetched")


def zipped(files: dict[str, bytes]) -> bytes:
    """A folder zipped as lancer-data's build zips `lib/`: its files at the top, info.json among them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            archive.writestr(name, data)
    return buffer.getvalue()


def read(files: dict[str, bytes], filename: str):
    """The pack a zip of these files makes, read as an upload."""
    return read_upload(zipped(files), filename, {"lancer": RULESETS["lancer"]})


# --- Lancer Content Packs (.lcp): a zip of lancer-data-shaped JSON files and a manifest ---------------------------

FRAME = {"id": "mf_kite", "name": "Kite", "license_level": 2, "license_id": "mf_kite", "source": "HP", "mechtype": ["Striker"],
         "description": "A test frame.", "mounts": ["Main", "Flex"], "y_pos": 20,
         "stats": {"size": 1, "structure": 4, "stress": 4, "armor": 1, "hp": 8, "evasion": 10, "edef": 8, "heatcap": 5,
                   "repcap": 4, "sensor_range": 10, "tech_attack": 0, "save": 10, "speed": 6, "sp": 5},
         "traits": [{"name": "Quick", "description": "Moves fast.", "synergies": [{"locations": ["move"]}]}],
         "core_system": {"name": "Burst", "active_name": "Go", "active_effect": "Move again.", "use": "Encounter"}}
WEAPON = {"id": "mw_pinprick", "name": "Pinprick", "license_level": 0, "source": "HP", "mount": "Auxiliary",
          "type": "Rifle", "damage": [{"type": "Kinetic", "val": "1d3"}], "range": [{"type": "Range", "val": 8}],
          "tags": [{"id": "tg_accurate"}], "on_hit": "rich text the engine does not model"}


def lcp(manifest=None, **files) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("lcp_manifest.json", json.dumps(manifest or {"name": "Test Kit", "author": "us",
                                                                        "version": "1.1", "description": "A kit."}))
        for name, data in files.items():
            archive.writestr(name.replace("_json", ".json"), data if isinstance(data, str) else json.dumps(data))
    return buffer.getvalue()


# --- the printed sheets -------------------------------------------------------------------------------------------

PILOT = page_for("lancer", "pilot")


def sheets(document) -> list[str]:
    """The pilot's printed pages as HTML: the pilot sheet, then one per mech."""
    build = store.create(store.check(document))
    return PILOT.sheet_sections(build, store.check_saved(build), f"/s/{build.share_id}/")


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())
