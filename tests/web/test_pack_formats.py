"""Uploaded packs read from YAML, CSV or zip (catalogue/rulesets/packs.py): every mistake is named with its
file, row or item key, field and a fix, and no bytes at all make anything but a PackError. One bad entry is left out
and listed (`skipped`) while the rest loads; an upload of which nothing reads, and a repo pack with any bad entry,
are refused."""
import csv
import io

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import PackError, PackUnreadable
from catalogue.rulesets.packs import MAX_UNZIPPED, MAX_UPLOAD, read_pack, read_upload, to_csv
from tests.web.uploads import DM_HEADER, HEADER, RIFLE, SPIKE, as_csv, as_yaml, as_zip

STARTER = ACTIVE["metallurgent"].data_dir / "starter.yaml"
RULEBOOK = ACTIVE["darkmetal"].data_dir / "rulebook.yaml"


def base_catalogue(ref):
    path = {"metallurgent-starter": STARTER, "darkmetal-rulebook": RULEBOOK}.get(ref.split("@")[0])
    data = read_pack(path, ACTIVE) if path else None
    return data.catalogue if data and data.catalogue.pack == ref else None


STARTER_REF = read_pack(STARTER, ACTIVE).catalogue.pack


def upload(raw, filename="house.yaml", header=None):
    return read_upload(raw, filename, ACTIVE, header=header, base=base_catalogue)


def refused(raw, filename="house.yaml", header=None, kind=PackError) -> str:
    with pytest.raises(kind) as raised:
        upload(raw, filename, header)
    return str(raised.value)


# --- what loads --------------------------------------------------------------------------------------

def test_a_yaml_pack_loads_as_a_user_pack():
    data = upload(as_yaml())
    assert data.header.source == "user" and data.catalogue.pack == "house-guns@1.0.0"
    assert data.catalogue.items["sleet-rifle"].damage == 7


def test_a_lone_csv_loads_with_its_header_given_beside_it():
    data = upload(as_csv(RIFLE, {**RIFLE, "key": "sleet-carbine", "name": "Sleet Carbine", "range": 6}),
                  "weapon.csv", HEADER)
    assert sorted(data.catalogue.items) == ["sleet-carbine", "sleet-rifle"]
    assert data.catalogue.items["sleet-carbine"].range == 6 and data.catalogue.items["sleet-rifle"].functions == [
        "Burst 2"]


def test_a_csv_with_nested_columns_builds_nested_fields():
    """DARK METAL Splices with `effects.traits.ath` columns; the category from the header, a UTF-8 BOM kept out."""
    splice = {"key": "bone-lace", "name": "Bone Lace", "cost": 150, "score": 1,
              "effects": {"bhp": 1, "traits": {"ath": 0.5}}}
    data = upload(b"\xef\xbb\xbf" + as_csv(splice), "mods.csv", {**DM_HEADER, "category": "splice"})
    item = data.catalogue.items["bone-lace"]
    assert item.effects.bhp == 1 and item.effects.traits == {"ath": 0.5}


def test_a_zip_of_pack_yaml_and_category_csvs_loads():
    raw = as_zip({"pack.yaml": yaml.safe_dump(DM_HEADER).encode(), "weapon.csv": as_csv(SPIKE),
                  "armor.yaml": yaml.safe_dump([{"key": "hide-coat", "name": "Hide Coat", "cost": 60, "ahp": 1}]).encode(),
                  "__MACOSX/._weapon.csv": b"junk"})
    data = upload(raw, "deep-kit.zip")
    assert data.catalogue.categories == {"spike-knuckles": "weapon", "hide-coat": "armor"}


def test_an_extending_pack_adds_its_items_to_the_base():
    data = upload(as_yaml({**HEADER, "extends": STARTER_REF}))
    assert "sleet-rifle" in data.catalogue.items and "wisp-core" in data.catalogue.items
    assert data.header.extends == STARTER_REF


# --- one test per kind of mistake -------------------------------------------------------------------

def test_yaml_that_does_not_parse_is_unreadable_with_its_line():
    message = refused(b"name: x\nitems: [unclosed\n", kind=PackUnreadable)
    assert message.startswith("house.yaml: not valid YAML at line")


def test_csv_with_a_broken_quote_is_unreadable_with_its_row():
    message = refused(b'key,name\n"sleet-rifle,Sleet\n', "weapon.csv", HEADER, kind=PackUnreadable)
    assert "weapon.csv: row" in message and "quotes" in message


