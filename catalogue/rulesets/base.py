"""What every ruleset shares: packs, catalogues, build documents and the Report.

Plain Python and pydantic only (no Django), so the rules can be tested and benchmarked
without a database and the web page, API, CLI and PDF all show the same Report.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import yaml

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

Severity = Literal["error", "warning", "info"]

KEY_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"
# Each part of a version fits six digits, so the whole fits its 20-character column (and ASCII digits only:
# the pattern engine's \d also takes other scripts' digits).
SEMVER_PATTERN = r"^[0-9]{1,6}\.[0-9]{1,6}\.[0-9]{1,6}$"
PACK_REF_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}@[0-9]{1,6}\.[0-9]{1,6}\.[0-9]{1,6}$"
EXTENDS_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}@(\*|(=|\^|~|>=)?[0-9]{1,6}(\.[0-9]{1,6}){0,2})$"
BUILD_FORMAT = "hardpoint.build/1"
# A build's packs as one ref, base first: "core@3.1.8,long-rim@1.0.0" (a comma survives query strings,
# where a plus would read as a space).
PACK_SET_SEPARATOR = ","
MAX_EXTENSIONS = 20
MAX_KEPT = 128 * 1024
# Names are shown on pages, sheets and in link previews: plain text only.
_FORBIDDEN_IN_NAMES = re.compile(r"[<>\x00-\x1f\x7f]")


def field_or(item: Any, name: str, default: Any = None) -> Any:
    """`getattr(item, name, default)` without pydantic's slow path for a field the model does not have
    (a miss costs about 30 times a hit there, and the pickers ask thousands of times)."""
    return item.__dict__.get(name, default)


def with_article(noun: str) -> str:
    """"an Electronics", "a Generator", "a unit": hints name what to pick."""
    sounds_like_you = noun.lower().startswith(("uni", "use", "usu", "ute"))
    return f"{'an' if noun[:1].lower() in 'aeiou' and not sounds_like_you else 'a'} {noun}"


def plain_name(value: str) -> str:
    if _FORBIDDEN_IN_NAMES.search(value):
        raise ValueError("may not contain '<', '>' or control characters")
    value = " ".join(value.split())
    if not value:
        raise ValueError("must not be blank")
    return value


class Strict(BaseModel):
    """Packs and builds are user-authored files: unknown fields are typos, not extensions."""

    model_config = ConfigDict(extra="forbid", frozen=True)


SHARE_ID = r"[A-Za-z0-9_-]{4,32}"  # what new_share_id makes, and what a link to a build or a pack ends with
ShareId = Annotated[str, Field(pattern=rf"^{SHARE_ID}$")]


class SavedOrWritten(Strict):
    """A roster line: a saved build by its share id, or what the roster writes in its place (the field
    `written` names: a written-in unit, a pack item's key)."""

    written: ClassVar[str]
    build: ShareId | None = None

    @model_validator(mode="after")
    def _one_of(self) -> "SavedOrWritten":
        if (self.build is None) == (getattr(self, self.written) is None):
            raise ValueError(f"give a saved build's share id (build) or {self.written}, one of the two")
        return self


def read_yaml(path: Path) -> Any:
    """A YAML file of the repository's own (rule index, house rules, audits): its data (None when empty), or a
    PackError naming the file."""
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise PackError(f"{path.name}: not valid YAML: {exc}") from None


PlainName = Annotated[str, AfterValidator(plain_name)]


class Part(Strict):
    """Anything a pack lists: it has a stable key, a display name and our own short text."""

    key: str = Field(pattern=KEY_PATTERN)
    name: PlainName = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=600)


class Removed(Strict):
    """An item an upgrade took out, because the build's new pack version has no such item (HP-UPGRADE), or one an
    import from another app left out, because the build's pack has no such item (HP-IMPORT)."""

    name: str = Field(min_length=1, max_length=120)
    key: str = Field(min_length=1, max_length=80)
    path: str = Field(min_length=1, max_length=200)  # where it was, as issues name places: `gear[3].item`
    pack: str = Field(pattern=PACK_REF_PATTERN)  # the version that lacks it
    by: Literal["upgrade", "import"] = "upgrade"


