"""DARK METAL at the table (Kind.tabletop): the Squad Leader's BHP, AHP, Power, Fate, ammunition, kit and injuries,
and each deployed ally's, from the pack examples' reports; each rule drawn from their values tested at its limit and
past it; and the Leader the table leaves for the preview (an injury taken lowers the pools it rolls)."""
import pytest

from builder import store
from catalogue.loader import catalogue_by_ref, latest_pack
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.darkmetal import rules, table
from tests.helpers.tables import well_formed

pytestmark = pytest.mark.django_db


@pytest.fixture
def pack(packs):
    return latest_pack("darkmetal", "leader")


@pytest.fixture
def examples(pack):
    return {e["name"]: document(pack, **e) for e in pack.examples}


def document(pack, /, **fields):
    return {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": pack.ref,
            "name": "Moroc", **fields}


def tracks_of(doc):
    checked = store.check(doc)
    return checked, table.LEADER.tracks(checked.build, checked.catalogue, checked.report, checked.linked)


def by_key(tracks):
    return {t.key: t for t in tracks}


def said(tracks, state):
    known = {t.key for t in tracks}
    assert set(state) <= known, set(state) - known
    return table.LEADER.consequences(tracks, state)


def of(consequences, rule, words=""):
    return [c for c in consequences if c.rule == rule and words in c.message]


# --- the tracks of every example -------------------------------------------------------------------------------

def test_dm_r68_dm_r69_dm_r72_every_examples_tracks_come_from_its_report(examples):
    for name, doc in examples.items():
        checked, tracks = tracks_of(doc)
        well_formed(tracks)
        found, report, build, items = by_key(tracks), checked.report, checked.build, checked.catalogue.items
        stats = {k: s.value for k, s in report.stats.items()}
        assert found["bhp"].high == found["bhp"].start == stats["bhp"]
        assert ("ahp" in found) == bool(stats["ahp"]) and (not stats["ahp"] or found["ahp"].start == stats["ahp"])
        assert ("power" in found) == bool(stats["power"])
        assert not stats["power"] or found["power"].start == stats["power"]
        assert found["fate.general"].start == stats["general_fate"]
        for row in report.detail.traits:
            assert (found[f"fate.{row.trait}"].start if row.fate else None) == (row.fate or None)
        for where in ("hands", "attach", "backpack"):
            for i, pick in enumerate(getattr(build, where)):
                item, track = items[pick.item], found.get(f"ammo.{where}[{i}]")
                assert (track is not None) == bool(getattr(item, "ammo", None)), (name, where, i)
                if track:
                    assert track.start == track.high == rules.carried_ammo(item.ammo, report.detail.ammo_bonus)
        for i, ally in enumerate(build.allies):
            template = items[ally.template]
            assert found[f"allies[{i}].bhp"].start == template.bhp and found[f"allies[{i}].bhp"].group == ally.name
            for j, key in enumerate(ally.weapons):
                assert (f"allies[{i}].ammo.weapons[{j}]" in found) == bool(getattr(items[key], "ammo", None))
        assert "injury.eye-damage" not in found  # the Injury rule is optional, and off in the examples
        assert said(tracks, {}) == [], name  # a fresh Leader and squad: nothing follows


def test_dm_r68_the_sheets_boxes(examples):
    _, tracks = tracks_of(examples["Moroc"])
    found = by_key(tracks)
    assert (found["bhp"].low, found["bhp"].high) == (0, 3)  # Squad Leader 3 BHP; nothing reads below 0 here
    assert (found["ahp"].high, found["fate.general"].high) == (4, 1)  # Combat Armor 4 AHP; one General Fate
    assert found["ammo.hands[1]"].label == "Heavy Pistol ammo (Hand 2)" and found["ammo.hands[1]"].high == 6
    assert [found[f"used.backpack[{i}]"].label for i in (0, 1)] == ["Trauma Kit used"] * 2
    assert found["allies[0].ammo.weapons[0]"].group == "Ash"


# --- wounds: AHP first, then BHP (DM-R68), knocked out at 0 (DM-R67) ---------------------------------------------

def test_dm_r68_ahp_gone_sends_damage_to_bhp(examples):
    _, tracks = tracks_of(examples["Moroc"])
    [gone] = of(said(tracks, {"ahp": 0}), "DM-R68")
    assert gone.severity == "warning" and "AHP is gone (0 of 4)" in gone.message and "(3 left)" in gone.message


def test_dm_r68_one_ahp_left_is_not_gone(examples):
    _, tracks = tracks_of(examples["Moroc"])
    assert said(tracks, {"ahp": 1}) == []


