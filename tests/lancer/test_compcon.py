"""COMP/CON pilot files read into LANCER pilot documents and written back: every choice kept, ids the pack does not
know listed with where they were, unreadable files refused naming the field, and the two directions round-trip."""
import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue.rulesets.base import BuildError, Catalogue
from catalogue.rulesets.lancer import rules
from catalogue.rulesets.lancer.compcon import MAX_BYTES, from_compcon, to_compcon
from catalogue.rulesets.lancer.schema import CATEGORIES
from tests.lancer.compcon_exports import equipment, export, weapon
from tests.lancer.factories import catalogue_of

PACK = "lancer-test@1.0.0"


def frame(key, name, mounts, ll=0, **stats):
    return {"id": key, "name": name, "license_level": ll, "license_id": key if ll else None, "mechtype": ["Striker"],
            "mounts": mounts, "core_system": {"name": "Core"},
            "stats": {"size": 1, "armor": 1, "hp": 8, "evasion": 8, "edef": 8, "heatcap": 6, "repcap": 5,
                      "sensor_range": 10, "tech_attack": 0, "save": 10, "speed": 4, "sp": 6, **stats}}


ITEMS = {
    "frame": [frame("mf_standard_pattern_i_everest", "Everest", ["Main", "Flex", "Heavy"], hp=10),
              frame("mf_barbarossa", "Barbarossa", ["Main", "Heavy"], ll=2, armor=2, sp=5)],
    "weapon": [{"id": "mw_assault_rifle", "name": "Assault Rifle", "mount": "Main", "type": "Rifle"},
               {"id": "mw_thermal_pistol", "name": "Thermal Pistol", "mount": "Auxiliary", "type": "CQB"},
               {"id": "mw_heavy_charged_blade", "name": "Heavy Charged Blade", "mount": "Heavy", "type": "Melee"},
               {"id": "mw_siege_cannon", "name": "Siege Cannon", "mount": "Superheavy", "type": "Cannon",
                "license_level": 2, "license_id": "mf_barbarossa"}],
    "system": [{"id": "ms_type_3_projected_shield", "name": "Type-3 Projected Shield", "sp": 2},
               {"id": "ms_custom_paint_job", "name": "Custom Paint Job", "sp": 1},
               {"id": "ms_pattern_a_smoke_charges", "name": "Pattern-A Smoke Charges", "sp": 2}],
    "mod": [{"id": "wm_overpower_caliber", "name": "Overpower Caliber", "sp": 2}],
    "talent": [{"id": t, "name": t[2:].title(), "ranks": [{"name": "I"}, {"name": "II"}, {"name": "III"}]}
               for t in ("t_ace", "t_vanguard", "t_combined_arms")],
    "skill": [{"id": s, "name": s[3:].title()} for s in
              ("sk_spot", "sk_charm", "sk_stay_cool", "sk_apply_fists_to_faces", "sk_act_unseen_or_unheard")],
    "core_bonus": [{"id": "cb_auto_stabilizing_hardpoints", "name": "Auto-Stabilizing Hardpoints"}],
    "pilot_gear": [{"id": "pg_assault_hardsuit", "name": "Assault Hardsuit", "type": "Armor"},
                   {"id": "pg_light_signature", "name": "Light Signature", "type": "Weapon"},
                   {"id": "pg_mag_clamps", "name": "Mag Clamps", "type": "Gear"},
                   {"id": "pg_corrective", "name": "Corrective", "type": "Gear"}],
}


@pytest.fixture(scope="module")
def cat():
    return catalogue_of(ITEMS, PACK)


