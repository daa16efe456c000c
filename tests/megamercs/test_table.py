"""MEGA MERCS at the table (Kind.tabletop): a unit's HP, internals hexes, ammunition and status boxes, a company's
written-in units, drones, infantry and aircraft; each rule drawn from their values tested at its limit and past it,
and the played unit the preview reads (what no longer works is no longer mounted)."""
import pytest

from builder import store
from catalogue.loader import latest_pack
from catalogue.rulesets.megamercs import company, table
from catalogue.rulesets.megamercs.rules import parse, validate
from tests.megamercs.factories import PACK, item, make_catalogue, shot, unit
from tests.helpers.tables import one, rules_of, well_formed

VTOL = dict(name="Test Gunship", role="gunship", unit_type="vtol", hp=30, agility=30, evasion="automatic",
            movement=9, movement_type="flying_vtol", vision=10, ewar=40, actions=["M", "A", "A/U"],
            hardpoints=[dict(key="bay", size=2, types=["sensor", "electronic_support"], location="hull")],
            grids=[dict(location="hull", type="radial", hexes=7)])


@pytest.fixture(scope="module")
def cat():
    return make_catalogue(
        item("vtol", "chassis", **VTOL),
        item("ecm", "equipment", size=1, types=["electronic_support"], requires_power=True,
             sensitive_electronics=True, attributes=[{"name": "ecm"}]),
        item("link", "equipment", size=1, types=["electronic_support"], sensitive_electronics=True,
             attributes=[{"name": "data_link"}]),
        item("ed", "equipment", size=1, types=["electronic_support"], attributes=[{"name": "electronic_defence"}]),
        item("pd", "equipment", size=1, types=["utility"], requires_power=True,
             attributes=[{"name": "interceptor", "x": 2, "y": 0}]),
        item("reactor", "equipment", size=3, types=["utility"]),
        item("hive", "equipment", size=1, types=["drone_controller", "utility"], sensitive_electronics=True, docking=2),
        item("pod", "weapon", size=1, types=["launcher", "light_weapon"], limited_ammo=2, profiles=[shot(rof=4)]),
        item("scout", "drone", size="small", flying=True, hp=2, ish=1, movement=10, vision=10, ewar=20,
             actions=["M", "U"]),
        item("mule", "drone", size="large", hp=20, movement=5, vision=6, ewar=25, actions=["M", "A"]),
        item("riflemen", "infantry", members=5, blast_resistance=40, cqc=45, movement=2, vision=6,
             actions=["M", "A"], weapons=[{"weapon": "hmg", "count": 1}]),
        item("jet", "aircraft", ahp=4, agility=45, ewar=40),
    )


def tracked(cat, document):
    build = parse(document)
    found = table.UNIT.tracks(build, cat, validate(build, cat), {})
    return {t.key: t for t in found}


def said(tracks, **state):
    """The consequences of a state given as keyword arguments (`__` for a dot, `_0_` for `[0]`)."""
    values = {key.replace("__", ".").replace("_0_", "[0]").replace("_1_", "[1]").replace("_2_", "[2]"): v
              for key, v in state.items()}
    assert set(values) <= set(tracks), set(values) - set(tracks)
    return table.UNIT.consequences(list(tracks.values()), values)


# --- a unit's tracks ----------------------------------------------------------------------------------------------

def examples(kind):
    return [dict(e) for e in latest_pack("megamercs", kind).examples if e["kind"] == kind]


def test_tracks_of_every_pack_unit_are_unique_in_range_ruled_and_as_its_report_counts(packs):
    for example in examples("unit"):
        checked = store.check(example)
        tracks = table.UNIT.tracks(checked.build, checked.catalogue, checked.report, checked.linked)
        well_formed(tracks)
        keyed = {t.key: t for t in tracks}
        hp = checked.report.stats["hp"].value
        assert (keyed["hp"].high, keyed["hp"].start) == (hp, hp)
        for grid in checked.report.detail.grids:
            hexes = [t for t in tracks if t.key.startswith(f"{grid.location}.grid.")]
            assert sum(t.high for t in hexes) == grid.hexes == len(grid.cells), (example["name"], grid.location)
            for kind in ("pilot", "crew", "leg_parts", "treads"):
                special = keyed.get(f"{grid.location}.grid.{kind}")
                assert (special.high if special else 0) == sum(c.kind == kind for c in grid.cells)
        limited = {w.path: w.limited for w in checked.report.detail.weapons if w.limited}
        ammo = {t.key.rsplit(".", 1)[1]: t for t in tracks if ".ammo." in t.key}
        assert {path: t.high for path, t in ammo.items()} == limited
        assert all(t.start == t.high for t in ammo.values())


