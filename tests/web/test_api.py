"""The JSON API under /api/: its documented contract, including everything it must refuse."""
import json

import pytest

from builder.models import Build
from tests.helpers.refs import pack_ref
from tests.web.api_calls import create, example, examples, post_json, put_json

PACK = pack_ref("metallurgent", "anvil")
TASKS = {"vanguard", "sniper", "recon", "defender", "artillerist", "commander"}
CORES = {"wisp-core", "cirrus-core", "stratus-core", "nimbus-core", "thunderhead-core"}


# --- helpers ---------------------------------------------------------------------------------------

def assert_json_error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["status"] == status
    assert isinstance(body["reason"], str) and body["reason"].strip()
    return body


# --- rulesets, items, examples -------------------------------------------------------------------

def test_rulesets_lists_metallurgent_active_with_its_pack(client, packs):
    response = client.get("/api/rulesets/")
    assert response.status_code == 200
    by_key = {r["key"]: r for r in response.json()["rulesets"]}
    assert by_key["metallurgent"]["status"] == "active"
    assert by_key["metallurgent"]["pack"] == PACK


def test_rulesets_lists_every_game_with_its_default_pack(client, packs):
    by_key = {r["key"]: r for r in client.get("/api/rulesets/").json()["rulesets"]}
    assert set(by_key) == {"metallurgent", "darkmetal", "megamercs", "lancer", "ember"}
    assert {r["status"] for r in by_key.values()} == {"active"}
    assert by_key["darkmetal"]["pack"] == pack_ref("darkmetal", "leader")


def test_items_filtered_by_category_returns_only_cores_with_stats(client, packs):
    response = client.get("/api/rulesets/metallurgent/items", {"category": "core"})
    assert response.status_code == 200
    items = response.json()["items"]
    assert {i["key"] for i in items} == CORES
    for item in items:
        assert item["category"] == "core"
        for stat in ("name", "ap", "resistance", "load", "defence", "hardpoints"):
            assert stat in item


def test_items_unknown_category_is_400_with_reason(client, packs):
    response = client.get("/api/rulesets/metallurgent/items", {"category": "teleporter"})
    body = assert_json_error(response, 400)
    assert "teleporter" in body["reason"]


@pytest.mark.parametrize("key", ["no-such-game", "Ember"])
def test_items_unknown_or_inactive_ruleset_is_404_json(client, packs, key):
    assert_json_error(client.get(f"/api/rulesets/{key}/items"), 404)


def test_items_for_a_named_pack(client, packs):
    response = client.get("/api/rulesets/metallurgent/items", {"pack": PACK, "category": "fcs"})
    assert response.status_code == 200
    assert response.json()["pack"] == PACK
    assert len(response.json()["items"]) == 6


def test_items_for_an_unknown_pack_is_404(client, packs):
    response = client.get("/api/rulesets/metallurgent/items", {"pack": "metallurgent-starter@9.9.9"})
    assert_json_error(response, 404)


def test_examples_are_six_build_documents_one_per_task(client, packs):
    docs = examples(client)
    assert len(docs) == 6
    assert {d["task"] for d in docs} == TASKS
    for doc in docs:
        assert doc["ruleset"] == "metallurgent" and doc["kind"] == "anvil" and doc["pack"] == PACK


def test_every_example_validates_as_legal(client, packs):
    for doc in examples(client):
        response = post_json(client, "/api/validate", doc)
        assert response.status_code == 200
        report = response.json()
        assert report["legal"] is True, (doc["name"], report["issues"])


# --- validate ------------------------------------------------------------------------------------

def test_validate_legal_example(client, packs):
    response = post_json(client, "/api/validate", example(client))
    assert response.status_code == 200
    report = response.json()
    assert report["legal"] is True
    assert {"issues", "stats", "meters"} <= set(report)


def test_validate_overloaded_build_is_illegal_with_m_r32_on_mobility_base(client, packs):
    doc = example(client, "vanguard")
    doc["parts"]["mobility_base"] = "zephyr-hover"  # 32 ST carried, the hover skirt tops out at 29
    response = post_json(client, "/api/validate", doc)
    assert response.status_code == 200
    report = response.json()
    assert report["legal"] is False
    assert any(i["code"] == "M-R32" and i["path"] == "mobility_base" for i in report["issues"])


def test_validate_saves_nothing(client, packs):
    post_json(client, "/api/validate", example(client))
    assert Build.objects.count() == 0


# --- create and read -----------------------------------------------------------------------------

def test_create_build_returns_links_and_tokens(client, packs):
    body = create(client, example(client))
    build = Build.objects.get()
    assert body["edit_token"] == build.edit_token
    assert body["share_id"] == build.share_id
    assert body["version"] == 1
    assert body["edit_url"].endswith(f"/b/{build.edit_token}/")
    assert body["share_url"].endswith(f"/s/{build.share_id}/")
    assert body["pdf_url"]
    assert build.name == "Hailwall Vanguard" and build.pack_ref == PACK and build.legal


