"""METALLURGENT at the table (Kind.tabletop): an Anvil's EN, Heat, Charge, Fuel, each Component's Damage Step and AP,
ammunition, Shields, Orders and Chipsets, and a Pilot's Mettle and Skill uses; each rule drawn from their values tested
at its limit and past it, and the played Anvil the preview reads (its Components' conditions, its Shields jettisoned)."""
import pytest

from builder import store
from builder.kinds.metallurgent.anvil import trackers
from catalogue.loader import latest_pack
from catalogue.rulesets.base import Linked
from catalogue.rulesets.metallurgent import pilots, table
from catalogue.rulesets.metallurgent.schema import COMPONENT_SLOTS
from tests.metallurgent.pilot_factories import learn, pilot, pilots_catalogue, spec
from tests.helpers.tables import one, rules_of, well_formed

VANGUARD, DEFENDER, COMMANDER = "Hailwall Vanguard", "Breakwater Defender", "Isobar Commander"
DISABLED, DESTROYED = 3, 4  # the condition's index among Intact, Damaged, Degraded, Disabled, Destroyed


def examples():
    return [dict(e) for e in latest_pack("metallurgent", "anvil").examples]


def named(name, **changes):
    return {**next(e for e in examples() if e["name"] == name), **changes}


def checked_tracks(document):
    checked = store.check(document)
    return checked, table.ANVIL.tracks(checked.build, checked.catalogue, checked.report, checked.linked)


def tracked(document):
    return {t.key: t for t in checked_tracks(document)[1]}


def said(tracks, **state):
    """The consequences of a state given as keyword arguments: `__` for a dot, `_N_` for `[N]`."""
    values = {}
    for key, v in state.items():
        for n in range(10):
            key = key.replace(f"_{n}_", f"[{n}]")
        values[key.replace("__", ".")] = v
    assert set(values) <= set(tracks), set(values) - set(tracks)
    return table.ANVIL.consequences(list(tracks.values()), values)


# --- an Anvil's tracks ----------------------------------------------------------------------------------------------

def test_tracks_of_every_pack_anvil_are_unique_in_range_ruled_and_as_its_report_and_pack_count(packs):
    for example in examples():
        checked, tracks = checked_tracks(example)
        well_formed(tracks)
        keyed, stats, items = {t.key: t for t in tracks}, checked.report.stats, checked.catalogue.items
        generator = items[example["parts"]["generator"]]
        assert keyed["en"].high == keyed["en"].start == stats["en_capacity"].value
        assert keyed["heat"].mark == generator.heat_tolerance and keyed["heat"].start == 0
        assert keyed["charge"].high == generator.charge_capacity and keyed["fuel"].high == stats["fuel"].value
        for slot in COMPONENT_SLOTS:
            part = items[example["parts"][slot]]
            assert keyed[f"ap.{slot}"].high == keyed[f"ap.{slot}"].start == part.ap
            assert keyed[f"condition.{slot}"].options[keyed[f"condition.{slot}"].start] == "Intact"
        for i, entry in enumerate(example["gear"]):
            item = items[entry["item"]]
            if getattr(item, "magazine", None):
                assert keyed[f"gear[{i}].magazine"].high == item.magazine
            if getattr(item, "reserve", 0):
                assert keyed[f"gear[{i}].reserve"].high == item.reserve
            if getattr(item, "type", "") == "shield":
                assert keyed[f"gear[{i}].ap"].high == item.ap


def test_the_sheet_and_the_table_count_the_same_boxes(packs):
    """One source (tracks.py): the printed sheet's Trackers rows are the table's header, Orders and Shield counts."""
    for example in examples():
        checked, tracks = checked_tracks(example)
        keyed = {t.label: t for t in tracks}
        for row in trackers(checked.resolved, checked.report.stats):
            assert len(row["boxes"]) == keyed[row["label"]].high, row["label"]
            assert row["note"].startswith(keyed[row["label"]].note)


def test_each_component_groups_its_gear_and_lists_it_as_its_lines(packs):
    tracks = tracked(named(VANGUARD))
    left = tracks["condition.left_arm"]
    assert left.group == "Left Arm" and left.lines == ("Hailstone Assault Rifle", "Windbreak Buckler")
    assert {k for k, t in tracks.items() if t.group == "Left Arm"} == {
        "condition.left_arm", "ap.left_arm", "gear[0].magazine", "gear[0].reserve", "gear[1].ap"}


