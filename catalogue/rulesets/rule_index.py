"""A ruleset's rule index: every rule ID of its digest, in our words, with where Hardpoint honours it.

A ruleset keeps its index as YAML lists in `<data_dir>/rules/*.yaml`, one entry per rule ID. The builder links
each issue to its entry, the rule index page lists them, and the readings tables of each ruleset's docs page
(`docs/rulesets/<key>.md`) are generated from them.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .base import PackError, field_errors

RULE_ID = r"^[A-Z]+-[A-Z]?[A-Z0-9]+[a-z]?$"  # M-R14, M-R00a, DM-R32, HP-LINK

Where = Literal["validator", "stats", "preview", "sheet", "data", "table"]
WHERE_LABELS = {
    "validator": "builder check",
    "stats": "derived stat",
    "preview": "combat preview",
    "sheet": "printed sheet",
    "data": "pack data",
    "table": "at the table",
}


class Reading(BaseModel):
    """How Hardpoint reads the rule where the rulebook is unclear."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ambiguity: str = Field("", max_length=40)  # the digest's name for it: "A-28", "8.3 #1"
    text: str = Field(min_length=1, max_length=600)
    # The house rule offering the other readings (its default is this one), or "severity" where the only other
    # reading is not to enforce the rule, which the table's severity override already does.
    option: str = Field("", max_length=41)
    fixed: str = Field("", max_length=200)  # why no other reading can be offered, where none is


class Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=RULE_ID)
    title: str = Field(min_length=1, max_length=80)
    statement: str = Field(min_length=1, max_length=800)  # our words, never the rulebook's
    source: str = Field(min_length=1, max_length=120)  # rulebook lines: "L1075, L1353"
    kind: str = Field(min_length=1, max_length=60)  # the digest's: HARD, WARN, derived, DATA, RUNTIME, …
    enforced: tuple[Where, ...] = Field(min_length=1)
    how: str = Field(min_length=1, max_length=600)  # where and how: the check, the stat, the sheet's box
    readings: tuple[Reading, ...] = ()

    def where_labels(self) -> list[str]:
        return [WHERE_LABELS[w] for w in self.enforced]


@cache
def load(directory: Path) -> dict[str, Rule]:
    """Every rule of the index in `directory`, by ID, in the order of the files and their entries."""
    rules: dict[str, Rule] = {}
    for path in sorted(directory.glob("*.yaml")):
        try:
            entries = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise PackError(f"{path.name}: not valid YAML: {exc}") from None
        if not isinstance(entries, list):
            raise PackError(f"{path.name}: a rule index file is a list of rules")
        for number, entry in enumerate(entries):
            try:
                rule = Rule.model_validate(entry)
            except ValidationError as exc:
                raise PackError(f"{path.name}: rule {number + 1}: {field_errors(exc)}") from None
            if rule.id in rules:
                raise PackError(f"{path.name}: rule {rule.id} is in the index twice")
            rules[rule.id] = rule
    return rules


def readings_page(key: str) -> str:
    """The docs page, relative to the project, whose readings block holds ruleset `key`'s table."""
    return f"docs/rulesets/{key}.md"


def readings_table(rules: dict[str, Rule]) -> str:
    """The readings of an index as its docs page's Markdown table, so the two never disagree."""
    lines = ["| rule | reading | house rule |", "|---|---|---|"]
    for rule in rules.values():
        for reading in rule.readings:
            where = f"{rule.id} ({reading.ambiguity})" if reading.ambiguity else rule.id
            option = {"": f"none: {reading.fixed}" if reading.fixed else "",
                      "severity": f"`severity` of {rule.id}"}.get(reading.option, f"`{reading.option}`")
            lines.append(f"| {where} | {' '.join(reading.text.split()).replace('|', '/')} | {option} |")
    return "\n".join(lines)


def with_readings(text: str, key: str, table: str) -> str:
    """`text` (a docs page) with the block between its readings markers for `key` replaced by `table`."""
    start, end = f"<!-- readings:{key} -->", f"<!-- /readings:{key} -->"
    if start not in text or end not in text:
        raise ValueError(f"the page has no {start} … {end} block")
    head, rest = text.split(start, 1)
    return f"{head}{start}\n{table}\n{end}{rest.split(end, 1)[1]}"
