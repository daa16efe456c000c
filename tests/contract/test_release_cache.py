"""Cached pages and sheets are keyed by the release that drew them (settings.RELEASE), so that after a deploy no
machine serves a share page drawn by the old templates from the cache they share."""
import pickle
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches

from builder import store
from builder.settings import code_digest
from catalogue.loader import latest_pack

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def test_the_release_is_the_codes_digest_and_changes_with_a_template(tmp_path):
    for folder in ("templates", "static"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    before = code_digest(tmp_path)
    assert code_digest(tmp_path) == before and len(before) == 12
    (tmp_path / "templates" / "base.html").write_text((ROOT / "templates" / "base.html").read_text() + "<!-- -->")
    assert code_digest(tmp_path) != before


def test_every_shared_cache_is_keyed_by_the_release():
    assert settings.RELEASE in settings.CACHES["default"]["KEY_PREFIX"]
    assert settings.RELEASE in settings.CACHES["sheets"]["KEY_PREFIX"]


def test_a_share_page_another_release_cached_is_not_served(client, packs):
    pack = latest_pack("metallurgent", "anvil")
    build = store.create(store.check(next(e for e in pack.examples if e.get("kind") == "anvil")))
    cache = caches["default"]
    client.get(build.share_url())
    pages = [key for key in list(cache._cache) if key.endswith(":page")]
    assert pages and all(key.startswith(f"{settings.RELEASE}:") for key in pages)
    for key in pages:  # what older templates drew, say
        cache._cache[key] = pickle.dumps("drawn by the old templates")
    assert client.get(build.share_url()).content.decode() == "drawn by the old templates"
    cache.key_prefix = "the-next-release"
    try:
        fresh = client.get(build.share_url()).content.decode()
        assert "drawn by the old templates" not in fresh and build.name in fresh
    finally:
        cache.key_prefix = settings.CACHES["default"]["KEY_PREFIX"]
