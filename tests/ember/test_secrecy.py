"""E-R25, secret configuration: a Mech's secret Parts are masked on every public surface of it (share page, its
versions and comparisons, JSON, PDF, the API, copies, previews and the squads that name it), counted but not shown;
its edit link and its reveal link show them whole."""
import json

import pytest

from builder import store
from catalogue.rulesets.base import BuildError
from tests.ember.documents import PACK, PARTS, mech, pilot_keys
from tests.helpers.pdf import pdf_text

pytestmark = pytest.mark.django_db
SECRET_ARM = {**PARTS, "right_arm": "stormcoil-arm"}


@pytest.fixture
def secret(packs):
    """A Mech keeping its Stormcoil Arm (18 pts, an Ion Arc) secret."""
    return store.create(store.check(mech(parts=SECRET_ARM, pilot=pilot_keys()[0], secret=["right_arm"])))


def test_e_r25_the_share_page_masks_a_secret_part_but_counts_its_slot(client, secret):
    html = client.get(secret.share_url()).content.decode()
    assert "Secret Part" in html and "Stormcoil" not in html and "Ion Arc" not in html
    assert "This link masks secret Parts" in html and 'data-code="E-R03"' not in html


def test_e_r25_the_edit_and_reveal_links_show_it_whole(client, secret):
    edit = client.get(secret.get_absolute_url()).content.decode()
    assert "Stormcoil Arm" in edit and secret.reveal_url() in edit
    revealed = client.get(secret.reveal_url()).content.decode()
    assert "Stormcoil Arm" in revealed and "Revealed: this link shows secret Parts" in revealed
    assert "Stormcoil" not in client.get(f"{secret.share_url()}?reveal=0123456789abcdef0123456789abcdef").content.decode()


def test_e_r25_json_api_and_versions_are_masked(client, secret):
    public = client.get(f"/s/{secret.share_id}.json").json()
    assert "right_arm" not in public["parts"] and public["masked"] == ["right_arm"]
    assert client.get(f"/s/{secret.share_id}.json?reveal={secret.reveal_token}").json()["parts"]["right_arm"] == "stormcoil-arm"
    api = client.get(f"/api/builds/{secret.share_id}").json()
    assert "stormcoil-arm" not in json.dumps(api) and api["report"]["legal"]
    assert "stormcoil" not in client.get(f"/s/{secret.share_id}/v/1/").content.decode().lower()


def test_e_r25_the_pdf_masks_it_and_the_reveal_pdf_prints_it(client, secret, tmp_path):
    public = pdf_text(client.get(f"/s/{secret.share_id}.pdf").content, tmp_path, layout=False)
    assert "Secret Part, revealed at the table" in public and "Stormcoil" not in public
    whole = pdf_text(client.get(f"/s/{secret.share_id}.pdf?reveal={secret.reveal_token}").content, tmp_path,
                     layout=False)
    assert "Stormcoil Arm" in whole


def test_e_r25_a_masked_view_cannot_be_saved(client, secret):
    public = client.get(f"/s/{secret.share_id}.json").json()
    with pytest.raises(BuildError) as refused:
        store.create(store.check(public))
    assert refused.value.problems[0]["path"] == "masked.right_arm"
    response = client.post("/api/builds", public, content_type="application/json")
    assert response.status_code == 422 and "masked.right_arm" in response.content.decode()


def test_e_r25_a_copy_from_the_share_link_leaves_the_secret_part_out(client, secret):
    page = client.post(f"/s/{secret.share_id}/copy", follow=True).content.decode()
    assert "Its secret Parts stay with its owner" in page
    copy = store.Build.objects.exclude(pk=secret.pk).get()
    assert "right_arm" not in copy.document["parts"] and "masked" not in copy.document and copy.document["secret"] == []
    client.post(f"/s/{secret.share_id}/copy", {"reveal": secret.reveal_token})
    whole = store.Build.objects.exclude(pk__in=[secret.pk, copy.pk]).get()
    assert whole.document["parts"]["right_arm"] == "stormcoil-arm"


def test_e_r25_the_share_preview_leaves_the_secret_part_out(client, secret):
    form = {"attacker_build": secret.share_id, "preview-armor": "4"}
    assert "Ion Arc" not in client.post("/preview/ember/mech/", form, HTTP_HX_REQUEST="true").content.decode()
    revealed = client.post("/preview/ember/mech/", {**form, "reveal": secret.reveal_token}, HTTP_HX_REQUEST="true")
    assert "Ion Arc" in revealed.content.decode()
    api = client.post("/api/preview", {"attacker": {"build": secret.share_id}, "target": {"armor": 4}},
                      content_type="application/json").json()
    assert "Ion Arc" not in json.dumps(api)


def test_e_r25_a_squad_naming_the_mech_shows_its_visible_points_and_counts_the_secret_in_its_verdict(client, secret):
    squad = store.check({"format": "hardpoint.build/1", "ruleset": "ember", "kind": "squad", "pack": PACK,
                         "name": "Embers", "mechs": [{"build": secret.share_id}],
                         "house_rules": {"points-limit": 100}})
    row, = squad.report.detail.roster
    items = store.check(secret.document).catalogue.items
    shown = sum(items[key].cost for slot, key in SECRET_ARM.items() if slot != "right_arm")
    assert row.secret == 1 and row.parts == 4 and row.points == shown + items[secret.document["pilot"]].cost
    points = next(m for m in squad.report.meters if m.key == "points")
    assert points.used == row.points and points.hidden == "1 secret Part"
    assert points.over == (row.points + items["stormcoil-arm"].cost > 100)
    saved = store.create(squad)
    page = client.get(saved.get_absolute_url()).content.decode()
    assert "Stormcoil" not in page and "Not shown: 1 secret Part." in page


def test_e_r25_rules_count_a_masked_chassis(packs):
    masked = store.check({**mech(pilot=pilot_keys()[0]), "parts": {k: v for k, v in PARTS.items() if k != "chassis"},
                          "masked": ["chassis"], "secret": ["chassis"]})
    assert masked.report.legal and "secret Chassis" in masked.report.stats["maneuver"].explain
