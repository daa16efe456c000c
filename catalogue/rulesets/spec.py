"""The contract between a ruleset's folder and the rest of Hardpoint: a Ruleset and its build Kinds.

Generic code (store, views, API, PDF, commands, catalogue pages) reaches a game only through these
objects, found in the registry by (ruleset, kind). A ruleset folder fills one in; nothing else changes.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from . import house_rules, rule_index
from .base import (BUILD_FORMAT, SHARE_ID, BuildDocument, BuildError, Catalogue, Detail, Linked, Report,
                   build_error_from_validation, issue_path, parse_as)
from .dice import Distribution
from .picks import Place

SHARED_RULES = Path(__file__).parent / "rules"  # Hardpoint's rules of every build, listed in each ruleset's index

Validate = Callable[[Any, Catalogue, Mapping[str, "Linked | None"]], Report]
UNCHOSEN = ("name", "notes", "pack", "house_rules", "removed")  # a build with nothing else chosen is empty
_STEP = re.compile(r"([^.\[\]]+)(\[\])?")


@dataclass(frozen=True)
class Link:
    """A field that names another saved build by its share id.

    `path` walks the document: dots for fields, `[]` for every element of a list
    (`platoons[].members[].build`). An `owned` build belongs to this one: deep copies copy it and the
    sheet prints it (a squad's Anvils, an Anvil's Pilot); otherwise it is a reference (an opponent).
    """

    path: str
    kind: str
    owned: bool = True

    def steps(self) -> list[tuple[str, bool]]:
        return [(name, bool(each)) for name, each in _STEP.findall(self.path)]

    def ids(self, document: Mapping[str, Any]) -> list[str]:
        """The share ids at this path (what could be none is left out: a request's fields are not checked yet)."""
        found: list[str] = []
        _walk(document, self.steps(), lambda value: found.append(value) or value)
        return [i for i in found if re.fullmatch(SHARE_ID, i)]

    def relinked(self, document: dict[str, Any], new_ids: Mapping[str, str]) -> dict[str, Any]:
        """A copy of the document with every share id at this path replaced through `new_ids`."""
        return _walk(document, self.steps(), lambda value: new_ids.get(value, value))


def _walk(node: Any, steps: list[tuple[str, bool]], visit: Callable[[str], str]) -> Any:
    """Rebuild `node` with `visit` applied to the string values at the end of `steps` (copies, never mutates)."""
    if not steps or not isinstance(node, Mapping):
        return node
    (name, each), rest = steps[0], steps[1:]
    if name not in node or node[name] is None:
        return node
    value = node[name]
    if each:
        value = [_walk(element, rest, visit) if rest else _leaf(element, visit) for element in value or []]
    else:
        value = _walk(value, rest, visit) if rest else _leaf(value, visit)
    return {**node, name: value}


def _leaf(value: Any, visit: Callable[[str], str]) -> Any:
    return visit(value) if isinstance(value, str) and value else value


_REF_STEP = re.compile(r"([^.\[\]{}]+)(\[\]|\{\}|\{key\})?")


@dataclass(frozen=True)
class ItemRef:
    """Where a build names a pack item, as a path (`gear[].item`: `[]` every element of a list, `{}` every value
    of a mapping, `{key}` every key of a mapping, as in `talents{key}`: talent -> rank), and what an upgrade empties when a new pack version no longer has the item: `clear`, a
    prefix of the path (`gear[]`: the whole mount), or by default the field itself. An `in_place` list element is
    emptied (None) rather than taken out, where its place means something (a mod on the weapon at its index); a
    list element taken out takes the element at its index in a `paired` sibling list with it (the weapon's mod). A
    `dropped` mapping value is taken out with its key, where an empty place is a missing entry (a slot
    that is empty by having no card in it)."""

    path: str
    clear: str = ""
    in_place: bool = False
    paired: str = ""
    dropped: bool = False

    def found(self, document: Any) -> list[tuple[tuple, str]]:
        """(where, key) of every item named along the path; `where` is a tuple of fields and list indexes."""
        steps = _REF_STEP.findall(self.path)
        found: list[tuple[tuple, str]] = []

        def walk(node: Any, at: tuple, rest: list) -> None:
            if not rest:
                if isinstance(node, str) and node:
                    found.append((at, node))
                return
            (name, each), later = rest[0], rest[1:]
            if not isinstance(node, Mapping) or node.get(name) is None:
                return
            value = node[name]
            if each == "[]" and isinstance(value, list):
                for index, element in enumerate(value):
                    walk(element, at + (name, index), later)
            elif each == "{}" and isinstance(value, Mapping):
                for key, element in value.items():
                    walk(element, at + (name, key), later)
            elif each == "{key}" and isinstance(value, Mapping):
                found.extend((at + (name, key), key) for key in value if isinstance(key, str) and key)
            elif not each:
                walk(value, at + (name,), later)

        walk(document, (), steps)
        return found

    @property
    def keyed(self) -> bool:
        """Whether the item is a mapping's key: an upgrade then takes the entry out rather than emptying it."""
        return self.path.endswith("{key}")

    @property
    def removal(self) -> str:
        """How an upgrade empties the item's place: "out" of its list or mapping, or "none" left in it."""
        return "none" if self.in_place else "out" if self.keyed or self.dropped else ""

    def cleared(self, where: tuple) -> tuple:
        """The part of the document an upgrade empties for the item at `where`."""
        if not self.clear:
            return where
        depth = sum(1 + bool(each) for _, each in _REF_STEP.findall(self.clear))
        return where[:depth]


@dataclass(frozen=True)
class PackLink:
    """Where a pack's items of one category name other items of the pack (a Subskill its mother Skill, an ally
    template the one it upgrades from), and which categories those may be of. The rules look the named item up,
    so an item naming one its pack does not hold is caught when the pack loads, naming both, not when a build meets
    it."""

    category: str
    path: str  # as ItemRef reads it, over the item's fields: `upgrades_from[]`, `weapons[].weapon`
    names: tuple[str, ...]

    def dangling(self, catalogue: Catalogue) -> list[tuple[str, str, str]]:
        """(item key, field, what is wrong) for every item this link names that the pack lacks."""
        found = []
        for key, category in catalogue.categories.items():
            if category != self.category:
                continue
            fields = catalogue.items[key].model_dump()
            for where, named in ItemRef(self.path).found(fields):
                if catalogue.categories.get(named) not in self.names:
                    found.append((key, issue_path(where), f"names '{named[:40]}', which is no "
                                  f"{' or '.join(self.names)} in this pack — add it, or fix the key"))
        return found


@dataclass(frozen=True)
class Secrecy:
    """What of a build its owner may keep from opponents (a Part card with a secret configuration).

    `public` gives the document anyone with the share link sees, the secret items masked in place (so its rules
    still count them); `masked` names the masked places of a document, which no save accepts; `without_masked`
    empties them, for a copy taken from a share link."""

    public: Callable[[dict[str, Any], Catalogue | None], dict[str, Any]]  # (document, its pack when loaded)
    masked: Callable[[Mapping[str, Any]], list[str]]
    without_masked: Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Previewing:
    """What a kind's combat preview reads: the checked build, its request (less the attacker), and what the request
    names, fetched before the preview runs."""

    build: Any  # the kind's parsed document
    catalogue: Catalogue
    report: Report
    request: Mapping[str, Any]
    linked: Mapping[str, Linked | None]  # the build's own links, and the saved builds the request names
    reads: Mapping[str, Any]  # Preview.reads
    targets: Catalogue | None = None  # the newest pack holding Preview.targets_from, when the kind names one

    def read(self, key: str = "situation", member: Any = None) -> Any:
        """A part of the request (by default its `situation`; absent, its defaults) read as its type in
        Preview.reads, or as the `member` of that union the part's shape chose; problems are named under the key."""
        value = self.request.get(key, {})
        if not isinstance(value, Mapping):
            raise BuildError([{"path": key, "message": "must be an object"}])
        try:
            return adapter(member or self.reads[key]).validate_python(value)
        except ValidationError as exc:
            raise BuildError([{"path": f"{key}.{p['path']}", "message": p["message"]}
                              for p in build_error_from_validation(exc).problems]) from None

    def saved(self, share_id: Any, path: str, label: str) -> Linked:
        """A saved build the request names by its share id at `path` (as its share link shows it); else the
        problem, naming `path`."""
        found = self.linked.get(share_id) if isinstance(share_id, str) else None
        if found is None:
            raise BuildError([{"path": path, "message": f"{str(share_id)[:40]!r} is not a saved {label}'s share id"}])
        return found


@cache
def adapter(kind: Any) -> TypeAdapter:
    return TypeAdapter(kind)


@dataclass(frozen=True)
class Preview:
    """A kind's combat preview: `run` gives JSON-ready odds (an attack may carry `distribution` and `hit_from` for
    its chart). The request's fields are those `reads` names, each with its type (a pydantic model, or a union of
    them), which `Previewing.read` reads it as and the API's schema publishes; the saved builds it names at `links`
    (a target's share id at `target.build`) are fetched and checked before it runs, as a build's own links are for
    validate, and a request may pick its target from the newest pack holding `targets_from` (a pack category)."""

    run: Callable[[Previewing], dict[str, Any]]
    reads: Mapping[str, Any]
    links: tuple[Link, ...] = ()
    targets_from: str = ""

    def named(self, request: Mapping[str, Any]) -> list[str]:
        """The share ids the request names where `links` say."""
        return list(dict.fromkeys(i for link in self.links for i in link.ids(request)))


@dataclass(frozen=True)
class Member:
    """A roster's member in its text: its name, one line of what it is (kind, cost, key stats), and its share id
    ("" for one written in or no longer saved)."""

    name: str
    line: str = ""
    share_id: str = ""


@dataclass(frozen=True)
class Summary:
    """What a build's plain text (`/s/<id>.txt`, "Copy as text") says beyond what every kind's says (its name,
    kind, pack, the line its page describes it by, budgets, verdict with rule IDs and share link): its key stats, its
    parts by where they sit, or a roster's members. Short enough for a chat message. Of a linked build it may use
    only what its share link shows (its name, share id, document); its report is the whole build's check, whose
    numbers may count secrets (Kind.secrecy)."""

    stats: tuple[tuple[str, Any], ...] = ()  # (label, value as it reads): ("Armour", 3)
    parts: tuple[tuple[str, str], ...] = ()  # (where, what): ("Right Arm", "Kestrel Rifle, Gauss Lance")
    members: tuple[Member, ...] = ()

    @staticmethod
    def counted(names: list[str]) -> str:
        """Names as a list to read: one met twice or more is counted ("2 × Gnat"), in the order first met."""
        return ", ".join(f"{n} × {name}" if n > 1 else name for name, n in Counter(names).items())

    @staticmethod
    def stats_of(report: Report, keys: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
        """The report's stats of these keys, in this order, each with its unit; a key it lacks is left out."""
        found = [report.stats[key] for key in keys if key in report.stats]
        return tuple((stat.label, f"{stat.value} {stat.unit}" if stat.unit else stat.value) for stat in found)


Summarise = Callable[[Any, Catalogue, Report, Mapping[str, "Linked | None"]], Summary]


@dataclass(frozen=True)
class Track:
    """One thing a player keeps count of at the table, from the build's own sheet (Kind.tabletop): HP, Heat, a
    Component's condition, a weapon's ammo, a Skill's use. Its value is a whole number from `low` to `high`:

    - a count (HP, Heat, ammo) with `low`..`high`, starting at `start`;
    - a choice when it has `options` (its value is the index of one: Intact, Damaged, Destroyed);
    - a box to tick when it runs 0 to 1 from 0, with no options (a once-a-Sortie Skill used, a Mech activated).
    """

    key: str  # stable within the build: "heat", "component.left_arm", "ammo.gear[2]"
    label: str
    group: str = ""  # what the table shows it under ("" for the build's own header): "Left Arm", "Weapons"
    low: int = 0
    high: int = 1
    start: int = 0
    options: tuple[str, ...] = ()
    note: str = ""  # what it means at the table, with its rule ID: "Overheat past 6 (M-R40)"
    rule: str = ""  # the rule ID it comes from
    mark: int | None = None  # a threshold value the table marks (Heat Tolerance)
    lines: tuple[str, ...] = ()  # what sits on it (a Component's Gear), greyed with it
    resets: Literal["", "turn", "round"] = ""  # back to `start` when the counter moves on (Orders, activations)
    # What the kind's consequences read of the build beside the values: a house rule's choice ({"structure-zero":
    # "critical"}), a card's numbers ({"Dodge": 2}). Kept with the table, so consequences need no build.
    facts: Mapping[str, int | str] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Consequence:
    """What the rules say follows from a table's state, with the rule ID: a destroyed Component's weapons no longer
    fire, a Mech with 2 Parts left is removed. `greys` are the tracks (by key) that no longer count."""

    rule: str
    message: str
    severity: Literal["error", "warning", "info"] = "warning"
    greys: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tabletop:
    """A kind's table (builder.table): its tracks from the build as saved, what follows from their values, and the
    document as those values leave it, which the combat preview reads (a damaged Mech's odds). A kind whose preview
    reads none of its tracks says why in `played_note` and leaves `played` out."""

    tracks: Callable[[Any, Catalogue, Report, Mapping[str, "Linked | None"]], list[Track]]
    consequences: Callable[[list[Track], Mapping[str, int]], list[Consequence]] = lambda tracks, state: []
    played: Callable[[dict[str, Any], list[Track], Mapping[str, int]], dict[str, Any]] | None = None
    played_note: str = ""


@dataclass(frozen=True)
class Kind:
    """One kind of build of a ruleset: its document model, which pack serves it, and its rules."""

    key: str
    label: str
    document: type[BuildDocument]
    pack_category: str  # the newest pack of the ruleset holding items of this category serves this kind
    validate: Validate
    links: tuple[Link, ...] = ()
    # Raises BuildError when a saved build may not be changed this way (a Pilot's history only grows).
    check_update: Callable[[dict[str, Any], dict[str, Any]], None] | None = None
    items: tuple[ItemRef, ...] = ()  # where its documents name pack items
    secrecy: Secrecy | None = None  # None: everything a build holds is on its share link
    # Where a build picks pack items (see picks.py), from its parsed document (JSON-ready) and pack.
    places: Callable[[dict[str, Any], Catalogue], list[Place]] | None = None
    # The document's fields no rule reads: editing them changes no picker's annotations.
    cosmetic: tuple[str, ...] = ("name", "notes")
    # The typed build the rules work on (parts looked up in the pack), for pages that show it.
    resolve: Callable[[Any, Catalogue], Any] | None = None
    # What a new build holds besides its header and name (a squad's first, empty Platoon).
    starter: Mapping[str, Any] = field(default_factory=dict)
    previewer: Preview | None = None  # None: no combat preview
    detail: type[Detail] = Detail  # what its reports' `detail` is (every report of the kind has this type)
    # Its plain-text summary from the parsed build, its pack, its check and its links (see Summary).
    summary: Summarise | None = None
    tabletop: Tabletop | None = None  # its table's tracks (a roster's are its members', see builder.table)

    def preview(self, build: Any, catalogue: Catalogue, request: Any, linked: Mapping[str, Linked | None], *,
                report: Report | None = None, targets: Catalogue | None = None) -> dict[str, Any]:
        """The combat preview of a parsed build against what `request` describes (see Preview); `linked` holds the
        build's own saved links and those the request names, `report` the build's check when the caller has it.
        BuildError names what cannot be read."""
        if self.previewer is None:
            raise BuildError([{"path": "attacker", "message": f"{self.label} builds have no combat preview"}])
        reads = self.previewer.reads
        if not isinstance(request, Mapping) or not set(request) <= set(reads):
            shape = ", ".join(f'"{key}": {{...}}' for key in reads)
            raise BuildError([{"path": "(request)", "message": f'send {{"attacker": ..., {shape}}}'}])
        report = self.validate(build, catalogue, linked) if report is None else report
        return self.previewer.run(Previewing(build, catalogue, report, request, linked, reads, targets))

    def summarise(self, build: Any, catalogue: Catalogue, report: Report,
                  linked: Mapping[str, Linked | None]) -> Summary:
        """The kind's Summary; every registered kind declares one (the contract tests hold it to that)."""
        if self.summary is None:
            raise NotImplementedError(f"{self.label} builds declare no text summary")
        return self.summary(build, catalogue, report, linked)

    def items_used(self, document: Mapping[str, Any]) -> list[tuple[ItemRef, tuple, str]]:
        """(the reference, where, key) of every pack item the document names."""
        return [(ref, where, key) for ref in self.items for where, key in ref.found(document)]

    def parse(self, document: Any) -> Any:
        return parse_as(self.document, document)

    def places_of(self, document: dict[str, Any], catalogue: Catalogue) -> list[Place]:
        return self.places(document, catalogue) if self.places else []

    def is_empty(self, document: Mapping[str, Any]) -> bool:
        """Whether a parsed document holds nothing a player chose: a new build's content, whatever its name, notes,
        pack and house rules."""
        header = {k: document.get(k) for k in ("format", "ruleset", "kind", "pack", "name")}
        new = self.parse({**header, **self.starter}).model_dump(mode="json")
        return all(document.get(k) == v for k, v in new.items() if k not in UNCHOSEN)

    def mechanics(self, document: Mapping[str, Any]) -> dict[str, Any]:
        """What the rules read of a document: all of it but its cosmetic fields."""
        return {k: v for k, v in document.items() if k not in self.cosmetic}

    def linked_ids(self, document: Mapping[str, Any]) -> list[str]:
        return list(dict.fromkeys(i for link in self.links for i in link.ids(document)))

    def owned_ids(self, document: Mapping[str, Any]) -> list[str]:
        return list(dict.fromkeys(i for link in self.links if link.owned for i in link.ids(document)))


@dataclass(frozen=True)
class DiceOption:
    """One argument of `manage.py dice <ruleset>`: a whole number in a range, a flag, one of some choices, or text
    in a pattern (a dice pool: "2Y+2R")."""

    name: str
    help: str
    low: int = 0
    high: int = 200
    default: int | str | None = None  # None: required
    flag: bool = False
    choices: tuple[str, ...] = ()
    pattern: str = ""


@dataclass(frozen=True)
class Dice:
    """A ruleset's dice for the `dice` command: its options and the exact distribution they give (or, for dice
    that are more than a number, the JSON-ready odds)."""

    options: tuple[DiceOption, ...]
    roll: Callable[..., Distribution | dict[str, Any]]


@dataclass(frozen=True)
class Unknown:
    """An id another app's file names that no loaded pack knows, and where the file used it."""

    id: str
    where: str


@dataclass(frozen=True)
class Wanted:
    """What another app's file says it was built with: the content packs it names (as it names them, with the
    title and version each) and every item id it uses, from which an import picks its packs."""

    packs: tuple[tuple[str, str], ...]  # (title, version)
    ids: frozenset[str]


@dataclass(frozen=True)
class Exchange:
    """Another app's file format for one kind of build (COMP/CON's pilots), read into a build and written back.

    `read(raw, catalogue, pack_ref)` gives the build document and the ids it had to leave out (BuildError when the
    file is unreadable); `write(document, catalogue)` gives the other app's JSON; `wants(raw)`, when the format
    says what it was built with, lets an import choose its packs without being told."""

    key: str  # in URLs and commands: /api/import/<key>
    label: str  # "COMP/CON pilot"
    kind: str
    read: Callable[[bytes | str, Catalogue, str], tuple[dict[str, Any], list[Unknown]]]
    write: Callable[[dict[str, Any], Catalogue], dict[str, Any]]
    wants: Callable[[bytes | str], Wanted] | None = None


@dataclass(frozen=True)
class EffectNote:
    """How the builder handles one number or condition of an item's rulebook effect: counted in pack fields,
    checked by a rule, or left to the table for a reason."""

    says: str  # the fragment of the rulebook's effect
    handled: Literal["counted", "checked", "text_only"]
    fields: tuple[str, ...] = ()
    rule: str = ""
    reason: str = ""
    why: str = ""


@dataclass(frozen=True)
class Ruleset:
    """A game: its kinds of build, pack categories, dice, and how the catalogue shows its stats.

    A ruleset with no kinds is listed as coming.
    """

    key: str
    name: str
    tagline: str
    kinds: tuple[Kind, ...] = ()
    categories: Mapping[str, Any] = field(default_factory=dict)  # pack category -> pydantic item model
    category_labels: Mapping[str, str] = field(default_factory=dict)
    data_dir: Path | None = None
    dice: Dice | None = None
    stat_labels: Mapping[str, str] = field(default_factory=dict)  # where title-casing a field name reads wrong
    signed_stats: frozenset[str] = frozenset()  # modifiers, printed "+2" / "−1"
    leading_columns: tuple[str, ...] = ()  # what a player compares first in the catalogue
    # A field's catalogue cell as text, where the generic "a/b/c · a/b/c" of nested rows would not read well.
    cell_text: Mapping[str, Callable[[Any], str]] = field(default_factory=dict)
    # A game's own pack formats by file suffix (".lcp"): raw bytes, a name and the loaded versions of a pack name
    # (for dependencies by range) → (pack header, item entries).
    pack_readers: Mapping[str, Callable[[bytes, str, Callable[[str], list[str]]], tuple[dict, list]]] = field(
        default_factory=dict)
    effect_notes: Callable[[str, str, str], list[EffectNote]] | None = None  # (pack name, category, item key)
    exchanges: tuple[Exchange, ...] = ()  # other apps' files its builds import from and export to
    pack_links: tuple[PackLink, ...] = ()  # where items name other items of their pack
    # An item's stats a player compares, on one line for pickers ("DV 4 · 2 HP · 12 ST"): (category, item).
    item_summary: Callable[[str, Any], str] | None = None

    @property
    def active(self) -> bool:
        return bool(self.kinds)

    def kind(self, key: Any) -> Kind | None:
        return next((k for k in self.kinds if k.key == key), None)

    def kind_of(self, document: Mapping[str, Any]) -> Kind:
        """The kind a document declares; a document without one is of the ruleset's first kind."""
        key = document.get("kind", self.kinds[0].key if self.kinds else None)
        kind = self.kind(key) if isinstance(key, str) else None
        if kind is None:
            raise BuildError([{"path": "kind", "message": f"unknown kind {str(key)[:40]!r} for {self.name}; "
                                                          f"expected one of {', '.join(k.key for k in self.kinds)}"}])
        return kind

    def example_build(self, example: dict[str, Any], catalogue: Catalogue) -> dict[str, Any]:
        """A pack's example as a full build document; it must read against the pack's own items."""
        kind = self.kind_of(example)
        document = {"format": BUILD_FORMAT, "ruleset": self.key, "kind": kind.key, "pack": catalogue.pack, **example}
        build = kind.parse(document)
        house_rules.check(self.house_rules(), self.rules(), build.house_rules)  # as every build's are (store.check)
        kind.validate(build, catalogue, {})
        return {**document, "name": build.name}  # lists and pickers show every example by its name

    def house_rules(self) -> dict[str, house_rules.Option]:
        """The parameters and readings a table may change (severity overrides need no declaring)."""
        return house_rules.load(self.data_dir) if self.data_dir else {}

    def rules(self) -> dict[str, rule_index.Rule]:
        """The rule index, by rule ID (empty for a ruleset without one), with Hardpoint's own rules of every build
        (HP-UPGRADE) after the game's."""
        return {**rule_index.load(self.data_dir / "rules"), **rule_index.load(SHARED_RULES)} if self.data_dir else {}

    def category_label(self, category: str) -> str:
        return self.category_labels.get(category, category.replace("_", " ").capitalize())

    def summary(self, category: str, item: Any) -> str:
        return self.item_summary(category, item) if self.item_summary else ""

    def stat_label(self, name: str) -> str:
        last = name.rsplit(".", 1)[-1]
        if name in self.stat_labels or last in self.stat_labels:
            return self.stat_labels.get(name, self.stat_labels.get(last))
        return last.replace("_", " ").title()

    def flatten(self, stats: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
        """Nested stats as flat columns (`resistance.KE`); a list of rows as "a/b/c · a/b/c"."""
        flat: dict[str, Any] = {}
        for key, value in stats.items():
            name = f"{prefix}{key}"
            if name in self.cell_text:
                flat[name] = self.cell_text[name](value)
            elif isinstance(value, Mapping):
                flat.update(self.flatten(value, f"{name}."))
            elif isinstance(value, list) and value and all(isinstance(row, Mapping) for row in value):
                flat[name] = " · ".join("/".join(str(self.display_value(k, v)) for k, v in row.items()) for row in value)
            elif isinstance(value, list):
                flat[name] = ", ".join(str(v) for v in value)
            else:
                flat[name] = value
        return flat

    def display_value(self, name: str, value: Any) -> Any:
        if value is None:
            return "—"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int) and not isinstance(value, bool) and name.rsplit(".", 1)[-1] in self.signed_stats:
            return f"{value:+d}"
        if isinstance(value, str):
            return value.replace("_", " ")
        return value
