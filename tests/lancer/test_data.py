"""The official LANCER data as players have it: lancer-data's `lib/` zipped by its own build (info.json, no
manifest), every entry read. A small pack in its exact shapes, written by us (tests/data/lancer_data_mini), covers
each case; the real package, version pinned, is fetched from the npm registry when it can be reached."""
from __future__ import annotations

import json

import pytest

from catalogue.rulesets.base import PackError
from catalogue.rulesets.lancer import construction, places, preview
from catalogue.rulesets.lancer.schema import LCP_FILES
from tests.lancer.factories import LANCER_DATA, MINI, lancer_data_or_skip, read, zipped



def entries(files: dict[str, bytes]) -> dict[str, list[dict]]:
    """The entries of each file Hardpoint reads, but lancer-data's placeholders."""
    return {name: [e for e in json.loads(data) if not e["id"].startswith("missing_")]
            for name, data in files.items() if name in LCP_FILES}


@pytest.fixture(scope="module")
def mini() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in MINI.glob("*.json")}


def test_a_manifestless_zip_loads_every_entry_with_its_name_and_version_from_info_json(mini):
    pack = read(mini, "hardpoint-mini.lcp")
    assert pack.header.ref == "hardpoint-mini-core@0.1.0" and pack.header.title == "Hardpoint mini core"
    wanted = {e["id"] for listed in entries(mini).values() for e in listed}
    assert set(pack.catalogue.items) == wanted
    assert "manufacturers.json" in pack.header.description and "placeholder" in pack.header.description


def test_each_shape_of_the_official_data_is_read(mini):
    items = read(mini, "hardpoint-mini.lcp").catalogue.items
    assert "ms___scorpion_v70.1" in items  # an id with a dot, taken as the pack writes it
    assert items["mw_mimic_gun"].type == "???" and items["mw_prototype_1"].type == "Special"
    ship = items["mw_barbarossa_integrated"]
    assert (ship.mount, ship.type, len(ship.profiles)) == ("Ship-class", "Spool Weapon", 4)
    assert any(d.type is None and d.val == "N/A" for p in ship.profiles for d in p.damage)
    siege = items["mw_siege_cannon"]
    assert not siege.damage and [p.name for p in siege.profiles] and siege.profiles[0].damage
    assert items["mw_smartgun"].sp == 2
    assert not any(key.startswith("missing_") for key in items)


def test_integrated_and_talent_items_are_not_offered_on_their_own(mini):
    catalogue = read(mini, "hardpoint-mini.lcp").catalogue
    given = construction.granted(catalogue)
    assert {"mw_barbarossa_integrated", "mw_prototype_1", "mw_fuel_rod_gun"} <= given
    document = {"mechs": [{"name": "Test", "frame": "mf_standard_pattern_i_everest",
                           "mounts": [{"weapons": [], "mods": []} for _ in range(3)], "systems": []}]}
    offered = {place.field: {item.key for item in place.offered(catalogue)}
               for place in places.pilot_places(document, catalogue)}
    weapons = offered["mech-0-mount-0-weapon-0"]
    assert "mw_assault_rifle" in weapons and not weapons & given
    assert "ms_personalizations" in offered["mech-0-add-system"]


def test_a_weapon_with_profiles_is_one_row_a_profile_and_unknown_damage_counts_for_nothing(mini):
    from catalogue.rulesets.lancer import rules
    catalogue = read(mini, "hardpoint-mini.lcp").catalogue
    document = {"mechs": [{"name": "Test", "frame": "mf_barbarossa",
                           "mounts": [{"weapons": ["mw_siege_cannon"]}, {"weapons": []}, {"weapons": ["mw_mimic_gun"]}],
                           "systems": []}]}
    detail = rules.PilotMech("Test", "Barbarossa", {"heatcap": rules.MechStat(6, "")}, 0)
    result = preview.odds(document, catalogue, 2, 0, detail, preview.Target(), preview.Situation(), {})
    rows = {row["name"]: row for row in result["attacks"]}
    siege = [name for name in rows if name.startswith("Siege Cannon: ")]
    assert len(siege) == 2 and all(rows[name]["expected_damage"] > 0 for name in siege)
    assert rows["Mimic Gun"]["expected_damage"] == 0 and any("not counted" in n for n in rows["Mimic Gun"]["notes"])
    assert sum(name.startswith("Siege Cannon") for name in result["turn"]["weapons"]) <= 1


