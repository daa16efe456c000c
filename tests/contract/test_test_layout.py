"""The test suite's own layout: tests/<key>/ for each game, tests/web/, tests/contract/, each a package. No test module
imports another test module: a fixture two modules share lives in a conftest.py, a helper in a module not named
test_*.py (tests/helpers/, or a package's factories.py and the like), so a test module can be moved or deleted
without breaking another one."""
import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
MODULES = sorted(TESTS.rglob("test_*.py"))
SOURCES = sorted(TESTS.rglob("*.py"))  # test modules, and the conftest.py files and helpers they use


def is_test_module(name: str) -> bool:
    return name.rsplit(".", 1)[-1].startswith("test_")


def package_of(path: Path) -> list[str]:
    """The dotted package a module under tests/ is in: tests/web/test_api.py is in ["tests", "web"]."""
    return list(path.relative_to(TESTS.parent).parent.parts)


def imported_test_modules(source: str, package: list[str]) -> list[str]:
    """Every test module an `import` or `from ... import` of this source names, relative imports resolved."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            if is_test_module(base):
                found.append(base)
            else:  # `from tests.web import test_api`, `from . import test_api`
                found += [f"{base}.{alias.name}" for alias in node.names if is_test_module(alias.name)]
    return found


def test_the_suite_is_found():
    assert len(MODULES) > 90 and TESTS / "contract" / "test_test_layout.py" in MODULES


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(TESTS)))
def test_no_module_imports_a_test_module(path):
    imported = imported_test_modules(path.read_text(encoding="utf-8"), package_of(path))
    assert not imported, f"{path.relative_to(TESTS.parent)} imports {imported}: move what they share into a " \
                         "conftest.py (fixtures) or a helper module not named test_*.py"


def test_every_folder_of_test_modules_is_a_package():
    folders = {path.parent for path in MODULES}
    assert [str(f.relative_to(TESTS.parent)) for f in sorted(folders) if not (f / "__init__.py").exists()] == []


def test_the_check_sees_every_way_of_importing_a_test_module():
    package = ["tests", "web"]
    for source in ("from tests.web.test_api import create", "from tests.test_api import create",
                   "from .test_api import create", "from ..web.test_api import create", "import tests.test_api",
                   "import tests.web.test_api as api", "from tests.web import test_api", "from . import test_api",
                   "def f():\n    from tests.web.test_api import create\n"):
        assert imported_test_modules(source, package), source
    for source in ("from tests.web.uploads import SPIKE", "from .uploads import SPIKE", "import tests.helpers.refs",
                   "from tests.helpers import refs", "from tests.metallurgent.factories import anvil"):
        assert not imported_test_modules(source, package), source
    assert imported_test_modules("from .test_api import create", package) == ["tests.web.test_api"]
    assert imported_test_modules("from ..web.test_api import x", package) == ["tests.web.test_api"]
