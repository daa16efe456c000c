"""Reading pack files: YAML, CSV or zip in, pydantic-checked items out (no Django).

A pack is `name`, semver `version`, `ruleset`, `source`, `title`, then `items` by category and optional
`examples` (build documents without the pack header fields). The repo's packs are YAML files of source starter
or rulebook. Users upload packs (source user) as the same YAML; as one CSV per category (the header row names
the fields, dotted columns nest: `effects.traits.ath`) with the pack's header given beside it; or as a zip of
`pack.yaml` (the header) with `<category>.csv` or `<category>.yaml` files. An uploaded pack may extend a loaded
base pack: its items are added to the base's.

Every problem names the file, the CSV row or item key, the field, what was expected and a fix. One bad entry never
refuses a whole upload: it is left out and listed (`Skipped`), and the rest loads. What spoils the whole file (bytes
that do not read, its header, its size, its examples) refuses it, and so does an upload of entries none of which
reads. The repo's own packs must be perfect: any entry left out refuses them.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import lzma
import re
import zipfile
import zlib
from collections.abc import Callable
from copy import deepcopy
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from .base import PACK_REF_PATTERN, BuildError, Catalogue, PackError, PackHeader, PackUnreadable
from .reading import Unreadable, as_text, check_tree, load_yaml, loads_json

# Packs are text: 2 MB holds thousands of items, and a bigger upload is a mistake or an attack.
MAX_UPLOAD = 2 * 1024 * 1024
MAX_ZIP_ENTRIES = 40
MAX_UNZIPPED = 8 * 1024 * 1024  # a zip may compress well, but not into a bomb
MAX_ITEMS = 5000
MAX_EXAMPLES = 100
# What a pack may come to once stored (items as JSON, its base's included, and examples): every page showing the
# pack reads it whole, so the cap is on what is kept, not only on the upload (whose YAML aliases may expand).
MAX_ITEM_BYTES = 32 * 1024
MAX_PACK_BYTES = 4 * 1024 * 1024
MAX_CELL = 4000
MAX_PROBLEMS = 20
# What a lone CSV file's header is given beside it (read_upload's `header`), in the order a form asks for it.
LONE_CSV_HEADER = ("ruleset", "name", "version", "title", "category", "extends")
IGNORED_IN_ZIPS = ("__MACOSX/", ".DS_Store")  # what archivers add on their own


@dataclass(frozen=True)
class Skipped:
    """An entry an upload left out, and why: `file` is where it came from ("weapon.csv row 4", "kit.lcp/weapons.json"),
    `category` the one it was given as, `id` its key as written (or "#n", its place in its list), `field` the dotted
    field ("(item)": the whole entry)."""

    file: str
    category: str
    id: str
    field: str
    message: str

    def __str__(self) -> str:
        item = self.id if self.id.startswith("#") else f"'{self.id}'"
        field = "" if self.field == "(item)" else f"field '{self.field}': "
        return f"{self.file}: {self.category} item {item}: {field}{self.message}"


def _skip(file: str, category: str, entry_id: str, field: str, message: str) -> Skipped:
    # Each part may repeat the upload's own words, and is stored and shown: text only, and bounded.
    return Skipped(as_text(file, 120), as_text(category, 40), as_text(entry_id, 80), as_text(field, 120),
                   as_text(message, 600))


def left_out(found: list[Skipped]) -> int:
    """How many entries were left out: one with several problems is listed once for each."""
    return len({(entry.file, entry.category, entry.id) for entry in found})


@dataclass
class PackData:
    header: PackHeader
    catalogue: Catalogue
    examples: list[dict[str, Any]]
    content_hash: str
    path: str
    skipped: list[Skipped] = field(default_factory=list)  # an upload's entries left out, each with why


@dataclass
class Entries:
    """A category's item dicts, each with where it came from ("weapon.csv row 4", "pack.yaml")."""

    category: str
    items: list[tuple[str, Any]]
    blanks: dict[int, set[str]] = field(default_factory=dict)  # CSV: per item, the columns left empty
    broken: dict[int, list[tuple[str, str]]] = field(default_factory=dict)  # CSV: per item, (column, problem)
    key_field: str = "key"  # the field an entry's key is written in, where its format does not call it key


