"""LANCER pages and sheets, driven by the starter pack's example pilots: the builder offers everything with its
licence, the pilot and mech sheets print the chapter's table rules with their IDs, the lance page rolls up its
pilots, and the PDF prints on A4 and Letter with the house-rule profile."""
import re

import pytest

from builder import store
from tests.helpers.html_forms import read_form
from tests.helpers.pdf import page_sizes, pdf_text
from tests.lancer.factories import sheets, text

pytestmark = pytest.mark.django_db


def test_the_sheets_are_one_for_the_pilot_and_one_a_mech(examples):
    pilot, *mechs = sheets(examples["Ilse Marrow"])
    assert len(mechs) == 2 and "Gravestone Choir" in mechs[0] and "Seawall" in mechs[1]
    assert "BELLTOWER" in pilot and "Blow Something Up +6" in text(pilot)


def test_l_r08_l_r40_a_superheavy_prints_barrage_only_and_its_braced_mount(examples):
    choir = text(sheets(examples["Ilse Marrow"])[1])
    assert "Skyfall Battery" in choir and "Barrage only, no Overwatch (L-R08)" in choir
    assert "left empty to brace the Superheavy weapon" in choir
    assert "Overwatch: when an enemy starts moving inside your Threat, Skirmish at it (L-R40)" in choir


def test_l_r12_threat_1_where_a_weapon_prints_none(examples):
    drover = text(sheets(examples["Mara Okonjo"])[1])
    assert "Range 10, Threat 1" in drover  # the Service Carbine names only a Range
    assert "Range 5, Threat 1 " in drover and "Threat 1, Threat 1" not in drover


def test_l_r13_l_r38_reaction_boxes_once_a_round(examples):
    drover = text(sheets(examples["Mara Okonjo"])[1])
    assert "Reactions Brace Overwatch each once a round, one reaction a turn (L-R13, L-R38)" in drover


def test_l_r14_size_and_footprint(examples):
    choir, seawall = sheets(examples["Ilse Marrow"])[1:]
    assert "Size 3: 3×3 spaces" in text(choir) and "Size 2: 2×2 spaces" in text(seawall)
    assert "jumps up to 1 across and 3 up" in text(choir)  # Speed 3 (Agility 1 adds nothing)
    assert "moves through and ignores engagement from size ½, 1, 2" in text(choir)
    assert "the side counts size 4" in text(choir) and "Falling: 3 spaces 3, 6 spaces 6, 9 spaces 9, 12 spaces 12" in text(choir)
    assert "every character obstructs it" not in text(choir)


def test_l_r18_l_b08_repair_heat_and_hp_boxes_match_the_derived_stats(examples):
    report = store.check(examples["Ilse Marrow"]).report
    stats = report.detail.mechs[0].stats
    choir = sheets(examples["Ilse Marrow"])[1]
    tracks = dict(re.findall(r'<div class="track"><strong>(\w+)</strong> <span class="boxes">((?:<span></span>)*)', choir))
    assert tracks["HP"].count("<span>") == stats["hp"].value == 10 + 4 + 6
    assert tracks["Heat"].count("<span>") == stats["heatcap"].value == 8 + 3
    assert tracks["Repairs"].count("<span>") == stats["repcap"].value == 5 + 1
    assert tracks["Structure"].count("<span>") == 4 and tracks["Stress"].count("<span>") == 4


def test_l_b14_house_rules_change_the_tracks_and_print_in_the_header(examples):
    beta = {**examples["Mara Okonjo"], "house_rules": {"stress": "none", "structure-zero": "critical",
                                                      "overcharge": "beta"}}
    pilot, drover = sheets(beta)
    assert "No Stress track" in text(drover) and "at 0: CRITICAL" in text(drover)
    assert "Overcharge 1 heat → 1d3 heat → 1d6 heat → 1d6+3 heat" in text(drover)
    assert "Reactor Stress" in text(pilot) and "no Stress" in text(pilot)  # the house rules in use


def test_l_r09_talents_print_on_the_mech_sheet_not_the_pilots(examples):
    pilot, kingfisher, _ = sheets(examples["Dace Varro"])
    assert "Riposte" in text(kingfisher) and "Riposte" not in text(pilot)
    assert "Talents do nothing for a pilot on foot, their weapons or their gear (L-R09)" in text(pilot)


