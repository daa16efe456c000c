"""LANCER at the table: the tracks of the starter pack's example pilots, from their reports; what the rules draw from
their values, by rule ID; and the pilot the table leaves for the preview (a Limited weapon spent no longer fires)."""
import pytest

from builder import store
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.lancer import construction as c
from catalogue.rulesets.lancer import table
from catalogue.rulesets.lancer.schema import tagged
from tests.helpers.tables import well_formed

pytestmark = pytest.mark.django_db


def tracks_of(document):
    checked = store.check(document)
    return checked, table.PILOT.tracks(checked.build, checked.catalogue, checked.report, checked.linked)


def said(tracks, state):
    known = {t.key for t in tracks}
    assert set(state) <= known, set(state) - known
    return table.PILOT.consequences(tracks, state)


def rules(consequences):
    return [(c.rule, c.message) for c in consequences]


def by_key(tracks):
    return {t.key: t for t in tracks}


# --- the tracks of every example -------------------------------------------------------------------------------

def test_l_b08_l_b14_every_examples_tracks_come_from_its_report(examples):
    for name, document in examples.items():
        checked, tracks = tracks_of(document)
        well_formed(tracks)
        found, report = by_key(tracks), checked.report
        assert found["pilot.hp"].high == found["pilot.hp"].start == report.stats["pilot_hp"].value
        for m, (mech, detail) in enumerate(zip(checked.build.mechs, report.detail.mechs)):
            stats = {k: v.value for k, v in detail.stats.items()}
            assert found[f"mechs[{m}].hp"].start == stats["hp"]
            assert found[f"mechs[{m}].heat"].mark == stats["heatcap"] and found[f"mechs[{m}].heat"].start == 0
            assert found[f"mechs[{m}].structure"].start == stats["structure"]
            assert found[f"mechs[{m}].stress"].start == stats["stress"]  # 1.0's Stress track by default
            assert found[f"mechs[{m}].repairs"].start == stats["repcap"]
            assert {t.group for k, t in found.items() if k.startswith(f"mechs[{m}].")} == {mech.name}
            for n, mount in enumerate(mech.mounts):
                for w, key in enumerate(mount.weapons):
                    item = checked.catalogue.items[key]
                    track = found.get(f"mechs[{m}].mounts[{n}].weapons[{w}]")
                    assert (track is not None) == (tagged(item, "tg_limited") is not None)
                    if track:
                        assert track.start == c.limited_uses(item, stats["limited_bonus"]) and track.group == mech.name
            for s, key in enumerate(mech.systems):
                item = checked.catalogue.items[key]
                track = found.get(f"mechs[{m}].systems[{s}]")
                assert (track is not None) == (tagged(item, "tg_limited") is not None)
                if track:
                    assert track.start == c.limited_uses(item, stats["limited_bonus"])


def test_l_b08_engineering_adds_limited_uses(examples):
    _, tracks = tracks_of(examples["Ilse Marrow"])  # Engineering 3: one more use of each Limited item
    found = by_key(tracks)
    assert found["mechs[0].mounts[0].weapons[0]"].label == "Skyfall Battery uses"
    assert found["mechs[0].mounts[0].weapons[0]"].high == 2 + 1
    assert found["mechs[0].systems[1]"].high == 2 + 1  # Munitions Hopper
    assert found["gear[2]"].high == 1  # the Signal Jammer on foot: no Engineering
    assert all(t.group == "" for k, t in found.items() if not k.startswith("mechs["))


def test_l_b14_house_rules_change_the_tracks(examples):
    beta = {**examples["Mara Okonjo"], "house_rules": {"stress": "none", "structure-zero": "critical",
                                                      "overcharge": "beta"}}
    found = by_key(tracks_of(beta)[1])
    assert "mechs[0].stress" not in found and "CRITICAL" in found["mechs[0].structure"].note
    assert found["mechs[0].overcharge"].options[-1].startswith("next: 1d6+3 heat")
    default = by_key(tracks_of(examples["Mara Okonjo"])[1])
    assert default["mechs[0].overcharge"].options == ("next: 1 heat", "next: 1d3 heat", "next: 1d6 heat",
                                                      "next: 1d6+4 heat, then every time")


def test_l_r13_l_r31_what_refills_with_the_counter(examples):
    found = by_key(tracks_of(examples["Mara Okonjo"])[1])
    assert found["mechs[0].brace"].resets == found["mechs[0].overwatch"].resets == "round"
    assert found["mechs[0].overcharged"].resets == "turn"
    assert found["mechs[0].overcharge"].resets == ""  # until a full repair, which the table does not count
    assert not [t for t in found.values() if t.resets and (t.high, t.options) != (1, ())]


def test_a_fresh_pilot_draws_no_consequence(examples):
    for document in examples.values():
        assert table.PILOT.consequences(tracks_of(document)[1], {}) == []


# --- consequences ---------------------------------------------------------------------------------------------

def test_l_r05_a_pilot_at_0_hp_is_down_and_out(examples):
    _, tracks = tracks_of(examples["Mara Okonjo"])
    assert ("L-R05", "The pilot is at 0 HP: down and out (L-R05).") in rules(said(tracks, {"pilot.hp": 0}))
    assert said(tracks, {"pilot.hp": 1}) == []


