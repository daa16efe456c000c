"""DARK METAL at the table: the Squad Leader's BHP, AHP, Power and Fate (the sheet's double boxes, L448, L456), each
weapon's ammunition (the sheet's Max Ammo / Current columns, L366-374), the backpack's kits, grenades and reloads,
the injuries the optional rule gives below 0 HP (DM-R71), and each deployed ally's BHP, AHP, ammunition and kit
under the ally's name.

What the rules draw from them: AHP gone, the Leader or an ally knocked out (DM-R67), a weapon out of ammunition,
Power spent, an injury to choose. The preview reads the Leader's trait pools, which an injury lowers: `played`
writes the injuries taken into the Leader; it reads no HP, ammunition or Power, so those stay on the table.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..spec import Consequence, Tabletop, Track
from .rules import carried_ammo
from .schema import TRAIT_NAMES, Item, Weapon

# A-62 reading: knocked out at 0 BHP (L1136), an injury only below 0 (L1341). BHP goes below 0 to count the damage
# past 0, which Not Dead Yet adds to its difficulty of 7 (L825): 4 past 0 is out of a d10's reach, as is more.
PAST_ZERO = 4
NOT_DEAD_YET = 7
AT_ZERO = "At 0: "

# "Use 1 Power to add N Ammo" (L750-780). Reading: a recharge fills up to Max Ammo, the sheet's column (L366-374).
RECHARGE = {
    "shock-striker": "1 Power adds 3 ammo (L750)",
    "palm-shocker": "1 Power adds 1 ammo (L751)",
    "energy-melee-weapon": "1 Power adds 1 ammo (L754)",
    "energy-staff": "1 Power adds 1 ammo (L755)",
    "energy-spear": "1 Power adds 1 ammo (L756)",
    "beam-rifle": "1 Power adds 6 ammo (L758)",
    "pe-cannon": "1 Power and 1 Action add 10 ammo (L778)",
    "heavy-beam-rifle": "1 Power and 1 Action add 20 ammo (L779)",
    "plasma-spray": "1 Power and 1 Action add 4 ammo (L780)",
}
# What else spends Power, gear first, then the Cyber whose abilities Sys armour negates (DM-R18).
POWER_GEAR = {
    "pe-cannon": "1 Power and 3 ammo for a 1\" blast (L778)",
    "heavy-beam-rifle": "1 Power for +1 Pierce and the unrolled dice as damage (L779)",
    "electrolaser": "1 Power a shot, once a turn (L782)",
    "tesla-cracker": "1 Power a Range 2 shot, 2 a Range 3 shot (L766)",
    "pw-a-melee": "1 Power for +1 Pierce, Shock and +1 Athletics die (L776)",
}
POWER_MES = {
    "cyber-arm": "1 Power and 1 Action: +1 to Athletics rolls to the end of the next turn (L712)",
    "defensive-synapse-net": "1 Power: one Instinct die becomes a 1, once a turn (L715)",
    "synthetic-leg-muscles": "1 Power and 1 Action: +1 Athletics die, +50% Move and Jump (L716)",
    "synthetic-arm-muscles": "1 Power and 1 Action: +1 Athletics die, +100% Throw, +50% Climb (L717)",
    "cyber-legs": "1 Power and 1 Action: +2 Athletics dice, +50% Move and Jump (L719)",
    "dual-cyber-arms": "1 Power: +1 Athletics die for a Close Combat attack (L720)",
}
# Ammunition rules beside the count, text only.
AMMO_TEXT = {
    "model-740-mil-spec-m-rifle": "; it uses no ammo in Close Combat (L762)",
    "model-742-mil-spec-m-rifle": "; it holds 1 grenade besides, text only (L764)",
    "grenade-launcher": "; it holds 1 grenade at a time, reloading takes 1 Action, text only (L763)",
}
USED_UP = ("trauma_kit", "armor_kit", "mine", "grenade", "ammo")  # Items table rows spent when used (L724-735)
ALLY_KEY = re.compile(r"^(allies\[\d+\])\.(.+)$")
PLACES = {"hands": "Hand {n}", "attach": "AP{at}", "backpack": "Backpack"}


def tracks(build: Any, catalogue, report, linked) -> list[Track]:
    items, stats = catalogue.items, report.stats
    abilities = {a.name for a in report.detail.abilities}
    survival = next((s.level for s in report.detail.skills if s.key == "sur"), 0)
    found = leader_health(build, stats, "Not Dead Yet" in abilities, survival)
    found += power(build, items, stats, abilities)
    general = stats["general_fate"].value
    found.append(Track("fate.general", "General Fate", "", 0, general, general, rule="DM-R69",
                       note=f"{stats['general_fate'].explain}: reroll any dice of the Leader or an ally he controls, "
                            f"opposing dice too (L1394). Refreshes between scenarios; BHP damage may refill one "
                            f"spent Fate (Rebounding Fate, L1410, text only)."))
    found += [Track(f"fate.{row.trait}", f"{row.name} Fate", "", 0, row.fate, row.fate, rule="DM-R69",
                    note=f"Attribute Fate from {row.name} {row.base}: reroll {row.name} dice only (L1394, DM-R69).")
              for row in report.detail.traits if row.fate]
    for where, picks in (("hands", build.hands), ("attach", build.attach), ("backpack", build.backpack)):
        for i, pick in enumerate(picks):
            place = PLACES[where].format(n=i + 1, at="+".join(map(str, getattr(pick, "at", []))))
            found += ammo(f"ammo.{where}[{i}]", items[pick.item], place, "Ammo", report.detail.ammo_bonus)
    found += [used(f"used.backpack[{i}]", items[p.item], "Backpack") for i, p in enumerate(build.backpack)
              if spent_once(items[p.item])]
    if build.injury_rule:
        found += [injury_track(injury) for injury in sorted(catalogue.of("injury"), key=lambda i: i.roll)]
    records = report.detail.ally_records
    names = [ally.name for ally in build.allies]
    for i, ally in enumerate(build.allies):
        if ally.deployed and records[i].status == "active":  # only deployed allies take the field (DM-R64, DM-R67)
            group = ally.name if names.count(ally.name) == 1 else f"{ally.name} ({i + 1})"
            found += ally_tracks(f"allies[{i}]", group, ally, catalogue)
    return found


def leader_health(build: Any, stats, not_dead_yet: bool, survival: int) -> list[Track]:
    bhp, ahp = stats["bhp"].value, stats["ahp"].value
    below = [" Below 0, roll two d6 and choose an injury (DM-R71)."] if build.injury_rule else []
    if not_dead_yet:
        below.append(f" Not Dead Yet: Survival {survival} against {NOT_DEAD_YET} + the damage past 0 (L825).")
    out = ("knocked out of the scenario (L1136); ending it at 0 HP or less keeps the Leader out for the rest of the "
           "campaign, back at full health on the ship (DM-R67).")
    found = [Track("bhp", "BHP", "", -PAST_ZERO if below else 0, bhp, bhp, rule="DM-R68",
                   note=f"{stats['bhp'].explain}; AHP is lost first (L446).{''.join(below)} {AT_ZERO}{out}",
                   facts={"at 0": out})]
    if ahp:
        found.append(Track("ahp", "AHP", "", 0, ahp, ahp, rule="DM-R68",
                           note=f"{stats['ahp'].explain} (L446, DM-R68). While Armor is 1 or more, each hit's Venom "
                                f"is reduced by the AHP left (L1261-1265, text only)."))
    if not_dead_yet:
        found.append(Track("not_dead_yet", "Not Dead Yet used", "", rule="DM-R72",
                           note=f"Once per Scenario, at 0 BHP or less: Survival {survival} against {NOT_DEAD_YET} + "
                                f"the damage past 0; on a success BHP goes back to 1 and the next turn is skipped "
                                f"(L825, DM-R72)."))
    return found


def power(build: Any, items, stats, abilities: set[str]) -> list[Track]:
    """Power spent from its capacity; Emergency Power adds one more once a Scenario (read: past the capacity)."""
    most, emergency = stats["power"].value, "Emergency Power" in abilities
    if not most and not emergency:
        return []
    gear = [items[p.item] for p in (*build.hands, *build.attach, *build.backpack)]
    uses = {w.name: "; ".join(filter(None, (RECHARGE.get(w.key), POWER_GEAR.get(w.key)))) for w in gear
            if w.key in RECHARGE or w.key in POWER_GEAR}
    if not stats["systems"].value:  # Sys armour negates every MES ability (DM-R18)
        uses.update({items[m.item].name: POWER_MES[m.item] for m in build.modifications if m.item in POWER_MES})
    if "Overpower" in abilities:  # Knowledge, not an MES: Sys leaves it be
        uses["Overpower"] = "1 Power (or 1 BHP) for as many more Close Combat dice as Bulk, Armor above 1 (L790)"
    spends = "; ".join(f"{name}: {use}" for name, use in uses.items()) or "nothing carried spends it"
    extra = (" Emergency Power (Eng 3): once per Scenario 1 more Power, for 1 BHP damage at a capacity of 4 or less "
             "(L795)." if emergency else "")
    return [Track("power", "Power", "", 0, most + int(emergency), most, mark=most if emergency else None, rule="DM-R72",
                  note=f"Capacity {most}, from {stats['power'].explain}; refills on the ship. Spent on: {spends} "
                       f"(DM-R72).{extra}", lines=tuple(uses))]


def ammo(key: str, item, place: str, group: str, bonus) -> list[Track]:
    if not getattr(item, "ammo", None):
        return []
    most = carried_ammo(item.ammo, bonus)
    more = f" ({item.ammo} + {most - item.ammo} from Every Single Round, DM-R13)" if most != item.ammo else ""
    if getattr(item, "close_combat", False) or getattr(item, "melee", False):
        out = ("only its plain blow is left" if any(not m.ammo for m in item.modes) else
               "it cannot strike until reloaded" + (" (L1257)" if item.shock else ""))
    elif isinstance(item, Weapon):
        out = "it cannot shoot; in Close Combat it strikes as a basic melee weapon (L1221)"
    else:
        out = "it cannot fire"
    refill = RECHARGE.get(item.key, "an Extra Ammo slot reloads it to Max Ammo (DM-R49)")
    return [Track(key, f"{item.name} ammo" + (f" ({place})" if place else ""), group, 0, most, most, rule="DM-R72",
                  lines=(item.name,), note=f"{place + ': ' if place else ''}Max Ammo {most}{more}"
                                           f"{AMMO_TEXT.get(item.key, '')} (DM-R72). {AT_ZERO}{out}; {refill}.",
                  facts={"at 0": f"{out}; {refill}."})]


def spent_once(item) -> bool:
    return (isinstance(item, Item) and item.kind in USED_UP) or (isinstance(item, Weapon) and item.grenade)


def used(key: str, item, group: str) -> Track:
    pack = {"trauma_kit": " (a trauma pack is exhausted after one use; Flexskin Saver, Med 3, L804)",
            "armor_kit": " (a repair pack is exhausted after one use; Metal Saver, Rep 3, L813)"}
    return Track(key, f"{item.name} used", group, rule="DM-R49", lines=(item.name,),
                 note=f"{item.description} Ticked once used{pack.get(getattr(item, 'kind', ''), '')}; refilled free "
                      f"on the ship (L724-735, DM-R49).")


def changes(traits: Mapping[str, float], move: int = 0) -> str:
    said = [f"{value:+g} {TRAIT_NAMES[trait]}" for trait, value in traits.items()]
    said += [f"{move:+d} Move"] if move else []
    return ", ".join(said).replace("-", "−")


def injury_track(injury) -> Track:
    boon = (f"; after {injury.boon_after} campaigns {changes(injury.boon_traits)}, once however often taken"
            if injury.boon_traits else "; it does not heal on its own")
    rep = f"; +{injury.rep_bonus}% Rep each scenario, rounded up" if injury.rep_bonus else ""
    return Track(f"injury.{injury.key}", f"{injury.name} (roll {injury.roll})", "Injuries", rule="DM-R71",
                 note=f"{changes(injury.traits, injury.move)}{boon}{rep}. Taken again, its losses count again "
                      f"(DM-R71).")


def ally_tracks(at: str, group: str, ally, catalogue) -> list[Track]:
    items = catalogue.items
    template = items[ally.template]
    # Reading: worn armour gives the ally its AHP, in place of the template's (the Medic's and Mechie's 1 AHP is
    # their default Combat Suit, L1470, L1482).
    ahp = items[ally.armor].ahp if ally.armor else template.ahp
    worn = items[ally.armor].name if ally.armor else template.name
    revived = "" if template.revived else "; Recruits are not revived unless the Captain is petitioned"
    out = f"knocked out of the scenario; ending it so keeps the ally out for the rest of the campaign{revived} (DM-R67)."
    found = [Track(f"{at}.bhp", "BHP", group, 0, template.bhp, template.bhp, rule="DM-R68",
                   note=f"{template.name}: {template.bhp} BHP (DM-R68); AHP is lost first (L446). {AT_ZERO}{out}",
                   facts={"at 0": out})]
    if ahp:
        found.append(Track(f"{at}.ahp", "AHP", group, 0, ahp, ahp, rule="DM-R68",
                           note=f"{worn}: {ahp} AHP, lost before BHP (L446, DM-R68)."))
    # Reading: an ally's default Knowledge Skills unlock the same abilities as the Leader's (Ars 1: Every Single Round).
    bonus = next((a.ammo_bonus for a in catalogue.of("knowledge_ability")
                  if a.ammo_bonus and template.skills.get(a.skill, 0) >= a.level), None)
    for j, key in enumerate(ally.weapons):
        found += ammo(f"{at}.ammo.weapons[{j}]", items[key], "", group, bonus)
    found += [used(f"{at}.used.items[{j}]", items[key], group) for j, key in enumerate(ally.items)
              if spent_once(items[key])]
    return found


# --- what follows from the values ------------------------------------------------------------------------------

def consequences(tracks: list[Track], state: Mapping[str, int]) -> list[Consequence]:
    value = {t.key: state.get(t.key, t.start) for t in tracks}
    bodies: dict[str, dict[str, Track]] = {}
    for track in tracks:
        found = ALLY_KEY.match(track.key)
        at, part = (found[1], found[2]) if found else ("", track.key)
        bodies.setdefault(at, {})[part] = track
    said = []
    for at, own in bodies.items():
        said += leader(own, value) if at == "" else ally(own, value)
    return said


def after_zero(track: Track) -> str:
    return track.facts["at 0"]


def wounds(who: str, own: dict[str, Track], value: Mapping[str, int]) -> list[Consequence]:
    """AHP first (L446): its loss, and BHP lost while AHP is left (an effect may say so; most do not)."""
    bhp, ahp = own["bhp"], own.get("ahp")
    if ahp is None or value[bhp.key] <= 0:
        return []
    if value[ahp.key] == 0:
        return [Consequence("DM-R68", f"{who}'s AHP is gone (0 of {ahp.high}): further damage comes off BHP "
                                      f"({value[bhp.key]} left) (L446, DM-R68).")]
    if value[bhp.key] < bhp.high:
        return [Consequence("DM-R68", f"{who} has lost {bhp.high - value[bhp.key]} BHP with {value[ahp.key]} AHP "
                                      f"left: AHP is lost before BHP unless an effect says otherwise (L446, "
                                      f"DM-R68).", "info")]
    return []


def out_of_ammo(who: str, own: dict[str, Track], value: Mapping[str, int]) -> list[Consequence]:
    return [Consequence("DM-R72", f"{who}: {t.lines[0]} is out of ammo: {after_zero(t)}", "warning", (t.key,))
            for part, t in own.items() if part.startswith("ammo.") and value[t.key] == 0]


def leader(own: dict[str, Track], value: Mapping[str, int]) -> list[Consequence]:
    bhp = value["bhp"]
    said = wounds("The Squad Leader", own, value)
    if bhp <= 0:
        # Reading (L1394): General Fate rerolls the allies' dice too, so it outlasts the Leader; the rest goes with him.
        gear = tuple(t.key for part, t in own.items()
                     if part == "power" or part.startswith(("ammo.", "used.", "fate.")) and part != "fate.general")
        said.append(Consequence("DM-R67", f"The Squad Leader is at {bhp} BHP: {after_zero(own['bhp'])} His "
                                          f"General Fate may still reroll his allies' dice (L1394).", "error", gear))
        if "not_dead_yet" in own and not value["not_dead_yet"]:
            against = NOT_DEAD_YET - bhp
            odds = ("no d10 reaches it" if against > 10 else
                    "on a success BHP goes back to 1 and the next turn is skipped")
            said.append(Consequence("DM-R72", f"Not Dead Yet (once per Scenario): roll Survival against {against}; "
                                              f"{odds} (L825, DM-R72)."))
    else:
        said += out_of_ammo("The Squad Leader", own, value)
    injuries = [t for part, t in own.items() if part.startswith("injury.")]
    taken = [t for t in injuries if value[t.key]]
    if injuries and bhp < 0 and not taken:
        said.append(Consequence("DM-R71", f"The Squad Leader fell below 0 HP ({bhp} BHP): roll two d6 and choose "
                                          f"one of the two results from the Injury Table (DM-R71)."))
    falls = 1 + value.get("not_dead_yet", 0)
    if len(taken) > falls:
        said.append(Consequence("DM-R71", f"{len(taken)} injuries ticked, but the Leader can have fallen below 0 HP "
                                          f"{falls} time{'s' if falls > 1 else ''} this scenario: one injury each "
                                          f"time (DM-R71)."))
    said += [Consequence("DM-R71", f"Injury taken, {t.label.partition(' (roll')[0]}: {t.note} The preview shows "
                                   f"the Leader with it.", "info") for t in taken]
    spent = own.get("power")
    if spent is not None and spent.start and value["power"] == 0 and bhp > 0:
        said.append(Consequence("DM-R72", f"Power spent (0 of {spent.start}): "
                                          f"{', '.join(spent.lines) or 'nothing carried'} can draw on none until "
                                          f"the ship refills it (DM-R72).", "warning"))
    return said


def ally(own: dict[str, Track], value: Mapping[str, int]) -> list[Consequence]:
    name = own["bhp"].group
    if value[own["bhp"].key] <= 0:
        gear = tuple(t.key for part, t in own.items() if part.startswith(("ammo.", "used.")))
        return [Consequence("DM-R67", f"{name} is at 0 BHP: {after_zero(own['bhp'])}", "error", gear)]
    return wounds(name, own, value) + out_of_ammo(name, own, value)


# --- the Leader as the table leaves it, for the preview -------------------------------------------------------

def played(document: dict[str, Any], tracks: list[Track], state: Mapping[str, int]) -> dict[str, Any]:
    """The Leader with the injuries ticked, taken in the current campaign (DM-R71): the rules lower the trait pools
    the preview rolls. HP, ammunition and Power it does not read."""
    taken = [t.key.removeprefix("injury.") for t in tracks
             if t.key.startswith("injury.") and state.get(t.key, t.start)]
    if not taken:
        return dict(document)
    campaign = document.get("campaign", 0)
    return {**document, "injuries": [*document.get("injuries", []),
                                     *({"item": key, "campaign": campaign} for key in taken)]}


LEADER = Tabletop(tracks, consequences, played)
