"""METALLURGENT Pilots: SP from XP, Skill purchases replayed from the history, dice pools (digest 2.9, 3.11).

The history is append-only (the store refuses saves that rewrite it), so what a Skill cost, the markup
lost on unlearning and whether a bottom-most Skill was reachable are judged when each event happened
(M-R100, M-R101, M-R103, M-R104), not against today's Skills.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..base import BuildError, Catalogue, Detail, Meter, Report, Stat, pack_problems, parse_as, with_article
from ..house_rules import setting
from .options import OPTIONS
from .schema import ATTRIBUTES, KNOWLEDGES, Learn, PilotBuild, Skill, Specialise

MAX_MARA = 499  # M-R99
DEFAULT_METTLE = 6  # M-R90
MAX_IMPROVEMENTS = 3  # M-R94, per Knowledge (digest 8.3 #39: read per Knowledge, not in total)
FOCI = tuple(f for fields in ATTRIBUTES.values() for f in fields)
# M-R97: what a Sortie awards (L2315-2318). Scenario extras, and the XP given at the end of character
# generation (no amount in the book, L2311), are the Coordinator's to add to the total.
SORTIE_XP = (("surviving it", 1), ("the Main Objective", 1), ("each Secondary or Hidden Objective", 1),
             ("each hostile Anvil Disabled or Destroyed", 1))


def _primes(limit: int) -> list[int]:
    sieve = [True] * (limit + 1)
    sieve[0:2] = [False, False]
    for n in range(2, math.isqrt(limit) + 1):
        if sieve[n]:
            sieve[n * n::n] = [False] * len(sieve[n * n::n])
    return [n for n, prime in enumerate(sieve) if prime]


PRIMES = _primes(MAX_MARA)


def sp_earned(xp: int) -> int:
    """M-R98: one SP at every prime XP value reached (2, 3, 5, 7, ...); 95 at the MARA cap of 499."""
    return bisect_right(PRIMES, min(xp, MAX_MARA))


def price(skill: Skill, spec: str | None, no_spec: str = "off-spec") -> int:
    """M-R100: the listed price in the Pilot's own Spec, otherwise a 50% markup rounded up.

    Reading: a Pilot with no Spec yet pays the off-Spec price for every Skill (house rule "no-spec-price" may
    read it as the listed price until a Spec is chosen).
    """
    if spec is None and no_spec == "on-spec":
        return skill.sp
    return skill.sp if skill.spec == spec else math.ceil(1.5 * skill.sp)


@dataclass
class SkillTree:
    skills: dict[str, Skill]
    bottom_most: set[str]
    branch_mates: dict[str, list[str]]  # skill -> the other Skills of its branch
    subskills: dict[str, list[str]]  # mother -> Subskills
    branches: dict[str, list[tuple[str, list[Skill]]]]  # spec -> [(branch, Skills in order)]


_trees: dict[str, SkillTree] = {}


def skill_tree(catalogue: Catalogue) -> SkillTree:
    tree = _trees.get(catalogue.pack)
    if tree is None:
        tree = _trees[catalogue.pack] = _build_tree(catalogue)
    return tree


def _build_tree(catalogue: Catalogue) -> SkillTree:
    skills = {s.key: s for s in catalogue.of("skill")}
    by_branch: dict[tuple[str, str], list[Skill]] = {}
    for skill in skills.values():
        by_branch.setdefault((skill.spec, skill.branch), []).append(skill)
    bottom_most, mates, subskills = set(), {}, {}
    for members in by_branch.values():
        members.sort(key=lambda s: (s.position, s.mother is not None, s.name))
        main = [s for s in members if s.mother is None]
        if main:
            bottom_most.add(max(main, key=lambda s: s.position).key)
        for skill in members:
            mates[skill.key] = [s.key for s in members if s.key != skill.key]
            if skill.mother:
                subskills.setdefault(skill.mother, []).append(skill.key)
    branches: dict[str, list[tuple[str, list[Skill]]]] = {}
    for spec in catalogue.of("specialisation"):
        branches[spec.key] = [(b, by_branch.get((spec.key, b), [])) for b in spec.branches]
    return SkillTree(skills, bottom_most, mates, subskills, branches)


@dataclass
class Ledger:
    """The Pilot's Skills and Spec after replaying the history."""

    spec: str | None = None
    held: dict[str, int] = field(default_factory=dict)  # skill -> SP paid
    markup_lost: int = 0
    earned: int = 0
    no_spec_price: str = "off-spec"  # the table's readings (house rules) of M-R100, M-R101 and M-R103
    no_spec_branch: str = "none-owned"
    priced_at: str = "purchase"
    final_spec: str | None = None

    @property
    def spent(self) -> int:
        return sum(self.held.values())

    @property
    def available(self) -> int:
        return self.earned - self.spent - self.markup_lost


