"""The DARK METAL rulebook pack against the digest's tables (section 6) and the rulebook's numbers. No database."""
import re
from collections import Counter
from pathlib import Path

import pytest

import catalogue.rulesets.darkmetal as dm
from catalogue.rulesets.packs import read_pack
from tests.helpers.rulebooks import SEEDS

PACK = dm.RULESET.data_dir / "rulebook.yaml"
# The rulebooks sit beside the repository (../shared/seeds), on every developer machine and in CI.
RULEBOOK = SEEDS / "002_785431dc9040baf7.txt"

# Digest section 6 row counts; ally templates: 1 Recruit + 3 Infantry + 3 Marine + 2 Sniper
# + 3 Medic + 3 Mechanic + 3 Animalus.
ROWS = {
    "armor": 10, "splice": 17, "cyber": 16, "item": 12, "weapon": 23, "attach_weapon": 15,
    "knowledge_skill": 13, "knowledge_ability": 39, "communication_skill": 6, "trait_level": 12,
    "ally_template": 18, "injury": 6,
}


@pytest.fixture(scope="module")
def pack():
    return read_pack(Path(PACK), {"darkmetal": dm.RULESET})


@pytest.fixture(scope="module")
def items(pack):
    return pack.catalogue.items


def of(pack, category):
    return [item for key, item in pack.catalogue.items.items() if pack.catalogue.categories[key] == category]


def test_dm_catalogue_header_names_the_rulebook(pack):
    assert pack.header.name == "darkmetal-rulebook"
    assert pack.header.ruleset == "darkmetal"
    assert pack.header.source == "rulebook"
    assert pack.header.version == "1.2.0"
    assert [e["name"] for e in pack.examples] == ["Moroc", "Vesper", "Brakk"]  # Hardpoint's own examples


def test_dm_catalogue_row_counts_match_the_digest_tables(pack):
    assert Counter(pack.catalogue.categories.values()) == ROWS
    assert set(ROWS) == set(dm.CATEGORIES)


def test_dm_catalogue_armor_rows_match_the_rulebook(items):
    battle_armor = items["battle-armor"]
    assert (battle_armor.cost, battle_armor.ahp, battle_armor.armor, battle_armor.attach_points) == (1000, 12, 2, 4)
    assert (battle_armor.power, battle_armor.bulk, battle_armor.sys, battle_armor.move) == (10, 3, 3, -1)
    assert battle_armor.traits == {"ath": -1.5, "ins": -1.5, "awa": -1}
    assert items["battle-suit"].cost == 850 and items["battle-suit"].ahp == 9 and items["battle-suit"].power == 8
    combat_armor = items["combat-armor"]
    assert (combat_armor.cost, combat_armor.ahp, combat_armor.power, combat_armor.bulk, combat_armor.sys) == (250, 4, 0, 1, 1)
    assert combat_armor.traits == {"ath": -1.5, "ins": -1, "awa": -0.5}
    agile = items["power-suit-agile-print"]
    assert (agile.cost, agile.move, agile.power, agile.sys) == (650, 1, 2, 1)
    assert agile.traits == {"ins": -0.5, "awa": -0.5}
    assert items["power-armor"].traits == {"ath": -1, "ins": -1, "awa": -0.5}
    assert items["stealth-power-armor"].cost == 750
    assert items["combat-suit"].ahp == 1 and items["combat-suit"].sys == 0
    assert items["evosuit"].cost == 0 and items["evosuit"].ahp == 0
    assert items["scramble-suit"].cost == 100 and items["scramble-suit"].max_cyber == 1


def test_dm_catalogue_splice_rows_match_the_rulebook(items):
    assert (items["second-heart"].cost, items["second-heart"].score) == (200, 0)
    assert items["second-heart"].effects.bhp == 1 and items["second-heart"].effects.traits == {"ath": 0.5}
    assert items["cat-reflexes"].effects.traits == {"ins": 0.5}
    assert items["strength-musculature"].excludes == ["twitch-musculature"]
    avian = items["avian-modification"]
    assert (avian.effects.bhp, avian.effects.bulk, avian.effects.traits) == (-1, -1, {"ath": -1})
    assert set(avian.excludes) == {"twitch-musculature", "strength-musculature"}
    assert items["leg-splicing-2"].cost == 150 and items["leg-splicing-2"].requires_any == ["leg-splicing-1"]
    assert items["leg-splicing-3"].requires_any == ["leg-splicing-2"]
    assert [items[f"leg-splicing-{n}"].effects.move for n in (1, 2, 3)] == [1, 1, 1]
    assert items["cuttle-skin"].requires_skill == {"ste": 1}
    assert items["olfactory-editing"].not_with_armor and items["olfactory-editing"].score == 0
    assert str(items["functional-tail"].condition) == "Bulk 0 or less"
    assert (items["robust-genetics"].effects.bhp, str(items["robust-genetics"].condition)) == (1, "Splice 3 or more")
    assert (items["metal-shoulder"].effects.ahp, str(items["metal-shoulder"].condition)) == (1, "Cyber 3 or more")
    assert items["mongoose-blood"].cost == 200 and items["mongoose-blood"].effects.traits == {"ins": 1}


