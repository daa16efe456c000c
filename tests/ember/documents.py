"""Ember Mech documents on the starter pack: its Parts for a legal Mech, a Mech of them flown by one of its Pilots,
and the Pilots' keys (the pack loaded, as the `packs` fixture loads it)."""
from catalogue.loader import catalogue_by_ref

PACK = "ember-starter@1.0.0"
PARTS = {"torso": "flint-assault-torso", "chassis": "strider-legs", "left_arm": "ridgeline-rifle-arm",
         "right_arm": "breaker-blade-arm"}


def mech(name="Cinder", pilot="gof-007-han-ye", parts=PARTS, **fields):
    return {"format": "hardpoint.build/1", "ruleset": "ember", "kind": "mech", "pack": PACK, "name": name,
            "parts": dict(parts), "pilot": pilot, **fields}


def pilot_keys():
    return [p.key for p in catalogue_by_ref(PACK).of("pilot")]
