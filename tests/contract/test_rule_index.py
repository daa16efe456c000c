"""The rule indexes: every digest rule ID is in its ruleset's index, has a test named by it, and every issue the
builder shows links to its entry on the rule index page; each ruleset's docs page's readings are the index's."""
import ast
import re
from html import escape
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import PackError
from catalogue.rulesets.rule_index import load, readings_page, readings_table, with_readings
from tests.helpers.rulebooks import DIGESTS, named_tests

INDEXED = [key for key, ruleset in ACTIVE.items() if ruleset.rules()]
CONSTRUCTION = re.compile(r"^[A-Z]+-R\d")  # the digests' construction rules, which every index lists in order


def digest_ids(key: str) -> list[str]:
    path = DIGESTS / f"{key}.md"
    if not path.exists():
        pytest.skip(f"the digest {path} is not beside this checkout")
    # A digest may set its IDs in bold (`| **L-R01** |`).
    return re.findall(r"^\| (?:\*\*)?([A-Z]+-R\d+[a-z]?)(?:\*\*)? \|", path.read_text(encoding="utf-8"), re.MULTILINE)


def named_in(rule_id: str, name: str) -> bool:
    token = re.sub(r"[^a-z0-9]+", "_", rule_id.lower())
    return re.search(rf"(^test_|_){token}(_|$)", name) is not None


def emitted_codes(key: str) -> set[str]:
    """The rule IDs a ruleset's checks report: the first argument of every `report.add("…", …)`."""
    codes = set()
    for path in (Path(settings.BASE_DIR) / "catalogue" / "rulesets" / key).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                    and re.match(r"^[A-Z]+-", node.args[0].value)):
                codes.add(node.args[0].value)
    return codes


def test_every_active_ruleset_with_rules_has_an_index():
    assert set(INDEXED) >= {"metallurgent", "darkmetal"}


@pytest.mark.parametrize("key", INDEXED)
def test_the_index_holds_every_digest_rule_id_in_digest_order(key):
    # Hardpoint's own checks (HP-) and the combat rules an index may add (MM-C02) are not the digest's R list.
    index = [rule_id for rule_id in ACTIVE[key].rules() if CONSTRUCTION.match(rule_id)]
    assert index == digest_ids(key)


@pytest.mark.parametrize("key", INDEXED)
def test_every_rule_id_has_a_test_named_by_it(key):
    names = named_tests()
    missing = [rule_id for rule_id in ACTIVE[key].rules() if not any(named_in(rule_id, name) for name in names)]
    assert missing == []


@pytest.mark.parametrize("key", INDEXED)
def test_every_issue_code_a_check_reports_has_an_entry(key):
    codes = emitted_codes(key)
    assert codes and codes <= set(ACTIVE[key].rules()), codes - set(ACTIVE[key].rules())


def test_a_test_name_counts_for_its_rule_ids_only():
    assert named_in("M-R14", "test_m_r14_arm_strength_exceeded") and named_in("M-R21", "test_m_r20_m_r21_caps")
    assert not named_in("M-R00", "test_m_r00a_unit_names") and not named_in("M-R32", "test_dm_r32_removal")
    assert not named_in("M-R1", "test_m_r14_arm_strength")


@pytest.mark.django_db
@pytest.mark.parametrize("key", INDEXED)
def test_the_rule_index_page_shows_every_entry_with_an_anchor(client, key):
    html = client.get(f"/catalogue/{key}/rules/").content.decode()
    for rule in ACTIVE[key].rules().values():
        assert f'id="{rule.id}"' in html
        for reading in rule.readings:
            assert reading.ambiguity in html
            assert escape(reading.fixed) in html
            if reading.option not in ("", "severity"):
                assert escape(ACTIVE[key].house_rules()[reading.option].alternatives()) in html
    assert f'href="/catalogue/{key}/rules/"' in client.get("/catalogue/").content.decode()


@pytest.mark.django_db
def test_a_ruleset_without_an_index_has_no_rule_page(client):
    assert client.get("/catalogue/nonesuch/rules/").status_code == 404


@pytest.mark.django_db
def test_every_issue_in_the_builder_links_to_its_rule(client, packs):
    """An empty Anvil (M-R01 seven times) and an overloaded one: each issue's code is a link to its entry."""
    from catalogue.loader import latest_pack
    from tests.metallurgent.factories import form_for

    example = dict(latest_pack("metallurgent").examples[0])
    html = client.post("/new/metallurgent/anvil/", form_for(example, **{"part-mobility_base": "zephyr-hover"})).content.decode()
    codes = set(re.findall(r'data-code="([^"]+)"', html))
    assert "M-R32" in codes
    for code in codes:
        assert f'href="/catalogue/metallurgent/rules/#{code}"' in html
    index = client.get("/catalogue/metallurgent/rules/").content.decode()
    assert all(f'id="{code}"' in index for code in codes)


