"""Generic code reaches a game only through the registry: it imports no ruleset folder and names no game.

Generic: every module of builder/ and catalogue/ outside the games' folders (builder/kinds/<key>/ and
catalogue/rulesets/<key>/), the shared templates, the shared static files (all of static/ but static/css/<key>.css)
and the management commands' help. The registry (catalogue/rulesets/__init__.py) lists the games' keys, so it alone
may name them.
"""
import ast
import re
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest
from django.core.management import get_commands, load_command_class
from django.template.loader import render_to_string

import catalogue.rulesets as registry
from catalogue.rulesets import ACTIVE, EXCHANGES, RULESETS

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(RULESETS)
GAME_FOLDERS = {ROOT / "catalogue" / "rulesets" / key for key in GAMES} | {ROOT / "builder" / "kinds" / key for key in GAMES}
REGISTRY = ROOT / "catalogue" / "rulesets" / "__init__.py"
GENERIC_TEMPLATES = [ROOT / "templates" / name for name in ("base.html", "home.html", "bad_input.html", "error.html")] + [
    path for folder in ("partials", "pdf", "catalogue", "packs", "builder", "api") for suffix in ("html", "jinja")
    for path in sorted((ROOT / "templates" / folder).glob(f"*.{suffix}"))]
STATIC = ROOT / "static"
GAME_STYLESHEETS = {STATIC / "css" / f"{key}.css" for key in GAMES}
SHARED_STATIC = sorted(path for path in STATIC.rglob("*") if path.is_file() and path not in GAME_STYLESHEETS)


def game_names() -> list[str]:
    """Each game's key, name and short name (before an edition, a year or a subtitle), lower case: what generic
    text must not say."""
    names = [RULESETS[key].name.lower() for key in GAMES]
    return list(dict.fromkeys(GAMES + names + [re.split(r"\s*[(·\d]", name)[0] for name in names]))


def named_games(text: str) -> list[str]:
    text = text.lower()
    return [name for name in game_names() if re.search(rf"\b{re.escape(name)}\b", text)]


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


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", generic_modules(), ids=relative)
def test_generic_module_imports_no_ruleset_folder(path):
    # The registry too: it reaches its folders by key (import_module), never by an import statement.
    for name in imported(path):
        for key in GAMES:
            assert not re.match(rf"(catalogue\.rulesets|builder\.kinds)\.{key}\b", name), f"{path.name} imports {name}"


@pytest.mark.parametrize("path", generic_modules() + GENERIC_TEMPLATES + SHARED_STATIC, ids=relative)
def test_generic_code_names_no_game(path):
    if path == REGISTRY:
        return  # the registry is where the games are listed, by key
    assert not named_games(path.read_text()), path


def test_the_import_check_catches_a_direct_import(tmp_path):
    sample = ROOT / "builder" / "views.py"
    assert "catalogue.rulesets" in " ".join(imported(sample))
    assert any(name.startswith("builder.kinds") for name in imported(sample))


# --- stylesheets: the shared one for every page, each game's own for its pages -------------------------------

def template_classes() -> dict[str, set[str]]:
    """Each class a template sets (literal words of its class attributes), with who sets it: a game's key for
    its own templates (templates/builder/<key>/), "shared" for every other template and the shared scripts."""
    users: dict[str, set[str]] = {}
    for path in (ROOT / "templates").rglob("*"):
        if path.suffix not in (".html", ".jinja"):
            continue
        user = next((key for key in GAMES if key in path.relative_to(ROOT / "templates").parts), "shared")
        for match in re.finditer(r"""class\s*=\s*(?:"([^"]*)"|'([^']*)')""", path.read_text()):
            words = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", match.group(1) or match.group(2) or "")
            for word in words.split():
                users.setdefault(word, set()).add(user)
    for script in (STATIC / "js").glob("*.js"):
        for word in re.findall(r"\.([a-zA-Z][\w-]*)", script.read_text()):
            users.setdefault(word, set()).add("shared")
    return users