def test_a_manifestless_zip_without_a_version_anywhere_is_refused_naming_the_field(mini):
    info = json.dumps({**json.loads(mini["info.json"]), "version": "July 2020 Release"}).encode()
    with pytest.raises(PackError, match=r"info.json: field 'version'"):
        read({**mini, "info.json": info}, "core.lcp")
    assert read({**mini, "info.json": info}, "lancer-data-3.1.8.lcp").header.version == "3.1.8"


@pytest.fixture(scope="module")
def lancer_data() -> dict[str, bytes]:
    """Fetched once; skipped only when the registry cannot be reached."""
    return lancer_data_or_skip()


def test_every_entry_of_lancer_data_loads(lancer_data):
    pack = read(lancer_data, f"lancer-data-{LANCER_DATA}.lcp")
    assert pack.header.ref == f"lancer-core@{LANCER_DATA}"
    wanted = entries(lancer_data)
    assert {name: len(listed) for name, listed in wanted.items()} == {
        "core_bonuses.json": 30, "frames.json": 29, "mods.json": 8, "pilot_gear.json": 37, "skills.json": 22,
        "systems.json": 124, "tags.json": 60, "talents.json": 29, "weapons.json": 85}
    assert set(pack.catalogue.items) == {e["id"] for listed in wanted.values() for e in listed}
    assert pack.skipped == []  # not one entry left out


def test_l_b08_stats_take_the_packs_structured_bonuses_and_weapon_sp(mini):
    """As COMP/CON computes them: an Everest at LL3 (Grit 2, Hull 1) with Personalizations (+2 HP) and the CORE
    bonus Reinforced Frame (+5 HP) has HP 10 + 2 + 2 + 2 + 5 = 21; the Smartgun's 2 SP count with the system's 1;
    an Assault Hardsuit adds 3 HP and 1 Armor to the pilot and sets Evasion 8, E-Defense 8 and Speed 4."""
    from catalogue.rulesets.lancer import rules

    pack = read(mini, "hardpoint-mini.lcp")
    document = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": pack.header.ref,
                "name": "Test", "ll": 3, "hase": {"hull": 1}, "gear": ["pg_assault_hardsuit"],
                "core_bonuses": ["cb_reinforced_frame"],
                "mechs": [{"name": "Everest", "frame": "mf_standard_pattern_i_everest",
                           "mounts": [{"weapons": ["mw_smartgun"]}, {"weapons": []}, {"weapons": []}],
                           "systems": ["ms_personalizations"]}]}
    report = rules.validate(document, pack.catalogue)
    mech = report.detail.mechs[0]
    assert mech.stats["hp"].value == 21
    assert mech.stats["hp"].explain.endswith("+2 Personalizations +5 Reinforced Frame")
    assert mech.sp_used == 3 and mech.stats["sensor_range"].value == 10
    assert report.stats["pilot_hp"].value == 6 + 2 + 3 and report.stats["pilot_armor"].value == 1
    assert report.stats["pilot_defence"].value == "8 / 8" and report.stats["pilot_speed"].value == 4


def test_rich_text_reads_as_text_with_its_line_breaks_and_bullets(mini):
    items = read(mini, "hardpoint-mini.lcp").catalogue.items
    texts = [items["mf_standard_pattern_i_everest"].description, items["pg_frag_grenades"].kept()["effect"]]
    assert all("<" not in text for text in texts) and any("\n• " in text for text in texts)


def test_the_compcon_export_writes_uses_left_the_packs_used_and_the_active_mech(mini):
    """COMP/CON reads `uses` as the uses left: a Limited 3 system on a mech with Engineering 2 (+1, L-B08) and
    Integrated Ammo Feeds (+2) starts with 6, Limited 2 grenades with 2; a pilot on a pack other than the core data
    names it in `brews`, as COMP/CON does; the first mech is the active one."""
    from catalogue.rulesets.lancer import compcon

    pack = read(mini, "hardpoint-mini.lcp")
    document = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": pack.header.ref,
                "name": "Test", "ll": 3, "hase": {"engineering": 2}, "gear": ["pg_frag_grenades"],
                "core_bonuses": ["cb_integrated_ammo_feeds"],
                "mechs": [{"name": name, "frame": "mf_standard_pattern_i_everest",
                           "mounts": [{"weapons": []}, {"weapons": []}, {"weapons": []}],
                           "systems": ["ms_turret_drones", "ms_personalizations"]} for name in ("One", "Two")]}
    exported = compcon.write(document, pack.catalogue)
    systems = exported["mechs"][0]["loadouts"][0]["systems"]
    assert [(s["id"], s["uses"]) for s in systems] == [("ms_turret_drones", 6), ("ms_personalizations", 0)]
    assert exported["loadout"]["gear"][0] == {**exported["loadout"]["gear"][0], "id": "pg_frag_grenades", "uses": 2}
    assert exported["brews"] == ["Hardpoint mini core @ 0.1.0"]
    assert [m["active"] for m in exported["mechs"]] == [True, False]



