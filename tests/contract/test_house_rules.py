"""House rules: every option of every ruleset changes what it claims in the validator, severities override any
rule, bad choices are 422s naming them, and the builder, share page and sheet show the house rules in use."""
import importlib
import json
from html import escape
from pathlib import Path

import pytest

from builder import store
from builder.kinds import page_for
from builder.models import Build
from catalogue.rulesets import ACTIVE, house_rules
from catalogue.rulesets.base import PackError
from catalogue.rulesets.metallurgent import pilots, squads
from catalogue.rulesets.metallurgent import rules as m_rules
from catalogue.rulesets.packs import read_pack
from tests.darkmetal.factories import check as dm_check
from tests.darkmetal.factories import mods, rulebook_catalogue
from tests.helpers.refs import pack_ref
from tests.metallurgent.factories import anvil, equipment, make_catalogue, weapon
from tests.metallurgent.pilot_factories import pilot, pilots_catalogue

OPTIONS = [(r.key, key) for r in ACTIVE.values() for key in r.house_rules()]
TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dm_catalogue():
    """The DARK METAL rulebook pack, read from its file."""
    return rulebook_catalogue()


@pytest.fixture(scope="module")
def m_catalogue():
    """The METALLURGENT Pilots pack, read from its file."""
    return pilots_catalogue()


def codes(report, severity="error"):
    return {i.code for i in report.issues if i.severity == severity}


def test_every_active_ruleset_declares_parameters_and_a_reading():
    for ruleset in ACTIVE.values():
        kinds = {o.kind for o in ruleset.house_rules().values()}
        assert kinds == {"parameter", "reading"}, ruleset.key
        assert all(o.rule in ruleset.rules() for o in ruleset.house_rules().values()), ruleset.key
        kinds = {kind.key for kind in ruleset.kinds}
        assert all(set(o.kinds) <= kinds for o in ruleset.house_rules().values()), ruleset.key


# --- each option does what it says (one test per option; the list below must name them all) ------------

def test_darkmetal_trait_budget(dm_catalogue):
    traits = {"ath": 10, "pre": 4}  # 2,700 + 450 = 3,150 Rep
    assert "DM-R04" in codes(dm_check(dm_catalogue, traits=traits))
    assert "DM-R04" not in codes(dm_check(dm_catalogue, traits=traits, house_rules={"trait-budget": 3150}))


def test_darkmetal_gear_budget(dm_catalogue):
    armour = {"armor": {"item": "battle-armor"}, "hands": [{"item": "beam-rifle"}, {"item": "heavy-pistol"}],
              "attach": [{"item": "electrolaser", "at": [3, 4]}]}  # 1,000 + 200 + 20 + 800 Rep
    assert "DM-R06" in codes(dm_check(dm_catalogue, **armour))
    report = dm_check(dm_catalogue, house_rules={"gear-budget": 2100}, **armour)
    assert "DM-R06" not in codes(report)
    assert next(m for m in report.meters if m.key == "gear_rep").limit == 2100


def test_darkmetal_group_activate(dm_catalogue):
    level_2 = {"traits": {"com": 4}}
    assert dm_check(dm_catalogue, **level_2).stats["group_activate"].value == 1  # the table
    assert dm_check(dm_catalogue, house_rules={"group-activate": "trait"}, **level_2).stats["group_activate"].value == 2


def anvil_with(examples, predicate):
    return next(e for e in examples if predicate(e))


@pytest.fixture(scope="module")
def anvils():
    data = read_pack(ACTIVE["metallurgent"].data_dir / "starter.yaml", ACTIVE)
    return data.catalogue, [e for e in data.examples if e["kind"] == "anvil"]


def test_metallurgent_gear_limit(anvils):
    catalogue, examples = anvils
    example = anvil_with(examples, lambda e: len(e["gear"]) >= 2)
    assert "M-R05" not in codes(m_rules.validate(example, catalogue))
    limited = {**example, "house_rules": {"gear-limit": len(example["gear"]) - 1}}
    assert "M-R05" in codes(m_rules.validate(limited, catalogue))