def css_rules(path: Path) -> list[list[list[str]]]:
    """Each rule of a stylesheet as its selectors, each selector as the classes it names."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    rules = []
    for selectors in re.findall(r"([^{}]+)\{[^{}]*\}", text):
        selectors = selectors.strip()
        if selectors.startswith("@"):
            selectors = selectors.split("{")[-1]
        rules.append([re.findall(r"\.([a-zA-Z][\w-]*)", selector) for selector in selectors.split(",")])
    return rules


def test_a_class_only_one_game_uses_is_styled_in_that_games_stylesheet():
    users = template_classes()
    misplaced = set()
    for selectors in css_rules(STATIC / "css" / "hardpoint.css"):
        for classes in selectors:
            owners = set().union(*(users.get(c, set()) for c in classes)) if classes else set()
            if len(owners) == 1 and owners <= set(GAMES):
                misplaced.add(f"{'.'.join(classes)} → static/css/{owners.pop()}.css")
    assert not misplaced, sorted(misplaced)


def test_the_pdf_document_styles_no_class_only_one_game_uses(tmp_path):
    """A game's print rules live in templates/pdf/<key>.css, which builder/pdf.py adds to its own sheets only."""
    style = re.search(r"<style>(.*)</style>", (ROOT / "templates" / "pdf" / "document.html").read_text(), re.S)
    (tmp_path / "document.css").write_text(re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", style.group(1)))
    users = template_classes()
    misplaced = {".".join(classes) for selectors in css_rules(tmp_path / "document.css") for classes in selectors
                 if classes and len(owners := set().union(*(users.get(c, set()) for c in classes))) == 1
                 and owners <= set(GAMES)}
    assert not misplaced, sorted(misplaced)
    for path in (ROOT / "templates" / "pdf").glob("*.css"):
        assert path.stem in GAMES, path.name
        assert all(any(path.stem in users.get(c, set()) for c in classes)
                   for selectors in css_rules(path) for classes in selectors), path.name


@pytest.mark.parametrize("key", GAMES)
def test_each_games_stylesheet_styles_its_own_templates(key):
    """Every game has its stylesheet, and each of its rules names a class the game's own templates set."""
    path = STATIC / "css" / f"{key}.css"
    assert path.is_file(), f"static/css/{key}.css is missing"
    users = template_classes()
    strangers = [classes for selectors in css_rules(path) for classes in selectors
                 if not any(key in users.get(c, set()) for c in classes)]
    assert not strangers, strangers


@pytest.mark.parametrize("key", sorted(ACTIVE))
def test_the_base_template_links_the_pages_game_stylesheet(key):
    ruleset = SimpleNamespace(key=key)
    link = f'href="/static/css/{key}.css"'
    assert link in render_to_string("base.html", {"page": SimpleNamespace(ruleset=ruleset)})  # builder pages
    assert link in render_to_string("base.html", {"ruleset": ruleset})  # catalogue, packs, presets
    assert "/static/css/" + key not in render_to_string("base.html", {})


def document_fields() -> set[str]:
    """The field names of the games' build documents that not every kind shares: one game's (or some games')."""
    def fields(model, seen: set) -> set[str]:
        if model in seen:
            return set()
        seen.add(model)
        names = set()
        for name, field in model.model_fields.items():
            names |= {name, field.alias or name}
            stack = [field.annotation]
            while stack:
                annotation = stack.pop()
                if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
                    names |= fields(annotation, seen)
                stack += list(getattr(annotation, "__args__", ()))
        return names

    per_kind = [fields(kind.document, set()) for ruleset in ACTIVE.values() for kind in ruleset.kinds]
    return set().union(*per_kind) - set.intersection(*per_kind)


@pytest.mark.parametrize("path", sorted((STATIC / "js").glob("*.js")), ids=relative)
def test_shared_scripts_name_no_games_field(path):
    """A form field the shared scripts name (a string, or a [name=...] selector) is no game's document field: what
    a kind's form needs of them, its template says (data attributes, ids)."""
    text = path.read_text()
    strings = re.findall(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'|`([^`]*)`', text)
    named = {s for groups in strings for s in groups if s} | set(re.findall(r"name=[\"']?([\w-]+)", text))
    assert not named & document_fields(), sorted(named & document_fields())


# --- management commands: their help, without the registry, names no game --------------------------------------

COMMANDS = sorted((name, app) for name, app in get_commands().items() if app in ("builder", "catalogue"))


@pytest.mark.parametrize("name,app", COMMANDS, ids=[name for name, _ in COMMANDS])
def test_command_help_names_no_game(name, app):
    """A command's help and its arguments' help, with the registry emptied, name no game nor a game's exchange
    format: whatever game-specific a command lists (a ruleset's dice, the formats it imports) comes from the
    registry."""
    command = load_command_class(app, name)
    # An exchange format by its key, its label or the app its label names in capitals (COMP/CON).
    forbidden = game_names() + [word.lower() for key, (_, exchange) in EXCHANGES.items()
                                for word in (key, exchange.label, *(w for w in exchange.label.split() if w.isupper()))]
    with mock.patch.dict(RULESETS, clear=True), mock.patch.dict(ACTIVE, clear=True), \
            mock.patch.dict(EXCHANGES, clear=True), mock.patch.dict(registry.KINDS, clear=True):
        text = command.create_parser("manage.py", name).format_help().lower()
    said = [word for word in forbidden if re.search(rf"(?<![\w/]){re.escape(word)}(?![\w/])", text)]
    assert not said, f"{name}: {said}"


def test_the_command_help_check_sees_the_registry_when_it_is_there():
    """The check above is not vacuous: with the registry, the dice command lists each game's dice."""
    help_text = load_command_class("catalogue", "dice").create_parser("manage.py", "dice").format_help()
    assert all(key in help_text for key, ruleset in RULESETS.items() if ruleset.dice)
