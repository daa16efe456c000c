"""Prerequisites the effect-text audit names (issue 12) that no other test exercised item by item: each fails
when the item's `requires_any` is dropped from the pack or rules.py stops checking it."""
from tests.darkmetal.factories import check, codes, mods


def test_dm_r23_arm_motion_compensators_need_a_cyber_arm_or_synthetic_arm_muscles(catalogue):
    assert "DM-R23" in codes(check(catalogue, modifications=mods(catalogue, "arm-motion-compensators")))
    for first in ("cyber-arm", "synthetic-arm-muscles"):
        bought = mods(catalogue, first, "arm-motion-compensators")
        assert "DM-R23" not in codes(check(catalogue, modifications=bought)), first


def test_dm_r23_plated_dermal_layer_2_needs_the_first_layer(catalogue):
    assert "DM-R23" in codes(check(catalogue, modifications=mods(catalogue, "plated-dermal-layer-2")))
    assert "DM-R23" in codes(check(catalogue, modifications=mods(catalogue, "plated-dermal-layer-2", "plated-dermal-layer")))
    bought = mods(catalogue, "plated-dermal-layer", "plated-dermal-layer-2")
    assert "DM-R23" not in codes(check(catalogue, modifications=bought))


def test_dm_r30_leg_splicing_3_needs_leg_splicing_2(catalogue):
    assert "DM-R30" in codes(check(catalogue, modifications=mods(catalogue, "leg-splicing-1", "leg-splicing-3")))
    bought = mods(catalogue, "leg-splicing-1", "leg-splicing-2", "leg-splicing-3")
    assert "DM-R30" not in codes(check(catalogue, modifications=bought))
