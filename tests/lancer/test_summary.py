"""LANCER as text to paste (Kind.summary, /s/<id>.txt and .md): a pilot on foot, their mech skills, triggers, talents,
licences, CORE bonuses and gear, and each mech's frame, statistics, mounts and systems; a lance's saved pilots by their
links, driven by the starter pack's example pilots."""
import pytest

from builder import store
from catalogue.loader import latest_pack
from catalogue.rulesets.lancer import construction as c

pytestmark = pytest.mark.django_db
SHORT = 1500  # characters: a chat message
ROMAN = {1: "I", 2: "II", 3: "III"}
ON_FOOT = ("grit", "pilot_hp", "pilot_armor", "pilot_defence", "pilot_speed")


def examples():
    return [dict(e) for e in latest_pack("lancer", "pilot").examples if e["kind"] == "pilot"]


def example(callsign):
    return next(e for e in examples() if e["callsign"] == callsign)


def summarised(document):
    checked = store.check(document)
    return checked, checked.kind.summarise(checked.build, checked.catalogue, checked.report, checked.linked)


def lance_of(builds, name="Red Lance"):
    pilot = examples()[0]
    return {"format": pilot["format"], "ruleset": "lancer", "kind": "lance", "pack": pilot["pack"], "name": name,
            "pilots": [{"build": b.share_id} for b in builds]}


def test_a_pilot_gives_grit_and_their_stats_on_foot_as_their_report_has_them(packs):
    for document in examples():
        checked, summary = summarised(document)
        stats = checked.report.stats
        assert summary.stats == tuple((stats[key].label, stats[key].value) for key in ON_FOOT)


def test_a_pilot_lists_mech_skills_triggers_talents_licences_core_bonuses_and_gear(packs):
    for document in examples():
        checked, summary = summarised(document)
        parts, items = dict(summary.parts), checked.catalogue.items
        assert parts["Mech skills"] == ", ".join(f"{s.title()} {document['hase'].get(s, 0)}" for s in c.HASE)
        assert parts["Skill triggers"] == ", ".join(f"{items[k].name} +{2 * rank}"
                                                    for k, rank in document["triggers"].items())
        for where, field in (("Talents", "talents"), ("Licences", "licences")):
            assert parts.get(where) == (", ".join(f"{items[k].name} {ROMAN[rank]}"
                                                  for k, rank in document.get(field, {}).items()) or None)
        for where, field in (("CORE bonuses", "core_bonuses"), ("Pilot gear", "gear")):
            assert parts.get(where) == (", ".join(items[k].name for k in document.get(field, [])) or None)
    assert "Licences" not in dict(summarised(example("SPARROW"))[1].parts)  # LL0: none yet
    assert dict(summarised(example("HALYARD"))[1].parts)["Licences"] == "Sabrejay II, Wren I"


def test_the_beta_fifth_mech_skill_is_shown_where_it_is_played(packs):
    document = example("HALYARD")
    beta = summarised({**document, "house_rules": {"mech-skills": "beta-five"}})[1]
    assert dict(beta.parts)["Mech skills"].endswith(", Targeting 0")
    assert "Targeting" not in dict(summarised(document)[1].parts)["Mech skills"]


def test_each_mech_gives_its_frame_statistics_sp_mounts_and_systems_as_the_report_has_them(packs):
    for document in examples():
        checked, summary = summarised(document)
        parts, items = dict(summary.parts), checked.catalogue.items
        for mech, detail in zip(document["mechs"], checked.report.detail.mechs):
            stats = parts[f"{mech['name']} ({detail.frame})"]
            for key, label in (("hp", "HP"), ("armor", "Armor"), ("evasion", "Evasion"), ("edef", "E-Defense"),
                               ("speed", "Speed"), ("heatcap", "Heat Cap")):
                assert f"{label} {detail.stats[key].value}" in stats.split(", "), (mech["name"], label)
            assert stats.endswith(f"SP {detail.sp_used}/{detail.stats['sp'].value}")
            mounts = [(where, what) for where, what in summary.parts
                      if where.startswith(f"{mech['name']} ") and " mount " in where]
            assert len(mounts) == sum(bool(m["weapons"]) or m.get("bracing", False) for m in mech["mounts"])
            held = " / ".join(what for _, what in mounts)
            for mount in mech["mounts"]:
                for weapon, mod in zip(mount["weapons"], mount.get("mods", []) + [None] * 3):
                    assert items[weapon].name + (f" + {items[mod].name}" if mod else "") in held
            assert parts[f"{mech['name']} systems"] == ", ".join(items[k].name for k in mech["systems"])
    parts = dict(summarised(example("HALYARD"))[1].parts)
    assert parts["Kingfisher Main/Aux mount 1"] == "Needle Rifle + Hairtrigger, Falchion Blade"
    assert "Thimble Heavy mount 3" not in parts  # left empty
    braced = dict(summarised(example("BELLTOWER"))[1].parts)
    assert braced["Gravestone Choir Main/Aux mount 2"] == "left empty to brace the Superheavy"


def saved_pilots():
    return [store.create(store.check(document)) for document in examples()]


def test_a_lance_lists_each_saved_pilot_by_share_id_with_callsign_ll_and_mechs(client, packs):
    pilots = saved_pilots()
    checked, summary = summarised(lance_of(pilots))
    assert [(m.name, m.share_id) for m in summary.members] == [(p.name, p.share_id) for p in pilots]
    for member, pilot in zip(summary.members, pilots):
        own = store.check(pilot.document).report.detail.mechs
        document = pilot.document
        assert member.line == f"“{document['callsign']}” · LL{document['ll']} · " + \
            ", ".join(f"{mech['name']} ({detail.frame})" for mech, detail in zip(document["mechs"], own))
    stats = checked.report.stats
    assert summary.stats == tuple((stats[k].label, stats[k].value) for k in ("pilots", "mechs", "ll"))
    assert dict(summary.stats)["Mechs"] == sum(len(p.document["mechs"]) for p in pilots)


def test_a_pilot_no_longer_saved_is_named_without_a_link_and_does_not_crash(client, packs):
    pilots = saved_pilots()
    lance = store.create(store.check(lance_of(pilots)))
    gone = pilots[1].share_id
    pilots[1].delete()
    _, summary = summarised(lance.document)
    assert summary.members[1].name == f"missing pilot {gone}" and summary.members[1].share_id == ""
    assert [m.share_id for m in summary.members] == [pilots[0].share_id, "", pilots[2].share_id]
    plain = client.get(f"/s/{lance.share_id}.txt").content.decode()
    assert f"  - missing pilot {gone}\n" in plain and f"/s/{gone}/" not in plain and "HP-LINK" in plain
    assert f"http://testserver/s/{pilots[0].share_id}/" in plain
