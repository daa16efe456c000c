import dataclasses
"""Packs: YAML files read and checked (catalogue/rulesets/packs.py), loaded into the database
(catalogue/loader.py, `manage.py load_catalogue`), and shown in the admin and the catalogue page."""
import hashlib
import re
from io import StringIO

import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError

from catalogue.loader import catalogue_for, find_pack, latest_pack, load_pack
from catalogue.models import Item, Pack, Ruleset
from catalogue.rulesets import ACTIVE, metallurgent
from catalogue.rulesets.base import PackError
from catalogue.rulesets.packs import read_pack
from tests.helpers.refs import pack_ref

STARTER = metallurgent.RULESET.data_dir / "starter.yaml"
REF = pack_ref("metallurgent", "anvil")
SHIPPED = REF.partition("@")[2]  # the version shipped now; data/released/ keeps the earlier ones beside it


def starter_document() -> dict:
    return yaml.safe_load(STARTER.read_text(encoding="utf-8"))


def item_in(document: dict, category: str, key: str) -> dict:
    return next(i for i in document["items"][category] if i["key"] == key)


def write_pack(tmp_path, document, name="broken-pack.yaml"):
    path = tmp_path / name
    if isinstance(document, str):
        path.write_text(document, encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def starter():
    return read_pack(STARTER, ACTIVE)


def item_rows() -> list[tuple]:
    return list(Item.objects.order_by("pk").values_list("pk", "pack_id", "category", "key", "name", "stats"))


# --- manage.py load_catalogue ----------------------------------------------------------------------

def test_load_catalogue_loads_the_starter_pack(empty_catalogue):
    out = StringIO()
    call_command("load_catalogue", stdout=out)
    assert Ruleset.objects.filter(key="metallurgent").exists()
    pack = find_pack(pack_ref("metallurgent", "anvil"))
    assert pack.items.count() == 73
    assert f"{REF}: created (73 items)" in out.getvalue()


def test_load_catalogue_twice_changes_nothing(empty_catalogue):
    call_command("load_catalogue", stdout=StringIO())
    rulesets = list(Ruleset.objects.order_by("pk").values_list("pk", "key", "name", "tagline"))
    packs = list(Pack.objects.order_by("pk").values_list("pk", "name", "version", "content_hash", "loaded_at"))
    items = item_rows()
    out = StringIO()
    call_command("load_catalogue", stdout=out)
    assert list(Ruleset.objects.order_by("pk").values_list("pk", "key", "name", "tagline")) == rulesets
    assert list(Pack.objects.order_by("pk").values_list("pk", "name", "version", "content_hash",
                                                         "loaded_at")) == packs
    assert item_rows() == items
    assert f"{REF}: unchanged (73 items)" in out.getvalue()


def test_load_catalogue_with_a_broken_pack_fails_naming_the_file(empty_catalogue, tmp_path, monkeypatch):
    document = starter_document()
    item_in(document, "core", "wisp-core")["hardpionts"] = 1
    write_pack(tmp_path, document)
    monkeypatch.setitem(ACTIVE, "metallurgent", dataclasses.replace(metallurgent.RULESET, data_dir=tmp_path))
    with pytest.raises(CommandError) as raised:
        call_command("load_catalogue", stdout=StringIO(), stderr=StringIO())
    assert "broken-pack.yaml" in str(raised.value) and "hardpionts" in str(raised.value)
    assert Pack.objects.count() == 0 and Item.objects.count() == 0


# --- the Pack and Item rows ------------------------------------------------------------------------

def test_pack_row_records_version_source_and_content_hash(packs):
    pack = Pack.objects.get(name="metallurgent-starter", version=SHIPPED)
    assert pack.version == "1.1.0"
    assert pack.source == "starter"
    assert pack.ruleset.key == "metallurgent"
    assert re.fullmatch(r"[0-9a-f]{64}", pack.content_hash)
    assert pack.content_hash == hashlib.sha256(STARTER.read_bytes()).hexdigest()
    assert pack.ref == REF


def test_item_rows_have_category_key_name_and_stats(packs):
    core = Item.objects.get(pack__name="metallurgent-starter", pack__version=SHIPPED, key="nimbus-core")
    assert core.category == "core"
    assert core.name == "Nimbus Line Core"
    assert core.stats["defence"] == 4 and core.stats["hardpoints"] == 3
    assert core.stats["resistance"] == {"KE": 4, "CE": 4, "TE": 3}
    radar = Item.objects.get(pack__version=SHIPPED, key="sounding-radar")
    assert radar.category == "equipment" and radar.stats["type"] == "radar" and radar.stats["subtype"] == "spotting"


def test_every_item_row_matches_its_pack_entry(packs, starter):
    rows = {i.key: i for i in Item.objects.filter(pack__name="metallurgent-starter")}
    assert set(rows) == set(starter.catalogue.items)
    for key, item in starter.catalogue.items.items():
        assert rows[key].category == starter.catalogue.categories[key]
        assert rows[key].name == item.name
        assert rows[key].stats == item.model_dump(mode="json")


def test_pack_examples_are_stored_as_full_build_documents(packs):
    pack = Pack.objects.get(name="metallurgent-starter", version=SHIPPED)
    assert len(pack.examples) == 6
    for example in pack.examples:
        assert example["format"] == "hardpoint.build/1"
        assert example["ruleset"] == "metallurgent" and example["kind"] == "anvil" and example["pack"] == REF


# --- the starter pack meets its brief ----------------------------------------------------------------

def test_starter_cores_have_varied_defence(starter):
    cores = starter.catalogue.of("core")
    assert len(cores) >= 4
    defences = {c.defence for c in cores}
    assert defences <= {3, 4, 5}
    assert {3, 5} <= defences


def test_starter_has_one_mobility_base_per_chassis(starter):
    bases = starter.catalogue.of("mobility_base")
    assert sorted(b.chassis for b in bases) == sorted(
        ["biped", "reverse_joint", "quadruped", "tracks", "wheels", "hover"])
    for base in bases:
        assert 4 <= len(base.load_tolerance) <= 6, base.key


def test_starter_arms(starter):
    assert len(starter.catalogue.of("standard_arm")) >= 4
    assert len(starter.catalogue.of("weapon_arm")) >= 2


def test_starter_generators_cover_every_cooling_type(starter):
    generators = starter.catalogue.of("generator")
    assert len(generators) == 3
    assert {g.cooling for g in generators} == {"gas", "liquid", "plasma"}


def test_starter_electronics(starter):
    assert len(starter.catalogue.of("electronics")) >= 3


def test_starter_has_one_fcs_per_targeting_type(starter):
    systems = starter.catalogue.of("fcs")
    assert sorted(f.targeting_type for f in systems) == sorted(
        ["optical", "infrared", "laser", "tracking", "spotting", "ewacs"])


def test_starter_weapons_cover_classes_and_damage_types(starter):
    weapons = starter.catalogue.of("weapon")
    assert len(weapons) >= 16
    assert {w.weapon_class for w in weapons} == {"primary", "secondary", "tertiary"}
    assert {w.damage_type for w in weapons} == {"KE", "CE", "TE"}


def test_starter_equipment_covers_every_type(starter):
    equipment = starter.catalogue.of("equipment")
    assert len(equipment) >= 12
    assert {e.type for e in equipment} >= {"radar", "lca", "radio", "jammer", "shield", "radiator", "apu",
                                           "ciws", "fuel_tank", "target_designator"}
    assert {e.subtype for e in equipment if e.type == "radar"} == {"tracking", "spotting", "ewacs"}


def test_starter_has_six_legal_examples_one_per_task(starter):
    assert sorted(e["task"] for e in starter.examples) == sorted(
        ["vanguard", "sniper", "recon", "defender", "artillerist", "commander"])
    for example in starter.examples:
        anvil = metallurgent.RULESET.kind("anvil")
        report = anvil.validate(anvil.parse(example), starter.catalogue, {})
        assert report.legal, (example["name"], [i.as_dict() for i in report.errors])


# --- typos fail naming the file, the item and the field ---------------------------------------------

def _misspell_field(document):
    core = item_in(document, "core", "wisp-core")
    core["hardpionts"] = core.pop("hardpoints")


def _wrong_chassis(document):
    item_in(document, "mobility_base", "mistral-biped")["chassis"] = "legs"


def _breakpoints_out_of_order(document):
    spread = item_in(document, "mobility_base", "bora-quadruped")["load_tolerance"]
    spread[1], spread[2] = spread[2], spread[1]


def _repeated_breakpoint(document):
    spread = item_in(document, "mobility_base", "bora-quadruped")["load_tolerance"]
    spread[1]["max_load"] = spread[0]["max_load"]


def _too_few_breakpoints(document):
    del item_in(document, "mobility_base", "zephyr-hover")["load_tolerance"][3:]


def _text_for_number(document):
    item_in(document, "core", "nimbus-core")["ap"] = "lots"


def _missing_field(document):
    del item_in(document, "generator", "corona-generator")["cooling"]


def _equipment_typo(document):
    radar = item_in(document, "equipment", "weathervane-radar")
    radar["serch_arcs"] = radar.pop("search_arcs")


def _nested_weapon_typo(document):
    item_in(document, "weapon_arm", "thunderclap-arm")["weapon"]["damage_type"] = "XE"


def _html_name(document):
    item_in(document, "weapon", "rattle-mg")["name"] = "<b>Rattle</b>"


def _unknown_category(document):
    document["items"]["jetpack"] = [{"key": "zoom-pack", "name": "Zoom Pack"}]


def _duplicate_key(document):
    document["items"]["weapon"].append({**item_in(document, "weapon", "rattle-mg"), "name": "Rattle Again"})


def _duplicate_key_across_categories(document):
    item_in(document, "weapon", "rattle-mg")["key"] = "nimbus-core"


def _missing_version(document):
    del document["version"]


def _non_semver_version(document):
    document["version"] = "1.0"


def _bad_source(document):
    document["source"] = "homebrew"


def _example_typo(document):
    document["examples"][0]["parts"]["cor"] = document["examples"][0]["parts"].pop("core")


@pytest.mark.parametrize("mutate, named", [
    pytest.param(_misspell_field, ["wisp-core", "hardpionts"], id="misspelled-field"),
    pytest.param(_wrong_chassis, ["mistral-biped", "chassis"], id="wrong-enum"),
    pytest.param(_breakpoints_out_of_order, ["bora-quadruped", "load_tolerance"], id="breakpoints-not-ascending"),
    pytest.param(_repeated_breakpoint, ["bora-quadruped", "load_tolerance"], id="breakpoints-repeated"),
    pytest.param(_too_few_breakpoints, ["zephyr-hover", "load_tolerance"], id="three-breakpoints"),
    pytest.param(_text_for_number, ["nimbus-core", "ap"], id="text-for-number"),
    pytest.param(_missing_field, ["corona-generator", "cooling"], id="missing-field"),
    pytest.param(_equipment_typo, ["weathervane-radar", "serch_arcs"], id="equipment-field-typo"),
    pytest.param(_nested_weapon_typo, ["thunderclap-arm", "weapon.damage_type"], id="nested-weapon-field"),
    pytest.param(_html_name, ["rattle-mg", "name"], id="html-in-item-name"),
    pytest.param(_unknown_category, ["jetpack"], id="unknown-category"),
    pytest.param(_duplicate_key, ["rattle-mg"], id="duplicate-key"),
    pytest.param(_duplicate_key_across_categories, ["nimbus-core"], id="duplicate-key-across-categories"),
    pytest.param(_missing_version, ["version"], id="missing-version"),
    pytest.param(_non_semver_version, ["version"], id="non-semver-version"),
    pytest.param(_bad_source, ["source"], id="unknown-source"),
    pytest.param(_example_typo, ["cor"], id="example-field-typo"),
])
def test_broken_pack_names_file_item_and_field(tmp_path, mutate, named):
    document = starter_document()
    mutate(document)
    path = write_pack(tmp_path, document)
    with pytest.raises(PackError) as raised:
        read_pack(path, ACTIVE)
    message = str(raised.value)
    assert "broken-pack.yaml" in message
    for fragment in named:
        assert fragment in message


def test_malformed_yaml_names_the_file(tmp_path):
    text = STARTER.read_text(encoding="utf-8").replace("  core:\n", "  core:\n   - key: [unclosed\n", 1)
    path = write_pack(tmp_path, text)
    with pytest.raises(PackError) as raised:
        read_pack(path, ACTIVE)
    assert "broken-pack.yaml" in str(raised.value)
    assert "YAML" in str(raised.value)


def test_pack_that_is_not_a_mapping_names_the_file(tmp_path):
    with pytest.raises(PackError, match="broken-pack.yaml"):
        read_pack(write_pack(tmp_path, "- just\n- a list\n"), ACTIVE)


def test_unknown_ruleset_names_the_file(tmp_path):
    document = starter_document()
    document["ruleset"] = "warhammer"
    with pytest.raises(PackError) as raised:
        read_pack(write_pack(tmp_path, document), ACTIVE)
    assert "broken-pack.yaml" in str(raised.value) and "warhammer" in str(raised.value)


def test_unchanged_copy_reads_like_the_original(tmp_path, starter):
    copy = tmp_path / "starter.yaml"
    copy.write_bytes(STARTER.read_bytes())
    data = read_pack(copy, ACTIVE)
    assert data.content_hash == starter.content_hash
    assert data.catalogue.items == starter.catalogue.items


# --- versions: a changed pack needs a new version; old versions stay ----------------------------------

def changed_copy(tmp_path, version="1.1.0", ap=99):
    document = starter_document()
    document["version"] = version
    item_in(document, "core", "wisp-core")["ap"] = ap
    return read_pack(write_pack(tmp_path, document, f"starter-{version}.yaml"), ACTIVE)


def test_changed_pack_under_same_version_is_refused(packs, tmp_path):
    with pytest.raises(PackError, match="bump"):
        load_pack(changed_copy(tmp_path))


def test_refused_pack_writes_nothing(packs, tmp_path):
    items = item_rows()
    pack = Pack.objects.get(name="metallurgent-starter", version=SHIPPED)
    with pytest.raises(PackError):
        load_pack(changed_copy(tmp_path))
    assert item_rows() == items
    assert list(Pack.objects.filter(name="metallurgent-starter", version=SHIPPED)) == [pack]
    assert Pack.objects.get(name="metallurgent-starter", version=SHIPPED).content_hash == pack.content_hash
    assert Item.objects.get(pack__version=SHIPPED, key="wisp-core").stats["ap"] == 20


def test_bumped_version_loads_as_a_second_pack(packs, tmp_path):
    items = item_rows()
    result = load_pack(changed_copy(tmp_path, version="1.2.0"))
    assert result.status == "created" and result.ref == "metallurgent-starter@1.2.0"
    assert sorted(p.ref for p in Pack.objects.filter(name="metallurgent-starter")) == [
        "metallurgent-starter@1.0.0", REF, "metallurgent-starter@1.2.0"]  # 1.0.0: the released version kept
    starter = Pack.objects.get(name="metallurgent-starter", version="1.1.0").pk
    old = [row for row in item_rows() if row[1] == starter]
    assert old == [row for row in items if row[1] == starter]
    assert Item.objects.get(pack__version="1.2.0", key="wisp-core").stats["ap"] == 99


def test_builds_keep_their_pinned_pack_version(packs, tmp_path):
    load_pack(changed_copy(tmp_path, version="1.2.0"))
    assert latest_pack("metallurgent").ref == "metallurgent-starter@1.2.0"
    assert catalogue_for(find_pack(REF)).items["wisp-core"].ap == 20
    assert catalogue_for(find_pack("metallurgent-starter@1.2.0")).items["wisp-core"].ap == 99


def test_saved_build_still_validates_against_its_pinned_version(packs, tmp_path):
    from builder import store

    example = Pack.objects.get(name="metallurgent-starter", version=SHIPPED).examples[0]
    load_pack(changed_copy(tmp_path, version="1.2.0"))
    checked = store.check(example)
    assert checked.catalogue.pack == REF
    assert checked.report.legal


def test_latest_pack_compares_versions_numerically(packs, tmp_path):
    load_pack(changed_copy(tmp_path, version="1.9.0", ap=21))
    load_pack(changed_copy(tmp_path, version="1.10.0", ap=22))
    assert latest_pack("metallurgent").version == "1.10.0"


def test_reloading_a_bumped_version_is_unchanged(packs, tmp_path):
    data = changed_copy(tmp_path, version="1.2.0")
    load_pack(data)
    assert load_pack(data).status == "unchanged"
    assert Pack.objects.filter(name="metallurgent-starter").count() == 3  # with the released 1.0.0


# --- admin ---------------------------------------------------------------------------------------------

def test_admin_item_changelist_works_for_superuser(admin_client, packs):
    response = admin_client.get("/admin/catalogue/item/", {"q": "nimbus"})
    assert response.status_code == 200
    assert "Nimbus Line Core" in response.content.decode()


def test_admin_item_changelist_filters_by_category(admin_client, packs):
    response = admin_client.get("/admin/catalogue/item/", {"category": "core"})
    assert response.status_code == 200
    shown = list(response.context["cl"].result_list)
    assert {i.key for i in shown} == {"wisp-core", "cirrus-core", "stratus-core", "nimbus-core", "thunderhead-core"}
    assert "Rattle Machine Gun" not in response.content.decode()


def test_admin_item_change_page_works(admin_client, packs):
    item = Item.objects.get(pack__version=SHIPPED, key="seawall-shield")
    response = admin_client.get(f"/admin/catalogue/item/{item.pk}/change/")
    assert response.status_code == 200
    assert "Seawall Tower Shield" in response.content.decode()


def test_admin_pack_change_page_lists_its_items(admin_client, packs):
    response = admin_client.get(f"/admin/catalogue/pack/{Pack.objects.get(name='metallurgent-starter', version=SHIPPED).pk}/change/")
    assert response.status_code == 200
    assert "thunderhead-core" in response.content.decode()


def test_admin_requires_login(client, packs):
    response = client.get("/admin/catalogue/item/")
    assert response.status_code == 302 and "/login/" in response["Location"]


# --- the catalogue page ------------------------------------------------------------------------------

def weapon_names(starter) -> list[str]:
    return [w.name for w in starter.catalogue.of("weapon")]


def test_catalogue_page_lists_every_weapon_in_a_table(client, packs, starter):
    response = client.get("/catalogue/metallurgent/", {"category": "weapon"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<table" in html
    for name in weapon_names(starter):
        assert name in html
    assert "Nimbus Line Core" not in html


def test_catalogue_page_sorts_by_load_descending(client, packs, starter):
    response = client.get("/catalogue/metallurgent/", {"category": "weapon", "sort": "-load"})
    assert response.status_code == 200
    html = response.content.decode()
    weapons = sorted(starter.catalogue.of("weapon"), key=lambda w: html.index(w.name))
    loads = [w.load for w in weapons]
    assert loads == sorted(loads, reverse=True)


def test_catalogue_page_sorts_by_load_ascending(client, packs, starter):
    html = client.get("/catalogue/metallurgent/", {"category": "weapon", "sort": "load"}).content.decode()
    loads = [w.load for w in sorted(starter.catalogue.of("weapon"), key=lambda w: html.index(w.name))]
    assert loads == sorted(loads)


def test_catalogue_page_unknown_category_is_404(client, packs):
    assert client.get("/catalogue/metallurgent/", {"category": "teleporter"}).status_code == 404


def test_catalogue_page_unknown_ruleset_is_404(client, packs):
    assert client.get("/catalogue/warhammer/", {"category": "weapon"}).status_code == 404