EXPECTED = {
    "format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": PACK, "name": "Ada Kestrel",
    "callsign": "Longshot", "ll": 3, "notes": "Owes the Baronies a favour.",
    "hase": {"hull": 2, "agility": 1, "systems": 2},
    "triggers": {"sk_spot": 2, "sk_charm": 1, "sk_stay_cool": 2, "sk_apply_fists_to_faces": 1},
    "talents": {"t_ace": 3, "t_vanguard": 2, "t_combined_arms": 1}, "licences": {"mf_barbarossa": 2},
    "core_bonuses": ["cb_auto_stabilizing_hardpoints"],
    "gear": ["pg_assault_hardsuit", "pg_light_signature", "pg_mag_clamps", "pg_corrective"],
    "mechs": [{"name": "Longhorn", "frame": "mf_standard_pattern_i_everest",
               "mounts": [{"weapons": ["mw_assault_rifle"], "mods": ["wm_overpower_caliber"], "bracing": False},
                          {"weapons": ["mw_thermal_pistol", "mw_thermal_pistol"], "mods": [], "bracing": False},
                          {"weapons": ["mw_heavy_charged_blade"], "mods": [], "bracing": False}],
               "systems": ["ms_type_3_projected_shield", "ms_custom_paint_job"]},
              {"name": "Siegebreaker", "frame": "mf_barbarossa",
               "mounts": [{"weapons": [], "mods": [], "bracing": True},
                          {"weapons": ["mw_siege_cannon"], "mods": [], "bracing": False}],
               "systems": ["ms_pattern_a_smoke_charges"]}],
}


def wheres(unknown):
    return {(u.id, u.where) for u in unknown}


def chosen(document: dict) -> dict:
    """A document without the COMP/CON file it keeps to write back (BuildDocument.kept)."""
    return {k: v for k, v in document.items() if k != "kept"}


def test_a_realistic_export_imports_every_choice(cat):
    document, unknown = from_compcon(json.dumps(export()).encode(), cat, PACK)
    assert chosen(document) == EXPECTED
    assert document["kept"]["compcon"]["file"] == export()
    assert wheres(unknown) == {("Cook a mean stew", "skill trigger (a custom skill; packs hold no custom skills)")}
    report = rules.validate(document, cat)
    assert report.legal, [(i.code, i.path, i.message) for i in report.issues]


def test_str_and_dict_read_as_bytes_do(cat):
    raw = export()
    assert from_compcon(json.dumps(raw), cat, PACK) == from_compcon(raw, cat, PACK)
    assert chosen(from_compcon(b"\xef\xbb\xbf" + json.dumps(raw).encode(), cat, PACK)[0]) == EXPECTED  # a BOM is no matter


def test_unknown_ids_are_listed_with_where_and_the_rest_imported(cat):
    raw = export()
    raw["skills"].append({"id": "sk_nope", "rank": 1})
    raw["talents"].append({"id": "t_ghost", "rank": 1})
    raw["licenses"].append({"id": "mf_lancaster", "rank": 1})
    raw["core_bonuses"].append("cb_ghost")
    raw["loadout"]["gear"][2] = equipment("mw_assault_rifle")  # known, but a mech weapon is no pilot gear
    everest = raw["mechs"][0]["loadouts"][1]
    everest["mounts"][0]["slots"][0]["weapon"] = weapon("mw_gauss_rifle", "wm_overpower_caliber")
    everest["mounts"][2]["slots"][0]["weapon"]["mod"] = equipment("wm_ghost")
    everest["systems"].append(equipment("ms_ghost"))
    everest["improved_armament"]["slots"][0]["weapon"] = weapon("mw_assault_rifle")  # L-B09: a mount of its own
    everest["superheavy_mounting"]["slots"][0]["weapon"] = weapon("mw_assault_rifle")
    document, unknown = from_compcon(raw, cat, PACK)
    assert wheres(unknown) == {
        ("Cook a mean stew", "skill trigger (a custom skill; packs hold no custom skills)"),
        ("sk_nope", "skill trigger"), ("t_ghost", "talent"), ("mf_lancaster", "licence"),
        ("cb_ghost", "CORE bonus"), ("mw_assault_rifle", "pilot gear"),
        ("mw_gauss_rifle", "mech 'Longhorn' mount 1 weapon"),
        ("wm_overpower_caliber", "mech 'Longhorn' mount 1 mod (left out with its weapon)"),
        ("wm_ghost", "mech 'Longhorn' mount 3 mod"), ("ms_ghost", "mech 'Longhorn' system"),
        ("mw_assault_rifle", "mech 'Longhorn' superheavy mounting weapon (Hardpoint has only the frame's mounts)"),
    }
    longhorn = document["mechs"][0]
    assert longhorn["mounts"][-1] == {"weapons": ["mw_assault_rifle"], "mods": [], "bracing": False,
                                      "core_bonus": "cb_improved_armament"}
    assert longhorn["mounts"][0] == {"weapons": [], "mods": [], "bracing": False}
    assert longhorn["mounts"][2] == {"weapons": ["mw_heavy_charged_blade"], "mods": [], "bracing": False}
    assert longhorn["systems"] == EXPECTED["mechs"][0]["systems"]
    rest = {k: v for k, v in document.items() if k not in ("mechs", "kept")}
    assert rest == {k: v for k, v in EXPECTED.items() if k != "mechs"}
    rules.resolve(rules.parse(document), cat)  # only known ids went in


