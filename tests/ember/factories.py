"""Ember test cards, hand-written: a Pilot (and a twin of the same ID number), Part cards for every slot (a
Handheld right arm with its Discard side), and a Mech of them for the construction checks."""
from catalogue.rulesets.ember import construction as c
from catalogue.rulesets.ember.schema import PartCard, Pilot

INITIATIVE = {t: 5 for t in ("swift", "melee", "projectile", "firing", "movement", "tactical")}
ACE = Pilot(key="ace", name="Ace", id_number="07", faction="UN", max_link=4, initiative=INITIATIVE)
TWIN = Pilot(key="twin", name="Twin", id_number="07", faction="RDL", max_link=3, initiative=INITIATIVE)


def part(key, slot, **fields):
    return PartCard(key=key, name=key.title(), slot=slot, **fields)


TORSO = part("core", "torso", armor=4, electronic=2, actions=[{"name": "Uplink", "type": "tactical", "length": "short"}])
CHASSIS = part("legs", "chassis", armor=5, dodge=3, maneuver=3)
LEFT = part("claw", "left_arm", armor=3, dodge=2, freehand=True)
RIGHT = part("rifle", "right_arm", armor=4, handheld=True,
             actions=[{"name": "Single Shot", "type": "firing", "length": "short", "range": 8, "yellow": 1, "red": 3,
                       "ammo": 2}],
             discard={"name": "Open Hand", "armor": 3, "freehand": True})
BACK = part("pack", "backpack", armor=3, actions=[{"name": "Rockets", "type": "projectile", "length": "medium",
                                                    "charge": True, "intercept": 2}])


def mech(*parts, pilot=ACE, name="Hound", discarded=()):
    return c.Mech(name, {p.slot: p for p in parts}, pilot, set(discarded))