def test_l_b14_0_hp_calls_for_a_structure_check(examples):
    _, tracks = tracks_of(examples["Mara Okonjo"])
    [found] = said(tracks, {"mechs[0].hp": 0})
    assert found.rule == "L-B14" and "Old Faithful is at 0 HP: make a structure check" in found.message
    assert said(tracks, {"mechs[0].hp": 1}) == []


def test_l_b14_structure_damage_asks_for_the_checks_result_until_one_is_picked(examples):
    _, tracks = tracks_of(examples["Mara Okonjo"])
    [found] = said(tracks, {"mechs[0].structure": 3})
    assert found.rule == "L-B14" and "taken 1 Structure damage: pick the structure check's result" in found.message
    impaired = table.STRUCTURE_RESULTS.index("Impaired")
    [found] = said(tracks, {"mechs[0].structure": 3, "mechs[0].structure_check": impaired})
    assert found.severity == "info" and "structure check: Impaired" in found.message and not found.greys
    assert said(tracks, {"mechs[0].structure": 4}) == []  # at its maximum: no check owed


def test_l_b14_out_of_structure_is_destroyed_by_default_and_greys_the_mech(examples):
    _, tracks = tracks_of(examples["Dace Varro"])
    [found] = said(tracks, {"mechs[1].structure": 0})
    assert (found.rule, found.severity) == ("L-B14", "error")
    assert "Thimble is out of Structure: destroyed" in found.message
    thimble = {t.key for t in tracks if t.key.startswith("mechs[1].")}
    assert set(found.greys) == thimble - {"mechs[1].structure"}
    assert not any(k.startswith("mechs[0].") for k in found.greys)
    assert all(c.severity != "error" for c in said(tracks, {"mechs[1].structure": 1}))


def test_l_b14_critical_reading_keeps_the_mech_without_repairs(examples):
    beta = {**examples["Dace Varro"], "house_rules": {"structure-zero": "critical"}}
    _, tracks = tracks_of(beta)
    found = said(tracks, {"mechs[1].structure": 0})
    critical = next(c for c in found if "CRITICAL" in c.message)
    assert critical.rule == "L-B14" and critical.greys == ("mechs[1].repairs",)
    assert "destroyed" not in " ".join(c.message for c in found)
    assert not any("CRITICAL" in c.message for c in said(tracks, {"mechs[1].structure": 1}))


def test_l_b14_a_picked_destroying_result_greys_the_mech(examples):
    _, tracks = tracks_of(examples["Mara Okonjo"])
    destroyed = table.STRUCTURE_RESULTS.index("destroyed")
    [found] = said(tracks, {"mechs[0].structure": 3, "mechs[0].structure_check": destroyed})
    assert found.severity == "error" and "mechs[0].hp" in found.greys and "mechs[0].structure_check" not in found.greys


def test_l_c05_heat_past_the_cap_calls_for_an_overheating_check(examples):
    checked, tracks = tracks_of(examples["Ilse Marrow"])
    cap = checked.report.detail.mechs[0].stats["heatcap"].value
    [found] = said(tracks, {"mechs[0].heat": cap + 1})
    assert found.rule == "L-C05" and f"Heat {cap + 1} is past its Heat Cap {cap}" in found.message
    assert "mark 1 Stress" in found.message
    assert said(tracks, {"mechs[0].heat": cap}) == []  # at the cap: not past it


def test_l_c05_without_stress_the_heat_warning_asks_for_the_result(examples):
    beta = {**examples["Ilse Marrow"], "house_rules": {"stress": "none"}}
    checked, tracks = tracks_of(beta)
    cap = checked.report.detail.mechs[0].stats["heatcap"].value
    [found] = said(tracks, {"mechs[0].heat": cap + 2})
    assert "pick its result" in found.message and "Stress" not in found.message
    shut = table.OVERHEAT_RESULTS.index("Shut Down")
    messages = rules(said(tracks, {"mechs[0].heat": cap + 2, "mechs[0].overheat_check": shut}))
    assert ("L-C05", "Gravestone Choir's overheating check: Shut Down, applied at the table (L-C05).") in messages


def test_l_b14_stress_lost_asks_for_the_overheating_result(examples):
    _, tracks = tracks_of(examples["Mara Okonjo"])
    [found] = said(tracks, {"mechs[0].stress": 3})
    assert found.rule == "L-B14" and "taken 1 Stress: pick the overheating check's result" in found.message
    assert said(tracks, {"mechs[0].stress": 4}) == []


def test_l_b14_out_of_stress_melts_down_or_breaches_by_reading(examples):
    _, tracks = tracks_of(examples["Mara Okonjo"])
    [found] = said(tracks, {"mechs[0].stress": 0})
    assert found.severity == "error" and "reactor meltdown, destroyed" in found.message
    assert "mechs[0].hp" in found.greys and "mechs[0].stress" not in found.greys
    beta = {**examples["Mara Okonjo"], "house_rules": {"structure-zero": "critical"}}
    _, tracks = tracks_of(beta)
    breach = [c for c in said(tracks, {"mechs[0].stress": 0}) if "CORE BREACH" in c.message]
    assert breach and breach[0].rule == "L-B14" and not breach[0].greys
    assert not any("CORE BREACH" in c.message for c in said(tracks, {"mechs[0].stress": 1}))


