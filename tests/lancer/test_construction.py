"""LANCER 1.0 construction (Hardpoint's codes L-B01 to L-B14): each advancement budget at its limit and past it,
the derived statistics with their computations, mount fittings, SP, mods, Unique and AI systems, licence gating."""
import pytest

from catalogue.rulesets.lancer import construction as c
from catalogue.rulesets.lancer.schema import Frame, Mod, System, Weapon

SKILLS = {"act_unseen": 1, "apply_fists": 1, "assault": 1, "blow_something_up": 1}
LL0 = dict(hase={"hull": 1, "agility": 1}, triggers=SKILLS, talents={"ace": 1, "brawler": 1, "crack_shot": 1})


def codes(pilot):
    return {i.code for i in c.check_pilot(pilot)}


def test_l_b01_licence_level_0_to_12():
    assert "L-B01" not in codes(c.Pilot(ll=12, hase={}, triggers=SKILLS))
    assert "L-B01" in codes(c.Pilot(ll=13)) and "L-B01" in codes(c.Pilot(ll=-1))


@pytest.mark.parametrize("ll, ceil, floor", [(0, 0, 0), (1, 1, 0), (3, 2, 1), (12, 6, 6)])
def test_l_b02_grit_is_half_the_level_rounded_up(ll, ceil, floor):
    assert c.grit(ll) == ceil and c.grit(ll, "floor") == floor


def test_l_b03_hase_budget_and_cap():
    assert codes(c.Pilot(ll=0, **LL0)) == set()
    assert "L-B03" in codes(c.Pilot(ll=0, **{**LL0, "hase": {"hull": 2, "agility": 1}}))  # 3 of 2
    assert "L-B03" not in codes(c.Pilot(ll=4, **{**LL0, "hase": {"hull": 6}}))  # 6 of 6, at the cap
    assert "L-B03" in codes(c.Pilot(ll=6, **{**LL0, "hase": {"hull": 7}}))  # over the cap of 6


def test_l_b04_triggers_four_at_start_then_one_rank_a_level():
    assert "L-B04" not in codes(c.Pilot(ll=2, **{**LL0, "triggers": {**SKILLS, "assault": 3}}))  # 6 of 6
    assert "L-B04" in codes(c.Pilot(ll=2, **{**LL0, "triggers": {**SKILLS, "assault": 3, "pull_rank": 1}}))
    assert "L-B04" in codes(c.Pilot(ll=0, **{**LL0, "triggers": {"assault": 1}}))  # fewer than four
    assert "L-B04" in codes(c.Pilot(ll=12, **{**LL0, "triggers": {**SKILLS, "assault": 4}}))  # rank 4: +8
    assert [c.trigger_bonus(r) for r in (1, 2, 3)] == [2, 4, 6]


def test_l_b05_talents_three_ranks_then_one_a_level():
    assert "L-B05" not in codes(c.Pilot(ll=1, **{**LL0, "talents": {"ace": 2, "brawler": 1, "crack_shot": 1}}))
    assert "L-B05" in codes(c.Pilot(ll=0, **{**LL0, "talents": {"ace": 2, "brawler": 1, "crack_shot": 1}}))
    assert "L-B05" in codes(c.Pilot(ll=12, **{**LL0, "talents": {"ace": 4}}))


def test_l_b06_licence_ranks_one_a_level_at_most_three_each():
    assert "L-B06" not in codes(c.Pilot(ll=3, **LL0, licences={"balor": 3}))
    assert "L-B06" in codes(c.Pilot(ll=3, **LL0, licences={"balor": 3, "drake": 1}))
    assert "L-B06" in codes(c.Pilot(ll=4, **LL0, licences={"balor": 4}))


def test_l_b07_a_core_bonus_at_3_6_9_12():
    assert [c.budgets(ll)["core_bonuses"] for ll in (2, 3, 5, 6, 12)] == [0, 1, 1, 2, 4]
    assert "L-B07" not in codes(c.Pilot(ll=3, **LL0, core_bonuses=["auto_stabilizing"]))
    assert "L-B07" in codes(c.Pilot(ll=2, **LL0, core_bonuses=["auto_stabilizing"]))


