"""The documentation for people: README.md and docs/. Every relative link and image resolves (anchors included, as
GitHub spells them), README stays short and names the test command, every docs page can be reached from README,
and every screenshot is used and small enough to keep in the repository."""
import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.conf import settings

BASE = Path(settings.BASE_DIR)
README = BASE / "README.md"
DOCS = BASE / "docs"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
# [text](target) and ![alt](target), the target up to a space (a title may follow) or the closing parenthesis.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_REF = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", re.IGNORECASE)
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
EXTERNAL = ("http://", "https://", "mailto:")


def prose(text: str) -> str:
    """The text without code: a `[x](y)` in a code block or span is an example, not a link."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: the rendered text lowercased, every character but letters, digits,
    spaces, hyphens and underscores dropped, spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays, its target goes
    text = text.replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: Counter[str] = Counter()
    found = set()
    for match in HEADING.finditer(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(match[2])
        found.add(f"{base}-{seen[base]}" if seen[base] else base)  # GitHub numbers a repeated heading
        seen[base] += 1
    return found


def references(page: Path) -> list[str]:
    text = prose(page.read_text(encoding="utf-8"))
    return [*LINK.findall(text), *HTML_REF.findall(text)]


def local(target: str) -> bool:
    return not target.lower().startswith(EXTERNAL)


def resolve(page: Path, target: str) -> tuple[Path, str]:
    path, _, anchor = target.partition("#")
    return ((page.parent / unquote(path)).resolve() if path else page), anchor


def test_the_pages_are_there():
    names = {str(page.relative_to(BASE)) for page in PAGES}
    assert {"README.md", "docs/walkthrough.md", "docs/install.md", "docs/packs.md"} <= names
    assert {f"docs/rulesets/{key}.md" for key in ("metallurgent", "megamercs", "darkmetal", "lancer", "ember")} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(BASE)))
def test_every_relative_link_and_image_resolves(page):
    broken = []
    for target in filter(local, references(page)):
        path, anchor = resolve(page, target)
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif BASE not in path.parents and path != BASE:
            broken.append(f"{target}: outside the repository")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: {path.name} has no heading with that anchor")
    assert not broken, f"{page.relative_to(BASE)}: " + "; ".join(broken)


def test_readme_is_short_and_names_the_test_command():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert "make test" in text and "make run" in text and "make bench" in text


def test_every_docs_page_is_reached_from_the_readme():
    reached, todo = {README.resolve()}, [README]
    while todo:
        page = todo.pop()
        for target in filter(local, references(page)):
            path, _ = resolve(page, target)
            if path.suffix == ".md" and path.exists() and path not in reached:
                reached.add(path)
                todo.append(path)
    unreached = [str(page.relative_to(BASE)) for page in PAGES if page.resolve() not in reached]
    assert not unreached, f"no link leads to {unreached} from README.md"


def test_every_screenshot_is_used_and_small():
    images = sorted((DOCS / "images").glob("*"))
    assert images
    used = {resolve(page, target)[0] for page in PAGES for target in filter(local, references(page))}
    assert [image.name for image in images if image.resolve() not in used] == []
    assert [image.name for image in images if image.stat().st_size > 256 * 1024] == []


def test_the_link_reader_reads_what_github_renders():
    text = 'See [a](x.md#b-c), ![shot](images/a.png "title"), `[code](no.md)` and [b [nested]](y.md).'
    assert LINK.findall(prose(text)) == ["x.md#b-c", "images/a.png", "y.md"]
    assert slug("Settings (environment)") == "settings-environment"
    assert slug("The preview's `situation`") == "the-previews-situation"
    assert slug("import_build and import_compcon") == "import_build-and-import_compcon"
    assert slug("Construction: 1.0 rules, beta readings") == "construction-10-rules-beta-readings"