def test_l_b08_a_limited_item_with_no_uses_left_is_greyed(examples):
    _, tracks = tracks_of(examples["Mara Okonjo"])
    [found] = said(tracks, {"mechs[0].mounts[1].weapons[1]": 0})  # the Scatter Pod
    assert found.rule == "L-B08" and found.greys == ("mechs[0].mounts[1].weapons[1]",)
    assert "Old Faithful: Scatter Pod has no uses left" in found.message
    assert said(tracks, {"mechs[0].mounts[1].weapons[1]": 1}) == []
    [found] = said(tracks, {"gear[2]": 0})  # the Field Medkit on foot
    assert found.rule == "L-R21" and found.greys == ("gear[2]",)


def test_l_b08_a_limited_item_rolled_at_the_table_is_a_box():
    from catalogue.rulesets.lancer.schema import System
    prototype = System(key="ms_proto", name="Prototype", sp=1, tags=[{"id": "tg_limited", "val": "1d6+2"}])
    [track] = table.limited("mechs[0].systems[0]", prototype, 1, "Mech", "L-B08")
    assert (track.high, track.start, track.options) == (1, 0, ()) and "text only" in track.note
    assert table.spent(track, 1) and not table.spent(track, 0)


def test_l_r18_no_repairs_left(examples):
    _, tracks = tracks_of(examples["Mara Okonjo"])
    [found] = said(tracks, {"mechs[0].repairs": 0})
    assert found.rule == "L-R18" and "no Repairs left" in found.message
    assert said(tracks, {"mechs[0].repairs": 1}) == []


def test_l_r20_an_ejected_mech_is_impaired(examples):
    _, tracks = tracks_of(examples["Mara Okonjo"])
    [found] = said(tracks, {"mechs[0].eject": 1})
    assert found.rule == "L-R20" and "Impaired until a full repair" in found.message
    assert said(tracks, {"mechs[0].eject": 0}) == []


# --- played: what the preview reads -----------------------------------------------------------------------------

def preview(document):
    kind = ACTIVE["lancer"].kind("pilot")
    checked = store.check(document)
    request = {"target": {"evasion": 10, "armor": 1}, "situation": {"mech": 0}}
    return kind.preview(checked.build, checked.catalogue, request, checked.linked, report=checked.report)["mechs"][0]


def test_played_leaves_a_fresh_pilot_as_it_is(examples):
    document = store.check(examples["Ilse Marrow"]).document
    _, tracks = tracks_of(document)
    assert table.PILOT.played(document, tracks, {}) == document


def test_l_b08_played_a_spent_limited_weapon_no_longer_fires(examples):
    document = store.check(examples["Ilse Marrow"]).document
    _, tracks = tracks_of(document)
    skyfall = "mechs[0].mounts[0].weapons[0]"
    kept = table.PILOT.played(document, tracks, {skyfall: 1})
    assert kept == document  # one use left: it still fires
    played = table.PILOT.played(document, tracks, {skyfall: 0})
    assert played is not document and document["mechs"][0]["mounts"][0]["weapons"] == ["mw_skyfall_battery"]
    assert played["mechs"][0]["mounts"][0] == {**document["mechs"][0]["mounts"][0], "weapons": [], "mods": []}
    assert played["mechs"][1] == document["mechs"][1]
    store.check(played)  # still a pilot the rules read
    fresh, spent = preview(document), preview(played)
    assert "Skyfall Battery" in fresh["turn"]["weapons"] and "Skyfall Battery" not in spent["turn"]["weapons"]
    assert spent["turn"]["expected_damage"] < fresh["turn"]["expected_damage"]


def test_l_b08_played_takes_the_spent_weapon_and_its_mod_only(examples):
    document = store.check(examples["Mara Okonjo"]).document
    _, tracks = tracks_of(document)
    played = table.PILOT.played(document, tracks, {"mechs[0].mounts[1].weapons[1]": 0})
    assert played["mechs"][0]["mounts"][1]["weapons"] == ["mw_sidearm_repeater"]
    store.check(played)
    names = [a["name"] for a in preview(played)["attacks"]]
    assert "Scatter Pod" not in names and "Sidearm Repeater" in names and "Scatter Pod" in [
        a["name"] for a in preview(document)["attacks"]]


def test_every_rule_id_is_in_the_rule_index_but_core_powers(examples):
    """The beta chapter has no CORE systems: L-M11 is the digest's name for that gap, which the index does not list."""
    index = ACTIVE["lancer"].rules()
    for document in examples.values():
        _, tracks = tracks_of(document)
        assert {t.rule for t in tracks} - set(index) == {"L-M11"}
        assert all(t.rule == "L-M11" for t in tracks if t.key.endswith(".core"))
