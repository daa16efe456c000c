"""A DARK METAL Squad Leader in a few lines of text (Kind.summary): hit points and body, each trait's level and dice
pool, Knowledge Skills, what is worn, installed, held, attached and carried, and each ally hired."""
from __future__ import annotations

from ..base import Catalogue, Linked, Report
from ..spec import Member, Summary
from .costs import level
from .schema import LeaderBuild


def leader(build: LeaderBuild, catalogue: Catalogue, report: Report, linked: dict[str, Linked | None]) -> Summary:
    items = catalogue.items
    negated = set(report.detail.negated)
    installed = {"splice": [], "cyber": []}
    for purchase in build.modifications:
        name = items[purchase.item].name
        # DM-R18: Sys armour switches the implant off, which a reader should not have to work out.
        installed[catalogue.categories[purchase.item]].append(name + (" (negated by Sys)" if name in negated else ""))
    parts = [("Traits", ", ".join(f"{row.name} {row.base}{_modifier(row.modifier)} ({row.pool}d10)"
                                  for row in report.detail.traits)),
             ("Knowledge", ", ".join(f"{row.name} {row.level}" for row in report.detail.skills)),
             ("Armour", items[build.armor.item].name if build.armor else ""),
             ("Splices", ", ".join(installed["splice"])), ("Cyber", ", ".join(installed["cyber"])),
             ("Hands", ", ".join(items[pick.item].name for pick in build.hands)),
             ("Attach Points", ", ".join(f"{items[pick.item].name} ({'/'.join(f'AP{n}' for n in pick.at)})"
                                         for pick in build.attach)),
             ("Backpack", Summary.counted([items[pick.item].name for pick in build.backpack])),
             ("Injuries", ", ".join(items[taken.item].name for taken in build.injuries) if build.injury_rule else "")]
    allies = tuple(Member(ally.name, _ally(ally, cost, record, items))
                   for ally, cost, record in zip(build.allies, report.detail.ally_costs, report.detail.ally_records))
    return Summary(Summary.stats_of(report, ("bhp", "ahp", "armor", "move", "power", "bulk")),
                   tuple((where, what) for where, what in parts if what), allies)


def _modifier(levels: float) -> str:
    """What MES, armour and injuries add to the level bought, in the half levels the rulebook writes."""
    half_steps = round(levels * 2)
    return f" {'+' if half_steps > 0 else '−'}{level(abs(half_steps))}" if half_steps else ""


def _ally(ally, cost, record, items) -> str:
    """As the Leader's allies table reads: the template with its hire price, what it carries, and where it is."""
    price = f"{cost.hire_arp} ARP" if ally.paid_with == "arp" else f"{cost.hire_rep} Rep"
    carried = [items[key].name for key in [*ally.weapons, *ally.items, *([ally.armor] if ally.armor else [])]]
    said = [f"{items[ally.template].name} ({price})", ", ".join(carried), "" if ally.deployed else "on the ship",
            "" if record.status == "active" else record.status]
    return " · ".join(part for part in said if part)
