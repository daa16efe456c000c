"""Pre-made pilots in COMP/CON's own export shape, imported against the official data (lancer-data 3.1.8, fetched
from the npm registry; skipped when it cannot be reached) and derived through the app's path (rules.validate). Every
number is the one COMP/CON shows, by its formulas (MechStatProvider / Mech.ts, Pilot.ts and Bonus.Int): frame value +
mech skill + Grit + each named bonus, a `replace` bonus setting its stat. One is COMP/CON's example pilot (its
src/assets/Example Pilot.json, COMP/CON 3's shape), rewritten here with its ids and choices only; the others are
ours, in the v2 shape COMP/CON 2 writes and 3 reads."""
from __future__ import annotations

import pytest

from catalogue.rulesets.lancer import rules
from catalogue.rulesets.lancer.compcon import from_compcon, to_compcon
from catalogue.rulesets.lancer.construction import limited_uses
from tests.lancer.factories import LANCER_DATA, lancer_data_or_skip, read
from tests.lancer.compcon_exports import empty_extras, equipment, mech, mount, slot, weapon


@pytest.fixture(scope="module")
def core():
    """lancer-data read as a player uploads it."""
    return read(lancer_data_or_skip(), f"lancer-data-{LANCER_DATA}.lcp")


def imported(raw: dict, core):
    """The pilot document the COMP/CON import makes, the ids it left out, and the report the app derives."""
    document, unknown = from_compcon(raw, core.catalogue, core.header.ref)
    return document, unknown, rules.validate(document, core.catalogue)


def mech_stats(report, m: int = 0) -> dict[str, int]:
    return {key: stat.value for key, stat in report.detail.mechs[m].stats.items()}


def pilot_stats(report) -> dict:
    return {key: report.stats[key].value for key in ("grit", "pilot_hp", "pilot_armor", "pilot_defence", "pilot_speed")}


def uses(document: dict, report, core) -> dict[str, int]:
    """Each Limited item's uses as the sheet prints its boxes (construction.limited_uses): its Limited value,
    plus the mech's Limited bonus on a mech, as COMP/CON's getTotalUses(LimitedBonus) counts them."""
    items = core.catalogue.items
    found = {key: limited_uses(items[key], 0) for key in document["gear"]}
    for owned, detail in zip(document["mechs"], report.detail.mechs):
        carried = [*owned["systems"], *(key for held in owned["mounts"] for key in held["weapons"])]
        found.update({key: limited_uses(items[key], detail.stats["limited_bonus"].value) for key in carried})
    return {key: count for key, count in found.items() if count}


# --- COMP/CON's example pilot: Taro Oda, LL3, in the Raleigh "Raijin" (COMP/CON 3's file shape) ---------------------

def item(key: str, kind: str = "") -> dict:
    """An item as COMP/CON 3 lists it in a loadout (its copy of the item's data left out: the import reads ids)."""
    return {"id": key, **({"type": kind} if kind else {}), "note": "", "flavorName": "", "flavorDescription": ""}


def taro_oda() -> dict:
    raijin = {"id": "f3127a8f-0000-4000-8000-000000000001", "name": "Primary",
              "systems": [item("ms_pattern_b_hex_charges"), item("ms_rapid_burst_jump_jet_system"),
                          item("ms_type_3_projected_shield"), item("ms_personalizations")],
              "integratedSystems": [],
              "mounts": [mount("Aux/Aux", [slot("Auxiliary", weapon("mw_hand_cannon")),
                                           slot("Auxiliary", weapon("mw_hand_cannon"))]),
                         mount("Flex", [slot("Flex", weapon("mw_assault_rifle"))], [slot("Auxiliary")]),
                         mount("Heavy", [slot("Heavy", weapon("mw_anti_materiel_rifle"))])],
              "integratedMounts": [{"weapon": weapon("mw_raleigh_integrated")}],
              **{k: v for k, v in empty_extras().items() if k in ("improved_armament", "integratedWeapon",
                                                                 "superheavy_mounting")}}
    return {
        "itemType": "pilot", "id": "040e14f1-0000-4000-8000-000000000002", "level": 3, "callsign": "Oda",
        "name": "Taro Oda", "player_name": "", "status": "ACTIVE", "background": "Colonist",
        "mechs": [{"id": "544a2362-0000-4000-8000-000000000003", "name": "Raijin", "notes": "", "frame": "mf_raleigh",
                   "loadouts": [raijin], "active_loadout_index": 0}],
        "skills": [{"id": "sk_patch", "rank": 3}, {"id": "sk_spot", "rank": 1}, {"id": "sk_survive", "rank": 2},
                   {"id": "sk_word_on_the_street", "rank": 1}],
        "talents": [{"id": "t_crack_shot", "rank": 2}, {"id": "t_gunslinger", "rank": 2}, {"id": "t_leader", "rank": 2}],
        "mechSkills": [5, 0, 0, 0],
        "core_bonuses": [{"id": "cb_reinforced_frame", "name": "Reinforced Frame", "source": "IPS-N"}],
        "licenses": [{"id": "mf_raleigh", "rank": 3}],
        "reserves": [], "orgs": [],
        "loadouts": [{"name": "Default Loadout", "armor": [item("pg_light_hardsuit", "PilotArmor")],
                      "weapons": [{**item("pg_medium_signature", "PilotWeapon"), "customDamageType": "Kinetic"}],
                      "gear": [item("pg_extra_rations", "PilotGear"), item("pg_wilderness_survival_kit", "PilotGear")]}],
        "active_index": 0, "brews": [],
    }


