"""What a build could pick at each place it picks a pack item, and what each choice would do to it.

A kind declares its places (`Kind.places`): a picker's form field, the categories it offers and how picking a key
changes the document. `what_if` tries every candidate on the build as it stands and names the first rule each
would newly break, with the budget after it: the annotations every picker and chooser shows, for every kind.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .base import BuildError, Catalogue, Linked, Report, memo


@dataclass(frozen=True)
class Place:
    """One picker of a builder: a Component slot, a mount's "add Gear", a mech's system list."""

    field: str  # the builder form's field: "part-core", "mech-0-add-system"
    label: str  # what the chooser calls its choices: "Core parts", "Systems for Fenrir"
    categories: tuple[str, ...]
    choose: Callable[[dict[str, Any], str], dict[str, Any]]  # a copy of the document with the key picked here
    fitted: str | None = None  # the key in the place now (None for a place that adds)
    prompt: str = ""  # the picker's empty choice: "— none —", "+ add a system…"
    meter: str = ""  # the budget whose total after the pick is each choice's cost
    candidates: Callable[[Catalogue], list[Any]] | None = None  # when the place offers fewer than its categories
    group: Callable[[Any], str] | None = None  # the picker's option group of an item ("Primary weapons")
    verb: str = ""  # what the chooser's button says: by default "Add" for a place that adds, else "Fit"

    @property
    def adds(self) -> bool:
        return self.fitted is None

    @property
    def action(self) -> str:
        return self.verb or ("Add" if self.adds else "Fit")

    def offered(self, catalogue: Catalogue) -> list[Any]:
        if self.candidates is not None:
            return self.candidates(catalogue)
        return [item for category in self.categories for item in catalogue.of(category)]


@dataclass(frozen=True)
class Option:
    """A candidate of a place, as its picker and chooser show it."""

    key: str
    name: str
    category: str
    group: str
    summary: str  # the stats a player compares, on one line: "DV 4 · 2 HP · 12 ST"
    fitted: bool
    reason: str  # "M-R32: …", the first rule picking it newly breaks; "" when it fits
    cost: str  # the place's budget after the pick, "34/40 ST"; "" without one


def summary(ruleset: Any, catalogue: Catalogue, category: str, item: Any) -> str:
    """`ruleset.summary` of a catalogue's item, worked out once: it reads nothing but the item."""
    kept = memo(catalogue)
    key = ("summary", ruleset.key, item.key)
    found = kept.get(key)
    if found is None:
        found = kept[key] = ruleset.summary(category, item)
    return found


def choices(ruleset: Any, catalogue: Catalogue, place: Place) -> list[Option]:
    """A place's candidates as its picker lists them, not yet tried on the build."""
    options = []
    for item in place.offered(catalogue):
        category = catalogue.categories[item.key]
        group = place.group(item) if place.group else ruleset.category_label(category)
        options.append(Option(item.key, item.name, category, group, summary(ruleset, catalogue, category, item),
                              item.key == place.fitted, "", ""))
    return options


def what_if(ruleset: Any, kind: Any, document: dict[str, Any], catalogue: Catalogue,
            linked: Mapping[str, Linked | None], report: Report, place: Place) -> list[Option]:
    """Every candidate of a place tried on the build (`kind`'s parse and validate): only errors the build does not
    have already count. Options are grouped by the place's `group`, or by category."""
    known = {(i.code, i.path) for i in report.errors}
    tried = []
    for option in choices(ruleset, catalogue, place):
        reason, cost = "", ""
        if option.fitted:
            cost = _cost(report, place.meter)
        else:
            trial = _trial(kind, place.choose(document, option.key), catalogue, linked)
            if isinstance(trial, str):
                reason = trial
            else:
                new = next((i for i in trial.errors if (i.code, i.path) not in known), None)
                reason, cost = f"{new.code}: {new.message}" if new else "", _cost(trial, place.meter)
        tried.append(Option(option.key, option.name, option.category, option.group, option.summary, option.fitted,
                            reason, cost))
    return tried


def _trial(kind: Any, document: dict[str, Any], catalogue: Catalogue,
           linked: Mapping[str, Linked | None]) -> Report | str:
    try:
        return kind.validate(kind.parse(document), catalogue, linked)
    except BuildError as error:  # the pick makes a document no build may hold (a list past its limit)
        problem = error.problems[0]
        return f"{problem['path']}: {problem['message']}"


def _cost(report: Report, meter_key: str) -> str:
    meter = next((m for m in report.meters if m.key == meter_key), None)
    if meter is None:
        return ""
    return f"{meter.used}/{meter.limit}" + (f" {meter.unit}" if meter.unit else "")