def test_tracks_of_every_pack_company_are_its_written_in_units_drones_infantry_and_aircraft(packs):
    for example in examples("company"):
        checked = store.check(example)
        tracks = table.COMPANY.tracks(checked.build, checked.catalogue, checked.report, checked.linked)
        well_formed(tracks)
        keyed = {t.key: t for t in tracks}
        for u, entry in enumerate(example.get("units", [])):
            assert keyed[f"units[{u}].hp"].high == checked.catalogue.items[entry["unit"]["chassis"]].hp
            assert keyed[f"units[{u}].hp"].group.startswith(entry["unit"]["name"])
        for i, entry in enumerate(example.get("infantry", [])):
            squad = checked.catalogue.items[entry["item"]]
            assert [keyed[f"infantry[{i}][{n}].members"].high for n in range(entry.get("count", 1))] == \
                [squad.members] * entry.get("count", 1)
        for d, entry in enumerate(example.get("drones", [])):
            drone, status = checked.catalogue.items[entry["drone"]], keyed[f"drones[{d}].status"]
            assert keyed[f"drones[{d}].hp"].high == drone.hp
            assert status.options[status.start] == ("Docked" if entry.get("docked") else "Deployed")
            assert status.mark == checked.report.detail.roster[entry["controller"]].controllers
        for a, entry in enumerate(example.get("aircraft", [])):
            assert keyed[f"aircraft[{a}][0].ahp"].high == checked.catalogue.items[entry["item"]].ahp


def test_a_track_per_special_internal_item_and_the_empty_hexes_of_each_grid(cat):
    tracks = tracked(cat, unit("mecha", ("hmg", "r-arm"), ("mace", "l-arm"), ("jets", "legs")))
    assert tracks["right_arm.grid.mounts[0]"].options == ("Intact", "Destroyed")
    assert (tracks["right_arm.grid.empty"].high, tracks["left_arm.grid.mounts[1]"].high) == (3, 2)
    assert tracks["legs.grid.leg_parts"].high == 2 and tracks["torso.grid.pilot"].options == ("Intact", "Lost")
    assert tracks["torso.grid.empty"].high == 6 and tracks["left_arm.grid.mounts[1]"].lines == ("Mace",)
    assert tracks["left_arm.grid.mounts[1]"].group == "L. Arm" and tracks["hp"].group == ""


def test_mm_r12_a_mecha_picks_its_focus_and_a_tank_its_commander_action_each_turn(cat):
    mecha, tank = tracked(cat, unit("mecha")), tracked(cat, unit("tank"))
    assert mecha["focus"].options[1:] == ("Fire Control", "Evasion", "Defence", "Melee") and "commander" not in mecha
    assert tank["commander"].options[1:] == ("Look Around", "Hands On", "Fire Pintle Mount") and "focus" not in tank
    assert mecha["focus"].resets == tank["commander"].resets == "turn"
    assert "Vision 8 + 4 = 12" in tank["commander"].note


def test_mm_r09_a_tank_loads_one_of_its_ammunitions_a_mecha_chose_its_one_for_the_game(cat):
    tank = tracked(cat, unit("tank", ("cannon", "turret")))
    assert tank["hull.loaded.mounts[0]"].options == ("AP", "HE")
    mecha = tracked(cat, unit("mecha", ("autocannon", "r-arm", "HE")))
    assert not [k for k in mecha if ".loaded." in k]


def test_mm_c33_electronic_resistance_only_for_a_unit_without_electronic_defence(cat):
    assert tracked(cat, unit("tank"))["resistance"].resets == "turn"
    assert "resistance" not in tracked(cat, unit("tank", ("ed", "hull")))


def test_mm_c38_interceptor_shots_refill_each_turn(cat):
    shots = tracked(cat, unit("mecha", ("pd", "torso")))["torso.intercepts.mounts[0]"]
    assert (shots.high, shots.start, shots.resets) == (2, 2, "turn")


# --- what follows from a unit's state -----------------------------------------------------------------------------

def test_mm_c24_hp_0_and_the_unit_can_no_longer_fight(cat):
    tracks = tracked(cat, unit("mecha", ("hmg", "r-arm")))
    assert said(tracks, hp=1) == []
    end = one(said(tracks, hp=0), "MM-C24")
    assert end.severity == "error" and "HP 0 of 40" in end.message
    assert set(end.greys) == set(tracks) - {"hp"}