def test_l_r10_a_mech_with_an_ai_is_marked(examples):
    choir, seawall = sheets(examples["Ilse Marrow"])[1:]
    assert "acts without its pilot, without the pilot's talents (L-R10)" in text(choir)
    assert "(L-R10)" not in text(seawall)


def test_l_r19_l_r23_l_r48_l_r05_the_pilot_on_foot(examples):
    pilot = text(sheets(examples["Mara Okonjo"])[0])
    assert "On foot (L-R05): HP 6 + Grit, Evasion 10, E-Defense 10, Armor 0, Size ½, Speed 4" in pilot
    assert "drags or lifts nothing larger than size ½ (L-R19)" in pilot
    assert "immune to tech actions and takes heat as energy damage (L-R23)" in pilot
    assert "Pilot actions (L-R48):" in pilot and "Jockey" in pilot


def test_l_r20_l_r45_eject_box(examples):
    assert "Eject once per full repair, then Impaired until repaired; the pilot flies 6 (L-R20, L-R45)" in text(
        sheets(examples["Mara Okonjo"])[1])


def test_l_r21_tags_print_by_the_packs_names_with_their_values(examples):
    choir = text(sheets(examples["Ilse Marrow"])[1])
    assert "Arcing, Limited 2, Heat 3 (Self)" in choir


def test_l_r22_system_effects_print_protocols_included(examples):
    thimble = text(sheets(examples["Dace Varro"])[2])
    assert "Protocol: until the end of the turn this mech is resistant to kinetic damage; take 2 heat." in thimble


def turn_rule(examples, rule: str) -> str:
    """The sentence of the mech sheet's turn that cites `rule`."""
    printed = text(sheets(examples["Mara Okonjo"])[1])
    return next(s for s in re.split(r"(?<=\)\.)|(?<=\);)", printed) if f"({rule})" in s or f"{rule})" in s)


def test_l_r30_the_action_economy(examples):
    assert "One move and two quick actions or one full action" in turn_rule(examples, "L-R30")


def test_l_r32_skirmish(examples):
    assert "Skirmish (quick): one weapon, plus an auxiliary" in turn_rule(examples, "L-R32")


def test_l_r33_barrage(examples):
    assert "Barrage (full): two weapons or one Superheavy" in turn_rule(examples, "L-R33")


def test_l_r34_bonus_damage_on_one_target(examples):
    assert "bonus damage to one target only" in turn_rule(examples, "L-R34")


def test_l_r35_full_tech(examples):
    assert "Full Tech: two quick techs on different targets or one full tech" in turn_rule(examples, "L-R35")


def test_l_r36_reactions_resolve_first(examples):
    assert "Reactions resolve before their trigger" in turn_rule(examples, "L-R36")


def test_l_r37_moves_split_actions_do_not(examples):
    assert "moves split around actions, actions never split" in turn_rule(examples, "L-R37")


def test_l_r39_brace(examples):
    assert "Brace: resistance to the triggering attack, then +1 Difficulty" in turn_rule(examples, "L-R39")


def test_l_r41_prepare(examples):
    assert "Prepare holds a quick action for a trigger" in turn_rule(examples, "L-R41")


def test_l_r42_disengage(examples):
    assert "Disengage (full) ignores engagement" in turn_rule(examples, "L-R42")


def test_l_r43_stabilize(examples):
    assert "Stabilize (full): cool or spend a Repair, and reload, end Burn or clear a condition" in turn_rule(
        examples, "L-R43")


def test_l_r44_shut_down_and_boot_up(examples):
    assert "Shut Down (quick), Boot Up (full)" in turn_rule(examples, "L-R44")


def test_l_r46_self_destruct(examples):
    assert "Self Destruct: burst 2, 4d6 explosive, an Agility check halves; the pilot inside dies" in turn_rule(
        examples, "L-R46")


def test_l_r47_one_bolster(examples):
    assert "One Bolster at a time" in turn_rule(examples, "L-R47")


def test_l_r49_no_reactions_while_grappling(examples):
    assert "none while grappling, grappled, dragging or lifting" in turn_rule(examples, "L-R49")


