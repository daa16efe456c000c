"""House rules: what a table plays differently from the rulebook, stored in a build's `house_rules`.

Three kinds of choice, all defaulting to the rulebook:
- severity overrides, for any rule ID of the ruleset's index: `{"severity": {"DM-R18": "off"}}` makes that rule's
  issues errors, warnings, notes, or drops them;
- parameters, declared by the ruleset (`<data_dir>/house_rules/*.yaml`): budgets and limits, whole numbers;
- readings, also declared: a named choice for a rule the rulebook leaves unclear.

The validator reads parameters and readings through `setting`; severities are applied to every Report here.
"""
from __future__ import annotations

import re

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .base import BuildError, PackError, Report, read_yaml

SEVERITIES = ("error", "warning", "info", "off")


class Option(BaseModel):
    """One house-rule option a ruleset declares."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,40}$")
    kind: Literal["parameter", "reading"]
    label: str = Field(min_length=1, max_length=80)
    rule: str = Field(min_length=1, max_length=20)  # the rule ID it touches
    also: tuple[str, ...] = ()  # other rules the same reading touches (an ally's hire and its upgrades)
    text: str = Field(min_length=1, max_length=400)  # what changes, in our words
    default: int | str
    low: int | None = None  # parameters: the range allowed
    high: int | None = None
    choices: dict[str, str] = Field(default_factory=dict)  # readings: value -> what it means
    kinds: tuple[str, ...] = ()  # the kinds of build it changes; () for every kind

    @model_validator(mode="after")
    def _consistent(self) -> "Option":
        # An unquoted " #" in YAML starts a comment and cuts a sentence short, leaving a bracket open.
        if any(words.count("(") != words.count(")") for words in (self.label, self.text, *self.choices.values())):
            raise ValueError("a bracket is left open (quote a text that holds ' #')")
        if self.kind == "parameter" and not (isinstance(self.default, int) and self.low is not None
                                              and self.high is not None and self.low <= self.default <= self.high):
            raise ValueError("a parameter has a whole-number default within low and high")
        if self.kind == "reading" and (len(self.choices) < 2 or self.default not in self.choices):
            raise ValueError("a reading has at least two choices, the default among them")
        return self

    def allowed(self) -> str:
        return f"{self.low} to {self.high}" if self.kind == "parameter" else ", ".join(self.choices)

    def alternatives(self) -> str:
        """A reading's other choices, for the rule index beside the reading chosen by default."""
        return "; ".join(meaning for value, meaning in self.choices.items() if value != self.default)

    def describe(self, value: Any) -> str:
        return plain(self.choices.get(value, str(value))) if self.kind == "reading" else str(value)

    @property
    def plain_text(self) -> str:
        return plain(self.text)

    @property
    def plain_choices(self) -> dict[str, str]:
        return {value: plain(meaning) for value, meaning in self.choices.items()}


# A bracketed source reference (a rulebook line, a digest item, an ambiguity's ID): the rule index holds them, the
# panel a player reads does not.
_REFERENCE = r"(?:digest [^()]*|[A-Z]{1,2}-[A-Z]?\d+|[LF]\d+(?:-\d+)?|p\. ?\d+)"
_REFERENCES = re.compile(rf"\s*\({_REFERENCE}(?:[,;] ?{_REFERENCE})*\)")


def plain(text: str) -> str:
    """A house rule's wording for players: its sentences without their source references."""
    return _REFERENCES.sub("", text).strip()


@cache
def load(directory: Path) -> dict[str, Option]:
    """Every option declared in `<directory>/house_rules/*.yaml`, in the order of the files and their entries."""
    options: dict[str, Option] = {}
    for path in sorted((directory / "house_rules").glob("*.yaml")):
        try:
            entries = read_yaml(path) or []
            for option in (Option.model_validate(entry) for entry in entries):
                if option.key in options:
                    raise PackError(f"{path.name}: house rule {option.key} is declared twice")
                options[option.key] = option
        except (ValidationError, TypeError) as exc:
            raise PackError(f"{path.name}: {exc}") from None
    return options


def panel_order(option: Option) -> tuple:
    """Budgets and limits first, then the readings by the rule they touch (M-R15 before M-R100)."""
    prefix, _, number = option.rule.rpartition("R")
    return option.kind, prefix, int(number) if number.isdigit() else 0, option.rule


def for_kind(options: dict[str, Option], kind: str) -> dict[str, Option]:
    """The options that change builds of `kind`: what its House rules panel offers and its sheet prints."""
    return {key: option for key, option in options.items() if not option.kinds or kind in option.kinds}


def check(options: dict[str, Option], rule_ids, choices: dict[str, Any]) -> None:
    """Refuse, naming it, any option the ruleset does not have or any value out of its range."""
    problems = []
    for key, value in choices.items():
        path = f"house_rules.{key}"
        if key == "severity":
            if not isinstance(value, dict):
                problems.append({"path": path, "message": 'a map of rule IDs to "error", "warning", "info" or "off"'})
                continue
            for rule, severity in value.items():
                if rule not in rule_ids:
                    problems.append({"path": f"{path}.{str(rule)[:20]}", "message": "no such rule ID in this ruleset"})
                elif severity not in SEVERITIES:
                    problems.append({"path": f"{path}.{rule}", "message": f"use one of {', '.join(SEVERITIES)}"})
            continue
        option = options.get(key)
        if option is None:
            problems.append({"path": path[:60], "message": f"no such house rule; this ruleset has "
                                                           f"{', '.join(['severity', *options]) }"})
        elif option.kind == "parameter" and (isinstance(value, bool) or not isinstance(value, int)
                                             or not option.low <= value <= option.high):
            problems.append({"path": path, "message": f"a whole number from {option.allowed()}"})
        elif option.kind == "reading" and (not isinstance(value, str) or value not in option.choices):
            problems.append({"path": path, "message": f"one of {option.allowed()}"})
    if problems:
        raise BuildError(problems)


def setting(options: dict[str, Option], build: Any, key: str) -> Any:
    """The value a build plays with: its house rule, or the rulebook's."""
    return build.house_rules.get(key, options[key].default)


def apply_severity(report: Report, overrides: dict[str, str]) -> None:
    """Each overridden rule's issues at the table's severity; "off" drops them."""
    if not overrides:
        return
    kept = []
    for issue in report.issues:
        wanted = overrides.get(issue.code)
        if wanted == "off":
            continue
        if wanted:
            issue.severity = wanted
        kept.append(issue)
    report.issues[:] = kept


def in_use(options: dict[str, Option], rules: dict, choices: dict[str, Any]) -> list[dict[str, str]]:
    """The house rules a build plays, as lines for its share page and sheet ([] for the rulebook's)."""
    lines = [{"rule": option.rule, "label": option.label, "value": option.describe(choices[key]),
              "default": option.describe(option.default)}
             for key, option in options.items() if key in choices and choices[key] != option.default]
    for rule, severity in sorted(choices.get("severity", {}).items()):
        title = rules[rule].title if rule in rules else rule
        lines.append({"rule": rule, "label": title, "value": "ignored" if severity == "off" else f"{severity}s",
                      "default": ""})
    return lines