def test_get_build_by_share_id(client, packs):
    created = create(client, example(client))
    response = client.get(f"/api/builds/{created['share_id']}")
    assert response.status_code == 200
    body = response.json()
    assert body["build"]["name"] == "Hailwall Vanguard"
    assert body["version"] == 1
    assert body["report"]["legal"] is True


def test_get_build_never_reveals_the_edit_token(client, packs):
    created = create(client, example(client))
    response = client.get(f"/api/builds/{created['share_id']}")
    assert created["edit_token"] not in response.content.decode()


def test_get_build_by_edit_token_is_404(client, packs):
    created = create(client, example(client))
    assert_json_error(client.get(f"/api/builds/{created['edit_token']}"), 404)


def test_get_unknown_build_is_404(client, packs):
    assert_json_error(client.get("/api/builds/nothing-here"), 404)


# --- update and delete ---------------------------------------------------------------------------

def test_put_with_edit_token_bumps_version(client, packs):
    doc = example(client)
    created = create(client, doc)
    response = put_json(client, f"/api/builds/{created['edit_token']}",
                        {"version": 1, "build": {**doc, "name": "Renamed Once"}})
    assert response.status_code == 200, response.content
    assert response.json()["version"] == 2
    build = Build.objects.get()
    assert build.version == 2 and build.name == "Renamed Once" and build.document["name"] == "Renamed Once"


def test_stale_put_is_409_and_keeps_the_first_edit(client, packs):
    doc = example(client)
    created = create(client, doc)
    url = f"/api/builds/{created['edit_token']}"
    assert put_json(client, url, {"version": 1, "build": {**doc, "name": "First Edit"}}).status_code == 200
    response = put_json(client, url, {"version": 1, "build": {**doc, "name": "Second Edit"}})
    assert_json_error(response, 409)
    build = Build.objects.get()
    assert build.version == 2
    assert build.name == "First Edit" and build.document["name"] == "First Edit"


def test_put_with_share_id_is_404(client, packs):
    doc = example(client)
    created = create(client, doc)
    response = put_json(client, f"/api/builds/{created['share_id']}",
                        {"version": 1, "build": {**doc, "name": "Hijacked"}})
    assert_json_error(response, 404)
    assert Build.objects.get().name == "Hailwall Vanguard"


@pytest.mark.parametrize("envelope", [
    pytest.param(lambda doc: {"build": doc}, id="missing-version"),
    pytest.param(lambda doc: {"version": "1", "build": doc}, id="version-string"),
    pytest.param(lambda doc: {"version": True, "build": doc}, id="version-bool"),
    pytest.param(lambda doc: {"version": 1, "build": doc, "force": True}, id="extra-key"),
    pytest.param(lambda doc: {"version": 1}, id="missing-build"),
])
def test_put_with_bad_envelope_is_400(client, packs, envelope):
    doc = example(client)
    created = create(client, doc)
    response = put_json(client, f"/api/builds/{created['edit_token']}", envelope({**doc, "name": "Changed"}))
    assert_json_error(response, 400)
    build = Build.objects.get()
    assert build.version == 1 and build.name == "Hailwall Vanguard"


def test_delete_with_edit_token(client, packs):
    created = create(client, example(client))
    response = client.delete(f"/api/builds/{created['edit_token']}")
    assert response.status_code == 204
    assert Build.objects.count() == 0
    assert client.get(f"/api/builds/{created['share_id']}").status_code == 404


def test_delete_with_share_id_is_404(client, packs):
    created = create(client, example(client))
    assert_json_error(client.delete(f"/api/builds/{created['share_id']}"), 404)
    assert Build.objects.count() == 1


# --- bad input: a 4xx JSON error and nothing saved -----------------------------------------------

def _with(**changes):
    def change(doc):
        doc.update(changes)
        return doc
    return change


def _part(slot, key):
    def change(doc):
        doc["parts"][slot] = key
        return doc
    return change


def _gear(**entry_changes):
    def change(doc):
        doc["gear"][0].update(entry_changes)
        return doc
    return change


def _gear_count(n):
    def change(doc):
        doc["gear"] = [{"item": "rattle-mg", "mount": "core", "active": True}] * n
        return doc
    return change


