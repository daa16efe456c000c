"""MEGA MERCS pages: the unit builder's hard-points, the company's credit bar, the unit card and company PDFs, and
the preview API, driven by the starter pack's own examples."""
import json
import re

import pytest

from builder import store
from catalogue.loader import catalogue_by_ref, latest_pack
from tests.helpers.html_forms import read_form
from builder.kinds.megamercs.unit import GRID_LABELS
from catalogue.rulesets.megamercs.schema import LOCATION_LABELS, MOVEMENT_TYPES
from tests.helpers.pdf import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def pack(packs):
    found = latest_pack("megamercs")
    return found, catalogue_by_ref(found.ref)


def examples(pack, kind):
    return [e for e in pack[0].examples if e["kind"] == kind]


def offered(html: str, hardpoint: str) -> set[str]:
    """The items a hard-point's picker offers as sharing a type symbol (the first group)."""
    select = re.search(rf'<select name="add-{hardpoint}".*?</optgroup>', html, re.S).group(0)
    return set(re.findall(r'<option value="([^"]+)"', select))


def marked(html: str, hardpoint: str) -> dict[str, str]:
    """Every item a hard-point's picker offers, with the rule it would break ("" when it fits)."""
    select = re.search(rf'<select name="add-{hardpoint}".*?</select>', html, re.S).group(0)
    return {key: (re.findall(r'data-reason="(MM-R\d+)', attributes) or [""])[0]
            for key, attributes in re.findall(r'<option value="([^"]+)"([^>]*)>', select)}


def test_each_hardpoint_offers_the_items_sharing_its_types_first_and_marks_the_rest(client, pack):
    ref, catalogue = pack[0].ref, pack[1]
    cards = catalogue.of("weapon") + catalogue.of("equipment")
    for chassis in catalogue.of("chassis"):
        html = client.post("/new/megamercs/unit/", {"pack": ref, "name": "T", "chassis": chassis.key}).content.decode()
        for hp in chassis.hardpoints:
            assert all(set(catalogue.items[k].types) & set(hp.types) for k in offered(html, hp.key)), hp.key
            reasons = marked(html, hp.key)
            assert set(reasons) == {i.key for i in cards}
            for item in cards:
                if item.specialist_for and chassis.key not in item.specialist_for:
                    assert reasons[item.key] == "MM-R06", (chassis.key, hp.key, item.key)
                elif not set(item.types) & set(hp.types):
                    assert reasons[item.key] == "MM-R02", (chassis.key, hp.key, item.key)
                elif item.size > hp.size:
                    assert reasons[item.key] == "MM-R04", (chassis.key, hp.key, item.key)


def test_adding_from_a_hardpoint_picker_mounts_there(client, pack):
    ref, catalogue = pack[0].ref, pack[1]
    chassis = catalogue.items[examples(pack, "unit")[0]["chassis"]]
    hp = next(h for h in chassis.hardpoints if offered(
        client.post("/new/megamercs/unit/", {"pack": ref, "chassis": chassis.key}).content.decode(), h.key))
    html = client.post("/new/megamercs/unit/", {"pack": ref, "chassis": chassis.key}).content.decode()
    item = sorted(offered(html, hp.key))[0]
    form, _ = read_form(client.post("/new/megamercs/unit/", {"pack": ref, "chassis": chassis.key,
                                                              f"add-{hp.key}": item}).content.decode())
    assert form["mount-0-item"] == [item] and form["mount-0-hardpoint"] == [hp.key]


def test_a_mismatched_item_is_reported_beside_its_mount(client, pack):
    ref, catalogue = pack[0].ref, pack[1]
    chassis = catalogue.items[examples(pack, "unit")[0]["chassis"]]
    hp = chassis.hardpoints[0]
    item = next(i for i in catalogue.of("weapon") + catalogue.of("equipment")
                if not set(i.types) & set(hp.types) and not i.specialist_for)
    response = client.post("/new/megamercs/unit/", {"pack": ref, "chassis": chassis.key, "mount-count": "1",
                                                    "mount-0-item": item.key, "mount-0-hardpoint": hp.key})
    html = response.content.decode()
    mount = html[html.index('id="mount-0"'):]
    assert "MM-R02" in mount[:mount.index("</li>")]