def test_m_r07_a_component_starts_at_its_saved_condition(packs):
    tracks = tracked(named(VANGUARD, condition={"left_arm": "degraded"}))
    assert tracks["condition.left_arm"].options[tracks["condition.left_arm"].start] == "Degraded"
    assert tracks["condition.core"].start == 0


def test_m_r07_ap_at_0_rolls_the_next_damage_step(packs):
    tracks = tracked(named(VANGUARD))
    step = one(said(tracks, ap__right_arm=0, condition__right_arm=1), "M-R07")
    assert "Right Arm at 0 AP: roll on its Degraded table" in step.message and "refills to 26" in step.message
    assert "M-R07" not in rules_of(said(tracks, ap__right_arm=1))


# --- M-R45: a Disabled or Destroyed Component -----------------------------------------------------------------------

def test_m_r45_destroyed_arm_greys_its_gear(packs):
    tracks = tracked(named(VANGUARD))
    down = one(said(tracks, condition__left_arm=DESTROYED), "M-R45")
    assert down.message.startswith("Left Arm is Destroyed (M-R45)")
    assert "Hailstone Assault Rifle and Windbreak Buckler are Offline" in down.message
    assert "Load no longer counts" in down.message
    assert set(down.greys) == {"ap.left_arm", "gear[0].magazine", "gear[0].reserve", "gear[1].ap"}


def test_m_r45_degraded_arm_keeps_its_gear(packs):
    tracks = tracked(named(VANGUARD))
    assert said(tracks, condition__left_arm=2) == []


def test_m_r45_disabled_arm_takes_its_gear_offline_by_default(packs):
    down = one(said(tracked(named(VANGUARD)), condition__left_arm=DISABLED), "M-R45")
    assert "gear[0].magazine" in down.greys and "Load stays" in down.message


def test_m_r45_disabled_gear_working_reading_keeps_the_gear_until_destroyed(packs):
    tracks = tracked(named(VANGUARD, house_rules={"disabled-gear": "working"}))
    disabled = one(said(tracks, condition__left_arm=DISABLED), "M-R45")
    assert disabled.greys == ("ap.left_arm",) and "are still working" in disabled.message
    destroyed = one(said(tracks, condition__left_arm=DESTROYED), "M-R45")
    assert "gear[0].magazine" in destroyed.greys


def test_m_r45_disabled_weapon_arm_greys_its_integrated_weapon(packs):
    down = one(said(tracked(named(DEFENDER)), condition__left_arm=DISABLED), "M-R45")
    assert "integrated weapon no longer fires" in down.message
    assert set(down.greys) == {"ap.left_arm", "weapon.left_arm.magazine", "weapon.left_arm.reserve"}


def test_m_r45_disabled_core_removes_the_anvil_from_play(packs):
    tracks = tracked(named(VANGUARD))
    out = one(said(tracks, condition__core=DISABLED, heat=30), "M-R45")
    assert out.severity == "error" and "removed from play" in out.message
    assert set(out.greys) == set(tracks) - {"condition.core"}
    assert "M-R52" not in rules_of(said(tracks, condition__core=DISABLED, heat=30))  # no longer in the Sortie
    assert said(tracks, condition__core=2) == []


def test_m_r45_generator_down_powers_the_anvil_down(packs):
    tracks = tracked(named(DEFENDER))
    down = said(tracks, condition__generator=DESTROYED, heat=tracks["heat"].high)
    assert rules_of(down) == ["M-R45"]  # Power Down stops the Overheat
    assert {"en", "heat", "charge"} <= set(down[0].greys) and "Power Down with no Power Up" in down[0].message


# --- Heat, Fuel, Shields, ammunition, Orders, Chipsets -------------------------------------------------------------

def test_m_r52_heat_at_tolerance_is_no_overheat(packs):
    tracks = tracked(named(COMMANDER))
    assert said(tracks, heat=tracks["heat"].mark) == []


def test_m_r52_heat_past_tolerance_overheats_and_switches_the_lca_off(packs):
    tracks = tracked(named(COMMANDER))  # Liquid-cooled, Heat Tolerance 18, an LCA with an Offset
    hot = one(said(tracks, heat=19), "M-R52")
    assert "Heat 19 is over the Heat Tolerance of 18" in hot.message and "Isobar Command Array" in hot.message
    assert "base EN Capacity halved" in hot.message and "4 Special damage" in hot.message
    assert hot.greys == ("gear[0].orders",)


