"""Property-based fuzzing (Hypothesis) of a table's posts: any fields, any values, to a change, an undo or a reset,
with and without JavaScript. No input gives a 5xx; a refused post changes nothing; whatever was taken leaves every
track within its range and the log in step with the revision."""
from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from builder import table as tables
from builder.models import Table
from tests.helpers.fuzzing import FUZZ, IDS, KINDS, texts
from tests.helpers.kinds import linking, saved

pytestmark = pytest.mark.django_db


def open_table(ruleset: str, kind: str) -> Table:
    document, _ = linking(ruleset, kind)
    build = saved(document)
    assert Client().post(f"/s/{build.share_id}/play").status_code == 302
    return Table.objects.get(build=build)


def fields_for(table: Table):
    keys = list(tables.tracks_by_key(table))
    numbers = st.one_of(st.integers(-3, 12).map(str), texts, st.sampled_from(["", "1.5", "-0", "١", "--1", "+1", " 1", "9" * 30]))
    return st.fixed_dictionaries({}, optional={"key": st.one_of(st.sampled_from(keys), texts), "before": numbers,
                                               "after": numbers, "revision": numbers, "change": texts})


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_any_post_to_a_table(packs, ruleset, kind):
    table = open_table(ruleset, kind)
    known = tables.tracks_by_key(table)

    @FUZZ
    @given(fields=fields_for(table), what=st.sampled_from(["change", "undo", "reset"]), scripted=st.booleans())
    def run(fields, what, scripted):
        before = Table.objects.get(pk=table.pk)
        events = before.events.count()
        headers = {"HTTP_ACCEPT": "application/json"} if scripted else {}
        response = Client(raise_request_exception=False).post(f"/t/{table.token}/{what}", fields, **headers)
        assert response.status_code in (200, 302, 400, 409), (response.status_code, fields)
        after = Table.objects.get(pk=table.pk)
        if response.status_code >= 400:
            assert (after.state, after.revision, after.events.count()) == (before.state, before.revision, events)
            if response["Content-Type"] == "application/json":
                assert response.json()["path"]  # names the field
        for key, number in after.state.items():
            track = known[key][0]
            assert track.low <= number <= track.high, (key, number)
        assert after.events.count() == after.revision

    run()
