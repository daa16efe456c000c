"""LANCER fixtures: the starter pack's catalogue and its example pilots by name, read from its file (no database)
once a module."""
import pytest

from tests.lancer import factories


@pytest.fixture(scope="module")
def starter():
    return factories.starter()