def test_unmodelled_fields_holding_anything_count_for_nothing(mini):
    """Fields kept as they came (`bonuses`, `integrated`) may hold anything in a pack: nothing but lancer-data's
    shapes counts, and nothing breaks the check."""
    from catalogue.rulesets.lancer import rules

    frames = json.loads(mini["frames.json"])
    for frame in frames:
        frame["core_system"]["integrated"] = 7
        for trait in frame["traits"]:
            trait["bonuses"] = "hp"
    systems = json.loads(mini["systems.json"])
    for system in systems:
        system["bonuses"] = [5, None, {"id": "hp"}, {"id": "hp", "val": {"deep": 1}}, {"id": 3, "val": 2}]
    systems[1]["bonuses"] = 5  # Personalizations
    pack = read({**mini, "frames.json": json.dumps(frames).encode(), "systems.json": json.dumps(systems).encode()},
                "hardpoint-mini.lcp")
    document = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": pack.header.ref,
                "name": "Test", "mechs": [{"name": "E", "frame": "mf_standard_pattern_i_everest",
                                           "mounts": [{"weapons": []}] * 3, "systems": ["ms_personalizations"]}]}
    mech = rules.validate(document, pack.catalogue).detail.mechs[0]
    assert mech.stats["hp"].value == 10


# --- mounts from CORE bonuses (L-B09), by id as COMP/CON models them --------------------------------------------

def mini_pilot(pack, mech: dict, ll: int = 3, core_bonuses=(), licences=None) -> dict:
    return {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": pack.header.ref,
            "name": "Test", "ll": ll, "core_bonuses": list(core_bonuses), "licences": licences or {},
            "mechs": [mech]}


def mount_issues(report) -> dict[str, str]:
    """The mount rules' issues (L-B09, L-B11) by path: the rest of a test pilot's advancement is not judged here."""
    return {i.path: f"{i.code} {i.message}" for i in report.issues if i.code in ("L-B09", "L-B11")}


def nelson(*added: dict) -> dict:
    return {"name": "N", "frame": "mf_nelson", "mounts": [{"weapons": ["mw_assault_rifle"]},
                                                          {"weapons": ["mw_assault_rifle", "mw_pistol"]}, *added],
            "systems": []}


def test_l_b09_improved_armament_adds_a_flex_mount_to_a_mech_of_two_mounts(mini):
    """At the limit: the Nelson has two mounts, fewer than three, so Improved Armament gives it a Flex mount (a Main
    weapon or two Aux), whose weapons cost their SP as COMP/CON counts them; the Everest has three and gets none."""
    from catalogue.rulesets.lancer import rules

    pack = read(mini, "hardpoint-mini.lcp")
    licences = {"mf_nelson": 2, "mf_pegasus": 1}
    smartgun = {"core_bonus": "cb_improved_armament", "weapons": ["mw_smartgun"]}
    report = rules.validate(mini_pilot(pack, nelson(smartgun), core_bonuses=["cb_improved_armament"],
                                       licences=licences), pack.catalogue)
    assert mount_issues(report) == {} and report.detail.mechs[0].sp_used == 2
    pistols = {"core_bonus": "cb_improved_armament", "weapons": ["mw_pistol", "mw_pistol"]}
    assert mount_issues(rules.validate(mini_pilot(pack, nelson(pistols), core_bonuses=["cb_improved_armament"]),
                                       pack.catalogue)) == {}
    not_taken = mount_issues(rules.validate(mini_pilot(pack, nelson(smartgun), licences=licences), pack.catalogue))
    assert not_taken == {"mechs[0].mounts[2]": "L-B09 N: This mount comes from Improved Armament, a CORE bonus the "
                                               "pilot has not taken."}
    everest = {"name": "E", "frame": "mf_standard_pattern_i_everest",
               "mounts": [{"weapons": []}, {"weapons": []}, {"weapons": []}, smartgun], "systems": []}
    three = mount_issues(rules.validate(mini_pilot(pack, everest, core_bonuses=["cb_improved_armament"],
                                                   licences=licences), pack.catalogue))
    assert three == {"mechs[0].mounts[3]": "L-B09 E: Improved Armament adds a mount only to a mech with fewer than 3 "
                                           "mounts; the Everest has 3."}


