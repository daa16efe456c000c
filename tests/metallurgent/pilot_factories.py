"""METALLURGENT Pilot documents on the Pilots pack, read from its file (no database): a Pilot with an XP total and
a history of choices (specialise, learn a Skill at the price paid), and the error codes of its report.

The `m_catalogue` fixture (tests/metallurgent/conftest.py) is `pilots_catalogue()`, read once a module."""
from pathlib import Path

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.packs import read_pack

DATA = Path(__file__).resolve().parents[2] / "catalogue/rulesets/metallurgent/data/pilots.yaml"


def pilots_catalogue():
    return read_pack(DATA, ACTIVE).catalogue


def pilot(catalogue, history=(), xp=100, **fields):
    return {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "pilot", "pack": catalogue.pack,
            "name": "Test Pilot", "xp": xp, "history": list(history), **fields}


def codes(report, severity="error"):
    return {i.code for i in report.issues if i.severity == severity}


def spec(key):
    return {"specialise": key}


def learn(key, paid):
    return {"learn": key, "paid": paid}