def test_m_r52_heat_runs_past_the_tolerance_on_the_table(packs):
    heat = tracked(named(VANGUARD))["heat"]
    assert heat.high >= heat.mark + 4


def test_m_r61_one_fuel_is_spent_for_charge_before_deployment(packs):
    tracks = tracked(named(VANGUARD))
    assert tracks["fuel"].start == tracks["fuel"].high - 1 and tracks["charge"].start == tracks["charge"].high


def test_m_r61_fuel_0_is_running_on_fumes(packs):
    tracks = tracked(named(VANGUARD))
    assert "Running on Fumes" in one(said(tracks, fuel=0), "M-R61").message
    assert said(tracks, fuel=1) == []


def test_m_r64_shield_at_0_ap_is_destroyed_and_jettisoned(packs):
    tracks = tracked(named(VANGUARD))
    gone = one(said(tracks, gear_1___ap=0), "M-R64")
    assert gone.greys == ("gear[1].ap",) and "Windbreak Buckler at 0 AP: Destroyed and jettisoned" in gone.message
    assert said(tracks, gear_1___ap=1) == []


def test_m_r63_reserve_is_what_the_anvil_carries(packs):
    example = named(VANGUARD)
    example["gear"] = [dict(g) for g in example["gear"]]
    example["gear"][0]["reserve"] = 5
    tracks = tracked(example)
    assert tracks["gear[0].reserve"].high == tracks["gear[0].reserve"].start == 5
    assert tracks["gear[0].magazine"].high == 6


def test_m_r63_an_empty_magazine(packs):
    tracks = tracked(named(VANGUARD))
    assert "Magazine empty" in one(said(tracks, gear_0___magazine=0), "M-R63").message
    assert said(tracks, gear_0___magazine=1, gear_0___reserve=0) == []


def test_m_r74_orders_are_held_up_to_the_order_limit_and_carry_over(packs):
    orders = tracked(named(COMMANDER))["gear[0].orders"]
    assert (orders.low, orders.high, orders.start, orders.resets) == (0, 4, 0, "")
    assert "gains 2 at the start of each Turn" in orders.note


def test_m_r71_each_loaded_chipset_copy_is_a_box_of_its_own(packs):
    example = named(COMMANDER)
    example["gear"] = [dict(g) for g in example["gear"]]
    example["gear"][0]["chipsets"] = ["squall-line-barrage", "squall-line-barrage"]
    tracks = tracked(example)
    boxes = [tracks["gear[0].chipsets[0]"], tracks["gear[0].chipsets[1]"]]
    assert all((t.low, t.high, t.options, t.group) == (0, 1, (), "Core") for t in boxes)
    assert set(one(said(tracks, heat=19), "M-R52").greys) == {"gear[0].orders", "gear[0].chipsets[0]",
                                                               "gear[0].chipsets[1]"}


# --- the Anvil as the table leaves it, for the preview --------------------------------------------------------------

def played(example, **state):
    checked, tracks = checked_tracks(example)
    after = table.ANVIL.played(checked.document, tracks, state)
    return checked, store.check(after)


def preview(checked, **situation):
    request = {"target": named(DEFENDER), "situation": {"range": 3, **situation}}
    return checked.kind.preview(checked.build, checked.catalogue, request, checked.linked, report=checked.report)


def test_played_writes_the_conditions_and_leaves_the_saved_document_alone(packs):
    example = named(VANGUARD)
    fresh, hurt = played(example, **{"condition.left_arm": DESTROYED, "condition.core": 1, "condition.generator": 0})
    assert hurt.document["condition"] == {"left_arm": "destroyed", "core": "damaged"}
    assert "condition" not in example and fresh.document.get("condition", {}) == {}
    assert "M-R07" in {i.code for i in hurt.report.issues}


def test_played_destroyed_left_arm_takes_its_rifle_and_punch_out_of_the_preview(packs):
    fresh, hurt = played(named(VANGUARD), **{"condition.left_arm": DESTROYED})
    before, after = preview(fresh), preview(hurt)
    keys = {a["key"] for a in before["attacks"]} - {a["key"] for a in after["attacks"]}
    assert {k.split("/")[0] for k in keys} == {"gear[0]", "punch-left_arm"}
    assert after["track"]["expected_damage"] < before["track"]["expected_damage"]