def test_l_b09_integrated_weapon_adds_an_aux_mount_beside_improved_armaments(mini):
    """Integrated Weapon's mount holds one Aux weapon, on any frame; a pilot at LL6 may hold both bonuses, each giving
    one mount, after the frame's in either order."""
    from catalogue.rulesets.lancer import rules

    pack = read(mini, "hardpoint-mini.lcp")
    both = ["cb_integrated_weapon", "cb_improved_armament"]
    mech = nelson({"core_bonus": "cb_integrated_weapon", "weapons": ["mw_pistol"]},
                  {"core_bonus": "cb_improved_armament", "weapons": ["mw_assault_rifle"]})
    assert mount_issues(rules.validate(mini_pilot(pack, mech, ll=6, core_bonuses=both), pack.catalogue)) == {}
    mech["mounts"][2] = {"core_bonus": "cb_integrated_weapon", "weapons": ["mw_assault_rifle"]}
    mech["mounts"][3] = {"core_bonus": "cb_integrated_weapon", "weapons": []}
    assert mount_issues(rules.validate(mini_pilot(pack, mech, ll=6, core_bonuses=both), pack.catalogue)) == {
        "mechs[0].mounts[2]": "L-B09 N: An Aux mount does not hold Main.",
        "mechs[0].mounts[3]": "L-B09 N: Integrated Weapon gives one mount a mech."}


def test_l_b09_mount_retrofitting_makes_one_of_the_frames_mounts_main_aux(mini):
    """The Everest's Heavy mount refitted holds a Main and an Aux weapon; unrefitted it does not. The bonus refits
    one mount, and only one of the frame's; a mount past the frame's names a bonus that adds one."""
    from catalogue.rulesets.lancer import rules

    pack = read(mini, "hardpoint-mini.lcp")
    refit = {"core_bonus": "cb_mount_retrofitting", "weapons": ["mw_assault_rifle", "mw_pistol"]}
    everest = {"name": "E", "frame": "mf_standard_pattern_i_everest",
               "mounts": [{"weapons": []}, {"weapons": []}, refit], "systems": []}

    def issues(mech: dict, bonuses=("cb_mount_retrofitting",)) -> dict[str, str]:
        return mount_issues(rules.validate(mini_pilot(pack, mech, core_bonuses=bonuses), pack.catalogue))

    assert issues(everest) == {}
    assert issues(everest, ()) == {"mechs[0].mounts[2]": "L-B09 E: This mount comes from Mount Retrofitting, a CORE "
                                                         "bonus the pilot has not taken."}
    assert issues({**everest, "mounts": [{"weapons": []}, {"weapons": []}, {"weapons": refit["weapons"]}]}) == {
        "mechs[0].mounts[2]": "L-B09 E: A Heavy mount does not hold Main + Aux."}
    twice = {**everest, "mounts": [refit, {"weapons": []}, refit]}
    assert issues(twice) == {"mechs[0].mounts[2]": "L-B09 E: Mount Retrofitting gives one mount a mech."}
    added = {**everest, "mounts": [{"weapons": []}, {"weapons": []}, {"weapons": []}, refit]}
    assert issues(added) == {"mechs[0].mounts[3]": "L-B09 E: Mount Retrofitting changes one of the frame's mounts; it "
                                                   "adds none."}
    stray = {**everest, "mounts": [{"weapons": []}, {"weapons": []}, {"weapons": []}, {"weapons": ["mw_pistol"]}]}
    assert issues(stray) == {"mechs[0].mounts[3]": "L-B09 E: The Everest has 3 mounts (Main, Flex, Heavy); no CORE "
                                                   "bonus adds this one."}


