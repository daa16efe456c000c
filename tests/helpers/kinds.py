"""Documents of every registered kind, for the contract tests: the packs' examples, and builds whose links name
saved builds of the kinds they expect."""
from __future__ import annotations

from builder import store
from builder.kinds import PAGES
from builder.models import Build
from catalogue.loader import latest_pack


def documents(ruleset: str, kind: str) -> list[dict]:
    """The kind's pack examples, or its blank document where the pack has none."""
    pack = latest_pack(ruleset, kind)
    examples = [dict(e) for e in pack.examples if e.get("kind") == kind]
    return examples or [PAGES[ruleset, kind].blank(pack.ref)]


def saved(document: dict) -> Build:
    return store.create(store.check(document))


def linking(ruleset: str, kind: str) -> tuple[dict, list[Build]]:
    """The kind's first document with each of its links naming a saved build of the kind the link expects (a
    roster's member, an Anvil's Pilot), and those builds."""
    document, named = documents(ruleset, kind)[0], []
    for link in PAGES[ruleset, kind].kind.links:
        named.append(saved(documents(ruleset, link.kind)[0]))
        put_at(document, link.steps(), named[-1].share_id)
    return document, named


def put_at(document: dict, steps: list[tuple[str, bool]], value: str) -> None:
    """Set a link field to `value`, in a list element of its own (an example's elements may be something else:
    a company's written-in unit)."""
    (name, each), rest = steps[0], steps[1:]
    if each:
        items = document.setdefault(name, []) or document[name]
        if rest:
            items.append({})
            put_at(items[-1], rest, value)
        else:
            items.append(value)
    elif rest:
        put_at(document.setdefault(name, {}), rest, value)
    else:
        document[name] = value