def pack_set(pack: str, extensions=()) -> str:
    """A base pack and its extensions as the one ref a build is read against."""
    return PACK_SET_SEPARATOR.join([pack, *extensions])


def pack_refs(ref: str) -> list[str]:
    """A pack set's refs, base first."""
    return [part.strip() for part in str(ref).split(PACK_SET_SEPARATOR)]


PackRef = Annotated[str, Field(pattern=PACK_REF_PATTERN)]


class BuildDocument(Strict):
    """What every build file shares; each ruleset's kinds add `ruleset`, `kind`, a `name` and their own fields."""

    format: Literal[BUILD_FORMAT] = BUILD_FORMAT  # type: ignore[valid-type]
    pack: PackRef
    # Packs whose items join the base's, in order (as COMP/CON's active content packs); left out of the file when
    # there are none, so a one-pack build reads as it always has.
    extensions: list[PackRef] = Field(default_factory=list, max_length=MAX_EXTENSIONS, exclude_if=lambda v: not v)
    notes: str = Field(default="", max_length=4000)
    # The table's house rules (see rulesets/house_rules.py); checked against the ruleset's options.
    house_rules: dict[str, Any] = Field(default_factory=dict, max_length=100)
    # What upgrades took out and imports left out, each an HP-UPGRADE warning or HP-IMPORT error until the player
    # dismisses it.
    removed: list[Removed] = Field(default_factory=list, max_length=50)
    # What another app's file held that Hardpoint does not model (its ids, state in play, other loadouts), by the
    # exchange's key, written back on export so that a round trip through Hardpoint loses nothing.
    kept: dict[str, dict[str, Any]] = Field(default_factory=dict, max_length=4, exclude_if=lambda v: not v)

    @model_validator(mode="after")
    def _packs_once_and_kept_small(self):
        if self.kept and len(json.dumps(self.kept)) > MAX_KEPT:
            raise ValueError(f"kept: more than {MAX_KEPT:,} characters of another app's data")
        names = [ref.partition("@")[0] for ref in (self.pack, *self.extensions)]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ValueError(f"extensions: {', '.join(twice)} is named twice; a build uses one version of a pack")
        return self

    @property
    def pack_set(self) -> str:
        return pack_set(self.pack, self.extensions)


class PackHeader(Strict):
    name: str = Field(pattern=KEY_PATTERN)
    version: str = Field(pattern=SEMVER_PATTERN)
    ruleset: str = Field(pattern=KEY_PATTERN)
    source: Literal["starter", "rulebook", "user"]
    title: str = Field(min_length=1, max_length=120)
    description: str = Field(default="", max_length=2000)
    # A base pack whose items it adds to: name@1.2.0, or a range (name@^1.0, ~1.1, >=1.0) the loader settles on the
    # newest loaded match and records exactly.
    extends: str | None = Field(default=None, pattern=EXTENDS_PATTERN)

    @property
    def ref(self) -> str:
        return f"{self.name}@{self.version}"


class PackError(ValueError):
    """A pack file that cannot be loaded; the message names the file, item and field."""


class PackUnreadable(PackError):
    """Bytes that are no pack file at all (not YAML, CSV or zip, not UTF-8, too big): nothing could be read."""


class BuildError(ValueError):
    """A build document that cannot be read: malformed, unknown keys, parts in the wrong slot.

    Distinct from an illegal build, which reads fine and gets a Report with issues.
    """

    def __init__(self, problems: list[dict[str, str]]):
        self.problems = problems
        super().__init__("; ".join(f"{p['path']}: {p['message']}" for p in problems))


