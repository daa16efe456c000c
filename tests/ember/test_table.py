"""Ember at the table (Kind.tabletop): a Mech's Link, Stance, Command Tokens, Fragile and Immobilized, each Part
card's state with what it gives, a Handheld Part's Discard side and its actions' Ammo, Charge and Interception; a
squad's written-in Mechs and Drones. Each rule drawn from their values is tested past its limit and at it; E-R25
holds the tracks of a masked Mech to naming nothing of its secret Parts; and the played Mech the preview reads loses
its Destroyed Parts, fights on its Discard side and in its Stance."""
from dataclasses import asdict

import pytest

from builder import store
from catalogue.loader import latest_pack
from catalogue.rulesets.ember import table
from catalogue.rulesets.ember.places import SLOT_LABELS
from catalogue.rulesets.ember.secrecy import SECRECY
from tests.ember.documents import PARTS, mech
from tests.helpers.tables import one, rules_of, well_formed

pytestmark = pytest.mark.django_db
SECRETS = {"torso": ("hollow-choir-torso", "veil-recon-torso"), "right_arm": ("needle-coil-arm", "stormcoil-arm")}


def examples(kind):
    return [dict(e) for e in latest_pack("ember", kind).examples if e["kind"] == kind]


def named(name, kind="mech"):
    return next(e for e in examples(kind) if e["name"] == name)


def tracked(document, tabletop=table.MECH):
    checked = store.check(document)
    return checked, tabletop.tracks(checked.build, checked.catalogue, checked.report, checked.linked)


def keyed(tracks):
    return {t.key: t for t in tracks}


def said(tracks, tabletop=table.MECH, **state):
    """The consequences of a state given as keyword arguments (`__` for a dot, `_N_` for `[N]`)."""
    values = {}
    for key, value in state.items():
        for n in range(4):
            key = key.replace(f"_{n}_", f"[{n}]")
        values[key.replace("__", ".")] = value
    known = keyed(tracks)
    assert set(values) <= set(known), set(values) - set(known)
    return tabletop.consequences(tracks, {k: pick(known[k], v) for k, v in values.items()})


def pick(track, value):
    return track.options.index(value) if isinstance(value, str) else value


# --- a Mech's tracks ----------------------------------------------------------------------------------------------

def test_tracks_of_every_pack_mech_are_unique_in_range_ruled_and_as_its_report_counts(packs):
    for example in examples("mech"):
        checked, tracks = tracked(example)
        well_formed(tracks)
        known, stats, items = keyed(tracks), checked.report.stats, checked.catalogue.items
        assert (known["link"].high, known["link"].start) == (stats["link"].value,) * 2
        assert (known["commands"].high, known["commands"].start) == (stats["commands"].value,) * 2
        assert known["stance"].options[known["stance"].start].lower() == checked.build.stance
        for token, stat in (("ammo", "ammo"), ("intercept", "interception")):
            counted = [t for t in tracks if t.key.startswith(f"{token}.")]
            assert sum(t.high for t in counted) == stats[stat].value and all(t.start == t.high for t in counted)
        assert sum(1 for t in tracks if t.key.startswith("charge.")) == stats["charge"].value
        parts = [t for t in tracks if t.key.startswith("part.")]
        assert [t.key for t in parts] == [f"part.{s}" for s in SLOT_LABELS if s in example["parts"]]
        for t in parts:
            card = items[example["parts"][t.key[5:]]]
            assert t.label == card.name and t.group == SLOT_LABELS[card.slot] and t.start == 0
            assert set(a.name for a in card.actions) <= set(t.lines)
        values = [t.facts for t in parts]
        assert sum(v["Dodge"] for v in values) == stats["dodge"].value
        assert sum(v["EV"] for v in values) == stats["electronic"].value