def test_metallurgent_weapon_class_limit(anvils):
    catalogue, examples = anvils
    most = {id(e): max(len(h) for h in m_rules.weapons_by_class(m_rules.resolve(m_rules.parse(e), catalogue)).values())
            for e in examples}
    example = next(e for e in examples if most[id(e)] >= 2)
    assert not {"M-R20", "M-R21", "M-R22"} & codes(m_rules.validate(example, catalogue))
    limited = {**example, "house_rules": {"weapon-class-limit": most[id(example)] - 1}}
    assert {"M-R20", "M-R21", "M-R22"} & codes(m_rules.validate(limited, catalogue))


def test_metallurgent_proficiency_improvements(m_catalogue):
    """Three in Mathematics and one in Language: legal per Knowledge, one too many in all (M-R94)."""
    document = pilot(m_catalogue, developments=["dev-night-school"] * 3 + ["dev-language-tapes"],
                     proficiencies=[{"knowledge": "mathematics", "proficiency": p} for p in ("logic", "logic", "statistics")]
                     + [{"knowledge": "language", "proficiency": "modern"}])
    assert "M-R94" not in codes(pilots.validate(document, m_catalogue))
    total = {**document, "house_rules": {"proficiency-improvements": "total"}}
    assert "M-R94" in codes(pilots.validate(total, m_catalogue))


def test_darkmetal_bonus_level(dm_catalogue):
    """Cat Reflexes lifts Instinct 1 to an effective 1½, which earns an Attribute Fate unless only the bought
    level counts (A-10)."""
    cat = mods(dm_catalogue, "cat-reflexes")
    instinct = lambda report: next(t for t in report.detail.traits if t.trait == "ins")  # noqa: E731
    assert instinct(dm_check(dm_catalogue, traits={"ins": 2}, modifications=cat)).fate == 1
    assert instinct(dm_check(dm_catalogue, traits={"ins": 2}, modifications=cat,
                             house_rules={"bonus-level": "bought"})).fate == 0


def test_metallurgent_platoon_initiative():
    """T-72B (6) and M60A3 (5) average 5.5: 6 rounded up as the book says (M-R82), 5 rounded down."""
    catalogue = read_pack(ACTIVE["metallurgent"].data_dir / "units.yaml", ACTIVE).catalogue
    document = {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad", "pack": catalogue.pack,
                "name": "Armour", "platoons": [{"name": "Tanks", "members": [{"unit": "t-72b-mbt"}, {"unit": "m60a3-mbt"}]}]}
    platoon = lambda d: squads.validate(d, catalogue).detail.platoons[0]  # noqa: E731
    assert platoon(document).initiative == 6
    down = platoon({**document, "house_rules": {"platoon-initiative": "down"}})
    assert down.initiative == 5 and "floor((6 + 5) / 2)" in down.explain


def test_darkmetal_ally_value(dm_catalogue):
    """A Standard Infantry with a Heavy Rifle against Max Ally Value 100 (Communication 1): its gear counts too,
    unless the table counts the tier alone (A-42)."""
    ally = {"name": "Ash", "template": "recruit", "paid_with": "rep", "deployed": True, "armor": None,
            "weapons": ["melee-weapon", "heavy-rifle"], "items": []}
    value = lambda report: next(m for m in report.meters if m.key == "ally_value").used  # noqa: E731
    with_gear = dm_check(dm_catalogue, traits={"com": 2}, allies=[ally])
    tier_only = dm_check(dm_catalogue, traits={"com": 2}, allies=[ally], house_rules={"ally-value": "tier"})
    assert value(with_gear) == value(tier_only) + 35


def test_darkmetal_injury_rep_bonus(dm_catalogue):
    twice = {"injury_rule": True, "campaign": 1, "injuries": [{"item": "eye-damage", "campaign": 0},
                                                               {"item": "eye-damage", "campaign": 1}]}
    assert dm_check(dm_catalogue, **twice).stats["injury_rep_bonus"].value == 10
    each = dm_check(dm_catalogue, house_rules={"injury-rep-bonus": "each-time"}, **twice)
    assert each.stats["injury_rep_bonus"].value == 20


