"""DARK METAL fixtures: the rulebook pack's catalogue, read from its file (no database) once a module."""
import pytest

from tests.darkmetal.factories import rulebook_catalogue


@pytest.fixture(scope="module")
def catalogue():
    return rulebook_catalogue()


@pytest.fixture(scope="module")
def dm_catalogue():
    """The same, under the name the house-rule tests give it (beside other games' catalogues)."""
    return rulebook_catalogue()
