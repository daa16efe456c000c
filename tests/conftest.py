import os

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM calls there are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def packs(db):
    """The real packs, loaded as `manage.py load_catalogue` does."""
    from catalogue.loader import load_all

    return load_all()
