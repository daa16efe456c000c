"""DARK METAL campaign records on a Leader: the allies' ARP income and upgrade paths (DM-R62-DM-R67) and the
optional Injury rule (DM-R71).

These are history: what allies earned and were paid in campaigns already played. A saved Leader's records
only grow (`check_update`), so an upgrade bought or a campaign's ARP cannot be rewritten afterwards.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..base import BuildError, Catalogue, Report, Stat
from ..house_rules import setting
from . import costs
from .schema import Ally, LeaderBuild

TRAINING_COM = 9  # Training, at Communication 4½ (L838)


def check(build: LeaderBuild, catalogue: Catalogue, report: Report) -> None:
    """Refuse records that cannot be true, then report the campaign rules they break."""
    check_records(build, catalogue)
    check_income(build, catalogue, report)
    for i, ally in enumerate(build.allies):
        check_path(ally, catalogue, f"allies[{i}]", report)
        check_knock_out(build, ally, catalogue, f"allies[{i}]", report)
    report.detail.ally_records = [record(build, ally, catalogue) for ally in build.allies]


# --- records that cannot be read as history -------------------------------------------------------

def check_records(build: LeaderBuild, catalogue: Catalogue) -> None:
    problems: list[dict[str, str]] = []
    now = build.campaign

    def bad(path: str, message: str) -> None:
        problems.append({"path": path, "message": message})

    def within(path: str, campaign: int, start: int, what: str) -> None:
        if campaign > now:
            bad(path, f"campaign {campaign} is after the current campaign {now}")
        elif campaign < start:
            bad(path, f"campaign {campaign} is before {what}")

    def known(path: str, key: str, category: str) -> None:
        if catalogue.categories.get(key) != category:
            bad(path, f"'{key}' is not a {category} in {catalogue.pack}")

    seen: set[int] = set()
    for i, result in enumerate(build.campaigns):
        if result.campaign in seen:
            bad(f"campaigns[{i}].campaign", f"campaign {result.campaign} is recorded twice")
        seen.add(result.campaign)
        within(f"campaigns[{i}].campaign", result.campaign, 0, "the first")
    for i, ally in enumerate(build.allies):
        path = f"allies[{i}]"
        within(f"{path}.hired", ally.hired, 0, "the first")
        if ally.upgrades and ally.hired_as is None:
            bad(f"{path}.hired_as", "an ally with upgrades names the tier it was hired as")
        if ally.hired_as is not None:
            known(f"{path}.hired_as", ally.hired_as, "ally_template")
        start, before = ally.hired, "the ally was hired"
        for j, step in enumerate(ally.upgrades):
            known(f"{path}.upgrades[{j}].template", step.template, "ally_template")
            within(f"{path}.upgrades[{j}].campaign", step.campaign, start, before)
            start, before = max(start, step.campaign), "the upgrade before it"
        earned: set[int] = set()
        for j, entry in enumerate(ally.arp):
            if entry.campaign in earned:
                bad(f"{path}.arp[{j}].campaign", f"campaign {entry.campaign} is recorded twice")
            earned.add(entry.campaign)
            within(f"{path}.arp[{j}].campaign", entry.campaign, ally.hired, "the ally was hired")
        if ally.knocked_out is not None:
            within(f"{path}.knocked_out", ally.knocked_out, ally.hired, "the ally was hired")
    if build.injuries and not build.injury_rule:
        bad("injuries", "injuries are recorded only when the optional Injury rule is played (injury_rule)")
    for i, taken in enumerate(build.injuries):
        known(f"injuries[{i}].item", taken.item, "injury")
        within(f"injuries[{i}].campaign", taken.campaign, 0, "the first")
    if problems:
        raise BuildError(problems)


# --- ARP income (DM-R65) ------------------------------------------------------------------------

def check_income(build: LeaderBuild, catalogue: Catalogue, report: Report) -> None:
    results = {r.campaign: r for r in build.campaigns}
    com = communication(build, catalogue.items)
    training: dict[int, int] = {}
    for i, ally in enumerate(build.allies):
        for j, entry in enumerate(ally.arp):
            path = f"allies[{i}].arp[{j}]"
            result = results.get(entry.campaign)
            if result is None:
                report.add("DM-R65", "error", path,
                           f"{ally.name} earned ARP in campaign {entry.campaign}, which is not in the campaign record.",
                           f"Record campaign {entry.campaign} and its successful scenarios.")
            elif entry.scenarios > result.scenarios:
                report.add("DM-R65", "error", path,
                           f"{ally.name} took part in {entry.scenarios} successful scenarios of campaign "
                           f"{entry.campaign}, which had {result.scenarios}.", "Lower the ally's scenarios.")
            if entry.training > entry.scenarios:
                report.add("DM-R65", "error", path,
                           f"{ally.name} was given {entry.training} Training ARP but was present for "
                           f"{entry.scenarios} scenarios; Training ARP goes to allies present.",
                           "Give Training ARP only for scenarios the ally was in.")
            training[entry.campaign] = training.get(entry.campaign, 0) + entry.training
    for campaign, given in sorted(training.items()):
        if given and com < TRAINING_COM:
            report.add("DM-R65", "error", "allies",
                       f"{given} Training ARP given in campaign {campaign}; Training needs Communication 4½, the "
                       f"Leader has {costs.level(com)}.", "Remove the Training ARP.")
        elif campaign in results and given > results[campaign].scenarios:
            report.add("DM-R65", "error", "allies",
                       f"{given} Training ARP given in campaign {campaign}; Training gives 1 for each of its "
                       f"{results[campaign].scenarios} completed scenarios.", "Give fewer Training ARP.")


def earned(build: LeaderBuild, ally: Ally) -> int:
    """DM-R65: 1 ARP per successful scenario taken part in, 1 per Training point given, and 1 for each
    successful campaign while in the squad, deployed or not."""
    won = sum(1 for r in build.campaigns if r.won and r.campaign >= ally.hired)
    return sum(e.scenarios + e.training for e in ally.arp) + won


# --- upgrade paths and their costs (DM-R66) -------------------------------------------------------

def step_cost(before, after, totals: bool = False) -> tuple[int, int]:
    """An upgrade's price in Rep and in ARP. The Recruit tree lists each upgrade's own cost; Medic, Mechie
    and Animalus list totals, so a step up costs the difference (A-40). A table reading every cost as a total
    pays the difference throughout."""
    if after.family in costs.TREE_FAMILIES and not totals:
        return after.rep_cost or 0, after.arp_cost or 0
    return (max(0, (after.rep_cost or 0) - (before.rep_cost or 0)),
            max(0, (after.arp_cost or 0) - (before.arp_cost or 0)))


def totals(build: LeaderBuild) -> bool:
    """Whether the table reads every listed ally cost as a total (house rule "ally-costs", A-40)."""
    return setting(costs.OPTIONS, build, "ally-costs") == "totals"


@dataclass(slots=True)
class Tier:
    """An ally's hire or one of its upgrades, as paid for (DM-R66)."""

    name: str
    campaign: int
    price: int
    currency: str  # "rep" or "arp"