def parse_as(model: type[BaseModel], document: Any) -> Any:
    """A build document as its pydantic model, or a BuildError naming every bad field."""
    if isinstance(document, model):
        return document
    try:
        return model.model_validate(document)
    except ValidationError as exc:
        raise build_error_from_validation(exc) from None


def pack_problems(build: Any, catalogue: "Catalogue") -> list[dict[str, str]]:
    """A build is read against the pack it pins; any other pack is a problem to report, not to guess around."""
    if build.pack_set != catalogue.ref:
        return [{"path": "pack", "message": f"built against {build.pack_set}, not {catalogue.ref}"}]
    return []


def build_error_from_validation(exc: ValidationError) -> BuildError:
    return BuildError([{"path": issue_path(err["loc"]), "message": err["msg"]}
                       for err in exc.errors(include_url=False)])


def field_errors(exc: ValidationError) -> str:
    """A pydantic refusal as one line naming each field: what rule indexes and audits say of a bad entry."""
    return "; ".join(f"field '{'.'.join(str(p) for p in e['loc'])}': {e['msg']}" for e in exc.errors(include_url=False))


def issue_path(location: tuple) -> str:
    """One dialect for where in a build something is, as the Report writes it: `gear[3].item`."""
    path = ""
    for step in location:
        path += f"[{step}]" if isinstance(step, int) else (f".{step}" if path else str(step))
    return path or "(document)"


def member_errors(report: "Report", path: str, name: str, codes: Iterable[str]) -> None:
    """HP-MEMBER: a roster's member that breaks rules of its own (their IDs in `codes`) makes the roster illegal."""
    broken = ", ".join(sorted(set(codes)))
    if broken:
        report.add("HP-MEMBER", "error", path, f"{name} breaks {broken}.",
                   "Open it and fix it before the game, or take it out of the roster.")


@dataclass(frozen=True, slots=True)
class Collision:
    """An id a build's packs both define: the first pack's item is the one used."""

    key: str
    name: str
    kept: str  # the ref of the pack whose item is used
    dropped: str  # the ref of the pack whose item is not


@dataclass(slots=True)
class Catalogue:
    """One pack's items, keyed by item key; what validate() looks parts up in."""

    ruleset: str
    pack: str  # "name@version"
    items: dict[str, Any]
    categories: dict[str, str]  # item key -> category
    title: str = ""
    source: str = "starter"
    extensions: tuple[str, ...] = ()  # the packs whose own items were added to `pack`'s, in order
    origins: dict[str, str] = field(default_factory=dict)  # item key -> the extension it came from
    collisions: tuple["Collision", ...] = ()  # ids two of those packs both define
    titles: dict[str, str] = field(default_factory=dict)  # of a set, each pack's title by its ref
    shares: dict[str, str] = field(default_factory=dict)  # an uploaded pack's share id by its ref: its capability
    examples: tuple[dict[str, Any], ...] = ()  # the base pack's example builds, as written in it
    # Items by category, built on first asking: rules and pickers ask for one category many times a request.
    _by_category: dict[str, list[Any]] | None = field(default=None, repr=False, compare=False)

    @property
    def ref(self) -> str:
        return pack_set(self.pack, self.extensions)

    @property
    def refs(self) -> list[str]:
        return [self.pack, *self.extensions]

    @property
    def packs(self) -> list[tuple[str, str]]:
        """Each pack read, base first, with its title."""
        return [(ref, self.titles.get(ref, self.title)) for ref in self.refs]

    def of(self, category: str) -> list[Any]:
        if self._by_category is None:
            self._by_category = {}
            for key, item_category in self.categories.items():
                self._by_category.setdefault(item_category, []).append(self.items[key])
        return list(self._by_category.get(category, ()))