FRAME = c.FrameStats(size=1, hp=10, armor=1, evasion=8, edef=8, heatcap=6, repcap=5, sensor_range=10,
                     tech_attack=0, save=10, speed=4, sp=6)


def test_l_b08_derived_stats_with_their_computations():
    stats = c.derived(FRAME, ll=3, hase={"hull": 2, "agility": 3, "systems": 1, "engineering": 2})
    values = {k: v for k, (v, _) in stats.items()}
    assert values == {"hp": 10 + 2 + 4, "repcap": 5 + 1, "evasion": 8 + 3, "speed": 4 + 1, "edef": 8 + 1,
                      "tech_attack": 0 + 1, "sp": 6 + 2 + 0, "heatcap": 6 + 2, "limited_bonus": 1, "save": 10 + 2,
                      "sensor_range": 10, "armor": 1, "structure": 4, "stress": 4, "size": 1, "ai_cap": 1}
    assert stats["hp"][1] == "frame 10 + Grit 2 + 2 × Hull 2"


@pytest.mark.parametrize("size, steps, grown", [(0.5, 1, 1), (1, 1, 2), (2, 1, 3), (3, 1, 3), (1, 2, 3)])
def test_l_b08_a_size_bonus_counts_whole_sizes_to_at_most_3(size, steps, grown):
    """Fomorian Frame's +1 size, as COMP/CON reads it: ½ grows to 1 (not 1½), 1 to 2, and nothing past 3."""
    frame = c.FrameStats(**{**FRAME.__dict__, "size": size})
    assert c.derived(frame, 0, {}, extra=[c.Bonus("size", steps, "Fomorian Frame")])["size"][0] == grown


def test_l_b08_structured_bonuses_add_to_the_final_stats_naming_their_source():
    """lancer-data's `bonuses`: numbers, "{ll}"/"{grit}" templates; scoped ones and dice lists stay text."""
    found = c.bonuses([{"id": "hp", "val": 2}, {"id": "sensor", "val": "{grit}"}, {"id": "armor", "val": "1 + {ll}"},
                       {"id": "range", "val": 1, "weapon_types": ["Melee"]},
                       {"id": "overcharge", "val": ["1", "1d3", "1d6", "1d6"]}], "Test Kit", ll=3, grit_=2)
    assert found == [c.Bonus("hp", 2, "Test Kit"), c.Bonus("sensor", 2, "Test Kit"), c.Bonus("armor", 4, "Test Kit")]
    stats = c.derived(FRAME, ll=3, hase={}, extra=found)
    assert stats["hp"] == (10 + 2 + 2, "frame 10 + Grit 2 + 2 × Hull 0 +2 Test Kit")
    assert stats["sensor_range"][0] == 12 and stats["armor"] == (4, "frame 1 +4 Test Kit, at most 4")


def test_l_b14_armor_at_most_4():
    heavy = c.FrameStats(**{**FRAME.__dict__, "armor": 5})
    assert c.derived(heavy, 0, {})["armor"][0] == 4
    assert c.derived(c.FrameStats(**{**FRAME.__dict__, "armor": 4}), 0, {})["armor"][0] == 4


@pytest.mark.parametrize("mount, sizes, ok", [
    ("Aux", ["Aux"], True), ("Aux", ["Main"], False), ("Main", ["Main"], True), ("Main", ["Aux"], True),
    ("Main", ["Aux", "Aux"], False), ("Flex", ["Aux", "Aux"], True), ("Flex", ["Main", "Aux"], False),
    ("Heavy", ["Heavy"], True), ("Heavy", ["Main"], True), ("Heavy", ["Heavy", "Aux"], False),
    ("Main/Aux", ["Main", "Aux"], True), ("Main/Aux", ["Aux", "Main"], True), ("Aux/Aux", ["Aux", "Aux"], True),
    ("Aux/Aux", ["Main"], False),
])
def test_l_b09_mount_fittings(mount, sizes, ok):
    assert c.fits(mount, sizes) is ok