def test_e_r28_a_part_without_structure_is_never_damaged_and_one_with_it_is(packs):
    _, tracks = tracked(named("Choirmaster"))
    known = keyed(tracks)
    assert known["part.backpack"].options == ("Intact", "Destroyed", "Repaired")  # Sable Capacitor Pack: no Structure
    assert known["part.torso"].options == ("Intact", "Damaged", "Destroyed")  # a Destroyed Torso ends the Mech
    assert known["part.right_arm"].options == ("Intact", "Damaged", "Destroyed", "Repaired")
    assert "Structure 3" in known["part.torso"].lines and "Command Generation 3" in known["part.torso"].lines


def test_e_r24_tokens_start_on_the_side_deployment_places_and_a_handheld_part_can_drop_its_weapon(packs):
    _, tracks = tracked(named("Choirmaster"))
    known = keyed(tracks)
    ammo = known["ammo.right_arm[0]"]
    assert (ammo.label, ammo.high, ammo.start, ammo.lines) == ("Heavy Round Ammo", 2, 2, ("Heavy Round",))
    assert known["charge.backpack[0]"].high == 1 and known["charge.backpack[0]"].start == 0
    assert known["discard.right_arm"].label == "Discard side: Magma Arm (empty cradle)"
    assert known["commands"].resets == "round" and not known["link"].resets
    _, dropped = tracked({**named("Choirmaster"), "discarded": ["right_arm"]})
    known = keyed(dropped)
    assert "discard.right_arm" not in known and "ammo.right_arm[0]" not in known  # no Heavy Round on that side
    assert known["part.right_arm"].label == "Magma Arm (empty cradle)" and "Freehand" in known["part.right_arm"].lines


# --- E-R25: a masked Mech's tracks name nothing of its secret Parts -----------------------------------------------

def shade(twin):
    parts = {**PARTS, **{slot: cards[twin] for slot, cards in SECRETS.items()}}
    return {**mech(name="Shade", pilot="mara-keln", parts=parts, secret=sorted(SECRETS)),
            "pack": latest_pack("ember", "mech").ref}


def public(document):
    checked = store.check(document)
    return SECRECY.public(document, checked.catalogue)


def test_e_r25_a_masked_part_is_a_secret_part_naming_no_card(packs):
    checked, tracks = tracked(public(shade(0)))
    well_formed(tracks)
    known = keyed(tracks)
    for slot in SECRETS:
        assert known[f"part.{slot}"].label == "secret Part" and known[f"part.{slot}"].lines == ()
        assert not [t for t in tracks if f".{slot}" in t.key and not t.key.startswith("part.")]
    text = str([asdict(t) for t in tracks]).lower()
    for card in (checked.catalogue.items[key] for pair in SECRETS.values() for key in pair):
        assert card.name.lower() not in text and all(a.name.lower() not in text for a in card.actions)
    _, whole = tracked(shade(0))
    assert keyed(whole)["part.torso"].label == checked.catalogue.items["hollow-choir-torso"].name
    assert "Kept secret from the opponent" in keyed(whole)["part.torso"].note


def test_e_r25_two_mechs_alike_but_for_their_secret_parts_have_the_same_tracks_and_consequences(packs):
    (_, one_), (_, other) = tracked(public(shade(0))), tracked(public(shade(1)))
    assert [asdict(t) for t in one_] == [asdict(t) for t in other]
    state = {"part__right_arm": "Destroyed", "part__left_arm": "Damaged"}
    assert said(one_, **state) == said(other, **state)
    destroyed = one(said(one_, **state), "E-R28").message
    assert destroyed.startswith("Right Arm (secret Part) is Destroyed: what it gives no longer counts")
    assert "secret Parts'" in one(said(one_, part__chassis="Destroyed"), "D-13").message


# --- what follows from a Mech's state -----------------------------------------------------------------------------

@pytest.fixture
def cinder(packs):
    return tracked(named("Cinder"))