@pytest.mark.parametrize("fmt", ["yaml", "csv"])
def test_an_unknown_field_is_named_with_the_fields_allowed(fmt):
    raw, name = (as_yaml(items={"weapon": [{**RIFLE, "dammage": 7}]}), "house.yaml") if fmt == "yaml" else (
        as_csv({**RIFLE, "dammage": 7}), "weapon.csv")
    message = refused(raw, name, HEADER)
    where = "house.yaml" if fmt == "yaml" else "weapon.csv row 2"
    assert f"{where}: weapon item 'sleet-rifle': field 'dammage': Extra inputs are not permitted" in message
    assert "remove it or fix its spelling; this category's fields are: " in message and ", damage, " in message


@pytest.mark.parametrize("fmt, fix", [("yaml", "add 'damage:'"), ("csv", "add a 'damage' column")])
def test_a_missing_field_says_how_to_add_it(fmt, fix):
    rifle = {k: v for k, v in RIFLE.items() if k != "damage"}
    raw, name = (as_yaml(items={"weapon": [rifle]}), "house.yaml") if fmt == "yaml" else (as_csv(rifle), "weapon.csv")
    assert f"field 'damage': Field required — {fix}" in refused(raw, name, HEADER)


def test_a_wrong_type_in_a_csv_names_the_row_and_says_write_a_number():
    message = refused(as_csv({**RIFLE, "damage": "lots"}), "weapon.csv", HEADER)
    assert "weapon.csv row 2: weapon item 'sleet-rifle': field 'damage'" in message and "write a whole number" in message


def test_a_wrong_type_in_yaml_names_the_item_and_says_write_a_number():
    message = refused(as_yaml(items={"weapon": [{**RIFLE, "damage": "lots"}]}))
    assert "house.yaml: weapon item 'sleet-rifle': field 'damage'" in message and "write a whole number" in message


def test_a_bad_json_list_in_a_csv_cell_says_how_to_write_one():
    data = upload(as_csv(RIFLE, {**RIFLE, "key": "sleet-carbine", "functions": "[Burst 2"}), "weapon.csv", HEADER)
    assert list(data.catalogue.items) == ["sleet-rifle"]
    [bad] = data.skipped
    assert (bad.file, bad.id, bad.field) == ("weapon.csv row 3", "sleet-carbine", "functions")
    assert bad.message.startswith("not valid JSON; write a list as")


@pytest.mark.parametrize("fmt", ["yaml", "csv"])
def test_a_bad_key_says_what_keys_look_like(fmt):
    bad = {**RIFLE, "key": "Sleet Rifle!"}
    raw, name = (as_yaml(items={"weapon": [bad]}), "house.yaml") if fmt == "yaml" else (as_csv(bad), "weapon.csv")
    message = refused(raw, name, HEADER)
    assert name in message and "field 'key'" in message and "keys are lower-case letters, digits, - and _" in message


@pytest.mark.parametrize("fmt", ["yaml", "csv"])
def test_a_duplicate_key_says_rename_one(fmt):
    """The first item of a key loads; the second is left out."""
    raw, name = (as_yaml(items={"weapon": [RIFLE, {**RIFLE, "damage": 9}]}), "house.yaml") if fmt == "yaml" else (
        as_csv(RIFLE, {**RIFLE, "damage": 9}), "weapon.csv")
    data = upload(raw, name, HEADER)
    assert data.catalogue.items["sleet-rifle"].damage == 7
    [twice] = data.skipped
    where = "house.yaml" if fmt == "yaml" else "weapon.csv row 3"
    assert (twice.file, twice.id, twice.field) == (where, "sleet-rifle", "key") and "rename one" in twice.message
    assert str(twice).startswith(f"{where}: weapon item 'sleet-rifle': field 'key'")


def test_an_upload_of_which_nothing_reads_is_refused_naming_every_problem():
    message = refused(as_csv({**RIFLE, "damage": "x"}, {**RIFLE, "key": "b", "range": "far"}), "weapon.csv", HEADER)
    assert "weapon.csv row 2: weapon item 'sleet-rifle': field 'damage'" in message
    assert "weapon.csv row 3: weapon item 'b': field 'range'" in message


# --- one bad entry never refuses a whole upload ------------------------------------------------------