def test_l_b08_compcons_example_pilot_taro_oda_matches_compcon(core):
    document, unknown, report = imported(taro_oda(), core)
    assert unknown == [] and report.legal, [(i.code, i.message) for i in report.issues]
    # Grit = ⌈LL 3 / 2⌉ = 2; Hull 5; no Agility, Systems or Engineering.
    assert mech_stats(report) == {
        "hp": 10 + 2 + 2 * 5 + 2 + 5,  # 29: Raleigh 10 + Grit 2 + 2 × Hull 5 + Personalizations 2 + Reinforced Frame 5
        "armor": 1,  # Raleigh 1
        "evasion": 8 + 0,  # Raleigh 8 + Agility 0
        "edef": 7 + 0,  # Raleigh 7 + Systems 0
        "speed": 4 + 0,  # Raleigh 4 + ⌊Agility 0 / 2⌋
        "heatcap": 5 + 0,  # Raleigh 5 + Engineering 0
        "sensor_range": 10,  # Raleigh 10
        "tech_attack": -1 + 0,  # Raleigh -1 + Systems 0
        "repcap": 5 + 5 // 2,  # 7: Raleigh 5 + ⌊Hull 5 / 2⌋
        "save": 10 + 2,  # Raleigh 10 + Grit 2
        "sp": 5 + 2 + 0,  # 7: Raleigh 5 + Grit 2 + ⌊Systems 0 / 2⌋
        "limited_bonus": 0,  # ⌊Engineering 0 / 2⌋
        "structure": 4, "stress": 4,  # rules.json base_structure, base_stress
        "size": 1,  # Raleigh 1
        "ai_cap": 1,  # one AI
    }
    assert report.detail.mechs[0].sp_used == 2 + 2 + 2 + 1  # HEX Charges, jump jets, Type-3 shield, Personalizations
    assert pilot_stats(report) == {
        "grit": 2,
        "pilot_hp": 6 + 2 + 3,  # 11: base_pilot_hp 6 + Grit 2 + Light Hardsuit 3
        "pilot_armor": 0,  # the Light Hardsuit gives none
        "pilot_defence": "10 / 10",  # Light Hardsuit sets Evasion 10 and E-Defense 10
        "pilot_speed": 4,  # Light Hardsuit sets Speed 4
    }
    assert uses(document, report, core) == {"ms_pattern_b_hex_charges": 3}  # Limited 3 + 0


# --- ours, in COMP/CON 2's export shape --------------------------------------------------------------------------

def pilot(name: str, level: int, hase: list[int], skills: dict, talents: dict, licences: dict, core_bonuses: list,
          gear: dict, mechs: list) -> dict:
    return {"id": f"{name.lower()}-pilot", "level": level, "callsign": name.upper(),
            "name": name, "player_name": "", "status": "Active", "notes": "", "history": "", "quirks": [],
            "current_hp": 6, "background": "", "resistances": [], "portrait": "", "cloud_portrait": "",
            "skills": [{"id": k, "rank": r} for k, r in skills.items()],
            "talents": [{"id": k, "rank": r} for k, r in talents.items()],
            "licenses": [{"id": k, "rank": r} for k, r in licences.items()],
            "core_bonuses": core_bonuses, "mechSkills": hase, "reserves": [], "orgs": [], "brews": [],
            "loadout": {"id": f"{name}-loadout", "name": "Primary", **gear, "extendedWeapons": [None],
                        "extendedGear": [None, None]},
            "mechs": mechs}


