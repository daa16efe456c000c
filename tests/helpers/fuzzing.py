"""What the property-based fuzzing (Hypothesis) shares: the example budget (FUZZ_EXAMPLES, fixed so CI time stays
bounded), every registered kind, hostile texts, numbers and nested values, each kind's documents and the places in
them, and a builder's form as a browser would post it."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from builder.kinds import PAGES
from catalogue.loader import latest_pack
from tests.helpers.html_forms import read_form

BUDGET = int(os.environ.get("FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=BUDGET, deadline=None, derandomize=not os.environ.get("FUZZ_EXAMPLES"),
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])
KINDS = sorted(PAGES)
IDS = [f"{r}-{k}" for r, k in KINDS]

texts = st.one_of(st.text(max_size=40), st.sampled_from(["²", "٣", "-1", "1e9", "NaN", "<script>x</script>",
                                                          "\x00", "'; DROP TABLE builder_build; --", "x" * 5000]))
numbers = st.one_of(st.integers(min_value=-(2 ** 70), max_value=2 ** 70), st.floats(allow_nan=True),
                    st.sampled_from([0, -1, 10 ** 18, float("inf")]))
leaves = st.one_of(st.none(), st.booleans(), numbers, texts)
values = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)


def documents(ruleset: str, kind: str) -> list[dict]:
    pack = latest_pack(ruleset, kind)
    return [dict(e) for e in pack.examples if e.get("kind") == kind] or [PAGES[ruleset, kind].blank(pack.ref)]


def paths(node, prefix=()):
    """Every place in a JSON document: a key of an object or an index of a list."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield prefix + (key,)
            yield from paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield prefix + (index,)
            yield from paths(value, prefix + (index,))


def _at(node, place):
    for step in place:
        node = node[step]
    return node


def builder_form(client, ruleset: str, kind: str) -> tuple[str, dict[str, str], list[str]]:
    """A new builder's address and its form's fields (from its first example when it has one)."""
    url = f"/new/{ruleset}/{kind}/"
    example = next((i for i, e in enumerate(latest_pack(ruleset, kind).examples) if e.get("kind") == kind), None)
    fields, _ = read_form(client.get(url + ("" if example is None else f"?example={example}")).content.decode())
    fields = {name: values_[0] for name, values_ in fields.items() if name != "csrfmiddlewaretoken"}
    return url, fields, sorted(fields)