def _refusal(problems: list[Skipped]) -> PackError:
    """One PackError listing the first problems found, and how many more there were."""
    shown = [str(problem) for problem in problems[:MAX_PROBLEMS]]
    more = len(problems) - len(shown)
    return PackError("\n".join(shown + ([f"… and {more} more problems"] if more else [])))


def read_pack(path: Path, rulesets: dict[str, Any]) -> PackData:
    """A pack file of the repo (starter or rulebook): YAML only, extending nothing."""
    raw = path.read_bytes()
    document = _yaml_mapping(raw, path.name)
    if document.get("source") == "user" or "extends" in document:
        raise PackError(f"{path.name}: source: the repo's packs are starter or rulebook packs and extend nothing")
    return _assemble(document, [_yaml_entries(document.get("items"), path.name)], path.name, raw, rulesets,
                     lambda ref: None, str(path), strict=True)


def read_upload(raw: bytes, filename: str, rulesets: dict[str, Any], *, header: dict | None = None,
                base: Callable[[str], Catalogue | None] = lambda ref: None,
                versions: Callable[[str], list[str]] = lambda name: []) -> PackData:
    """A user's pack from an upload: `filename`'s suffix says YAML, CSV or zip; a lone CSV's header (name,
    version, ruleset, title, category, extends) comes in `header`. Returns a pack of source user. A game's own
    format may name the packs it builds on by version range, which `versions` (a name's loaded versions) settles."""
    where = PurePosixPath(str(filename or "upload")).name[:80] or "upload"
    if len(raw) > MAX_UPLOAD:
        raise PackUnreadable(f"{where}: {len(raw):,} bytes; a pack is at most {MAX_UPLOAD:,} bytes")
    suffix = PurePosixPath(where).suffix.lower()
    if suffix in (".yaml", ".yml"):
        document = _yaml_mapping(raw, where)
        entries = [_yaml_entries(document.get("items"), where)]
    elif suffix == ".csv":
        header = dict(header or {})
        category = str(header.pop("category", "") or PurePosixPath(where).stem)
        document, entries = header, [_csv_entries(raw, where, category)]
    elif suffix == ".zip":
        document, entries = _zip(raw, where)
    elif suffix in (readers := {s: r for ruleset in rulesets.values() for s, r in ruleset.pack_readers.items()}):
        document, entries = readers[suffix](raw, where, versions)
    else:
        *others, last = [".yaml", ".csv", ".zip", *readers]
        kinds = f"{', '.join(others)} or {last}"
        raise PackUnreadable(f"{where}: a pack is a {kinds} file; this one ends in '{suffix[:20] or '(nothing)'}'")
    if document.get("source", "user") != "user":
        raise PackError(f"{where}: source: uploads are user packs; remove the field or write user")
    document = {**document, "source": "user"}
    return _assemble(document, entries, where, raw, rulesets, base, where, strict=False, versions=versions)


# --- reading the formats ---------------------------------------------------------------------------

def _text(raw: bytes, where: str) -> str:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PackUnreadable(f"{where}: not UTF-8 text (byte {exc.start}); save the file as UTF-8") from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise PackUnreadable(f"{where}: line {line}: a NUL character is not text; remove it")
    return text


