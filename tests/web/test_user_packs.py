"""User packs end to end: upload through the CLI, the API and the browser pages; capability links; never anyone's
default; a build pinned to a user pack keeps its parts when the pack publishes a new version; a pack with entries it
could not read loads the rest and lists them on every surface."""
import json
from io import StringIO

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from catalogue.loader import catalogue_by_ref, latest_pack
from catalogue.models import Pack, UserPack
from tests.web.uploads import BASE, DM_HEADER, SPIKE, as_csv, as_zip


def deep_kit(version="1.0.0", damage=1, **header) -> bytes:
    return yaml.safe_dump({**DM_HEADER, "version": version, "extends": BASE, **header,
                           "items": {"weapon": [{**SPIKE, "damage": damage}]}}).encode()


def patchy_kit(version="1.0.0") -> bytes:
    """Deep kit with a second weapon whose damage does not read."""
    return yaml.safe_dump({**DM_HEADER, "version": version, "extends": BASE, "items": {"weapon": [
        SPIKE, {**SPIKE, "key": "bent-knuckles", "name": "Bent Knuckles", "damage": "lots"}]}}).encode()


BENT = {"file": "deep-kit.yaml", "category": "weapon", "id": "bent-knuckles", "field": "damage"}


def api_upload(client, raw, token=None, content_type="application/yaml"):
    url = f"/api/packs/{token}" if token else "/api/packs"
    return client.post(url, data=raw, content_type=content_type)


# --- CLI ----------------------------------------------------------------------------------------------