def parse(document: Any) -> PilotBuild:
    return parse_as(PilotBuild, document)


def check_keys(pilot: PilotBuild, catalogue: Catalogue) -> None:
    """Unknown or misplaced keys make the document unreadable, as for Anvils."""
    problems = pack_problems(pilot, catalogue)
    wanted = [("lifepath", pilot.lifepath, "lifepath"), ("profession", pilot.profession, "profession")]
    wanted += [(f"developments[{i}]", key, "development") for i, key in enumerate(pilot.developments)]
    for i, entry in enumerate(pilot.history):
        key = getattr(entry, "learn", None) or getattr(entry, "unlearn", None)
        if key:
            wanted.append((f"history[{i}]", key, "skill"))
    for path, key, category in wanted:
        if key is not None and catalogue.categories.get(key) != category:
            problems.append({"path": path, "message": f"'{key}' is not a {category} in {catalogue.pack}"})
    if problems:
        raise BuildError(problems)


def replay(pilot: PilotBuild, tree: SkillTree, report: Report) -> Ledger:
    # M-R101: XP is a total (MARA, L2325) and the history records spending only, so every step is judged
    # against the SP today's MARA earns; a purchase recorded before the XP that paid for it cannot be told.
    ledger = Ledger(earned=sp_earned(pilot.xp), no_spec_price=setting(OPTIONS, pilot, "no-spec-price"),
                    no_spec_branch=setting(OPTIONS, pilot, "no-spec-branch"),
                    priced_at=setting(OPTIONS, pilot, "recorded-price"),
                    final_spec=next((e.specialise for e in pilot.history if isinstance(e, Specialise)), None))
    overdrawn = False
    for i, entry in enumerate(pilot.history):
        path = f"history[{i}]"
        if isinstance(entry, Specialise):
            if ledger.spec is not None:
                report.add("M-R96", "error", path,
                           f"The Pilot is already a {label(ledger.spec)}; a Specialisation cannot be changed "
                           f"once chosen.", "Remove the second Specialisation.")
            else:
                ledger.spec = entry.specialise
        elif isinstance(entry, Learn):
            learn(ledger, tree, entry, path, report)
        else:
            key = entry.unlearn
            if key not in ledger.held:
                raise BuildError([{"path": path, "message": f"unlearns '{key}', which is not held then"}])
            # M-R102: a mother's Subskills go with it; M-R101: only base prices come back.
            for sub in [key] + [s for s in tree.subskills.get(key, []) if s in ledger.held]:
                ledger.markup_lost += ledger.held.pop(sub) - tree.skills[sub].sp
        if ledger.available < 0 and not overdrawn:
            overdrawn = True  # the first overspend is the one to fix; a later refund does not undo it
            overspent(ledger, pilot.xp, path, report)
    return ledger


def overspent(ledger: Ledger, xp: int, path: str, report: Report) -> None:
    """M-R101: SP are spent as they are earned, so no step of the history may spend more than was earned."""
    owed = ledger.spent + ledger.markup_lost
    lost = f" and {ledger.markup_lost} SP of markup was lost to unlearning" if ledger.markup_lost else ""
    enough = (f"MARA {PRIMES[owed - 1]} earns {owed} SP" if owed <= len(PRIMES)
              else f"no MARA earns {owed} SP")
    report.add("M-R101", "error", path,
               f"After this step the Skills held cost {ledger.spent} SP{lost}, but {xp} XP earns {ledger.earned} SP: "
               f"{-ledger.available} SP overspent. Unlearning later does not undo it.",
               f"Earn more XP ({enough}), or undo this purchase if it is not saved yet.")


