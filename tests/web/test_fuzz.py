"""Property-based fuzzing (Hypothesis) of every registered kind: mutated build documents through the API and
`manage.py validate`, mutated builder forms through the pages. No input gives a 5xx, every 4xx says why, and a
refused request saves nothing.

The example budget is fixed so CI time stays bounded; FUZZ_EXAMPLES=2000 runs a deeper profile, and
FUZZ_REPORT=path writes the inputs tried and the status counts there as JSON.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from hypothesis import given
from hypothesis import strategies as st

from builder.models import Build
from tests.helpers.fuzzing import FUZZ, IDS, KINDS, _at, builder_form, documents, numbers, paths, texts, values

pytestmark = pytest.mark.django_db
STATUSES: Counter = Counter()


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    path = os.environ.get("FUZZ_REPORT")
    if path:
        with open(path, "w") as out:
            json.dump({"inputs": sum(STATUSES.values()), "statuses": {str(k): v for k, v in sorted(STATUSES.items(), key=lambda item: str(item[0]))}}, out, indent=1)


def mutated(document: dict, data) -> object:
    """The document with one to three changes: a value replaced, a key removed or added, or nesting deepened."""
    document = json.loads(json.dumps(document))
    for _ in range(data.draw(st.integers(1, 3))):
        places = list(paths(document))
        how = data.draw(st.sampled_from(["replace", "remove", "add", "nest", "cross"]))
        if how == "nest":
            depth = data.draw(st.integers(1, 200))
            for _ in range(depth):
                document = {"build": document} if depth % 2 else [document]
            return document
        if how == "cross":  # keys and values from another ruleset's or kind's document
            other = data.draw(st.sampled_from(KINDS))
            return {**document, **data.draw(st.sampled_from(documents(*other)))}
        if not places or how == "add":
            target = document
            if places:
                parent = data.draw(st.sampled_from(places))
                target = _at(document, parent)
            if isinstance(target, dict):
                target[data.draw(st.text(max_size=12))] = data.draw(values)
            continue
        place = data.draw(st.sampled_from(places))
        parent, last = _at(document, place[:-1]), place[-1]
        if how == "remove":
            del parent[last]
        else:
            parent[last] = data.draw(values)
    return document


def body_of(document) -> str:
    return json.dumps(document, allow_nan=True)


def assert_sound(response, before: int, saved_ok: bool = True):
    STATUSES[response.status_code] += 1
    assert response.status_code < 500, response.content[:500]
    if response.status_code >= 400:
        body = response.json() if response["Content-Type"].startswith("application/json") else None
        assert body is None or body["reason"]
        assert Build.objects.count() == before, "a refused request saved a build"


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_api_never_fails_on_mutated_documents(client, packs, ruleset, kind):
    originals = documents(ruleset, kind)
    created = client.post("/api/builds", originals[0], content_type="application/json").json()

    @FUZZ
    @given(data=st.data())
    def run(data):
        document = mutated(data.draw(st.sampled_from(originals)), data)
        for url in ("/api/validate", "/api/builds"):
            before = Build.objects.count()
            assert_sound(client.post(url, body_of(document), content_type="application/json"), before)
        before = Build.objects.count()
        version = data.draw(st.one_of(st.just(1), values))
        put = client.put(f"/api/builds/{created['edit_token']}", body_of({"version": version, "build": document}),
                         content_type="application/json")
        assert_sound(put, before)
        preview = client.post("/api/preview", body_of({"attacker": document, "situation": data.draw(values)}),
                              content_type="application/json")
        assert_sound(preview, before)
        aimed = client.post("/api/preview", body_of({"attacker": originals[0], "target": data.draw(values),
                                                     "situation": data.draw(values)}), content_type="application/json")
        assert_sound(aimed, before)

    run()


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_validate_command_exits_0_1_or_2_on_mutated_documents(packs, tmp_path, ruleset, kind):
    originals = documents(ruleset, kind)
    path = tmp_path / "build.json"

    @FUZZ
    @given(data=st.data())
    def run(data):
        path.write_text(body_of(mutated(data.draw(st.sampled_from(originals)), data)))
        with pytest.raises(SystemExit) as exited:
            call_command("validate", str(path), stdout=StringIO(), stderr=StringIO())
        STATUSES[f"cli-{exited.value.code}"] += 1
        assert exited.value.code in (0, 1, 2)

    run()


def mutated_form(data, fields: dict[str, str], names: list[str]) -> dict[str, str]:
    """The form with one to four fields changed to hostile text or numbers, dropped, or added."""
    form = dict(fields)
    for _ in range(data.draw(st.integers(1, 4))):
        name = data.draw(st.one_of(st.sampled_from(names), st.text(max_size=12)))
        if data.draw(st.booleans()) and name in form:
            del form[name]
        else:
            form[name] = data.draw(st.one_of(texts, numbers.map(str)))
    return form


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_builder_forms_never_fail_on_mutated_fields(client, packs, ruleset, kind):
    url, fields, names = builder_form(client, ruleset, kind)

    @FUZZ
    @given(data=st.data())
    def run(data):
        form = mutated_form(data, fields, names)
        form["action"] = data.draw(st.sampled_from(["save", "check", "remove:0", "add", "learn:x", "undo", "²"]))
        before = Build.objects.count()
        response = client.post(url, form)
        STATUSES[response.status_code] += 1
        assert response.status_code < 500, response.content[:500]
        if response.status_code >= 400:
            assert Build.objects.count() == before and b"<code>" in response.content

    run()


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_drafts_of_mutated_forms_never_fail_to_come_back(client, packs, ruleset, kind):
    """A draft is a form a page sent as it was left: whatever it holds, restoring it answers below 500."""
    url, fields, names = builder_form(client, ruleset, kind)

    @FUZZ
    @given(data=st.data())
    def run(data):
        form = mutated_form(data, fields, names)
        form["draft_for"] = data.draw(st.one_of(st.just(url), texts))
        left = client.post("/draft/", form)
        assert left.status_code in (204, 400, 413), left.content[:200]
        restored = client.get(url)
        STATUSES[restored.status_code] += 1
        assert restored.status_code == 200, restored.content[:500]

    run()
