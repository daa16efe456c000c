"""Every kind's report carries its own typed detail (Kind.detail), and its pages read only what that type holds.

The builder page, its live fragments, the share page, its JSON, the printed sheet and the combat preview are drawn
with each report's detail wrapped so that reading a field the type lacks raises, where a template would otherwise
draw nothing."""
from __future__ import annotations

import dataclasses
import functools

import pytest

from builder import pdf, store
from builder.kinds import PAGES
from builder.models import Build
from catalogue.loader import latest_pack
from catalogue.rulesets.base import Detail
from tests.helpers.html_forms import HTMX, read_form
from tests.helpers.kinds import documents, linking

pytestmark = pytest.mark.django_db
KINDS = sorted(PAGES)
IDS = [f"{r}-{k}" for r, k in KINDS]


class MissingDetail(Exception):
    """Not an AttributeError: the template engines take that for "no such value" and draw nothing."""


def strict(value):
    """`value` with every typed detail and row in it (a dataclass) as a copy that raises on a field its type lacks."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        copy = object.__new__(strict_type(type(value)))
        for f in dataclasses.fields(value):
            object.__setattr__(copy, f.name, strict(getattr(value, f.name)))
        return copy
    if isinstance(value, list):
        return [strict(v) for v in value]
    if isinstance(value, dict):
        return {k: strict(v) for k, v in value.items()}
    return value


@functools.cache
def strict_type(cls: type) -> type:
    def missing(self, name: str):
        if name.startswith("__"):  # copy and pickle ask for what a class may lack
            raise AttributeError(name)
        raise MissingDetail(f"{cls.__name__} has no field {name!r}")
    return type(f"Strict{cls.__name__}", (cls,), {"__getattr__": missing})


@pytest.fixture
def strict_details(monkeypatch):
    """Every check's report (and those of the saved builds it names) with a strict detail."""
    check = store.check

    def strictly(*args, **kwargs):
        checked = check(*args, **kwargs)
        checked.report.detail = strict(checked.report.detail)
        return checked

    monkeypatch.setattr(store, "check", strictly)


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_every_report_of_a_kind_has_its_detail_type_with_every_field_from_the_start(packs, ruleset, kind):
    declared = PAGES[ruleset, kind].kind.detail
    assert issubclass(declared, Detail) and dataclasses.is_dataclass(declared)
    declared()  # every field has a default: a report holds them all from the start
    for document in [PAGES[ruleset, kind].blank(latest_pack(ruleset, kind).ref), *documents(ruleset, kind),
                     linking(ruleset, kind)[0]]:
        report = store.check(document).report
        assert type(report.detail) is declared, document["name"]
        assert store.check(document).report.as_dict()["detail"] == dataclasses.asdict(report.detail)


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_every_page_reads_only_fields_its_detail_has(client, packs, strict_details, ruleset, kind):
    page = PAGES[ruleset, kind]
    for document in [*documents(ruleset, kind), linking(ruleset, kind)[0]]:  # rosters with saved members too
        build = store.create(store.check(document))
        editor = client.get(f"/b/{build.edit_token}/")
        assert editor.status_code == 200
        values, _ = read_form(editor.content.decode())
        for view in ("live", "pickers", ""):
            answer = client.post(f"/b/{build.edit_token}/", {**values, "view": [view]} if view else values, **HTMX)
            assert answer.status_code in (200, 302), (view, answer.content[:300])
        for url in (f"/s/{build.share_id}/", f"/s/{build.share_id}.json", f"/api/builds/{build.share_id}",
                    f"/s/{build.share_id}/v/1/"):
            assert client.get(url).status_code == 200, url
        saved = Build.objects.get(pk=build.pk)
        assert pdf.sheet_sections(saved, saved, lambda b: f"https://example.test/s/{b.share_id}/")
        if page.previews:  # the builder's form alone: the preview form's defaults
            answer = client.post(f"/preview/{ruleset}/{kind}/", values, **HTMX)
            assert answer.status_code in (200, 422), answer.content[:300]
