"""COMP/CON through the site: the import form, `POST /api/import/compcon` and `manage.py import_build compcon` save a
LANCER pilot from a COMP/CON export, list the ids no loaded pack knows, and refuse bad files saving nothing; every
saved pilot exports back. The example pilots round-trip through COMP/CON's shape."""
import io
import json

import pytest
from django.core.management import call_command

from builder import store
from builder.models import Build
from catalogue.rulesets.lancer import compcon, rules

CHOSEN = ("ll", "hase", "triggers", "talents", "licences", "core_bonuses", "gear")


def weapon(key, mod=None):
    return {"id": key, "destroyed": False, "cascading": False, "loaded": True, "note": "",
            "mod": {"id": mod, "destroyed": False} if mod else None, "flavorName": ""}


def exported():
    """A pilot shaped like COMP/CON's export, with the fields Hardpoint does not read left in."""
    return {
        "id": "4b1c7f3e-0000-4000-8000-000000000001", "name": "Dace Varro", "callsign": "HALYARD", "level": 3,
        "player_name": "", "status": "Active", "text_appearance": "", "notes": "", "history": "", "portrait": "",
        "cloud_portrait": "", "quirk": "", "current_hp": 8, "background": "Ace", "resistances": [], "reserves": [],
        "orgs": [], "factions": [], "counter_data": [], "custom_counters": [], "brews": [{"name": "Core"}],
        "mechSkills": [1, 2, 2, 0],
        "skills": [{"id": "sk_assault", "rank": 2}, {"id": "sk_spot", "rank": 2}, {"id": "sk_stay_cool", "rank": 1},
                   {"id": "sk_take_someone_out", "rank": 1}, {"id": "sk_survive", "rank": 1}],
        "talents": [{"id": "t_skirmishers_rhythm", "rank": 2}, {"id": "t_blade_dancer", "rank": 2},
                    {"id": "t_iron_nerve", "rank": 2}],
        "licenses": [{"id": "mf_sabrejay", "rank": 2}, {"id": "mf_wren", "rank": 1}],
        "core_bonuses": ["cb_commons_overbuild"],
        "loadout": {"id": "l1", "name": "Primary", "armor": [{"id": "pa_quilted_flightsuit", "destroyed": False}],
                    "weapons": [{"id": "pw_shock_baton"}, None], "gear": [{"id": "pg_grapple_line"}, None, None],
                    "extendedWeapons": [], "extendedGear": []},
        "mechs": [
            {"id": "m1", "name": "Kingfisher", "frame": "mf_sabrejay", "active": True, "current_hp": 9,
             "current_structure": 4, "current_heat": 0, "active_loadout_index": 0, "statuses": [], "conditions": [],
             "loadouts": [{"id": "lo1", "name": "Primary",
                           "systems": [{"id": "ms_overdrive_coil", "destroyed": False},
                                       {"id": "ms_afterimage_emitter", "uses": 2}],
                           "integratedSystems": [], "integratedMounts": [],
                           "mounts": [{"mount_type": "Main/Aux", "lock": False, "extra": [], "bonus_effects": [],
                                       "slots": [{"size": "Main", "weapon": weapon("mw_needle_rifle", "mm_hairtrigger")},
                                                 {"size": "Auxiliary", "weapon": weapon("mw_falchion_blade")}]},
                                      {"mount_type": "Heavy", "lock": False, "extra": [], "bonus_effects": [],
                                       "slots": [{"size": "Heavy", "weapon": weapon("mw_slugthrower")}]}]}]},
            {"id": "m2", "name": "Thimble", "frame": "mf_commons_drover", "active_loadout_index": 0,
             "loadouts": [{"id": "lo2", "name": "Primary",
                           "systems": [{"id": "ms_briar_cloak"}, {"id": "ms_deflector_shell"}],
                           "mounts": [{"mount_type": "Main", "slots": [{"size": "Main", "weapon": weapon("mw_thornlance")}]},
                                      {"mount_type": "Flex", "slots": [{"size": "Main", "weapon": weapon("mw_gnat_cloud")},
                                                                        {"size": "Auxiliary", "weapon": None}]},
                                      {"mount_type": "Heavy", "slots": [{"size": "Heavy", "weapon": None}]}]}]},
        ],
    }


def mech_choices(document):
    return [(m["name"], m["frame"], [(x["weapons"], x.get("mods", []), x.get("bracing", False)) for x in m["mounts"]],
             m["systems"]) for m in document["mechs"]]


def test_a_realistic_export_imports_every_choice_and_is_the_example_pilot(starter):
    catalogue, docs = starter
    document, unknown = compcon.read(json.dumps(exported()), catalogue, catalogue.pack)
    assert unknown == []
    example = docs["Dace Varro"]
    assert {k: document[k] for k in CHOSEN} == {k: example.get(k, {} if k != "core_bonuses" else []) for k in CHOSEN}
    assert mech_choices(rules.parse(document).model_dump()) == mech_choices(rules.parse(example).model_dump())
    assert rules.validate(document, catalogue).legal