def test_metallurgent_bare_knowledge(m_catalogue):
    """A Lifepath's Knowledge with no Proficiency bought rolls 4+, or 5+ under the house rule (8.3 #40)."""
    document = pilot(m_catalogue, lifepath="thaw-bloc-drifter")
    knowledge = lambda report: next(k for k in report.detail.knowledges if k.held)  # noqa: E731
    held = knowledge(pilots.validate(document, m_catalogue))
    assert {p.criterion for p in held.proficiencies} == {4}
    bare = knowledge(pilots.validate({**document, "house_rules": {"bare-knowledge": "unproficient"}}, m_catalogue))
    assert bare.key == held.key and {p.criterion for p in bare.proficiencies} == {5}



def test_darkmetal_bonus_arp(dm_catalogue):
    assert dm_check(dm_catalogue, traits={"com": 8}).stats["bonus_arp"].value == 40  # level 4: each whole level
    assert dm_check(dm_catalogue, traits={"com": 8}, house_rules={"bonus-arp": "two-levels"}).stats["bonus_arp"].value == 20


def test_darkmetal_sys_negation(dm_catalogue):
    """Eye Replacement under Combat Armor (Sys 1): its +1 Awareness is cancelled; its −1 Instinct stays unless
    the table cancels drawbacks too (A-28)."""
    kit = {"armor": {"item": "combat-armor"}, "modifications": mods(dm_catalogue, "eye-replacement")}
    ins = lambda report: next(t for t in report.detail.traits if t.trait == "ins").modifier  # noqa: E731
    base = ins(dm_check(dm_catalogue, armor={"item": "combat-armor"}))
    assert ins(dm_check(dm_catalogue, **kit)) == base - 1
    assert ins(dm_check(dm_catalogue, house_rules={"sys-negation": "everything"}, **kit)) == base


def test_darkmetal_knowledge_points(dm_catalogue):
    """Brain Augmentation lifts Knowledge ½ to an effective 1½: 6 points instead of 1 when the table counts the
    effective level (A-12)."""
    brain = {"modifications": mods(dm_catalogue, "brain-augmentation"), "knowledge": {"med": 3}}
    assert "DM-R12" in codes(dm_check(dm_catalogue, **brain))
    effective = dm_check(dm_catalogue, house_rules={"knowledge-points": "effective"}, **brain)
    assert "DM-R12" not in codes(effective) and next(m for m in effective.meters if m.key == "knowledge").limit == 6


def test_metallurgent_radar_range():
    """A 16-hex gun beyond the FCS's reach, with a 16-hex Radar: no M-R55 warning unless only the FCS counts."""
    catalogue = make_catalogue(weapon("long-gun", range=16), equipment("radar", "radar", range=16))
    document = anvil([("long-gun", "core"), ("radar", "core")])
    assert "M-R55" not in codes(m_rules.validate(document, catalogue), "warning")
    fcs_only = {**document, "house_rules": {"radar-range": "fcs-only"}}
    assert "M-R55" in codes(m_rules.validate(fcs_only, catalogue), "warning")


def test_every_declared_option_has_its_own_test():
    """`test_<ruleset>_<option>` in one of the test modules, for every option declared."""
    modules = [".".join(path.relative_to(TESTS.parent).with_suffix("").parts) for path in TESTS.rglob("test_*.py")]
    names = {name for module in modules for name in dir(importlib.import_module(module)) if name.startswith("test_")}
    missing = [f"test_{ruleset}_{key.replace('-', '_')}" for ruleset, key in OPTIONS
               if f"test_{ruleset}_{key.replace('-', '_')}" not in names]
    assert not missing


# --- severities, bad values, the API ----------------------------------------------------------------------

def document(**fields):
    return {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader",
            "pack": pack_ref("darkmetal", "leader"),
            "name": "House", **fields}


def test_a_severity_override_softens_or_drops_a_rule(packs, dm_catalogue):
    over = document(traits={"ath": 10, "pre": 4})
    assert not store.check(over).report.legal
    softened = store.check({**over, "house_rules": {"severity": {"DM-R04": "warning"}}}).report
    assert softened.legal and "DM-R04" in codes(softened, "warning")
    dropped = store.check({**over, "house_rules": {"severity": {"DM-R04": "off", "DM-R53": "off"}}}).report
    assert dropped.legal and not {i.code for i in dropped.issues} & {"DM-R04", "DM-R53"}


