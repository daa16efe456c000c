"""A COMP/CON pilot export as the app writes it (v2 shape: Pilot.Serialize and its controllers): its equipment,
mounts and slots, mechs with their loadouts, and a whole pilot on the hand-written items of
tests/lancer/test_compcon.py."""


def equipment(key, **more):
    return {"id": key, "destroyed": False, "cascading": False, "note": "", "uses": 0, "flavorName": "",
            "flavorDescription": "", "customDamageType": None, **more}


def weapon(key, mod=None):
    return equipment(key, loaded=True, mod=equipment(mod) if mod else None, maxUseOverride=0, selectedProfile=0)


def slot(size, held=None):
    return {"size": size, "weapon": held}


def mount(kind, slots, extra=(), lock=False):
    return {"mount_type": kind, "lock": lock, "slots": list(slots), "extra": list(extra), "bonus_effects": [],
            "modifiable": True}


def empty_extras():
    return {"improved_armament": mount("Flex", [slot("Flex")], [slot("Auxiliary")]),
            "superheavy_mounting": mount("Superheavy", [slot("Superheavy")]),
            "integratedWeapon": mount("Aux", [slot("Auxiliary")]), "extraMounts": [], "extraIntegratedMounts": []}


def mech(mech_id, name, frame_id, loadouts, active=0):
    return {"id": mech_id, "name": name, "notes": "<p>Paint it red.</p>", "gm_note": "", "frame": frame_id,
            "active": active == 0, "current_structure": 4, "current_move": 4, "boost": 0, "current_hp": 12,
            "overshield": 0, "current_stress": 4, "current_heat": 0, "current_repairs": 5, "current_overcharge": 0,
            "current_core_energy": 1, "statuses": [], "conditions": [], "resistances": [], "reactions": [],
            "burn": 0, "destroyed": False, "defeat": "", "activations": 1, "meltdown_imminent": False,
            "reactor_destroyed": False, "core_active": False, "cc_ver": "2.3.23", "lastModified": "Tue Mar 05 2024",
            "isDeleted": False, "expireTime": "", "deleteTime": "", "portrait": "", "cloud_portrait": "",
            "counter_data": [], "custom_counters": [], "loadouts": loadouts, "active_loadout_index": active}


def export():
    everest_old = {"id": "5b0c4f8e-old", "name": "Old kit", "systems": [equipment("ms_custom_paint_job")],
                   "integratedSystems": [], "integratedMounts": [],
                   "mounts": [mount("Main", [slot("Main")]), mount("Flex", [slot("Flex")], [slot("Auxiliary")]),
                              mount("Heavy", [slot("Heavy")])], **empty_extras()}
    everest = {"id": "9d8e7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b", "name": "Primary",
               "systems": [equipment("ms_type_3_projected_shield"), equipment("ms_custom_paint_job")],
               "integratedSystems": [], "integratedMounts": [],
               "mounts": [mount("Main", [slot("Main", weapon("mw_assault_rifle", "wm_overpower_caliber"))]),
                          mount("Flex", [slot("Flex", weapon("mw_thermal_pistol"))],
                                [slot("Auxiliary", weapon("mw_thermal_pistol"))]),
                          mount("Heavy", [slot("Heavy", weapon("mw_heavy_charged_blade"))])],
               **empty_extras()}
    barbarossa = {"id": "0e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b", "name": "Siege",
                  "systems": [equipment("ms_pattern_a_smoke_charges")], "integratedSystems": [],
                  "integratedMounts": [],
                  "mounts": [mount("Main", [slot("Main")], lock=True),
                             mount("Heavy", [slot("Heavy", weapon("mw_siege_cannon"))])], **empty_extras()}
    return {
        "id": "2f6c1a7e-8b3d-4c5e-9f0a-1b2c3d4e5f60", "level": 3, "callsign": "Longshot", "name": "Ada Kestrel",
        "player_name": "Sam", "status": "Active", "dead": False, "text_appearance": "Tall.",
        "notes": "Owes the Baronies a favour.", "history": "<p>Born on Cradle.</p>", "quirks": ["Hums in combat"],
        "current_hp": 8, "background": "Colonist", "resistances": [], "portrait": "", "cloud_portrait": "",
        "group": "Campaign 1", "sort_index": 2, "cc_ver": "2.3.23", "isDeleted": False, "expireTime": "",
        "deleteTime": "", "lastModified": "Tue Mar 05 2024 19:32:11 GMT+0000", "lastUpdate_cloud": "",
        "lastSync": "", "shareCode": "", "shareCodeExpiry": "", "isRemoteResource": False, "remoteIID": "",
        "remoteKey": "",
        "skills": [{"id": "sk_spot", "rank": 2}, {"id": "sk_charm", "rank": 1}, {"id": "sk_stay_cool", "rank": 2},
                   {"id": "sk_apply_fists_to_faces", "rank": 1},
                   {"id": "Cook a mean stew", "rank": 1, "custom": True, "custom_desc": "Feed the crew",
                    "custom_detail": ""}],
        "talents": [{"id": "t_ace", "rank": 3}, {"id": "t_vanguard", "rank": 2}, {"id": "t_combined_arms", "rank": 1}],
        "licenses": [{"id": "mf_barbarossa", "rank": 2}],
        "core_bonuses": ["cb_auto_stabilizing_hardpoints"],
        "mechSkills": [2, 1, 2, 0],
        "reserves": [{"id": "reserve_skill", "type": "Bonus", "name": "Skill", "label": "", "description": "",
                      "resource_name": "", "resource_note": "", "resource_cost": "", "used": False,
                      "consumable": True}],
        "orgs": [], "counter_data": [], "custom_counters": [], "brews": [],
        "special_equipment": {"PilotGear": [], "Frames": [], "MechWeapons": [], "WeaponMods": [], "MechSystems": [],
                              "SystemMods": []},
        "bondId": "", "xp": 0, "stress": 0, "isBroken": False, "burdens": [], "bondPowers": [], "powerSelections": 0,
        "maxStress": 8, "bondAnswers": ["", ""], "minorIdeal": "", "clocks": [],
        "combat_history": {"moves": 0, "kills": 3, "damage": 41, "hp_damage": 0, "structure_damage": 2,
                           "overshield": 0, "heat_damage": 0, "reactor_damage": 0, "overcharge_uses": 1,
                           "core_uses": 1},
        "state": {"active_mech_id": "mech-a", "stage": "Narrative", "turn": 1, "mission": 0, "actions": 2,
                  "braced": False, "overcharged": False, "prepare": False, "bracedCooldown": False,
                  "redundant": False, "stats": {}, "deployed": []},
        "loadout": {"id": "c1d2e3f4-loadout", "name": "Primary", "armor": [equipment("pg_assault_hardsuit")],
                    "weapons": [equipment("pg_light_signature"), None],
                    "gear": [equipment("pg_mag_clamps"), equipment("pg_corrective"), None],
                    "extendedWeapons": [None], "extendedGear": [None, None]},
        "mechs": [mech("mech-a", "Longhorn", "mf_standard_pattern_i_everest", [everest_old, everest], active=1),
                  mech("mech-b", "Siegebreaker", "mf_barbarossa", [barbarossa])],
    }