def _yaml(raw: bytes, where: str) -> Any:
    try:
        return load_yaml(_text(raw, where))
    except Unreadable as exc:
        raise PackUnreadable(f"{where}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise PackUnreadable(f"{where}: not valid YAML{at}: {getattr(exc, 'problem', None) or 'unreadable'}") from None
    except RecursionError:
        raise PackUnreadable(f"{where}: YAML nested too deeply to be a pack") from None


def _yaml_mapping(raw: bytes, where: str) -> dict:
    document = _yaml(raw, where)
    if not isinstance(document, dict):
        raise PackError(f"{where}: a pack is a mapping with name, version, ruleset, title and items")
    return document


def _yaml_entries(items: Any, where: str) -> list[Entries]:
    if items is None:
        return []
    if not isinstance(items, dict):
        raise PackError(f"{where}: items: map each category to a list of items")
    found = []
    for category, entries in items.items():
        if not isinstance(entries, list):
            raise PackError(f"{where}: items.{str(category)[:40]}: a list of items")
        found.append(Entries(str(category), [(where, entry) for entry in entries]))
    return found


def _csv_entries(raw: bytes, where: str, category: str) -> list[Entries]:
    """One category's items from a CSV: a header row of field names, one item per row."""
    reader = csv.reader(io.StringIO(_text(raw, where), newline=""), strict=True)
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise PackUnreadable(f"{where}: row {reader.line_num}: not valid CSV ({exc}); check the quotes") from None
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise PackError(f"{where}: row 1: the first row names the fields (key, name, …); the file has none")
    columns = [cell.strip() for cell in rows[0]]
    doubled = sorted({c for c in columns if columns.count(c) > 1 and c})
    if doubled:
        raise PackError(f"{where}: row 1: the column {', '.join(doubled)[:60]} is named twice; keep one")
    items, blanks, broken = [], {}, {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        item: dict[str, Any] = {}
        blank = blanks[len(items)] = set()
        problems = broken[len(items)] = []
        if len(row) > len(columns):
            problems.append(("(item)", f"{len(row)} cells but {len(columns)} columns; quote cells that hold commas"))
        for column, cell in zip(columns, row):
            cell = cell.strip()
            if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS):
                cell = cell[1:]  # what an export quoted so that no spreadsheet runs it
            if not cell or not column:
                blank.add(column)
                continue
            if len(cell) > MAX_CELL:
                problems.append((column, f"{len(cell)} characters; at most {MAX_CELL}"))
                continue
            try:
                _put(item, column.split("."), _cell(cell))
            except ValueError as exc:
                problems.append((column, str(exc)))
        items.append((f"{where} row {number}", item))
    return [Entries(category, items, blanks, broken)]


def _cell(text: str) -> Any:
    """A list or object is written as JSON; every other cell is text, which the schema converts."""
    if text[0] in "[{":
        try:
            return loads_json(text)
        except Unreadable as exc:
            raise ValueError(str(exc)) from None
        except ValueError:
            raise ValueError('not valid JSON; write a list as ["a", "b"] and an object as {"k": 1}') from None
    return text


def _put(item: dict, path: list[str], value: Any) -> None:
    node = item
    for part in path[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ValueError(f"'{part}' is given both as a value and as a group of columns; keep one")
    if path[-1] in node:
        raise ValueError("given twice (as a column and inside a group); keep one")
    node[path[-1]] = value


def unzip(raw: bytes, where: str) -> dict[str, bytes]:
    """The files at the top of an uploaded zip, refusing bombs, folders and more than the limits allow."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        members = [info for info in archive.infolist()
                   if not info.is_dir() and not any(info.filename.startswith(i) or info.filename.endswith(i)
                                                     for i in IGNORED_IN_ZIPS)]
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise PackUnreadable(f"{where}: not a readable zip ({exc})") from None
    if len(members) > MAX_ZIP_ENTRIES:
        raise PackUnreadable(f"{where}: {len(members)} files; a pack zip holds at most {MAX_ZIP_ENTRIES}")
    names = [info.filename for info in members]
    for name in names:  # an archiver keeps both; reading one would silently drop the other
        if names.count(name) > 1:
            first = names.index(name)
            raise PackUnreadable(f"{where}: '{name[:60]}' is in the zip twice (files {first + 1} and "
                                 f"{names.index(name, first + 1) + 1}); keep one")
    if sum(info.file_size for info in members) > MAX_UNZIPPED:
        raise PackUnreadable(f"{where}: unzips to more than {MAX_UNZIPPED:,} bytes; a pack is smaller")
    files: dict[str, bytes] = {}
    left = MAX_UNZIPPED
    for info in members:
        name = info.filename
        if "/" in name or "\\" in name or name.startswith("."):
            raise PackUnreadable(f"{where}: '{name[:60]}': files sit at the top of the zip, not in folders")
        try:
            with archive.open(info) as member:
                data = member.read(left + 1)  # declared sizes can lie: stop reading past the limit
        except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, OSError, NotImplementedError, RuntimeError,
                EOFError) as exc:  # each compression method fails in its own way on corrupt data
            raise PackUnreadable(f"{where}: '{name[:60]}' cannot be unzipped ({str(exc)[:100]})") from None
        left -= len(data)
        if left < 0:
            raise PackUnreadable(f"{where}: unzips to more than {MAX_UNZIPPED:,} bytes; a pack is smaller")
        files[name] = data
    return files


def _zip(raw: bytes, where: str) -> tuple[dict, list[Entries]]:
    files = unzip(raw, where)
    if "pack.yaml" not in files:
        raise PackError(f"{where}: pack.yaml: missing; put the pack's name, version, ruleset and title in a "
                        f"pack.yaml at the top of the zip")
    inside = f"{where}/pack.yaml"
    document = _yaml_mapping(files.pop("pack.yaml"), inside)
    entries = [_yaml_entries(document.get("items"), inside)]
    for name, data in sorted(files.items()):
        path = PurePosixPath(name)
        if path.suffix.lower() == ".csv":
            entries.append(_csv_entries(data, f"{where}/{name}", path.stem))
        elif path.suffix.lower() in (".yaml", ".yml"):
            listed = _yaml(data, f"{where}/{name}")
            if not isinstance(listed, list):
                raise PackError(f"{where}/{name}: a list of {path.stem} items")
            entries.append([Entries(path.stem, [(f"{where}/{name}", entry) for entry in listed])])
        else:
            raise PackError(f"{where}: '{name[:60]}': a pack zip holds pack.yaml and <category>.csv or .yaml "
                            f"files only")
    return document, entries


# --- versions and ranges ---------------------------------------------------------------------------

EXACT_VERSION = re.compile(r"^=?\s*v?([0-9]{1,6})(?:\.([0-9]{1,6}))?(?:\.([0-9]{1,6}))?$")
RANGE = re.compile(r"^(\*|=|\^|~|>=|)\s*(.*)$")


def semver(version: str, where: str, field: str = "version") -> str:
    """1.2 → 1.2.0; a version that is not numbers is refused, naming it."""
    found = EXACT_VERSION.match(version.strip())
    if found is None:
        raise PackError(f"{where}: field '{field}': '{version[:20]}' is not a version — write it as 1.2.0")
    return ".".join(part or "0" for part in found.groups())


def version_range(spec: str, where: str, field: str) -> tuple[str, tuple[int, ...]]:
    """A version range as (operator, lowest version): the subset of npm's ranges packs use (`*`, `=1.2.0` or
    `1.2.0` exactly, `^1.2.0`, `~1.2.0`, `>=1.2.0`; a version may leave out its last parts, `^1.0`)."""
    operator, wanted = RANGE.match(spec).groups()
    return (operator, ()) if operator == "*" else (operator, _numbers(semver(wanted.lstrip("v"), where, field)))


def matches(version: str, wanted: tuple[str, tuple[int, ...]]) -> bool:
    """Whether a loaded version meets a range."""
    operator, low = wanted
    if operator == "*":
        return True
    have = _numbers(version)
    if operator in ("", "="):
        return have == low
    if operator == ">=":
        return have >= low
    if operator == "~":  # the same minor version
        return have[:2] == low[:2] and have >= low
    # ^: the same left-most non-zero part
    major = next((i for i, part in enumerate(low) if part), 2)
    return have[:major + 1] == low[:major + 1] and have >= low


def newest(versions: list[str]) -> str:
    return max(versions, key=_numbers)


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def exact_extends(wanted: str, where: str, versions: Callable[[str], list[str]]) -> str:
    """The loaded pack `extends: name@range` names: the newest version its range allows, recorded exactly."""
    name, _, spec = wanted.partition("@")
    allowed = [v for v in versions(name) if matches(v, version_range(spec, where, "extends"))]
    if not allowed:
        raise PackError(f"{where}: extends: no loaded version of {name} meets {spec}; name a loaded pack")
    return f"{name}@{newest(allowed)}"


# --- checking ----------------------------------------------------------------------------------------

FIXES = {
    "int_parsing": "write a whole number", "int_type": "write a whole number",
    "int_from_float": "write a whole number", "float_parsing": "write a number", "float_type": "write a number",
    "bool_parsing": "write true or false", "bool_type": "write true or false",
    "list_type": 'write a list, in a CSV cell as JSON: ["a", "b"]',
    "dict_type": 'write an object, in a CSV cell as JSON: {"k": 1}',
    "model_type": 'write an object, in a CSV cell as JSON: {"k": 1}',
    "literal_error": "use one of the values named", "enum": "use one of the values named",
    "string_too_long": "shorten it", "string_too_short": "fill it in",
    "greater_than_equal": "raise it", "less_than_equal": "lower it", "too_long": "give fewer",
}


def _field_problems(exc: ValidationError, model: Any, csv_file: bool) -> list[tuple[str, str]]:
    """(field, what is wrong — the fix) for each of a model's errors."""
    fields = ", ".join(getattr(model, "model_fields", {}))
    found = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(part) for part in error["loc"]) or "(item)"
        kind = error["type"]
        if kind == "missing":
            fix = f"add a '{field}' column" if csv_file else f"add '{field}:'"
        elif kind == "extra_forbidden":
            fix = "remove it or fix its spelling" + (f"; this category's fields are: {fields}"
                                                      if len(error["loc"]) == 1 else "")
        elif kind == "string_pattern_mismatch" and error["loc"][-1] in ("key", "extends"):
            fix = ("keys are lower-case letters, digits, - and _ (up to 64)" if error["loc"][-1] == "key"
                   else "name a pack as name@1.2.3, or a range of its versions: name@^1.0, ~1.1, >=1.0")
        else:
            fix = FIXES.get(kind, "")
        found.append((field[:60], error["msg"][:160] + (f" — {fix}" if fix else "")))
    return found