def test_d21_a_destroyed_torso_destroys_the_mech_and_greys_every_other_track(cinder):
    _, tracks = cinder
    found = said(tracks, part__torso="Destroyed", part__left_arm="Destroyed", part__backpack="Destroyed",
                 part__chassis="Destroyed")
    assert rules_of(found) == ["D-21"] and found[0].severity == "error"
    assert set(found[0].greys) == {t.key for t in tracks} - {"part.torso"}
    assert "D-21" not in rules_of(said(tracks, part__torso="Damaged"))


def test_e_r20_two_parts_left_is_integrity_loss(cinder):
    _, tracks = cinder  # five Parts
    found = one(said(tracks, part__left_arm="Destroyed", part__right_arm="Destroyed", part__backpack="Destroyed"),
                "E-R20")
    assert found.severity == "error" and found.message.startswith("2 Parts left") and "End Phase" in found.message


def test_e_r20_three_parts_left_is_no_integrity_loss(cinder):
    _, tracks = cinder
    assert "E-R20" not in rules_of(said(tracks, part__left_arm="Destroyed", part__backpack="Destroyed"))


def test_e_r20_a_repaired_part_counts_among_the_parts_left(cinder):
    _, tracks = cinder
    three = dict(part__left_arm="Destroyed", part__right_arm="Destroyed")
    assert "E-R20" in rules_of(said(tracks, part__backpack="Destroyed", **three))
    repaired = said(tracks, part__backpack="Repaired", **three)
    assert "E-R20" not in rules_of(repaired)
    assert "no Defense Roll" in one([c for c in repaired if "Repaired" in c.message], "E-R28").message


def test_e_r28_a_destroyed_part_gives_nothing_costs_a_link_and_greys_its_tokens(cinder):
    checked, tracks = cinder
    pod = checked.catalogue.items["hearth-interceptor-pod"]
    found = one(said(tracks, part__backpack="Destroyed"), "E-R28")
    assert found.greys == ("intercept.backpack[0]",) and "Link −1" in found.message
    assert f"EV {pod.electronic}, {pod.actions[0].name} no longer count" in found.message
    assert f"Armor {pod.armor}" not in found.message  # its own defence, not the Mech's
    assert not said(tracks, part__backpack="Intact")


def test_e_r28_a_damaged_part_still_counts(cinder):
    _, tracks = cinder
    assert "E-R28" not in rules_of(said(tracks, part__backpack="Damaged"))


def test_d10_a_destroyed_chassis_leaves_no_maneuver(cinder):
    _, tracks = cinder
    assert "no Maneuver" in one(said(tracks, part__chassis="Destroyed"), "E-R28").message
    assert "no Maneuver" not in one(said(tracks, part__backpack="Destroyed"), "E-R28").message


def test_d15_a_damaged_part_rolls_its_structure(cinder):
    checked, tracks = cinder
    arm = checked.catalogue.items["breaker-blade-arm"]
    found = one(said(tracks, part__right_arm="Damaged"), "D-15")
    assert f"Structure {arm.structure} White dice, not Armor {arm.armor}" in found.message and not found.greys


def test_d13_dodge_and_electronic_value_follow_the_parts_in_play(cinder):
    checked, tracks = cinder
    stats, legs = checked.report.stats, checked.catalogue.items["strider-legs"]
    found = one(said(tracks, part__chassis="Destroyed"), "D-13")
    assert found.message.startswith(f"Dodge {stats['dodge'].value - legs.dodge} (was {stats['dodge'].value})")
    assert "D-13" not in rules_of(said(tracks, part__chassis="Damaged"))


def test_e_r21_no_chassis_or_arm_left_is_no_punch_or_crawl(cinder):
    _, tracks = cinder
    gone = dict(part__left_arm="Destroyed", part__right_arm="Destroyed")
    assert "E-R21" in rules_of(said(tracks, part__chassis="Destroyed", **gone))
    assert "E-R21" not in rules_of(said(tracks, part__chassis="Repaired", **gone))


def test_e_r07_on_its_discard_side_an_action_missing_there_loses_its_tokens(packs):
    _, tracks = tracked(named("Choirmaster"))
    found = one(said(tracks, discard__right_arm=1), "E-R07")
    assert found.greys == ("ammo.right_arm[0]",) and "Magma Arm (empty cradle)" in found.message
    assert "E-R07" not in rules_of(said(tracks, discard__right_arm=0))