def test_a_mech_on_an_unknown_frame_is_dropped_and_listed_once(cat):
    raw = export()
    raw["mechs"][0]["frame"] = "mf_lancaster"
    raw["mechs"][0]["loadouts"][1]["systems"].append(equipment("ms_ghost"))
    document, unknown = from_compcon(raw, cat, PACK)
    assert [m["name"] for m in document["mechs"]] == ["Siegebreaker"]
    assert [u for u in unknown if u.id != "Cook a mean stew"] == [
        type(unknown[0])("mf_lancaster", "mech 'Longhorn' frame (the mech and its load-out were not imported)")]


@pytest.mark.parametrize("raw, path", [
    (b"{\"name\": \"Ada\",", "(file)"),
    (b"\xff\xfe{}", "(file)"),
    (b"[1, 2]", "(file)"),
    ('"a pilot"', "(file)"),
    ({"name": "Ada", "level": "three"}, "level"),
    ({"level": 2.5}, "level"),
    ({"skills": [{"id": "sk_spot", "rank": "2"}]}, "skills[0].rank"),
    ({"skills": [{"rank": 2}]}, "skills[0].id"),
    ({"skills": ["sk_spot"]}, "skills[0]"),
    ({"core_bonuses": [3]}, "core_bonuses[0]"),
    ({"mechSkills": [2, "x"]}, "mechSkills[1]"),
    ({"mechs": {"a": 1}}, "mechs"),
    ({"mechs": [{"name": "X", "frame": "mf_barbarossa", "loadouts": [{"mounts": "Main"}]}]},
     "mechs[0].loadouts[0].mounts"),
    ({"mechs": [{"name": "X", "loadouts": []}]}, "mechs[0].frame"),
    ({"mechs": [{"name": "X", "frame": "mf_barbarossa", "loadouts": [{"mounts": [
        {"slots": [{"size": "Main", "weapon": {"id": "mw_assault_rifle", "mod": 7}}]}]}]}]},
     "mechs[0].loadouts[0].mounts[0].slots[0].weapon.mod"),
    ({"mechs": [{"name": "X", "frame": "mf_barbarossa", "loadouts": [{"mounts": [{"lock": "yes"}]}]}]},
     "mechs[0].loadouts[0].mounts[0].lock"),
    ({"loadout": {"armor": [{"id": 5}]}}, "loadout.armor[0].id"),
])
def test_a_file_that_is_no_compcon_pilot_is_refused_naming_the_field(cat, raw, path):
    with pytest.raises(BuildError) as error:
        from_compcon(raw, cat, PACK)
    assert path in [p["path"] for p in error.value.problems], error.value.problems


def test_every_wrong_field_is_named_at_once(cat):
    with pytest.raises(BuildError) as error:
        from_compcon({"level": "3", "callsign": 7, "talents": [{"id": "t_ace", "rank": None}, {"id": []}]}, cat, PACK)
    assert [p["path"] for p in error.value.problems] == ["callsign", "level", "talents[1].id"]


