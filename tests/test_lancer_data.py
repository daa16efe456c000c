"""The official LANCER data as players have it: lancer-data's `lib/` zipped by its own build (info.json, no
manifest), every entry read. A small pack in its exact shapes, written by us (tests/data/lancer_data_mini), covers
each case; the real package, version pinned, is fetched from the npm registry when it can be reached."""
from __future__ import annotations

import io
import json
import tarfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from catalogue.rulesets import RULESETS
from catalogue.rulesets.base import PackError
from catalogue.rulesets.lancer import construction, places, preview
from catalogue.rulesets.lancer.schema import LCP_FILES
from catalogue.rulesets.packs import read_upload

MINI = Path(__file__).parent / "data" / "lancer_data_mini" / "lib"
LANCER_DATA = "3.1.8"
TARBALL = f"https://registry.npmjs.org/@massif/lancer-data/-/lancer-data-{LANCER_DATA}.tgz"


def zipped(files: dict[str, bytes]) -> bytes:
    """A folder zipped as lancer-data's build zips `lib/`: its files at the top, info.json among them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            archive.writestr(name, data)
    return buffer.getvalue()


def read(files: dict[str, bytes], filename: str):
    return read_upload(zipped(files), filename, {"lancer": RULESETS["lancer"]})


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
    catalogue = read(mini, "hardpoint-mini.lcp").catalogue
    document = {"mechs": [{"name": "Test", "frame": "mf_barbarossa",
                           "mounts": [{"weapons": ["mw_siege_cannon"]}, {"weapons": []}, {"weapons": ["mw_mimic_gun"]}],
                           "systems": []}]}
    result = preview.odds(document, catalogue, 2, 0, {"stats": {"heatcap": {"value": 6}}}, preview.Target(),
                           preview.Situation(), {})
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


def fetch_lancer_data() -> dict[str, bytes]:
    """lancer-data's lib/ files, from the npm registry (OSError when it cannot be reached)."""
    with urllib.request.urlopen(TARBALL, timeout=30) as answer:
        raw = answer.read()
    files = {}
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.startswith("package/lib/") and member.name.endswith(".json"):
                files[member.name.removeprefix("package/lib/")] = archive.extractfile(member).read()
    return files


@pytest.fixture(scope="module")
def lancer_data() -> dict[str, bytes]:
    """Fetched once; skipped only when the registry cannot be reached."""
    try:
        return fetch_lancer_data()
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        pytest.skip(f"the npm registry cannot be reached ({exc}); lancer-data {LANCER_DATA} not fetched")


def test_every_entry_of_lancer_data_loads(lancer_data):
    pack = read(lancer_data, f"lancer-data-{LANCER_DATA}.lcp")
    assert pack.header.ref == f"lancer-core@{LANCER_DATA}"
    wanted = entries(lancer_data)
    assert {name: len(listed) for name, listed in wanted.items()} == {
        "core_bonuses.json": 30, "frames.json": 29, "mods.json": 8, "pilot_gear.json": 37, "skills.json": 22,
        "systems.json": 124, "tags.json": 60, "talents.json": 29, "weapons.json": 85}
    assert set(pack.catalogue.items) == {e["id"] for listed in wanted.values() for e in listed}


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
    mech = report.detail["mechs"][0]
    assert mech["stats"]["hp"]["value"] == 21
    assert mech["stats"]["hp"]["explain"].endswith("+2 Personalizations +5 Reinforced Frame")
    assert mech["sp_used"] == 3 and mech["stats"]["sensor_range"]["value"] == 10
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
    mech = rules.validate(document, pack.catalogue).detail["mechs"][0]
    assert mech["stats"]["hp"]["value"] == 10