def test_d19_link_0_is_shutdown_and_link_1_is_not(cinder):
    _, tracks = cinder
    assert one(said(tracks, link=0), "D-19").severity == "warning"
    assert "D-19" not in rules_of(said(tracks, link=1))


def test_d07_shutdown_allows_only_reboot_and_greys_the_action_tokens(cinder):
    _, tracks = cinder
    found = one(said(tracks, link=0, stance="Shutdown"), "D-07")
    assert set(found.greys) == {t.key for t in tracks if t.key.split(".")[0] in table.TOKENS}
    assert "D-19" not in rules_of(said(tracks, link=0, stance="Shutdown"))  # already in Shutdown
    assert "D-07" not in rules_of(said(tracks, stance="Mobility"))


def test_d22_no_ammo_left_and_one_left(packs):
    _, tracks = tracked(named("Cinder"))
    found = one(said(tracks, ammo__torso_0_=0), "D-22")
    assert "all 3 Ammo spent" in found.message and "D-22" not in rules_of(said(tracks, ammo__torso_0_=1))


def test_d15_d16_fragile_and_immobilized_tokens(cinder):
    _, tracks = cinder
    assert "2 White dice fewer" in one(said(tracks, fragile=2), "D-15").message
    assert not said(tracks, fragile=0, immobilized=0)
    assert "no Blue dice" in one(said(tracks, immobilized=1), "D-16").message


# --- the Mech as the table leaves it, for the preview ------------------------------------------------------------

def played(document, **state):
    checked, tracks = tracked(document)
    known = keyed(tracks)
    values = {k.replace("__", "."): pick(known[k.replace("__", ".")], v) for k, v in state.items()}
    return checked, store.check(table.MECH.played(document, tracks, values))


def preview(checked):
    return checked.kind.preview(checked.build, checked.catalogue, {"target": {"armor": 4, "structure": 3}},
                                checked.linked, report=checked.report)


def attacks(checked):
    return {a["name"]: a for a in preview(checked)["attacks"]}


def test_played_takes_a_destroyed_part_off_and_the_preview_loses_its_attack(packs):
    cinder = named("Cinder")
    fresh, hurt = played(cinder, part__right_arm="Destroyed")
    assert "right_arm" not in hurt.document["parts"] and cinder["parts"]["right_arm"] == "breaker-blade-arm"
    assert "Cleaving Stroke" in attacks(fresh) and "Cleaving Stroke" not in attacks(hurt)
    pod = fresh.catalogue.items[cinder["parts"]["backpack"]]
    _, podless = played(cinder, part__backpack="Destroyed")
    scan = [preview(m)["electronic"][0] for m in (fresh, podless)]
    assert scan[1]["dice"] == scan[0]["dice"] - pod.electronic and scan[1]["p_success"] < scan[0]["p_success"]
    _, damaged = played(cinder, part__right_arm="Damaged")
    assert damaged.document["parts"] == fresh.document["parts"]  # the preview reads no damage of its own Parts


def test_played_on_its_discard_side_fights_with_the_bare_claw(packs):
    fresh, dropped = played(named("Cinder"), discard__right_arm=1)
    assert dropped.document["discarded"] == ["right_arm"] and dropped.report.legal
    assert "Claw Rake" in attacks(dropped) and "Cleaving Stroke" not in attacks(dropped)


def test_played_in_another_stance_changes_the_odds_and_shutdown_keeps_the_document_stance(packs):
    cinder = named("Cinder")  # deployed Offensive: hollow icons count
    fresh, guarded = played(cinder, stance="Defensive")
    assert guarded.document["stance"] == "defensive"
    assert attacks(guarded)["Cleaving Stroke"]["p_penetration"] < attacks(fresh)["Cleaving Stroke"]["p_penetration"]
    _, off = played(cinder, stance="Shutdown")
    assert off.document["stance"] == cinder["stance"]