def test_played_damaged_arm_changes_nothing_the_preview_counts(packs):
    fresh, damaged = played(named(VANGUARD), **{"condition.left_arm": 1})
    assert preview(damaged)["attacks"] == preview(fresh)["attacks"]


def test_m_r64_played_jettisons_a_shield_at_0_ap_and_its_load(packs):
    fresh, after = played(named(VANGUARD), **{"gear[1].ap": 0})
    assert [g["item"] for g in after.document["gear"]] == [g["item"] for g in fresh.document["gear"] if
                                                           g["item"] != "windbreak-buckler"]
    assert after.report.stats["carried_load"].value == fresh.report.stats["carried_load"].value - 2


# --- a Pilot --------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def m_pilots():
    return pilots_catalogue()


def pilot_document(catalogue):
    price = lambda key: pilots.price(catalogue.items[key], "battlemaster")  # noqa: E731
    held = ["bm-quickstep", "bm-snap-turn", "bm-redline", "gd-just-a-scratch", "bm-open-throttle"]
    return pilot(catalogue, [spec("battlemaster"), *(learn(k, price(k)) for k in held)], xp=100)


def pilot_tracks(catalogue, document):
    report = pilots.validate(document, catalogue)
    assert report.legal, report.issues
    return {t.key: t for t in table.PILOT.tracks(pilots.parse(document), catalogue, report, {})}


def test_m_r107_a_skill_used_once_a_turn_round_or_sortie_is_a_box_that_refills_so(m_pilots):
    tracks = pilot_tracks(m_pilots, pilot_document(m_pilots))
    well_formed(list(tracks.values()))
    assert [(tracks[f"skill.{k}"].high, tracks[f"skill.{k}"].resets) for k in
            ("bm-quickstep", "bm-snap-turn", "gd-just-a-scratch")] == [(1, "turn"), (1, "round"), (1, "")]
    assert "skill.bm-open-throttle" not in tracks  # no frequency: as often as its conditions are met


def test_m_r107_a_frequency_of_more_than_one_counts_its_uses(m_pilots):
    skill = m_pilots.items["bm-snap-turn"].model_copy(update={"frequency": "2/Round"})
    uses = table.uses(skill, "")
    assert (uses.high, uses.resets) == (2, "round")


def test_m_r106_a_sustained_skill_is_switched_on_and_off_by_hand(m_pilots):
    on = pilot_tracks(m_pilots, pilot_document(m_pilots))["skill.bm-redline.on"]
    assert (on.low, on.high, on.resets) == (0, 1, "") and "2 Heat" in on.note


def test_m_r90_mettle_below_the_pilots_is_one_die_fewer_in_every_pool(m_pilots):
    tracks = pilot_tracks(m_pilots, pilot_document(m_pilots))
    assert (tracks["mettle"].high, tracks["mettle"].start, tracks["mettle"].low) == (6, 6, 1)
    assert table.PILOT.consequences(list(tracks.values()), {"mettle": 6}) == []
    [shaken] = table.PILOT.consequences(list(tracks.values()), {"mettle": 5})
    assert shaken.rule == "M-R90" and "1 die fewer" in shaken.message


def test_m_r90_the_played_pilots_mettle_is_what_the_anvils_preview_rolls(packs, m_pilots):
    document = pilot_document(m_pilots)
    tracks = pilot_tracks(m_pilots, document)
    shaken = table.PILOT.played(document, list(tracks.values()), {"mettle": 5})
    assert shaken["mettle"] == 5 and document.get("mettle", 6) == 6
    rolls = []
    for pilot_document_now in (document, shaken):
        linked = {"pilot-one": Linked("pilot-one", "pilot", "Test Pilot", pilot_document_now,
                                      store.check(pilot_document_now).report)}
        anvil = store.check(named(VANGUARD))
        build = anvil.kind.parse({**anvil.document, "pilot": "pilot-one"})
        result = anvil.kind.preview(build, anvil.catalogue, {"target": named(DEFENDER), "situation": {"range": 3}},
                                    linked)
        rolls.append(next(a["pool"] for a in result["attacks"] if a["key"] == "gear[0]"))
    assert rolls[1] == rolls[0] - 1
