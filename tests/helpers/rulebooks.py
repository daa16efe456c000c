"""The rulebooks beside the repository, and the test names that rule indexes and audits look for.

The digests (`../shared/rules/<key>.md`) and the rulebooks' texts (`../shared/seeds/`) sit beside the checkout on
every developer machine and in CI; a test that reads them skips, saying which file it missed, where they do not."""
import ast
from functools import cache
from pathlib import Path

from django.conf import settings

SHARED = Path(settings.BASE_DIR).parent / "shared"
DIGESTS = SHARED / "rules"
SEEDS = SHARED / "seeds"
TESTS = Path(__file__).resolve().parents[1]


@cache
def named_tests() -> frozenset[str]:
    """The name of every test function in every test module under tests/, at any depth (read once a run: the
    audits ask for every item)."""
    names = set()
    for path in sorted(TESTS.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return frozenset(names)
