"""Printable sheets: a build's own pages, then the pages of every build it owns (a squad's Anvils, their Pilots)."""
from __future__ import annotations

from typing import Callable

import hashlib
import json
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from django.conf import settings
from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe

from catalogue.rulesets import RULESETS, resolve

from . import store
from .kinds import page_for
from .models import Build


class Sheet:
    """One PDF: a build on a paper, its QR codes pointing at a site address. `key` names this version of it:
    any edit, deletion or new link of a build it prints or names gives a new key."""

    def __init__(self, build: Build, paper: str, origin: str, reveal: str = ""):
        """`build` prints whole with its reveal token, else as its share link shows it (store.shown)."""
        self.build, self.reveal = store.shown(build, reveal)
        self.paper, self.origin = paper, origin
        self.printed = printed_builds(self.build)
        versions = {b.share_id: b.version for b in self.printed}
        named = {i for b in self.printed for i in store.links_of(b)} - versions.keys()
        if named:  # builds it names but does not print (a squad's opponent): their versions too
            versions.update(Build.objects.filter(share_id__in=named).values_list("share_id", "version"))
        fingerprint = hashlib.sha256(json.dumps([paper, origin, sorted(versions.items()),
                                                 bool(self.reveal)]).encode()).hexdigest()
        self.key = f"pdf:{build.share_id}:{fingerprint}"
        self.total = min(len(self.printed), settings.HARDPOINT_MAX_PRINTED_BUILDS)  # builds laid out in it

    @property
    def version(self) -> int | None:
        """The saved version printed, when it is not the build's current one."""
        return self.build.version if getattr(self.build, "snapshot", False) else None

    @property
    def query(self) -> str:
        return (f"paper={self.paper}" + (f"&version={self.version}" if self.version else "")
                + (f"&reveal={self.reveal}" if self.reveal else ""))

    def url_for(self, build: Build) -> str:
        return self.origin + build.share_url()

    def cached(self) -> bytes | None:
        pdf = caches["recent-pdfs"].get(self.key)
        if pdf is None:
            pdf = caches["sheets"].get(self.key)
            if pdf is not None:
                caches["recent-pdfs"].set(self.key, pdf, settings.HARDPOINT_PDF_CACHE_SECONDS)
        return pdf

    def render(self, progress: Callable[[int], None] | None = None) -> bytes:
        """Renders the PDF and keeps it; `progress` is told how many builds are laid out after each one."""
        pdf = render_pdf(self.build, self.paper, self.url_for, self.printed, progress)
        for alias in ("sheets", "recent-pdfs"):
            caches[alias].set(self.key, pdf, settings.HARDPOINT_PDF_CACHE_SECONDS)
        return pdf


def render_pdf(build: Build, paper: str, url_for: Callable[[Build], str], printed_all: list[Build] | None = None,
               progress: Callable[[int], None] | None = None) -> bytes:
    """Each printed build is laid out as a document of its own, so that `progress` hears of every one done; their
    pages then make one PDF (so a page's "page N of M" counts within its build's sheets)."""
    from weasyprint.text.fonts import FontConfiguration  # imported only where it is used, as in layout()

    printed_all = printed_all if printed_all is not None else printed_builds(build)
    context = {"paper": paper, "title": build.name, "printed_at": timezone.now(),
               "limit": settings.HARDPOINT_MAX_PRINTED_BUILDS}
    fonts = FontConfiguration()  # set up once for all the documents: a fifth of a second each otherwise
    documents = []
    for done, printed in enumerate(printed_all[:settings.HARDPOINT_MAX_PRINTED_BUILDS], 1):
        sections = sheet_sections(printed, build, url_for)
        if sections:
            documents.append(layout(render_to_string("pdf/document.html", {
                **context, "sections": sections, "game_print_styles": print_styles(printed.ruleset)}), fonts))
        if progress:
            progress(done)
    left_out = printed_all[settings.HARDPOINT_MAX_PRINTED_BUILDS:]
    if left_out:
        documents.append(layout(render_to_string("pdf/document.html", {**context, "left_out": left_out}), fonts))
    return documents[0].copy([page for document in documents for page in document.pages]).write_pdf()


@cache
def print_styles(ruleset: str) -> str:
    """A game's print rules for its own sheet classes (templates/pdf/<key>.css), where it has any."""
    path = settings.BASE_DIR / "templates" / "pdf" / f"{ruleset}.css"
    return mark_safe(path.read_text(encoding="utf-8")) if ruleset in RULESETS and path.is_file() else ""


def sheet_sections(printed: Build, build: Build, url_for: Callable[[Build], str]) -> list[str]:
    """The HTML of one printed build's pages in the PDF of `build`."""
    try:
        checked = store.check_saved(printed)
    except store.SavedBuildUnreadable:
        if printed is build:
            raise
        return []  # an owned build that no longer reads: its owner's sheet already says it is missing
    return page_for(printed.ruleset, printed.kind).sheet_sections(printed, checked, url_for(printed))


def layout(html: str, fonts=None):
    """The HTML document laid out in pages (a WeasyPrint Document)."""
    # WeasyPrint takes over a second to import: only processes that print pay for it.
    from weasyprint import HTML

    return HTML(string=html, url_fetcher=own_files_fetcher()()).render(font_config=fonts)


@cache
def own_files_fetcher() -> type:
    """A URL fetcher that reads `data:` URLs and the project's static files, nothing else, whatever a build's
    text says."""
    from weasyprint.urls import URLFetcher

    class OwnFilesOnly(URLFetcher):
        def __init__(self):
            super().__init__(allowed_protocols={"data", "file"}, allow_redirects=False)

        def fetch(self, url, headers=None):
            if url.startswith("file:"):
                path = Path(url2pathname(urlsplit(url).path)).resolve()
                roots = [Path(root).resolve() for root in [*settings.STATICFILES_DIRS, settings.STATIC_ROOT]]
                if not any(path.is_relative_to(root) for root in roots):
                    raise ValueError(f"sheets read no file outside the static files: {url[:80]}")
            return super().fetch(url, headers)

    return OwnFilesOnly


def printed_builds(build: Build) -> list[Build]:
    """The build, then each build it owns right after its owner (depth first), each once; those as their share
    links show them (their secrets are their owners' to reveal)."""
    order: list[Build] = []
    seen: set[str] = set()

    def visit(current: Build) -> None:
        seen.add(current.share_id)
        order.append(current if current is build else store.public_view(current))
        _, kind = resolve(current.document)
        owned = [i for i in kind.owned_ids(current.document) if i not in seen]
        found = Build.objects.in_bulk(owned, field_name="share_id")
        for share_id in owned:
            if share_id in found and share_id not in seen:
                visit(found[share_id])

    visit(build)
    return order
