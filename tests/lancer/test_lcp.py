"""Lancer Content Packs read as Hardpoint packs: ids kept as keys, unmodelled fields kept, every malformed entry
left out and named by file, id and field while the rest loads, dependencies read, unreadable files refused."""
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from builder import store
from builder.kinds import PAGES
from builder.models import Build
from catalogue.models import Pack
from catalogue.rulesets import RULESETS
from catalogue.rulesets.base import PackError, PackUnreadable
from catalogue.rulesets.packs import read_upload
from tests.lancer.factories import FRAME, WEAPON, lcp



def read(raw, **kwargs):
    return read_upload(raw, "kit.lcp", {"lancer": RULESETS["lancer"]}, **kwargs)


def test_an_lcp_reads_with_its_ids_as_keys_and_extra_fields_kept():
    pack = read(lcp(frames_json=[FRAME], weapons_json=[WEAPON], npc_classes_json=[]))
    assert pack.header.ref == "test-kit@1.1.0" and pack.header.source == "user"
    frame, weapon = pack.catalogue.items["mf_kite"], pack.catalogue.items["mw_pinprick"]
    assert frame.stats.speed == 6 and frame.kept()["y_pos"] == 20
    assert frame.traits[0].model_extra == {"synergies": [{"locations": ["move"]}]}
    assert weapon.kept() == {"on_hit": "rich text the engine does not model"}
    assert "Not read" in pack.header.description and "npc_classes.json" in pack.header.description


def test_every_malformed_entry_is_left_out_and_named_by_file_id_and_field():
    bad_frame = {**FRAME, "stats": {**FRAME["stats"], "speed": "fast"}}
    bad_weapon = {**WEAPON, "id": "mw_bent", "mount": "Shoulder"}
    pack = read(lcp(frames_json=[bad_frame], weapons_json=[WEAPON, bad_weapon, {"name": "no id"}]))
    assert list(pack.catalogue.items) == ["mw_pinprick"]  # the good entry loads, and is not blamed
    named = [(s.file, s.id, s.field) for s in pack.skipped]
    assert ("kit.lcp/frames.json", "mf_kite", "stats.speed") in named
    assert ("kit.lcp/weapons.json", "mw_bent", "mount") in named
    assert ("kit.lcp/weapons.json", "#3", "key") in named  # no id: its place in the file


@pytest.mark.parametrize("manifest, fragment", [
    ({"name": "Kit"}, "field 'version'"),
    ({"name": "Kit", "version": "soon"}, "'soon' is not a version"),
    ({"name": "Kit", "version": "1.0.0", "dependencies": [{"name": "Core", "version": "*"}]},
     "no loaded pack meets core \\*"),
    ({"name": "Kit", "version": "1.0.0", "dependencies": [{"name": "Core Kit", "version": "=2.1.0"}]},
     "no loaded pack meets core-kit =2.1.0"),
    ({"name": "Kit", "version": "1.0.0", "dependencies": [{"name": "Core Kit", "version": "^two"}]},
     "'dependencies.0.version': 'two' is not a version"),
])
def test_the_manifest_is_checked_and_dependencies_named(manifest, fragment):
    with pytest.raises(PackError, match=fragment):
        read(lcp(manifest, weapons_json=[WEAPON]))


@pytest.mark.parametrize("spec, chosen", [("=2.1.0", "2.1.0"), ("2.1.0", "2.1.0"), ("*", "3.0.0"), ("^2.0.0", "2.4.1"),
                                          ("~2.1.0", "2.1.0"), (">=2.2.0", "3.0.0"), ("^0.3.0", None)])
def test_a_dependency_extends_the_newest_loaded_version_its_range_allows(spec, chosen):
    core = read(lcp({"name": "Core Kit", "version": "2.1", "description": ""}, weapons_json=[WEAPON]))
    manifest = {"name": "Add-on", "version": "1.0.0", "dependencies": [{"name": "Core Kit", "version": spec}]}
    loaded = {"core-kit": ["1.9.0", "2.1.0", "2.4.1", "3.0.0"]}
    kwargs = {"base": lambda ref: core.catalogue, "versions": lambda name: loaded.get(name, [])}
    if chosen is None:
        with pytest.raises(PackError, match=r"no loaded pack meets core-kit \^0.3.0 — load it first"):
            read(lcp(manifest, frames_json=[FRAME]), **kwargs)
        return
    addon = read(lcp(manifest, frames_json=[FRAME]), **kwargs)
    assert addon.header.extends == f"core-kit@{chosen}" and {"mf_kite", "mw_pinprick"} <= set(addon.catalogue.items)


def test_every_missing_dependency_is_named_and_two_found_are_refused():
    manifest = {"name": "Add-on", "version": "1.0.0", "dependencies": [{"name": "Core Kit", "version": "*"},
                                                                       {"name": "Long Rim", "version": "^1.0.0"}]}
    with pytest.raises(PackError, match="core-kit \\*; long-rim \\^1.0.0 — load them first"):
        read(lcp(manifest, weapons_json=[WEAPON]))
    with pytest.raises(PackError, match="extends one pack"):
        read(lcp(manifest, weapons_json=[WEAPON]), versions=lambda name: ["1.0.0"])