def test_l_b09_a_superheavy_takes_a_heavy_mount_and_another():
    assert c.superheavy_fits(["Heavy", "Main"]) and not c.superheavy_fits(["Heavy"])
    assert not c.superheavy_fits(["Main", "Flex"])


def test_l_b13_licence_gating():
    assert c.licensed(0, None, {})
    assert c.licensed(2, "balor", {"balor": 2}) and not c.licensed(3, "balor", {"balor": 2})
    assert not c.licensed(1, "drake", {"balor": 3})


# --- load-outs ---------------------------------------------------------------------------------------------

def weapon(key, mount="Main", kind="Rifle", ll=0, licence=None):
    return Weapon.model_validate({"id": key, "name": key.title(), "mount": mount, "type": kind,
                                  "license_level": ll, "license_id": licence})


def system(key, sp=1, kind="System", tags=(), ll=0, licence=None):
    return System.model_validate({"id": key, "name": key.title(), "sp": sp, "type": kind,
                                  "tags": [{"id": t} for t in tags], "license_level": ll, "license_id": licence})


def mod(key, sp=1, **limits):
    return Mod.model_validate({"id": key, "name": key.title(), "sp": sp, **limits})


KITE = Frame.model_validate({
    "id": "kite", "name": "Kite", "license_level": 2, "license_id": "kite", "mechtype": ["Striker"],
    "mounts": ["Main", "Flex", "Heavy"], "core_system": {"name": "Burst"},
    "stats": {"size": 1, "armor": 1, "hp": 8, "evasion": 10, "edef": 8, "heatcap": 5, "repcap": 4,
              "sensor_range": 10, "tech_attack": 0, "save": 10, "speed": 6, "sp": 5}})
LICENCES = {"kite": 2}


def mech_codes(mounts, systems=(), sp=6, licences=LICENCES):
    return {i.code for i in c.check_mech(KITE, mounts, list(systems), sp, licences)}


def test_l_b09_a_loadout_fits_its_mounts():
    ok = [c.Mount("Main", [weapon("rifle")]), c.Mount("Flex", [weapon("a", "Auxiliary"), weapon("b", "Auxiliary")]),
          c.Mount("Heavy", [weapon("cannon", "Heavy", "Cannon")])]
    assert "L-B09" not in mech_codes(ok)
    assert "L-B09" in mech_codes([c.Mount("Main", [weapon("cannon", "Heavy", "Cannon")])])


def test_l_b09_a_superheavy_weapon_needs_a_braced_second_mount():
    gun = weapon("railgun", "Superheavy", "Cannon")
    assert "L-B09" not in mech_codes([c.Mount("Heavy", [gun]), c.Mount("Main", bracing=True)])
    assert "L-B09" in mech_codes([c.Mount("Heavy", [gun]), c.Mount("Main", [weapon("rifle")])])
    assert "L-B09" in mech_codes([c.Mount("Main", [gun]), c.Mount("Heavy", bracing=True)])


def test_l_b10_systems_and_mods_within_sp():
    assert "L-B10" not in mech_codes([c.Mount("Main", [weapon("rifle")], [mod("scope", 2)])], [system("a", 4)], sp=6)
    assert "L-B10" in mech_codes([c.Mount("Main", [weapon("rifle")], [mod("scope", 2)])], [system("a", 5)], sp=6)


def test_l_b11_one_mod_a_weapon_of_its_kind():
    rifle = weapon("rifle")
    assert "L-B11" not in mech_codes([c.Mount("Main", [rifle], [mod("scope", allowed_types=["Rifle"])])])
    assert "L-B11" in mech_codes([c.Mount("Main", [rifle], [mod("scope"), mod("barrel")])])
    assert "L-B11" in mech_codes([c.Mount("Main", [rifle], [mod("edge", allowed_types=["Melee"])])])
    assert "L-B11" in mech_codes([c.Mount("Main", [rifle], [mod("big", restricted_sizes=["Main"])])])