def test_l_b09_the_builder_offers_a_core_bonus_mount_while_the_pilot_holds_it(mini):
    """Each mount a CORE bonus may add shows empty until a weapon goes on it; picking one adds the mount naming its
    bonus. A new frame keeps the added mounts; a mech it does not suit shows none."""
    from catalogue.rulesets.lancer import rules

    pack = read(mini, "hardpoint-mini.lcp")
    document = mini_pilot(pack, nelson(), core_bonuses=["cb_improved_armament"])
    offered = {place.field: place for place in places.pilot_places(document, pack.catalogue)}
    assert {"mech-0-mount-2-weapon-0", "mech-0-mount-2-weapon-1"} <= set(offered)
    assert offered["mech-0-mount-2-weapon-0"].label == "Weapons for N: Flex mount 3 (Improved Armament), slot 1"
    chosen = offered["mech-0-mount-2-weapon-0"].choose(document, "mw_pistol")
    assert chosen["mechs"][0]["mounts"][2] == {"weapons": ["mw_pistol"], "mods": [None],
                                               "core_bonus": "cb_improved_armament"}
    assert mount_issues(rules.validate(chosen, pack.catalogue)) == {}
    refitted = offered["mech-0-frame"].choose(chosen, "mf_dusk_wing")
    assert refitted["mechs"][0]["mounts"][2]["core_bonus"] == "cb_improved_armament"
    without = mini_pilot(pack, nelson())
    assert not any(p.field.startswith("mech-0-mount-2") for p in places.pilot_places(without, pack.catalogue))
    everest = mini_pilot(pack, {"name": "E", "frame": "mf_standard_pattern_i_everest",
                                "mounts": [{"weapons": []}] * 3, "systems": []}, core_bonuses=["cb_improved_armament"])
    assert not any(p.field.startswith("mech-0-mount-3") for p in places.pilot_places(everest, pack.catalogue))


@pytest.mark.django_db
def test_l_b09_the_builder_form_keeps_core_bonus_mounts_and_refits(client, packs, mini):
    """Through the builder: the mount Improved Armament may add shows empty and is kept once it holds a weapon (an
    empty one is not saved: it shows again); a frame's mount offers the Mount Retrofitting refit as a checkbox."""
    from builder.models import Build
    from tests.helpers.html_forms import read_form

    uploaded = client.post("/api/packs?filename=hardpoint-mini.lcp", zipped(mini), content_type="application/zip")
    ref = uploaded.json()["pack"]
    document = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": ref, "name": "T",
                "ll": 6, "core_bonuses": ["cb_improved_armament", "cb_mount_retrofitting"], "mechs": [nelson()]}
    build = Build.objects.get(share_id=client.post("/api/builds", document, content_type="application/json")
                              .json()["share_id"])
    html = client.get(build.get_absolute_url()).content.decode()
    values, _ = read_form(html)
    assert values["mech-0-mount-2-core"] == ["cb_improved_armament"] and "mech-0-mount-2-weapon-1" in values
    assert 'name="mech-0-mount-1-core" value="cb_mount_retrofitting"' in html  # unchecked: the mount is as built
    client.post(build.get_absolute_url(), {**values, "action": ["save"]})
    build.refresh_from_db()
    assert build.document["mechs"][0]["mounts"] == [
        {"weapons": ["mw_assault_rifle"], "mods": [], "bracing": False, "core_bonus": None},
        {"weapons": ["mw_assault_rifle", "mw_pistol"], "mods": [], "bracing": False, "core_bonus": None}]
    values, _ = read_form(client.get(build.get_absolute_url()).content.decode())
    client.post(build.get_absolute_url(), {**values, "action": ["save"], "mech-0-mount-2-weapon-0": ["mw_pistol"],
                                           "mech-0-mount-0-core": ["cb_mount_retrofitting"]})
    build.refresh_from_db()
    mounts = build.document["mechs"][0]["mounts"]
    assert mounts[0]["core_bonus"] == "cb_mount_retrofitting"
    assert mounts[2] == {"weapons": ["mw_pistol"], "mods": [], "bracing": False, "core_bonus": "cb_improved_armament"}


def test_granted_items_are_worked_out_once_a_catalogue(mini):
    """The pickers ask on every request; a catalogue never changes, so the answer is kept, by catalogue: another one
    under the same pack name (a pack edited before upload) has its own."""
    catalogue = read(mini, "hardpoint-mini.lcp").catalogue
    assert construction.granted(catalogue) is construction.granted(catalogue)
    frames = json.loads(mini["frames.json"])
    for frame in frames:
        frame["core_system"].pop("integrated", None)
    other = read({**mini, "frames.json": json.dumps(frames).encode()}, "hardpoint-mini.lcp").catalogue
    assert other.pack == catalogue.pack
    assert "mw_barbarossa_integrated" in construction.granted(catalogue)
    assert "mw_barbarossa_integrated" not in construction.granted(other)