def test_l_r31_the_overcharge_track_prints_its_steps(examples):
    assert "Overcharge 1 heat → 1d3 heat → 1d6 heat → 1d6+4 heat" in text(sheets(examples["Mara Okonjo"])[1])


def test_the_pdf_prints_on_a4_and_letter_with_every_sheet(client, examples, tmp_path):
    build = store.create(store.check(examples["Ilse Marrow"]))
    a4 = client.get(f"/s/{build.share_id}.pdf?paper=a4")
    letter = client.get(f"/s/{build.share_id}.pdf?paper=letter")
    assert a4.status_code == letter.status_code == 200
    assert set(page_sizes(a4.content, tmp_path)) == {"595.276 x 841.89 pts (A4)"}
    assert set(page_sizes(letter.content, tmp_path)) == {"612 x 792 pts (letter)"}
    printed = pdf_text(a4.content, tmp_path, layout=False)
    for words in ("Ilse Marrow", "Gravestone Choir", "Seawall", "Skyfall Battery", "Structure", "Stress", "CORE power"):
        assert words in printed, words


def test_l_b13_the_builder_offers_every_frame_and_item_with_its_licence(client, examples):
    html = client.post("/new/lancer/pilot/", {"pack": examples["Mara Okonjo"]["pack"], "name": "T", "ll": "0",
                                               "add-mech": "mf_cairn"}).content.decode()
    assert "⚠ Bastion — Size 2 · Defender · HP 12 · Evasion 6 · SP 5 · Mounts Main, Heavy — breaks L-B13: Bastion 2: " \
           "Bastion needs the Bastion licence at rank 2; the pilot has rank 0." in html
    assert "⚠ Cairn Mortar — Main Launcher · 1d6 explosive · Range 15, Blast 1 — breaks L-B13: Cairn 1: Cairn Mortar " \
           "needs the Cairn licence at rank 1; the pilot has rank 0." in html
    assert re.search(r'data-code="L-B13"[^>]*>.*?Cairn needs the Cairn licence at rank 2; the pilot has rank 0', html, re.S)


def test_a_new_frame_keeps_the_mounts_it_can_and_saving_round_trips(client, examples):
    response = client.get("/new/lancer/pilot/?example=1")
    values, _ = read_form(response.content.decode())
    values["mech-1-frame"] = ["mf_wren"]  # Thimble: Drover (Main, Flex, Heavy) → Wren (Main, Aux/Aux)
    html = client.post("/new/lancer/pilot/", {k: v for k, v in values.items()}).content.decode()
    assert 'name="mech-1-mount-count" value="2"' in html and "Thornlance" in html


def test_l_r50_the_lance_page_says_who_acts_first(client, examples):
    build = store.create(store.check(examples["Dace Varro"]))
    lance = {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "lance", "pack": examples["Dace Varro"]["pack"],
             "name": "Blue", "pilots": [{"build": build.share_id}]}
    saved = store.create(store.check(lance))
    html = client.get(f"/s/{saved.share_id}/").content.decode()
    assert "Players act first each round; sides alternate (L-R50)" in html
    assert "Dace Varro" in html and "Kingfisher" in html and "LL3" in html


def test_a_weapon_comes_off_its_mount_with_its_mod(client, examples):
    values, _ = read_form(client.get("/new/lancer/pilot/?example=1").content.decode())
    assert values["mech-0-mount-0-weapon-0"] == ["mw_needle_rifle"] and values["mech-0-mount-0-mod-0"] == ["mm_hairtrigger"]
    values["mech-0-mount-0-weapon-0"] = [""]
    html = client.post("/new/lancer/pilot/", values).content.decode()
    after, _ = read_form(html)
    assert after["mech-0-mount-0-weapon-0"] == ["mw_falchion_blade"] and after["mech-0-mount-0-mod-0"] == [""]


def test_a_new_pilot_points_to_the_comp_con_import(client, packs):
    html = client.get("/new/lancer/pilot/").content.decode()
    assert 'href="/#import">Import a COMP/CON pilot</a>' in html
    assert 'id="import"' in client.get("/").content.decode()
