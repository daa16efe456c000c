"""Where a LANCER pilot picks pack items, and the one-line stats its pickers show.

Every frame, weapon, mod and system is offered whatever the pilot's licences: one the pilot may not take is marked
with the rule it would break (L-B13 unlicensed, L-B09 a mount it does not fit, L-B11 a weapon a mod does not suit).
"""
from __future__ import annotations

from typing import Any

from ..picks import Place
from . import construction as c
from .cells import tag_names

SIZES = ("Auxiliary", "Main", "Heavy", "Superheavy")
GEAR_GROUPS = {"Weapon": "Pilot weapons", "Armor": "Pilot armor", "Gear": "Pilot gear"}


def summary(category: str, item: Any) -> str:
    """The numbers a player compares between items of one picker."""
    if category == "frame":
        s = item.stats
        return (f"Size {'½' if s.size == 0.5 else f'{s.size:g}'} · {'/'.join(item.mechtype)} · HP {s.hp} · "
                f"Evasion {s.evasion} · SP {s.sp} · Mounts {', '.join(item.mounts)}")
    if category == "weapon":
        damage = " + ".join(f"{d.val} {(d.type or '').lower()}".strip() for d in item.damage)
        reach = ", ".join(f"{r.type} {r.val}" for r in item.range)
        modes = item.profiles and f"{len(item.profiles)} profiles: {' / '.join(p.name for p in item.profiles)}"
        return " · ".join(part for part in (f"{item.mount} {item.type}", damage, reach, modes,
                                            item.sp and f"{item.sp} SP") if part)
    if category == "mod":
        suits = "/".join(item.allowed_sizes + item.allowed_types)
        return f"{item.sp} SP" + (f" · {suits} only" if suits else "")
    if category == "system":
        return " · ".join(part for part in (item.type, f"{item.sp} SP", _tags(item)) if part)
    if category == "pilot_gear":
        return _tags(item)
    if category == "core_bonus":
        return item.source
    return ""


def _tags(item: Any) -> str:
    return tag_names([t.model_dump() for t in item.tags])


def weapon_slots(mount: str, weapons: list[Any]) -> range:
    """The weapon pickers a mount shows: one per weapon it holds, then one per weapon it could still take (L-B09),
    none more once it holds a Superheavy."""
    if any(w.mount == "Superheavy" for w in weapons):
        return range(len(weapons))
    return range(max(len(weapons), max((len(f) for f in c.FITTINGS.get(mount, [])), default=0)))


def shown_mounts(mech: dict[str, Any], frame, core_bonuses: list[str]) -> list[tuple[str | None, dict[str, Any]]]:
    """(type, load-out) of each mount the builder shows for a mech (L-B09): the frame's, then those its pilot's CORE
    bonuses added, then an empty one for each mount a CORE bonus the pilot holds may still add."""
    count = len(frame.mounts)
    mounts = list(mech["mounts"]) + [{"weapons": []}] * (count - len(mech["mounts"]))
    added = {mount.get("core_bonus") for mount in mounts[count:]}
    mounts += [{"weapons": [], "core_bonus": bonus} for bonus in c.ADDED_MOUNTS
               if bonus in core_bonuses and bonus not in added and c.adds_mount(bonus, frame.mounts)]
    return [(c.mount_type(frame.mounts, n, mount.get("core_bonus")), mount) for n, mount in enumerate(mounts)]