def test_every_example_unit_is_legal_and_its_card_prints(client, pack, tmp_path):
    catalogue = pack[1]
    for example in examples(pack, "unit"):
        checked = store.check(example)
        assert checked.report.legal, (example["name"], [i.as_dict() for i in checked.report.errors])

    def limited(key):
        return getattr(catalogue.items[key], "limited_ammo", None)  # equipment has no Limited Ammo

    units = examples(pack, "unit")
    mecha = next(e for e in units if catalogue.items[e["chassis"]].unit_type == "mecha"
                 and any(m.get("ammo") for m in e["mounts"]) and any(limited(m["item"]) for m in e["mounts"]))
    tank = next(e for e in units if catalogue.items[e["chassis"]].unit_type == "tank")
    for example in (mecha, tank):
        build = store.create(store.check(example))
        text = " ".join(pdf_text(client.get(f"/s/{build.share_id}.pdf").content, tmp_path).split())
        chassis = catalogue.items[build.document["chassis"]]
        attributes = store.check(example).report.stats["attributes"].value
        special = ("F Focus (start of turn): Fire Control, Evasion, Defence or Melee" if chassis.unit_type == "mecha"
                   else "C Commander: Look Around (+4 Vision), Hands On")
        for expected in (build.name, chassis.name, "Action pool", special, "HARD-POINTS", "INTERNALS", "WEAPONS",
                         "DAMAGE REDUCTION", "Credits", *[h.name for h in chassis.hardpoints],
                         "Movement type", MOVEMENT_TYPES[chassis.movement_type][0], "Tick a hex as it is destroyed",
                         *[f"{LOCATION_LABELS[g.location]} {GRID_LABELS[g.type]} · {g.hexes} hexes"
                           for g in chassis.grids]):
            assert expected in text, expected
        if attributes != "none":
            assert f"Attributes {attributes}" in text
        for mount in build.document["mounts"]:
            item = catalogue.items[mount["item"]]
            assert item.name in text
            if mount.get("ammo"):
                assert f"{item.name} ({mount['ammo']})" in text and f"ammunition: {mount['ammo']}" in text
            if limited(item.key):
                assert f"{item.name} size {item.size}" in text and f"Limited Ammo {'☐' * item.limited_ammo}" in text
        # MM-C22: the d10 hit table that picks a mecha's grid, on a mecha's card only
        assert ("Hit location d10 for internal damage" in text) == (chassis.unit_type == "mecha")
        if chassis.unit_type == "mecha":
            assert "d10 1 2 3–4 5–6 7–10 Front or rear edge R. Arm R. Arm L. Arm Legs Torso" in text


def company_form(company) -> dict[str, str]:
    """The POST the company builder's form sends for a company document."""
    fields = {"pack": company["pack"], "name": company["name"], "unit-count": str(len(company["units"]))}
    for i, unit in enumerate(company["units"]):
        fields[f"unit-{i}"] = f"unit:{json.dumps(unit['unit'])}" if unit.get("unit") else f"build:{unit['build']}"
    drones = company.get("drones", [])
    fields["drone-count"] = str(len(drones))
    for i, drone in enumerate(drones):
        fields.update({f"drone-{i}-drone": drone["drone"], f"drone-{i}-controller": str(drone["controller"])})
        if drone.get("docked"):
            fields[f"drone-{i}-docked"] = "on"
    for name in ("infantry", "aircraft"):
        rows = company.get(name, [])
        fields[f"{name}-count"] = str(len(rows))
        for i, row in enumerate(rows):
            fields.update({f"{name}-{i}-item": row["item"], f"{name}-{i}-count": str(row.get("count", 1))})
    return fields


def test_the_company_shows_the_credit_bar_and_refuses_over_budget(client, pack):
    company = examples(pack, "company")[0]
    credits = store.check(company).report.stats["credits"].value
    fields = {**company_form(company), "credit_budget": str(credits - 1)}
    html = client.post("/new/megamercs/company/", fields).content.decode()
    assert 'data-code="MM-R20"' in html and f"{credits} / {credits - 1}" in html
    fields["credit_budget"] = str(credits)
    assert 'data-code="MM-R20"' not in client.post("/new/megamercs/company/", fields).content.decode()


def test_a_written_in_starter_unit_is_added_by_name_or_as_a_search_result(client, pack):
    first = examples(pack, "unit")[0]
    for add in ({"add-unit": first["name"]}, {"roster-pick": f"add-unit example:{pack_index(pack, first)}"}):
        html = client.post("/new/megamercs/company/", {"pack": pack[0].ref, **add, "action": "add"}).content.decode()
        form, _ = read_form(html)
        assert json.loads(form["unit-0"][0][len("unit:"):])["chassis"] == first["chassis"], add


def pack_index(pack, example) -> int:
    """The example's place among the pack's examples of its kind (as the roster box numbers them)."""
    return examples(pack, example["kind"]).index(example)


def test_the_company_pdf_prints_the_roster_and_a_card_per_unit(client, pack, tmp_path):
    company = examples(pack, "company")[0]
    build = store.create(store.check(company))
    text = pdf_text(client.get(f"/s/{build.share_id}.pdf").content, tmp_path)
    assert "ROSTER" in text and text.count("Action pool") == len(company["units"])
    for unit in company["units"]:
        assert unit["unit"]["name"] in text


def test_the_preview_api_gives_each_profile_its_odds(client, pack):
    example = next(e for e in examples(pack, "unit") if e["mounts"])
    body = {"attacker": example, "target": {"kind": "mecha", "dr": 3}, "situation": {"distance": 1}}
    response = client.post("/api/preview", json.dumps(body), content_type="application/json")
    assert response.status_code == 200
    attacks = response.json()["attacks"]
    assert attacks and all("tn" in a or a["reason"] for a in attacks)
    bad = client.post("/api/preview", json.dumps({**body, "target": {"dr": "lots"}}), content_type="application/json")
    assert bad.status_code == 422 and "target.dr" in bad.content.decode()


