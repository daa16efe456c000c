"""METALLURGENT Anvil readings as house rules: each option's default is the reading
docs/rulesets/metallurgent.md gives, and each other choice changes what it says in the validator or the derived
stats (one test per option, named after it)."""
from catalogue.rulesets.metallurgent.rules import validate
from tests.metallurgent.factories import anvil, chipset_catalogue, codes, equipment, loaded, make_catalogue, part, weapon


def played(document, **house_rules):
    return {**document, "house_rules": house_rules}


def severities(report, code):
    return [i.severity for i in report.issues if i.code == code]


def test_metallurgent_core_melee():
    cat = make_catalogue(weapon("blade", "primary", category="melee", magazine=None, reserve=0))
    document = anvil([("blade", "core")])
    assert severities(validate(document, cat), "M-R15") == ["warning"]
    assert severities(validate(played(document, **{"core-melee": "error"}), cat), "M-R15") == ["error"]
    assert severities(validate(played(document, **{"core-melee": "allowed"}), cat), "M-R15") == []


def test_metallurgent_tracks_traverse():
    cat = make_catalogue(weapon("rifle"), equipment("radar", "radar"), part("treads", "biped", chassis="tracks"))
    document = anvil([("rifle", "core"), ("radar", "core")], mobility_base="treads")
    widened = ["N", "FR", "FL"]
    assert validate(document, cat).detail.arcs == {"gear[0]": widened, "gear[1]": widened}
    weapons_only = validate(played(document, **{"tracks-traverse": "weapons"}), cat).detail.arcs
    assert weapons_only == {"gear[0]": widened, "gear[1]": ["N"]}


def test_metallurgent_breakpoint():
    cat = make_catalogue()
    document = anvil()  # 17 ST: under every threshold of 20/22/26/30/32
    lightest = validate(document, cat)
    assert lightest.detail.load_tolerance.active == 0 and lightest.stats["cruising_speed"].value == 7
    heaviest = validate(played(document, breakpoint="heaviest"), cat)
    assert heaviest.detail.load_tolerance.active == 4 and heaviest.stats["cruising_speed"].value == 5
    assert heaviest.stats["initiative"].value == 2


def test_metallurgent_en_below_zero():
    cat = make_catalogue(part("weak-gen", "gas-gen", en_output=4))  # five Components and the FCS drain 6
    document = anvil(generator="weak-gen")
    assert severities(validate(document, cat), "M-R41") == ["error"]
    warned = validate(played(document, **{"en-below-zero": "warned"}), cat)
    assert severities(warned, "M-R41") == ["warning"] and warned.legal


def test_metallurgent_lca_start():
    cat = make_catalogue(equipment("cmd-lca", "lca"))
    document = anvil([("cmd-lca", "core")])
    document["gear"][0]["active"] = False
    assert "M-R43" not in codes(validate(document, cat))
    refused = validate(played(document, **{"lca-start": "active"}), cat)
    assert severities(refused, "M-R43") == ["error"]
    document["gear"][0]["active"] = True
    assert "M-R43" not in codes(validate(played(document, **{"lca-start": "active"}), cat))


def test_metallurgent_disabled_mobility():
    cat = make_catalogue()
    document = {**anvil(), "condition": {"mobility_base": "disabled"}}
    kept = validate(document, cat)
    assert "M-R32" not in codes(kept) and kept.detail.load_tolerance.active == 0
    lost = validate(played(document, **{"disabled-mobility": "thresholds-lost"}), cat)
    assert "M-R32" in codes(lost, "error") and lost.stats["breakpoint"].value == "Overloaded"


def test_metallurgent_disabled_gear():
    cat = make_catalogue(weapon("rifle"))
    document = {**anvil([("rifle", "left_arm")]), "condition": {"left_arm": "disabled"}}
    offline = validate(document, cat)
    assert offline.detail.weapons == [] and "Offline" in offline.issues[0].message
    working = validate(played(document, **{"disabled-gear": "working"}), cat)
    assert [w["name"] for w in working.detail.weapons] == ["Rifle"]
    destroyed = {**document, "condition": {"left_arm": "destroyed"}}
    assert validate(played(destroyed, **{"disabled-gear": "working"}), cat).detail.weapons == []


def test_metallurgent_disabled_actions():
    cat = make_catalogue()
    document = {**anvil(), "condition": {"core": "disabled", "mobility_base": "disabled"}}
    gone = validate(document, cat)
    assert "block" not in gone.stats and "dodge" not in gone.stats
    assert not any(a.name == "Kick" for a in gone.detail.attacks)
    free = validate(played(document, **{"disabled-actions": "free"}), cat)
    assert free.stats["block"].value == "0 Hits" and "for 0 EN" in free.stats["block"].explain
    assert free.stats["dodge"].value == "+0 DV"
    [kick] = [a for a in free.detail.attacks if a.name == "Kick"]
    assert kick.damage == "20 KE"
  # a Disabled Mobility Base keeps its Load, so the kick keeps its weight


def test_metallurgent_heat_climate():
    # Gas cooling sheds 10 a Turn when Temperate, 8 when Hot: 9 Heat a Turn settles at 9, or climbs when Hot.
    cat = make_catalogue(equipment("hot-radar", "radar", heat=9), part("small-gen", "gas-gen", heat_tolerance=9))
    document = anvil([("hot-radar", "core")], generator="small-gen")
    assert "M-R51" not in codes(validate(document, cat))
    hot = validate(played(document, **{"heat-climate": "hot"}), cat)
    assert "M-R51" in codes(hot, "warning") and "(hot)" in hot.issues[-1].message
    assert "climbs by 1 every Turn" in hot.stats["heat"].explain
    assert "settles at 9" in validate(played(document, **{"heat-climate": "cold"}), cat).stats["heat"].explain


def test_metallurgent_activated_heat():
    cat = make_catalogue(equipment("ciws", "ciws", heat=2))
    document = anvil([("ciws", "core")])
    assert validate(document, cat).stats["heat"].value == "0 / 20"
    assert validate(played(document, **{"activated-heat": "every-turn"}), cat).stats["heat"].value == "2 / 20"


def test_metallurgent_ewacs_range():
    # FCS 10 + Camera 2 = 12 hexes; the gun reaches 20, the EWACS Radar 24.
    cat = make_catalogue(weapon("long-gun", range=20), equipment("ewacs", "radar", subtype="ewacs", range=24))
    document = anvil([("long-gun", "core"), ("ewacs", "core")])
    assert "M-R55" in codes(validate(document, cat), "warning")
    assert "M-R55" not in codes(validate(played(document, **{"ewacs-range": "counts"}), cat))


def test_metallurgent_command_chipset():
    document = loaded("cmd-lca", ["barrage", "check-system"])
    assert severities(validate(document, chipset_catalogue()), "M-R70") == ["warning"]
    refused = validate(played(document, **{"command-chipset": "error"}), chipset_catalogue())
    assert severities(refused, "M-R70") == ["error"] and not refused.legal


def test_metallurgent_unusable_chipset():
    document = loaded("cmd-lca", ["grand-plan"])  # 5 Orders on an LCA holding at most 3
    assert severities(validate(document, chipset_catalogue()), "M-R74") == ["warning"]
    refused = validate(played(document, **{"unusable-chipset": "error"}), chipset_catalogue())
    assert severities(refused, "M-R74") == ["error"] and not refused.legal
