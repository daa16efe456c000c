"""E-R25: no public surface of a Mech, nor of a squad naming it, carries anything of a secret Part: not its key,
name or text, and no number of it. Two Mechs alike but for their secret Parts (each swapped for another secret card
of its slot, at other points) must look the same on every surface: the page, its JSON, the API, the PDF's text,
its versions and their comparison, "what changed", exports and previews; so must squads naming them."""
import json
import re

import pytest

from builder import store
from catalogue.loader import catalogue_by_ref
from tests.ember.documents import PARTS, mech
from tests.helpers.pdf import pdf_text

pytestmark = pytest.mark.django_db
PACK = "ember-starter@1.1.0"
OLDER = "ember-starter@1.0.0"
# Each slot that allows secrecy, with two of its secret cards (E-R25): one Mech keeps the first, its twin the second.
SECRETS = {"torso": ("hollow-choir-torso", "veil-recon-torso"), "right_arm": ("needle-coil-arm", "stormcoil-arm")}


def saved_pair(twin: int):
    """A Mech keeping two Parts secret (saved twice, for versions), and a squad naming it."""
    parts = {**PARTS, **{slot: cards[twin] for slot, cards in SECRETS.items()}}
    document = {**mech(name="Shade", pilot="mara-keln", parts=parts, secret=sorted(SECRETS)), "pack": PACK}
    shade = store.create(store.check(document))
    shade = store.update(shade, store.check({**document, "notes": "Second save."}), 1)
    squad = {"format": "hardpoint.build/1", "ruleset": "ember", "kind": "squad", "pack": PACK, "name": "Hush",
             "mechs": [{"build": shade.share_id}], "drones": [{"drone": "bastion-walker", "count": 1}]}
    embers = store.create(store.check(squad))
    embers = store.update(embers, store.check({**squad, "notes": "Second save."}), 1)
    return shade, embers


@pytest.fixture
def pair(packs):
    return saved_pair(0), saved_pair(1)


def surfaces(client, mech_build, squad_build, tmp_path) -> dict[str, str]:
    """Every public surface of the Mech and of the squad, as text."""
    got: dict[str, str] = {}
    for build in (mech_build, squad_build):
        sid, kind = build.share_id, build.kind
        for path in (f"/s/{sid}/", f"/s/{sid}.json", f"/api/builds/{sid}", f"/s/{sid}/v/1/", f"/s/{sid}/v/2/",
                     f"/s/{sid}/compare/?a=1&b=2", f"/s/{sid}/changes/?pack={OLDER}",
                     f"/api/builds/{sid}/changes?pack={OLDER}", f"/s/{sid}/export/compcon", f"/s/{sid}.txt",
                     f"/s/{sid}.md"):
            response = client.get(path)
            assert response.status_code < 500, path
            got[f"{kind} {path.replace(sid, 'ID')}"] = response.content.decode()
        pdf = client.get(f"/s/{sid}.pdf")
        assert pdf["Content-Type"] == "application/pdf"
        got[f"{kind} pdf"] = pdf_text(pdf.content, tmp_path, layout=False)
    sid = mech_build.share_id
    for name, response in (
            ("preview attacking", client.post("/preview/ember/mech/", {"attacker_build": sid, "preview-armor": "4"},
                                              HTTP_HX_REQUEST="true")),
            ("api preview attacking", client.post("/api/preview", {"attacker": {"build": sid},
                                                                   "target": {"armor": 4}},
                                                  content_type="application/json")),
            ("api preview defending", client.post("/api/preview", {"attacker": {**mech(pilot="han-ye"), "pack": PACK},
                                                                   "target": {"build": sid}},
                                                  content_type="application/json"))):
        assert response.status_code == 200, (name, response.content[:300])
        got[name] = response.content.decode()
    return got


def normalised(text: str, builds) -> str:
    """Leave out what two saves never share: ids, tokens, times; and spaces, as a PDF breaks a long link anywhere."""
    text = re.sub(r"\s+", "", text)
    for build in builds:
        text = text.replace(build.share_id, "ID").replace(build.edit_token, "TOKEN")
    text = re.sub(r"/s/[\w\u00ad\u2010-]+/", "/s/ID/", text)  # a link a PDF hyphenated at a line's end
    text = re.sub(r"\d{4}-\d\d-\d\d[T ]?\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?", "TIME", text)
    text = re.sub(r"\d{1,2}\w+\d{4},?\d{1,2}:\d\d", "TIME", text)
    text = re.sub(r'(csrfmiddlewaretoken"value="|X-CSRFToken":")[^"]+', r"\1CSRF", text)
    return re.sub(r'"request_id":"[^"]*"|nonce="[^"]*"', "", text)


def test_e_r25_no_public_surface_names_a_secret_part(client, pair, tmp_path):
    (shade, embers), _ = pair
    items = catalogue_by_ref(PACK).items
    hidden = [value for slot, cards in SECRETS.items() for value in
              (cards[0], items[cards[0]].name, items[cards[0]].description[:40],
               *(a.name for a in items[cards[0]].actions))]
    for surface, text in surfaces(client, shade, embers, tmp_path).items():
        for value in hidden:
            assert value.lower() not in text.lower(), (surface, value)
        assert shade.reveal_token not in text, surface


def test_e_r25_a_mech_and_its_twin_with_other_secret_parts_look_the_same_everywhere(client, pair, tmp_path):
    (shade, embers), (twin, twin_embers) = pair
    builds = (shade, embers, twin, twin_embers)
    ours = surfaces(client, shade, embers, tmp_path)
    theirs = surfaces(client, twin, twin_embers, tmp_path)
    items = catalogue_by_ref(PACK).items
    assert all(items[a].cost != items[b].cost for a, b in SECRETS.values())  # the points differ, and never show
    # Moved to 1.0.0, the squad's verdict is one the secret Parts decide (the Hollow Choir is not in 1.0.0, the
    # Veil is); the first test holds that surface to naming nothing.
    verdict_only = {f"squad /s/ID/changes/?pack={OLDER}", f"squad /api/builds/ID/changes?pack={OLDER}"}
    for surface in set(ours) - verdict_only:
        assert normalised(ours[surface], builds) == normalised(theirs[surface], builds), surface


def test_e_r25_the_squad_shows_visible_points_and_its_verdict_reached_with_the_secrets(client, pair):
    (shade, embers), _ = pair
    report = json.loads(client.get(f"/api/builds/{embers.share_id}").content)["report"]
    points = next(m for m in report["meters"] if m["key"] == "points")
    items = catalogue_by_ref(PACK).items
    visible = sum(items[k].cost for s, k in shade.document["parts"].items() if s not in SECRETS)
    assert points["used"] == visible + items["mara-keln"].cost + items["bastion-walker"].cost
    assert points["hidden"] == "2 secret Parts" and points["over"] is False and report["legal"]
    squad = store.check({**embers.document, "house_rules": {"points-limit": points["used"] + 1}})
    assert not squad.report.legal and "Over" in squad.report.errors[0].message  # the secret Parts push it over
    assert str(points["used"] + sum(items[a].cost for a, _ in SECRETS.values())) not in squad.report.errors[0].message
