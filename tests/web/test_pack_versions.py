"""A newer version of a build's pack: the build's pages say so, "what changed" lists the items it uses that
changed or are gone and the issues before and after, and an upgrade empties what is gone, loudly."""
import json
import re

import pytest
import yaml

from builder import store
from builder.models import Build
from catalogue.loader import catalogue_by_ref, latest_pack
from catalogue.rulesets import ACTIVE
from tests.helpers.refs import pack_ref
from tests.helpers.html_forms import read_form
from tests.web.uploads import DM_HEADER, SPIKE

BASE = pack_ref("darkmetal", "leader")
TUSK = {**SPIKE, "key": "tusk-blade", "name": "Tusk Blade", "cost": 40}
FANG = {**SPIKE, "key": "fang-claw", "name": "Fang Claw", "cost": 60}


def publish(client, version, weapons, token=None):
    raw = yaml.safe_dump({**DM_HEADER, "version": version, "extends": BASE, "items": {"weapon": weapons}}).encode()
    response = client.post(f"/api/packs/{token}" if token else "/api/packs", data=raw, content_type="application/yaml")
    assert response.status_code == 201, response.content
    return response.json()["edit_token"]


@pytest.fixture
def upgraded_pack(client, packs):
    """deep-kit 1.0.0 (Spike Knuckles, Tusk Blade), a Leader holding both, then 1.1.0: the Spike does 2 Damage,
    the Tusk Blade is gone, a Fang Claw is new."""
    token = publish(client, "1.0.0", [SPIKE, TUSK])
    document = {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": "deep-kit@1.0.0",
                "name": "Knuckles", "hands": [{"item": "spike-knuckles"}, {"item": "tusk-blade"}]}
    saved = client.post("/api/builds", data=json.dumps(document), content_type="application/json").json()
    publish(client, "1.1.0", [{**SPIKE, "damage": 2}, FANG], token)
    return Build.objects.get(share_id=saved["share_id"])


def test_the_changes_api_lists_changed_removed_and_added_items_and_issues(client, upgraded_pack):
    body = client.get(f"/api/builds/{upgraded_pack.share_id}/changes").json()  # the newest version by default
    assert (body["from"], body["to"]) == ("deep-kit@1.0.0", "deep-kit@1.1.0")
    rows = {row["key"]: row for row in body["items"]}
    assert rows["spike-knuckles"]["change"] == "changed" and rows["spike-knuckles"]["fields"] == {"damage": [1, 2]}
    assert rows["tusk-blade"]["change"] == "removed" and rows["fang-claw"]["change"] == "added"
    assert body["emptied"] == [{"path": "hands[1].item", "key": "tusk-blade", "name": "Tusk Blade"}]
    assert isinstance(body["issues_before"], list) and isinstance(body["issues_after"], list)
    named = client.get(f"/api/builds/{upgraded_pack.share_id}/changes", {"pack": "deep-kit@1.0.0"}).json()
    assert [row["change"] for row in named["items"]] == []  # against itself: nothing


def test_the_changes_api_refuses_an_unknown_or_foreign_pack(client, upgraded_pack):
    assert client.get(f"/api/builds/{upgraded_pack.share_id}/changes", {"pack": "nope@1.0.0"}).status_code == 422
    other = pack_ref("metallurgent", "anvil")
    assert client.get(f"/api/builds/{upgraded_pack.share_id}/changes", {"pack": other}).status_code == 422


def test_issues_before_and_after_come_from_validating_against_both_versions(client, packs):
    """Raising a weapon's cost past the Leader's Rep pool makes the build illegal on the new version."""
    token = publish(client, "1.0.0", [SPIKE])
    document = {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": "deep-kit@1.0.0",
                "name": "Knuckles", "hands": [{"item": "spike-knuckles"}]}
    share = client.post("/api/builds", data=json.dumps(document), content_type="application/json").json()["share_id"]
    publish(client, "2.0.0", [{**SPIKE, "cost": 5000}], token)
    body = client.get(f"/api/builds/{share}/changes").json()
    assert body["legal_before"] and not body["legal_after"]
    assert "DM-R06" in {i["code"] for i in body["issues_after"]} - {i["code"] for i in body["issues_before"]}


def test_the_build_pages_say_a_newer_version_is_out(client, upgraded_pack):
    share = client.get(upgraded_pack.share_url()).content.decode()
    assert "A newer version of this build's pack is out" in share and "deep-kit@1.1.0" in share
    assert f"/s/{upgraded_pack.share_id}/changes/" in share
    edit = client.get(upgraded_pack.get_absolute_url()).content.decode()
    assert f"/b/{upgraded_pack.edit_token}/changes/" in edit and "and upgrade" in edit