def _assemble(document: dict, entries: list[list[Entries]], where: str, raw: bytes, rulesets: dict[str, Any],
              base: Callable[[str], Catalogue | None], path: str, strict: bool,
              versions: Callable[[str], list[str]] = lambda name: []) -> PackData:
    examples = document.get("examples") or []
    header_doc = {k: v for k, v in document.items() if k not in ("items", "examples")}
    try:
        header = PackHeader.model_validate(header_doc)
    except ValidationError as exc:
        raise PackError("\n".join(f"{where}: pack header: field '{field}': {problem}"
                                   for field, problem in _field_problems(exc, PackHeader, False))) from None
    ruleset = rulesets.get(header.ruleset)
    if ruleset is None:
        raise PackError(f"{where}: ruleset: unknown ruleset '{header.ruleset}'; use one of {', '.join(rulesets)}")
    items: dict[str, Any] = {}
    categories: dict[str, str] = {}
    if header.extends and not re.fullmatch(PACK_REF_PATTERN, header.extends):
        header = header.model_copy(update={"extends": exact_extends(header.extends, where, versions)})
    if header.extends:
        parent = base(header.extends)
        if parent is None:
            raise PackError(f"{where}: extends: no pack {header.extends} is loaded here; name a loaded pack")
        if parent.ruleset != header.ruleset:
            raise PackError(f"{where}: extends: {header.extends} is a {parent.ruleset} pack, this one is "
                            f"{header.ruleset}; extend a pack of the same ruleset")
        items, categories = dict(parent.items), dict(parent.categories)
    origins, dropped = _items(entries, ruleset, items, categories, header.extends)
    catalogue = Catalogue(header.ruleset, header.ref, items, categories, header.title, header.source)
    # An item naming one the pack lacks is left out, and then so is any item that named it, until none dangles. The
    # base's items are not looked at: its own load checked them.
    while dangling := [found for link in ruleset.pack_links for found in link.dangling(catalogue)
                       if found[0] in origins]:
        for key, place, problem in dangling:
            dropped.append(_skip(origins[key], categories[key], key, place, problem))
        for key in {key for key, _, _ in dangling}:
            del items[key], categories[key], origins[key]
        catalogue = Catalogue(header.ruleset, header.ref, items, categories, header.title, header.source)
    if dropped and (strict or not origins):  # the repo's packs must be perfect; a pack of nothing is no pack
        raise _refusal(dropped)
    if not isinstance(examples, list) or len(examples) > MAX_EXAMPLES:
        raise PackError(f"{where}: examples: a list of at most {MAX_EXAMPLES} builds")
    full_examples = []
    for position, example in enumerate(examples):
        if not isinstance(example, dict):
            raise PackError(f"{where}: example #{position + 1} is not a mapping")
        try:
            full_examples.append(ruleset.example_build(example, catalogue))
        except BuildError as exc:
            raise PackError(f"{where}: example #{position + 1} ({str(example.get('name', 'unnamed'))[:60]}): "
                            f"{exc}") from None
    stored = (sum(_stored_size(item.model_dump(mode="json")) for item in items.values()) + _stored_size(full_examples)
              + _stored_size([asdict(s) for s in dropped]))
    if stored > MAX_PACK_BYTES:
        raise PackError(f"{where}: {stored:,} bytes once stored{f' with {header.extends}' if header.extends else ''}; "
                        f"a pack is at most {MAX_PACK_BYTES:,} — split it into packs that extend one base")
    return PackData(header, catalogue, full_examples, hashlib.sha256(raw).hexdigest(), path, dropped)


