"""A build on several packs, as COMP/CON's active content packs: a base and any number of extensions, each pinned
as name@version. Ids two packs share are named (HP-PACKS); newer versions and upgrades are per pack; a COMP/CON
pilot picks its packs from `brews`, else from the ids it uses. The packs are LCPs written here in lancer-data's
shapes (tests/data/lancer_data_mini as the base)."""
from __future__ import annotations

import json

import pytest

from builder import changes, exchange, store
from catalogue.loader import catalogue_by_ref, publish
from catalogue.rulesets.base import BuildError
from catalogue.rulesets.lancer import compcon
from tests.lancer.factories import MINI, zipped

BASE = "hardpoint-mini-core@0.1.0"
REACH = "far-reach@1.0.0"
WIND = "second-wind@1.0.0"
MOUNTS = ["Main", "Flex", "Heavy"]


def lcp(name: str, version: str, depends: bool = True, frames=(), weapons=(), systems=()) -> bytes:
    manifest = {"name": name, "author": "Hardpoint tests", "version": version, "description": f"{name}, for tests"}
    if depends:
        manifest["dependencies"] = [{"name": "Hardpoint mini core", "version": "*"}]
    files = {"lcp_manifest.json": json.dumps(manifest).encode()}
    for file, entries in (("frames.json", frames), ("weapons.json", weapons), ("systems.json", systems)):
        if entries:
            files[file] = json.dumps(list(entries)).encode()
    return zipped(files)


def frame(key: str, name: str, hp: int = 10) -> dict:
    everest = next(f for f in json.loads((MINI / "frames.json").read_bytes()) if f["id"].endswith("everest"))
    return {**everest, "id": key, "name": name, "source": "FAR REACH", "stats": {**everest["stats"], "hp": hp}}


def weapon(key: str, name: str, damage: int = 4) -> dict:
    return {"id": key, "name": name, "source": "FAR REACH", "license": "", "license_level": 0, "mount": "Main",
            "type": "Rifle", "damage": [{"type": "Kinetic", "val": damage}], "range": [{"type": "Range", "val": 10}],
            "tags": [], "description": "A test weapon."}


@pytest.fixture
def loaded(packs):
    """The mini core; Far Reach (extends it: a frame, a weapon); Second Wind (stands alone: a weapon whose id Far
    Reach also uses, and one of its own)."""
    published = {"core": publish(zipped({p.name: p.read_bytes() for p in MINI.glob("*.json")}), "mini-0.1.0.lcp"),
                 "reach": publish(lcp("Far Reach", "1.0.0", frames=[frame("mf_kestrel", "Kestrel")],
                                      weapons=[weapon("mw_longbow", "Longbow")]), "far-reach.lcp"),
                 "wind": publish(lcp("Second Wind", "1.0.0", depends=False,
                                     weapons=[weapon("mw_longbow", "Other Longbow", 6),
                                              weapon("mw_gale", "Gale")]), "second-wind.lcp")}
    return published


def pilot(*extensions: str, frame_key: str = "mf_kestrel", weapons=("mw_longbow",)) -> dict:
    document = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "pilot", "pack": BASE, "name": "Wren",
                "ll": 0, "licences": {}, "mechs": [{"name": "Kite", "frame": frame_key, "systems": [],
                                                      "mounts": [{"weapons": list(weapons), "mods": []},
                                                                 {"weapons": [], "mods": []},
                                                                 {"weapons": [], "mods": []}]}]}
    return {**document, "extensions": list(extensions)} if extensions else document


def codes(checked) -> set[str]:
    return {issue.code for issue in checked.report.issues}


def test_a_build_reads_its_base_and_each_extension_in_order(loaded):
    checked = store.check(pilot(REACH))
    assert checked.catalogue.ref == f"{BASE},{REACH}" and checked.catalogue.pack == BASE
    assert checked.catalogue.items["mf_kestrel"].name == "Kestrel"
    assert checked.catalogue.origins["mf_kestrel"] == REACH and "mf_standard_pattern_i_everest" not in \
        checked.catalogue.origins  # the base's own items, though Far Reach's stored pack holds them too
    assert checked.document["extensions"] == [REACH]
    with pytest.raises(BuildError, match="mf_kestrel"):  # the base alone has no Kestrel
        store.check(pilot())


def test_a_one_pack_build_reads_as_it_always_has(loaded):
    document = pilot(frame_key="mf_standard_pattern_i_everest", weapons=("mw_assault_rifle",))
    assert "extensions" not in store.check(document).document