def test_the_changes_pages_upgrade_only_through_the_edit_link(client, upgraded_pack):
    shared = client.get(f"/s/{upgraded_pack.share_id}/changes/").content.decode()
    assert "Tusk Blade" in shared and "Only the build's edit link can upgrade it." in shared
    assert upgraded_pack.edit_token not in shared
    edit = client.get(f"/b/{upgraded_pack.edit_token}/changes/").content.decode()
    assert "Upgrade to deep-kit@1.1.0" in edit and "<code>damage</code>" in edit


def test_upgrading_empties_what_is_gone_and_says_so(client, upgraded_pack):
    response = client.post(f"/b/{upgraded_pack.edit_token}/upgrade", {"pack": "deep-kit@1.1.0", "version": "1"},
                           follow=True)
    upgraded_pack.refresh_from_db()
    assert upgraded_pack.pack_ref == "deep-kit@1.1.0" and upgraded_pack.version == 2
    assert upgraded_pack.document["hands"] == [{"item": "spike-knuckles", "campaign": 0}]
    assert "Emptied, as the new version has no such item: Tusk Blade (hands[1].item)" in response.content.decode()
    assert catalogue_by_ref("deep-kit@1.0.0").items["tusk-blade"].name == "Tusk Blade"  # the old version stays


def test_hp_upgrade_what_an_upgrade_took_out_stays_a_warning_until_dismissed(client, upgraded_pack):
    client.post(f"/b/{upgraded_pack.edit_token}/upgrade", {"pack": "deep-kit@1.1.0", "version": "1"})
    upgraded_pack.refresh_from_db()
    assert upgraded_pack.document["removed"] == [{"name": "Tusk Blade", "key": "tusk-blade", "path": "hands[1].item",
                                                  "pack": "deep-kit@1.1.0", "by": "upgrade"}]
    warning, = [i for i in store.check(upgraded_pack.document).report.issues if i.code == "HP-UPGRADE"]
    assert warning.severity == "warning" and warning.path == "hands[1].item" and "Tusk Blade" in warning.message
    values, _ = read_form(client.get(upgraded_pack.get_absolute_url()).content.decode())
    kept = client.post(upgraded_pack.get_absolute_url(), {**values, "action": ["check"]}).content.decode()
    assert "the upgrade took it out" in kept  # an edit carries the note along
    dismissed = client.post(upgraded_pack.get_absolute_url(), {**values, "action": ["dismiss_removed"]}).content.decode()
    assert "the upgrade took it out" not in dismissed
    after, _ = read_form(dismissed)
    client.post(upgraded_pack.get_absolute_url(), {**after, "action": ["save"]})
    upgraded_pack.refresh_from_db()
    assert "removed" not in upgraded_pack.document or upgraded_pack.document["removed"] == []
    assert "HP-UPGRADE" not in [i.code for i in store.check(upgraded_pack.document).report.issues]


def test_an_upgrade_from_a_stale_page_is_refused(client, upgraded_pack):
    response = client.post(f"/b/{upgraded_pack.edit_token}/upgrade", {"pack": "deep-kit@1.1.0", "version": "7"})
    assert response.status_code == 302 and response["Location"].endswith("/changes/")
    upgraded_pack.refresh_from_db()
    assert upgraded_pack.pack_ref == "deep-kit@1.0.0"


def test_an_upgrade_to_another_packs_version_is_refused(client, upgraded_pack):
    response = client.post(f"/b/{upgraded_pack.edit_token}/upgrade", {"pack": BASE, "version": "1"})
    assert response.status_code == 422


