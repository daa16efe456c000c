"""An Ember Mech document and a squad checked whole: unknown cards refused naming the field, Discard sides and
secret Parts only where the card allows, and a squad over its saved Mechs (Pilot IDs, Commands, broken links)."""
import json
from collections import Counter

import pytest

from catalogue.rulesets.base import BuildError, Catalogue, Linked
from catalogue.rulesets.ember import rules, secrecy
from catalogue.rulesets.ember.schema import CATEGORIES

INITIATIVE = {t: 5 for t in ("swift", "melee", "projectile", "firing", "movement", "tactical")}
ITEMS = {
    "part": [{"key": "core", "name": "Core", "slot": "torso", "armor": 4, "electronic": 1, "secret": True, "cost": 40},
             {"key": "legs", "name": "Legs", "slot": "chassis", "armor": 5, "dodge": 3, "maneuver": 3, "cost": 30},
             {"key": "claw", "name": "Claw", "slot": "left_arm", "armor": 3, "freehand": True},
             {"key": "rifle", "name": "Rifle", "slot": "right_arm", "armor": 4, "handheld": True,
              "discard": {"name": "Open Hand", "armor": 3}}],
    # A secret Torso giving 3 Commands a round (E-R18), and a Part a Drone carries as Load (E-R11).
    "part_extra": [{"key": "relay", "name": "Relay", "slot": "torso", "armor": 3, "secret": True, "cost": 45,
                    "keywords": [{"name": "Command Generation", "x": 3}]},
                   {"key": "dish", "name": "Dish", "slot": "backpack", "electronic": 4, "cost": 5,
                    "actions": [{"name": "Order", "type": "tactical", "control": "command"}]}],
    "pilot": [{"key": "ace", "name": "Ace", "id_number": "07", "faction": "UN", "max_link": 4, "initiative": INITIATIVE},
              {"key": "twin", "name": "Twin", "id_number": "07", "faction": "RDL", "max_link": 3,
               "initiative": INITIATIVE}],
    "drone": [{"key": "mite", "name": "Mite", "size": "small", "movement": "ground", "movement_range": 4,
               "stance": "defensive", "cost": 15,
               "actions": [{"name": "Sting", "type": "firing", "control": "command", "yellow": 2}]},
              {"key": "mule", "name": "Mule", "size": "medium", "movement": "ground", "movement_range": 2,
               "stance": "defensive", "cost": 10, "load": ["dish"]}],
}


@pytest.fixture(scope="module")
def cat():
    items, categories = {}, {}
    for category, entries in ITEMS.items():
        for entry in entries:
            item = CATEGORIES[category.removesuffix("_extra")].model_validate(entry)
            items[item.key], categories[item.key] = item, category.removesuffix("_extra")
    return Catalogue("ember", "ember-test@1.0.0", items, categories, "Test")


def mech(**fields):
    return {"pack": "ember-test@1.0.0", "name": "Hound", "pilot": "ace",
            "parts": {"torso": "core", "chassis": "legs", "left_arm": "claw", "right_arm": "rifle"}, **fields}


def test_a_legal_mech_shows_its_values_and_timings(cat):
    report = rules.validate(mech(), cat)
    assert report.legal and report.stats["dodge"].value == 3 and report.stats["link"].value == 4
    assert "Punch/Kick" in report.detail.timings["melee"] and report.detail.timings["swift"] == ["Discard"]


def test_unknown_cards_are_refused_naming_the_field(cat):
    with pytest.raises(BuildError) as error:
        rules.validate(mech(parts={"torso": "ace", "chassis": "nope"}, pilot="core"), cat)
    assert {p["path"] for p in error.value.problems} == {"parts.torso", "parts.chassis", "pilot"}


def test_e_r07_only_a_handheld_part_starts_on_its_discard_side(cat):
    assert rules.validate(mech(discarded=["right_arm"]), cat).legal
    assert [i.code for i in rules.validate(mech(discarded=["left_arm"]), cat).issues] == ["E-R07"]


def test_e_r25_only_a_part_with_a_secret_configuration_is_kept_secret(cat):
    assert rules.validate(mech(secret=["torso"]), cat).legal
    assert [i.code for i in rules.validate(mech(secret=["chassis"]), cat).issues] == ["E-R25"]


def squad(*share_ids, drones=()):
    return {"pack": "ember-test@1.0.0", "name": "Embers", "mechs": [{"build": s} for s in share_ids],
            "drones": [{"drone": d, "count": n} for d, n in drones]}


def linked(share_id, document, cat):
    return Linked(share_id, "mech", document["name"], document, rules.validate(document, cat))