def test_an_extension_not_loaded_or_of_another_ruleset_is_named_by_its_field(loaded):
    with pytest.raises(BuildError) as missing:
        store.check(pilot(REACH, "long-rim@1.0.0"))
    assert missing.value.problems == [{"path": "extensions[1]", "message": "pack long-rim@1.0.0 is not loaded here"}]
    with pytest.raises(BuildError) as other:
        store.check(pilot("ember-starter@1.0.0"))
    assert other.value.problems[0]["path"] == "extensions[0]" and "Ember" in other.value.problems[0]["message"]


def test_a_pack_is_pinned_once(loaded):
    with pytest.raises(BuildError, match="far-reach is named twice"):
        store.check(pilot(REACH, "far-reach@1.0.0"))


def test_hp_packs_an_id_two_packs_define_is_named_a_warning_where_used(loaded):
    checked = store.check(pilot(REACH, WIND))
    clash = [i for i in checked.report.issues if i.code == "HP-PACKS"]
    assert [(i.severity, i.path) for i in clash] == [("warning", "extensions")]
    assert "second-wind@1.0.0 and far-reach@1.0.0 both have 'mw_longbow'" in clash[0].message
    assert checked.catalogue.items["mw_longbow"].name == "Longbow"  # the first pack's
    assert checked.catalogue.items["mw_gale"].name == "Gale"


def test_hp_packs_an_id_the_build_does_not_use_is_only_a_note(loaded):
    checked = store.check(pilot(REACH, WIND, weapons=("mw_gale",)))
    assert [i.severity for i in checked.report.issues if i.code == "HP-PACKS"] == ["info"]
    assert "HP-PACKS" not in codes(store.check(pilot(REACH)))


def test_newer_versions_and_upgrades_go_pack_by_pack(loaded):
    build = store.create(store.check(pilot(REACH)))
    assert build.pack_ref == f"{BASE},{REACH}"
    publish(lcp("Far Reach", "1.1.0", frames=[frame("mf_kestrel", "Kestrel", hp=12)]), "far-reach.lcp",
            edit_token=loaded["reach"].user_pack.edit_token)
    assert [p.ref for p in changes.newer_packs(build.pack_ref)] == ["far-reach@1.1.0"]
    compared = changes.compare(build.document, store.check_saved(build).kind, "far-reach@1.1.0")
    assert (compared["from"], compared["to"]) == (REACH, "far-reach@1.1.0")
    rows = {row["key"]: row for row in compared["items"]}
    assert rows["mf_kestrel"]["fields"]["stats.hp"] == [10, 12]
    assert rows["mw_longbow"]["change"] == "removed"
    old, new = changes.versions(build.pack_ref, "far-reach@1.1.0")
    moved = changes.upgraded(build.document, store.check_saved(build).kind, old, new)
    assert (moved.document["pack"], moved.document["extensions"]) == (BASE, ["far-reach@1.1.0"])
    assert moved.emptied == [{"path": "mechs[0].mounts[0].weapons[0]", "key": "mw_longbow", "name": "Longbow"}]
    assert moved.document["removed"][0]["pack"] == "far-reach@1.1.0"
    with pytest.raises(BuildError):  # a pack the build does not pin is no upgrade of it
        changes.versions(build.pack_ref, "lancer-starter@1.0.0")


def exported(*extensions: str) -> dict:
    return compcon.to_compcon(pilot(*extensions), catalogue_by_ref(",".join([BASE, *extensions])))


def test_the_export_names_each_pack_but_the_core_in_brews(loaded):
    assert exported(REACH)["brews"] == ["Hardpoint mini core @ 0.1.0", "Far Reach @ 1.0.0"]


def test_a_compcon_import_takes_its_packs_from_brews(loaded):
    mine = [published.user_pack.newest() for published in loaded.values()]
    imported = exchange.read("compcon", json.dumps(exported(REACH)), "", mine)
    assert imported.checked.catalogue.ref == f"{BASE},{REACH}" and not imported.unknown and not imported.missing


def test_a_compcon_import_without_brews_takes_the_packs_whose_ids_it_uses(loaded):
    mine = [published.user_pack.newest() for published in loaded.values()]
    file = {**exported(REACH), "brews": []}
    file["mechs"][0]["loadouts"][0]["mounts"][1]["slots"][0]["weapon"] = {"id": "mw_gale", "mod": None}
    imported = exchange.read("compcon", json.dumps(file), "", mine)
    assert imported.checked.catalogue.ref == f"{BASE},{REACH},{WIND}"
    assert imported.checked.document["mechs"][0]["mounts"][1]["weapons"] == ["mw_gale"]


def test_a_compcon_import_names_the_pack_it_lacks_and_is_never_legal(loaded):
    mine = [loaded["core"].user_pack.newest()]  # this browser never opened Far Reach's link
    imported = exchange.read("compcon", json.dumps(exported(REACH)), "", mine)
    assert imported.missing == ["Far Reach @ 1.0.0"]
    assert imported.checked.catalogue.ref == BASE
    assert {u.id for u in imported.unknown} >= {"mf_kestrel"}
    assert all("the file names Far Reach @ 1.0.0, not loaded here" in u.where for u in imported.unknown)
    assert not imported.checked.report.legal and "HP-IMPORT" in codes(imported.checked)