def _stored_size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())


def _validated(adapter: TypeAdapter, entry: Any, blanks: set[str] | None) -> Any:
    """An item checked by its model. A CSV cell is text and an empty one means "not given", so where the model
    refuses that, the cell is read again as the model needs: a number for a field of fixed numbers (Knowledge
    level 1, 3 or 5), none for a field that must be given but may be empty (a Chipset's unprinted cost)."""
    try:
        return adapter.validate_python(entry)
    except ValidationError as exc:
        if blanks is None or not isinstance(entry, dict):
            raise
        fixed, changed = deepcopy(entry), False
        for error in exc.errors(include_url=False):
            loc = [str(step) for step in error["loc"]]
            if error["type"] == "missing" and ".".join(loc) in blanks:
                _set(fixed, loc, None)
                changed = True
            elif error["type"] in ("literal_error", "int_type", "float_type") and isinstance(error["input"], str):
                number = _number(error["input"])
                if number is not None:
                    _set(fixed, loc, number)
                    changed = True
        if not changed:
            raise
        return adapter.validate_python(fixed)


def _number(text: str) -> int | float | None:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return None


def _set(item: dict, loc: list[str], value: Any) -> None:
    node: Any = item
    for step in loc[:-1]:
        node = node[int(step)] if isinstance(node, list) else node.setdefault(step, {})
    if isinstance(node, list):
        node[int(loc[-1])] = value
    else:
        node[loc[-1]] = value