def rookie() -> dict:
    """LL0, Hull 2, no pilot armour: the starting Everest with Personalizations."""
    loadout = {"id": "rookie-everest", "name": "Primary", "integratedSystems": [], "integratedMounts": [],
               "systems": [equipment("ms_personalizations"), equipment("ms_pattern_a_smoke_charges", uses=3),
                           equipment("ms_type_3_projected_shield")],
               "mounts": [mount("Main", [slot("Main", weapon("mw_assault_rifle"))]),
                          mount("Flex", [slot("Flex", weapon("mw_pistol"))], [slot("Auxiliary", weapon("mw_pistol"))]),
                          mount("Heavy", [slot("Heavy", weapon("mw_anti_materiel_rifle"))])],
               **empty_extras()}
    return pilot("Rookie", 0, [2, 0, 0, 0],
                 {"sk_apply_fists_to_faces": 1, "sk_get_somewhere_quickly": 1, "sk_spot": 1, "sk_stay_cool": 1},
                 {"t_ace": 1, "t_brawler": 1, "t_crack_shot": 1}, {}, [],
                 {"armor": [None], "weapons": [equipment("pg_archaic_melee"), None],
                  "gear": [equipment("pg_patch", uses=1), equipment("pg_stims", uses=3), None]},
                 [mech("rookie-mech", "Pathfinder", "mf_standard_pattern_i_everest", [loadout])])


def test_l_b08_an_everest_with_personalizations_at_ll0_matches_compcon(core):
    document, unknown, report = imported(rookie(), core)
    assert unknown == [] and report.legal, [(i.code, i.message) for i in report.issues]
    # Grit = ⌈LL 0 / 2⌉ = 0; Hull 2.
    assert mech_stats(report) == {
        "hp": 10 + 0 + 2 * 2 + 2,  # 16: Everest 10 + Grit 0 + 2 × Hull 2 + Personalizations 2
        "armor": 0,  # Everest 0
        "evasion": 8, "edef": 8,  # Everest 8 and 8, + Agility 0 and Systems 0
        "speed": 4,  # Everest 4 + ⌊Agility 0 / 2⌋
        "heatcap": 6,  # Everest 6 + Engineering 0
        "sensor_range": 10, "tech_attack": 0,  # Everest 10; Everest +0 + Systems 0
        "repcap": 5 + 2 // 2,  # 6: Everest 5 + ⌊Hull 2 / 2⌋
        "save": 10 + 0,  # Everest 10 + Grit 0
        "sp": 6 + 0 + 0,  # Everest 6 + Grit 0 + ⌊Systems 0 / 2⌋
        "limited_bonus": 0, "structure": 4, "stress": 4, "size": 1, "ai_cap": 1,
    }
    assert report.detail.mechs[0].sp_used == 1 + 2 + 2  # Personalizations, smoke charges, Type-3 shield
    assert pilot_stats(report) == {"grit": 0, "pilot_hp": 6 + 0, "pilot_armor": 0, "pilot_defence": "10 / 10",
                                   "pilot_speed": 4}  # rules.json base_pilot_*: no armour worn
    assert uses(document, report, core) == {
        "ms_pattern_a_smoke_charges": 3,  # Limited 3 + Limited bonus 0
        "pg_patch": 1, "pg_stims": 3}  # pilot gear: its Limited value


def bulwark_pilot() -> dict:
    """LL3 in an Assault Hardsuit; a Tortuga (two mounts) with Improved Armament's Flex mount, the Smartgun's 2 SP and
    the Daisy Cutter's Limited 2, Engineering 2 adding a use."""
    improved = mount("Flex", [slot("Flex", weapon("mw_pistol"))], [slot("Auxiliary", weapon("mw_tactical_knife"))])
    loadout = {"id": "bulwark-tortuga", "name": "Primary", "integratedSystems": [], "integratedMounts": [],
               "systems": [equipment("ms_pattern_a_smoke_charges", uses=4), equipment("ms_type_3_projected_shield")],
               "mounts": [mount("Main", [slot("Main", weapon("mw_smartgun"))]),
                          mount("Heavy", [slot("Heavy", weapon("mw_daisy_cutter"))])],
               **{**empty_extras(), "improved_armament": improved}}
    return pilot("Bulwark", 3, [1, 1, 1, 2], {"sk_spot": 2, "sk_assault": 2, "sk_stay_cool": 2, "sk_hack_or_fix": 1},
                 {"t_heavy_gunner": 2, "t_juggernaut": 2, "t_siege_specialist": 2}, {"mf_tortuga": 2, "mf_pegasus": 1},
                 ["cb_improved_armament"],
                 {"armor": [equipment("pg_assault_hardsuit")], "weapons": [equipment("pg_heavy_signature"), None],
                  "gear": [equipment("pg_frag_grenades", uses=2), None, None]},
                 [mech("bulwark-mech", "Bulwark", "mf_tortuga", [loadout])])