def test_played_with_the_torso_destroyed_fields_nothing(packs):
    _, wreck = played(named("Cinder"), part__torso="Destroyed")
    assert wreck.document["parts"] == {} and preview(wreck)["attacks"] == []


def test_played_of_a_masked_mech_drops_a_destroyed_secret_part_from_its_masked_slots(packs):
    document = public(shade(0))
    _, after = played(document, part__right_arm="Destroyed")
    assert after.document["masked"] == ["torso"] and "right_arm" not in after.document["parts"]


# --- a squad: its written-in Mechs and its Drones -----------------------------------------------------------------

def test_tracks_of_every_pack_squad_are_its_written_in_mechs_and_each_drone(packs):
    for example in examples("squad"):
        checked, tracks = tracked(example, table.SQUAD)
        well_formed(tracks)
        known = keyed(tracks)
        for i, entry in enumerate(example["mechs"]):
            written = entry["mech"]
            assert [k for k in known if k.startswith(f"mechs[{i}].part.")] == \
                [f"mechs[{i}].part.{s}" for s in SLOT_LABELS if s in written["parts"]]
            assert known[f"mechs[{i}].link"].group == written["name"]
            assert known[f"mechs[{i}].part.torso"].group == f"{written['name']} · Torso"
        for d, entry in enumerate(example["drones"]):
            drone = checked.catalogue.items[entry["drone"]]
            states = [known[f"drones[{d}][{n}].state"] for n in range(entry["count"])]
            assert [s.label for s in states] == ([f"{drone.name} {n + 1}" for n in range(entry["count"])]
                                                 if entry["count"] > 1 else [drone.name])
            assert all(s.options[-1] == "Destroyed" for s in states)
            for j, action in enumerate(drone.actions):
                if action.ammo:
                    assert known[f"drones[{d}][0].ammo[{j}]"].high == action.ammo


def test_a_written_in_mech_keeps_its_own_consequences_under_its_name(packs):
    _, tracks = tracked(named("Ember Vanguard", "squad"), table.SQUAD)
    found = one(said(tracks, table.SQUAD, mechs_0___part__torso="Destroyed"), "D-21")
    assert found.message.startswith("Cinder: Torso") and all(k.startswith("mechs[0].") for k in found.greys)
    assert "D-21" not in rules_of(said(tracks, table.SQUAD, mechs_1___part__torso="Damaged"))


def test_d15_a_drone_is_damaged_then_destroyed_and_removed(packs):
    checked, tracks = tracked(named("Furnace Choir", "squad"), table.SQUAD)
    walker = checked.catalogue.items["bastion-walker"]
    lines = keyed(tracks)["drones[0][0].state"].lines
    assert [f"Load: {checked.catalogue.items[key].name}" for key in walker.load] == [l for l in lines if "Load" in l]
    assert walker.load and "Heavy Turret" in lines  # E-R11: it carries a Part, which gives it nothing
    damaged = one(said(tracks, table.SQUAD, drones_0__0___state="Damaged"), "D-15")
    assert f"Structure {walker.structure} White dice, not Armor {walker.armor}" in damaged.message
    destroyed = one(said(tracks, table.SQUAD, drones_0__0___state="Destroyed"), "D-15")
    assert destroyed.greys == ("drones[0][0].ammo[0]",) and "removed" in destroyed.message
    assert not said(tracks, table.SQUAD, drones_0__0___state="Intact")


def test_d22_a_drone_out_of_ammo(packs):
    _, tracks = tracked(named("Furnace Choir", "squad"), table.SQUAD)
    assert "Heavy Turret" in one(said(tracks, table.SQUAD, drones_0__0___ammo_0_=0), "D-22").message
    assert not said(tracks, table.SQUAD, drones_0__0___ammo_0_=1)


def test_a_squad_has_no_preview_to_play_into():
    assert table.SQUAD.played is None and table.SQUAD.played_note