def test_mm_r45_mm_r48_the_card_has_the_lock_box_and_marks_co_axial_mounts(client, pack, tmp_path):
    tank = next(e for e in examples(pack, "unit") if any(h.coaxial for h in pack[1].items[e["chassis"]].hardpoints))
    build = store.create(store.check(tank))
    text = " ".join(pdf_text(client.get(f"/s/{build.share_id}.pdf").content, tmp_path, layout=False).split())
    assert "Lock held" in text and "Axial)" in text and "(Pintle)" in text  # a narrow cell may break "Co-Axial"


def test_the_catalogue_prints_cards_as_the_rulebook_does(client, pack):
    weapons = client.get("/catalogue/megamercs/", {"category": "weapon"}).content.decode()
    assert "Bash: 75 / melee / 1 / 10 impact / 2 / 10" in weapons and "{&#x27;name" not in weapons
    chassis = client.get("/catalogue/megamercs/", {"category": "chassis"}).content.decode()
    assert "turret 4 [Main Gun] Turret" in chassis and "Hull track 10, 3 crew, 2 treads" in chassis


def test_the_preview_never_fails_on_hostile_targets_or_situations(client, pack):
    """Every field the preview reads, given anything JSON can hold: a 200 or a 4xx naming it, never a 500."""
    from hypothesis import given
    from hypothesis import strategies as st

    from catalogue.rulesets.megamercs.preview import Situation, Target
    from tests.helpers.fuzzing import FUZZ, values

    attacker = next(e for e in examples(pack, "unit") if e["mounts"])

    @FUZZ
    @given(target=st.fixed_dictionaries({}, optional={k: values for k in Target.model_fields}),
           situation=st.fixed_dictionaries({}, optional={k: values for k in Situation.model_fields}))
    def run(target, situation):
        body = {"attacker": attacker, "target": target, "situation": situation}
        response = client.post("/api/preview", json.dumps(body, allow_nan=True), content_type="application/json")
        assert response.status_code in (200, 400, 422), response.content[:300]

    run()


def test_the_preview_form_sends_the_beacon_and_the_e_war_actions(client, pack):
    """MM-T45 through the page: a Beacon target's E-War 70 counts as 40 against the lock; ECM jams and hacks."""
    jammer = next(e for e in pack[1].of("equipment") if any(a.name == "ecm" for a in e.attributes))
    attacker = next(e for e in examples(pack, "unit") if any(m["item"] == jammer.key for m in e["mounts"]))
    form = {"attacker": json.dumps(attacker), "preview-ewar": "70", "preview-electronic_defence": "on",
            "preview-line_of_sight": "on", "preview-beacon": "on", "preview-lock_attempt": "on",
            "preview-jam_attempt": "on", "preview-hack_attempt": "on", "preview-network_defence": "80"}
    html = client.post("/preview/megamercs/unit/", form, HTTP_HX_REQUEST="true").content.decode()
    assert "lock: <strong>" in html and "(its Beacon: 70 counts as 40)" in html
    assert "jam: <strong>" in html and "hack: <strong>" in html and "Network Defence lends 80" in html


def test_every_place_picks_what_its_form_field_would(client, pack):
    """Each picker's choices are tried on the build as the form would make it: a chassis keeps the mounts whose
    hard-point it has, a drone goes with the last drone's unit."""
    from django.http import QueryDict

    from builder.kinds import PAGES

    catalogue, fields = pack[1], set()
    for i, example in enumerate(pack[0].examples):
        page = PAGES["megamercs", example["kind"]]
        values, _ = read_form(client.get(f"/new/megamercs/{example['kind']}/?example={i}").content.decode())
        post = QueryDict(mutable=True)
        for key, value in values.items():
            post.setlist(key, value)
        document = store.check(page.read_post(post, pack[0].ref, catalogue)).document
        for place in page.kind.places_of(document, catalogue):
            for item in place.offered(catalogue):
                picked = post.copy()
                picked[place.field] = item.key
                by_form = page.kind.parse(page.read_post(picked, pack[0].ref, catalogue)).model_dump(mode="json")
                assert page.kind.parse(place.choose(document, item.key)).model_dump(mode="json") == by_form, \
                    (example["name"], place.field, item.key)
            fields.add(place.field)
    assert {"chassis", "add-r-arm", "add-drone", "add-infantry", "add-aircraft"} <= fields


def test_a_new_drone_joins_the_unit_of_the_last_one(client, pack):
    contract = next(c for c in examples(pack, "company") if c.get("drones"))
    drones = contract["drones"]
    fields = {**company_form(contract), "add-drone": drones[0]["drone"]}
    form, _ = read_form(client.post("/new/megamercs/company/", fields).content.decode())
    added = len(drones)
    assert form[f"drone-{added}-drone"] == [drones[0]["drone"]]
    assert form[f"drone-{added}-controller"] == [str(drones[-1]["controller"])]
