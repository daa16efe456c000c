"""Generic code reaches a game only through the registry: it imports no ruleset folder and names no game."""
import ast
import re
from pathlib import Path

import pytest

from catalogue.rulesets import RULESETS

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(RULESETS)
GAME_FOLDERS = {ROOT / "catalogue" / "rulesets" / key for key in GAMES} | {ROOT / "builder" / "kinds" / key for key in GAMES}
GENERIC_TEMPLATES = [ROOT / "templates" / name for name in ("base.html", "home.html", "bad_input.html")] + [
    path for folder in ("partials", "pdf", "catalogue") for path in (ROOT / "templates" / folder).glob("*.html")
] + list((ROOT / "templates" / "builder").glob("*.html"))


def generic_modules() -> list[Path]:
    modules = []
    for app in ("builder", "catalogue"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or any(folder in path.parents for folder in GAME_FOLDERS):
                continue
            modules.append(path)
    return modules


def imported(path: Path) -> list[str]:
    """Every module a file imports, relative imports made absolute."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return names


@pytest.mark.parametrize("path", generic_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_module_imports_no_ruleset_folder(path):
    registry = ROOT / "catalogue" / "rulesets" / "__init__.py"
    if path == registry:
        return  # the registry is where the folders are named
    for name in imported(path):
        for key in GAMES:
            assert not re.match(rf"(catalogue\.rulesets|builder\.kinds)\.{key}\b", name), f"{path.name} imports {name}"


@pytest.mark.parametrize("path", generic_modules() + GENERIC_TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_code_names_no_game(path):
    # The registry lists the folders; the dice core is a library of dice mechanics, each named for its game.
    if path in (ROOT / "catalogue" / "rulesets" / "__init__.py", ROOT / "catalogue" / "rulesets" / "dice.py"):
        return
    text = path.read_text().lower()
    names = GAMES + [RULESETS[key].name.lower() for key in GAMES]
    assert not [name for name in names if re.search(rf"\b{re.escape(name)}\b", text)], path


def test_the_import_check_catches_a_direct_import(tmp_path):
    sample = ROOT / "builder" / "views.py"
    assert "catalogue.rulesets" in " ".join(imported(sample))
    assert any(name.startswith("builder.kinds") for name in imported(sample))