def _items(entries: list[list[Entries]], ruleset: Any, items: dict, categories: dict, base: str | None
           ) -> tuple[dict[str, str], list[Skipped]]:
    """Check every item of every category into `items` (after the base pack's). Returns where each added item came
    from, and the entries left out, each problem of each named."""
    inherited, origins, dropped, count = set(items), {}, [], 0
    for group in (e for part in entries for e in part):
        model = ruleset.categories.get(group.category)
        adapter = TypeAdapter(model) if model is not None else None
        for position, (origin, entry) in enumerate(group.items):
            count += 1
            if count > MAX_ITEMS:
                raise PackError(f"{origin}: more than {MAX_ITEMS} items; a pack holds at most {MAX_ITEMS}")
            written = entry.get(group.key_field) if isinstance(entry, dict) else None
            shown_id = str(written) if written not in (None, "") else f"#{position + 1}"
            problems = group.broken.get(position, [])  # cells the CSV reader could not read
            if adapter is None:
                problems = [("(item)", f"unknown category '{group.category[:40]}'; use one of "
                                       f"{', '.join(ruleset.categories)}")]
            elif not problems:
                try:
                    item = _validated(adapter, entry, group.blanks.get(position))
                    problems = _item_problems(item, items, categories, inherited, base)
                except ValidationError as exc:
                    problems = _field_problems(exc, model, ".csv" in origin)
            if problems:
                dropped += [_skip(origin, group.category, shown_id, field, problem) for field, problem in problems]
                continue
            items[item.key], categories[item.key], origins[item.key] = item, group.category, origin
    return origins, dropped


