"""Knowledge and trait-level numbers the effect audit maps to rules: Trick Wiring, Genome Studies, the Fate and
Reserve dice of each level, Group Activate's count, and Every Single Round's extra ammunition on the sheet."""
import pytest

from builder import store
from builder.kinds import page_for
from catalogue.rulesets.darkmetal import rules
from tests.darkmetal.factories import check, leader, mods, trait

CYBER_4 = ("internal-blades", "plated-dermal-layer", "internal-power-cables", "cyber-arm")  # Cyber 1 each
SPLICE_4 = ("hormone-booster", "cat-reflexes", "brain-augmentation", "memory-augmentation")  # Splice 1 each


def test_dm_r26_trick_wiring_takes_1_off_a_cyber_score_of_4_or_more(catalogue):
    def cyber(keys, hacking):
        return check(catalogue, modifications=mods(catalogue, *keys), knowledge={"hac": hacking}).stats["cyber"].value

    assert cyber(CYBER_4, 0) == 4 and cyber(CYBER_4, 1) == 3  # at the limit: a score of 4
    assert cyber(CYBER_4[:3], 1) == 3  # 3 is below it: nothing taken off


def test_dm_r33_genome_studies_takes_1_off_a_splice_score_of_4_or_more(catalogue):
    def splice(keys, science):
        report = check(catalogue, traits={"kno": 3}, modifications=mods(catalogue, *keys), knowledge={"sci": science})
        return report.stats["splice"].value

    assert splice(SPLICE_4, 4) == 4 and splice(SPLICE_4, 5) == 3  # Genome Studies is the Science 5 ability
    assert splice(SPLICE_4[:3], 5) == 3


@pytest.mark.parametrize("half_steps, fate, reserve", [
    (2, 0, []), (3, 1, []), (5, 1, ["d10"]), (7, 2, ["d10"]), (9, 2, ["locked 10"]), (10, 2, ["locked 10", "d10"]),
])
def test_dm_r69_attribute_fate_and_reserve_dice_by_level(catalogue, half_steps, fate, reserve):
    """+1 Attribute Fate at 1½ and 3½; a d10 Reserve die at 2½; one fixed at 10 at 4½; both at 5 (A-09)."""
    athletics = trait(check(catalogue, traits={"ath": half_steps}), "ath")
    assert (athletics.fate, athletics.reserve) == (fate, reserve) == rules.fates_and_reserves(half_steps)


@pytest.mark.parametrize("com, allies", [(1, None), (2, 1), (5, 1), (6, 2), (7, 2), (8, 3), (10, 3)])
def test_dm_r14_group_activate_brings_the_tables_count_of_allies(catalogue, com, allies):
    """A-07: the Communication table's counts (1 at level 1, 2 at 3, 3 at 4), not the skill text's "equal to
    your Communication trait"."""
    stats = check(catalogue, traits={"com": com}).stats
    assert (stats["group_activate"].value if "group_activate" in stats else None) == allies


def test_dm_r13_every_single_round_adds_10_percent_ammo_on_the_sheet(packs, catalogue):
    hands = [{"item": "standard-rifle"}, {"item": "heavy-pistol"}]
    page = page_for("darkmetal", "leader")

    def boxes(knowledge):
        checked = store.check(leader(catalogue, hands=hands, backpack=[{"item": "grenade-launcher"}],
                                     knowledge=knowledge))
        return {row["name"]: len(row["boxes"]) for row in page.sheet_context(checked, None)["ammo"]}

    assert boxes({}) == {"Standard Rifle": 10, "Heavy Pistol": 6, "Grenade Launcher": 3}
    assert boxes({"ars": 1}) == {"Standard Rifle": 11, "Heavy Pistol": 7, "Grenade Launcher": 3}  # 3 is below 4
    html = "".join(page.sheet_sections(None, store.check(leader(catalogue, traits={"com": 6})), "https://x.test/s/a/"))
    assert "Group Activate (2 allies)" in html