def test_a_broken_index_file_names_the_file_and_field(tmp_path):
    (tmp_path / "bad.yaml").write_text("- id: M-R1\n  title: x\n  statement: y\n  source: L1\n  kind: HARD\n"
                                       "  enforced: [somewhere]\n  how: z\n  colour: red\n")
    with pytest.raises(PackError, match=r"bad\.yaml: rule 1: .*'enforced\.0'.*'colour'"):
        load(tmp_path)
    (tmp_path / "bad.yaml").write_text("id: [unclosed\n")
    load.cache_clear()
    with pytest.raises(PackError, match="not valid YAML"):
        load(tmp_path)
    load.cache_clear()


def test_a_rule_twice_is_refused(tmp_path):
    entry = "- {id: M-R1, title: x, statement: y, source: L1, kind: HARD, enforced: [validator], how: z}\n"
    (tmp_path / "a.yaml").write_text(entry)
    (tmp_path / "b.yaml").write_text(entry)
    with pytest.raises(PackError, match="M-R1 is in the index twice"):
        load(tmp_path)
    load.cache_clear()


@pytest.mark.parametrize("key", INDEXED)
def test_the_docs_readings_are_the_indexes(key):
    page = (Path(settings.BASE_DIR) / readings_page(key)).read_text(encoding="utf-8")
    assert with_readings(page, key, readings_table(ACTIVE[key].rules())) == page, (
        f"run `manage.py rule_readings --write`: {readings_page(key)}'s readings differ from its rule index")


def copy_pages(tmp_path) -> None:
    for key in INDEXED:
        page = tmp_path / readings_page(key)
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text((Path(settings.BASE_DIR) / readings_page(key)).read_text(encoding="utf-8"), encoding="utf-8")


def test_rule_readings_write_puts_each_table_into_its_page(settings, tmp_path):
    copy_pages(tmp_path)
    page = tmp_path / readings_page("metallurgent")
    start, end = "<!-- readings:metallurgent -->", "<!-- /readings:metallurgent -->"
    head, rest = page.read_text(encoding="utf-8").split(start)
    page.write_text(f"{head}{start}\nSTALE-READINGS\n{end}{rest.split(end, 1)[1]}", encoding="utf-8")
    settings.BASE_DIR = tmp_path
    call_command("rule_readings", "--write")
    written = page.read_text(encoding="utf-8")
    assert "STALE-READINGS" not in written and readings_table(ACTIVE["metallurgent"].rules()) in written


def test_rule_readings_prints_the_tables_and_refuses_a_page_without_markers(capsys, settings, tmp_path):
    call_command("rule_readings")
    printed = capsys.readouterr().out
    assert "| rule | reading |" in printed and "M-R31" in printed
    copy_pages(tmp_path)
    (tmp_path / readings_page("darkmetal")).write_text("# no markers here\n")
    before = (tmp_path / readings_page("metallurgent")).read_text(encoding="utf-8")
    settings.BASE_DIR = tmp_path
    with pytest.raises(CommandError) as error:
        call_command("rule_readings", "--write")
    assert error.value.returncode == 2 and "readings:" in str(error.value)
    assert readings_page("darkmetal") in str(error.value)
    assert (tmp_path / readings_page("metallurgent")).read_text(encoding="utf-8") == before  # nothing half written


def test_rule_readings_names_a_missing_page(settings, tmp_path):
    settings.BASE_DIR = tmp_path
    with pytest.raises(CommandError) as error:
        call_command("rule_readings", "--write")
    assert error.value.returncode == 2 and readings_page(INDEXED[0]) in str(error.value)


@pytest.mark.parametrize("key", INDEXED)
def test_every_reading_is_a_house_rule_choice(key):
    """Issue 13: every reading the docs pages list is a named choice, an option on the same rule whose default it is,
    or the rule's severity where not enforcing it is the only other reading."""
    options = ACTIVE[key].house_rules()

    def offered(rule, reading) -> bool:
        if reading.option == "severity":
            return True
        option = options.get(reading.option)
        return option is not None and rule.id in (option.rule, *option.also)

    unlinked = [(rule.id, reading.text[:40]) for rule in ACTIVE[key].rules().values() for reading in rule.readings
                if not offered(rule, reading) and not (reading.fixed and not reading.option)]
    assert not unlinked
