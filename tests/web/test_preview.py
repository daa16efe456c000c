"""The combat preview through the API, the page panel (htmx and plain form) and `manage.py preview`."""
import json

import pytest
from django.core.management import call_command

from builder import store
from builder.models import Build
from catalogue.loader import latest_pack
from tests.helpers.refs import pack_ref

pytestmark = pytest.mark.django_db


@pytest.fixture
def vanguard(packs):
    return dict(latest_pack("metallurgent").examples[0])


def post(client, body):
    return client.post("/api/preview", body, content_type="application/json")


def test_api_preview_against_a_unit(client, vanguard):
    response = post(client, {"attacker": vanguard, "target": {"unit": "t-72b-mbt"}, "situation": {"range": 5}})
    data = response.json()
    assert response.status_code == 200 and data["target"]["name"] == "T-72B main battle tank"
    rifle = next(a for a in data["attacks"] if a["name"] == "Hailstone Assault Rifle")
    assert 0 < rifle["p_hit"] <= 1 and rifle["distribution"] and rifle["parts"][0]["name"] == "Hull"
    assert len(data["track"]["turns"]) == 5


def test_api_preview_saved_attacker_against_a_saved_anvil(client, vanguard, packs):
    attacker = store.create(store.check(vanguard))
    target = store.create(store.check(dict(latest_pack("metallurgent").examples[3])))
    data = post(client, {"attacker": {"build": attacker.share_id}, "target": {"build": target.share_id}}).json()
    assert data["target"]["kind"] == "anvil" and len(data["attacks"][0]["parts"]) == 6


def test_api_preview_uses_the_pilots_mettle(client, vanguard):
    crew = store.create(store.check({"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "pilot",
                                     "pack": pack_ref("metallurgent", "pilot"), "name": "Ace", "mettle": 7}))
    data = post(client, {"attacker": {**vanguard, "pilot": crew.share_id}, "target": {"unit": "rifle-squad"}}).json()
    assert data["mettle"] == 7


@pytest.mark.parametrize("body,status,field", [
    ({"attacker": {}, "target": {"unit": "t-72b-mbt"}}, 422, "ruleset"),
    ({"target": {"unit": "t-72b-mbt"}}, 400, None),
    ({"attacker": "x", "target": {"unit": "t-72b-mbt"}}, 422, "(document)"),
    ({"attacker": {"build": "nope1234"}, "target": {"unit": "t-72b-mbt"}, "extra": 1}, 422, "attacker.build"),
    ({"attacker": {"build": "nope1234"}, "target": {"unit": "t-72b-mbt"}}, 422, "attacker.build"),
])
def test_api_preview_bad_input(client, packs, body, status, field):
    response = post(client, body)
    assert response.status_code == status and response.json()["reason"]
    if field:
        assert response.json()["problems"][0]["path"] == field


def test_api_preview_bad_target_and_situation(client, vanguard):
    for target, field in (({"unit": "no-such"}, "target.unit"), (5, "target")):
        response = post(client, {"attacker": vanguard, "target": target})
        assert response.status_code == 422 and response.json()["problems"][0]["path"] == field
    for situation in ({"range": 0}, {"range": 9999}, {"weather": "snowstorm"}, {"turns": 99}, {"bogus": True}):
        response = post(client, {"attacker": vanguard, "target": {"unit": "t-72b-mbt"}, "situation": situation})
        assert response.status_code == 422, situation
        assert response.json()["problems"][0]["path"] == f"situation.{next(iter(situation))}"
    response = post(client, {"attacker": vanguard, "target": {"unit": "t-72b-mbt"}, "situation": []})
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "situation"


def test_panel_is_on_the_builder_and_the_share_page(client, vanguard):
    assert 'id="preview-form"' in client.get("/new/metallurgent/anvil/?example=0").content.decode()
    build = store.create(store.check(vanguard))
    html = client.get(f"/s/{build.share_id}/").content.decode()
    assert 'id="preview-form"' in html and f'name="attacker_build" value="{build.share_id}"' in html
    assert build.edit_token not in html