def test_a_huge_payload_is_refused_before_it_is_read(cat):
    raw = b'{"notes": "' + b"x" * MAX_BYTES + b'"}'
    with pytest.raises(BuildError) as error:
        from_compcon(raw, cat, PACK)
    assert error.value.problems[0]["path"] == "(file)" and "2 MB" in error.value.problems[0]["message"]
    with pytest.raises(BuildError):
        from_compcon(raw.decode(), cat, PACK)


def test_out_of_range_choices_are_imported_for_the_validator_to_report(cat):
    raw = export()
    raw["level"], raw["talents"][0]["rank"], raw["mechSkills"] = 140, 12, [9, 0, 0, 0]
    document, _ = from_compcon(raw, cat, PACK)
    assert document["ll"] == 99 and document["talents"]["t_ace"] == 9 and document["hase"]["hull"] == 9
    assert "L-B01" in {i.code for i in rules.validate(document, cat).issues}


def test_names_are_made_plain_text(cat):
    raw = export()
    raw["name"], raw["callsign"], raw["mechs"][1]["name"] = "<b>Ada</b>\n Kestrel", "x" * 60, "\t"
    document, _ = from_compcon(raw, cat, PACK)
    assert document["name"] == "b Ada /b Kestrel" and document["callsign"] == "x" * 40
    assert document["mechs"][1]["name"] == "Barbarossa"  # no name: the frame's
    raw["name"] = ""
    assert from_compcon(raw, cat, PACK)[0]["name"] == "x" * 40  # no name: the callsign's


def test_compcon_3_gear_loadouts_and_core_bonus_objects(cat):
    raw = export()
    del raw["loadout"]
    raw["loadouts"] = [{"name": "Town", "armor": [None], "weapons": [None, None], "gear": [equipment("pg_corrective")]},
                       {"name": "Field", "armor": [equipment("pg_assault_hardsuit")], "weapons": [], "gear": []}]
    raw["active_index"], raw["core_bonuses"] = 1, [{"id": "cb_auto_stabilizing_hardpoints", "name": "ASH"}]
    document, _ = from_compcon(raw, cat, PACK)
    assert document["gear"] == ["pg_assault_hardsuit"]
    assert document["core_bonuses"] == ["cb_auto_stabilizing_hardpoints"]


# --- Hardpoint → COMP/CON ----------------------------------------------------------------------------

def choices(document):
    return {k: document.get(k) for k in ("name", "callsign", "ll", "hase", "triggers", "talents", "licences",
                                         "core_bonuses", "gear", "mechs")}


def test_a_hardpoint_pilot_round_trips_through_compcon(cat):
    assert rules.validate(EXPECTED, cat).legal
    exported = json.loads(json.dumps(to_compcon(EXPECTED, cat)))  # what a file holds
    document, unknown = from_compcon(exported, cat, PACK)
    assert unknown == [] and choices(document) == choices(EXPECTED)
    assert rules.validate(document, cat).legal