def test_hp_member_a_saved_mech_with_errors_makes_the_squad_illegal(cat):
    broken = mech(name="Lame", parts={"torso": "core", "left_arm": "claw"})  # no Chassis: E-R03, E-R04
    report = rules.validate_squad(squad("aaaa1111"), cat, {"aaaa1111": linked("aaaa1111", broken, cat)})
    error = next(i for i in report.issues if i.code == "HP-MEMBER")
    assert (error.severity, error.path) == ("error", "mechs[0]") and "Lame breaks E-R03" in error.message
    assert not report.legal


def test_hp_member_a_written_in_mech_without_a_torso_makes_the_squad_illegal(cat):
    """004 L72: a Deployed Mech has at least a Chassis, a Torso and an Arm."""
    written = {k: v for k, v in mech(name="Husk", parts={"chassis": "legs", "left_arm": "claw"}).items()
               if k not in ("format", "ruleset", "kind", "pack")}
    report = rules.validate_squad({**squad(), "mechs": [{"mech": written}]}, cat)
    error = next(i for i in report.issues if i.code == "HP-MEMBER")
    assert error.path == "mechs[0]" and "Husk breaks" in error.message and not report.legal


def test_hp_member_a_legal_saved_mech_raises_nothing(cat):
    report = rules.validate_squad(squad("aaaa1111"), cat, {"aaaa1111": linked("aaaa1111", mech(), cat)})
    assert "HP-MEMBER" not in {i.code for i in report.issues}


def test_a_squad_of_saved_mechs_flags_a_shared_pilot_id_and_commands(cat):
    one, two = mech(), mech(name="Jackal", pilot="twin")
    links = {"aaaa1111": linked("aaaa1111", one, cat), "bbbb2222": linked("bbbb2222", two, cat), "gone0000": None}
    report = rules.validate_squad(squad("aaaa1111", "gone0000", "bbbb2222", drones=[("mite", 3)]), cat, links)
    assert [(i.code, i.path) for i in report.issues] == [("HP-LINK", "mechs[1]"), ("E-R06", "mechs[2].pilot"),
                                                           ("E-R18", "drones")]
    assert next(m for m in report.meters if m.key == "commands").used == 3


def written(name="Scrap", pilot="ace"):
    return {"mech": {"name": name, "pilot": pilot, "parts": {"torso": "core", "chassis": "legs", "left_arm": "claw"}}}


def test_a_squad_may_write_its_mechs_in(cat):
    report = rules.validate_squad({**squad(), "mechs": [written(), written("Scrap II", "twin")]}, cat, {})
    assert [(i.code, i.path) for i in report.issues] == [("E-R20", "mechs[0]"), ("E-R06", "mechs[1].pilot"),
                                                           ("E-R20", "mechs[1]")]
    with pytest.raises(BuildError) as error:
        rules.validate_squad({**squad(), "mechs": [{"mech": {"name": "X", "parts": {"torso": "nope"}}}]}, cat, {})
    assert error.value.problems[0]["path"] == "mechs[0].mech.parts.torso"


def test_e_x01_the_points_bar_of_the_unsourced_format(cat):
    report = rules.validate_squad({**squad(drones=[("mite", 2)]), "mechs": [written()]}, cat, {})
    points = next(m for m in report.meters if m.key == "points")
    assert (points.used, points.limit) == (40 + 30 + 15 * 2, 400) and "E-X01" not in [i.code for i in report.issues]


def test_ember_points_limit(cat):
    """The format's points limit is a house rule: 99 refuses the 100-point squad, 100 takes it (E-X01)."""
    tight = rules.validate_squad({**squad(drones=[("mite", 2)]), "mechs": [written()],
                                  "house_rules": {"points-limit": 99}}, cat, {})
    assert [i.code for i in tight.errors] == ["E-X01"] and "authored format" in tight.errors[0].message
    exact = rules.validate_squad({**squad(drones=[("mite", 2)]), "mechs": [written()],
                                  "house_rules": {"points-limit": 100}}, cat, {})
    assert "E-X01" not in [i.code for i in exact.issues]


def test_e_x05_e_x07_squad_size_and_drones(cat):
    many = {**squad(drones=[("mite", 7)]), "mechs": [written(f"M{i}", "ace" if i == 0 else "twin") for i in range(5)]}
    codes = [i.code for i in rules.validate_squad(many, cat, {}).errors]
    assert "E-X05" in codes and "E-X07" in codes
    at_limits = {**squad(drones=[("mite", 6)]), "mechs": many["mechs"][:4]}
    assert not {"E-X05", "E-X07"} & {i.code for i in rules.validate_squad(at_limits, cat, {}).issues}


