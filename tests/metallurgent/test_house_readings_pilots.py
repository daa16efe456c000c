"""METALLURGENT Pilot and squad readings as house rules: each default is the reading
docs/rulesets/metallurgent.md gives, and each other choice changes what it says (one test per option, named after
it)."""
from collections import Counter

from catalogue.rulesets.metallurgent import pilots
from catalogue.rulesets.metallurgent.rules import deployment_zone, validate
from tests.metallurgent.factories import anvil, make_catalogue, part, weapon
from tests.metallurgent.pilot_factories import codes, learn, pilot, spec


def test_metallurgent_no_spec_price(m_catalogue):
    skill = m_catalogue.items["bm-lightning-strike"]
    assert pilots.price(skill, None) == 3 and pilots.price(skill, None, "on-spec") == 2
    early = pilot(m_catalogue, [learn("bm-lightning-strike", 2)])
    assert "M-R100" in codes(pilots.validate(early, m_catalogue))
    assert "M-R100" not in codes(pilots.validate({**early, "house_rules": {"no-spec-price": "on-spec"}}, m_catalogue))


def test_metallurgent_recorded_price(m_catalogue):
    """Bought off-Spec before choosing Battlemaster: 3 SP stands; priced at the final Spec it should be 2."""
    history = [learn("bm-lightning-strike", 3), spec("battlemaster")]
    assert "M-R100" not in codes(pilots.validate(pilot(m_catalogue, history), m_catalogue))
    final = pilots.validate(pilot(m_catalogue, history, house_rules={"recorded-price": "final-spec"}), m_catalogue)
    assert "M-R100" in codes(final)
    cheap = [learn("bm-lightning-strike", 2), spec("battlemaster")]
    assert "M-R100" not in codes(pilots.validate(pilot(m_catalogue, cheap, house_rules={"recorded-price": "final-spec"}),
                                                 m_catalogue))


def test_metallurgent_no_spec_branch(m_catalogue):
    early = pilot(m_catalogue, [learn("mm-in-the-zone", 8)])
    assert "M-R103" in codes(pilots.validate(early, m_catalogue))
    assert "M-R103" not in codes(pilots.validate({**early, "house_rules": {"no-spec-branch": "all-owned"}}, m_catalogue))


def test_metallurgent_development_knowledge(m_catalogue):
    """Night School improves Mathematics, which the Pilot without a background does not hold."""
    document = pilot(m_catalogue, developments=["dev-night-school"],
                     proficiencies=[{"knowledge": "mathematics", "proficiency": "logic"}])
    report = pilots.validate(document, m_catalogue)
    assert "M-R91" not in codes(report)
    assert next(k for k in report.detail.knowledges if k.key == "mathematics").held

    needs = pilots.validate({**document, "house_rules": {"development-knowledge": "needs-knowledge"}}, m_catalogue)
    assert "M-R91" in codes(needs)


def test_metallurgent_proficiency_levels():
    background = pilots.Background({}, ["medicine"], Counter(medicine=2), Counter({("medicine", "physical"): 2}), [])
    assert pilots.criterion("medicine", "physical", background) == 2
    assert pilots.criterion("medicine", "physical", background, levels="once") == 3


def test_metallurgent_negative_initiative():
    """Initiative 0 on the Mobility Base, −1 at the heaviest breakpoint (31-32 ST)."""
    cat = make_catalogue(part("slow-legs", "biped", initiative=0), weapon("anchor", load=14))
    document = anvil([("anchor", "core")], mobility_base="slow-legs")
    green = validate(document, cat)
    assert green.stats["initiative"].value == -1 and green.stats["deployment_zone"].value == "Green"
    none = validate({**document, "house_rules": {"negative-initiative": "no-zone"}}, cat)
    assert none.stats["deployment_zone"].value == "none" and "M-R62" in codes(none, "warning")
    # A Platoon's average reads the same table (squads.py).
    assert deployment_zone(-1) == "Green" and deployment_zone(-1, "no-zone") == "none" == deployment_zone(-3, "no-zone")
    assert deployment_zone(0, "no-zone") == "Green"


def test_metallurgent_reserve_cap():
    cat = make_catalogue(weapon("rifle", reserve=4))
    document = anvil([("rifle", "core")])
    document["gear"][0]["reserve"] = 6
    assert "M-R63" in codes(validate(document, cat), "error")
    assert "M-R63" in codes(validate({**document, "house_rules": {"reserve-cap": "warning"}}, cat), "warning")