def test_dm_r68_bhp_lost_while_ahp_is_left_is_flagged(examples):
    _, tracks = tracks_of(examples["Moroc"])
    [early] = of(said(tracks, {"bhp": 2}), "DM-R68")
    assert early.severity == "info" and "lost 1 BHP with 4 AHP left" in early.message
    assert said(tracks, {"bhp": 2, "ahp": 0}) == of(said(tracks, {"bhp": 2, "ahp": 0}), "DM-R68", "AHP is gone")


def test_dm_r67_the_leader_at_0_bhp_is_knocked_out_and_his_gear_greyed(examples):
    _, tracks = tracks_of(examples["Brakk"])
    [down] = of(said(tracks, {"bhp": 0, "ahp": 0}), "DM-R67")
    assert down.severity == "error" and "knocked out of the scenario" in down.message
    assert "rest of the campaign" in down.message
    assert set(down.greys) == {"power", "fate.ath", "fate.pre", "fate.ins", "fate.awa", "ammo.attach[0]",
                               "used.backpack[0]"}  # General Fate stays: it rerolls the allies' dice too (L1394)


def test_dm_r67_the_leader_at_1_bhp_still_fights(examples):
    _, tracks = tracks_of(examples["Brakk"])
    assert of(said(tracks, {"bhp": 1, "ahp": 0}), "DM-R67") == []


def test_dm_r67_an_ally_at_0_bhp_is_knocked_out_with_its_gear(examples):
    _, tracks = tracks_of(examples["Brakk"])
    [down] = of(said(tracks, {"allies[1].bhp": 0, "allies[1].ahp": 0}), "DM-R67")
    assert down.message.startswith("Patch is at 0 BHP") and "Recruits" not in down.message
    assert down.greys == ("allies[1].ammo.weapons[0]", "allies[1].used.items[0]")
    assert of(said(tracks, {"allies[1].bhp": 1, "allies[1].ahp": 0}), "DM-R67") == []
    assert of(said(tracks, {"allies[1].ahp": 0}), "DM-R68", "Patch's AHP is gone (0 of 1)")


def test_dm_r67_a_knocked_out_recruit_is_not_revived(pack):
    doc = document(pack, allies=[{"name": "Kid", "template": "recruit", "weapons": ["standard-rifle"]}])
    _, tracks = tracks_of(doc)
    [down] = of(said(tracks, {"allies[0].bhp": 0}), "DM-R67")
    assert "Recruits are not revived unless the Captain is petitioned" in down.message


def test_dm_r64_allies_left_on_the_ship_have_no_tracks(pack):
    doc = document(pack, allies=[{"name": "Kid", "template": "recruit", "deployed": False}])
    _, tracks = tracks_of(doc)
    assert not [t for t in tracks if t.key.startswith("allies[")]


def test_dm_r68_an_allys_worn_armour_gives_its_ahp(pack):
    """Reading: worn armour replaces the template's AHP (the Medic's 1 AHP is its default Combat Suit, L1470)."""
    doc = document(pack, traits={"com": 4}, allies=[{"name": "Kid", "template": "recruit", "armor": "combat-armor"},
                                                     {"name": "Doc", "template": "rookie-medic"}])
    _, tracks = tracks_of(doc)
    found = by_key(tracks)
    assert found["allies[0].ahp"].high == 4 and found["allies[1].ahp"].high == 1


# --- ammunition (DM-R72, DM-R13, DM-R49) -------------------------------------------------------------------------

def test_dm_r72_a_weapon_out_of_ammo_is_greyed(examples):
    _, tracks = tracks_of(examples["Moroc"])
    [out] = of(said(tracks, {"ammo.hands[1]": 0}), "DM-R72")
    assert out.greys == ("ammo.hands[1]",) and "Heavy Pistol is out of ammo: it cannot shoot" in out.message
    assert "strikes as a basic melee weapon" in out.message and "Extra Ammo" in out.message


def test_dm_r72_one_round_left_still_fires(examples):
    _, tracks = tracks_of(examples["Moroc"])
    assert said(tracks, {"ammo.hands[1]": 1}) == []


def test_dm_r72_a_melee_weapon_out_of_ammo_keeps_its_plain_blow(examples):
    _, tracks = tracks_of(examples["Moroc"])
    [out] = of(said(tracks, {"ammo.hands[0]": 0}), "DM-R72")
    assert "Armed Melee Weapon is out of ammo: only its plain blow is left" in out.message