@pytest.mark.parametrize("house_rules, path", [
    ({"gear-budjet": 2000}, "house_rules.gear-budjet"),
    ({"gear-budget": -5}, "house_rules.gear-budget"),
    ({"gear-budget": "lots"}, "house_rules.gear-budget"),
    ({"group-activate": "vibes"}, "house_rules.group-activate"),
    ({"severity": {"DM-R999": "off"}}, "house_rules.severity.DM-R999"),
    ({"severity": {"DM-R04": "maybe"}}, "house_rules.severity.DM-R04"),
    ({"severity": "off"}, "house_rules.severity"),
])
def test_bad_house_rules_are_a_422_naming_them(client, packs, house_rules, path):
    response = client.post("/api/validate", data=json.dumps(document(house_rules=house_rules)),
                           content_type="application/json")
    assert response.status_code == 422 and path in [p["path"] for p in response.json()["problems"]]


def test_the_api_lists_each_rulesets_options(client, packs):
    body = client.get("/api/rulesets/darkmetal/house-rules").json()
    options = {o["key"]: o for o in body["options"]}
    assert options["gear-budget"] == {"key": "gear-budget", "kind": "parameter", "label": options["gear-budget"]["label"],
                                      "rule": "DM-R06", "text": options["gear-budget"]["text"], "kinds": ["leader"],
                                      "default": 1500, "low": 0, "high": 20000}
    metallurgent = {o["key"]: o for o in client.get("/api/rulesets/metallurgent/house-rules").json()["options"]}
    assert metallurgent["core-melee"]["kinds"] == ["anvil"] and metallurgent["platoon-initiative"]["kinds"] == ["squad"]
    assert set(options["group-activate"]["choices"]) == {"table", "trait"}
    assert "DM-R18" in body["severity"]["rules"] and body["severity"]["values"] == ["error", "warning", "info", "off"]
    assert client.get("/api/rulesets/chess/house-rules").status_code == 404


# --- the builder panel, the share page and the sheet ----------------------------------------------------

def test_the_panel_saves_house_rules_and_every_page_prints_them(client, packs, dm_catalogue):
    page = page_for("darkmetal", "leader")
    base = page.blank(document()["pack"])
    form = {"pack": base["pack"], "name": "House", "hr-gear-budget": "2000", "hr-group-activate": "table",
            "hr-severity-count": "1", "hr-severity-0-rule": "DM-R53", "hr-severity-0": "off", "action": "save"}
    response = client.post("/new/darkmetal/leader/", form)
    assert response.status_code == 302
    build = Build.objects.get()
    assert build.document["house_rules"] == {"gear-budget": 2000, "severity": {"DM-R53": "off"}}
    edit = client.get(build.get_absolute_url()).content.decode()
    assert 'name="hr-gear-budget" value="2000"' in edit and "2 in force" in edit
    share = client.get(build.share_url()).content.decode()
    assert "House rules:" in share and "DM-R06 MES, weapons, items and allies budget: 2000 (rulebook: 1500)" in share
    assert "DM-R53" in share and "ignored" in share
    sheet = "".join(page.sheet_sections(build, store.check_saved(build), "https://x.test/s/a/"))
    assert "House rules:" in sheet and "2000 (rulebook: 1500)" in sheet


def test_house_rules_left_at_the_rulebook_are_not_stored(client, packs):
    form = {"pack": document()["pack"], "name": "Plain", "hr-gear-budget": "1500", "hr-severity-count": "1",
            "hr-severity-0-rule": "DM-R53", "hr-severity-0": "rulebook", "action": "save"}
    client.post("/new/darkmetal/leader/", form)
    assert not Build.objects.get().document.get("house_rules")


# --- presets: a named set shared by link, applied to any build of the ruleset ---------------------------

