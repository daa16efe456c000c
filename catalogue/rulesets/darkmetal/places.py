"""Where a DARK METAL Squad Leader picks pack items, what each pick makes of the build, and the one-line stats its
pickers show.

Where a purchase goes sets its terms: an Attach Point weapon takes the points it is placed on (DM-R44, DM-R45), a
Splice or Cyber is priced by the scores held when it is bought (DM-R22, DM-R27). The builder's form reads its picks
through the same functions, so a picker's trial of a choice is the build the form would make of it.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..base import Catalogue
from ..house_rules import setting
from ..picks import Place
from .rules import OPTIONS, mes_price
from .schema import AttachWeapon, Cyber

SHOULDERS_FIRST = (3, 4, 1, 2)
ARMS_ONLY = (1, 2)
HANDS = (1, 2)
ALLY_SLOTS = (1, 2)  # the weapons and the items an ally carries, as the builder offers them
STOWED = ("1S", "2S", "2H", "1H")  # the weapons a backpack holds (DM-R49)
GEAR = "gear_rep"


def summary(category: str, item: Any) -> str:
    """The numbers a player weighs between choices of one picker."""
    if category == "armor":
        return f"Armor {item.armor} · AHP {item.ahp} · {item.attach_points} AP · Sys {item.sys} · {item.cost} Rep"
    if category == "weapon":
        return _joined(item.carry, _hits(item), f"{item.cost} Rep")
    if category == "attach_weapon":
        price = f"{item.cost_per_bulk} Rep per Bulk" if item.cost_per_bulk is not None else f"{item.cost} Rep"
        return _joined(f"{item.attach_points} AP", _hits(item) if item.damage else "", price)
    if category == "item":
        return _joined(item.kind.replace("_", " ").capitalize(), f"{item.slots} slot{'s' if item.slots > 1 else ''}",
                       f"{item.cost} Rep" if item.cost is not None else "no price")
    if category in ("splice", "cyber"):
        return f"{category.capitalize()} {item.score} · listed {item.cost} Rep"
    if category == "ally_template":
        pools = " ".join(f"{trait.upper()} {dice}" for trait, dice in item.pools.items() if dice)
        return _joined(f"Move {item.move}", f"BHP {item.bhp}", f"AHP {item.ahp}" if item.ahp else "", pools)
    return ""


def _hits(weapon: Any) -> str:
    return f"Dmg {weapon.damage} · Pierce {weapon.pierce} · toHit {weapon.to_hit:+d}"


def _joined(*parts: str) -> str:
    return " · ".join(part for part in parts if part)


# --- what a pick does, for the form and the pickers alike -----------------------------------------------------

def mount_points(weapon: AttachWeapon, taken: set[int]) -> list[int]:
    """DM-R44/DM-R45: shoulders before arms for multi-point weapons, one arm at most; melee on the arms only."""
    order = ARMS_ONLY if weapon.melee else SHOULDERS_FIRST
    chosen: list[int] = []
    for point in order:
        if point in taken or (point in ARMS_ONLY and any(p in ARMS_ONLY for p in chosen)):
            continue
        chosen.append(point)
        if len(chosen) == weapon.attach_points:
            break
    return chosen or [order[0]]


def attached(weapon: AttachWeapon, attach: list[dict[str, Any]], campaign: int) -> dict[str, Any]:
    """An Attach Point weapon bought now, on the free points it goes to."""
    return {"item": weapon.key, "at": mount_points(weapon, {p for a in attach for p in a["at"]}), "campaign": campaign}


def reprice(purchases: list[dict[str, Any]], catalogue: Catalogue, campaign: int,
            house_rules: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Purchases of the current campaign at today's order-dependent price; older ones as paid (DM-R28)."""
    splice = cyber = 0
    priced = []
    for purchase in purchases:
        item = catalogue.items[purchase["item"]]
        if purchase["campaign"] >= campaign:
            purchase = {**purchase, "paid": mes_price(item, splice, cyber, house_rules)}
        priced.append(purchase)
        if isinstance(item, Cyber):
            cyber += item.score
        else:
            splice += item.score
    return priced


def held(keys: list[str], campaign: int) -> list[dict[str, Any]]:
    """What the hands hold, front first: a weapon in Hand 2 alone is held in Hand 1."""
    return [{"item": key, "campaign": campaign} for key in keys if key]


def hired(template: Any, allies: list[dict[str, Any]], campaign: int) -> dict[str, Any]:
    """A new ally of this template, paid in Rep and deployed, with nothing carried yet."""
    return {"name": f"{template.name} {len(allies) + 1}", "template": template.key, "paid_with": "rep",
            "deployed": True, "armor": None, "weapons": [], "items": [], "hired": campaign}


def _in_slot(keys: list[str], slot: int, key: str) -> list[str]:
    """A pair of slots (hands, an ally's weapons or items) with `key` in `slot` (from 1); empty ones close up."""
    slots = (list(keys) + ["", ""])[:2]
    slots[slot - 1] = key
    return [k for k in slots if k]


# --- the places -------------------------------------------------------------------------------------------------