@pytest.mark.parametrize("name", ["Mara Okonjo", "Dace Varro", "Ilse Marrow"])
def test_a_round_trip_keeps_every_id_and_choice(starter, name):
    """Hardpoint → COMP/CON → Hardpoint gives the same document; the Superheavy's braced mount included."""
    catalogue, docs = starter
    original = rules.parse(docs[name]).model_dump(mode="json")
    again, unknown = compcon.read(json.dumps(compcon.write(original, catalogue)), catalogue, catalogue.pack)
    again = rules.parse(again).model_dump(mode="json")
    assert unknown == [] and {k: again[k] for k in CHOSEN} == {k: original[k] for k in CHOSEN}
    assert mech_choices(again) == mech_choices(original)


# --- through the site --------------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_hp_import_the_api_lists_unknown_ids_the_import_is_not_legal_and_the_export_link_gives_it_back(client, packs):
    pilot = exported()
    pilot["core_bonuses"].append("cb_integrated_ammo_feeds")
    response = client.post("/api/import/compcon", pilot, content_type="application/json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["unknown"] == [{"id": "cb_integrated_ammo_feeds", "where": "CORE bonus"}]
    errors = [i for i in body["report"]["issues"] if i["severity"] == "error"]
    assert not body["report"]["legal"] and [i["code"] for i in errors] == ["HP-IMPORT"]
    assert "cb_integrated_ammo_feeds (CORE bonus) was left out" in errors[0]["message"]
    assert set(body) >= {"edit_url", "share_url", "pdf_url", "share_id", "edit_token", "version"}
    again = client.get(f"/s/{body['share_id']}/export/compcon")
    assert again.status_code == 200 and "attachment" in again["Content-Disposition"]
    assert {(x["id"], x["rank"]) for x in again.json()["talents"]} == {(t["id"], t["rank"]) for t in pilot["talents"]}


@pytest.mark.django_db
def test_the_api_refuses_bad_files_and_saves_nothing(client, packs):
    assert client.post("/api/import/compcon", "{nope", content_type="application/json").status_code == 400
    bad = client.post("/api/import/compcon", {"mechSkills": "high"}, content_type="application/json")
    assert bad.status_code == 422 and bad.json()["problems"][0]["path"] == "mechSkills"
    assert client.post("/api/import/rolodex", {}, content_type="application/json").status_code == 422
    unknown_pack = client.post("/api/import/compcon?pack=nope@1.0.0", exported(), content_type="application/json")
    assert unknown_pack.status_code == 422 and unknown_pack.json()["problems"][0]["path"] == "pack"
    assert Build.objects.count() == 0


@pytest.mark.django_db
def test_the_import_form_reads_comp_con_and_says_what_it_left_out(client, packs):
    pilot = exported()
    pilot["skills"].append({"id": "sk_custom_knitting", "rank": 1, "custom": True})
    response = client.post("/import/", {"format": "compcon", "json": json.dumps(pilot)}, follow=True)
    html = response.content.decode()
    assert response.status_code == 200 and "Imported “Dace Varro”" in html
    assert "sk_custom_knitting (skill trigger (a custom skill" in html and "Upload the pack that holds them" in html
    assert Build.objects.get().document["mechs"][0]["name"] == "Kingfisher"


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_build", "compcon", *args, stdout=out, stderr=err)
    except SystemExit as exit:
        return exit.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_hp_import_a_file_whose_every_id_the_pack_knows_imports_legal_and_dismissing_the_notes_clears_them(client,
                                                                                                           packs):
    response = client.post("/api/import/compcon", exported(), content_type="application/json").json()
    assert response["report"]["legal"] and response["unknown"] == []
    pilot = exported()
    pilot["talents"].append({"id": "t_unheard_of", "rank": 1})
    body = client.post("/api/import/compcon", pilot, content_type="application/json").json()
    build = Build.objects.get(share_id=body["share_id"])
    assert build.verdict == "illegal" and build.document["removed"][0]["by"] == "import"
    without = {k: v for k, v in build.document.items() if k != "removed"}
    assert store.check(without).report.legal


@pytest.mark.django_db
def test_import_compcon_exits_0_1_or_2(packs, tmp_path):
    legal = tmp_path / "dace.json"
    legal.write_text(json.dumps(exported()))
    code, out, _ = run(str(legal))
    assert code == 0 and json.loads(out)["legal"] and json.loads(out)["share_url"].startswith("/s/")
    over = exported()
    over["level"] = 1  # too many ranks for LL1
    over["talents"].append({"id": "t_unheard_of", "rank": 1})
    issues = tmp_path / "over.json"
    issues.write_text(json.dumps(over))
    code, out, _ = run(str(issues))
    assert code == 1 and json.loads(out)["unknown"] == [{"id": "t_unheard_of", "where": "talent"}]
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    code, _, err = run(str(broken))
    assert code == 2 and "broken.json: not imported: (file): not JSON" in err
    assert run(str(tmp_path / "missing.json"))[0] == 2
    assert Build.objects.count() == 2