def learn(ledger: Ledger, tree: SkillTree, entry: Learn, path: str, report: Report) -> None:
    skill = tree.skills[entry.learn]
    if entry.learn in ledger.held:
        raise BuildError([{"path": path, "message": f"learns '{entry.learn}' a second time"}])
    # M-R101 reading: the price recorded at purchase stands, unless the table prices every Skill at the final Spec.
    due = price(skill, ledger.final_spec if ledger.priced_at == "final-spec" else ledger.spec, ledger.no_spec_price)
    if entry.paid != due:
        report.add("M-R100", "error", path,
                   f"{skill.name} was recorded at {entry.paid} SP; it costs {due} SP"
                   + ("" if skill.spec == ledger.spec else f" (base {skill.sp} plus the 50% off-Spec markup)"),
                   f"Record {due} SP.")
    if skill.mother and skill.mother not in ledger.held:
        report.add("M-R102", "error", path,
                   f"{skill.name} is a Subskill of {tree.skills[skill.mother].name}, which is not held.",
                   f"Learn {tree.skills[skill.mother].name} first.")
    # M-R103: a Pilot without a Spec yet owns no branch, so every bottom-most Skill needs its prerequisite.
    if needs_branch_mate(entry.learn, skill, ledger, tree):
        report.add("M-R103", "error", path,
                   f"{skill.name} is the bottom-most Skill of {label(skill.spec)}'s {skill.branch} branch: "
                   f"another Skill of that branch must be held first.",
                   f"Learn an earlier {skill.branch} Skill first.")
    ledger.held[entry.learn] = entry.paid


def needs_branch_mate(key: str, skill: Skill, ledger: Ledger, tree: SkillTree) -> bool:
    """M-R103: a bottom-most Skill outside the Pilot's own Spec needs another of its branch held first; a Pilot
    with no Spec yet owns no branch, unless the table holds no branch against it until it chooses one."""
    if ledger.spec is None and ledger.no_spec_branch == "all-owned":
        return False
    return (key in tree.bottom_most and skill.spec != ledger.spec
            and not any(m in ledger.held for m in tree.branch_mates[key]))


def label(key: str | None) -> str:
    return key.replace("_", " ").title() if key else "no Specialisation"


@dataclass(slots=True)
class AttributePool:
    """An Attribute Focus's dice pool: Mettle plus its bonus (M-R92)."""

    field: str  # the Attribute it belongs to
    focus: str
    bonus: int
    pool: int


@dataclass(slots=True)
class ProficiencyLevel:
    """A Proficiency of a Knowledge: its level and the check's criterion (M-R93)."""

    name: str
    key: str
    level: int
    criterion: int  # succeeds on this or more on a d6


@dataclass(slots=True)
class KnowledgeRow:
    """A Knowledge, held or not, and its Proficiencies (M-R91, M-R93-M-R95)."""

    knowledge: str
    key: str
    held: bool
    granted: int  # Proficiency improvements the Lifepath, Profession and Developments grant
    proficiencies: list[ProficiencyLevel]


@dataclass(slots=True)
class HeldSkill:
    """A Skill the Pilot holds, as the sheet lists it (M-R100, M-R106, M-R107)."""

    key: str
    name: str
    spec: str
    branch: str
    category: str
    frequency: str
    sp: int  # its listed price
    paid: int
    marked_up: bool  # bought outside the Pilot's Spec
    costs: dict[str, Any]  # what using it costs, as the pack lists it
    text: str
    subskill: bool


@dataclass(slots=True)
class PilotDetail(Detail):
    """The Pilot's dice pools, Knowledges, Talents and Skills, for its pages and an Anvil naming it."""

    attributes: list[AttributePool] = field(default_factory=list)
    knowledges: list[KnowledgeRow] = field(default_factory=list)
    talents: list[str] = field(default_factory=list)  # written in, then those Developments give
    skills: list[HeldSkill] = field(default_factory=list)  # in the order they were learned


def validate(build: Any, catalogue: Catalogue) -> Report:
    return assess(build, catalogue)[0]


def assess(build: Any, catalogue: Catalogue) -> tuple[Report, Ledger]:
    """The Report and the replayed Ledger (which the skill-tree page also needs)."""
    pilot = parse(build)
    check_keys(pilot, catalogue)
    report = Report(detail=PilotDetail())
    tree = skill_tree(catalogue)
    ledger = replay(pilot, tree, report)
    if pilot.xp > MAX_MARA:
        report.add("M-R99", "error", "xp", f"MARA {pilot.xp} is over the scale's top of {MAX_MARA}.",
                   f"Set XP to at most {MAX_MARA}.")
    if pilot.mettle != DEFAULT_METTLE:  # M-R90: a warning, as the Coordinator may state another Mettle (L178)
        report.add("M-R90", "warning", "mettle",
                   f"Mettle is {pilot.mettle}; every playtest Pilot rolls {DEFAULT_METTLE}d6 until the rules "
                   f"for gaining Mettle are written (L156).", f"Use {DEFAULT_METTLE} unless your Coordinator says otherwise.")
    background = check_background(pilot, catalogue, report)
    derive(pilot, catalogue, ledger, background, report)
    return report, ledger


