"""A COMP/CON pilot through Hardpoint and back: imported, saved, edited in the builder and exported, it is the
file it was, with what the player changed here written into it (its ids, state in play, portrait, other loadouts
and the mechs no pack here knows all kept)."""
from __future__ import annotations

import json

import pytest

from builder.models import Build
from catalogue.rulesets.lancer import compcon
from tests.lancer import factories
from tests.helpers.html_forms import read_form


@pytest.fixture
def file(packs) -> dict:
    """A pilot as COMP/CON writes one: its own ids, state in play, a second loadout on a mech, a mech on a frame
    no pack here has, and fields Hardpoint does not model."""
    catalogue, examples = factories.starter()
    pilot = compcon.to_compcon(next(iter(examples.values())), catalogue)
    pilot.update({"id": "c0ffee00-0000-4000-8000-000000000001", "player_name": "Sam", "history": "Born on a barge.",
                  "state": {"stage": "Combat", "turn": 2, "actions": 1}, "portrait": "https://example.com/p.png",
                  "lastModified": "Sun Nov 01 2026 10:00:00 GMT+0000 (Coordinated Universal Time)"})
    mech = pilot["mechs"][0]
    mech.update({"id": "c0ffee00-0000-4000-8000-000000000002", "current_hp": 3, "current_heat": 4,
                 "active_loadout_index": 1})
    mech["loadouts"].insert(0, {**json.loads(json.dumps(mech["loadouts"][0])), "id": "spare", "name": "Spare",
                                "systems": []})
    pilot["mechs"].append({**json.loads(json.dumps(mech)), "id": "c0ffee00-0000-4000-8000-000000000003",
                           "frame": "mf_not_here", "name": "Ghost", "active": False})
    return pilot


def imported(client, file: dict) -> dict:
    response = client.post("/api/import/compcon", file, content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()


def test_a_pilot_imported_and_exported_unchanged_is_the_file_it_was(client, file):
    body = imported(client, file)
    exported = client.get(f"/s/{body['share_id']}/export/compcon").json()
    assert exported == file


def test_an_edit_in_the_builder_is_written_into_the_file_it_came_from(client, file):
    body = imported(client, file)
    edit = f"/b/{body['edit_token']}/"
    form, _ = read_form(client.get(edit).content.decode())
    form["callsign"] = ["NEW CALL"]
    saved = client.post(edit, {**form, "action": "save"})
    assert saved.status_code == 200, saved.content[:400]
    exported = client.get(f"/s/{body['share_id']}/export/compcon").json()
    assert exported["callsign"] == "NEW CALL"
    changed = {key for key in file if exported[key] != file[key]}
    assert changed == {"callsign", "lastModified"}  # ids, state, portrait and the mechs as they were
    assert exported["mechs"][-1]["frame"] == "mf_not_here"


def test_an_api_edit_keeps_the_file_too(client, file):
    body = imported(client, file)
    document = client.get(f"/api/builds/{body['share_id']}").json()["build"]
    document["mechs"][0]["name"] = "Renamed"
    put = client.put(f"/api/builds/{body['edit_token']}", {"build": document, "version": 1},
                     content_type="application/json")
    assert put.status_code == 200, put.content
    exported = client.get(f"/s/{body['share_id']}/export/compcon").json()
    mech, before = exported["mechs"][0], file["mechs"][0]
    assert (mech["name"], mech["id"], mech["current_hp"], mech["loadouts"][0]) == \
        ("Renamed", before["id"], before["current_hp"], before["loadouts"][0])


def test_a_copy_is_a_new_pilot_in_comp_con(client, file):
    body = imported(client, file)
    copied = client.post(f"/b/{body['edit_token']}/duplicate")
    assert copied.status_code == 302
    share_id = copied["Location"].rstrip("/").rsplit("/", 1)[-1]
    copy = Build.objects.get(edit_token=share_id)
    exported = client.get(f"/s/{copy.share_id}/export/compcon").json()
    assert exported["id"] != file["id"] and "kept" not in copy.document


def test_a_pilot_made_here_names_its_first_mech_active_in_play_state(packs):
    catalogue, examples = factories.starter()
    pilot = next(e for e in examples.values() if e.get("mechs"))
    written = compcon.to_compcon(pilot, catalogue)
    assert [m["active"] for m in written["mechs"]] == [True] + [False] * (len(written["mechs"]) - 1)
    assert written["state"]["active_mech_id"] == written["mechs"][0]["id"]
    assert (written["state"]["stage"], written["state"]["mission"]) == ("Narrative", 0)