BAD_DOCUMENTS = [
    pytest.param(lambda doc: [doc], None, id="json-array"),
    pytest.param(_with(colour="red"), "colour", id="unknown-top-level-key"),
    pytest.param(_part("core", "no-such-core"), "parts.core", id="unknown-part-key"),
    pytest.param(lambda doc: {**doc, "parts": {**doc["parts"], "cor": "nimbus-core"}}, "parts.cor",
                 id="misspelled-slot"),
    pytest.param(_part("left_arm", "nimbus-core"), "M-R02", id="core-in-arm-slot"),
    pytest.param(_gear(mount="left_leg"), "gear[0].mount", id="wrong-gear-mount"),
    pytest.param(_gear(item="no-such-gun"), "gear[0].item", id="unknown-gear-item"),
    pytest.param(_with(name="<script>alert(1)</script>"), "name", id="html-in-name"),
    pytest.param(_with(name="Bell\x07Ringer"), "name", id="bell-in-name"),
    pytest.param(_with(name="Null\x00Byte"), "name", id="nul-in-name"),
    pytest.param(_with(name="Esc\x1b[31mRed"), "name", id="escape-in-name"),
    pytest.param(_with(name="Delete\x7fMe"), "name", id="del-in-name"),
    pytest.param(_with(name="Unit\x1fSeparator"), "name", id="unit-separator-in-name"),
    pytest.param(_with(name="x" * 81), "name", id="name-81-chars"),
    pytest.param(_with(ruleset="warhammer"), "ruleset", id="unknown-ruleset"),
    pytest.param(_with(pack="metallurgent-starter@9.9.9"), "pack", id="unknown-pack-version"),
    pytest.param(_gear_count(49), "gear", id="49-gear-entries"),
]


@pytest.mark.parametrize("url", ["/api/builds", "/api/validate"])
@pytest.mark.parametrize("mutate, mentions", BAD_DOCUMENTS)
def test_unreadable_build_is_422_and_saves_nothing(client, packs, url, mutate, mentions):
    doc = mutate(example(client))
    before = Build.objects.count()
    response = post_json(client, url, doc)
    body = assert_json_error(response, 422)
    if mentions:
        assert mentions in json.dumps(body)
    assert Build.objects.count() == before


@pytest.mark.parametrize("url", ["/api/builds", "/api/validate"])
@pytest.mark.parametrize("ruleset", [["metallurgent"], {"key": "metallurgent"}, 7, None],
                         ids=["list", "object", "number", "null"])
def test_non_string_ruleset_is_422_not_a_crash(client, packs, url, ruleset):
    client.raise_request_exception = False
    response = post_json(client, url, {**example(client), "ruleset": ruleset})
    assert_json_error(response, 422)
    assert Build.objects.count() == 0


@pytest.mark.parametrize("url", ["/api/builds", "/api/validate"])
def test_deeply_nested_json_is_a_4xx_not_a_crash(client, packs, url):
    client.raise_request_exception = False
    depth = 100_000  # 200 KB, under the body limit
    response = post_json(client, url, "[" * depth + "]" * depth)
    assert 400 <= response.status_code < 500, response.status_code
    assert_json_error(response, response.status_code)
    assert Build.objects.count() == 0


def test_malformed_json_is_400(client, packs):
    response = post_json(client, "/api/builds", '{"name": "Half a build",')
    assert_json_error(response, 400)
    assert Build.objects.count() == 0


def test_empty_body_is_400(client, packs):
    response = post_json(client, "/api/builds", "")
    assert_json_error(response, 400)
    assert Build.objects.count() == 0


def test_ten_megabyte_body_is_413(client, packs):
    doc = example(client)
    doc["notes"] = "x" * (10 * 1024 * 1024)
    response = client.post("/api/builds", data=json.dumps(doc), content_type="application/json")
    assert_json_error(response, 413)
    assert Build.objects.count() == 0


def test_text_plain_is_415(client, packs):
    response = post_json(client, "/api/builds", example(client), content_type="text/plain")
    assert_json_error(response, 415)
    assert Build.objects.count() == 0


def test_wrong_method_is_405_json(client, packs):
    body = assert_json_error(client.get("/api/validate"), 405)
    assert "POST" in body["reason"]


def test_put_on_collection_is_405_and_saves_nothing(client, packs):
    response = put_json(client, "/api/builds", example(client))
    assert_json_error(response, 405)
    assert Build.objects.count() == 0


def test_bad_put_document_is_422_and_keeps_the_build(client, packs):
    doc = example(client)
    created = create(client, doc)
    response = put_json(client, f"/api/builds/{created['edit_token']}",
                        {"version": 1, "build": {**doc, "name": "<b>bold</b>"}})
    assert_json_error(response, 422)
    build = Build.objects.get()
    assert build.version == 1 and build.name == "Hailwall Vanguard"


# --- unicode ---------------------------------------------------------------------------------------

def test_unicode_name_round_trips(client, packs):
    name = "Ørn Ⅱ — 鋼"
    created = create(client, {**example(client), "name": name})
    assert Build.objects.get().name == name
    assert client.get(f"/api/builds/{created['share_id']}").json()["build"]["name"] == name