def test_a_yaml_pack_loads_its_good_items_and_lists_the_bad_one_by_file_id_and_field():
    carbine = {**RIFLE, "key": "sleet-carbine", "name": "Sleet Carbine"}
    data = upload(as_yaml(items={"weapon": [RIFLE, {**RIFLE, "key": "sleet-bent", "damage": "lots"}, carbine]}))
    assert sorted(data.catalogue.items) == ["sleet-carbine", "sleet-rifle"]
    assert [(s.file, s.category, s.id, s.field) for s in data.skipped] == [
        ("house.yaml", "weapon", "sleet-bent", "damage")]
    assert data.skipped[0].message.endswith("write a whole number")


def test_a_csv_with_one_bad_row_loads_the_other_rows():
    rows = as_csv(RIFLE, {**RIFLE, "key": "sleet-bent", "range": "far"}, {**RIFLE, "key": "sleet-carbine"})
    rows += b"odd-one,Odd,primary,x,y,z,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n"  # more cells than columns
    data = upload(rows, "weapon.csv", HEADER)
    assert sorted(data.catalogue.items) == ["sleet-carbine", "sleet-rifle"]
    assert ("weapon.csv row 3", "sleet-bent", "range") in [(s.file, s.id, s.field) for s in data.skipped]
    odd = [s for s in data.skipped if s.file == "weapon.csv row 5"]
    assert odd[0].id == "odd-one" and odd[0].field == "(item)" and "quote cells that hold commas" in odd[0].message


def test_an_item_without_a_key_is_named_by_its_place_and_an_unknown_category_by_its_items():
    data = upload(as_yaml(items={"weapon": [RIFLE, {k: v for k, v in RIFLE.items() if k != "key"}],
                                 "jetpack": [{"key": "hop-pack"}]}))
    assert list(data.catalogue.items) == ["sleet-rifle"]
    named = {(s.category, s.id, s.field) for s in data.skipped}
    assert ("weapon", "#2", "key") in named and ("jetpack", "hop-pack", "(item)") in named
    assert "unknown category 'jetpack'; use one of core" in str(data.skipped[-1])


def test_what_is_left_out_is_kept_as_text_even_when_the_upload_named_it_otherwise():
    """A file name (`?filename=` of the API, a zip's member) may hold a NUL, which no database stores."""
    data = upload(as_yaml(items={"weapon": [RIFLE, RIFLE]}), "house\x00.yaml")
    assert data.skipped[0].file == "house\\u0000.yaml"


def test_a_repo_pack_with_one_bad_item_is_refused(tmp_path):
    """The repo's own packs must be perfect: what an upload leaves out refuses them."""
    path = tmp_path / "starter.yaml"
    path.write_bytes(as_yaml({**HEADER, "source": "starter"},
                             {"weapon": [RIFLE, {**RIFLE, "key": "sleet-carbine", "damage": "lots"}]}))
    with pytest.raises(PackError, match="starter.yaml: weapon item 'sleet-carbine': field 'damage'"):
        read_pack(path, ACTIVE)
    uploaded = upload(path.read_bytes().replace(b"source: starter\n", b""))  # as an upload, the rest loads
    assert list(uploaded.catalogue.items) == ["sleet-rifle"] and uploaded.skipped[0].id == "sleet-carbine"


@pytest.mark.parametrize("change, named", [
    ({"ruleset": "chess"}, "ruleset: unknown ruleset 'chess'"),
    ({"version": "one"}, "pack header: field 'version'"),
    ({"source": "rulebook"}, "source: uploads are user packs"),
    ({"extends": "metallurgent-starter@9.9.9"}, "extends: no pack metallurgent-starter@9.9.9 is loaded here"),
])
def test_header_mistakes_are_named(change, named):
    assert named in refused(as_yaml({**HEADER, **change}))


def test_an_unknown_category_names_the_categories():
    message = refused(as_csv(RIFLE), "jetpack.csv", HEADER)
    assert "unknown category 'jetpack'; use one of core" in message


def test_extending_a_pack_of_another_ruleset_is_refused():
    message = refused(as_yaml({**DM_HEADER, "extends": STARTER_REF}, {"weapon": [SPIKE]}))
    assert "extends:" in message and "extend a pack of the same ruleset" in message


def test_a_key_that_collides_with_the_base_is_left_out():
    data = upload(as_yaml({**HEADER, "extends": STARTER_REF}, {"weapon": [RIFLE, {**RIFLE, "key": "hailstone-rifle"}]}))
    assert data.catalogue.items["hailstone-rifle"].name != RIFLE["name"]  # the base's stays
    assert "'hailstone-rifle' is already used by the base pack" in data.skipped[0].message


