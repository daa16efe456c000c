"""Ember's Part states under an attack (digest 5.5): Penetration damages a Part with Structure and destroys one
without, or one already Damaged; Mutilation's Surplus can finish it; the Black die weights the Parts."""
from fractions import Fraction

from catalogue.rulesets.ember import dice
from catalogue.rulesets.ember import preview as p


def test_e_t03_one_step_an_attack():
    arm = p.Target("Right Arm", armor=4, structure=3)
    row = p.part_outcome(dice.attack_pool(2, 2), arm, defensive=True)
    assert float(row["p_penetration"]) == float(row["p_damaged"]) and row["p_destroyed"] == 0
    assert abs(float(row["p_penetration"]) - .6268) < 1e-4


def test_a_part_without_structure_or_already_damaged_is_destroyed_by_a_penetration():
    attack = dice.attack_pool(1, 3)
    bare = p.part_outcome(attack, p.Target("Antenna", armor=3, structure=None))
    worn = p.part_outcome(attack, p.Target("Arm", armor=5, structure=3, damaged=True))
    assert bare["p_destroyed"] == bare["p_penetration"] and bare["p_damaged"] == 0
    assert worn["p_penetration"] == dice.resolve(attack, dice.defence_pool(3))["p_penetration"]  # Structure's dice
    assert worn["p_destroyed"] == worn["p_penetration"]


def test_mutilation_resolves_the_surplus_against_the_structure_exactly():
    """Two Heavy Hits against Armor 1 and Structure 1: a Dodge (1/8) leaves one Heavy (7/8 to penetrate the
    Structure), else both go on; P(Destroyed) = 1/8 · 7/8 + 7/8 = 63/64."""
    row = p.part_outcome({(0, 2, 0): Fraction(1)}, p.Target("Arm", armor=1, structure=1), mutilation=True)
    assert row["p_penetration"] == 1 and row["p_destroyed"] == Fraction(63, 64)


def test_the_black_die_weights_the_parts_and_any_part_goes_where_it_hurts_most():
    parts = {"torso": p.Target("Torso", 5, 3), "chassis": p.Target("Chassis", 5, 4),
             "left_arm": p.Target("Left Arm", 3, None), "right_arm": p.Target("Right Arm", 4, 3)}
    result = p.mech_outcome(dice.attack_pool(2, 2), parts)
    weights = {row["slot"]: row["p_target"] for row in result["parts"]}
    assert sum(weights.values()) == 1 and result["any_part"] == "left_arm"  # no Structure: a Penetration destroys it
    assert weights == {"torso": Fraction(2, 6), "chassis": Fraction(1, 6), "left_arm": Fraction(2, 6),
                       "right_arm": Fraction(1, 6)}  # no Backpack: its face reads as the Torso
    assert result["p_mech_destroyed"] == 0  # an intact Torso with Structure only gets Damaged


def test_d15_white_dice_never_below_one():
    assert p.white_dice(p.Target("Arm", 2, None), armor_piercing=3) == 1
    assert p.white_dice(p.Target("Arm", 5, 2, damaged=True)) == 2


def shot(**fields):
    from catalogue.rulesets.ember.schema import Action
    return Action.model_validate({"name": "Shot", "type": "firing", "length": "short", "range": 8, **fields})


def test_an_action_against_a_described_defender_matches_the_dice():
    """E-T01 again through an action: 1Y+3R at Armor 4 and Dodge 5 in Mobility."""
    odds = p.action_odds(shot(yellow=1, red=3), p.Defender(armor=4, structure=3, dodge=5, stance="mobility"), False)
    assert (odds["white"], odds["blue"]) == (4, 5) and abs(odds["p_penetration"] - .4495) < 1e-4
    assert abs(odds["p_damaged"] - odds["p_penetration"]) < 1e-12 and odds["p_destroyed"] == 0


def test_cover_and_armor_piercing_change_the_white_dice_and_suppression_the_stance():
    covered = p.action_odds(shot(red=2), p.Defender(armor=3, terrain=True, unit_cover=True), False)
    assert covered["white"] == 7  # Terrain and Unit protection, +2 each, against Firing only (D-15)
    melee = p.action_odds(shot(type="melee", red=2), p.Defender(armor=3, terrain=True), False)
    assert melee["white"] == 3
    pierced = p.action_odds(shot(red=2, keywords=[{"name": "Armor Piercing", "x": 5}]), p.Defender(armor=3), False)
    assert pierced["white"] == 1  # never fewer than one White die
    suppressed = p.action_odds(shot(red=2, keywords=[{"name": "Suppression"}]), p.Defender(stance="mobility", dodge=4),
                               False)
    assert suppressed["suppressed"] and suppressed["blue"] == 0


def test_e_t02_concussion_counts_lightning_only_with_the_keyword():
    bash = shot(type="melee", yellow=5, keywords=[{"name": "Concussion"}])
    odds = p.action_odds(bash, p.Defender(armor=5, stance="defensive"), True)
    assert abs(odds["p_lightning"] - .4107) < 1e-4 and abs(odds["expected_link_loss"] - .512) < 1e-3
    assert p.action_odds(shot(type="melee", yellow=5), p.Defender(armor=5, stance="defensive"), True)["p_lightning"] == 0


def test_d24_an_action_against_a_whole_mech_weighs_its_parts_as_mech_outcome_does_exactly():
    parts = {"torso": p.Target("Torso", 5, 3), "chassis": p.Target("Chassis", 5, 4),
             "left_arm": p.Target("Left Arm", 3, None), "right_arm": p.Target("Right Arm", 4, 3)}
    odds = p.action_odds(shot(yellow=2, red=2), p.Defender(stance="mobility", dodge=2), False, mech=parts)
    exact = p.mech_outcome(dice.attack_pool(2, 2), parts, blue=2)
    assert abs(odds["p_penetration"] - float(exact["p_penetration"])) < 1e-12 and odds["p_secret"] == 0
    assert odds["any_part"] == exact["any_part"] == "left_arm"
    assert [round(float(r["p_target"]), 12) for r in exact["parts"]] == [round(r["p_target"], 12) for r in odds["parts"]]
    assert abs(sum(odds["surplus"].values()) - 1) < 1e-12


def test_e_r25_a_secret_part_of_the_defending_mech_is_picked_but_left_out_of_the_totals():
    parts = {"torso": p.Target("Torso", 5, 3), "chassis": p.Target("Chassis", 5, 4), "right_arm": None}
    odds = p.action_odds(shot(yellow=2, red=2), p.Defender(), False, mech=parts)
    hidden = next(r for r in odds["parts"] if r["slot"] == "right_arm")
    assert hidden["secret"] and abs(hidden["p_target"] - 1 / 6) < 1e-12 and abs(odds["p_secret"] - 1 / 6) < 1e-12
    assert odds["any_part"] in ("torso", "chassis") and odds["p_mech_destroyed"] is not None