def test_the_export_is_shaped_as_compcon_writes_pilots(cat):
    exported = to_compcon(EXPECTED, cat)
    for field in ("id", "name", "callsign", "level", "skills", "talents", "licenses", "core_bonuses", "mechSkills",
                  "loadout", "mechs", "current_hp", "reserves", "orgs", "brews"):
        assert field in exported
    assert exported["skills"][0] == {"id": "sk_spot", "rank": 2} and exported["mechSkills"] == [2, 1, 2, 0]
    assert exported["current_hp"] == 6 + 2  # base pilot HP + Grit at LL3
    gear = exported["loadout"]
    assert [e and e["id"] for e in gear["armor"]] == ["pg_assault_hardsuit"]
    assert [e and e["id"] for e in gear["weapons"]] == ["pg_light_signature", None]
    assert [e and e["id"] for e in gear["gear"]] == ["pg_mag_clamps", "pg_corrective", None]
    assert gear["extendedWeapons"] == [None] and gear["extendedGear"] == [None, None]
    everest, barbarossa = (m["loadouts"][0] for m in exported["mechs"])
    main, flex, heavy = everest["mounts"]
    assert [m["mount_type"] for m in everest["mounts"]] == ["Main", "Flex", "Heavy"]
    assert main["slots"][0]["weapon"]["mod"]["id"] == "wm_overpower_caliber"
    assert [s["size"] for s in flex["slots"]] == ["Flex"] and [s["size"] for s in flex["extra"]] == ["Auxiliary"]
    assert flex["slots"][0]["weapon"]["id"] == flex["extra"][0]["weapon"]["id"] == "mw_thermal_pistol"
    assert heavy["slots"][0]["weapon"]["mod"] is None
    brace, cannon = barbarossa["mounts"]
    assert brace["lock"] is True and brace["slots"] == [{"size": "Main", "weapon": None}]
    assert cannon["lock"] is False and cannon["slots"][0]["weapon"]["id"] == "mw_siege_cannon"
    assert "integratedSystems" not in everest  # COMP/CON fills the frame's own in
    assert {"improved_armament", "superheavy_mounting", "integratedWeapon"} <= set(everest)
    mech = exported["mechs"][0]
    assert mech["current_hp"] == 10 + 2 + 2 * 2 and mech["current_structure"] == 4 and mech["current_stress"] == 4
    ids = [exported["id"], exported["loadout"]["id"]] + [m["id"] for m in exported["mechs"]]
    assert len(set(ids)) == len(ids) and all(len(i) == 36 for i in ids)  # fresh uuid4s


def test_a_compcon_file_round_trips_whole(cat):
    """Imported and exported with no change, the file comes back as it was: ids, state, other loadouts, all."""
    raw = export()
    document, _ = from_compcon(raw, cat, PACK)
    assert to_compcon(document, cat) == raw


def test_a_change_made_here_is_written_into_the_file_it_came_from(cat):
    raw = export()
    document, _ = from_compcon(raw, cat, PACK)
    document["mechs"][0]["systems"] = document["mechs"][0]["systems"][:1]
    document["ll"] += 1
    exported = to_compcon(document, cat)
    assert exported["level"] == raw["level"] + 1 and exported["id"] == raw["id"]
    everest, before = exported["mechs"][0], raw["mechs"][0]
    assert everest["id"] == before["id"] and everest["current_hp"] == before["current_hp"]
    active = everest["loadouts"][before["active_loadout_index"]]
    assert [s["id"] for s in active["systems"]] == [document["mechs"][0]["systems"][0]]
    assert everest["loadouts"][0] == before["loadouts"][0]  # the loadout not in use, as it was
    assert exported["mechs"][1] == raw["mechs"][1] and exported["lastModified"] != raw["lastModified"]


def test_a_compcon_export_round_trips_keeping_its_ids(cat):
    """A pilot made here (no file kept) is written fresh, and reads back the same."""
    raw = export()
    document, _ = from_compcon(raw, cat, PACK)
    document = chosen(document)
    exported = to_compcon(document, cat)
    assert [(s["id"], s["rank"]) for s in exported["skills"]] == [
        (s["id"], s["rank"]) for s in raw["skills"] if not s.get("custom")]
    for field in ("talents", "licenses"):
        assert exported[field] == raw[field]
    assert exported["core_bonuses"] == raw["core_bonuses"] and exported["mechSkills"] == raw["mechSkills"]
    for part in ("armor", "weapons", "gear"):
        assert [e and e["id"] for e in exported["loadout"][part]] == [e and e["id"] for e in raw["loadout"][part]]
    for ours, theirs in zip(exported["mechs"], raw["mechs"]):
        assert (ours["name"], ours["frame"]) == (theirs["name"], theirs["frame"])
        mine, active = ours["loadouts"][0], theirs["loadouts"][theirs["active_loadout_index"]]
        assert [s["id"] for s in mine["systems"]] == [s["id"] for s in active["systems"]]
        for a, b in zip(mine["mounts"], active["mounts"]):
            assert (a["mount_type"], a["lock"]) == (b["mount_type"], b["lock"])
            assert [(s["size"], s["weapon"] and s["weapon"]["id"], s["weapon"] and (s["weapon"]["mod"] or {}).get("id"))
                    for s in a["slots"] + a["extra"]] == \
                   [(s["size"], s["weapon"] and s["weapon"]["id"], s["weapon"] and (s["weapon"]["mod"] or {}).get("id"))
                    for s in b["slots"] + b["extra"]]
    assert chosen(from_compcon(exported, cat, PACK)[0]) == document