def run(*args) -> tuple[int, dict | str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("load_pack", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    text = out.getvalue()
    return code, (json.loads(text) if code in (0, 3) else text), err.getvalue()


def test_load_pack_prints_the_pack_and_its_links(packs, tmp_path):
    path = tmp_path / "deep-kit.yaml"
    path.write_bytes(deep_kit())
    code, printed, _ = run(str(path), "--owner-note", "for Tuesday")
    assert code == 0 and printed["pack"] == "deep-kit@1.0.0" and printed["status"] == "created"
    assert printed["items"] == 1 and printed["extends"] == BASE  # its own; the base's are stored with them
    owner = UserPack.objects.get(name="deep-kit")
    assert printed["share_url"] == f"/packs/{owner.share_id}/" and owner.owner_note == "for Tuesday"
    assert run(str(path))[0] == 1  # the name is taken without the edit link
    assert run(str(path), "--edit-token", owner.edit_token)[1]["status"] == "unchanged"


def test_load_pack_exit_codes_refused_and_unreadable(packs, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_bytes(deep_kit(damage="lots"))
    code, _, err = run(str(broken))
    assert code == 1 and "field 'damage'" in err
    garbage = tmp_path / "garbage.yaml"
    garbage.write_bytes(b"items: [unclosed")
    assert run(str(garbage))[0] == 2 and run(str(tmp_path / "missing.yaml"))[0] == 2
    assert not Pack.objects.filter(source="user").exists() and not UserPack.objects.exists()


def test_load_pack_exits_3_when_it_loaded_with_problems_and_prints_them(packs, tmp_path):
    path = tmp_path / "deep-kit.yaml"
    path.write_bytes(patchy_kit())
    code, printed, err = run(str(path))
    assert code == 3 and printed["status"] == "created" and printed["items"] == 1
    [skipped] = printed["skipped"]
    assert {k: skipped[k] for k in BENT} == BENT and "write a whole number" in skipped["message"]
    assert err.startswith("loaded with problems: 1 entry could not be read") and "'bent-knuckles'" in err
    assert catalogue_by_ref("deep-kit@1.0.0").items["spike-knuckles"].damage == 1
    clean = tmp_path / "clean-kit.yaml"
    clean.write_bytes(deep_kit(name="clean-kit"))
    code, printed, _ = run(str(clean))
    assert code == 0 and printed["skipped"] == []


def test_a_pack_with_a_bad_entry_published_twice_is_unchanged_and_still_lists_it(client, packs, tmp_path):
    path = tmp_path / "deep-kit.yaml"
    path.write_bytes(patchy_kit())
    run(str(path))
    token = UserPack.objects.get().edit_token
    code, printed, _ = run(str(path), "--edit-token", token)
    assert code == 3 and printed["status"] == "unchanged" and printed["skipped"][0]["id"] == "bent-knuckles"
    again = api_upload(client, patchy_kit(), token=token)
    assert again.status_code == 200 and again.json()["skipped"][0]["id"] == "bent-knuckles"
    assert Pack.objects.filter(name="deep-kit").count() == 1


def test_load_pack_reads_a_lone_csv_with_its_header_as_options(packs, tmp_path):
    path = tmp_path / "weapon.csv"
    path.write_bytes(as_csv(SPIKE))
    code, printed, _ = run(str(path), "--name", "knuckles", "--pack-version", "0.1.0", "--ruleset", "darkmetal",
                           "--title", "Knuckles")
    assert code == 0 and printed["pack"] == "knuckles@0.1.0" and printed["items"] == 1


# --- API ----------------------------------------------------------------------------------------------

def test_api_uploads_and_publishes_versions_through_the_edit_token(client, packs):
    created = api_upload(client, deep_kit())
    assert created.status_code == 201
    body = created.json()
    assert body["pack"] == "deep-kit@1.0.0" and body["share_url"].endswith(f"/packs/{UserPack.objects.get().share_id}/")
    assert api_upload(client, deep_kit()).status_code == 409  # the name is someone's
    newer = api_upload(client, deep_kit("1.0.1", damage=2), token=body["edit_token"])
    assert newer.status_code == 201 and newer.json()["pack"] == "deep-kit@1.0.1"
    older = api_upload(client, deep_kit("1.0.0", damage=3), token=body["edit_token"])
    assert older.status_code == 409 and "not newer" in older.json()["problems"][0]["message"]
    assert api_upload(client, deep_kit("2.0.0"), token="no-such-token").status_code == 404


@pytest.mark.parametrize("raw, content_type, status", [
    (deep_kit(damage="lots"), "application/yaml", 422),
    (b"items: [unclosed", "application/yaml", 400),
    (deep_kit(), "application/json", 415),
    (yaml.safe_dump({**DM_HEADER, "name": "metallurgent-starter", "items": {"weapon": [SPIKE]}}).encode(),
     "application/yaml", 409),
])
def test_api_refusals_save_nothing(client, packs, raw, content_type, status):
    response = api_upload(client, raw, content_type=content_type)
    assert response.status_code == status, response.content
    assert response.json()["problems"] or status == 415
    assert not Pack.objects.filter(source="user").exists() and not UserPack.objects.exists()


def test_api_loads_what_it_can_read_and_lists_the_rest(client, packs):
    response = api_upload(client, patchy_kit())
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["items"] == 1 and [{k: s[k] for k in BENT} for s in body["skipped"]] == [
        {**BENT, "file": "pack.yaml"}]  # a raw body is named by its media type
    assert api_upload(client, deep_kit("1.0.1"), token=body["edit_token"]).json()["skipped"] == []


def test_api_names_every_problem_with_its_field(client, packs):
    problems = api_upload(client, deep_kit(damage="lots")).json()["problems"]
    assert problems[0]["path"] == "pack.yaml" and "weapon item 'spike-knuckles': field 'damage'" in problems[0]["message"]


def test_api_takes_a_multipart_csv_with_its_header_fields(client, packs):
    upload = SimpleUploadedFile("weapon.csv", as_csv(SPIKE), content_type="text/csv")
    response = client.post("/api/packs", {"file": upload, **DM_HEADER, "extends": BASE})
    assert response.status_code == 201 and response.json()["pack"] == "deep-kit@1.0.0"


def test_api_refuses_an_oversized_body(client, packs):
    response = client.post("/api/packs", data=b"x", content_type="application/yaml",
                           CONTENT_LENGTH=str(10 * 1024 * 1024))
    assert response.status_code == 413


# --- never anyone's default; a pinned build keeps its parts ----------------------------------------

def test_a_user_pack_is_never_the_default_nor_browsable_by_ref(client, packs):
    api_upload(client, deep_kit("99.0.0"))
    assert latest_pack("darkmetal").ref == BASE
    assert client.get("/catalogue/darkmetal/", {"pack": "deep-kit@99.0.0"}).status_code == 404


def test_a_build_pinned_to_a_user_pack_keeps_its_values_after_1_0_1(client, packs):
    token = api_upload(client, deep_kit()).json()["edit_token"]
    document = {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": "deep-kit@1.0.0",
                "name": "Knuckles", "hands": [{"item": "spike-knuckles"}]}
    saved = client.post("/api/builds", data=json.dumps(document), content_type="application/json").json()
    assert api_upload(client, deep_kit("1.0.1", damage=2), token=token).status_code == 201
    again = client.get(f"/api/builds/{saved['share_id']}").json()
    assert again["build"]["pack"] == "deep-kit@1.0.0"
    assert catalogue_by_ref("deep-kit@1.0.0").items["spike-knuckles"].damage == 1
    assert catalogue_by_ref("deep-kit@1.0.1").items["spike-knuckles"].damage == 2


# --- the pages -------------------------------------------------------------------------------------

def page_upload(client, raw, name="deep-kit.yaml", url="/packs/", **fields):
    return client.post(url, {"file": SimpleUploadedFile(name, raw), **fields})


def test_upload_page_to_edit_link_share_link_and_a_new_build(client, packs):
    assert client.get("/packs/").status_code == 200
    response = page_upload(client, deep_kit(), owner_note="homebrew")
    owner = UserPack.objects.get()
    assert response.status_code == 302 and response["Location"] == owner.get_absolute_url()
    edit = client.get(owner.get_absolute_url()).content.decode()
    assert "Publish a new version" in edit and owner.share_url() in edit and "Spike Knuckles" in edit
    share = client.get(owner.share_url()).content.decode()
    assert "Publish a new version" not in share and owner.edit_token not in share
    new_url = "/new/darkmetal/leader/?pack=deep-kit@1.0.0"
    assert new_url.replace("&", "&amp;") in share
    builder = client.get(new_url).content.decode()
    assert 'value="deep-kit@1.0.0"' in builder
    assert "deep-kit" in client.get("/packs/").content.decode()  # listed on this browser


def test_publishing_a_new_version_from_the_edit_page(client, packs):
    page_upload(client, deep_kit())
    owner = UserPack.objects.get()
    response = page_upload(client, deep_kit("1.1.0", damage=2), url=owner.get_absolute_url())
    assert response.status_code == 302
    html = client.get(owner.share_url()).content.decode()
    assert "1.1.0" in html and "?version=1.0.0" in html
    older = client.get(owner.share_url(), {"version": "1.0.0"}).content.decode()
    assert "an older version" in older


def test_upload_errors_are_listed_on_the_page_and_nothing_is_saved(client, packs):
    response = page_upload(client, deep_kit(damage="lots"))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Nothing was loaded." in html and "field &#x27;damage&#x27;" in html
    assert not UserPack.objects.exists()


def test_the_pack_pages_list_what_the_pack_could_not_read(client, packs):
    response = page_upload(client, patchy_kit())
    owner = UserPack.objects.get()
    assert response.status_code == 302
    edit = client.get(owner.get_absolute_url()).content.decode()
    assert "Loaded 1 item added to darkmetal-rulebook" in edit and "1 entry could not be read" in edit
    share = client.get(owner.share_url()).content.decode()
    for html in (edit, share):
        section = html[html.index("What this pack could not read"):html.index("Build with this pack")]
        assert "<details open>" in section and '<th scope="row">weapon <code>bent-knuckles</code></th>' in section
        assert "deep-kit.yaml" in section and "<code>damage</code>" in section and "write a whole number" in section
    assert "Spike Knuckles" in share
    page_upload(client, deep_kit("1.1.0"), url=owner.get_absolute_url())
    assert "What this pack could not read" not in client.get(owner.share_url()).content.decode()  # 1.1.0 read whole
    assert "What this pack could not read" in client.get(owner.share_url(), {"version": "1.0.0"}).content.decode()


def test_a_long_list_of_what_a_pack_could_not_read_is_collapsed(client, packs):
    bent = [{**SPIKE, "key": f"bent-{n}", "damage": "lots"} for n in range(11)]
    raw = yaml.safe_dump({**DM_HEADER, "extends": BASE, "items": {"weapon": [SPIKE, *bent]}}).encode()
    page_upload(client, raw)
    html = client.get(UserPack.objects.get().share_url()).content.decode()
    assert "11 entries of the uploaded file were left out" in html and "<details>" in html
    assert "<summary>11 problems, by entry, file and field</summary>" in html


def test_a_new_build_refuses_a_pack_of_another_ruleset(client, packs):
    assert client.get(f"/new/metallurgent/anvil/?pack={BASE}").status_code == 404
    assert client.get("/new/darkmetal/leader/?pack=nope@1.0.0").status_code == 404


def test_a_new_build_offers_this_browsers_packs_and_takes_a_pasted_share_link(client, packs):
    page = client.get("/new/darkmetal/leader/").content.decode()
    assert "use or add another pack" in page and "This browser&#x27;s packs" not in page
    page_upload(client, deep_kit())
    owner = UserPack.objects.get()
    page = client.get("/new/darkmetal/leader/").content.decode()
    assert '<option value="deep-kit@1.0.0">' in page
    assert '<option value="deep-kit@1.0.0">' not in client.get("/new/metallurgent/anvil/").content.decode()
    pasted = client.get("/new/darkmetal/leader/", {"pack_link": f"https://elsewhere.test{owner.share_url()}"})
    assert pasted.status_code == 302 and pasted["Location"] == "/new/darkmetal/leader/?pack=deep-kit@1.0.0"
    assert client.get("/new/darkmetal/leader/", {"pack_link": "https://x.test/packs/nope/"}).status_code == 404


def test_a_category_downloads_as_csv_to_start_a_pack_from(client, packs):
    response = client.get("/catalogue/darkmetal/export.csv", {"category": "splice"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response.content.decode().startswith("key,name,description,cost,score")
    assert 'filename="splice.csv"' in response["Content-Disposition"]
    assert "export.csv?category=splice" in client.get("/catalogue/darkmetal/", {"category": "splice"}).content.decode()
    assert client.get("/catalogue/darkmetal/export.csv", {"category": "jetpack"}).status_code == 404
    api_upload(client, deep_kit())
    assert client.get("/catalogue/darkmetal/export.csv", {"category": "weapon", "pack": "deep-kit@1.0.0"}).status_code == 404


def csv_zip(**header) -> bytes:
    return as_zip({"pack.yaml": yaml.safe_dump({**DM_HEADER, "extends": BASE, **header}).encode(),
                   "weapon.csv": as_csv(SPIKE)})


def test_a_zip_of_csvs_uploads_through_the_api_and_the_command(client, packs, tmp_path):
    response = api_upload(client, csv_zip(), content_type="application/zip")
    assert response.status_code == 201 and response.json()["pack"] == "deep-kit@1.0.0"
    assert catalogue_by_ref("deep-kit@1.0.0").items["spike-knuckles"].name == SPIKE["name"]
    path = tmp_path / "other-kit.zip"
    path.write_bytes(csv_zip(name="other-kit"))
    code, printed, _ = run(str(path))
    assert code == 0 and printed["pack"] == "other-kit@1.0.0" and printed["items"] == 1
    broken = tmp_path / "broken-kit.zip"
    broken.write_bytes(as_zip({"pack.yaml": yaml.safe_dump({**DM_HEADER, "name": "broken-kit"}).encode(),
                               "weapon.csv": as_csv({**SPIKE, "damage": "lots"})}))
    code, _, err = run(str(broken))
    assert code == 1 and "weapon.csv" in err and "damage" in err and not Pack.objects.filter(name="broken-kit")


# --- the API reads an uploaded pack only through its share link -------------------------------------

@pytest.mark.parametrize("endpoint", ["items", "examples"])
def test_the_api_reads_an_uploaded_pack_only_through_its_share_link(client, packs, endpoint):
    """As on the catalogue pages: knowing a pack's name and version is not its link."""
    uploaded = api_upload(client, deep_kit()).json()
    url = f"/api/rulesets/darkmetal/{endpoint}"
    refused = client.get(url, {"pack": "deep-kit@1.0.0"})
    assert refused.status_code == 404 and "pack_link" in refused.json()["reason"]
    assert client.get(url, {"pack_link": "/packs/nosuchpack/"}).status_code == 404
    shared = client.get(url, {"pack_link": uploaded["share_url"]})
    assert shared.status_code == 200 and shared.json()["pack"] == "deep-kit@1.0.0"
    versioned = client.get(url, {"pack_link": uploaded["share_url"], "pack": "deep-kit@1.0.0"})
    assert versioned.json()["pack"] == "deep-kit@1.0.0"
    assert client.get(url, {"pack_link": uploaded["share_url"], "pack": BASE}).status_code == 404  # not its version


def test_an_items_own_category_field_does_not_overwrite_the_pack_category(client, packs):
    """A METALLURGENT weapon has a `category` of its own (ballistic, energetic, melee)."""
    items = client.get("/api/rulesets/metallurgent/items", {"category": "weapon"}).json()["items"]
    assert items and all(i["category"] == "weapon" for i in items)
    assert {i["item_category"] for i in items} <= {"ballistic", "energetic", "melee"}


def test_a_new_build_starts_on_an_uploaded_pack_only_after_its_share_link_was_opened(client, packs):
    """The builder shows a pack's items in its pickers: as for the API, its name and version are not its link."""
    uploaded = api_upload(client, deep_kit()).json()  # the API keeps nothing in this browser's session
    new_url = "/new/darkmetal/leader/?pack=deep-kit@1.0.0"
    refused = client.get(new_url)
    assert refused.status_code == 404 and b"open its share link" in refused.content
    posted = client.post("/new/darkmetal/leader/", {"name": "Snoop", "pack": "deep-kit@1.0.0", "armor": ""})
    assert posted.status_code == 422 and b"share link" in posted.content
    client.post("/draft/", {"draft_for": "/new/darkmetal/leader/", "pack": "deep-kit@1.0.0", "name": "Snoop"})
    assert b"Snoop" not in client.get("/new/darkmetal/leader/").content  # a forged draft reads nothing either
    client.get(uploaded["share_url"])
    assert client.get(new_url).status_code == 200
