"""Ember's pages through the real views: the Mech builder, its preview, its sheet and cards, a squad of saved
Mechs, and the secret configuration masked on share links."""
import json
import re

import pytest

from builder import store
from catalogue.rulesets import ember
from tests.ember.documents import PACK, PARTS, mech, pilot_keys
from tests.helpers.html_forms import read_form
from tests.helpers.pdf import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def registered(packs):
    return ember.RULESET


def test_a_mech_without_a_chassis_shows_e_r03_and_saving_round_trips(client, registered):
    first = pilot_keys()[0]
    html = client.post("/new/ember/mech/", {"pack": PACK, "name": "Hound", "pilot": first,
                                            "part-torso": PARTS["torso"], "part-left_arm": PARTS["left_arm"]}).content.decode()
    assert re.search(r'data-code="E-R03"[^>]*>.*?needs a chassis', html, re.S)
    build = store.create(store.check(mech(pilot=first)))
    values, _ = read_form(client.get(build.get_absolute_url()).content.decode())
    response = client.post(build.get_absolute_url(), {**values, "action": ["save"]})
    build.refresh_from_db()
    assert response.status_code == 200 and build.version == 2 and build.document == store.check(mech(pilot=first)).document


def test_the_builder_shows_each_part_as_its_card_with_its_dice(client, registered):
    build = store.create(store.check(mech(pilot=pilot_keys()[0])))
    html = client.get(build.get_absolute_url()).content.decode()
    assert "Flint Assault Torso" in html and 'aria-label="1 Yellow and 2 Red dice"' in html
    assert "starts on its Discard side" in html  # the rifle arm is Handheld
    assert "Firing" in html and "no Starting Action" in html  # the Timings beside


def test_the_preview_gives_every_attack_exactly(client, registered):
    document = mech(pilot=pilot_keys()[0])
    form = {"attacker": json.dumps(document), "preview-armor": "4", "preview-structure": "3", "preview-dodge": "5",
            "preview-stance": "mobility"}
    html = client.post("/preview/ember/mech/", form, HTTP_HX_REQUEST="true").content.decode()
    assert "Chest Autocannon" in html and "Cleaving Stroke" in html and "4 + 5" in html
    api = client.post("/api/preview", {"attacker": document, "target": {"armor": 4, "structure": 3, "dodge": 5,
                                                                       "stance": "mobility"}},
                      content_type="application/json")
    aimed = next(a for a in api.json()["attacks"] if a["name"] == "Aimed Shot")
    assert api.status_code == 200 and 0 < aimed["p_penetration"] < 1


def test_the_sheet_prints_the_control_panel_and_the_cards(client, registered, tmp_path):
    build = store.create(store.check(mech(pilot=pilot_keys()[0])))
    printed = pdf_text(client.get(f"/s/{build.share_id}.pdf").content, tmp_path, layout=False).lower()
    for words in ("quick reference", "damaged", "destroyed", "repaired", "cut along the corner marks",
                  "discard side of ridgeline rifle arm", "offensive stance"):
        assert words in printed, words


def test_a_squad_of_two_mechs_with_one_pilot_id_shows_e_r06(client, registered):
    pilot = pilot_keys()[0]
    one, two = (store.create(store.check(mech(name=n, pilot=pilot))) for n in ("Cinder", "Ember"))
    squad = {"format": "hardpoint.build/1", "ruleset": "ember", "kind": "squad", "pack": PACK, "name": "Embers",
             "mechs": [{"build": one.share_id}, {"build": two.share_id}], "drones": [{"drone": "picket-gun-drone",
                                                                                    "count": 2}]}
    saved = store.create(store.check(squad))
    html = client.get(saved.get_absolute_url()).content.decode()
    assert re.search(r'data-code="E-R06"', html) and "Points (unsourced format)" in html
    assert "Picket Gun Drone" in html


def test_the_squad_sheet_says_the_format_is_unsourced_and_prints_drone_and_projectile_cards(client, registered, tmp_path):
    one = store.create(store.check(mech(pilot=pilot_keys()[0], parts={**PARTS, "backpack": "ashfall-missile-rack"})))
    squad = {"format": "hardpoint.build/1", "ruleset": "ember", "kind": "squad", "pack": PACK, "name": "Embers",
             "mechs": [{"build": one.share_id}], "drones": [{"drone": "picket-gun-drone", "count": 2}]}
    saved = store.create(store.check(squad))
    printed = " ".join(pdf_text(client.get(f"/s/{saved.share_id}.pdf").content, tmp_path, layout=False).split())
    assert "authored format, unsourced" in printed and "Picket Gun Drone" in printed
    assert "Cinder Salvo" in printed and "Missile Group 3" in printed and "Cut along the corner marks" in printed
    assert "Cinder" in printed  # the saved Mech's own sheet follows


def test_the_preview_against_an_example_mech_goes_part_by_part(client, registered):
    form = {"attacker": json.dumps(mech(pilot=pilot_keys()[0])), "preview-target": "example:Choirmaster",
            "preview-stance": "mobility"}
    html = client.post("/preview/ember/mech/", form, HTTP_HX_REQUEST="true").content.decode()
    assert "against Choirmaster" in html and "Basalt Command Core" in html and "Any Part" in html
    assert "P(the Mech destroyed" in html
    bad = client.post("/preview/ember/mech/", {**form, "preview-target": "example:Nobody"}, HTTP_HX_REQUEST="true")
    assert "no example Mech named" in bad.content.decode()


def test_the_preview_gives_electronic_counter_rolls_for_scan_and_electronic_attacks(client, registered):
    """5.6: Veil Recon Torso (EV 3) scans and sweeps against EV 2: 3 Yellow against 2, the digest's 0.706."""
    veil = mech(parts={**PARTS, "torso": "veil-recon-torso"}, pilot=pilot_keys()[0], stance="defensive")
    api = client.post("/api/preview", {"attacker": veil, "target": {"electronic": 2}},
                      content_type="application/json").json()
    scan, sweep = api["electronic"]
    assert (scan["name"], sweep["name"]) == ("Scan", "Jamming Sweep") and scan["dice"] == 3
    assert abs(scan["p_success"] - 0.706) < 1e-3 and sweep["p_success"] == scan["p_success"]
    html = client.post("/preview/ember/mech/", {"attacker": json.dumps(veil), "preview-electronic": "2"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Electronic warfare" in html and "71%" in html


def test_a_whole_mech_target_defends_in_its_deployment_stance_unless_told(client, registered):
    """Choirmaster deploys Defensive; a described Part's Mech, deployed with no token, is Offensive (E-R12)."""
    attacker = mech(pilot=pilot_keys()[0])

    def ask(target):
        return client.post("/api/preview", {"attacker": attacker, "target": target},
                           content_type="application/json").json()["stance"]

    assert ask({"mech": "Choirmaster"}) == "defensive" and ask({}) == "offensive"
    assert ask({"mech": "Choirmaster", "stance": "mobility"}) == "mobility"


def test_adding_a_drone_the_squad_has_raises_its_count_instead_of_a_second_row(client, registered):
    form = {"name": "Embers", "pack": PACK, "mech-count": "0", "drone-count": "1", "drone-0-drone": "picket-gun-drone",
            "drone-0-count": "2", "add-drone": "picket-gun-drone"}
    fields, _ = read_form(client.post("/new/ember/squad/", form).content.decode())
    assert fields["drone-count"] == ["1"] and fields["drone-0-count"] == ["3"]
