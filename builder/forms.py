"""Reading builder forms. A field that does not parse is named in a BuildError, which the views answer with 422."""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from catalogue.rulesets.base import SHARE_ID, BuildError
from catalogue.rulesets.reading import Unreadable, loads_json

# ASCII only: str.isdigit() and int() also take '²' or '٣', which are no number a player typed.
_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")
INDEX = re.compile(r"[0-9]{1,4}")  # a row of a list, as buttons and pickers name it
_SHARE_ID = re.compile(rf"(?:/s/)?({SHARE_ID})/?(?:\.(?:json|pdf))?$")


def problem(path: str, message: str) -> BuildError:
    return BuildError([{"path": path, "message": message}])


def whole_number(post, name: str, default: int | None = None, low: int | None = None,
                 high: int | None = None) -> int:
    """A whole number from a form field; blank gives `default` (or is refused when there is none)."""
    value = str(post.get(name, "") or "").strip()
    if not value:
        if default is None:
            raise problem(name, "a whole number is required")
        return default
    if not _WHOLE.fullmatch(value):
        raise problem(name, f"expected a whole number, got {value[:20]!r}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        raise problem(name, f"must be {'' if low is None else low} to {'' if high is None else high}, got {number}")
    return number


def action(post) -> tuple[str, str]:
    """The pressed button's verb and what it acts on: `remove:3` → ("remove", "3"); no button → ("", "")."""
    verb, _, argument = str(post.get("action", "") or "").partition(":")
    return verb, argument


def row(text: str, rows: list, path: str = "action") -> int:
    """Which of `rows` an action button names by its position; anything else is refused, naming the field (a stale
    page, or a tampered one: removing the wrong row would be worse)."""
    if not INDEX.fullmatch(text) or int(text) >= len(rows):
        raise problem(path, f"{text[:20]!r} names no row here; there are {len(rows)} (reload the page)")
    return int(text)


class Row:
    """One repeated row of a form (`gear-3-item`, `gear-3-mount`, …), read by its own field names: the readers above,
    each naming the row's field in what it refuses."""

    def __init__(self, post, prefix: str, index: int):
        self.post, self.prefix, self.index = post, prefix, index

    def name(self, field: str) -> str:
        return f"{self.prefix}-{self.index}-{field}" if field else f"{self.prefix}-{self.index}"

    def get(self, field: str = "", default: str = "") -> str:
        return str(self.post.get(self.name(field), default) or default)

    def getlist(self, field: str) -> list[str]:
        return [str(value) for value in self.post.getlist(self.name(field))]

    def checked(self, field: str) -> bool:
        return self.post.get(self.name(field)) == "on"

    def number(self, field: str, default: int | None = None, low: int | None = None, high: int | None = None) -> int:
        return whole_number(self.post, self.name(field), default, low, high)

    def choice(self, field: str, choices: Collection[str], default: str | None = None) -> str | None:
        return choice(self.post, self.name(field), choices, default)


def rows(post, prefix: str, limit: int, count: str = "") -> list[Row]:
    """The form's repeated rows `<prefix>-<i>-…`, as many as its `<prefix>-count` field (or `count`) says, at most
    `limit`: the one way every builder reads a list it drew."""
    return [Row(post, prefix, i) for i in range(whole_number(post, count or f"{prefix}-count", 0, 0, limit))]


def json_field(post, name: str, default: Any, longest: int = 20_000) -> Any:
    """A field the page wrote as JSON (what the form carries along unchanged); blank gives `default`."""
    value = str(post.get(name, "") or "")
    if not value:
        return default
    if len(value) > longest:
        raise problem(name, "too long")
    try:
        return loads_json(value)
    except Unreadable as exc:
        raise problem(name, str(exc)) from None
    except ValueError:
        raise problem(name, "not valid JSON") from None


def choice(post, name: str, choices: Collection[str], default: str | None = None) -> str | None:
    """One of `choices` from a form field; blank gives `default`."""
    value = str(post.get(name, "") or "")
    if not value:
        return default
    if value not in choices:
        raise problem(name, f"{value[:40]!r} is not one of {', '.join(list(choices)[:12])}")
    return value


def roster_line(value: str, path: str, written: str, longest: int) -> dict[str, Any]:
    """A roster line's hidden field: `build:<share id>`, or a build written in as JSON under `written:` (a
    company's starter unit, a squad's example Mech)."""
    kind, _, ref = str(value).partition(":")
    if kind == "build" and ref:
        return {"build": ref}
    if kind == written and 0 < len(ref) <= longest:
        try:
            return {written: loads_json(ref)}
        except Unreadable as exc:
            raise problem(path, f"the written-in build: {exc}") from None
        except ValueError:
            raise problem(path, "the written-in build is not valid JSON") from None
    raise problem(path, f"{str(value)[:40]!r} is not a roster line")


def share_id(text: Any, path: str) -> str | None:
    """A share id from a pasted share link or a bare id; blank means none."""
    text = str(text or "").strip()
    if not text:
        return None
    found = _SHARE_ID.search(text.partition("?")[0].partition("#")[0])  # a reveal link's token is no share id
    if found is None:
        raise problem(path, f"{text[:60]!r} is not a share link")
    return found.group(1)


MAX_OVERRIDES = 40


def house_rules(post, options) -> dict[str, Any]:
    """The House rules panel's choices: only what differs from the rulebook is kept."""
    chosen: dict[str, Any] = {}
    for key, option in options.items():
        field = f"hr-{key}"
        if option.kind == "parameter":
            value = whole_number(post, field, option.default, option.low, option.high)
        else:
            value = choice(post, field, option.choices, option.default)
        if value != option.default:
            chosen[key] = value
    severity = {}
    for i in range(min(MAX_OVERRIDES, whole_number(post, "hr-severity-count", 0, 0, MAX_OVERRIDES))):
        rule, level = str(post.get(f"hr-severity-{i}-rule", "")), str(post.get(f"hr-severity-{i}", ""))
        if rule and level and level != "rulebook":
            severity[rule[:20]] = level[:10]
    if severity:
        chosen["severity"] = severity
    return chosen
