"""No rule is decided in the web half: a module under builder/ names a rule ID in its code only to refer to the
report's issues (the codes a kind's `to_fit` waits for, the codes shown at a mount), each one the rule index
holds. Comments and docstrings may name the rule a page shows; messages, prices and limits come from the rules."""
import ast
import re
from pathlib import Path

import pytest

from catalogue.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\b(?:M|DM|MM|L|E)-[A-Z]?\d+\b")
REFERENCES = {"to_fit", "ON_MOUNT"}  # names whose rule IDs are issue codes the page looks for in a report
MODULES = sorted(path for path in (ROOT / "builder").rglob("*.py") if "migrations" not in path.parts)


def docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def rule_ids_in_code(source: str) -> tuple[list[str], list[str]]:
    """(rule IDs the code refers to through REFERENCES, strings of any other code that name a rule ID)."""
    tree = ast.parse(source)
    skip = docstrings(tree)
    referred, decided = [], []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in REFERENCES for t in targets) and node.value is not None:
                for inner in ast.walk(node.value):
                    if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                        referred.append(inner.value)
                        skip.add(id(inner))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            decided += RULE_ID.findall(node.value)
    return referred, decided


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_web_code_names_rule_ids_only_to_find_them_in_a_report(path):
    referred, decided = rule_ids_in_code(path.read_text())
    assert decided == [], f"{path.name} words a rule itself: {decided}"
    known = {rule for ruleset in RULESETS.values() for rule in ruleset.rules()}
    assert all(RULE_ID.fullmatch(code) and code in known for code in referred), referred


def test_the_check_sees_a_message_written_in_the_web_half():
    referred, decided = rule_ids_in_code('to_fit = ("M-R01",)\nreport.add("M-R14", "error", "x", "too heavy")\n'
                                         'def f():\n    """Refers to M-R90."""\n')
    assert referred == ["M-R01"] and decided == ["M-R14"]