def leader_places(document: dict[str, Any], catalogue: Catalogue) -> list[Place]:
    """The armour, each hand, an Attach Point weapon, the backpack, MES and allies to hire; then each ally's own."""
    hands = [h["item"] for h in document.get("hands", [])]
    places = [Place("armor", "Armour", ("armor",), _wear, fitted=(document.get("armor") or {}).get("item", ""),
                    prompt="none", meter=GEAR),
              *(Place(f"hand-{n}", f"Weapons for Hand {n}", ("weapon",), _hold(n),
                      fitted=hands[n - 1] if len(hands) >= n else "", prompt="empty", meter=GEAR) for n in HANDS),
              Place("add-attach", "Attach Point weapons and items", ("attach_weapon",), _attach(catalogue),
                    prompt="+ Attach Point weapon or item…", meter=GEAR),
              Place("add-pack", "Backpack gear", ("item", "weapon"), _stow, prompt="+ Backpack item…", meter=GEAR,
                    candidates=stowable),
              Place("add-mod", "Splices and Cyber", ("splice", "cyber"), _buy(catalogue),
                    prompt="+ Buy a Splice or Cyber…", meter=GEAR, verb="Buy"),
              Place("add-ally", "Ally templates", ("ally_template",), _hire(catalogue), prompt="+ Hire an ally…",
                    meter=GEAR, verb="Hire")]
    for i, ally in enumerate(document.get("allies", [])):
        places += ally_places(document, i, ally)
    return places


def ally_places(document: dict[str, Any], i: int, ally: dict[str, Any]) -> list[Place]:
    """An ally's template (until it is upgraded: then its path is its record), armour, weapons and items; each
    offers every choice of its kind, those the ally may not take marked by the rule (DM-R57-DM-R61)."""
    field, name = f"ally-{i}-", ally["name"]
    table = SimpleNamespace(house_rules=document.get("house_rules") or {})
    # An ally hired with ARP pays for its gear in ARP too, unless the table pays all gear in Rep.
    in_arp = ally["paid_with"] == "arp"
    gear = "arp" if in_arp and setting(OPTIONS, table, "ally-gear-currency") == "with-hire" else GEAR
    places = [] if ally.get("upgrades") else [
        Place(f"{field}template", f"Templates for {name}", ("ally_template",), _ally(i, _template),
              fitted=ally["template"], prompt="— choose a template —", meter="arp" if in_arp else GEAR)]
    places.append(Place(f"{field}armor", f"Armour for {name}", ("armor",), _ally(i, _armor),
                        fitted=ally.get("armor") or "", prompt="none", meter=gear))
    for kind, categories in (("weapon", ("weapon", "attach_weapon")), ("item", ("item",))):
        carried = ally.get(f"{kind}s", [])
        places += [Place(f"{field}{kind}-{n}", f"{kind.capitalize()}s for {name}", categories,
                         _ally(i, _carry(f"{kind}s", n)), fitted=carried[n - 1] if len(carried) >= n else "",
                         prompt="none", meter=gear) for n in ALLY_SLOTS]
    return places


def stowable(catalogue: Catalogue) -> list[Any]:
    """Items, and the weapons a Backpack Slot takes (DM-R49): not palm devices or the MagGripper."""
    return catalogue.of("item") + [w for w in catalogue.of("weapon") if w.carry in STOWED]


def _wear(document: dict[str, Any], key: str) -> dict[str, Any]:
    return {**document, "armor": {"item": key, "campaign": document["campaign"]}}


def _hold(hand: int):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        keys = _in_slot([h["item"] for h in document.get("hands", [])], hand, key)
        return {**document, "hands": held(keys, document["campaign"])}
    return choose


def _attach(catalogue: Catalogue):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        attach = document.get("attach", [])
        return {**document, "attach": [*attach, attached(catalogue.items[key], attach, document["campaign"])]}
    return choose


def _stow(document: dict[str, Any], key: str) -> dict[str, Any]:
    return {**document, "backpack": [*document.get("backpack", []), {"item": key, "campaign": document["campaign"]}]}


def _buy(catalogue: Catalogue):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        campaign = document["campaign"]
        bought = [*document.get("modifications", []), {"item": key, "paid": 0, "campaign": campaign}]
        return {**document, "modifications": reprice(bought, catalogue, campaign, document.get("house_rules"))}
    return choose


def _hire(catalogue: Catalogue):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        allies = document.get("allies", [])
        return {**document, "allies": [*allies, hired(catalogue.items[key], allies, document["campaign"])]}
    return choose


def _ally(i: int, change):
    """A place of ally `i`: `change(ally, key)` gives the ally with the key picked."""
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        allies = list(document["allies"])
        allies[i] = change(allies[i], key)
        return {**document, "allies": allies}
    return choose


def _template(ally: dict[str, Any], key: str) -> dict[str, Any]:
    return {**ally, "template": key}


def _armor(ally: dict[str, Any], key: str) -> dict[str, Any]:
    return {**ally, "armor": key}


def _carry(kind: str, slot: int):
    def change(ally: dict[str, Any], key: str) -> dict[str, Any]:
        return {**ally, kind: _in_slot(ally.get(kind, []), slot, key)}
    return change
