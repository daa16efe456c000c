from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

# Playwright's sync API runs an event loop in the test thread; Django's ORM calls there are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Load the real packs once, committed in the test database; each test's transaction rolls back over them."""
    from catalogue.loader import load_all

    with django_db_blocker.unblock():
        load_all()


@pytest.fixture
def packs(db):
    """The real packs, as `manage.py load_catalogue` loads them (reloaded only if a test flushed the database)."""
    from catalogue.loader import load_all
    from catalogue.models import Pack

    return load_all() if not Pack.objects.exists() else list(Pack.objects.all())


@pytest.fixture
def empty_catalogue(db):
    """No packs loaded, for tests of loading itself (the deletion rolls back with the test)."""
    from catalogue.models import Ruleset

    Ruleset.objects.all().delete()


@pytest.fixture(scope="module")
def reload_packs_after(django_db_blocker):
    """Browser tests run on a live server whose database is flushed after each test: put the packs back."""
    yield
    from catalogue.loader import load_all

    with django_db_blocker.unblock():
        load_all()


@pytest.fixture(autouse=True)
def fresh_catalogue_caches():
    """A test's transaction rolls back the packs and builds it saved; no cache may keep them (a later test's
    build can have the same share id and version, and would be served the other's share page)."""
    yield
    from django.conf import settings
    from django.core.cache import caches

    from catalogue.loader import forget

    forget()
    for alias, config in settings.CACHES.items():  # the process's own; one in the database rolls back
        if config["BACKEND"].endswith("LocMemCache"):
            caches[alias].clear()


# --- the real-browser tests' fixtures (tests/web, and each game's test_browser.py) ----------------------------
# Playwright is imported only when a browser test asks for them. Helpers they share: tests/helpers/browsing.py.


@pytest.fixture(scope="module")
def browser() -> Browser:
    """Headless Debian chromium, one per test module."""
    from playwright.sync_api import sync_playwright

    from tests.helpers.browsing import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def catalogue(live_server, packs, reload_packs_after):
    """The starter pack in the live server's (transactional) test database; `packs` loads it. (A game's tests may
    have a `catalogue` of their own, in their conftest.py or module, which stands in for this one there.)"""
    return packs


@pytest.fixture
def new_context(browser, live_server, catalogue):
    """Makes fresh browser contexts (own cookies) pointed at the live server; closes them afterwards."""
    from tests.helpers.browsing import COUNT_HTMX_REQUESTS, TIMEOUT_MS

    made: list[BrowserContext] = []

    def make(**options) -> BrowserContext:
        context = browser.new_context(**{"base_url": live_server.url, "viewport": {"width": 1280, "height": 900},
                                         **options})
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(COUNT_HTMX_REQUESTS)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def page(new_context) -> Page:
    return new_context().new_page()