def test_dm_catalogue_cyber_rows_match_the_rulebook(items):
    dual = items["dual-cyber-arms"]
    assert (dual.cost, dual.score, dual.effects.ahp, dual.effects.bulk, dual.effects.attach_points) == (600, 2, 1, 1, 2)
    lung = items["lung-capacitor"]
    assert (lung.cost, lung.effects.power, lung.effects.bulk, lung.effects.traits) == (600, 7, 1, {"ath": -1})
    assert items["plated-dermal-layer"].max_count == 2 and items["plated-dermal-layer"].effects.ahp == 1
    pdl2 = items["plated-dermal-layer-2"]
    assert (pdl2.effects.ahp, pdl2.effects.armor, pdl2.effects.bulk, pdl2.requires_any) == (2, 1, 1, ["plated-dermal-layer"])
    assert set(items["arm-motion-compensators"].requires_any) == {"cyber-arm", "synthetic-arm-muscles"}
    assert items["targeting-network"].requires_any == ["eye-replacement"]
    assert items["eye-replacement"].effects.traits == {"awa": 1, "ins": -1} and items["eye-replacement"].score == 0
    assert items["glute-capacitor"].effects.power == items["chest-capacitor"].effects.power == 2
    assert items["cyber-arm"].cost == 300 and items["cyber-arm"].effects.attach_points == 1


def test_dm_catalogue_item_rows_match_the_rulebook(items):
    assert items["crappy-trauma-kit"].cost is None and items["crappy-armor-kit"].cost is None
    assert (items["trauma-kit"].cost, items["hq-trauma-kit"].cost) == (40, 70)
    assert items["backpack-battery"].cost == 150 and items["backpack-battery"].power == 2
    assert items["anti-vehicle-mine"].kind == "mine" and items["extra-ammo"].cost == 0
    assert {items[k].kind for k in ("item-attack-grenade", "item-defensive-grenade")} == {"grenade"}


def test_dm_catalogue_grenades_in_both_tables_have_distinct_keys(items, pack):
    for name in ("Attack Grenade", "Defensive Grenade"):
        keys = {key for key, item in items.items() if item.name == name}
        assert {pack.catalogue.categories[key] for key in keys} == {"item", "weapon"}
    assert items["attack-grenade"].carry == "1S" and items["attack-grenade"].grenade
    assert items["item-attack-grenade"].cost == items["attack-grenade"].cost == 20


def test_dm_catalogue_weapon_rows_match_the_rulebook(items):
    pistol = items["machine-pistol"]
    assert (pistol.cost, pistol.carry, pistol.ammo, pistol.to_hit, pistol.max_range) == (20, "1H", 8, -1, 20)
    assert pistol.range_steps == [(5, 2), (10, 6)]
    heavy = items["heavy-pistol"]
    assert (heavy.ammo, heavy.pierce, heavy.range_steps) == (6, 1, [(4, 2), (8, 6)])
    assert (items["beam-rifle"].cost, items["beam-rifle"].ammo) == (200, 6)
    shotgun = items["combat-shotgun"]
    assert (shotgun.to_hit, shotgun.max_range, shotgun.close_combat_penalty) == (-1, 12, 1)
    assert (items["heavy-rifle"].to_hit, items["heavy-rifle"].close_combat_penalty) == (1, 3)
    assert items["standard-rifle"].close_combat_penalty == 2 and items["standard-rifle"].ammo == 10
    assert items["palm-shocker"].carry == "palm" and items["palm-plasma-jet"].carry == "palm"
    assert (items["palm-plasma-jet"].damage, items["palm-plasma-jet"].pierce) == (2, 2)
    assert items["maggripper-set"].carry == "gripper" and items["maggripper-set"].ammo is None
    assert items["tesla-cracker"].carry == "2S" and items["tesla-cracker"].damage == 2
    assert items["energy-staff"].reach == items["energy-spear"].reach == 2
    assert items["melee-weapon"].close_combat and items["melee-weapon"].ammo is None
    assert items["grenade-launcher"].max_range == 16 and items["grenade-launcher"].ammo == 3
    assert items["model-742-mil-spec-m-rifle"].cost == 275
    assert items["emp-grenade"].shock and items["emp-grenade"].cost == 40


