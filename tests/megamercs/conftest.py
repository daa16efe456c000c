"""MEGA MERCS fixtures. None is shared between MEGA MERCS's modules yet: each module's `cat` is its own catalogue,
made with tests/megamercs/factories.py; the packs and the browser fixtures come from tests/conftest.py."""
