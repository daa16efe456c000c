"""METALLURGENT combat preview readings as house rules (M-C56 Intercept, M-C59 Drift): each default is the
README's reading, and the other choice changes the preview's odds (one test per option, named after it)."""
from fractions import Fraction

import pytest

from catalogue.loader import latest_pack
from catalogue.rulesets.metallurgent import preview
from tests.metallurgent.factories import anvil, make_catalogue, part, weapon
from tests.metallurgent.previews import attack_named, caught, plain_target, resolved


def fire(gun, situation, target, **house_rules):
    """One weapon on the Core, with a Tracking FCS that adds nothing unless the target Flanks."""
    catalogue = make_catalogue(gun, part("track-fcs", "fcs", targeting_type="tracking"))
    document = {**anvil([(gun[0], "core")], fcs="track-fcs"), "house_rules": house_rules}
    return preview.preview(resolved(document, catalogue), target, preview.Situation(**situation))


def burst_at(target, bursts=3, **house_rules):
    gun = weapon("smg", damage=10, accuracy=-5, functions=[f"Burst {bursts}"])
    result = fire(gun, {"range": 4, "target_intercepting": True}, target, **house_rules)
    return attack_named(result, "gear[0]")


def test_metallurgent_intercept():
    """Three sure Hits of 10 against Intercept 3: one of them loses 3, or all three do (patch 0.0.5)."""
    target = plain_target(defence=0, resistance=0, intercept_bonus=3)
    one = burst_at(target)
    assert one["expected_damage"] == pytest.approx(10 + 10 + 7)
    assert "−3 Intercept on one Hit" in one["notes"]
    every = burst_at(target, intercept="every-hit")
    assert every["expected_damage"] == pytest.approx(3 * 7)
    assert "−3 Intercept on every Hit" in every["notes"]


def test_m_c56_an_intercept_takes_one_hit_of_an_uncertain_burst():
    """One die at 4+ against TN 2 Hits 1/6 of the time: of Burst 2's expected 1/3 Hit, the Intercept takes 3
    off whenever any lands (11/36)."""
    smg = burst_at(plain_target(defence=2, resistance=0, intercept_bonus=3), bursts=2)
    p = Fraction(1, 6)
    assert smg["p_hit"] == pytest.approx(float(p))
    assert smg["expected_damage"] == pytest.approx(float(2 * p * 10 - (1 - (1 - p) ** 2) * 3))
    assert burst_at(plain_target(intercept_bonus=3), bursts=1)["damage"] == 7  # a single Hit is the one Hit


def test_metallurgent_drift_hexes():
    """One die against TN 2 misses one short 1/3 of the time and two short 1/2: a Blast 1 catches the target
    from 2 or 4 hexes of Drift, or from 1 or 2."""
    shell = weapon("shell", damage=20, damage_type="CE", accuracy=-5, payloads=["Blast 1"])

    def blast(**house_rules):
        result = fire(shell, {"range": 4}, plain_target(defence=2, resistance=0), **house_rules)
        return attack_named(result, "gear[0]/blast-1")

    two, one = blast(), blast(**{"drift-hexes": "one"})
    third, half = Fraction(1, 3), Fraction(1, 2)
    assert two["drift"]["p_catch"] == pytest.approx(float(third * caught(2, 1) + half * caught(4, 1)))
    assert one["drift"]["p_catch"] == pytest.approx(float(third * caught(1, 1) + half * caught(2, 1)))
    # Landing within 1 hex: 10 CE at one Hit Location and 5 to each of the other five.
    assert one["drift"]["expected_damage"] == pytest.approx(one["drift"]["p_catch"] * (10 + 5 * 5))
    assert "Drifts 2 hexes for each success short" in " ".join(e["text"] for e in two["effects"])
    assert "Drifts 1 hex for each success short" in " ".join(e["text"] for e in one["effects"])


@pytest.mark.django_db
def test_m_c59_a_builds_drift_reading_reaches_the_preview_api(client, packs):
    """The Longfall Artillerist's howitzer at a T-72: the saved build's house rule is the one the preview plays."""
    artillerist = next(e for e in latest_pack("metallurgent").examples if e["name"] == "Longfall Artillerist")

    def howitzer(**house_rules):
        body = {"attacker": {**artillerist, "house_rules": house_rules}, "target": {"unit": "t-72b-mbt"},
                "situation": {"range": 12}}
        data = client.post("/api/preview", body, content_type="application/json").json()
        return next(a for a in data["attacks"] if a["name"] == "Downburst Howitzer" and a["payload"] == "Blast 2")

    two, one = howitzer(), howitzer(**{"drift-hexes": "one"})
    assert 0 < two["drift"]["p_catch"] < one["drift"]["p_catch"]


@pytest.mark.parametrize("two", [("target_blocking", "target_intercepting"), ("target_dodging", "target_blocking")])
def test_m_c55_one_bid_an_activation(two):
    assert getattr(preview.Situation(**{two[0]: True}), two[0])  # one is the limit
    with pytest.raises(ValueError, match="one of Block, Intercept and Dodge"):
        preview.Situation(**dict.fromkeys(two, True))
