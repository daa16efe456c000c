"""What the games' table tests share: a kind's tracks are well formed, and the consequences are picked out by rule."""
from __future__ import annotations


def well_formed(tracks) -> None:
    """Keys unique, each start within its range, a choice's range its options, and each track's rule ID in its note
    (the table shows the note; the rule ID says where it comes from)."""
    keys = [t.key for t in tracks]
    assert tracks and len(keys) == len(set(keys))
    for t in tracks:
        assert t.low <= t.start <= t.high, t
        assert not t.options or t.high == len(t.options) - 1, t
        assert t.rule and t.rule in t.note, t


def rules_of(consequences) -> list[str]:
    return [c.rule for c in consequences]


def one(consequences, rule: str):
    """The one consequence of this rule."""
    found = [c for c in consequences if c.rule == rule]
    assert len(found) == 1, consequences
    return found[0]