def test_l_b12_unique_systems_and_one_ai():
    unique = system("reactor", tags=["tg_unique"])
    assert "L-B12" not in mech_codes([], [unique, system("plate"), system("plate")])
    assert "L-B12" in mech_codes([], [unique, unique])
    assert "L-B12" in mech_codes([], [system("nhp", kind="AI"), system("comp", tags=["tg_ai"])])
    two = [system("nhp", kind="AI"), system("comp", tags=["tg_ai"])]
    assert "L-B12" not in {i.code for i in c.check_mech(KITE, [], two, 6, LICENCES, ai_cap=2)}  # Lesson of Shaping
    assert c.derived(FRAME, 0, {}, extra=[c.Bonus("ai_cap", 1, "The Lesson of Shaping")])["ai_cap"][0] == 2


def test_l_b13_licence_gating_of_the_frame_and_its_gear():
    gated = weapon("lance", ll=3, licence="kite")
    assert "L-B13" not in mech_codes([c.Mount("Main", [weapon("rifle")])])
    codes = mech_codes([c.Mount("Main", [gated])])
    assert "L-B13" in codes
    assert "L-B13" in mech_codes([], licences={})  # the frame itself needs Kite 2


def test_l_b07_a_core_bonus_needs_three_ranks_in_its_makers_frames():
    from types import SimpleNamespace as Item
    frames = [Item(key="drover", source="CMF", license_level=0), Item(key="kite", source="VNT", license_level=2),
              Item(key="jay", source="VNT", license_level=2)]
    optics, overbuild = Item(name="Optics", source="VNT"), Item(name="Overbuild", source="CMF")
    assert c.check_core_bonuses([optics], {"kite": 2, "jay": 1}, frames) == []  # 3 ranks across two frames
    short = c.check_core_bonuses([overbuild, optics], {"kite": 2}, frames)
    assert [(i.code, i.path) for i in short] == [("L-B07", "core_bonuses[1]")] and "has 2" in short[0].message


def test_l_b09_mount_types_from_core_bonuses():
    """The frame's mounts, Main/Aux where Mount Retrofitting refits one; past them the mount a CORE bonus adds."""
    mounts = ["Main", "Heavy"]
    assert [c.mount_type(mounts, 1, None), c.mount_type(mounts, 1, "cb_mount_retrofitting")] == ["Heavy", "Main/Aux"]
    assert [c.mount_type(mounts, 2, b) for b in ("cb_improved_armament", "cb_integrated_weapon", None)] == \
        ["Flex", "Aux", None]
    assert c.adds_mount("cb_improved_armament", ["Main", "Heavy", "Integrated"])  # integrated mounts do not count
    assert not c.adds_mount("cb_improved_armament", ["Main", "Flex", "Heavy"])
    assert c.adds_mount("cb_integrated_weapon", ["Main", "Flex", "Heavy"]) and not c.adds_mount("cb_ghost", [])


def test_l_b11_the_integrated_weapon_mount_takes_no_mod():
    knife = weapon("knife", "Auxiliary", "Melee")
    edge = mod("edge", allowed_types=["Melee"])
    names = {"cb_integrated_weapon": "Integrated Weapon"}

    def issues(mods):
        mount = c.Mount("Aux", [knife], mods, core_bonus="cb_integrated_weapon")
        return [(i.code, i.message) for i in c.check_bonus_mounts(KITE, [c.Mount("Main"), c.Mount("Flex"),
                                                                         c.Mount("Heavy"), mount],
                                                                 ["cb_integrated_weapon"], names)]

    assert issues([]) == [] and issues([None]) == []
    assert issues([edge]) == [("L-B11", "The weapon on the mount Integrated Weapon adds takes no mod.")]
