"""DARK METAL readings of unclear rules as house rules: each option's default is the reading
docs/rulesets/darkmetal.md gives, and each other choice changes what it says in the validator, the derived stats
or the preview (one test per option)."""
from catalogue.rulesets.darkmetal import RULESET
from catalogue.rulesets.darkmetal import preview as dm
from catalogue.rulesets.darkmetal import rules
from catalogue.rulesets.darkmetal.schema import Cyber, Splice
from tests.darkmetal.factories import (ITEMS, KNIFE, RIFLE, armed_ally, attach, check, codes, hands, leader, mods, pack,
                                       trait)


def spent(report, key="gear_rep"):
    return next(m for m in report.meters if m.key == key)


def test_darkmetal_trait_leftover(dm_catalogue):
    gear = {"armor": {"item": "battle-armor"}, "hands": hands("beam-rifle")}  # 1,000 + 200 of 1,500
    banked = check(dm_catalogue, traits={"ath": 6}, **gear)  # Athletics 3 costs 1,000 of the 3,000 trait Rep
    assert spent(banked).limit == 1500 and "banked" in banked.stats["trait_rep_left"].explain
    spent_on_gear = check(dm_catalogue, traits={"ath": 6}, house_rules={"trait-leftover": "gear"}, **gear)
    assert spent(spent_on_gear).limit == 1500 + banked.stats["trait_rep_left"].value == 1500 + 2000


def test_darkmetal_base_move(dm_catalogue):
    assert check(dm_catalogue).stats["move"].value == 4
    assert check(dm_catalogue, house_rules={"base-move": 5}).stats["move"].value == 5
    armoured = check(dm_catalogue, armor={"item": "battle-armor"}, house_rules={"base-move": 5})
    assert armoured.stats["move"].value == 5 + dm_catalogue.items["battle-armor"].move


def test_darkmetal_com_skill_levels(dm_catalogue):
    at_level_1 = check(dm_catalogue, traits={"com": 2}).detail.communication
    assert len(at_level_1) == 1  # "Com Lev" 2 is level 1
    assert check(dm_catalogue, traits={"com": 2}, house_rules={"com-skill-levels": "levels"}).detail.communication == []
    assert len(check(dm_catalogue, traits={"com": 4}, house_rules={"com-skill-levels": "levels"}).detail.communication) == 1


def test_darkmetal_reserve_dice(dm_catalogue):
    assert trait(check(dm_catalogue, traits={"ath": 10}), "ath").reserve == ["locked 10", "d10"]
    cumulative = check(dm_catalogue, traits={"ath": 10}, house_rules={"reserve-dice": "cumulative"})
    assert trait(cumulative, "ath").reserve == ["d10", "locked 10", "d10"]
    assert rules.fates_and_reserves(9, "cumulative")[1] == ["d10", "locked 10"]


def test_darkmetal_max_allies_blanks(dm_catalogue):
    assert check(dm_catalogue, traits={"com": 4}).stats["max_allies"].value == 3
    assert check(dm_catalogue, traits={"com": 4}, house_rules={"max-allies-blanks": "next"}).stats["max_allies"].value == 4
    assert check(dm_catalogue, traits={"com": 5}, house_rules={"max-allies-blanks": "next"}).stats["max_allies"].value == 4


def test_darkmetal_ally_costs(dm_catalogue):
    upgrades = check(dm_catalogue, traits={"com": 6}, allies=[armed_ally("standard-infantry")])
    totals = check(dm_catalogue, traits={"com": 6}, allies=[armed_ally("standard-infantry")],
                   house_rules={"ally-costs": "totals"})
    infantry, recruit = dm_catalogue.items["standard-infantry"], dm_catalogue.items["recruit"]
    assert spent(upgrades).used - spent(totals).used == recruit.rep_cost
    assert spent(totals).used == infantry.rep_cost


def test_darkmetal_free_weapon(dm_catalogue):
    infantry = armed_ally("standard-infantry", "standard-rifle")
    kept = spent(check(dm_catalogue, traits={"com": 6}, allies=[infantry])).used
    paid = spent(check(dm_catalogue, traits={"com": 6}, allies=[infantry], house_rules={"free-weapon": "recruit-only"})).used
    assert paid - kept == dm_catalogue.items["standard-rifle"].cost
    recruit = armed_ally("recruit", "standard-rifle")
    assert spent(check(dm_catalogue, traits={"com": 6}, allies=[recruit], house_rules={"free-weapon": "recruit-only"})).used \
        == spent(check(dm_catalogue, traits={"com": 6}, allies=[recruit])).used


def test_darkmetal_ally_gear_currency(dm_catalogue):
    hired = {**armed_ally("recruit", "standard-rifle", "heavy-pistol"), "paid_with": "arp"}  # the pistol: 20 Rep
    with_hire = check(dm_catalogue, traits={"com": 6}, allies=[hired])
    in_rep = check(dm_catalogue, traits={"com": 6}, allies=[hired], house_rules={"ally-gear-currency": "rep"})
    assert spent(with_hire, "arp").used - spent(in_rep, "arp").used == 2  # 20 Rep = 2 ARP
    assert spent(in_rep).used - spent(with_hire).used == 20


