import os

import pytest

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
