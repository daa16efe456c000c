"""The DARK METAL Squad Leader page as form posts, its share page and PDF, the API, and bad input."""
import itertools
import re
import subprocess
from urllib.parse import urlencode

import pytest
from django.http import QueryDict

from builder import store
from builder.kinds import PAGES
from builder.models import Build
from catalogue.loader import latest_pack
from tests.helpers.html_forms import read_form
from tests.helpers.refs import pack_ref

pytestmark = pytest.mark.django_db
NEW = "/new/darkmetal/leader/"
PACK = pack_ref("darkmetal", "leader")


def form(**overrides):
    data = {"pack": PACK, "name": "Moroc", "campaign": "0", "players": "1",
            **{f"trait-{t}": "1" for t in ("ath", "pre", "ins", "awa", "kno", "com")}}
    data.update(overrides)
    return data


def test_leader_page_shows_traits_skills_body_and_bars(client, packs):
    html = client.get(NEW).content.decode()
    for text in ("Base Traits", "Knowledge Skills", "AP3 shoulder", "Backpack", "Trait Rep", "MES, weapons, items, allies",
                 "Ally Reputation Points", "Hire an ally"):
        assert text in html, text


def test_over_budget_traits_show_the_issue_and_a_full_bar(client, packs):
    html = client.post(NEW, form(**{"trait-ath": "10", "trait-pre": "6"})).content.decode()
    assert "DM-R04" in html and "3700" in html
    assert 'class="meter over" data-meter="trait_rep"' in html


def test_buying_mes_reprices_in_order(client, packs):
    first = client.post(NEW, form(**{"add-mod": "cat-reflexes"})).context["document"]
    data = form(**{"mod-count": "1", "mod-0-item": "cat-reflexes", "mod-0-paid": "100", "mod-0-campaign": "0",
                   "add-mod": "eye-replacement"})
    second = client.post(NEW, data).context["document"]
    assert first["modifications"][0]["paid"] == 100
    assert [m["paid"] for m in second["modifications"]] == [100, 200]  # Cyber × (Splice 1 + 1)
    removed = client.post(NEW, {**data, "add-mod": "", "action": "remove:mod:0", "mod-count": "1"}).context["document"]
    assert removed["modifications"] == []


def test_attach_weapons_are_placed_shoulders_first(client, packs):
    doc = client.post(NEW, form(armor="battle-armor", **{"add-attach": "mbmr"})).context["document"]
    assert doc["attach"][0]["at"] == [3, 4, 1]
    data = form(armor="battle-armor", **{"attach-count": "1", "attach-0-item": "mbmr", "attach-0-at": "3,4,1",
                                         "add-attach": "armor-melee"})
    doc = client.post(NEW, data).context["document"]
    assert doc["attach"][1]["at"] == [2]  # melee on an arm (DM-R45), the free one


def test_hiring_and_dismissing_allies(client, packs):
    doc = client.post(NEW, form(**{"trait-com": "4", "add-ally": "rookie-medic"})).context["document"]
    assert doc["allies"][0]["template"] == "rookie-medic"
    data = form(**{"trait-com": "4", "ally-count": "1", "ally-0-name": "Doc", "ally-0-template": "rookie-medic",
                   "ally-0-paid": "rep", "ally-0-deployed": "on", "ally-0-weapon-1": "heavy-rifle"})
    html = client.post(NEW, data).content.decode()
    assert "DM-R59" in html
    gone = client.post(NEW, {**data, "action": "remove:ally:0"}).context["document"]
    assert gone["allies"] == []