def test_panel_htmx_fragment_with_chart(client, vanguard):
    form = {"attacker": json.dumps(vanguard), "preview-target": "unit:t-72b-mbt", "preview-range": "4",
            "preview-turns": "3", "preview-bid": "target_dodging"}
    response = client.post("/preview/metallurgent/anvil/", form, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert "<svg" in html and "Hailstone Assault Rifle" in html and "T-72B main battle tank" in html


def test_panel_without_javascript_is_a_page(client, vanguard):
    build = store.create(store.check(vanguard))
    response = client.post("/preview/metallurgent/anvil/", {"attacker_build": build.share_id,
                                                          "preview-target": "unit:rifle-squad"})
    assert response.status_code == 200 and "<html" in response.content.decode()


def test_panel_uses_the_builders_current_form(client, vanguard):
    form = {"pack": vanguard["pack"], "name": "Edited", "gear-count": "0", "preview-target": "unit:rifle-squad",
            **{f"part-{k}": v for k, v in vanguard["parts"].items()}}
    html = client.post("/preview/metallurgent/anvil/", form, HTTP_HX_REQUEST="true").content.decode()
    assert "Edited" in html and "Hailstone" not in html


def test_panel_bad_input_is_422(client, vanguard):
    for bad, field in (({"attacker": "{oops", "preview-target": "unit:rifle-squad"}, "(document)"),
                       ({"attacker": json.dumps(vanguard), "preview-target": "tank"}, "target.build"),
                       ({"attacker": json.dumps(vanguard), "preview-target": "unit:rifle-squad", "preview-range": "far"},
                        "range"),
                       ({"attacker": json.dumps(vanguard), "preview-target": "unit:rifle-squad", "preview-range": "²"},
                        "range")):
        response = client.post("/preview/metallurgent/anvil/", bad, HTTP_HX_REQUEST="true")
        assert response.status_code == 422 and f"<code>{field}</code>" in response.content.decode(), bad
    assert Build.objects.count() == 0


def test_preview_command(vanguard, tmp_path, capsys):
    path = tmp_path / "anvil.json"
    path.write_text(json.dumps(vanguard))
    call_command("preview", str(path), "--target", '{"unit": "t-72b-mbt"}', "--range", "5", "--situation", '{"turns": 2}')
    data = json.loads(capsys.readouterr().out)
    assert data["situation"]["range"] == 5 and len(data["track"]["turns"]) == 2


def test_preview_command_bad_input_exits_2(vanguard, tmp_path, capsys):
    path = tmp_path / "anvil.json"
    path.write_text(json.dumps(vanguard))
    for args in ([str(path), "--target", '{"unit": "nope"}'], [str(tmp_path / "missing.json"), "--target", '{"unit": "t-72b-mbt"}'],
                 [str(path), "--target", '{"unit": "t-72b-mbt"}', "--situation", "[]"]):
        with pytest.raises(SystemExit) as exit_:
            call_command("preview", *args)
        assert exit_.value.code == 2


def test_dice_command(capsys):
    call_command("dice", "metallurgent", "--pool", "6", "--criterion", "4")
    assert json.loads(capsys.readouterr().out)["distribution"]["12"] == pytest.approx(1 / 6 ** 6, abs=1e-10)
    call_command("dice", "megamercs", "--target", "35")
    assert json.loads(capsys.readouterr().out) == {"distribution": {"0": 0.65, "1": 0.35}}
    call_command("dice", "darkmetal", "--pool", "1", "--target", "6")
    assert json.loads(capsys.readouterr().out) == {"distribution": {"-1": 0.1, "0": 0.4, "1": 0.5}}


def test_preview_panel_says_never_and_labels_weather_in_words(client, vanguard):
    """Out of reach reads "never", not "0%"; weather options read as words, not joined keys."""
    form = {"attacker": json.dumps(vanguard), "preview-target": "unit:t-72b-mbt", "preview-range": "99"}
    html = client.post("/preview/metallurgent/anvil/", form, HTTP_HX_REQUEST="true").content.decode()
    assert ">0%<" not in html and "out of range" in html
    page = client.get("/new/metallurgent/anvil/?example=0").content.decode()
    assert ">Winds, heavy</option>" in page and "Windsheavy" not in page


def test_panel_arc_painted_and_locked_reach_the_preview(client, vanguard):
    page = client.get("/new/metallurgent/anvil/?example=0").content.decode()
    assert ">Aft Arc</option>" in page and 'name="preview-target_painted"' in page
    assert 'name="preview-target_locked"' in page and '<option value="target_blocking">a Block</option>' in page
    anvils = latest_pack("metallurgent").examples
    target = store.create(store.check(dict(anvils[0])))
    form = {"attacker": json.dumps(vanguard), "preview-target": f"build:{target.share_id}", "preview-range": "4",
            "preview-bid": "target_dodging", "preview-attack_arc": "aft", "preview-target_painted": "on"}
    html = client.post("/preview/metallurgent/anvil/", form, HTTP_HX_REQUEST="true").content.decode()
    assert "fired into its Aft Arc" in html and "less 2 from the Aft Arc" in html
    assert "+1 against a Painted target" in html
    bad = client.post("/preview/metallurgent/anvil/", {**form, "preview-attack_arc": "behind"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 422 and "<code>attack_arc</code>" in bad.content.decode()


def test_panel_shows_payloads_and_what_is_not_modelled(client, vanguard):
    form = {"attacker": json.dumps(vanguard), "preview-target": "unit:t-72b-mbt", "preview-range": "4"}
    html = client.post("/preview/metallurgent/anvil/", form, HTTP_HX_REQUEST="true").content.decode()
    assert "Blast 1 Payload" in html and "a miss Drifts 2 hexes" in html
    assert "<em>not modelled</em>: its rules are not in the rulebook" in html


def test_api_preview_arc_and_payload_rows(client, vanguard):
    body = {"attacker": vanguard, "target": {"unit": "t-72b-mbt"}, "situation": {"range": 4, "attack_arc": "aft"}}
    data = post(client, body).json()
    assert data["arc"] == "Aft" and any(a["payload"] == "Blast 1" and a["drift"] for a in data["attacks"])
    response = post(client, {**body, "situation": {"attack_arc": "up"}})
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "situation.attack_arc"


def test_api_preview_refuses_smoke_past_occlusion_9(client, vanguard):
    """An obscurant's Occlusion sets the Target Number, which sets how far a miss Drifts: it is bounded."""
    body = {"attacker": vanguard, "target": {"unit": "t-72b-mbt"}, "situation": {"smoke": [50]}}
    response = post(client, body)
    assert response.status_code == 422 and response.json()["problems"][0]["path"].startswith("situation.smoke")
    assert post(client, {**body, "situation": {"smoke": [9]}}).status_code == 200


def test_m_c55_two_answers_to_one_activation_are_a_422_naming_the_situation(client, vanguard):
    response = post(client, {"attacker": vanguard, "target": {"unit": "t-72b-mbt"},
                             "situation": {"target_blocking": True, "target_dodging": True}})
    assert response.status_code == 422 and "situation" in response.json()["problems"][0]["path"]
    assert "one of Block, Intercept and Dodge" in response.json()["problems"][0]["message"]
