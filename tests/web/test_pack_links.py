"""Items that name other items of their pack (Ruleset.pack_links): an uploaded item naming one its pack does not
hold is left out when the pack loads, named with its field and the missing key, instead of failing in the builder
later; so is every item naming one left out. An upload left with nothing is refused. The repo's own packs hold
every item they name."""
import pytest
import yaml

from catalogue.models import Pack
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import PackError
from catalogue.rulesets.packs import read_pack, read_upload

pytestmark = pytest.mark.django_db


def rulebook(ruleset: str, name: str) -> dict:
    return yaml.safe_load((ACTIVE[ruleset].data_dir / name).read_text())


def own_pack(ruleset: str, items: dict, examples=()) -> bytes:
    """A pack that extends nothing: it must hold whatever its items name."""
    header = {"name": "own-kit", "version": "1.0.0", "ruleset": ruleset, "title": "Own kit"}
    return yaml.safe_dump({**header, "items": items, "examples": list(examples)}).encode()


def test_a_darkmetal_ally_template_upgrading_from_a_recruit_the_pack_lacks_is_refused(client, packs):
    templates = rulebook("darkmetal", "rulebook.yaml")["items"]["ally_template"]
    infantry = next(t for t in templates if t["key"] == "standard-infantry")
    before = Pack.objects.count()
    response = client.post("/api/packs", data=own_pack("darkmetal", {"ally_template": [infantry]}),
                           content_type="application/yaml")
    assert response.status_code == 422
    [problem] = response.json()["problems"]
    assert problem["message"].startswith("ally_template item 'standard-infantry': field 'upgrades_from[0]': names "
                                         "'recruit', which is no ally_template in this pack")
    assert Pack.objects.count() == before
    recruit = {**next(t for t in templates if t["key"] == "recruit"), "free_weapons": []}  # its rifles are weapons
    with_root = own_pack("darkmetal", {"ally_template": [recruit, infantry]})
    assert client.post("/api/packs", data=with_root, content_type="application/yaml").status_code == 201


def test_a_metallurgent_subskill_without_its_mother_skill_is_refused():
    skills = rulebook("metallurgent", "pilots.yaml")["items"]["skill"]
    subskill = next(s for s in skills if s.get("mother"))
    with pytest.raises(PackError, match=f"skill item '{subskill['key']}': field 'mother': names '{subskill['mother']}'"):
        read_upload(own_pack("metallurgent", {"skill": [subskill]}), "own.yaml", ACTIVE)
    mother = next(s for s in skills if s["key"] == subskill["mother"])
    assert read_upload(own_pack("metallurgent", {"skill": [mother, subskill]}), "own.yaml", ACTIVE)


def test_a_link_to_an_item_of_the_wrong_category_is_left_out():
    templates = rulebook("darkmetal", "rulebook.yaml")["items"]["ally_template"]
    recruit = {**next(t for t in templates if t["key"] == "recruit"), "free_weapons": []}
    medic = {**recruit, "key": "field-medic", "name": "Field Medic", "weapons": ["recruit"]}
    data = read_upload(own_pack("darkmetal", {"ally_template": [recruit, medic]}), "own.yaml", ACTIVE)
    assert list(data.catalogue.items) == ["recruit"]
    [medic_out] = data.skipped
    assert (medic_out.file, medic_out.id, medic_out.field) == ("own.yaml", "field-medic", "weapons[0]")
    assert medic_out.message.startswith("names 'recruit', which is no weapon or attach_weapon")


def test_what_names_a_left_out_item_is_left_out_too_until_nothing_dangles():
    """A recruit naming a rifle the pack lacks goes, then the infantry it upgrades to, then their veterans."""
    templates = {t["key"]: t for t in rulebook("darkmetal", "rulebook.yaml")["items"]["ally_template"]}
    knuckles = {"key": "spike-knuckles", "name": "Spike Knuckles", "cost": 30, "carry": "1H", "damage": 1, "pierce": 1,
                "close_combat": True, "weapon_type": "Melee Weapon"}
    chain = [{**templates["recruit"], "free_weapons": ["standard-rifle"]}, templates["standard-infantry"],
             templates["veteran-infantry"]]
    data = read_upload(own_pack("darkmetal", {"weapon": [knuckles], "ally_template": chain}), "own.yaml", ACTIVE)
    assert list(data.catalogue.items) == ["spike-knuckles"]
    assert [(s.id, s.field) for s in data.skipped] == [("recruit", "free_weapons[0]"),
                                                       ("standard-infantry", "upgrades_from[0]"),
                                                       ("veteran-infantry", "upgrades_from[0]")]
    with pytest.raises(PackError, match="ally_template item 'recruit': field 'free_weapons\\[0\\]'"):
        read_upload(own_pack("darkmetal", {"ally_template": chain}), "own.yaml", ACTIVE)  # nothing left: refused


@pytest.mark.parametrize("ruleset", sorted(ACTIVE))
def test_the_repos_packs_hold_every_item_their_items_name(ruleset):
    for path in sorted(ACTIVE[ruleset].data_dir.glob("*.yaml")):
        catalogue = read_pack(path, ACTIVE).catalogue
        assert [line for link in ACTIVE[ruleset].pack_links for line in link.dangling(catalogue)] == []


def test_an_ember_example_mech_without_a_name_is_listed_by_its_default_name(client, packs):
    """Examples are shown by name (home, pickers, the preview's targets); one without gets its kind's default."""
    starter = rulebook("ember", "starter.yaml")
    mech = next(e for e in starter["examples"] if e["kind"] == "mech")
    unnamed = {k: v for k, v in mech.items() if k != "name"}
    header = {"name": "ember-kit", "version": "1.0.0", "ruleset": "ember", "title": "Ember kit",
              "extends": f"{starter['name']}@{starter['version']}"}
    raw = yaml.safe_dump({**header, "items": {}, "examples": [unnamed]}).encode()
    response = client.post("/api/packs", data=raw, content_type="application/yaml")
    assert response.status_code == 201, response.content
    pack = Pack.objects.get(name="ember-kit")
    assert pack.examples[0]["name"] == "New Mech"
    client.get(response.json()["share_url"])  # the builder shows an uploaded pack once its link is opened
    builder = client.get("/new/ember/mech/?pack=ember-kit@1.0.0&example=0")
    assert builder.status_code == 200 and b"New Mech" in builder.content
