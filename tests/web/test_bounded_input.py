"""What a careless user or an attacker sends is refused with a reason, bounded before it is built, and never a 500:
YAML aliases that expand past any pack, numbers past Python's conversion limit, nesting past serialisation, NUL
characters (which PostgreSQL refuses), corrupt or doubled zip members, house-rule readings of the wrong type and
action buttons that name no row. Each test names what it protects."""
import io
import json
import zipfile
from io import StringIO

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from builder.models import Build, HouseRulePreset
from catalogue.loader import catalogue_by_ref, latest_pack
from catalogue.models import Item, Pack, UserPack
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import PackError, PackUnreadable
from catalogue.rulesets.packs import MAX_ITEM_BYTES, MAX_PACK_BYTES, read_upload
from catalogue.rulesets.reading import MAX_DEPTH, MAX_NODES, Unreadable, load_yaml, loads_json
from tests.helpers.refs import pack_ref
from tests.lancer.factories import WEAPON, lcp
from tests.web.uploads import DM_HEADER, HEADER, RIFLE, SPIKE, as_csv, as_yaml

pytestmark = pytest.mark.django_db
HUGE = "9" * 5000  # past the 4,300 digits int() converts
LAUGHS = "\n".join(["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"] +
                   [f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi")])


def rows() -> tuple[int, int, int, int]:
    return Pack.objects.count(), UserPack.objects.count(), Build.objects.count(), HouseRulePreset.objects.count()


def example(ruleset="metallurgent", kind="anvil") -> dict:
    return dict(latest_pack(ruleset, kind).examples[0])


def upload(client, raw: bytes, content_type="application/yaml", query=""):
    return client.post(f"/api/packs{query}", data=raw, content_type=content_type)


# --- YAML aliases: bounded as they expand ---------------------------------------------------------

def test_yaml_alias_expansion_is_bounded_before_anything_is_built():
    with pytest.raises(Unreadable, match="aliases expanded"):
        load_yaml(LAUGHS)  # 631 bytes that once took 1.3 GB
    with pytest.raises(Unreadable, match="inside what it names"):
        load_yaml("a: &a [1, *a]")


def test_yaml_aliases_within_bounds_still_read():
    """A pack may name one list twice (the rulebook's ally templates share their weapons)."""
    assert load_yaml("a: &w [rifle, pistol]\nb: *w") == {"a": ["rifle", "pistol"], "b": ["rifle", "pistol"]}
    flat = "[" + ",".join(["1"] * (MAX_NODES - 1)) + "]"
    assert len(load_yaml(flat)) == MAX_NODES - 1
    with pytest.raises(Unreadable):
        load_yaml("[" + ",".join(["1"] * MAX_NODES) + "]")


def test_a_billion_laughs_pack_upload_is_400_and_stores_nothing(client, packs):
    before = rows()
    response = upload(client, (yaml.safe_dump({**DM_HEADER, "title": "Laughs"}) + "items: {}\n" + LAUGHS).encode())
    assert response.status_code == 400 and "aliases expanded" in json.dumps(response.json())
    assert rows() == before


# --- numbers past the conversion limit --------------------------------------------------------------

@pytest.mark.parametrize("url", ["/api/validate", "/api/builds", "/api/preview", "/api/import/compcon"])
def test_a_number_past_the_conversion_limit_in_a_json_body_is_422(client, packs, url):
    body = f'{{"attacker": {HUGE}}}' if url == "/api/preview" else f'{{"name": "x", "xp": {HUGE}}}'
    before = rows()
    response = client.post(url, data=body, content_type="application/json")
    assert response.status_code == 422, response.content[:300]
    assert "5,000 digits" in response.json()["problems"][0]["message"] and rows() == before


def test_a_number_past_the_conversion_limit_in_the_import_form_is_refused(client, packs):
    upload_file = SimpleUploadedFile("pilot.json", f'{{"callsign": {HUGE}}}'.encode(), "application/json")
    response = client.post("/import/", {"format": "compcon", "file": upload_file})
    assert response.status_code == 422 and b"5,000 digits" in response.content


def test_a_number_past_the_conversion_limit_in_pack_yaml_csv_and_lcp_is_refused(client, packs):
    rulesets, huge_yaml = ACTIVE, as_yaml().replace(b"damage: 7", f"damage: {HUGE}".encode())
    with pytest.raises(PackUnreadable, match="digits"):
        read_upload(huge_yaml, "p.yaml", rulesets)
    with pytest.raises(PackError, match="digits"):
        read_csv_weapon(to_hit="9" * 200)
    with pytest.raises(PackUnreadable, match="digits"):
        read_upload(lcp(weapons_json=f'[{{"id": "mw_x", "name": "X", "license_level": {HUGE}}}]'), "kit.lcp",
                    {"lancer": ACTIVE["lancer"]})
    before = rows()
    assert upload(client, huge_yaml).status_code == 400
    assert rows() == before


@pytest.mark.parametrize("version", ["99999999999999999999.0.0", "1.2." + HUGE, "١.٢.٣"])
def test_a_pack_version_too_long_for_its_column_is_refused_not_stored(client, packs, version):
    """Stored, such a version broke every page showing the pack (and PostgreSQL refused it outright)."""
    before = rows()
    response = upload(client, as_yaml({**HEADER, "version": version}))
    assert response.status_code == 422 and "version" in json.dumps(response.json())
    assert rows() == before


def test_an_lcp_version_or_dependency_of_thousands_of_digits_is_named():
    for manifest in ({"name": "Kit", "version": "1." + HUGE}, {"name": "Kit", "version": "1.0",
                                                               "dependencies": [{"name": "Core", "version": "^" + HUGE}]}):
        with pytest.raises(PackError, match="not a version"):
            read_upload(lcp(manifest, weapons_json=[WEAPON]), "kit.lcp", {"lancer": ACTIVE["lancer"]})


def test_json_numbers_are_bounded_in_every_reader():
    with pytest.raises(Unreadable, match="at most 30"):
        loads_json("-" + "9" * 31)
    assert loads_json("9" * 30) == int("9" * 30)


# --- nesting -------------------------------------------------------------------------------------

def test_deep_nesting_in_an_items_extra_fields_is_refused_by_load_pack(packs, tmp_path):
    """LANCER items keep the fields Hardpoint does not model; nested deep enough, storing them broke."""
    deep: object = "end"
    for _ in range(MAX_DEPTH + 5):
        deep = {"more": deep}
    path = tmp_path / "kit.lcp"
    path.write_bytes(lcp(weapons_json=[{**WEAPON, "lore": deep}]))
    err = StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("load_pack", str(path), stdout=StringIO(), stderr=err)
    assert exited.value.code == 2 and "nested more than" in err.getvalue() and "Traceback" not in err.getvalue()


def test_nesting_just_within_the_bound_still_reads():
    value: object = 1
    for _ in range(MAX_DEPTH):
        value = [value]
    assert loads_json(json.dumps(value)) == value


# --- zips ----------------------------------------------------------------------------------------

def zipped(**files: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name.replace("_", "."), text)
    return buffer.getvalue()


def test_a_zip_member_with_a_corrupt_deflate_stream_is_unreadable(client, packs):
    raw = bytearray(zipped(pack_yaml=yaml.safe_dump(HEADER), weapon_csv=as_csv(RIFLE).decode() * 20))
    start = raw.index(b"weapon.csv") + len("weapon.csv")  # the member's compressed data follows its local header
    raw[start + 10:start + 40] = b"\xff" * 30
    with pytest.raises(PackUnreadable, match="cannot be unzipped"):
        read_upload(bytes(raw), "kit.zip", ACTIVE)
    before = rows()
    assert upload(client, bytes(raw), "application/zip").status_code == 400 and rows() == before


def test_a_zip_holding_two_files_of_one_name_is_refused_naming_both(client, packs):
    buffer = io.BytesIO()
    with pytest.warns(UserWarning), zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("pack.yaml", yaml.safe_dump(HEADER))
        archive.writestr("weapon.csv", as_csv(RIFLE))
        archive.writestr("weapon.csv", as_csv({**RIFLE, "key": "other-rifle"}))
    with pytest.raises(PackUnreadable, match=r"'weapon.csv' is in the zip twice \(files 2 and 3\)"):
        read_upload(buffer.getvalue(), "kit.zip", ACTIVE)


# --- stored size ---------------------------------------------------------------------------------

def test_an_item_over_the_stored_cap_is_left_out_and_named():
    long_lore = ["x" * 4000] * (MAX_ITEM_BYTES // 4000 + 1)
    big = {**WEAPON, "id": "mw_big", "lore": long_lore}
    pack = read_upload(lcp(weapons_json=[WEAPON, big]), "kit.lcp", {"lancer": ACTIVE["lancer"]})
    assert list(pack.catalogue.items) == [WEAPON["id"]]
    [left_out] = pack.skipped
    assert (left_out.id, left_out.field) == ("mw_big", "(item)") and "an item is at most" in left_out.message
    with pytest.raises(PackError, match="bytes once stored; an item is at most"):  # and alone, nothing is left
        read_upload(lcp(weapons_json=[big]), "kit.lcp", {"lancer": ACTIVE["lancer"]})


def test_a_pack_over_the_stored_cap_is_refused():
    weapons = [{**WEAPON, "id": f"mw_{n}", "lore": "x" * (MAX_ITEM_BYTES - 1000)} for n in range(MAX_PACK_BYTES // MAX_ITEM_BYTES + 2)]
    with pytest.raises(PackError, match="a pack is at most"):
        read_upload(lcp(weapons_json=weapons), "kit.lcp", {"lancer": ACTIVE["lancer"]})


def test_what_a_pack_stores_stays_under_the_caps(client, packs):
    response = upload(client, as_yaml(items={"weapon": [RIFLE]}))
    assert response.status_code == 201
    stored = [len(json.dumps(stats)) for stats in Item.objects.filter(pack__name="house-guns").values_list("stats", flat=True)]
    assert 0 < max(stored) <= MAX_ITEM_BYTES and sum(stored) <= MAX_PACK_BYTES


# --- NUL characters ------------------------------------------------------------------------------

def test_a_nul_in_a_form_field_is_400_before_anything_is_saved(client, packs):
    before = rows()
    response = client.post("/house-rules/darkmetal/presets", {"hr-preset-name": "Tuesday\x00night"})
    assert response.status_code == 400 and b"NUL" in response.content and rows() == before
    response = client.post("/new/metallurgent/anvil/", {"name": "Anvil", "notes": "a\x00b", "action": "save"})
    assert response.status_code == 400 and rows() == before


def test_a_nul_in_a_json_string_or_a_pack_file_is_refused(client, packs):
    document = {**example(), "notes": "a\x00b"}
    response = client.post("/api/builds", data=json.dumps(document), content_type="application/json")
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "notes"
    with pytest.raises(PackUnreadable, match="NUL"):
        read_upload(as_csv({**RIFLE, "name": "Sleet\x00Rifle"}), "weapon.csv", ACTIVE, header=HEADER)
    with pytest.raises(PackUnreadable, match="NUL"):
        read_upload(as_yaml().replace(b"name: Sleet Rifle", b'name: "Sleet\\0Rifle"'), "p.yaml", ACTIVE)


def test_a_nul_in_the_address_or_a_cookie_is_no_server_error(client, packs):
    assert client.get("/s/abcd%00ef/").status_code == 404
    client.cookies["sessionid"] = "abcdefgh\x00"
    assert client.get("/").status_code == 200


# --- house rules ---------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [["blocks"], {"reading": "blocks"}, 7, None])
def test_a_house_rule_reading_of_the_wrong_type_is_422_naming_it(client, packs, value):
    ruleset = ACTIVE["darkmetal"]
    reading = next(o for o in ruleset.house_rules().values() if o.kind == "reading")
    document = {**example("darkmetal", "leader"), "house_rules": {reading.key: value}}
    response = client.post("/api/validate", data=json.dumps(document), content_type="application/json")
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == f"house_rules.{reading.key}"


# --- action buttons ------------------------------------------------------------------------------

@pytest.mark.parametrize("action", ["remove:pack:²", "remove:pack:" + HUGE, "remove:pack:7", "remove:nothing:0"])
def test_an_action_button_that_names_no_row_is_422_naming_the_field(client, packs, action):
    response = client.post(f"/new/darkmetal/leader/?pack={pack_ref('darkmetal', 'leader')}",
                           {"name": "Leader", "armor": "", "action": action})
    assert response.status_code == 422 and b"action" in response.content


@pytest.mark.parametrize("url, action", [("/new/metallurgent/anvil/", "remove:" + HUGE),
                                         ("/new/metallurgent/anvil/", "unload:0:x"),
                                         ("/new/metallurgent/squad/", "remove-member:0:" + HUGE),
                                         ("/new/lancer/pilot/", "remove-mech:٣"),
                                         ("/new/megamercs/unit/", "remove:-1"),
                                         ("/new/ember/squad/", "remove-drone:99")])
def test_every_kinds_action_buttons_refuse_what_they_cannot_read(client, packs, url, action):
    response = client.post(url, {"name": "x", "action": action})
    assert response.status_code == 422, response.content[:300]


# --- found by the fuzzing of every surface (tests/web/test_fuzz_surfaces.py) -----------------------

def lzma_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_LZMA) as archive:
        archive.writestr("pack.yaml", yaml.safe_dump({**HEADER, "description": "x" * 400}))
    raw = bytearray(buffer.getvalue())
    start = raw.index(b"pack.yaml") + len("pack.yaml")
    raw[start + 20:start + 28] = b"\x00\xff" * 4
    return bytes(raw)


def test_a_corrupt_lzma_member_is_unreadable_not_a_server_error(client, packs):
    with pytest.raises(PackUnreadable, match="cannot be unzipped"):
        read_upload(lzma_zip(), "kit.zip", ACTIVE)
    assert upload(client, lzma_zip(), "application/zip").status_code == 400


@pytest.mark.parametrize("weapon", [{**WEAPON, "lore": "\ud800"}, {**WEAPON, "id": "\ud800"}])
def test_a_lone_surrogate_in_an_lcp_is_refused_and_the_upload_page_says_so(client, packs, weapon):
    """JSON can escape half of a UTF-16 pair, which no UTF-8 encodes: storing or showing it failed."""
    raw = lcp(weapons_json=json.dumps([weapon]))
    assert client.post("/api/packs?filename=kit.lcp", data=raw, content_type="application/zip").status_code == 400
    page = client.post("/packs/", {"file": SimpleUploadedFile("kit.lcp", raw)})
    assert page.status_code in (400, 422) and b"not text" in page.content


def test_yaml_binary_sets_and_dates_are_json_or_refused():
    """A pack is JSON once stored: a date stays the text it was written as; binary and sets are refused."""
    lancer = {"name": "kit", "version": "1.0.0", "ruleset": "lancer", "title": "Kit"}
    dated = yaml.safe_dump({**lancer, "items": {"weapon": [{**WEAPON, "released": "2001-12-14"}]}})
    item = read_upload(dated.replace("'2001-12-14'", "2001-12-14").encode(), "kit.yaml", ACTIVE).catalogue.items
    assert item["mw_pinprick"].kept()["released"] == "2001-12-14"
    for tagged in ("!!binary //79", "!!set {a: null}"):
        text = yaml.safe_dump({**lancer, "items": {"weapon": [{**WEAPON, "lore": "TAGGED"}]}})
        with pytest.raises(PackUnreadable, match="is not read here"):
            read_upload(text.replace("TAGGED", tagged).encode(), "kit.yaml", ACTIVE)


@pytest.mark.parametrize("house_rules", [{"nope": 1}, {"trait-budget": 1_000_000}, {"severity": {"DM-R18": "loud"}}])
def test_an_examples_house_rules_are_checked_at_upload(house_rules):
    """Unchecked, the upload was accepted and opening the example in the builder failed."""
    raw = yaml.safe_dump({**DM_HEADER, "extends": pack_ref("darkmetal", "leader"), "items": {"weapon": [SPIKE]},
                          "examples": [{"name": "Fz", "house_rules": house_rules}]}).encode()
    with pytest.raises(PackError, match="house_rules"):
        read_upload(raw, "kit.yaml", ACTIVE, base=catalogue_by_ref)


def test_a_list_mixing_rows_and_values_in_an_items_fields_shows_on_its_pack_page(client, packs):
    raw = lcp(weapons_json=[{**WEAPON, "lore": [{"a": 1}, 2]}])
    uploaded = client.post("/api/packs?filename=kit.lcp", data=raw, content_type="application/zip")
    assert uploaded.status_code == 201, uploaded.content
    assert client.get(uploaded.json()["share_url"]).status_code == 200


def read_csv_weapon(**cells):
    """A DARK METAL weapon (whose to_hit has no upper bound) as a lone CSV extending the rulebook pack."""
    header = {**DM_HEADER, "extends": pack_ref("darkmetal", "leader")}
    return read_upload(as_csv({**SPIKE, **cells}), "weapon.csv", ACTIVE, header=header, base=catalogue_by_ref)


def test_a_csv_number_written_with_underscores_is_bounded_too(packs):
    """Python and pydantic read 9_9 as 99: the digits are counted on the number read, not on the cell."""
    with pytest.raises(PackError, match="more than 30 digits"):
        read_csv_weapon(to_hit="9_" * 40 + "9")
    assert read_csv_weapon(to_hit="1_0").catalogue.items["spike-knuckles"].to_hit == 10
