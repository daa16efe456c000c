"""METALLURGENT fixtures: the Pilots pack's catalogue, read from its file (no database) once a module, under the
name the house-rule tests give it. (A module's own `catalogue` fixture, as the Pilots' and the squads' tests have,
is that module's.)"""
import pytest

from tests.metallurgent.pilot_factories import pilots_catalogue


@pytest.fixture(scope="module")
def m_catalogue():
    return pilots_catalogue()