@pytest.mark.parametrize("raw, filename, named", [
    (b"x" * (MAX_UPLOAD + 1), "house.yaml", "a pack is at most"),
    (b"key,name\n", "house.xlsx", "a pack is a .yaml, .csv, .zip or .lcp file"),
    ("name: Café".encode("latin-1"), "house.yaml", "not UTF-8 text"),
    (b"PK\x03\x04 not really", "house.zip", "not a readable zip"),
])
def test_what_is_no_pack_at_all_is_unreadable(raw, filename, named):
    assert named in refused(raw, filename, HEADER, kind=PackUnreadable)


def test_a_zip_with_folders_is_refused():
    raw = as_zip({"pack.yaml": yaml.safe_dump(HEADER).encode(), "../weapon.csv": as_csv(RIFLE)})
    assert "sit at the top of the zip" in refused(raw, "house.zip", kind=PackUnreadable)


def test_a_zip_bomb_stops_at_the_limit():
    raw = as_zip({"pack.yaml": yaml.safe_dump(HEADER).encode(), "weapon.csv": b"\n" * (MAX_UNZIPPED + 1)})
    assert len(raw) < MAX_UPLOAD
    assert "unzips to more than" in refused(raw, "house.zip", kind=PackUnreadable)


def test_a_zip_without_pack_yaml_says_what_to_add():
    assert "pack.yaml: missing" in refused(as_zip({"weapon.csv": as_csv(RIFLE)}), "house.zip")


def test_the_repo_packs_may_not_be_user_packs(tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_bytes(as_yaml({**HEADER, "source": "user"}))
    with pytest.raises(PackError, match="the repo's packs are starter or rulebook packs"):
        read_pack(path, ACTIVE)


@settings(max_examples=150, deadline=None)
@given(raw=st.binary(max_size=400), suffix=st.sampled_from(["house.yaml", "weapon.csv", "house.zip", "x.txt"]))
def test_no_bytes_raise_anything_but_a_pack_error(raw, suffix):
    try:
        upload(raw, suffix, HEADER)
    except PackError:
        pass


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=300))
def test_no_csv_text_raises_anything_but_a_pack_error(text):
    try:
        upload(("key,name,damage\n" + text).encode(), "weapon.csv", HEADER)
    except PackError:
        pass


@pytest.mark.parametrize("path", [STARTER, RULEBOOK])
def test_every_category_exported_as_csv_uploads_back_to_the_same_items(path):
    """Each category's CSV export, zipped with a pack.yaml, loads back as the same items (together, because an
    item may name another category's: a DARK METAL ally template its weapons)."""
    source = read_pack(path, ACTIVE).catalogue
    categories = sorted(set(source.categories.values()))
    exported = {f"{c}.csv": to_csv([i.model_dump(mode="json", exclude_defaults=True) for i in source.of(c)]).encode()
                for c in categories}
    header = yaml.safe_dump(HEADER if path == STARTER else DM_HEADER).encode()
    data = upload(as_zip({"pack.yaml": header, **exported}), "pack.zip")
    for category in categories:
        assert [data.catalogue.items[i.key] for i in source.of(category)] == source.of(category), category


@pytest.mark.parametrize("text", ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2 to hit, +1 Damage", "@SUM(A1)",
                                  "\t=cmd"])
def test_a_csv_export_quotes_cells_a_spreadsheet_would_run_and_reads_them_back(text):
    """Exported CSV opens in spreadsheets, which run a cell starting =, +, -, @ (or tab) as a formula: such cells
    are written as text ('=…), and an upload takes the quote off, so the round trip keeps the item."""
    item = {**RIFLE, "description": text.strip(), "functions": ["Burst 2"]}
    exported = to_csv([item])
    row = next(csv.DictReader(io.StringIO(exported)))
    assert row["description"] == "'" + text.strip() and row["damage"] == "7"
    assert upload(exported.encode(), "weapon.csv", HEADER).catalogue.items["sleet-rifle"].description == text.strip()


def test_negative_numbers_stay_numbers_in_a_csv_export():
    assert next(csv.DictReader(io.StringIO(to_csv([{"key": "x", "accuracy": -1}]))))["accuracy"] == "-1"