@pytest.mark.parametrize("files, error", [
    ({"weapons_json": "[{not json"}, "not valid JSON at line 1"),
    ({"weapons_json": {"id": "x"}}, "a list of weapon entries"),
])
def test_broken_files_are_refused(files, error):
    with pytest.raises((PackError, PackUnreadable), match=error):
        read(lcp(**files))


def test_an_lcp_without_a_manifest_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("weapons.json", json.dumps([WEAPON]))
    with pytest.raises(PackError, match="lcp_manifest.json: missing"):
        read(buffer.getvalue())


# --- through the site: the upload form, POST /api/packs and load_pack ----------------------------------------------

ADDON = {"name": "Gull Works", "author": "us", "version": "0.2", "description": "A kit on the starter.",
         "dependencies": [{"name": "lancer-starter", "version": "^1.0.0"}]}
GULL_FRAME = {**FRAME, "id": "mf_gull", "name": "Gull", "license_id": "mf_gull",
              "core_system": {**FRAME["core_system"], "deployables": [{"name": "Beacon", "size": 0.5}]}}
GULL_GUN = {**WEAPON, "id": "mw_gull_gun", "name": "Gull Gun", "license_id": "mf_gull", "license_level": 1}


@pytest.mark.django_db
def test_an_lcp_on_the_starter_uploads_through_the_api_and_builds(client, packs):
    raw = lcp(ADDON, frames_json=[GULL_FRAME], weapons_json=[GULL_GUN], npc_features_json=[])
    response = client.post("/api/packs?filename=gull.lcp", raw, content_type="application/zip")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["pack"] == "gull-works@0.2.0" and body["extends"] == "lancer-starter@1.0.0" and body["items"] == 2
    pilot = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": "gull-works@0.2.0",
             "name": "Tern", "ll": 2, "hase": {"hull": 2, "agility": 2},
             "triggers": {"sk_spot": 1, "sk_survive": 1, "sk_patch": 2, "sk_resist": 2},
             "talents": {"t_iron_nerve": 2, "t_long_watch": 2, "t_quartermaster": 1}, "licences": {"mf_gull": 2},
             "mechs": [{"name": "Gull 1", "frame": "mf_gull", "mounts": [{"weapons": ["mw_gull_gun"]}, {}],
                        "systems": ["ms_patch_kit"]}]}
    saved = client.post("/api/builds", pilot, content_type="application/json")
    assert saved.status_code == 201 and saved.json()["report"]["legal"], saved.content
    share = client.get(f"/s/{saved.json()['share_id']}/").content.decode()
    assert "Gull Gun" in share and "Field Patch Kit" in share  # its own items and the starter's
    assert "y pos: 20" in share and "Burst: deployables: [{&quot;name&quot;: &quot;Beacon&quot;" in share
    build = Build.objects.get(share_id=saved.json()["share_id"])
    sheet = " ".join(PAGES["lancer", "pilot"].sheet_sections(build, store.check_saved(build), "/s/x/")[1].split())
    assert "on hit: rich text the engine does not model" in sheet and "Quick: synergies:" in sheet


@pytest.mark.django_db
def test_an_lcp_of_which_nothing_reads_is_refused_naming_every_entry_and_nothing_is_saved(client, packs):
    bad_gun = {**GULL_GUN, "damage": [{"type": "Psychic", "val": 3}]}
    raw = lcp(ADDON, frames_json=[{**GULL_FRAME, "mounts": ["Shoulder"]}], weapons_json=[bad_gun, {"name": "no id"}])
    upload = client.post("/packs/", {"file": SimpleUploadedFile("gull.lcp", raw, content_type="application/zip")})
    html = upload.content.decode()
    assert upload.status_code == 422 and "Nothing was loaded" in html
    for words in ("gull.lcp/frames.json: frame item &#x27;mf_gull&#x27;", "mounts",
                  "gull.lcp/weapons.json: weapon item &#x27;mw_gull_gun&#x27;", "damage",
                  "gull.lcp/weapons.json: weapon item #2"):
        assert words in html, words
    missing = client.post("/api/packs?filename=gull.lcp", lcp({**ADDON, "dependencies": [{"name": "Long Rim", "version": "*"}]},
                                                              weapons_json=[GULL_GUN]), content_type="application/zip")
    assert missing.status_code == 422 and "no loaded pack meets long-rim *" in json.dumps(missing.json())
    assert not Pack.objects.filter(name="gull-works").exists()


@pytest.mark.django_db
def test_load_pack_reads_an_lcp(packs, tmp_path):
    path = tmp_path / "gull.lcp"
    path.write_bytes(lcp(ADDON, frames_json=[GULL_FRAME], weapons_json=[GULL_GUN]))
    out = io.StringIO()
    call_command("load_pack", str(path), stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["pack"] == "gull-works@0.2.0" and printed["extends"] == "lancer-starter@1.0.0"