def test_dm_r72_a_power_weapon_recharges_from_power(pack):
    doc = document(pack, armor={"item": "power-suit"}, hands=[{"item": "beam-rifle"}])
    _, tracks = tracks_of(doc)
    [out] = of(said(tracks, {"ammo.hands[0]": 0}), "DM-R72")
    assert "1 Power adds 6 ammo (L758)" in out.message and "Extra Ammo" not in out.message
    assert by_key(tracks)["power"].lines == ("Beam Rifle",)


def test_dm_r13_every_single_round_adds_ten_percent(pack):
    plain, trained = document(pack, hands=[{"item": "standard-rifle"}]), document(
        pack, hands=[{"item": "standard-rifle"}], knowledge={"ars": 1})
    assert by_key(tracks_of(plain)[1])["ammo.hands[0]"].high == 10
    assert by_key(tracks_of(trained)[1])["ammo.hands[0]"].high == 11


def test_dm_r13_an_allys_arsenal_adds_ammo_too(examples):
    """Reading: an ally's default skills unlock the same abilities (Standard Infantry, Ars 1; Rookie Medic, none)."""
    found = by_key(tracks_of(examples["Brakk"])[1])
    assert found["allies[0].ammo.weapons[0]"].high == 11 and found["allies[1].ammo.weapons[0]"].high == 10


def test_dm_r49_consumables_are_ticked_once_used(examples):
    found = by_key(tracks_of(examples["Brakk"])[1])
    kit = found["used.backpack[0]"]
    assert (kit.low, kit.high, kit.start, kit.options) == (0, 1, 0, ()) and "Repairs 2 AHP" in kit.note


# --- Power (DM-R72) ----------------------------------------------------------------------------------------------

def test_dm_r72_power_spent(pack):
    doc = document(pack, armor={"item": "power-armor"}, attach=[{"item": "pw-a-melee", "at": [1]}])
    _, tracks = tracks_of(doc)
    [spent] = of(said(tracks, {"power": 0}), "DM-R72")
    assert "Power spent (0 of 6)" in spent.message and "PW A-Melee" in spent.message
    assert said(tracks, {"power": 1}) == []


def test_dm_r72_a_leader_without_power_has_no_power_track(examples):
    assert "power" not in by_key(tracks_of(examples["Moroc"])[1])


def test_dm_r18_sys_armour_leaves_cyber_power_uses_off_the_list(pack):
    catalogue = catalogue_by_ref(pack.ref)
    mods = rules.priced_in_order(catalogue, ["cyber-arm"])
    bare = document(pack, armor={"item": "evosuit"}, modifications=mods, backpack=[{"item": "backpack-battery"}])
    suited = document(pack, armor={"item": "power-suit"}, modifications=mods)
    assert by_key(tracks_of(bare)[1])["power"].lines == ("Cyber Arm",)
    assert by_key(tracks_of(suited)[1])["power"].lines == ()


def test_dm_r72_emergency_power_adds_one_past_the_capacity(pack):
    doc = document(pack, armor={"item": "power-suit"}, traits={"kno": 4}, knowledge={"eng": 3})
    found = by_key(tracks_of(doc)[1])
    assert (found["power"].start, found["power"].high, found["power"].mark) == (4, 5, 4)


# --- the optional Injury rule (DM-R71) and Not Dead Yet (L825) ----------------------------------------------------

def injured(pack, **fields):
    return document(pack, injury_rule=True, armor={"item": "combat-armor"},
                    hands=[{"item": "armed-melee-weapon"}], traits={"ath": 6, "kno": 3}, **fields)


def test_dm_r71_the_injury_table_only_with_the_rule(pack):
    found = by_key(tracks_of(injured(pack))[1])
    assert [k for k in found if k.startswith("injury.")] == [
        "injury.eye-damage", "injury.crippled-leg", "injury.crippled-arm", "injury.the-shakes", "injury.broken-rib",
        "injury.wicked-scar"]
    eye = found["injury.eye-damage"]
    assert eye.label == "Eye Damage (roll 1)" and eye.note.startswith("−1 Awareness, −1 Athletics")
    assert "after 2 campaigns +1 Instinct, +1 Precision" in eye.note and "+10% Rep" in eye.note
    assert "+10% Rep" not in found["injury.broken-rib"].note
    assert "−1 Move" in found["injury.crippled-leg"].note


def test_dm_r71_below_0_hp_calls_for_an_injury(pack):
    _, tracks = tracks_of(injured(pack))
    assert by_key(tracks)["bhp"].low == -table.PAST_ZERO  # the injury rule reads below 0
    [call] = of(said(tracks, {"bhp": -1, "ahp": 0}), "DM-R71")
    assert "roll two d6 and choose" in call.message


