"""LCA and Radio Chipsets (digest 2.8, 3.9, 6.9): M-R70 to M-R74."""
import pytest
from pydantic import TypeAdapter, ValidationError

from catalogue.rulesets.base import BuildError
from catalogue.rulesets.metallurgent.rules import validate
from catalogue.rulesets.metallurgent.schema import Chipset
from tests.metallurgent.factories import chipset_catalogue, codes, loaded

def issues(report, code):
    return [i for i in report.issues if i.code == code]


def test_m_r70_chipsets_up_to_the_capacity():
    report = validate(loaded("cmd-lca", ["barrage", "tailwind", "static"]), chipset_catalogue())
    assert "M-R70" not in codes(report) and report.legal, report.issues


def test_m_r70_chipsets_over_the_capacity():
    report = validate(loaded("cmd-lca", ["barrage", "tailwind", "static", "barrage"]), chipset_catalogue())
    [issue] = issues(report, "M-R70")
    assert issue.severity == "error" and issue.path == "gear[0]" and "4 Chipsets" in issue.message


def test_m_r70_command_chipsets_do_not_count_against_the_capacity():
    report = validate(loaded("cmd-lca", ["barrage", "tailwind", "static", "check-system"]), chipset_catalogue())
    assert report.legal, report.issues
    [issue] = issues(report, "M-R70")
    assert issue.severity == "warning" and "Check System" in issue.message


def test_m_r70_only_an_lca_or_radio_carries_chipsets():
    [issue] = issues(validate(loaded("radiator", ["barrage"]), chipset_catalogue()), "M-R70")
    assert issue.severity == "error" and "only an LCA or a Radio" in issue.message


def test_m_r70_unknown_chipset_is_unreadable():
    with pytest.raises(BuildError, match="not a Chipset"):
        validate(loaded("cmd-lca", ["radiator"]), chipset_catalogue())


def test_m_r71_several_copies_of_one_chipset_may_be_loaded():
    report = validate(loaded("cmd-lca", ["barrage", "barrage", "barrage"]), chipset_catalogue())
    assert report.legal and report.issues == []


@pytest.mark.parametrize("chipset", ["tailwind", "static", "check-system"])
def test_m_r72_radio_refuses_anything_but_support(chipset):
    [issue] = issues(validate(loaded("radio", ["barrage", chipset]), chipset_catalogue()), "M-R72")
    assert issue.severity == "error" and "only Support" in issue.message


def test_m_r72_radio_carries_support_chipsets_up_to_its_capacity():
    assert validate(loaded("radio", ["barrage", "barrage"]), chipset_catalogue()).legal
    assert "M-R70" in codes(validate(loaded("radio", ["barrage"] * 3), chipset_catalogue()), "error")


def test_m_r73_special_chipset_of_this_lca_model():
    assert validate(loaded("cmd-lca", ["storm-eye"]), chipset_catalogue()).legal


def test_m_r73_special_chipset_of_another_model():
    [issue] = issues(validate(loaded("cmd-lca", ["storm-eye", "other-eye"]), chipset_catalogue()), "M-R73")
    assert issue.severity == "error" and "Other Eye" in issue.message


def test_m_r73_a_special_chipset_must_name_its_model():
    adapter = TypeAdapter(Chipset)
    with pytest.raises(ValidationError, match="Special Chipset"):
        adapter.validate_python({"key": "x", "name": "X", "type": "special", "orders": 1})
    with pytest.raises(ValidationError, match="Special Chipset"):
        adapter.validate_python({"key": "x", "name": "X", "type": "support", "orders": 1, "lca": "cmd-lca"})


def test_m_r74_chipset_costing_the_order_limit_is_usable():
    assert "M-R74" not in codes(validate(loaded("cmd-lca", ["storm-eye"]), chipset_catalogue()))


def test_m_r74_chipset_costing_more_than_the_order_limit_warns_once():
    report = validate(loaded("cmd-lca", ["grand-plan", "grand-plan"]), chipset_catalogue())
    [issue] = issues(report, "M-R74")
    assert issue.severity == "warning" and "5 Orders" in issue.message and "at most 3" in issue.message
    assert "M-R74" not in codes(validate(loaded("cmd-lca", ["grand-plan"]), chipset_catalogue(order_limit=5)))
