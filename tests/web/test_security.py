"""Links are capabilities, forms carry CSRF tokens, and hostile text stays text: in pages, JSON and PDFs."""
import json

import pytest
from django.test import Client

from builder import store
from builder.kinds import PAGES
from builder.models import Build
from tests.helpers.fuzzing import _at, documents, paths

pytestmark = pytest.mark.django_db
KINDS = sorted(PAGES)
IDS = [f"{r}-{k}" for r, k in KINDS]


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_a_share_id_never_edits(client, packs, ruleset, kind):
    build = store.create(store.check(documents(ruleset, kind)[0]))
    for method, url in (("get", f"/b/{build.share_id}/"), ("post", f"/b/{build.share_id}/"),
                        ("post", f"/b/{build.share_id}/delete"), ("post", f"/b/{build.share_id}/duplicate")):
        assert getattr(client, method)(url).status_code == 404, url
    for method in ("put", "delete"):
        response = getattr(client, method)(f"/api/builds/{build.share_id}", json.dumps({"version": 1, "build": {}}),
                                           content_type="application/json")
        assert response.status_code in (400, 404), method
    assert Build.objects.get(pk=build.pk).version == 1


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_every_form_needs_its_csrf_token(packs, ruleset, kind):
    build = store.create(store.check(documents(ruleset, kind)[0]))
    strict = Client(enforce_csrf_checks=True)
    for url in (f"/new/{ruleset}/{kind}/", build.get_absolute_url(), f"{build.get_absolute_url()}delete",
                f"{build.get_absolute_url()}duplicate", f"/s/{build.share_id}/copy", "/import/",
                f"/preview/{ruleset}/{kind}/"):
        assert strict.post(url, {"action": "save", "pack": build.pack_ref}).status_code == 403, url
    assert Build.objects.count() == 1


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_hostile_text_in_every_free_text_field_is_escaped_and_inert(client, packs, ruleset, kind, canary, tmp_path):
    url, hits = canary
    hostile = f'"><img src="{url}/img" onerror="alert(1)"> url({url}/css) <style>@import "{url}/imp";</style>'
    accepted = []
    for original in documents(ruleset, kind):
        text_fields = [place for place in paths(original) if isinstance(_at(original, place), str)]
        for place in text_fields + [("notes",)]:
            document = json.loads(json.dumps(original))
            _put(document, place, hostile)
            try:
                checked = store.check(document)
            except Exception:  # a key, an id or a name: refused as unreadable, which is also safe
                continue
            accepted.append(place)
            build = store.create(checked)
            page = client.get(f"/s/{build.share_id}/").content.decode()
            assert f'<img src="{url}' not in page and "<style>@import" not in page, place
            assert client.get(f"/s/{build.share_id}.pdf").status_code == 200
            edit = client.get(build.get_absolute_url()).content.decode()
            assert f'<img src="{url}' not in edit, place
    assert ("notes",) in accepted and hits == []



def _put(document, place, value):
    _at(document, place[:-1])[place[-1]] = value