def make_preset(client, **fields):
    form = {"hr-gear-budget": "2000", "hr-severity-count": "1", "hr-severity-0-rule": "DM-R18",
            "hr-severity-0": "off", "hr-preset-name": "Tuesday league", **fields}
    return client.post("/house-rules/darkmetal/presets", form)


def test_a_preset_is_made_from_the_panel_and_shown_by_link(client, packs):
    response = make_preset(client)
    assert response.status_code == 302 and response["Location"].startswith("/house-rules/")
    page = client.get(response["Location"]).content.decode()
    assert "Tuesday league" in page and "DM-R06 MES, weapons, items and allies budget:</strong> 2000" in page
    assert "DM-R18" in page and "ignored" in page


def test_applying_a_preset_sets_the_builds_house_rules(client, packs):
    link = "https://table.test" + make_preset(client)["Location"]
    form = {"pack": pack_ref("darkmetal", "leader"), "name": "League", "action": "apply_preset", "hr-preset": link}
    page = client.post("/new/darkmetal/leader/", form).content.decode()
    assert 'name="hr-gear-budget" value="2000"' in page and "2 in force" in page


@pytest.mark.parametrize("fields, path", [({"hr-preset-name": ""}, "hr-preset-name"),
                                          ({"hr-gear-budget": "-1"}, "hr-gear-budget")])
def test_a_bad_preset_is_refused_naming_the_field(client, packs, fields, path):
    response = make_preset(client, **fields)
    assert response.status_code == 422 and path in response.content.decode()


def test_a_preset_of_another_ruleset_or_link_does_not_apply(client, packs):
    link = make_preset(client)["Location"]
    form = {"pack": pack_ref("metallurgent", "pilot"), "name": "P", "xp": "0", "action": "apply_preset", "hr-preset": link}
    assert client.post("/new/metallurgent/pilot/", form).status_code == 422


@pytest.mark.parametrize("ruleset, key", OPTIONS)
def test_every_option_in_use_is_printed_on_the_sheet(packs, ruleset, key):
    spec = ACTIVE[ruleset]
    option = spec.house_rules()[key]
    value = option.low if option.kind == "parameter" and option.low != option.default else (
        option.high if option.kind == "parameter" else next(c for c in option.choices if c != option.default))
    kind = next(k for k in spec.kinds if not option.kinds or k.key in option.kinds)
    page = page_for(ruleset, kind.key)
    document = {**page.blank(pack_ref(ruleset, kind.key)), "house_rules": {key: value}}
    checked = store.check(document)
    sheet = "".join(page.sheet_sections(Build(share_id="x", name="x", version=1), checked, "https://x.test/s/x/"))
    assert escape(f"{option.rule} {option.label}: {option.describe(value)}") in sheet


def test_each_builder_offers_the_house_rules_of_its_kind(client, packs):
    anvil_page = client.get("/new/metallurgent/anvil/").content.decode()
    pilot_page = client.get("/new/metallurgent/pilot/").content.decode()
    assert 'name="hr-core-melee"' in anvil_page and 'name="hr-bare-knowledge"' not in anvil_page
    assert 'name="hr-bare-knowledge"' in pilot_page and 'name="hr-core-melee"' not in pilot_page
    assert anvil_page.index("Budgets and limits") < anvil_page.index("Readings where the rulebook is unclear")


def test_a_text_cut_short_by_a_yaml_comment_is_refused(tmp_path):
    (tmp_path / "house_rules").mkdir()
    (tmp_path / "house_rules" / "a.yaml").write_text(
        "- key: x\n  kind: reading\n  label: X\n  rule: M-R01\n  text: As the digest says (8.3 #1).\n"
        "  default: a\n  choices: {a: one, b: two}\n")
    with pytest.raises(PackError, match="bracket is left open"):
        house_rules.load(tmp_path)


def test_no_option_file_has_an_unquoted_hash_that_yaml_would_cut():
    """YAML reads " #" in a plain value as a comment: "Max # Allies" would become "Max"."""
    for ruleset in ACTIVE.values():
        for path in (ruleset.data_dir / "house_rules").glob("*.yaml"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                key, _, value = line.strip().partition(": ")
                assert not (value and value[0] not in "'\">|" and " #" in value), f"{path.name}:{number}"