def test_l_b08_a_tortuga_with_improved_armament_in_an_assault_hardsuit_matches_compcon(core):
    document, unknown, report = imported(bulwark_pilot(), core)
    assert {u.id for u in unknown} <= {"mw_pistol", "mw_tactical_knife"}  # until the import reads Improved Armament
    assert report.legal, [(i.code, i.message) for i in report.issues]
    # Grit = ⌈LL 3 / 2⌉ = 2; Hull 1, Agility 1, Systems 1, Engineering 2.
    assert mech_stats(report) == {
        "hp": 8 + 2 + 2 * 1,  # 12: Tortuga 8 + Grit 2 + 2 × Hull 1
        "armor": 2,  # Tortuga 2
        "evasion": 6 + 1,  # Tortuga 6 + Agility 1
        "edef": 10 + 1,  # Tortuga 10 + Systems 1
        "speed": 3 + 1 // 2,  # 3: Tortuga 3 + ⌊Agility 1 / 2⌋
        "heatcap": 6 + 2,  # Tortuga 6 + Engineering 2
        "sensor_range": 15,  # Tortuga 15
        "tech_attack": 1 + 1,  # Tortuga +1 + Systems 1
        "repcap": 6 + 1 // 2,  # 6: Tortuga 6 + ⌊Hull 1 / 2⌋
        "save": 10 + 2,  # Tortuga 10 + Grit 2
        "sp": 6 + 2 + 1 // 2,  # 8: Tortuga 6 + Grit 2 + ⌊Systems 1 / 2⌋
        "limited_bonus": 2 // 2,  # 1: ⌊Engineering 2 / 2⌋
        "structure": 4, "stress": 4,
        "size": 2,  # Tortuga 2
        "ai_cap": 1,
    }
    assert report.detail.mechs[0].sp_used == 2 + 2 + 2  # the Smartgun's 2 SP, smoke charges, Type-3 shield
    assert pilot_stats(report) == {
        "grit": 2,
        "pilot_hp": 6 + 2 + 3,  # 11: base 6 + Grit 2 + Assault Hardsuit 3
        "pilot_armor": 1,  # Assault Hardsuit 1
        "pilot_defence": "8 / 8",  # Assault Hardsuit sets Evasion 8 and E-Defense 8
        "pilot_speed": 4,  # Assault Hardsuit sets Speed 4
    }
    assert uses(document, report, core) == {
        "mw_daisy_cutter": 2 + 1,  # Limited 2 + Limited bonus 1
        "ms_pattern_a_smoke_charges": 3 + 1,  # Limited 3 + Limited bonus 1
        # pilot gear: Limited 2. Engineering's extra uses are a mech's systems' and weapons' (1.0, Mech skills);
        # COMP/CON 3's encounter card shows the pilot's gear with them too, which Hardpoint does not follow.
        "pg_frag_grenades": 2}


def test_l_b09_improved_armaments_mount_holds_the_bulwarks_pistol_and_knife(core):
    """Against the official data, the Flex mount Improved Armament adds to the Tortuga holds two Aux weapons."""
    document, _, _ = imported(bulwark_pilot(), core)
    report = rules.validate(document, core.catalogue)
    assert report.legal, [(i.code, i.message) for i in report.issues]


def test_l_b09_the_compcon_import_keeps_improved_armaments_weapons(core):
    document, unknown, report = imported(bulwark_pilot(), core)
    assert unknown == []
    assert document["mechs"][0]["mounts"][2] == {"core_bonus": "cb_improved_armament", "bracing": False,
                                                 "weapons": ["mw_pistol", "mw_tactical_knife"], "mods": []}


def test_l_b09_the_export_writes_a_core_bonus_mount_where_comp_con_reads_it(core):
    document, _, _ = imported(bulwark_pilot(), core)
    fresh = {k: v for k, v in document.items() if k != "kept"}  # a pilot made here: written anew
    loadout = to_compcon(fresh, core.catalogue)["mechs"][0]["loadouts"][0]
    assert [m["mount_type"] for m in loadout["mounts"]] == ["Main", "Heavy"]  # the Tortuga's own
    improved = loadout["improved_armament"]
    assert [s["weapon"]["id"] for s in improved["slots"] + improved["extra"]] == ["mw_pistol", "mw_tactical_knife"]
    again, _ = from_compcon(to_compcon(fresh, core.catalogue), core.catalogue, core.header.ref)
    assert again["mechs"] == document["mechs"]