@dataclass
class Ledger:
    """What an ally's hire and upgrades cost, in the currency each was paid in."""

    tiers: list[Tier] = field(default_factory=list)
    rep: int = 0
    arp: int = 0


def ledger(ally: Ally, catalogue: Catalogue, totals: bool = False) -> Ledger:
    items = catalogue.items
    hired = items[ally.hired_as or ally.template]
    rep, arp = costs.template_cost(hired, catalogue, totals)
    book = Ledger()

    def pay(tier, campaign: int, currency: str, cost: tuple[int, int]) -> None:
        price = cost[0] if currency == "rep" else cost[1]
        book.tiers.append(Tier(tier.name, campaign, price, currency))
        if currency == "rep":
            book.rep += price
        else:
            book.arp += price

    pay(hired, ally.hired, ally.paid_with, (rep, arp))
    before = hired
    for step in ally.upgrades:
        after = items[step.template]
        pay(after, step.campaign, step.paid_with, step_cost(before, after, totals))
        before = after
    return book


def check_path(ally: Ally, catalogue: Catalogue, path: str, report: Report) -> None:
    items = catalogue.items
    before = items[ally.hired_as or ally.template]
    for j, step in enumerate(ally.upgrades):
        after = items[step.template]
        if before.key not in after.upgrades_from:
            froms = " or ".join(items[k].name for k in after.upgrades_from) or "nothing (it is hired)"
            report.add("DM-R66", "error", f"{path}.upgrades[{j}]",
                       f"{ally.name} cannot be upgraded from {before.name} to {after.name}; {after.name} comes from "
                       f"{froms}.", "Follow the upgrade tree one tier at a time.")
        before = after
    if before.key != ally.template:
        report.add("DM-R66", "error", f"{path}.template",
                   f"{ally.name} is recorded as a {items[ally.template].name}, but its upgrade path ends at "
                   f"{before.name}.", f"Upgrade it to {items[ally.template].name}, or keep it a {before.name}.")