def test_ember_max_mechs(cat):
    two = {**squad(), "mechs": [written("A"), written("B", "twin")]}
    assert "E-X05" not in [i.code for i in rules.validate_squad(two, cat, {}).issues]
    assert "E-X05" in [i.code for i in rules.validate_squad({**two, "house_rules": {"max-mechs": 1}}, cat, {}).errors]


def test_ember_max_drones(cat):
    three = squad(drones=[("mite", 3)])
    assert "E-X07" not in [i.code for i in rules.validate_squad(three, cat, {}).issues]
    assert "E-X07" in [i.code for i in rules.validate_squad({**three, "house_rules": {"max-drones": 2}}, cat, {}).errors]


def test_ember_squad_factions(cat):
    """E-X06: the rulebook lets any Pilot fly with any other; the one-faction reading refuses a UN and RDL pair."""
    mixed = {**squad(), "mechs": [written("A"), written("B", "twin")]}
    assert "E-X06" not in [i.code for i in rules.validate_squad(mixed, cat, {}).issues]
    one = rules.validate_squad({**mixed, "house_rules": {"squad-factions": "one"}}, cat, {})
    assert [i.code for i in one.errors if i.code == "E-X06"] == ["E-X06"] and "RDL" in one.errors[-1].message
    same = {**squad(), "mechs": [written("A"), written("C")], "house_rules": {"squad-factions": "one"}}
    assert "E-X06" not in [i.code for i in rules.validate_squad(same, cat, {}).issues]


def test_the_rule_index_lists_every_digest_rule_in_order_and_each_code_the_checks_report():
    """Ember is not registered yet, so the shared rule-index tests do not reach it: the same checks here."""
    import ast
    import re
    from pathlib import Path

    from catalogue.rulesets.rule_index import load
    from tests.helpers.rulebooks import DIGESTS
    folder = Path(rules.__file__).parent
    index = load(folder / "data" / "rules")
    digest = DIGESTS / "ember.md"
    if digest.exists():
        ids = re.findall(r"^\| (E-R\d+) \|", digest.read_text(encoding="utf-8"), re.MULTILINE)
        assert [i for i in index if i.startswith("E-R")] == ids
    emitted = {node.args[0].value for path in folder.glob("*.py") for node in ast.walk(ast.parse(path.read_text()))
               if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("add", "Issue")
               and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
               and re.match(r"^[A-Z]+-", node.args[0].value)}
    assert emitted and emitted <= set(index), emitted - set(index)
    assert all(option.rule in index for option in rules.OPTIONS.values())


def test_the_starter_pack_reads_and_its_examples_are_legal_without_a_warning():
    import dataclasses

    from catalogue.rulesets import ACTIVE
    from catalogue.rulesets import ember
    from catalogue.rulesets.packs import read_pack

    staged = {**ACTIVE, "ember": dataclasses.replace(ember.RULESET, kinds=ember.KINDS)}  # not registered yet
    data = read_pack(ember.RULESET.data_dir / "starter.yaml", staged)
    kinds = [e["kind"] for e in data.examples]
    assert kinds.count("squad") == 2 and kinds.count("mech") == 3
    parts = data.catalogue.of("part")
    # E-R25: a slot with a secret Part has two, so "Secret Part" in a slot never names the card.
    secret = Counter(p.slot for p in parts if p.secret)
    assert set(secret) == {"torso", "backpack", "right_arm"} and min(secret.values()) >= 2
    assert len(parts) >= 20 and sum(p.handheld for p in parts) >= 4 and all(p.discard for p in parts if p.handheld)
    assert len(data.catalogue.of("pilot")) >= 6 and len(data.catalogue.of("drone")) >= 4
    assert len(data.catalogue.of("projectile")) >= 3
    for example in data.examples:
        document = {"format": "hardpoint.build/1", "ruleset": "ember", "pack": data.header.ref, **example}
        report = (rules.validate(document, data.catalogue) if example["kind"] == "mech"
                  else rules.validate_squad(document, data.catalogue, {}))
        assert report.legal and not report.issues, (example["name"], [i.message for i in report.issues])


def test_e_r14_the_squad_lists_the_projectile_cards_it_needs(cat):
    from catalogue.rulesets.ember.schema import PartCard, Projectile
    salvo = Projectile(key="salvo", name="Salvo", kind="projectile")
    rack = PartCard(key="rack", name="Rack", slot="backpack", actions=[{"name": "Fire", "type": "projectile",
                                                                          "length": "medium", "launches": "salvo"}])
    odd = PartCard(key="odd", name="Odd", slot="backpack", actions=[{"name": "Drop", "type": "tactical",
                                                                        "length": "short", "launches": "ghost"}])
    more = Catalogue("ember", cat.pack, {**cat.items, "salvo": salvo, "rack": rack, "odd": odd},
                     {**cat.categories, "salvo": "projectile", "rack": "part", "odd": "part"}, "Test")
    parts = {"torso": "core", "chassis": "legs", "left_arm": "claw"}
    fine = rules.validate_squad({**squad(), "mechs": [{"mech": {"name": "A", "pilot": "ace",
                                                                 "parts": {**parts, "backpack": "rack"}}}]}, more, {})
    assert fine.detail.projectiles == ["salvo"] and "E-R14" not in [i.code for i in fine.issues]
    broken = rules.validate_squad({**squad(), "mechs": [{"mech": {"name": "B", "pilot": "ace",
                                                                   "parts": {**parts, "backpack": "odd"}}}]}, more, {})
    assert [i.code for i in broken.issues if i.code == "E-R14"] == ["E-R14"]