def _item_problems(item: Any, items: dict, categories: dict, inherited: set[str], base: str | None
                   ) -> list[tuple[str, str]]:
    """What keeps an item its model read from the pack: text that is no text, its size, a key already used."""
    try:
        check_tree(stored := item.model_dump(mode="json"))
    except Unreadable as exc:
        return [(exc.where, exc.message)]
    if (size := _stored_size(stored)) > MAX_ITEM_BYTES:
        return [("(item)", f"{size:,} bytes once stored; an item is at most {MAX_ITEM_BYTES:,} — shorten its "
                           f"texts or split it")]
    if item.key in items:
        owner = f"the base pack {base}" if item.key in inherited else f"a {categories[item.key]}"
        return [("key", f"'{item.key}' is already used by {owner} — rename one of them")]
    return []


def to_csv(items: list[dict[str, Any]]) -> str:
    """Items of one category as the CSV an upload reads back: nested objects as dotted columns, lists as JSON.
    Give items without their defaults (`exclude_defaults`), so an empty cell always means the default."""
    rows = [_flat_cells(item) for item in items]
    columns = list(dict.fromkeys(column for row in rows for column in row))
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows({column: _inert(cell) for column, cell in row.items()} for row in rows)
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def _inert(cell: str) -> str:
    """A cell a spreadsheet would run as a formula, quoted so it shows as text (`'=…`); numbers stay numbers. The
    upload reader takes the quote off again."""
    return f"'{cell}" if cell.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(cell) else cell


def _flat_cells(value: dict[str, Any], prefix: str = "") -> dict[str, str]:
    cells: dict[str, str] = {}
    for key, inner in value.items():
        if isinstance(inner, dict) and inner:
            cells.update(_flat_cells(inner, f"{prefix}{key}."))
        elif inner is None:
            cells[f"{prefix}{key}"] = ""
        elif isinstance(inner, (list, dict)):  # an empty one too: it differs from the field's default
            cells[f"{prefix}{key}"] = json.dumps(inner, ensure_ascii=False)
        elif isinstance(inner, bool):
            cells[f"{prefix}{key}"] = "true" if inner else "false"
        else:
            cells[f"{prefix}{key}"] = str(inner)
    return cells
