"""DARK METAL as text to paste (Kind.summary, /s/<id>.txt and .md): a Squad Leader's hit points and body, each trait's
level and pool, Knowledge Skills, what is worn, installed, held, attached and carried, and its allies, driven by the
rulebook pack's examples."""
import pytest

from builder import store
from catalogue.loader import latest_pack
from catalogue.rulesets.darkmetal.costs import level
from catalogue.rulesets.spec import Summary

pytestmark = pytest.mark.django_db
SHORT = 1500  # characters: a chat message
BODY = ("bhp", "ahp", "armor", "move", "power", "bulk")


def examples():
    return [dict(e) for e in latest_pack("darkmetal", "leader").examples]


def example(name):
    return next(e for e in examples() if e["name"] == name)


def summarised(document):
    checked = store.check(document)
    return checked, checked.kind.summarise(checked.build, checked.catalogue, checked.report, checked.linked)


def names(checked, keys):
    return [checked.catalogue.items[key].name for key in keys]


def test_a_leader_gives_its_hit_points_and_body_as_its_report_has_them(packs):
    for document in examples():
        checked, summary = summarised(document)
        stats = checked.report.stats
        assert summary.stats == tuple((stats[key].label, stats[key].value) for key in BODY)


def test_each_trait_reads_its_level_bought_what_mes_and_armour_add_and_its_pool(packs):
    for document in examples():
        checked, summary = summarised(document)
        traits = dict(summary.parts)["Traits"].split(", ")
        rows = checked.report.detail.traits
        assert len(traits) == len(rows) == 6
        for said, row in zip(traits, rows):
            assert said.startswith(f"{row.name} {row.base}") and said.endswith(f"({row.pool}d10)"), said
            assert (" −" in said or " +" in said) == bool(row.modifier), said
    checked, summary = summarised(example("Moroc"))
    athletics = next(row for row in checked.report.detail.traits if row.trait == "ath")
    assert athletics.modifier < 0  # Combat Armor's Athletics penalty
    assert f"Athletics {athletics.base} −{level(round(-athletics.modifier * 2))} ({athletics.pool}d10)" in \
        dict(summary.parts)["Traits"]


def test_knowledge_skills_are_listed_at_the_level_the_report_gives_and_left_out_when_none(packs):
    for document in examples():
        checked, summary = summarised(document)
        skills = checked.report.detail.skills
        assert dict(summary.parts).get("Knowledge") == (", ".join(f"{s.name} {s.level}" for s in skills) or None)
    assert "Knowledge" not in dict(summarised(example("Brakk"))[1].parts)


def test_armour_mes_hands_attach_points_and_backpack_sit_where_the_leader_has_them(packs):
    for document in examples():
        checked, summary = summarised(document)
        parts, items = dict(summary.parts), checked.catalogue.items
        assert parts["Armour"] == items[document["armor"]["item"]].name
        for where, field, words in (("Hands", "hands", ", ".join), ("Backpack", "backpack", Summary.counted)):
            assert parts.get(where) == (words(names(checked, [p["item"] for p in document.get(field, [])]))
                                        or None), (document["name"], where)
        for category, where in (("cyber", "Cyber"), ("splice", "Splices")):
            bought = [m["item"] for m in document.get("modifications", [])
                      if checked.catalogue.categories[m["item"]] == category]
            assert parts.get(where) == (", ".join(names(checked, bought)) or None), (document["name"], where)
        attached = parts.get("Attach Points", "")
        for pick in document.get("attach", []):
            points = "/".join(f"AP{n}" for n in pick["at"])
            assert f"{items[pick['item']].name} ({points})" in attached
    assert dict(summarised(example("Vesper"))[1].parts)["Cyber"] == "Eye Replacement, Targeting Network"
    assert dict(summarised(example("Brakk"))[1].parts)["Attach Points"] == "Power Shotgun (AP3), Armor Melee (AP1)"


def test_dm_r18_an_implant_sys_armour_negates_says_so(packs):
    checked, summary = summarised({**example("Vesper"), "armor": {"item": "combat-armor"}})
    negated = checked.report.detail.negated
    assert negated and checked.report.stats["systems"].value > 0
    cyber = dict(summary.parts)["Cyber"]
    for name in names(checked, [m["item"] for m in example("Vesper")["modifications"]]):
        assert (f"{name} (negated by Sys)" in cyber) == (name in negated), name
    assert "negated" not in dict(summarised(example("Vesper"))[1].parts)["Cyber"]  # an EvoSuit has no Sys


def test_each_ally_is_a_member_with_its_template_hire_price_and_gear(packs):
    for document in examples():
        checked, summary = summarised(document)
        items = checked.catalogue.items
        assert [m.name for m in summary.members] == [a["name"] for a in document["allies"]]
        for member, ally, cost in zip(summary.members, document["allies"], checked.report.detail.ally_costs):
            assert member.share_id == ""  # hired from the pack, not a saved build
            assert member.line.startswith(f"{items[ally['template']].name} ({cost.hire_rep} Rep)"), member.line
            for key in ally.get("weapons", []) + ally.get("items", []):
                assert items[key].name in member.line
    patch = summarised(example("Brakk"))[1].members[1]
    assert patch.line == "Rookie Medic (75 Rep) · Standard Rifle, Trauma Kit"


def test_an_ally_paid_in_arp_left_on_the_ship_or_knocked_out_says_so(packs):
    document = example("Brakk")
    document["allies"][0] = {**document["allies"][0], "paid_with": "arp", "deployed": False}
    document["allies"][1] = {**document["allies"][1], "knocked_out": 0}
    checked, summary = summarised(document)
    cost, record = checked.report.detail.ally_costs[0], checked.report.detail.ally_records[1]
    assert summary.members[0].line.startswith(f"Standard Infantry ({cost.hire_arp} ARP) · ")
    assert summary.members[0].line.endswith(" · on the ship")
    assert record.status == "out for this campaign"
    assert summary.members[1].line.endswith(f" · {record.status}") and "on the ship" not in summary.members[1].line


def test_dm_r71_injuries_are_listed_only_while_the_injury_rule_is_played(packs):
    checked, _ = summarised(example("Moroc"))
    injury = checked.catalogue.of("injury")[0]
    played = {**example("Moroc"), "injury_rule": True, "injuries": [{"item": injury.key}]}
    assert dict(summarised(played)[1].parts)["Injuries"] == injury.name
    assert "Injuries" not in dict(summarised(example("Moroc"))[1].parts)