def paid(build: LeaderBuild, ally: Ally, catalogue: Catalogue, gear_rep: int) -> tuple[int, int]:
    """All an ally cost, in Rep and in ARP, its gear included: what dismissing it returns (DM-R63)."""
    book = ledger(ally, catalogue, totals(build))
    # an ally's gear is paid in its hire's currency, unless the table pays all gear in Rep.
    in_arp = ally.paid_with == "arp" and setting(costs.OPTIONS, build, "ally-gear-currency") == "with-hire"
    return (book.rep + (0 if in_arp else gear_rep),
            book.arp + (math.ceil(gear_rep / costs.ARP_TO_REP) if in_arp else 0))


def charges(build: LeaderBuild, ally: Ally, catalogue: Catalogue, gear_rep: int) -> tuple[int, int]:
    """What the Leader's pools pay for an ally: its Rep, and the ARP its own earned ARP does not cover.

    DM-R62: ARP an ally earned is spent on that ally (its upgrades and gear), never on another's.
    """
    rep, arp = paid(build, ally, catalogue, gear_rep)
    return rep, max(0, arp - earned(build, ally))


# --- knock-outs (DM-R67) --------------------------------------------------------------------------

def status(build: LeaderBuild, ally: Ally, catalogue: Catalogue) -> str:
    if ally.knocked_out is None:
        return "active"
    if ally.knocked_out == build.campaign:
        return "out for this campaign"
    if not catalogue.items[ally.template].revived and not ally.petitioned:
        return "not revived"
    return "active"


def check_knock_out(build: LeaderBuild, ally: Ally, catalogue: Catalogue, path: str, report: Report) -> None:
    state = status(build, ally, catalogue)
    if state == "out for this campaign" and ally.deployed:
        report.add("DM-R67", "error", path,
                   f"{ally.name} was knocked out in campaign {build.campaign} and is out for the rest of it.",
                   "Leave the ally on the ship until the next campaign.")
    elif state == "not revived":
        report.add("DM-R67", "error", path,
                   f"{ally.name} is a {catalogue.items[ally.template].name} knocked out in campaign {ally.knocked_out}: "
                   f"Recruits are not revived.", "Dismiss the ally, or record that the Captain was petitioned.")


@dataclass(slots=True)
class AllyRecord:
    """An ally's campaign record, as its card shows it."""

    name: str
    tiers: list[Tier]  # its hire, then its upgrades (DM-R66)
    rep_paid: int
    arp_paid: int
    arp_earned: int  # DM-R65
    arp_left: int  # of its own earned ARP, for its upgrades and gear (DM-R62)
    status: str  # "active", "out for this campaign" or "not revived" (DM-R67)