@dataclass
class Background:
    attributes: dict[str, int]
    knowledges: list[str]
    granted: Counter  # Proficiency improvements each Knowledge may take
    proficiency: Counter  # (knowledge, proficiency) -> level
    talents: list[str]


def check_background(pilot: PilotBuild, catalogue: Catalogue, report: Report) -> Background:
    """Lifepath, Profession and Developments (M-R91, M-R94, M-R95)."""
    items = catalogue.items
    lifepath = items[pilot.lifepath] if pilot.lifepath else None
    profession = items[pilot.profession] if pilot.profession else None
    developments = [items[k] for k in pilot.developments]
    attributes = dict.fromkeys(FOCI, 0)
    knowledges: list[str] = []
    granted: Counter = Counter()
    for source in filter(None, [lifepath, profession]):
        for focus, bonus in source.attributes.items():
            attributes[focus] += bonus
    if lifepath and lifepath.knowledge:
        knowledges.append(lifepath.knowledge)
    if profession:
        for knowledge in profession.knowledges:
            if knowledge in knowledges:
                granted[knowledge] += 1  # M-R95: the same Knowledge again improves its proficiency
            else:
                knowledges.append(knowledge)
    talents = list(pilot.talents)
    for development in developments:
        if development.attribute:
            attributes[development.attribute] += 1
        elif development.knowledge:
            granted[development.knowledge] += 1
            if development.knowledge not in knowledges:
                # M-R91 reading: a Proficiency Development brings its Knowledge, unless the table needs it held.
                if setting(OPTIONS, pilot, "development-knowledge") == "needs-knowledge":
                    report.add("M-R91", "error", "developments",
                               f"{development.name} improves a {development.knowledge.title()} Proficiency, a "
                               f"Knowledge the Pilot does not hold.", "Take a Lifepath or Profession with it first.")
                knowledges.append(development.knowledge)
        else:
            talents.append(development.talent)
    chosen = Counter(c.knowledge for c in pilot.proficiencies)
    if setting(OPTIONS, pilot, "proficiency-improvements") == "total" and sum(chosen.values()) > MAX_IMPROVEMENTS:
        report.add("M-R94", "error", "proficiencies",
                   f"{sum(chosen.values())} Proficiency improvements; the house rule allows {MAX_IMPROVEMENTS} in all.",
                   f"Remove {sum(chosen.values()) - MAX_IMPROVEMENTS}.")
    for knowledge, count in chosen.items():
        if count > MAX_IMPROVEMENTS:
            report.add("M-R94", "error", "proficiencies",
                       f"{count} Proficiency improvements in {knowledge.title()}; at most {MAX_IMPROVEMENTS} per Knowledge.",
                       f"Remove {count - MAX_IMPROVEMENTS}.")
        elif count > granted[knowledge]:
            report.add("M-R91", "error", "proficiencies",
                       f"{count} Proficiency improvement{'s' if count != 1 else ''} in {knowledge.title()}, but the "
                       f"Lifepath, Profession and Developments grant {granted[knowledge]}.",
                       "Improvements come from a Profession repeating the Lifepath's Knowledge or from Developments.")
    for knowledge, count in granted.items():
        if count > chosen[knowledge]:
            report.add("M-R94", "info", "proficiencies",
                       f"{count - chosen[knowledge]} Proficiency improvement{'s' if count - chosen[knowledge] != 1 else ''} "
                       f"in {knowledge.title()} still to choose.", f"Pick {with_article(knowledge.title())} Proficiency.")
    proficiency = Counter((c.knowledge, c.proficiency) for c in pilot.proficiencies)
    return Background(attributes, knowledges, granted, proficiency, talents)


