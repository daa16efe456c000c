"""Reading builder forms. A field that does not parse is named in a BuildError, which the views answer with 422."""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from catalogue.rulesets.base import BuildError

# ASCII only: str.isdigit() and int() also take '²' or '٣', which are no number a player typed.
_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")
_SHARE_ID = re.compile(r"(?:/s/)?([A-Za-z0-9_-]{4,32})/?(?:\.(?:json|pdf))?$")


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


def choice(post, name: str, choices: Collection[str], default: str | None = None) -> str | None:
    """One of `choices` from a form field; blank gives `default`."""
    value = str(post.get(name, "") or "")
    if not value:
        return default
    if value not in choices:
        raise problem(name, f"{value[:40]!r} is not one of {', '.join(list(choices)[:12])}")
    return value


def share_id(text: Any, path: str) -> str | None:
    """A share id from a pasted share link or a bare id; blank means none."""
    text = str(text or "").strip()
    if not text:
        return None
    found = _SHARE_ID.search(text)
    if found is None:
        raise problem(path, f"{text[:60]!r} is not a share link")
    return found.group(1)