def kept_mounts(mounts: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """A mech's load-outs on a frame of `count` mounts: its own mounts as far as there is room, empty ones after;
    then the mounts CORE bonuses added, but those left empty (the builder offers them again while they apply)."""
    own = [mount for mount in mounts if mount.get("core_bonus") not in c.ADDED_MOUNTS]
    added = [mount for mount in mounts if mount.get("core_bonus") in c.ADDED_MOUNTS and mount.get("weapons")]
    return (own + [{"weapons": []}] * count)[:count] + added


def mount_name(kind: str | None, mount: dict[str, Any], n: int, catalogue) -> str:
    """"Flex mount 4 (Improved Armament)": a mount as the builder names it, with the CORE bonus that gives it."""
    bonus = catalogue.items.get(mount.get("core_bonus") or "")
    return f"{kind or 'Unknown'} mount {n + 1}" + (f" ({bonus.name})" if bonus is not None else "")


def pilot_places(document: dict[str, Any], catalogue) -> list[Place]:
    """CORE bonuses, pilot gear and a new mech's frame; per mech its frame, each weapon slot and mod of each mount,
    and its systems."""
    items = catalogue.items
    mechs = document.get("mechs", [])
    taken = document.get("core_bonuses", [])
    places = [
        Place("add-core", "CORE bonuses", ("core_bonus",), _append("core_bonuses"), prompt="+ add a CORE bonus…",
              meter="core_bonuses", candidates=lambda cat: [b for b in cat.of("core_bonus") if b.key not in taken]),
        Place("add-gear", "Pilot gear", ("pilot_gear",), _append("gear"), prompt="+ add pilot gear…",
              group=lambda g: GEAR_GROUPS[g.type]),
        Place("add-mech", "Frames for a new mech", ("frame",), _new_mech(catalogue), prompt="+ add a mech on frame…",
              meter=f"sp_{len(mechs)}"),
    ]
    for m, mech in enumerate(mechs):
        at, sp = f"mech-{m}", f"sp_{m}"
        places.append(Place(f"{at}-frame", f"Frames for {mech['name']}", ("frame",), _refit(m, catalogue),
                            fitted=mech["frame"], prompt="— remove this mech —", meter=sp))
        frame = items[mech["frame"]]
        shown = shown_mounts(mech, frame, taken)
        loadouts = [mount for _, mount in shown]
        for n, (kind, mount) in enumerate(shown):
            weapons, mods = mount["weapons"], mount.get("mods", [])
            name = mount_name(kind, mount, n, catalogue)
            for w in weapon_slots(kind, [items[k] for k in weapons]):
                places.append(Place(f"{at}-mount-{n}-weapon-{w}", f"Weapons for {mech['name']}: {name}, slot {w + 1}",
                                    ("weapon",), _weapon(m, n, w, loadouts, len(frame.mounts)),
                                    fitted=weapons[w] if w < len(weapons) else "",
                                    prompt="— take it off —" if w < len(weapons) else "+ weapon…",
                                    candidates=_weapons_by_size, group=lambda i: f"{i.mount} weapons",
                                    verb="Mount"))
            for w, weapon in enumerate(weapons):
                places.append(Place(f"{at}-mount-{n}-mod-{w}",
                                    f"Mods for {items[weapon].name} on {mech['name']}, {name}", ("mod",),
                                    _mod(m, n, w, loadouts, len(frame.mounts)),
                                    fitted=(mods[w] if w < len(mods) else None) or "", prompt="no mod", meter=sp))
        places.append(Place(f"{at}-add-system", f"Systems for {mech['name']}", ("system",), _add_system(m),
                            prompt="+ add a system…", meter=sp, candidates=_systems))
    return places


def _weapons_by_size(catalogue) -> list[Any]:
    given = c.granted(catalogue)
    return sorted((w for w in catalogue.of("weapon") if w.key not in given),
                  key=lambda w: SIZES.index(w.mount) if w.mount in SIZES else len(SIZES))


def _systems(catalogue) -> list[Any]:
    given = c.granted(catalogue)
    return [s for s in catalogue.of("system") if s.key not in given]


def _append(field: str):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        return {**document, field: [*document.get(field, []), key]}
    return choose


def _new_mech(catalogue):
    """A new mech is named for its frame and its place in the hangar, with every mount empty."""
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        mechs, frame = document.get("mechs", []), catalogue.items[key]
        mech = {"name": f"{frame.name} {len(mechs) + 1}", "frame": key,
                "mounts": [{"weapons": []} for _ in frame.mounts], "systems": []}
        return {**document, "mechs": [*mechs, mech]}
    return choose


def _changed(document: dict[str, Any], m: int, change) -> dict[str, Any]:
    """The document with mech `m` replaced by `change(mech)`."""
    mechs = list(document["mechs"])
    mechs[m] = change(mechs[m])
    return {**document, "mechs": mechs}


def _refit(m: int, catalogue):
    """A new frame keeps the load-outs of the mounts it has room for and empties the rest; the mounts CORE bonuses
    added stay."""
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        count = len(catalogue.items[key].mounts)
        return _changed(document, m, lambda mech: {**mech, "frame": key, "mounts": kept_mounts(mech["mounts"], count)})
    return choose


def _mount_changed(document: dict[str, Any], m: int, n: int, loadouts: list[dict[str, Any]], count: int,
                   change) -> dict[str, Any]:
    """The document with mount `n` of mech `m`'s shown `loadouts` updated by `change(weapons, mods)`, given copies
    of its weapons and of its mods padded to one a weapon; kept as the form keeps a frame of `count` mounts."""
    mounts = list(loadouts)
    weapons, mods = list(mounts[n]["weapons"]), list(mounts[n].get("mods", []))
    mods += [None] * (len(weapons) - len(mods))
    mounts[n] = {**mounts[n], **change(weapons, mods)}
    return _changed(document, m, lambda mech: {**mech, "mounts": kept_mounts(mounts, count)})


def _weapon(m: int, n: int, w: int, loadouts: list[dict[str, Any]], count: int):
    """A weapon in slot `w`: it replaces the one there, keeping its mod, or goes after those the mount holds."""
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        def change(weapons: list, mods: list) -> dict[str, Any]:
            if w < len(weapons):
                weapons[w] = key
            else:
                weapons.append(key)
                mods.append(None)
            return {"weapons": weapons, "mods": mods}
        return _mount_changed(document, m, n, loadouts, count, change)
    return choose


def _mod(m: int, n: int, w: int, loadouts: list[dict[str, Any]], count: int):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        def change(weapons: list, mods: list) -> dict[str, Any]:
            mods[w] = key
            return {"mods": mods}
        return _mount_changed(document, m, n, loadouts, count, change)
    return choose


def _add_system(m: int):
    def choose(document: dict[str, Any], key: str) -> dict[str, Any]:
        return _changed(document, m, lambda mech: {**mech, "systems": [*mech["systems"], key]})
    return choose
