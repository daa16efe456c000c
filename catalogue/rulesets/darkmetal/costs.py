"""DARK METAL's prices and levels that both the Leader's sheet (rules.py) and the campaign (campaign.py) read:
the house rules' options, half-step trait levels and an ally's hire price. Kept apart so neither module imports
the other."""
from __future__ import annotations

from pathlib import Path

from ..base import Catalogue
from ..house_rules import load
from .schema import TRAITS, LeaderBuild

ARP_TO_REP = 10  # DM-R07: allies buy equipment at 1 ARP = 10 Rep
OPTIONS = load(Path(__file__).parent / "data")  # the house rules: budgets (DM-R04, DM-R06) and readings
MAX_PURCHASED = 10  # DM-R02: level 5
TREE_FAMILIES = ("infantry", "marine", "sniper")


def level(half_steps: int) -> str:
    whole, half = divmod(half_steps, 2)
    return f"{whole}{'½' if half else ''}" if whole else "½"


def traits_of(build: LeaderBuild) -> dict[str, int]:
    return {t: build.traits.get(t, 1) for t in TRAITS}


def template_cost(template, catalogue: Catalogue, totals: bool = False) -> tuple[int, int]:
    """An ally's hire price in Rep and in ARP. The Recruit tree lists upgrade costs, summed from the
    Recruit; Medic, Mechie and Animalus list totals (A-40). A table reading every cost as a total sums none."""
    rep, arp = template.rep_cost or 0, template.arp_cost or 0
    for key in ([] if totals else root_path(template, catalogue)):
        rep, arp = rep + (catalogue.items[key].rep_cost or 0), arp + (catalogue.items[key].arp_cost or 0)
    return rep, arp


def root_path(template, catalogue: Catalogue) -> list[str]:
    """The templates an ally of the Recruit tree was upgraded through, nearest first (A-40)."""
    path, seen, parents = [], {template.key}, template.upgrades_from
    while parents and template.family in TREE_FAMILIES and parents[0] not in seen:
        seen.add(parents[0])
        path.append(parents[0])
        parents = catalogue.items[parents[0]].upgrades_from
    return path
