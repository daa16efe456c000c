"""Reading JSON and YAML that someone else wrote (uploads, request bodies, imports), within bounds.

The standard readers trust their input in ways an upload can abuse: a YAML alias expands to a copy of what it
names, so a few hundred bytes can become gigabytes; an integer of thousands of digits costs quadratic time to
convert and past 4,300 digits raises a bare ValueError; nesting has no limit until serialisation breaks; and a
NUL character, NaN or Infinity reads fine and then PostgreSQL refuses to store it. The readers here refuse each of
these up front, naming where, as a ValueError subclass the callers already answer as unreadable input.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

import yaml

MAX_DIGITS = 30  # no count, cost or stat in any game comes near; a longer number is a mistake or an attack
MAX_DEPTH = 40  # a pack item or a build nests a handful of levels; a cap far above that
# YAML values in one file, aliases expanded: 25 times the repo's largest pack (3,946). PyYAML holds each as a node
# of some hundreds of bytes while it builds the file, so this also bounds its memory.
MAX_NODES = 100_000


class Unreadable(ValueError):
    """Input refused before it was built: `where` names the place (a JSON path or a YAML line)."""

    def __init__(self, message: str, where: str = ""):
        # `where` repeats the input's own keys: shown on pages, it must be text even when they were not.
        where = as_text(where, 80)
        self.where, self.message = where, message
        super().__init__(f"{self.where}: {message}" if where else message)

    def problem(self, within: str = "(document)") -> dict[str, str]:
        """As one of a BuildError's problems; `within` names the place when the reader did not."""
        return {"path": self.where or within, "message": self.message}


def _whole(text: str) -> int:
    if len(text.lstrip("+-")) > MAX_DIGITS:
        raise Unreadable(f"a number of {len(text.lstrip('+-')):,} digits; numbers here have at most {MAX_DIGITS}")
    return int(text)


def loads_json(text: str | bytes) -> Any:
    """`json.loads` with numbers of at most MAX_DIGITS digits, at most MAX_DEPTH levels and no NUL in a string.
    Raises json.JSONDecodeError for malformed JSON and Unreadable for the bounds (both ValueErrors)."""
    try:
        value = json.loads(text, parse_int=_whole)
    except RecursionError:
        raise Unreadable(f"nested more than {MAX_DEPTH} levels deep") from None
    check_tree(value)
    return value


# Text that is no text: NUL (PostgreSQL refuses it) and lone surrogates (a JSON "\ud800" escape: no UTF-8 encodes it,
# so the page or the database that meets it fails).
_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")
_TOO_BIG = 10 ** MAX_DIGITS


def as_text(text: str, limit: int) -> str:
    """At most `limit` characters of `text`, each that is no text (`_NOT_TEXT`) written as its escape: input's own
    words repeated in a message are shown and stored, so they must be text even when the input was not."""
    return _NOT_TEXT.sub(lambda found: f"\\u{ord(found.group()):04x}", text[:limit])


def check_tree(value: Any) -> None:
    """Refuse a decoded value that is not plain JSON data: nested more than MAX_DEPTH levels, a key or string that
    is not text (`_NOT_TEXT`), a number of more than MAX_DIGITS digits or not finite (JSON has no NaN or Infinity,
    and PostgreSQL stores neither), or a value of another type (YAML's dates, sets and binary)."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        node, path, depth = stack.pop()
        where = path or "(document)"
        if depth > MAX_DEPTH:
            raise Unreadable(f"nested more than {MAX_DEPTH} levels deep", where)
        if isinstance(node, str):
            if _NOT_TEXT.search(node):
                raise Unreadable("holds a character that is not text (NUL, or half of a UTF-16 pair); remove it",
                                 where)
        elif isinstance(node, bool) or node is None:
            continue
        elif isinstance(node, int):
            if abs(node) >= _TOO_BIG:
                raise Unreadable(f"a number of more than {MAX_DIGITS} digits; numbers here have at most {MAX_DIGITS}",
                                 where)
        elif isinstance(node, float):
            if not math.isfinite(node):
                raise Unreadable(f"{node} is not a number that can be stored; write a finite number", where)
        elif isinstance(node, dict):
            for key, inner in node.items():
                if not isinstance(key, (str, int, float, bool)) or isinstance(key, str) and _NOT_TEXT.search(key):
                    raise Unreadable("a key that is not text", where)
                stack.append((inner, f"{path}.{key}" if path else str(key), depth + 1))
        elif isinstance(node, list):
            stack.extend((inner, f"{path}[{i}]", depth + 1) for i, inner in enumerate(node))
        else:
            raise Unreadable(f"a {type(node).__name__} value is not read here; write text, a number, a list or a "
                             f"mapping", where)


class _Loader(yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader):  # type: ignore[misc]
    """YAML's safe loader with integers bounded like JSON's (YAML 1.1 also reads 1:20:30 as base 60), and dates
    kept as the text they were written as: a pack is JSON data once stored."""


def _yaml_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = loader.construct_scalar(node)
    if len(text) > MAX_DIGITS + 2:
        raise Unreadable(f"a number of {len(text):,} characters; numbers here have at most {MAX_DIGITS} digits",
                         f"line {node.start_mark.line + 1}")
    return yaml.SafeLoader.construct_yaml_int(loader, node)


_Loader.add_constructor("tag:yaml.org,2002:int", _yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node))


def load_yaml(text: str) -> Any:
    """One YAML document, its events measured before anything is built: as every alias (*name) expands to what it
    names, at most MAX_NODES values and MAX_DEPTH levels, and no alias inside what it names. Raises
    yaml.YAMLError for malformed YAML and Unreadable for the bounds."""
    sizes: dict[str, tuple[int, int]] = {}  # anchor -> (values, levels) of what it names, expanded
    open_: list[list] = []  # the collections being read: [anchor, values so far, deepest level below]
    total = 0

    def count(values: int, levels: int, event: Any) -> None:
        nonlocal total
        total += values
        if total > MAX_NODES:
            raise Unreadable(f"more than {MAX_NODES:,} values, aliases expanded; a pack is smaller", _line(event))
        if len(open_) + levels > MAX_DEPTH:
            raise Unreadable(f"nested more than {MAX_DEPTH} levels deep", _line(event))
        if open_:  # what a collection holds reaches its parent when it ends
            open_[-1][1] += values
            open_[-1][2] = max(open_[-1][2], levels)

    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent):
            if any(collection[0] == event.anchor for collection in open_):
                raise Unreadable(f"the alias *{event.anchor[:40]} sits inside what it names, so it never ends",
                                 _line(event))
            count(*sizes.get(event.anchor, (1, 0)), event)  # an unknown one is refused by the loader below
        elif isinstance(event, yaml.ScalarEvent):
            count(1, 0, event)
            if event.anchor:
                sizes[event.anchor] = (1, 0)
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            open_.append([event.anchor, 1, 0])
            count(0, 0, event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            anchor, values, levels = open_.pop()
            if anchor:
                sizes[anchor] = (values, levels + 1)
            total -= values - 1  # counted already as they were read
            count(values, levels + 1, event)
    value = yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader over input measured above
    check_tree(value)
    return value


def _line(event: Any) -> str:
    return f"line {event.start_mark.line + 1}"