def test_weapons_go_to_the_slots_they_fit(cat):
    """A Main/Aux mount written Aux first still puts the Main weapon in the Main slot."""
    mixed = Catalogue("lancer", PACK, {**cat.items, "mf_mixed": CATEGORIES["frame"].model_validate(
        frame("mf_mixed", "Mixed", ["Main/Aux"]))}, {**cat.categories, "mf_mixed": "frame"}, "Test")
    document = {**EXPECTED, "mechs": [{"name": "M", "frame": "mf_mixed", "mounts": [
        {"weapons": ["mw_thermal_pistol", "mw_assault_rifle"], "mods": [None, "wm_overpower_caliber"]}]}]}
    slots = to_compcon(document, mixed)["mechs"][0]["loadouts"][0]["mounts"][0]["slots"]
    assert [(s["size"], s["weapon"]["id"], s["weapon"]["mod"] and s["weapon"]["mod"]["id"]) for s in slots] == [
        ("Main", "mw_assault_rifle", "wm_overpower_caliber"), ("Auxiliary", "mw_thermal_pistol", None)]


def test_an_export_names_an_id_the_pack_does_not_know(cat):
    with pytest.raises(BuildError) as error:
        to_compcon({**EXPECTED, "gear": ["pg_ghost"]}, cat)
    assert [p["path"] for p in error.value.problems] == ["gear[0]"]


# --- no input breaks the reader -------------------------------------------------------------------------

FIELDS = ["id", "name", "callsign", "level", "skills", "talents", "licenses", "core_bonuses", "mechSkills",
          "loadout", "loadouts", "active_index", "armor", "weapons", "gear", "extendedGear", "mechs", "frame",
          "active_loadout_index", "systems", "mounts", "slots", "extra", "weapon", "mod", "lock", "rank", "custom",
          "improved_armament", "extraMounts", "notes"]
KNOWN = [e["id"] for entries in ITEMS.values() for e in entries]
leaves = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
                   st.floats(allow_nan=True), st.text(max_size=12), st.sampled_from(KNOWN))
jsonish = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=6)), inner,
                                                 max_size=5)), max_leaves=30)
PROPERTY = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def reads_or_refuses(raw, cat):
    try:
        document, unknown = from_compcon(raw, cat, PACK)
    except BuildError as error:
        assert error.problems and all(set(p) == {"path", "message"} for p in error.problems)
        return
    rules.resolve(rules.parse(document), cat)  # what it gives is a document Hardpoint reads, of known ids
    assert all(isinstance(u.id, str) and u.where for u in unknown)


@PROPERTY
@given(value=jsonish)
def test_any_json_is_read_or_refused_with_a_build_error(cat, value):
    reads_or_refuses(value if isinstance(value, dict) else json.dumps(value), cat)
    reads_or_refuses(json.dumps({"mechs": [value], "skills": value, "loadout": value}), cat)


@PROPERTY
@given(data=st.data())
def test_a_mutated_export_is_read_or_refused_with_a_build_error(cat, data):
    raw = copy.deepcopy(export())
    for _ in range(data.draw(st.integers(1, 4))):
        node = raw
        while isinstance(node, (dict, list)) and node:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            key = data.draw(st.sampled_from(keys))
            if not isinstance(node[key], (dict, list)) or not node[key] or data.draw(st.booleans()):
                node[key] = data.draw(jsonish)
                break
            node = node[key]
    reads_or_refuses(raw, cat)