def criterion(knowledge: str, proficiency: str, background: Background, bare: str = "base",
              levels: str = "each") -> int:
    """M-R93 / M-D30: 4+ with the Knowledge, −1 per Proficiency level (never below 2+), 5+ without it.

    Readings: a Knowledge held without a Proficiency rolls the base 4+ (digest 8.3 #40; the house rule `bare`
    "unproficient" reads it as 5+); each further level of one Proficiency is one step easier again (8.3 #39).
    """
    if knowledge not in background.knowledges:
        return 5
    if bare == "unproficient" and not any(level for (k, _), level in background.proficiency.items() if k == knowledge):
        return 5
    level = background.proficiency[(knowledge, proficiency)]
    return max(2, 4 - (min(level, 1) if levels == "once" else level))


def derive(pilot: PilotBuild, catalogue: Catalogue, ledger: Ledger, background: Background, report: Report) -> None:
    stats = report.stats
    awards = "; ".join(f"{xp} for {what}" for what, xp in SORTIE_XP)
    stats["mara"] = Stat("MARA (XP)", pilot.xp, f"Martial Aptitude and Resourcefulness Assessment, the XP total, "
                                                f"0-{MAX_MARA}. A Sortie gives {awards}; scenarios may give more (M-R97)")
    stats["sp_earned"] = Stat("SP earned", ledger.earned, f"one per prime from 2 to {min(pilot.xp, MAX_MARA)} (M-R98)", "SP")
    stats["sp_spent"] = Stat("SP spent", ledger.spent, "the price paid for every Skill held, markup included", "SP")
    stats["sp_lost"] = Stat("Markup lost", ledger.markup_lost, "off-Spec markup not refunded on unlearning (M-R101)", "SP")
    stats["sp_available"] = Stat("SP available", ledger.available, "earned − spent − markup lost", "SP")
    stats["specialisation"] = Stat("Specialisation", label(ledger.spec) if ledger.spec else "—",
                                   "chosen after the first Sortie in an Anvil; fixed once chosen (M-R96)")
    report.meters.append(Meter("sp", "Skill Points", ledger.spent + ledger.markup_lost, ledger.earned, "SP", "skills"))
    report.detail.attributes = [
        AttributePool(field_name.title(), focus.title(), background.attributes[focus],
                      pilot.mettle + background.attributes[focus])
        for field_name, foci in ATTRIBUTES.items() for focus in foci]
    report.detail.knowledges = [
        KnowledgeRow(k.title(), k, k in background.knowledges, background.granted[k],
                     [ProficiencyLevel(p.title(), p, background.proficiency[(k, p)],
                                       criterion(k, p, background, setting(OPTIONS, pilot, "bare-knowledge"),
                                                 setting(OPTIONS, pilot, "proficiency-levels")))
                      for p in KNOWLEDGES[k]])
        for k in KNOWLEDGES]
    report.detail.talents = background.talents
    tree = skill_tree(catalogue)
    report.detail.skills = [
        HeldSkill(k, tree.skills[k].name, label(tree.skills[k].spec), tree.skills[k].branch, tree.skills[k].category,
                  frequency(tree.skills[k]), tree.skills[k].sp, paid, paid > tree.skills[k].sp,
                  tree.skills[k].costs.model_dump(), tree.skills[k].description, bool(tree.skills[k].mother))
        for k, paid in ledger.held.items()]


def frequency(skill: Skill) -> str:
    """When a held Skill may be used, for the sheet: no frequency means unlimited (M-R107); a Sustained Skill
    is switched only in Upkeep, and never on and off in one Round (M-R106)."""
    if skill.category == "sustained":
        return ", ".join(filter(None, ["toggled in Upkeep, not on and off in one Round", skill.frequency]))
    return skill.frequency or "unlimited"


def options(ledger: Ledger, tree: SkillTree) -> dict[str, dict[str, Any]]:
    """Every Skill's price for this Pilot now, and what stops buying it (for the skill-tree page)."""
    result = {}
    for key, skill in tree.skills.items():
        cost = price(skill, ledger.spec, ledger.no_spec_price)
        reason = ""
        if key in ledger.held:
            reason = "held"
        elif skill.mother and skill.mother not in ledger.held:
            reason = f"M-R102: needs {tree.skills[skill.mother].name} first"
        elif needs_branch_mate(key, skill, ledger, tree):
            reason = f"M-R103: needs another {skill.branch} Skill first"
        elif cost > ledger.available:
            reason = f"M-R101: costs {cost} SP, {ledger.available} available"
        result[key] = {"price": cost, "marked_up": cost > skill.sp, "held": key in ledger.held,
                       "buyable": not reason, "reason": "" if reason == "held" else reason}
    return result
