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
from django.core.cache import cache as shared_cache
from django.template.loader import render_to_string
from django.utils import timezone

from catalogue.rulesets import resolve

from . import store
from .kinds import page_for
from .models import Build


def cached_pdf(build: Build, paper: str, url_for: Callable[[Build], str]) -> bytes:
    """The PDF, rendered once per version of the build and of every build it prints or names, per paper and
    site address; any edit, deletion or new link gives a new key."""
    printed = printed_builds(build)
    named = {i for b in printed for i in store.links_of(b)} | {b.share_id for b in printed}
    versions = sorted(Build.objects.filter(share_id__in=named).values_list("share_id", "version"))
    fingerprint = hashlib.sha256(json.dumps([paper, url_for(build), versions]).encode()).hexdigest()
    key = f"pdf:{build.share_id}:{fingerprint}"
    pdf = shared_cache.get(key)
    if pdf is None:
        pdf = render_pdf(build, paper, url_for, printed)
        shared_cache.set(key, pdf, settings.HARDPOINT_PDF_CACHE_SECONDS)
    return pdf


def render_pdf(build: Build, paper: str, url_for: Callable[[Build], str],
               printed_all: list[Build] | None = None) -> bytes:
    sections: list[str] = []
    printed_all = printed_all if printed_all is not None else printed_builds(build)
    for printed in printed_all[:settings.HARDPOINT_MAX_PRINTED_BUILDS]:
        try:
            checked = store.check_saved(printed)
        except store.SavedBuildUnreadable:
            if printed is build:
                raise
            continue  # an owned build that no longer reads: its owner's sheet already says it is missing
        sections += page_for(printed.ruleset, printed.kind).sheet_sections(printed, checked, url_for(printed))
    left_out = printed_all[settings.HARDPOINT_MAX_PRINTED_BUILDS:]
    html = render_to_string("pdf/document.html", {"sections": sections, "paper": paper, "title": build.name,
                                                  "printed_at": timezone.now(), "left_out": left_out})
    return html_to_pdf(html)


def html_to_pdf(html: str) -> bytes:
    # WeasyPrint takes over a second to import: only processes that print pay for it.
    from weasyprint import HTML

    return HTML(string=html, url_fetcher=own_files_fetcher()()).write_pdf()


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
    """The build, then each build it owns right after its owner (depth first), each once."""
    order: list[Build] = []
    seen: set[str] = set()

    def visit(current: Build) -> None:
        seen.add(current.share_id)
        order.append(current)
        _, kind = resolve(current.document)
        owned = [i for i in kind.owned_ids(current.document) if i not in seen]
        found = Build.objects.in_bulk(owned, field_name="share_id")
        for share_id in owned:
            if share_id in found and share_id not in seen:
                visit(found[share_id])

    visit(build)
    return order
