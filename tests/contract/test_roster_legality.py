"""HP-MEMBER, through the contract: every roster kind (a kind whose owned links list members) is legal only when
each member is. A member with errors is an HP-MEMBER error at its row naming the rules it breaks, and a table's
severity house rule makes it a warning."""
from __future__ import annotations

import pytest

from builder import store
from builder.kinds import page_for
from catalogue.loader import latest_pack
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.spec import Link

ROSTERS = [(ruleset, kind, link) for ruleset in ACTIVE.values() for kind in ruleset.kinds for link in kind.links
           if link.owned and "[]" in link.path]


def with_member(document: dict, link: Link, share_id: str) -> dict:
    """The roster's document with one member linked at the link's path, in its first place of each list."""
    node, steps = document, link.steps()
    for name, each in steps[:-1]:
        if each:
            listed = node.setdefault(name, [])
            if not listed:
                listed.append({})
            node = listed[0]
        else:
            node = node.setdefault(name, {})
    name, each = steps[-1]
    if each:
        node.setdefault(name, []).append(share_id)
    else:
        node[name] = share_id
    return document


def roster_with_broken_member(ruleset, kind, link, house_rules=None):
    member_pack = latest_pack(ruleset.key, link.kind)
    member = store.create(store.check(page_for(ruleset.key, link.kind).blank(member_pack.ref)))
    assert not member.legal  # a blank build breaks its kind's rules: the member this test needs
    roster = page_for(ruleset.key, kind.key).blank(latest_pack(ruleset.key, kind.key).ref)
    document = with_member(roster, link, member.share_id)
    if house_rules:
        document["house_rules"] = house_rules
    return store.check(document), member


def test_every_roster_kind_is_covered():
    assert {(r.key, k.key) for r, k, _ in ROSTERS} == {("ember", "squad"), ("lancer", "lance"),
                                                      ("megamercs", "company"), ("metallurgent", "squad")}


@pytest.mark.parametrize("ruleset, kind, link", ROSTERS, ids=lambda v: getattr(v, "key", None) or v.path)
def test_hp_member_a_roster_with_an_illegal_member_is_illegal(packs, ruleset, kind, link):
    checked, member = roster_with_broken_member(ruleset, kind, link)
    [issue] = [i for i in checked.report.issues if i.code == "HP-MEMBER"]
    assert issue.severity == "error" and issue.message.startswith(f"{member.name} breaks ")
    assert issue.path.split(".")[0].endswith("[0]")  # at the member's row
    assert not checked.report.legal and store.verdict(checked) == "illegal"


@pytest.mark.parametrize("ruleset, kind, link", ROSTERS, ids=lambda v: getattr(v, "key", None) or v.path)
def test_hp_member_the_table_may_let_an_illegal_member_play(packs, ruleset, kind, link):
    checked, _ = roster_with_broken_member(ruleset, kind, link, {"severity": {"HP-MEMBER": "warning"}})
    assert [i.severity for i in checked.report.issues if i.code == "HP-MEMBER"] == ["warning"]
    assert not [i for i in checked.report.errors if i.code == "HP-MEMBER"]