def test_dm_catalogue_attach_weapon_rows_match_the_rulebook(items):
    mbmr = items["mbmr"]
    assert (mbmr.cost, mbmr.attach_points, mbmr.ammo) == (800, 3, 60)
    electro = items["electrolaser"]
    assert (electro.attach_points, electro.damage, electro.pierce, electro.to_hit, electro.shock) == (2, 4, 2, -2, True)
    power_shotgun = items["power-shotgun"]
    assert (power_shotgun.damage, power_shotgun.to_hit, power_shotgun.max_range, power_shotgun.ammo) == (2, -2, 12, 12)
    for key in ("leg-boosters", "arm-boosters"):
        assert items[key].cost is None and items[key].cost_per_bulk == 300
    assert items["leg-boosters"].effects.move == 1 and items["arm-boosters"].effects.traits == {"ath": 1}
    assert items["carry-pack"].effects.backpack_slots == 2 and items["power-pack"].effects.power == 4
    assert items["armor-melee"].melee and items["pw-a-melee"].melee
    assert items["armor-m-rifle"].ammo == 30 and items["plasma-spray"].cost == 600


def test_dm_catalogue_knowledge_skills_and_abilities_match_the_rulebook(pack, items):
    skills = of(pack, "knowledge_skill")
    assert {skill.key for skill in skills} == set(dm.schema.SKILLS)
    assert all(skill.abbreviation.lower() == skill.key for skill in skills)
    abilities = of(pack, "knowledge_ability")
    per_skill = Counter(ability.skill for ability in abilities)
    assert set(per_skill.values()) == {3} and len(per_skill) == 13
    for skill in dm.schema.SKILLS:
        assert sorted(a.level for a in abilities if a.skill == skill) == [1, 3, 5]
    assert (items["got-them"].skill, items["got-them"].level, items["got-them"].frequency) == ("ars", 5, "1/scenario")
    assert (items["trick-wiring"].skill, items["trick-wiring"].level) == ("hac", 1)
    assert (items["reshaper"].skill, items["reshaper"].level) == ("tra", 5)


def test_dm_catalogue_communication_skills_use_half_steps(pack, items):
    skills = of(pack, "communication_skill")
    assert {skill.com_half_steps for skill in skills} == {2, 3, 4, 5, 7, 9}
    assert items["group-activate"].com_half_steps == 2 and items["training"].com_half_steps == 9


def test_dm_catalogue_trait_levels_match_the_base_trait_tables(pack, items):
    levels = sorted(of(pack, "trait_level"), key=lambda level: level.half_steps)
    assert [level.half_steps for level in levels] == list(range(1, 13))
    assert [level.step_cost for level in levels] == [0, 100, 150, 200, 250, 300, 350, 400, 450, 500, None, None]
    assert [level.dice for level in levels] == [None, 1, None, 2, None, 3, None, 4, None, 5, None, 6]
    assert [level.knowledge_points for level in levels][:10] == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55]
    assert [level.max_allies for level in levels] == [1, 2, 3, None, 4, None, 5, None, 6, 7, None, None]
    level_2_5 = items["trait-level-2-5"]
    assert (level_2_5.half_steps, level_2_5.step_cost, level_2_5.knowledge_points) == (5, 250, 15)
    assert (level_2_5.max_ally_value, level_2_5.max_allies) == (700, 4)
    assert items["trait-level-2"].max_allies is None
    # Max Ally Value equals the cumulative cost of the Com level (L589).
    running = 0
    for level in levels[:10]:
        running += level.step_cost
        assert level.max_ally_value == running
    assert items["trait-level-1-5"].attribute_effect == "+1 Attribute Fate"
    assert items["trait-level-5"].communication_effect == "Add 1 General Fate, Bonus 10 ARP"