def test_dm_r71_a62_at_0_hp_no_injury_yet(pack):
    _, tracks = tracks_of(injured(pack))
    assert of(said(tracks, {"bhp": 0, "ahp": 0}), "DM-R71") == []


def test_dm_r71_an_injury_taken_says_what_it_does(pack):
    _, tracks = tracks_of(injured(pack))
    [taken] = of(said(tracks, {"bhp": -1, "ahp": 0, "injury.eye-damage": 1}), "DM-R71")
    assert taken.severity == "info" and taken.message.startswith("Injury taken, Eye Damage: −1 Awareness")


def test_dm_r71_one_injury_each_fall(pack):
    _, tracks = tracks_of(injured(pack))
    two = {"bhp": -1, "ahp": 0, "injury.eye-damage": 1, "injury.broken-rib": 1}
    assert of(said(tracks, two), "DM-R71", "2 injuries ticked")


def test_dm_r72_not_dead_yet_gives_a_second_fall(pack):
    _, tracks = tracks_of(injured(pack, knowledge={"sur": 3}))
    two = {"bhp": -1, "ahp": 0, "injury.eye-damage": 1, "injury.broken-rib": 1}
    assert of(said(tracks, {**two, "not_dead_yet": 1}), "DM-R71", "injuries ticked") == []
    assert of(said(tracks, two), "DM-R71", "injuries ticked")


def test_dm_r72_not_dead_yet_against_7_plus_the_damage_past_0(pack):
    _, tracks = tracks_of(injured(pack, knowledge={"sur": 3}))
    assert by_key(tracks)["not_dead_yet"].note.startswith("Once per Scenario")
    [roll] = of(said(tracks, {"bhp": -1, "ahp": 0}), "DM-R72", "Not Dead Yet")
    assert "Survival against 8" in roll.message and "back to 1" in roll.message
    [hopeless] = of(said(tracks, {"bhp": -4, "ahp": 0}), "DM-R72", "Not Dead Yet")
    assert "against 11" in hopeless.message and "no d10 reaches it" in hopeless.message
    assert of(said(tracks, {"bhp": 0, "ahp": 0, "not_dead_yet": 1}), "DM-R72", "Not Dead Yet") == []
    assert of(said(tracks, {"bhp": 1, "ahp": 0}), "DM-R72", "Not Dead Yet") == []


# --- played: the injuries taken, which the preview's pools read ---------------------------------------------------

def preview(doc, **situation):
    checked = store.check(doc)
    kind = ACTIVE["darkmetal"].kind("leader")
    return kind.preview(checked.build, checked.catalogue, {"situation": situation}, checked.linked,
                        report=checked.report)


def test_played_leaves_a_fresh_leader_as_it_is(examples):
    doc = store.check(examples["Brakk"]).document
    _, tracks = tracks_of(doc)
    hurt = {"bhp": 1, "ahp": 0, "power": 0, "ammo.attach[0]": 0, "allies[0].bhp": 0}
    played = table.LEADER.played(doc, tracks, hurt)
    assert played == doc and played is not doc  # HP, ammunition and Power: the preview reads none of them


def test_dm_r71_played_writes_the_injury_and_the_preview_rolls_fewer_dice(pack):
    doc = store.check(injured(pack, campaign=2)).document
    _, tracks = tracks_of(doc)
    played = table.LEADER.played(doc, tracks, {"bhp": -1, "ahp": 0, "injury.eye-damage": 1})
    assert doc["injuries"] == [] and played["injuries"] == [{"item": "eye-damage", "campaign": 2}]
    checked = store.check(played)
    fresh_ath = next(t.pool for t in store.check(doc).report.detail.traits if t.trait == "ath")
    assert next(t.pool for t in checked.report.detail.traits if t.trait == "ath") == fresh_ath - 1
    before = preview(doc, close_combat=True)["attacks"][0]
    after = preview(played, close_combat=True)["attacks"][0]
    assert after["dice"] == before["dice"] - 1
    assert after["p_hit"] < before["p_hit"] and after["expected_damage"] < before["expected_damage"]


def test_every_rule_id_is_in_the_rule_index(examples, pack):
    index = ACTIVE["darkmetal"].rules()
    docs = [*examples.values(), injured(pack, knowledge={"sur": 3})]
    for doc in docs:
        _, tracks = tracks_of(doc)
        assert {t.rule for t in tracks} <= set(index)
        worst = {t.key: t.low for t in tracks}
        assert {c.rule for c in said(tracks, worst)} <= set(index)