def test_the_import_api_answers_the_packs_it_chose(client, loaded):
    """The API keeps no browser's packs: only Hardpoint's own packs are candidates, so it names what it lacks."""
    response = client.post("/api/import/compcon", exported(REACH), content_type="application/json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["missing_packs"] == ["Hardpoint mini core @ 0.1.0", "Far Reach @ 1.0.0"]
    assert body["packs"] == ["lancer-starter@1.0.0"] and not body["report"]["legal"]
    named = client.post(f"/api/import/compcon?pack={BASE},{REACH}", exported(REACH), content_type="application/json")
    assert named.json()["packs"] == [BASE, REACH] and named.json()["missing_packs"] == []


def test_a_new_build_starts_on_a_pack_set_once_each_link_was_opened(client, loaded):
    url = f"/new/lancer/pilot/?pack={BASE},{REACH}"
    assert client.get(url).status_code == 404
    for published in loaded.values():
        client.get(published.user_pack.share_url())
    page = client.get(url)
    assert page.status_code == 200
    assert f'name="pack" value="{BASE},{REACH}"'.encode() in page.content
    assert b"Kestrel" in page.content


def test_the_pack_choice_adds_and_takes_off_extensions(client, loaded):
    for published in loaded.values():
        client.get(published.user_pack.share_url())
    added = client.get("/new/lancer/pilot/", {"pack": BASE, "extend": REACH})
    assert added.status_code == 200 and b"Extension: Far Reach" in added.content
    assert f'href="?pack={BASE}">Take it off'.encode() in added.content
    linked = client.get("/new/lancer/pilot/", {"pack": f"{BASE},{REACH}", "extend": "1",
                                               "pack_link": loaded["wind"].user_pack.share_url()})
    assert linked.status_code == 302 and linked["Location"].endswith(f"?pack={BASE},{REACH},{WIND}")
    alone = client.get("/new/lancer/pilot/", {"pack": f"{BASE},{REACH}", "pack_link": loaded["wind"].user_pack.share_url()})
    assert alone["Location"].endswith(f"?pack={WIND}")


def test_a_saved_build_adds_an_extension_and_takes_off_one_it_does_not_use(client, loaded):
    client.get(loaded["wind"].user_pack.share_url())
    build = store.create(store.check(pilot(REACH)))
    url = f"/b/{build.edit_token}/packs"
    added = client.post(url, {"extend": loaded["wind"].user_pack.share_url(), "version": 1})
    assert added.status_code == 302
    build.refresh_from_db()
    assert (build.version, build.pack_ref, build.document["extensions"]) == (2, f"{BASE},{REACH},{WIND}",
                                                                            [REACH, WIND])
    page = client.get(f"/b/{build.edit_token}/")
    assert b"Extension: Second Wind" in page.content and b"HP-PACKS" in page.content
    in_use = client.post(url, {"remove": REACH, "version": 2})
    assert in_use.status_code == 422 and b"mf_kestrel" in in_use.content
    assert client.post(url, {"remove": WIND, "version": 2}).status_code == 302
    build.refresh_from_db()
    assert (build.version, build.pack_ref) == (3, f"{BASE},{REACH}")
    assert client.post(url, {"extend": "https://example.com/nothing/", "version": 3}).status_code == 422
    assert client.post(url, {"extend": loaded["wind"].user_pack.share_url(), "version": 1}).status_code == 302
    build.refresh_from_db()
    assert build.version == 3  # a stale version changes nothing


def test_hp_packs_many_unused_clashes_are_counted_not_listed(loaded):
    """A pack that repeats another's items (a copy uploaded as an extension) names a few clashes and counts the
    rest, rather than flooding the build with notes."""
    copy = publish(lcp("Copy Of Core", "1.0.0", depends=False,
                       frames=[f for f in json.loads((MINI / "frames.json").read_bytes())
                               if not f["id"].startswith("missing_")]), "copy.lcp")
    checked = store.check(pilot("copy-of-core@1.0.0", frame_key="mf_standard_pattern_i_everest",
                                weapons=("mw_assault_rifle",)))
    clashes = [i for i in checked.report.issues if i.code == "HP-PACKS"]
    frames = len(copy.user_pack.newest().items.all())
    assert len(clashes) == 1 + 5 + 1 and clashes[0].severity == "warning"  # the Everest in use, 5 named, the count
    assert clashes[-1].message.startswith(f"{frames - 1 - 5} more ids")
