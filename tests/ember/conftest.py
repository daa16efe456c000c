"""Ember fixtures. None is shared between Ember's modules yet: each module's own (the pages' `registered`, the
secrecy tests' saved Mechs) stays in it; the packs and the browser fixtures come from tests/conftest.py, the
hand-written cards from tests/ember/factories.py and the starter pack's documents from tests/ember/documents.py."""