def record(build: LeaderBuild, ally: Ally, catalogue: Catalogue) -> AllyRecord:
    """An ally's path with prices, ARP earned and left, and what dismissing it returns (DM-R63)."""
    book = ledger(ally, catalogue, totals(build))
    income = earned(build, ally)
    return AllyRecord(ally.name, book.tiers, book.rep, book.arp, income, max(0, income - book.arp),
                      status(build, ally, catalogue))


# --- the optional Injury rule (DM-R71) ------------------------------------------------------------

def first_taken(build: LeaderBuild) -> dict[str, int]:
    """Each injury taken, with the campaign it was first taken in."""
    first: dict[str, int] = {}
    for taken in build.injuries:
        first[taken.item] = min(first.get(taken.item, taken.campaign), taken.campaign)
    return first


def boons(build: LeaderBuild, items) -> list[str]:
    """The injuries whose boon the Leader has now: once each, from the campaign two after it was first taken."""
    if not build.injury_rule:
        return []
    return [key for key, campaign in first_taken(build).items() if build.campaign - campaign >= items[key].boon_after]


def communication(build: LeaderBuild, items) -> int:
    """The Communication level allies, ARP, Group Activate and Communication skills follow: the level bought,
    raised by The Shakes' boon only where the table reads it so (DM-R71 reading: the boon raises the pool)."""
    com = costs.traits_of(build)["com"]
    if setting(costs.OPTIONS, build, "shakes-boon") == "level":
        com += int(2 * sum(items[key].boon_traits.get("com", 0) for key in boons(build, items)))
    return min(com, costs.MAX_PURCHASED)


def injure(build: LeaderBuild, items, sheet, report: Report) -> None:
    """A condition on the Leader: each time an injury is taken its losses count again; its boon counts once,
    from the campaign two after it was first taken, and so does its Rep bonus (L1352, L1354)."""
    if not build.injury_rule:
        return
    first = first_taken(build)
    for taken in build.injuries:
        injury = items[taken.item]
        for trait, value in injury.traits.items():
            sheet.trait_mods[trait] += value
        sheet.move += injury.move
    for key in boons(build, items):
        for trait, value in items[key].boon_traits.items():
            sheet.trait_mods[trait] += value
    # DM-R71 reading: the Rep bonus counts once per different injury, like the boon, unless the table says each time.
    each_time = setting(costs.OPTIONS, build, "injury-rep-bonus") == "each-time"
    bonus = sum(items[key].rep_bonus for key in ([t.item for t in build.injuries] if each_time else first))
    report.stats["injury_rep_bonus"] = Stat(
        "Injury Rep bonus", bonus, "10% more Rep each scenario per injury taken, Broken Rib aside, rounded up (DM-R71)",
        "%")


# --- saved Leaders: the records only grow ---------------------------------------------------------

def check_update(old: dict[str, Any], new: dict[str, Any]) -> None:
    """Campaigns before the current one stand, and so do an ally's upgrades and its earlier ARP (DM-R65, DM-R66)."""
    now = new.get("campaign", 0)
    problems = []

    def kept(before: list[dict], after: list[dict]) -> bool:
        return all(entry in after for entry in before if entry.get("campaign", 0) < now)

    if not kept(old.get("campaigns", []), new.get("campaigns", [])):
        problems.append({"path": "campaigns", "message": "results of campaigns already played cannot be rewritten "
                                                         "(DM-R65)"})
    for before in old.get("allies", []):
        same = [a for a in new.get("allies", []) if a.get("name") == before.get("name")]
        if same and not any(stands(before, after, kept) for after in same):
            problems.append({"path": f"allies[{new['allies'].index(same[0])}]",
                             "message": f"{before.get('name')}'s upgrades and earlier ARP can only be added to, not "
                                        f"rewritten (DM-R65, DM-R66)"})
    if problems:
        raise BuildError(problems)


def stands(before: dict[str, Any], after: dict[str, Any], kept) -> bool:
    upgrades = before.get("upgrades", [])
    if upgrades and (after.get("hired_as") != before.get("hired_as")
                     or after.get("upgrades", [])[: len(upgrades)] != upgrades):
        return False
    return kept(before.get("arp", []), after.get("arp", []))