def test_darkmetal_olfactory_armor(dm_catalogue):
    bought = mods(dm_catalogue, "olfactory-editing")
    suit = {"armor": {"item": "combat-suit"}, "modifications": bought}
    assert "DM-R20" not in codes(check(dm_catalogue, **suit))
    assert "DM-R20" in codes(check(dm_catalogue, house_rules={"olfactory-armor": "any"}, **suit))


def test_darkmetal_cyber_multiplier():
    blank = Cyber(key="x", name="X", cost=100, score=0)
    scored = Cyber(key="y", name="Y", cost=100, score=1)
    assert rules.mes_price(blank, 3, 0) == 400
    assert rules.mes_price(blank, 3, 0, {"cyber-multiplier": "scored-only"}) == 100
    assert rules.mes_price(scored, 3, 0, {"cyber-multiplier": "scored-only"}) == 400


def test_darkmetal_splice_zero_price(dm_catalogue):
    item = Splice(key="x", name="X", cost=100, score=1)
    assert rules.mes_price(item, 0, 2) == 100
    assert rules.mes_price(item, 0, 2, {"splice-zero-price": "multiplied"}) == 400
    assert rules.mes_price(item, 0, 0, {"splice-zero-price": "multiplied"}) == 100
    # The validator holds recorded prices to the table's reading.
    bought = mods(dm_catalogue, "internal-power-cables", "cat-reflexes")  # Cyber 1, then a Splice at Splice 0
    assert "DM-R27" not in codes(check(dm_catalogue, modifications=bought))
    assert "DM-R27" in codes(check(dm_catalogue, modifications=bought, house_rules={"splice-zero-price": "multiplied"}))


def test_darkmetal_blade_arms(dm_catalogue):
    blades = mods(dm_catalogue, "dual-cyber-arms", "internal-blades")
    one_arm = {"modifications": blades, "attach": [attach("power-pack", 1)]}
    assert check(dm_catalogue, **one_arm).detail.implants == ["internal-blades"]
    assert check(dm_catalogue, house_rules={"blade-arms": "both-free"}, **one_arm).detail.implants == []
    assert check(dm_catalogue, modifications=blades, house_rules={"blade-arms": "both-free"}).detail.implants == \
        ["internal-blades"]


def test_darkmetal_splice_uses(dm_catalogue):
    dash = mods(dm_catalogue, "second-heart", "leg-splicing-1", "leg-splicing-2", "leg-splicing-3")
    frequency = lambda report: next(a.frequency for a in report.detail.abilities if a.skill != "Knowledge")  # noqa: E731
    assert frequency(check(dm_catalogue, modifications=dash)).endswith("/scenario")
    assert frequency(check(dm_catalogue, modifications=dash, house_rules={"splice-uses": "turn"})).endswith("/turn")


def test_darkmetal_two_handed(dm_catalogue):
    two = {"hands": hands("standard-rifle", "heavy-rifle")}
    assert "DM-R37" in codes(check(dm_catalogue, **two))
    lenient = check(dm_catalogue, house_rules={"two-handed": "lenient"}, **two)
    assert "DM-R37" not in codes(lenient) and spent(lenient, "backpack").limit == 3


def test_darkmetal_carry_pack(dm_catalogue):
    packed = {"armor": {"item": "combat-armor"}, "attach": [attach("carry-pack", 1)],
              "backpack": pack(*["trauma-kit"] * 6)}
    assert "DM-R47" not in codes(check(dm_catalogue, **packed))
    assert "DM-R47" in codes(check(dm_catalogue, house_rules={"carry-pack": "four"}, **packed))


def test_darkmetal_weight_balancing(dm_catalogue):
    balanced = {"traits": {"kno": 6}, "knowledge": {"eng": 5}}
    assert check(dm_catalogue, backpack=pack(*["trauma-kit"] * 4), **balanced).stats["bulk"].value == 1
    free = check(dm_catalogue, backpack=pack(*["trauma-kit"] * 4), house_rules={"weight-balancing": "three-free"},
                 **balanced)
    assert free.stats["bulk"].value == 0


def test_darkmetal_booster_bulk(dm_catalogue):
    """Combat Armor has Bulk 1; Plated Dermal Layer 2 adds 1 more: 300 a point of the armour's, or of the Leader's."""
    plated = mods(dm_catalogue, "plated-dermal-layer", "plated-dermal-layer-2")
    kit = {"armor": {"item": "combat-armor"}, "attach": [attach("leg-boosters", 1)], "modifications": plated}
    armour = check(dm_catalogue, **kit)
    leader_bulk = check(dm_catalogue, house_rules={"booster-bulk": "leader"}, **kit)
    assert spent(leader_bulk).used - spent(armour).used == 300 * (leader_bulk.stats["bulk"].value - 1) == 300