def test_mm_c24_the_pilot_lost_destroys_the_mecha(cat):
    tracks = tracked(cat, unit("mecha"))
    assert said(tracks, torso__grid__pilot=0) == []
    assert one(said(tracks, torso__grid__pilot=1), "MM-C24").severity == "error"


def test_mm_c24_the_whole_main_grid_lost_destroys_the_unit_with_hp_left(cat):
    tracks = tracked(cat, unit("vtol"))
    assert said(tracks, hull__grid__empty=6) == []
    end = one(said(tracks, hull__grid__empty=7), "MM-C24")
    assert "Hull grid is destroyed (7 of 7 hexes)" in end.message and "hp" in end.greys


def test_mm_c23_the_right_arm_blasted_off_greys_its_weapons_and_their_ammo(cat):
    tracks = tracked(cat, unit("mecha", ("hmg", "r-arm"), ("pod", "r-arm")))
    arm = {"right_arm.grid.empty": 2, "right_arm.grid.mounts[0]": 1, "right_arm.grid.mounts[1]": 0}
    assert "MM-C23" not in rules_of(table.UNIT.consequences(list(tracks.values()), arm))
    lost = one(table.UNIT.consequences(list(tracks.values()), {**arm, "right_arm.grid.mounts[1]": 1}), "MM-C23")
    assert "R. Arm destroyed (4 of 4 hexes): HMG, Pod lost" in lost.message and "Torso" in lost.message
    assert {"right_arm.grid.mounts[0]", "right_arm.ammo.mounts[1]"} <= set(lost.greys)


def test_mm_f10_equipment_is_unusable_from_half_its_hexes_rounded_up_and_destroyed_at_all(cat):
    tracks = tracked(cat, unit("mecha", ("mace", "l-arm"), ("reactor", "torso")))
    assert said(tracks, left_arm__grid__mounts_0_=0, torso__grid__mounts_1_=1) == []  # 1 of 3: still working
    mace = one(said(tracks, left_arm__grid__mounts_0_=1), "MM-F10")
    assert "Mace: 1 of 2 hexes lost, unusable" in mace.message
    assert "unusable" in one(said(tracks, torso__grid__mounts_1_=2), "MM-F10").message
    assert "destroyed" in one(said(tracks, torso__grid__mounts_1_=3), "MM-F10").message


def test_mm_f11_each_leg_parts_hex_costs_1_movement_the_whole_legs_grid_leaves_1(cat):
    tracks = tracked(cat, unit("mecha"))
    assert said(tracks, legs__grid__leg_parts=0) == []
    assert "Movement −2" in one(said(tracks, legs__grid__leg_parts=2), "MM-F11").message
    legs = said(tracks, legs__grid__leg_parts=2, legs__grid__empty=2)
    assert "Movement 1 for good" in one(legs, "MM-F11").message and "MM-C23" in rules_of(legs)


def test_mm_f12_a_tread_lost_costs_2_movement_both_immobilise(cat):
    tracks = tracked(cat, unit("tank"))
    assert said(tracks, hull__grid__treads=0) == []
    assert "Movement −2" in one(said(tracks, hull__grid__treads=1), "MM-F12").message
    assert "immobile" in one(said(tracks, hull__grid__treads=2), "MM-F12").message


def test_mm_f13_one_crew_lost_loses_the_commander_two_destroy_the_tank(cat):
    tracks = tracked(cat, unit("tank"))
    first = one(said(tracks, hull__grid__crew=1), "MM-F13")
    assert first.severity == "warning" and first.greys == ("commander",)
    assert one(said(tracks, hull__grid__crew=2), "MM-F13").severity == "error"


def test_mm_c36_emp_shock_takes_powered_and_sensitive_equipment_offline_and_leaves_w_and_c(cat):
    tracks = tracked(cat, unit("tank", ("ecm", "hull"), ("fcs", "hull")))
    assert tracks["emp"].lines == ("Ecm",) and said(tracks, emp=0) == []
    emp = one(said(tracks, emp=1), "MM-C36")
    assert "action pool W C" in emp.message and "hull.grid.mounts[0]" in emp.greys
    assert "hull.grid.mounts[1]" not in emp.greys


