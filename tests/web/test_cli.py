"""`manage.py validate FILE.json`: exit 0 legal, 1 illegal (Report on stdout), 2 unreadable (reason on stderr)."""
import copy
import json
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command

from catalogue.loader import find_pack
from tests.helpers.refs import pack_ref


def run_validate(path) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("validate", str(path), stdout=out, stderr=err)
    return exited.value.code, out.getvalue(), err.getvalue()


def example(task: str = "vanguard") -> dict:
    pack = find_pack(pack_ref("metallurgent", "anvil"))
    return copy.deepcopy(next(e for e in pack.examples if e["task"] == task))


def write(tmp_path, content, name="build.json"):
    path = tmp_path / name
    if isinstance(content, (dict, list)):
        content = json.dumps(content)
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return path


def assert_unreadable(code: int, out: str, err: str) -> None:
    assert code == 2
    assert out == ""
    reason = err.strip()
    assert reason and "\n" not in reason


# --- readable builds -----------------------------------------------------------------------------

@pytest.mark.parametrize("task", ["vanguard", "sniper", "recon", "defender", "artillerist", "commander"])
def test_legal_example_exits_0_with_json_report(packs, tmp_path, task):
    code, out, err = run_validate(write(tmp_path, example(task)))
    assert code == 0, out
    report = json.loads(out)
    assert report["legal"] is True
    assert err == ""


def test_illegal_build_exits_1_with_report_naming_the_rule(packs, tmp_path):
    doc = example("vanguard")
    doc["parts"]["mobility_base"] = "zephyr-hover"  # 32 ST carried, the hover skirt tops out at 29
    code, out, _ = run_validate(write(tmp_path, doc))
    assert code == 1
    report = json.loads(out)
    assert report["legal"] is False
    assert "M-R32" in {i["code"] for i in report["issues"]}


def test_missing_component_exits_1(packs, tmp_path):
    doc = example("sniper")
    doc["parts"]["fcs"] = None
    code, out, _ = run_validate(write(tmp_path, doc))
    assert code == 1
    assert "M-R01" in {i["code"] for i in json.loads(out)["issues"]}


def test_unicode_name_is_fine(packs, tmp_path):
    code, _, _ = run_validate(write(tmp_path, {**example(), "name": "Ørn Ⅱ — 鋼"}))
    assert code == 0


# --- unreadable input: exit 2, one line on stderr, nothing on stdout -----------------------------

def test_malformed_json_exits_2(packs, tmp_path):
    assert_unreadable(*run_validate(write(tmp_path, '{"name": "Half a build",')))


def test_binary_garbage_exits_2(packs, tmp_path):
    assert_unreadable(*run_validate(write(tmp_path, b"\xff\xfe\x00garbage")))


def test_empty_file_exits_2(packs, tmp_path):
    assert_unreadable(*run_validate(write(tmp_path, "")))


def test_missing_file_exits_2(packs, tmp_path):
    code, out, err = run_validate(tmp_path / "nowhere.json")
    assert_unreadable(code, out, err)
    assert "nowhere.json" in err


def test_directory_instead_of_file_exits_2(packs, tmp_path):
    assert_unreadable(*run_validate(tmp_path))


@pytest.mark.parametrize("content", [[], "42", '"a build"', "null"], ids=["array", "number", "string", "null"])
def test_non_object_json_exits_2(packs, tmp_path, content):
    assert_unreadable(*run_validate(write(tmp_path, content)))


@pytest.mark.parametrize("ruleset", [["metallurgent"], {"key": "metallurgent"}], ids=["list", "object"])
def test_non_string_ruleset_exits_2(packs, tmp_path, ruleset):
    assert_unreadable(*run_validate(write(tmp_path, {**example(), "ruleset": ruleset})))


def test_deeply_nested_json_exits_2(packs, tmp_path):
    depth = 100_000  # 200 KB, under the size limit
    assert_unreadable(*run_validate(write(tmp_path, "[" * depth + "]" * depth)))


def test_unknown_part_key_exits_2_naming_the_slot(packs, tmp_path):
    doc = example()
    doc["parts"]["core"] = "no-such-core"
    code, out, err = run_validate(write(tmp_path, doc))
    assert_unreadable(code, out, err)
    assert "parts.core" in err and "no-such-core" in err


def test_part_in_wrong_slot_exits_2(packs, tmp_path):
    doc = example()
    doc["parts"]["left_arm"] = "nimbus-core"
    code, out, err = run_validate(write(tmp_path, doc))
    assert_unreadable(code, out, err)
    assert "M-R02" in err


def test_unknown_field_exits_2(packs, tmp_path):
    code, out, err = run_validate(write(tmp_path, {**example(), "colour": "red"}))
    assert_unreadable(code, out, err)
    assert "colour" in err


def test_unknown_pack_exits_2(packs, tmp_path):
    code, out, err = run_validate(write(tmp_path, {**example(), "pack": "metallurgent-starter@9.9.9"}))
    assert_unreadable(code, out, err)
    assert "9.9.9" in err


def test_several_problems_still_one_line(packs, tmp_path):
    doc = {**example(), "name": "<b>x</b>", "colour": "red", "task": "pilot"}
    assert_unreadable(*run_validate(write(tmp_path, doc)))


def test_file_over_256_kb_exits_2_even_if_legal(packs, tmp_path):
    text = json.dumps(example())
    padded = text + " " * (settings.HARDPOINT_MAX_BODY + 1 - len(text))
    assert len(padded) == 256 * 1024 + 1
    code, out, err = run_validate(write(tmp_path, padded))
    assert_unreadable(code, out, err)


def test_file_at_exactly_256_kb_is_read(packs, tmp_path):
    text = json.dumps(example())
    padded = text + " " * (256 * 1024 - len(text))
    code, _, _ = run_validate(write(tmp_path, padded))
    assert code == 0
