"""Rules the Weapons, Items and Attach Point Weapons audit (data/audit/weapon.yaml and its siblings) cites,
where no other test exercised the number it names."""
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.darkmetal import rules
from catalogue.rulesets.packs import read_pack

CATALOGUE = read_pack(ACTIVE["darkmetal"].data_dir / "rulebook.yaml", ACTIVE).catalogue


def palm_codes(*keys) -> set[str]:
    report = rules.validate({"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader",
                             "pack": CATALOGUE.pack, "name": "Moroc", "hands": [{"item": k} for k in keys]}, CATALOGUE)
    return {i.code for i in report.issues if i.severity == "error"}


def test_dm_r39_each_hand_holds_one_palm_device():
    """L751-752: one Palm Shocker or Palm Jet to a hand, so two hands hold two at most."""
    assert "DM-R39" not in palm_codes("palm-shocker", "palm-plasma-jet")
    assert "DM-R39" in palm_codes("palm-shocker", "palm-plasma-jet", "palm-shocker")