# --- E-R25: a squad's verdicts count a secret Part; what it shows leaves the Part's numbers out -------------------

def masked_link(share_id, document, cat):
    """A saved Mech as a squad reads it: its share link's view, and the whole Mech for the verdicts."""
    return Linked(share_id, "mech", document["name"], secrecy.public(document, cat), rules.validate(document, cat),
                  document)


@pytest.mark.parametrize("limit, over", [(69, True), (70, False)])
def test_e_r25_e_x01_a_secret_part_counts_towards_the_points_verdict_but_its_points_are_not_shown(cat, limit, over):
    hidden = mech(secret=["torso"])  # Core, 40 points, kept secret; Legs 30: 70 in all
    report = rules.validate_squad({**squad("aaaa1111"), "house_rules": {"points-limit": limit}}, cat,
                                  {"aaaa1111": masked_link("aaaa1111", hidden, cat)})
    points = next(m for m in report.meters if m.key == "points")
    assert (points.used, points.hidden, points.over) == (30, "1 secret Part", over)
    assert report.detail.roster[0].points == 30 and report.detail.roster[0].secret == 1
    assert ("E-X01" in [i.code for i in report.errors]) is over
    meters = [{k: v for k, v in m.as_dict().items() if k != "limit"} for m in report.meters]
    shown = json.dumps([report.detail.as_dict(), meters, [i.message for i in report.issues]])
    assert "70" not in shown and "40" not in shown and "core" not in shown.lower()


def test_e_r25_the_verdict_without_secrets_names_the_points(cat):
    report = rules.validate_squad({**squad("aaaa1111"), "house_rules": {"points-limit": 69}}, cat,
                                  {"aaaa1111": masked_link("aaaa1111", mech(), cat)})
    points = next(m for m in report.meters if m.key == "points")
    assert (points.used, points.hidden, points.over) == (70, "", True) and "70 points" in report.errors[0].message


@pytest.mark.parametrize("mites, warned", [(3, False), (4, True)])
def test_e_r25_e_r18_a_secret_torsos_command_generation_counts_and_stays_hidden(cat, mites, warned):
    relay = mech(parts={"torso": "relay", "chassis": "legs", "left_arm": "claw"}, secret=["torso"])
    report = rules.validate_squad(squad("aaaa1111", drones=[("mite", mites)]), cat,
                                  {"aaaa1111": masked_link("aaaa1111", relay, cat)})
    commands = next(m for m in report.meters if m.key == "commands")
    assert (commands.used, commands.limit, commands.hidden, commands.over) == (mites, 1, "1 secret Torso", warned)
    warning = [i for i in report.issues if i.code == "E-R18"]
    assert bool(warning) is warned and all("3" not in i.message for i in warning)


def test_e_r25_a_share_link_hides_only_a_card_that_may_be_kept_secret(cat):
    assert secrecy.public(mech(secret=["torso"]), cat)["masked"] == ["torso"]
    shown = secrecy.public(mech(secret=["chassis"]), cat)  # Legs have no secret configuration: E-R25 shows it
    assert shown["parts"]["chassis"] == "legs" and "masked" not in shown
    assert [i.code for i in rules.validate(shown, cat).issues] == ["E-R25"]


def test_e_r11_a_drones_load_gives_it_no_actions_or_values(cat):
    """L837: the Mule carries the Dish (EV 4, a Command action) as Load, and gains neither."""
    mule = {**squad(drones=[("mule", 1)]), "mechs": [written()]}
    report = rules.validate_squad(mule, cat, {})
    assert "E-R19" not in [i.code for i in report.issues]  # the Mech's Core has EV 1
    assert next(m for m in report.meters if m.key == "commands").used == 0
    blind = {**mule, "mechs": [{"mech": {**written()["mech"], "parts": {"torso": "relay", "chassis": "legs",
                                                                         "left_arm": "claw"}}}]}
    assert "E-R19" in [i.code for i in rules.validate_squad(blind, cat, {}).issues]  # the Dish's EV 4 is no help
