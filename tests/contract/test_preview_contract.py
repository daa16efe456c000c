"""The combat preview every kind with one gets from the contract (Kind.previewer): the same engine behind the API,
the command and the panel, with the saved builds a request names fetched first. Driven over every registered
kind."""
from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from builder import store
from builder.kinds import PAGES
from catalogue.rulesets.base import BuildError
from tests.helpers.kinds import documents

pytestmark = pytest.mark.django_db
KINDS = sorted(PAGES)
PREVIEWING = [key for key in KINDS if PAGES[key].kind.previewer]
SILENT = [key for key in KINDS if not PAGES[key].kind.previewer]
TARGETED = [(r, k, link) for r, k in PREVIEWING for link in PAGES[r, k].kind.previewer.links]


def example(ruleset: str, kind: str) -> dict:
    return documents(ruleset, kind)[0]


def answer(client, body):
    return client.post("/api/preview", json.dumps(body), content_type="application/json")


def test_every_game_previews_at_least_one_kind():
    assert {r for r, _ in PREVIEWING} == {r for r, _ in KINDS}


@pytest.mark.parametrize("ruleset,kind", SILENT, ids=[f"{r}-{k}" for r, k in SILENT])
def test_a_kind_without_a_preview_says_so_naming_the_attacker(client, packs, ruleset, kind):
    checked = store.check(example(ruleset, kind))
    with pytest.raises(BuildError) as refused:
        checked.kind.preview(checked.build, checked.catalogue, {}, {})
    assert refused.value.problems[0]["path"] == "attacker"
    response = answer(client, {"attacker": checked.document})
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "attacker"
    assert client.post(f"/preview/{ruleset}/{kind}/", {}).status_code == 404


@pytest.mark.parametrize("ruleset,kind", PREVIEWING, ids=[f"{r}-{k}" for r, k in PREVIEWING])
def test_the_api_and_the_kind_give_the_same_preview_and_a_stray_field_is_named(client, packs, ruleset, kind):
    checked = store.check(example(ruleset, kind))
    request = {"situation": {}}
    try:
        direct = store.preview(checked, request)
    except BuildError as error:  # a kind whose request must name a target says which field
        assert {p["path"].split(".")[0] for p in error.problems} <= {"target", "attacker"}
        return
    assert answer(client, {"attacker": checked.document, **request}).json() == json.loads(json.dumps(direct))
    stray = answer(client, {"attacker": checked.document, "situation": {}, "weather": "fog"})
    assert stray.status_code == 422 and stray.json()["problems"][0]["path"] == "(request)"


@pytest.mark.parametrize("ruleset,kind,link", TARGETED, ids=[f"{r}-{k}-{l.path}" for r, k, l in TARGETED])
def test_a_target_named_by_share_id_is_fetched_and_checked_as_its_share_link_shows_it(client, packs, tmp_path,
                                                                                      ruleset, kind, link):
    attacker = example(ruleset, kind)
    target = store.create(store.check(example(ruleset, link.kind)))
    path = link.path.split(".")
    request: dict = {"situation": {}}
    request.setdefault(path[0], {})[path[1]] = target.share_id
    response = answer(client, {"attacker": attacker, **request})
    assert response.status_code == 200, response.content[:400]
    assert target.name in response.content.decode()

    (tmp_path / "attacker.json").write_text(json.dumps(attacker))
    call_command("preview", str(tmp_path / "attacker.json"), build=target.share_id)  # the command's --build

    missing = dict(request, **{path[0]: {path[1]: "nosuchbuild"}})
    response = answer(client, {"attacker": attacker, **missing})
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == link.path

    other = next((r, k) for r, k in KINDS if (r, k) != (ruleset, link.kind))
    stranger = store.create(store.check(example(*other)))
    response = answer(client, {"attacker": attacker, **dict(request, **{path[0]: {path[1]: stranger.share_id}})})
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == link.path
