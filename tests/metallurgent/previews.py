"""The METALLURGENT combat preview as the tests run it: a build resolved on a catalogue, a plain target of six
Components, an attack picked from the result by its key, and one Anvil's weapons fired on the factory catalogue
(tests/metallurgent/factories.py); and Drift's landing chances walked out by hand, roll by roll."""
from fractions import Fraction
from itertools import product

from catalogue.rulesets.metallurgent import preview, rules
from tests.metallurgent.factories import anvil, make_catalogue, part


def resolved(document, catalogue):
    return rules.resolve(rules.parse(document), catalogue)


def plain_target(defence=4, parts=6, resistance=0, ap=30, **extra):
    return preview.Target("Dummy", "anvil", defence,
                          [preview.Part(f"C{i}", ap, {"KE": resistance, "CE": resistance, "TE": resistance})
                           for i in range(parts)], **extra)


def attack_named(result, key):
    return next(a for a in result["attacks"] if a["key"] == key)


def run(gear, situation=None, target=None, catalogue=None, **parts):
    # A Tracking FCS adds nothing unless the target Flanks, which keeps the pools plain.
    catalogue = catalogue or make_catalogue(*gear, part("track-fcs", "fcs", targeting_type="tracking"))
    parts.setdefault("fcs", "track-fcs")
    mounted = [(key, "core") for key, _ in gear]
    return preview.preview(resolved(anvil(mounted, **parts), catalogue), target or plain_target(),
                           preview.Situation(**(situation or {})))


# --- Drift (L629-633, L1405-1409, L1427, L2551) -------------------------------------------------------------------

SIDES = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def walked(steps, wind_side=None, wind=0):
    """Every one of the 6^steps Drift rolls, walked out by hand: the landing distances' exact chances."""
    chances = {}
    for rolls in product(SIDES, repeat=steps):
        q, r = sum(s[0] for s in rolls), sum(s[1] for s in rolls)
        if wind_side is not None:
            q, r = q + wind * wind_side[0], r + wind * wind_side[1]
        distance = max(abs(q), abs(r), abs(q + r))
        chances[distance] = chances.get(distance, 0) + Fraction(1, 6 ** steps)
    return chances


def caught(steps, radius):
    return sum(p for d, p in walked(steps).items() if d <= radius)