@dataclass(slots=True)
class Linked:
    """Another saved build a build names (a squad's Anvil, an Anvil's Pilot), checked by the caller.

    `document` is what its share link shows (Kind.secrecy masks some of it); `report` is the check of the whole
    build, its verdict. A kind that keeps secrets reads `whole` (None when nothing is masked) for verdicts only:
    no number or name from it may reach what the rules report."""

    share_id: str
    kind: str
    name: str
    document: dict[str, Any]
    report: "Report"
    whole: dict[str, Any] | None = None
    catalogue: Catalogue | None = None  # the pack it pins, for rules that read its parts (a preview's target)


@dataclass(slots=True)
class Issue:
    code: str  # the digest's rule ID, e.g. M-R14
    severity: Severity
    path: str  # where in the build: "right_arm", "gear[3]"
    message: str
    hint: str = ""

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "severity": self.severity, "path": self.path,
                "message": self.message, "hint": self.hint}


@dataclass(slots=True)
class Stat:
    label: str
    value: Any
    explain: str
    unit: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "unit": self.unit, "explain": self.explain}


@dataclass(slots=True)
class Meter:
    """A budget or limit shown as a bar that fills up.

    Where some of what counts is secret (Kind.secrecy), `used` is the part anyone may see, `hidden` says what else
    counts ("1 secret Part") and `hidden_over` is the verdict the server reached with it."""

    key: str
    label: str
    used: int
    limit: int
    unit: str = ""
    path: str = ""
    hidden: str = ""
    hidden_over: bool = False

    @property
    def over(self) -> bool:
        return self.hidden_over if self.hidden else self.used > self.limit

    @property
    def percent(self) -> int:
        if self.limit <= 0:
            return 100 if self.used > 0 else 0
        return min(100, round(100 * self.used / self.limit))

    def as_dict(self) -> dict[str, Any]:
        shown = {"key": self.key, "label": self.label, "used": self.used, "limit": self.limit,
                 "unit": self.unit, "path": self.path, "over": self.over}
        return {**shown, "hidden": self.hidden} if self.hidden else shown


@dataclass(slots=True)
class Detail:
    """What a kind's rules work out beyond issues, stats and meters, for its pages: each kind's own dataclass of it
    (Kind.detail), with every field present from the start. Its fields hold JSON-ready values."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class Report:
    issues: list[Issue] = field(default_factory=list)
    stats: dict[str, Stat] = field(default_factory=dict)
    meters: list[Meter] = field(default_factory=list)
    detail: Detail = field(default_factory=Detail)  # the kind's own (Kind.detail)

    def add(self, code: str, severity: Severity, path: str, message: str, hint: str = "") -> None:
        self.issues.append(Issue(code, severity, path, message, hint))

    @property
    def legal(self) -> bool:
        return not any(i.severity == "error" for i in self.issues)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "error"]

    def issues_at(self, path: str) -> list[Issue]:
        return [i for i in self.issues if i.path == path]

    def as_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "issues": [i.as_dict() for i in self.issues],
            "stats": {k: s.as_dict() for k, s in self.stats.items()},
            "meters": [m.as_dict() for m in self.meters],
            "detail": self.detail.as_dict(),
        }


MEMOS = 32  # catalogues remembered, as many as catalogue.loader keeps parsed

_memos: dict[int, tuple[Catalogue, dict[Any, Any]]] = {}


def memo(catalogue: Catalogue) -> dict[Any, Any]:
    """What is worked out once per catalogue and read on every request (an item's summary, a chooser's cells).
    A catalogue never changes once read (a pack's name@version never does; a reloaded pack is a new catalogue), so
    this is kept by the catalogue object itself, never shared with another one even of the same ref. It holds the
    catalogue, so the object's id is not reused while kept; the oldest of more than MEMOS catalogues is dropped."""
    found = _memos.get(id(catalogue))
    if found is None or found[0] is not catalogue:
        if len(_memos) >= MEMOS:
            _memos.pop(next(iter(_memos), None), None)
        found = _memos[id(catalogue)] = (catalogue, {})
    return found[1]