def test_mm_c36_emp_shock_crashes_a_flying_unit(cat):
    tracks = tracked(cat, unit("vtol"))
    assert tracks["emp"].facts == {"flies": 1} and said(tracks, emp=0) == []
    assert one(said(tracks, emp=1), "MM-C36").severity == "error"


def test_mm_c34_hacked_takes_sensitive_electronics_offline(cat):
    tracks = tracked(cat, unit("tank", ("ecm", "hull"), ("link", "hull")))
    assert said(tracks, hacked=0) == []
    hacked = one(said(tracks, hacked=1), "MM-C34")
    assert "Ecm, Link unusable" in hacked.message
    assert {"hull.grid.mounts[0]", "hull.grid.mounts[1]"} <= set(hacked.greys)


def test_mm_c35_jammed_for_one_turn_loses_the_lock_and_the_sensors(cat):
    tracks = tracked(cat, unit("tank", ("fcs", "hull"), ("ecm", "hull")))
    assert tracks["jammed"].resets == "turn" and tracks["jammed"].lines == ("FCS",)
    assert said(tracks, jammed=0, lock=1) == []
    jammed = one(said(tracks, jammed=1, lock=1), "MM-C35")
    assert "lock" in jammed.greys and "hull.grid.mounts[0]" in jammed.greys and "hull.grid.mounts[1]" not in jammed.greys


def test_mm_r41_limited_ammo_spent(cat):
    tracks = tracked(cat, unit("mecha", ("pod", "torso")))
    assert tracks["torso.ammo.mounts[0]"].high == 2
    assert said(tracks, torso__ammo__mounts_0_=1) == []
    assert "all 2 uses" in one(said(tracks, torso__ammo__mounts_0_=0), "MM-R41").message


def test_mm_r13_no_more_drones_deployed_than_working_controllers(cat):
    tracks = tracked(cat, unit("mecha", ("hive", "torso")))
    assert tracks["drones.deployed"].high == 1 and tracks["hacked"].lines == ("Hive",) and tracks["drones.docked"].high == 2
    assert said(tracks, drones__deployed=1) == []
    over = said(tracks, drones__deployed=1, torso__grid__mounts_0_=1)
    assert "1 drone deployed, 0 working Drone Controllers" in one(over, "MM-R13").message
    assert "MM-R13" not in rules_of(said(tracks, drones__deployed=1, hacked=1))  # hacked: the hacker's drone


# --- a company ----------------------------------------------------------------------------------------------------

def company_tracks(cat, **fields):
    document = {"format": "hardpoint.build/1", "ruleset": "megamercs", "kind": "company", "pack": PACK,
                "name": "Test company", **fields}
    build = company.parse(document)
    return table.COMPANY.tracks(build, cat, company.validate(build, cat, {}), {})


def company_said(tracks, state):
    return table.COMPANY.consequences(tracks, state)


def test_a_company_tracks_its_written_in_units_as_units_and_names_them(cat):
    tracks = company_tracks(cat, units=[{"unit": {"name": "Lead", "chassis": "tank", "mounts": []}},
                                        {"build": "abcd1234"}])
    keys = {t.key for t in tracks}
    assert {"units[0].hp", "units[0].hull.grid.crew"} <= keys and not [k for k in keys if k.startswith("units[1]")]
    lost = company_said(tracks, {"units[0].hull.grid.crew": 1})
    assert one(lost, "MM-F13").message.startswith("Lead (1): 1 Crew lost") and one(lost, "MM-F13").greys == \
        ("units[0].commander",)


def test_mm_r13_a_carrier_deploys_one_drone_per_controller(cat):
    tracks = company_tracks(cat, units=[{"unit": {"name": "Hive", "chassis": "mecha",
                                                  "mounts": [{"item": "controller", "hardpoint": "torso"}]}}],
                            drones=[{"drone": "mule", "controller": 0}, {"drone": "scout", "controller": 0,
                                                                          "docked": True}])
    keyed = {t.key: t for t in tracks}
    assert keyed["drones[0].status"].mark == 1 and keyed["drones[1].status"].options == ("Deployed", "Docked", "Crashed")
    assert company_said(tracks, {}) == []
    assert "2 drones deployed with 1 controller" in one(company_said(tracks, {"drones[1].status": 0}), "MM-R13").message