def test_dm_catalogue_ally_templates_match_the_rulebook(pack, items):
    families = Counter(template.family for template in of(pack, "ally_template") if template.key != "recruit")
    assert families == {"infantry": 3, "marine": 3, "sniper": 2, "medic": 3, "mechanic": 3, "animalus": 3}
    recruit = items["recruit"]
    assert (recruit.rep_cost, recruit.arp_cost, recruit.bhp, recruit.ahp) == (0, 0, 2, 0)
    elite_marine = items["elite-marine"]
    assert (elite_marine.rep_cost, elite_marine.arp_cost) == (200, 25)
    assert elite_marine.pools == {"ath": 4, "pre": 3, "ins": 2, "awa": 2, "kno": 1}
    assert elite_marine.skills == {"ars": 1, "sur": 1, "tra": 1} and elite_marine.bhp == 3
    assert (items["sniper"].rep_cost, items["sniper"].arp_cost) == (325, 37)
    assert set(items["sniper"].upgrades_from) == {"standard-infantry", "standard-marine"}
    assert items["elite-infantry"].upgrades_from == ["veteran-infantry"]
    elite_medic = items["elite-medic"]
    assert (elite_medic.rep_cost, elite_medic.arp_cost, elite_medic.rep_gain) == (300, 40, 4)
    assert elite_medic.skills == {"med": 5} and elite_medic.ahp == 1 and elite_medic.items == ["trauma_kit"]
    assert items["elite-mechie"].skills == {"rep": 5} and items["rookie-mechie"].items == ["armor_kit"]
    assert items["cyber-animalus"].tags == ["Pie 1", "Cyb 1", "Small"]
    assert items["basic-animalus"].move == 6 and items["basic-animalus"].bhp == 1
    assert all(items[k].weapons == [] and items[k].items == "none" for k in ("basic-animalus", "bio-animalus"))


def test_dm_catalogue_medic_and_mechanic_weapons_follow_dm_r59_and_dm_r60(items):
    assert set(items["medic"].weapons) == {
        "standard-rifle", "combat-shotgun", "machine-pistol", "heavy-pistol", "melee-weapon", "energy-staff",
        "armor-m-rifle", "armor-melee"}
    assert set(items["mechie"].weapons) == {
        "standard-rifle", "combat-shotgun", "machine-pistol", "heavy-pistol", "melee-weapon", "grenade-launcher",
        "armor-m-rifle", "power-shotgun", "plasma-spray", "armor-melee"}
    assert items["rookie-medic"].weapons == items["elite-medic"].weapons == items["medic"].weapons
    assert items["standard-infantry"].weapons == "any"


def test_dm_catalogue_injuries_match_the_rulebook(pack, items):
    assert sorted(injury.roll for injury in of(pack, "injury")) == [1, 2, 3, 4, 5, 6]
    assert items["eye-damage"].traits == {"awa": -1, "ath": -1}
    assert items["eye-damage"].boon_traits == {"ins": 1, "pre": 1}
    assert items["crippled-leg"].move == -1 and items["crippled-leg"].traits == {"ins": -1}
    assert items["the-shakes"].boon_traits == {"com": 1, "kno": 1}
    assert items["wicked-scar"].traits == {"kno": -1} and items["wicked-scar"].boon_traits == {}


def test_dm_catalogue_cross_references_name_existing_rows(pack, items):
    categories = pack.catalogue.categories
    for key, item in items.items():
        category = categories[key]
        if category in ("splice", "cyber"):
            for other in item.requires_any + item.excludes:
                assert categories.get(other) in ("splice", "cyber"), (key, other)
        if category == "ally_template":
            for other in item.upgrades_from:
                assert categories.get(other) == "ally_template", (key, other)
            if isinstance(item.weapons, list):
                for other in item.weapons:
                    assert categories.get(other) in ("weapon", "attach_weapon"), (key, other)


def test_dm_catalogue_descriptions_are_our_own_words(pack):
    """No description repeats a sentence of the rulebook."""
    if not RULEBOOK.exists():
        pytest.skip(f"the rulebook {RULEBOOK} is not beside this checkout")
    text = RULEBOOK.read_text().lower()
    for item in pack.catalogue.items.values():
        for written in (getattr(item, "description", ""), getattr(item, "default_kit", "")):
            for sentence in re.split(r"(?<=[.;])\s+", written or ""):
                sentence = sentence.strip().lower().rstrip(".;")
                if len(sentence) > 12:
                    assert sentence not in text, (item.key, sentence)
