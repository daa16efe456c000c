"""LANCER test catalogues: the starter pack read from its file (no database), and small catalogues of hand-written
LCP-shaped items."""
from functools import cache
from pathlib import Path

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.lancer import rules
from catalogue.rulesets.lancer.schema import CATEGORIES
from catalogue.rulesets.packs import read_pack

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