def test_a_drone_at_0_hp_or_0_ish_or_crashed_is_destroyed(cat):
    tracks = company_tracks(cat, units=[{"unit": {"name": "Hive", "chassis": "mecha",
                                                  "mounts": [{"item": "controller", "hardpoint": "torso"}]}}],
                            drones=[{"drone": "scout", "controller": 0}])
    assert company_said(tracks, {"drones[0].hp": 1, "drones[0].ish": 1}) == []
    assert "HP 0" in one(company_said(tracks, {"drones[0].hp": 0}), "MM-C24").message
    assert "ISH 0" in one(company_said(tracks, {"drones[0].ish": 0}), "MM-R18").message
    assert "crashed" in one(company_said(tracks, {"drones[0].status": 2}), "MM-C36").message


def test_mm_r17_a_squad_with_no_members_left_is_wiped_out(cat):
    tracks = company_tracks(cat, infantry=[{"item": "riflemen", "count": 2}])
    assert [t.key for t in tracks] == ["infantry[0][0].members", "infantry[0][1].members"]
    assert company_said(tracks, {"infantry[0][1].members": 1}) == []
    assert "Riflemen 2: no members left" in one(company_said(tracks, {"infantry[0][1].members": 0}), "MM-R17").message


def test_mm_c50_an_aircraft_out_of_ahp_is_lost(cat):
    tracks = company_tracks(cat, aircraft=[{"item": "jet"}])
    assert tracks[0].high == 4 and company_said(tracks, {"aircraft[0][0].ahp": 1}) == []
    assert one(company_said(tracks, {"aircraft[0][0].ahp": 0}), "MM-C50").greys == ("aircraft[0][0].ahp",)


def test_a_company_has_no_preview_to_play_into():
    assert table.COMPANY.played is None and table.COMPANY.played_note


# --- the unit as the table leaves it, for the preview -------------------------------------------------------------

def played(example, **state):
    checked = store.check(example)
    tracks = table.UNIT.tracks(checked.build, checked.catalogue, checked.report, checked.linked)
    after = table.UNIT.played(example, tracks, state)
    return checked, store.check(after)


def preview(checked, **situation):
    return checked.kind.preview(checked.build, checked.catalogue, {"target": {}, "situation": situation},
                                checked.linked, report=checked.report)


def named(example_name):
    return next(e for e in examples("unit") if e["name"] == example_name)


def test_played_takes_a_destroyed_weapon_off_and_the_preview_loses_its_attack(packs):
    shrike = named("Shrike Battery")
    fresh, hurt = played(shrike, **{"right_arm.grid.mounts[1]": 1})
    assert [m["item"] for m in hurt.document["mounts"]] == ["howitzer", "mace", "target-marker", "ecm-pod"]
    before, after = preview(fresh, distance=1), preview(hurt, distance=1)
    assert "HMG" in [a["name"] for a in before["attacks"]] and "HMG" not in [a["name"] for a in after["attacks"]]
    assert shrike["mounts"][1]["item"] == "hmg"  # the saved document is untouched


def test_played_under_emp_shock_loses_the_ecm_and_with_it_jamming(packs):
    fresh, shocked = played(named("Shrike Battery"), emp=1)
    assert "ecm-pod" not in [m["item"] for m in shocked.document["mounts"]]
    assert preview(fresh, jam_attempt=True)["ewar"]["jam"]["p"] == 1.0
    assert preview(shocked, jam_attempt=True)["ewar"]["jam"]["p"] == 0.0


def test_played_with_the_fire_control_destroyed_lowers_the_tn_and_the_expected_damage(packs):
    fresh, hurt = played(named("Goshawk Line"), **{"torso.grid.mounts[3]": 1})
    before = {a["name"]: a for a in preview(fresh, distance=3)["attacks"]}
    after = {a["name"]: a for a in preview(hurt, distance=3)["attacks"]}
    gun = next(name for name in before if name.startswith("30 mm Autocannon"))
    assert after[gun]["tn"] == before[gun]["tn"] - 10
    assert after[gun]["expected_damage"] < before[gun]["expected_damage"]


def test_played_out_of_limited_ammo_no_longer_fires_and_a_destroyed_unit_fires_nothing(packs):
    hornet = named("Hornet Hunter")
    _, empty = played(hornet, **{"hull.ammo.mounts[1]": 0})
    assert "seeker-missiles" not in [m["item"] for m in empty.document["mounts"]]
    _, spare = played(hornet, **{"hull.ammo.mounts[1]": 1})
    assert "seeker-missiles" in [m["item"] for m in spare.document["mounts"]]
    _, wreck = played(hornet, hp=0)
    assert wreck.document["mounts"] == [] and preview(wreck)["attacks"] == []
