"""Property-based fuzzing (Hypothesis) of the collection file upload: any value anywhere in a real file, any JSON,
any bytes. No input gives a 5xx; a file refused (422) names a field and saves nothing; a file taken saves only builds
that check, each once."""
from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from builder import store
from builder.models import Build, BuildVersion, Collection, Kept
from tests.helpers.fuzzing import FUZZ, _at, documents, paths, values

pytestmark = pytest.mark.django_db


@pytest.fixture
def real_file(packs):
    """A collection file as a player downloads it: an Anvil and a Squad Leader."""
    owner = Client()
    for document in (documents("metallurgent", "anvil")[0], documents("darkmetal", "leader")[0]):
        build = store.create(store.check(document))
        owner.get(f"/b/{build.edit_token}/")
    data = json.loads(owner.get("/collection/file").content)
    Build.objects.all().delete()
    Collection.objects.all().delete()
    return data


def send(raw: bytes):
    counts = (Build.objects.count(), BuildVersion.objects.count(), Kept.objects.count(), Collection.objects.count())
    response = Client(raise_request_exception=False).post(
        "/collection/upload", {"file": SimpleUploadedFile("c.json", raw, "application/json")})
    assert response.status_code in (302, 422), response.status_code
    if response.status_code == 422:
        page = response.content.decode()
        assert "not a collection file we can read" in page and "<code>" in page  # names the field
        assert counts == (Build.objects.count(), BuildVersion.objects.count(), Kept.objects.count(),
                          Collection.objects.count())
    else:
        for build in Build.objects.all():
            store.check(build.document)  # only builds that read were saved
        assert Build.objects.count() == len(set(Build.objects.values_list("edit_token", flat=True)))
    return response


@FUZZ
@given(data=st.data(), value=values)
def test_any_value_anywhere_in_a_real_file(real_file, data, value):
    places = list(paths(real_file))
    place = data.draw(st.sampled_from(places))
    broken = copy.deepcopy(real_file)
    parent = _at(broken, place[:-1])
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[place[-1]]
    else:
        parent[place[-1]] = value
    send(json.dumps(broken, allow_nan=True).encode())
    send(json.dumps(broken, allow_nan=True).encode())  # twice: never saved twice


@FUZZ
@given(value=values)
def test_any_json_at_all(packs, value):
    assert send(json.dumps(value, allow_nan=True).encode()).status_code == 422


@FUZZ
@given(raw=st.binary(max_size=300))
def test_any_bytes(packs, raw):
    send(raw)