def test_save_share_and_pdf_with_ally_sheets(client, packs, tmp_path):
    data = form(**{"trait-com": "4", "ally-count": "2", "ally-0-name": "Ash", "ally-0-template": "standard-infantry",
                   "ally-0-paid": "rep", "ally-0-deployed": "on", "ally-1-name": "Doc", "ally-1-template": "rookie-medic",
                   "ally-1-paid": "arp", "ally-1-deployed": "on", "ally-0-weapon-1": "heavy-rifle", "action": "save"})
    response = client.post(NEW, data)
    build = Build.objects.get()
    assert response["Location"] == f"/b/{build.edit_token}/" and build.ruleset == "darkmetal" and build.legal
    share = client.get(f"/s/{build.share_id}/").content.decode()
    assert "Moroc" in share and "Ash" in share and build.edit_token not in share
    path = tmp_path / "leader.pdf"
    path.write_bytes(client.get(f"/s/{build.share_id}.pdf").content)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    assert "DARK METAL Squad Leader" in pages[0] and "TRAITS" in pages[0]
    # The allies share one sheet (a card each), with their gear by name and its profile, never by key.
    allies = [p for p in pages if "Allies of Moroc" in p]
    assert len(allies) == 1 and "ASH" in allies[0] and "DOC" in allies[0]  # card headings print in capitals
    rifle = Build.objects.get().document["allies"][0]["weapons"]
    assert rifle == ["heavy-rifle"] and "heavy-rifle" not in text and "heavy-rifle" not in share
    assert "Heavy Rifle" in allies[0] and "Pierce" in allies[0]
    assert build.edit_token not in text


def test_leader_api_create_and_stale_update(client, packs):
    document = {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": PACK, "name": "API",
                "traits": {"ath": 6}}
    created = client.post("/api/builds", document, content_type="application/json").json()
    assert created["report"]["legal"]
    first = client.put(f"/api/builds/{created['edit_token']}", {"version": 1, "build": {**document, "name": "B"}},
                       content_type="application/json")
    stale = client.put(f"/api/builds/{created['edit_token']}", {"version": 1, "build": {**document, "name": "C"}},
                       content_type="application/json")
    assert first.status_code == 200 and stale.status_code == 409


def test_leader_bad_input_is_422_and_nothing_saved(client, packs):
    for bad, field in (({"trait-ath": "99"}, "trait-ath"), ({"trait-ath": "lots"}, "trait-ath"),
                       ({"trait-ath": "²"}, "trait-ath"), ({"armor": "mithril-plate"}, "armor"),
                       ({"add-mod": "no-such-splice"}, "add-mod"), ({"ally-count": "99"}, "ally-count"),
                       ({"attach-count": "1", "attach-0-item": "mbmr", "attach-0-at": "x"}, "attach"),
                       ({"name": "<script>x</script>"}, "name"), ({"hand-1": "battle-armor"}, "hands[0].item"),
                       ({"add-attach": "heavy-pistol"}, "add-attach")):
        response = client.post(NEW, form(**{"action": "save", **bad}))
        assert response.status_code == 422 and f"<code>{field}</code>" in response.content.decode(), bad
    document = {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": PACK,
                "traits": {"ath": 6}, "armor": [{"item": "combat-suit"}]}
    response = client.post("/api/builds", document, content_type="application/json")
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "armor"
    assert Build.objects.count() == 0


def test_darkmetal_catalogue_page_and_items_api(client, packs):
    html = client.get("/catalogue/darkmetal/?category=armor&sort=-cost").content.decode()
    assert "Battle Armor" in html and html.index("Battle Armor") < html.index("Combat Suit")
    items = client.get("/api/rulesets/darkmetal/items", {"category": "ally_template"}).json()["items"]
    assert len(items) == 18


def test_duplicate_and_copy_work_for_leaders(client, packs):
    build = store.create(store.check({"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader",
                                      "pack": PACK, "name": "Original"}))
    client.post(f"/b/{build.edit_token}/duplicate")
    client.__class__().post(f"/s/{build.share_id}/copy")
    assert Build.objects.filter(name="Original (copy)").count() == 2


