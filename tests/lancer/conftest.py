"""LANCER fixtures: the starter pack's catalogue and its example pilots by name, read from its file (no database)
once a module; and the example pilots of the loaded pack, as build documents."""
import pytest

from catalogue.loader import latest_pack
from tests.lancer import factories


@pytest.fixture(scope="module")
def starter():
    return factories.starter()


@pytest.fixture
def examples(packs):
    """The loaded starter pack's example pilots by name, each a whole build document."""
    pack = latest_pack("lancer", "pilot")
    return {e["name"]: {"format": "hardpoint.build/1", "ruleset": "lancer", "pack": pack.ref, **e}
            for e in pack.examples}