KEYISH = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def leaves(node, at=()):
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in ("format", "ruleset", "kind", "pack", "name", "notes", "player"):
                yield from leaves(value, at + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from leaves(value, at + (index,))
    elif isinstance(node, str):
        yield at, node


@pytest.mark.parametrize("ruleset, kind", [(r.key, k.key) for r in ACTIVE.values() for k in r.kinds])
def test_every_item_a_kinds_examples_name_is_declared_for_upgrades(packs, ruleset, kind):
    """The kind contract's `items` must find every pack item a document names, or an upgrade could leave an
    unknown key behind: each example's string leaves that are item keys are all found."""
    spec = ACTIVE[ruleset].kind(kind)
    pack = latest_pack(ruleset, kind)
    catalogue = catalogue_by_ref(pack.ref)
    examples = [e for e in pack.examples if e.get("kind", ACTIVE[ruleset].kinds[0].key) == kind]
    for example in examples:
        named = {(at, value) for at, value in leaves(example) if value in catalogue.items}
        assert named <= {(where, key) for _, where, key in spec.items_used(example)}, example["name"]
    assert examples or kind in ("pilot", "squad", "lance")  # kinds made of other saved builds


def test_pilot_and_squad_references_and_what_an_upgrade_empties():
    pilot = ACTIVE["metallurgent"].kind("pilot")
    found = {(where, key): ref.cleared(where) for ref, where, key in pilot.items_used(
        {"lifepath": "rook", "developments": ["grit"], "history": [{"learn": "snap-shot"}, {"unlearn": "snap-shot"}]})}
    assert found == {(("lifepath",), "rook"): ("lifepath",), (("developments", 0), "grit"): ("developments", 0),
                     (("history", 0, "learn"), "snap-shot"): ("history", 0),
                     (("history", 1, "unlearn"), "snap-shot"): ("history", 1)}
    squad = ACTIVE["metallurgent"].kind("squad")
    [(ref, where, key)] = squad.items_used({"platoons": [{"members": [{"build": "abc"}, {"unit": "tank"}]}]})
    assert (where, key, ref.cleared(where)) == (("platoons", 0, "members", 1, "unit"), "tank", ("platoons", 0, "members", 1))


def ember_pack(client, version: str, parts: list[dict], token=None) -> str:
    header = {"name": "ember-kit", "version": version, "ruleset": "ember", "title": "Ember kit",
              "extends": pack_ref("ember", "mech")}
    raw = yaml.safe_dump({**header, "items": {"part": parts}}).encode()
    response = client.post(f"/api/packs/{token}" if token else "/api/packs", data=raw, content_type="application/yaml")
    assert response.status_code == 201, response.content
    return response.json()["edit_token"]


def test_an_ember_upgrade_to_a_version_lacking_a_part_empties_its_slot_and_names_it(client, packs):
    """An Ember slot is empty when it has no entry: the Part comes out with its slot, as other kinds' items do."""
    starter = catalogue_by_ref(pack_ref("ember", "mech"))
    example = next(e for e in latest_pack("ember", "mech").examples if e["kind"] == "mech")
    slot, key = next(iter(example["parts"].items()))
    copy = {**starter.items[key].model_dump(mode="json"), "key": "kit-" + key, "name": "Kit Copy"}
    token = ember_pack(client, "1.0.0", [copy])
    document = {**example, "pack": "ember-kit@1.0.0", "parts": {**example["parts"], slot: "kit-" + key}}
    saved = client.post("/api/builds", data=json.dumps(document), content_type="application/json").json()
    ember_pack(client, "1.1.0", [{**copy, "key": "kit-other", "name": "Other Copy"}], token)
    changes = client.get(f"/api/builds/{saved['share_id']}/changes")
    assert changes.status_code == 200, changes.content
    assert changes.json()["emptied"] == [{"path": f"parts.{slot}", "key": "kit-" + key, "name": "Kit Copy"}]
    build = Build.objects.get(share_id=saved["share_id"])
    response = client.post(f"/b/{build.edit_token}/upgrade", {"pack": "ember-kit@1.1.0", "version": "1"})
    assert response.status_code == 302
    build.refresh_from_db()
    assert build.pack_ref == "ember-kit@1.1.0" and slot not in build.document["parts"]
    assert build.document["removed"][0]["path"] == f"parts.{slot}"


def test_what_changed_compares_only_with_versions_of_the_builds_own_pack(client, upgraded_pack):
    """Naming another pack listed its items as "added" to anyone with the build's share link, an uploaded pack's
    too, which is read through its own link only."""
    other = yaml.safe_dump({**DM_HEADER, "name": "secret-kit", "extends": BASE, "items": {"weapon": [FANG]}}).encode()
    assert client.post("/api/packs", data=other, content_type="application/yaml").status_code == 201
    for url in (f"/api/builds/{upgraded_pack.share_id}/changes", f"/s/{upgraded_pack.share_id}/changes/"):
        refused = client.get(url, {"pack": "secret-kit@1.0.0"})
        assert refused.status_code == 422 and b"Fang Claw" not in refused.content
    assert client.get(f"/api/builds/{upgraded_pack.share_id}/changes", {"pack": BASE}).status_code == 422