def test_dm_preview_panel_and_api(client, packs):
    build = store.create(store.check({"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader",
                                      "pack": PACK, "name": "Gunner", "traits": {"pre": 6, "ath": 4},
                                      "hands": [{"item": "heavy-pistol"}, {"item": "melee-weapon"}]}))
    html = client.post("/preview/darkmetal/leader/", {"attacker_build": build.share_id, "preview-range": "6",
                                                       "preview-defence_dice": "1"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Heavy Pistol" in html and "<svg" in html and "3d10" in html
    data = client.post("/api/preview", {"attacker": build.document, "situation": {"range": 6, "defence_dice": 1}},
                       content_type="application/json").json()
    pistol = next(a for a in data["attacks"] if a["name"] == "Heavy Pistol")
    # Heavy Pistol beyond 4": +2 toHit, T 8; 3d10 against 1 defence d6, counted face by face.
    faces = itertools.product(range(1, 11), range(1, 11), range(1, 11), range(1, 7))
    hits = sum(1 for *d10, d6 in faces if sum(f >= 8 for f in d10) > d10.count(1) + (d6 == 1))
    assert pistol["target_number"] == 8 and pistol["p_hit"] == pytest.approx(hits / 6000)
    melee = next(a for a in data["attacks"] if a["name"] == "Melee Weapon")
    assert melee["dice"] == 2 and "Close Combat" in melee["notes"][0]


def test_dm_preview_bad_input(client, packs):
    build = store.create(store.check({"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader",
                                      "pack": PACK, "name": "Gunner"}))
    response = client.post("/preview/darkmetal/leader/", {"attacker_build": build.share_id, "preview-range": "far"})
    assert response.status_code == 422 and "<code>range</code>" in response.content.decode()
    response = client.post("/preview/darkmetal/leader/", {"attacker_build": "nope"})
    assert response.status_code == 422 and "<code>attacker_build</code>" in response.content.decode()
    bad = {"attacker": build.document, "situation": {"size": "gigantic"}}
    response = client.post("/api/preview", bad, content_type="application/json")
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "situation.size"


def test_an_ally_is_upgraded_from_the_form_and_its_path_shown(client, packs):
    data = form(**{"trait-com": "4", "campaign": "1", "ally-count": "1", "ally-0-name": "Ash",
                   "ally-0-template": "recruit", "ally-0-paid": "rep", "ally-0-deployed": "on", "ally-0-hired": "0",
                   "ally-0-upgrade": "standard-infantry", "ally-0-upgrade-paid": "arp"})
    response = client.post(NEW, data)
    ash = response.context["document"]["allies"][0]
    assert ash["template"] == "standard-infantry" and ash["hired_as"] == "recruit"
    assert ash["upgrades"] == [{"template": "standard-infantry", "campaign": 1, "paid_with": "arp"}]
    html = response.content.decode()
    assert "Recruit" in html and "10 ARP" in html and 'name="ally-0-up-0-template" value="standard-infantry"' in html
    data = form(**{"trait-com": "4", "ally-count": "1", "ally-0-name": "Ash", "ally-0-template": "recruit",
                   "ally-0-paid": "rep", "ally-0-deployed": "on", "action": "add-arp:0"})
    assert client.post(NEW, data).context["document"]["allies"][0]["arp"] == [{"campaign": 0, "scenarios": 0, "training": 0}]
    bad = client.post(NEW, {**data, "action": "save", "ally-0-upgrade": "battle-armor"})
    assert bad.status_code == 422 and "<code>ally-0-upgrade</code>" in bad.content.decode()


def test_injuries_are_recorded_only_with_the_optional_rule(client, packs):
    data = form(**{"trait-awa": "6", "injury_rule": "on", "add-injury": "eye-damage"})
    response = client.post(NEW, data)
    assert response.context["document"]["injuries"] == [{"item": "eye-damage", "campaign": 0}]
    assert "Eye Damage" in response.content.decode() and "+10%" in response.content.decode()
    kept = {**data, "add-injury": "", "injury-count": "1", "injury-0-item": "eye-damage", "injury-0-campaign": "0"}
    assert client.post(NEW, kept).context["document"]["injuries"]
    dropped = {key: value for key, value in kept.items() if key != "injury_rule"}
    assert client.post(NEW, dropped).context["document"]["injuries"] == []
    client.post(NEW, {**kept, "action": "save"})
    share = client.get(f"/s/{Build.objects.get().share_id}/").content.decode()
    assert "Eye Damage (campaign 0)" in share and "+10% Rep each scenario" in share


def test_the_preview_offers_each_firing_mode(client, packs):
    build = store.create(store.check({"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader",
                                      "pack": PACK, "name": "Gunner", "traits": {"pre": 6},
                                      "hands": [{"item": "model-739-mil-spec-m-rifle"}]}))
    fields = {"attacker_build": build.share_id, "preview-range": "6"}
    html = client.post("/preview/darkmetal/leader/", fields, HTTP_HX_REQUEST="true").content.decode()
    assert 'name="preview-mode-model-739-mil-spec-m-rifle" form="preview-form"' in html
    assert "1 ammo" in html and "2 ammo" in html
    chosen = client.post("/preview/darkmetal/leader/", {**fields, "preview-mode-model-739-mil-spec-m-rifle": "2 ammo"},
                         HTTP_HX_REQUEST="true")
    assert chosen.context["result"]["attacks"][0]["mode"] == "2 ammo"
    wrong = client.post("/api/preview", {"attacker": build.document, "situation": {"modes": {"beam-rifle": "x"},
                                                                                    "range": 6}},
                        content_type="application/json")
    assert wrong.status_code == 200  # a weapon the Leader does not carry picks nothing
    wrong = client.post("/api/preview", {"attacker": build.document,
                                         "situation": {"modes": {"model-739-mil-spec-m-rifle": "x"}}},
                        content_type="application/json")
    assert wrong.status_code == 422 and wrong.json()["problems"][0]["path"] == "situation.modes.model-739-mil-spec-m-rifle"


def test_a_saved_leaders_ally_upgrades_cannot_be_rewritten(client, packs):
    ash = {"name": "Ash", "template": "standard-infantry", "hired_as": "recruit", "paid_with": "rep",
           "upgrades": [{"template": "standard-infantry", "campaign": 0, "paid_with": "rep"}]}
    document = {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": PACK, "name": "Lead",
                "traits": {"com": 4}, "allies": [ash]}
    created = client.post("/api/builds", document, content_type="application/json").json()
    rewritten = {**document, "allies": [{**ash, "hired_as": "standard-infantry", "upgrades": []}]}
    response = client.put(f"/api/builds/{created['edit_token']}", {"version": 1, "build": rewritten},
                          content_type="application/json")
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "allies[0]"
    grown = {**document, "allies": [{**ash, "template": "veteran-infantry",
                                     "upgrades": ash["upgrades"] + [{"template": "veteran-infantry", "paid_with": "rep"}]}]}
    assert client.put(f"/api/builds/{created['edit_token']}", {"version": 1, "build": grown},
                      content_type="application/json").status_code == 200


def test_the_sheet_lists_each_firing_mode(client, packs):
    build = store.create(store.check({"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader",
                                      "pack": PACK, "name": "Gunner", "hands": [{"item": "model-739-mil-spec-m-rifle"}]}))
    share = client.get(f"/s/{build.share_id}/").content.decode()
    assert "1 ammo: 1 damage" in share and "2 ammo: 2 damage at +2 (2 ammo)" in share


def test_campaigns_are_recorded_from_the_form(client, packs):
    data = form(**{"campaign": "2", "action": "add-log"})
    assert client.post(NEW, data).context["document"]["campaigns"] == [{"campaign": 2, "scenarios": 0, "won": False}]
    rows = form(**{"campaign": "2", "log-count": "1", "log-0-campaign": "1", "log-0-scenarios": "3", "log-0-won": "on"})
    assert client.post(NEW, rows).context["document"]["campaigns"] == [{"campaign": 1, "scenarios": 3, "won": True}]
    gone = client.post(NEW, {**rows, "action": "remove:log:0"}).context["document"]
    assert gone["campaigns"] == []
    future = client.post(NEW, {**rows, "log-0-campaign": "5", "action": "save"})
    assert future.status_code == 422 and "<code>campaigns[0].campaign</code>" in future.content.decode()


def test_the_backpack_picker_lists_items_on_a_new_leader_before_any_edit(client, packs):
    """The new-build page's own `pack_options` (this browser's packs) once hid the backpack's until the first edit."""
    html = client.get("/new/darkmetal/leader/").content.decode()
    picker = html[html.index('name="add-pack"'):]
    picker = picker[:picker.index("</select>")]
    assert picker.count("<option") > 10


def test_an_action_that_names_no_row_is_422_naming_the_field(client, packs):
    for action in ("remove:pack:²", "remove:pack:0", "remove:mod:-1", "remove:ally:3", "add-arp:0", "add-arp:²",
                   "remove:nothing:0"):
        response = client.post(NEW, form(action=action))
        assert response.status_code == 422 and "<code>action</code>" in response.content.decode(), action


def test_each_picker_makes_the_build_the_form_makes_of_that_pick(client, packs):
    """A place's `choose` is the form's reading of its field: the same Attach Points, MES prices, hands and allies."""
    leader, catalogue = PAGES["darkmetal", "leader"], store.catalogue_by_ref(PACK)

    def posted(values):
        return store.check(leader.read_post(QueryDict(urlencode(values, doseq=True)), PACK, catalogue)).document

    pages = [NEW] + [f"{NEW}?example={i}" for i, _ in enumerate(latest_pack("darkmetal", "leader").examples)]
    for page in pages:
        values, _ = read_form(client.get(page).content.decode())
        shown = posted(values)
        for place in leader.kind.places_of(shown, catalogue):
            offered = [item.key for item in place.offered(catalogue) if item.key != place.fitted]
            for key in (offered[0], offered[-1]):
                chosen = leader.kind.parse(place.choose(shown, key)).model_dump(mode="json")
                assert chosen == posted({**values, place.field: [key]}), (page, place.field, key)


def test_pickers_offer_every_choice_and_name_the_rule_one_would_break(client, packs):
    html = client.get(f"{NEW}?example=2").content.decode()  # Brakk, with Patch the Rookie Medic as ally 1
    values, _ = read_form(html)
    # over 400 choices: the page is drawn at once and asks for its pickers' marks as it loads
    marked = client.post(NEW, {**values, "view": ["pickers"]}, HTTP_HX_REQUEST="true").content.decode()

    def picker(field):
        return re.search(rf'<select name="{field}".*?</select>', marked, re.S).group(0)

    assert re.search(r'value="attack-grenade" data-reason="DM-R49: ', picker("hand-1"))  # a grenade goes in the backpack
    assert re.search(r'value="heavy-rifle" data-reason="DM-R59: ', picker("ally-1-weapon-2"))
    assert 'value="trauma-kit" selected' in picker("ally-1-item-1")
    assert 'id="chooser-add-mod"' in html and "Splice 1 · listed 100 Rep" in picker("add-mod")


def test_a_modification_row_naming_no_splice_or_cyber_is_refused_not_a_crash(client, packs):
    """A tampered hidden field (mod-0-item naming an armour) is a 422 naming the modifications, never a 500."""
    from catalogue.loader import catalogue_by_ref, latest_pack

    pack = latest_pack("darkmetal", "leader")
    armour = catalogue_by_ref(pack.ref).of("armor")[0].key
    form = {"pack": pack.ref, "name": "Tampered", "mod-count": "1", "mod-0-item": armour, "mod-0-campaign": "0",
            "mod-0-paid": "0"}
    answer = client.post("/new/darkmetal/leader/", form)
    assert answer.status_code == 422 and "modifications" in answer.content.decode()