def test_darkmetal_cyber_attach_points(dm_catalogue):
    """Dual Cyber Arms give two Attach Points beside Combat Armor's one."""
    arms = {"armor": {"item": "combat-suit"}, "modifications": mods(dm_catalogue, "dual-cyber-arms")}
    stacked = spent(check(dm_catalogue, **arms), "attach").limit
    higher = spent(check(dm_catalogue, house_rules={"cyber-attach-points": "higher"}, **arms), "attach").limit
    suit_points = dm_catalogue.items["combat-suit"].attach_points
    assert stacked == min(4, suit_points + 2) and higher == max(suit_points, 2)


def test_darkmetal_shakes_boon(dm_catalogue):
    shaken = {"traits": {"com": 4}, "injury_rule": True, "campaign": 2,
              "injuries": [{"item": "the-shakes", "campaign": 0}]}
    pool_only = check(dm_catalogue, **shaken)
    assert pool_only.stats["bonus_arp"].value == 20 and pool_only.stats["max_allies"].value == 3
    level = check(dm_catalogue, house_rules={"shakes-boon": "level"}, **shaken)
    assert level.stats["bonus_arp"].value == 30 and level.stats["max_allies"].value == 4


# --- the preview's readings ------------------------------------------------------------------------

def test_darkmetal_range_step():
    """The Machine Pistol: −1 toHit, +2 beyond 5", +6 beyond 10"."""
    pistol = ITEMS["machine-pistol"]
    mode = dm.profiles(pistol)[0]
    assert dm.weapon_to_hit(pistol, mode, 6) == 2  # the +2 replaces the −1
    assert dm.weapon_to_hit(pistol, mode, 6, "adds") == 1
    assert dm.weapon_to_hit(pistol, mode, 11, "adds") == 5


def test_darkmetal_aim_dice():
    assert [dm.aim_dice(h) for h in (2, 5, 10)] == [1, 2, 3]
    assert [dm.aim_dice(h, reading="pool-up") for h in (2, 5, 10)] == [1, 1, 3]
    assert [dm.aim_dice(h, reading="pool-down") for h in (2, 5, 10)] == [0, 1, 2]


def test_darkmetal_close_range():
    situation = dm.Situation(range=2, close_range=True)
    assert dm.weapon_odds(RIFLE, {"ath": 1, "pre": 2}, 0, situation)["target_number"] == 5
    never = dm.weapon_odds(RIFLE, {"ath": 1, "pre": 2}, 0, situation, readings=dm.Readings(close_range="never"))
    assert never["target_number"] == 6 and any("A-20" in n for n in never["notes"])


def test_darkmetal_support_dice(dm_catalogue):
    crowd = dm.Situation(close_combat=True, supporting_attackers=5)
    assert dm.weapon_odds(KNIFE, {"ath": 2, "pre": 1}, 0, crowd)["dice"] == 4
    assert dm.weapon_odds(KNIFE, {"ath": 2, "pre": 1}, 0, crowd, readings=dm.Readings(support="uncapped"))["dice"] == 7
    # Through the kind's preview, from the build's own house rules.
    document = {**leader(dm_catalogue, hands=hands("melee-weapon")), "house_rules": {"support-dice": "uncapped"}}
    attacks = RULESET.kind("leader").preview(rules.parse(document), dm_catalogue, {"situation": {
        "close_combat": True, "supporting_attackers": 5}}, {})["attacks"]
    assert "+5 supporting" in attacks[0]["notes"]


def test_darkmetal_base_power(dm_catalogue):
    """A-54: Power 0 of the Leader's own, so a Combat Suit's Power is all; a table's base 2 adds to it."""
    suit = {"armor": {"item": "combat-suit"}}
    worn = check(dm_catalogue, **suit).stats["power"].value
    assert worn == dm_catalogue.items["combat-suit"].power
    raised = check(dm_catalogue, house_rules={"base-power": 2}, **suit).stats["power"]
    assert raised.value == worn + 2 and "2 base" in raised.explain
    assert check(dm_catalogue, house_rules={"base-power": 2}).stats["power"].value == 2


def test_darkmetal_booster_minimum(dm_catalogue):
    """A-32: Leg Boosters on a Combat Suit (Bulk 0, the Attach Point from Dual Cyber Arms) cost 300 as at Bulk 1, or
    nothing under the other reading."""
    kit = {"armor": {"item": "combat-suit"}, "modifications": mods(dm_catalogue, "dual-cyber-arms"),
           "attach": [attach("leg-boosters", 1)]}
    priced = spent(check(dm_catalogue, **kit)).used
    free = spent(check(dm_catalogue, house_rules={"booster-minimum": "none"}, **kit)).used
    assert priced - free == 300
