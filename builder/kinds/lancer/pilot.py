"""The LANCER pilot builder: Licence Level, mech skills, triggers, talents, licences and CORE bonuses against their
budgets, pilot gear, and the mechs the pilot owns, each with its frame, mounts, systems and SP bar.

Nothing is hidden for being illegal: every frame, weapon, mod and system is offered by its picker (see
catalogue/rulesets/lancer/places.py), one the pilot may not take marked with the rule it breaks (L-B13 for a licence
the pilot lacks). Advancement (Licence Level, mech skills, ranks) is a value edit: it gets back the live fragments,
the budgets, the Grit, each mech's statistics, SP bar and issues (builder.live).
"""
from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from django.template.loader import render_to_string
from pydantic import BaseModel

from catalogue.rulesets.base import Catalogue
from catalogue.rulesets.lancer import construction as c
from catalogue.rulesets.lancer import movement
from catalogue.rulesets.lancer import preview as engine
from catalogue.rulesets.lancer.places import kept_mounts, shown_mounts, weapon_slots
from catalogue.rulesets.lancer.rules import OPTIONS
from catalogue.rulesets.lancer.schema import CoreBonus, Frame, PilotGear, Skill, System, Talent, tagged

from ... import forms
from ...charts import qr_data_uri
from ..base import KindPage

MAX_MECHS, MAX_SYSTEMS, MAX_LIST = 12, 24, 12
MECH_STATS = ("hp", "armor", "evasion", "edef", "speed", "heatcap", "sp", "tech_attack", "save", "sensor_range",
              "repcap", "limited_bonus", "structure", "stress")
FITS = {"Aux": "one Aux weapon", "Main": "a Main or an Aux weapon", "Flex": "a Main weapon, or two Aux",
        "Heavy": "a Heavy, Main or Aux weapon, or a Superheavy braced by another mount",
        "Main/Aux": "a Main and an Aux weapon", "Aux/Aux": "two Aux weapons",
        "Integrated": "the frame's own weapon", None: "nothing: no frame or CORE bonus gives this mount"}


def licence_label(item, frames: dict[str, Frame]) -> str:
    if not item.license_level:
        return "LL0, free"
    frame = frames.get(item.license_id or "")
    return f"{frame.name if frame else item.license_id} {c.RANK_NAMES[min(item.license_level, 3)]}"


class Page(KindPage):
    preview_flags = (("Target", (("resistant", "resistant", False), ("braced", "braced", False),
                                 ("shredded", "shredded", False), ("invisible", "invisible", False),
                                 ("prone", "prone", False), ("stunned", "stunned", False), ("lock_on", "Lock On", False))),
                     ("Attacker", (("engaged", "engaged", False), ("impaired", "impaired", False),
                                   ("overcharge", "Overcharge this turn", False))))
    summary_meters = {"hase": "HASE", "talents": "Talents", "licences": "Licences"}
    value_fields = ("name", "notes", "callsign", "ll", "hase", "triggers", "talents", "licences")
    live_fragments = ("builder/lancer/pilot/fragments/live.jinja",)
    anchors = (("mechs[{m}].mounts[{n}]*", "mech-{m}-mount-{n}"), ("mechs[{m}].systems*", "mech-{m}-systems"),
               ("mechs[{m}].licences*", "mech-{m}-systems"), ("mechs[{m}]*", "mech-{m}"), ("ll*", "pilot"),
               ("hase*", "hase"), ("triggers*", "triggers"), ("talents*", "talents"), ("licences*", "licences"),
               ("core_bonuses*", "core-bonuses"), ("gear*", "gear"))

    def describe(self, document: dict[str, Any]) -> str:
        callsign = document.get("callsign")
        return f"“{callsign}”, LL{document.get('ll', 0)}" if callsign else f"LL{document.get('ll', 0)}"

    def structure(self, document: dict[str, Any]) -> dict[str, Any]:
        """Advancement reshapes no row, but for Targeting: its field shows while it holds points (or the beta's five
        mech skills are played)."""
        return {**super().structure(document), "targeting": bool(document.get("hase", {}).get("targeting"))}

    # --- the form ------------------------------------------------------------------------------

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list | None = None) -> dict[str, Any]:
        items = catalogue.items
        verb, where = forms.action(post)
        ranks = {name: {key: forms.whole_number(post, f"{prefix}-{key}", 0, 0, 3)
                        for key, item in items.items() if isinstance(item, model)}
                 for name, prefix, model in (("triggers", "trigger", Skill), ("talents", "talent", Talent),
                                             ("licences", "licence", Frame))}
        document = {**self.header(pack_ref), "name": post.get("name", "").strip() or "Unnamed pilot",
                    "notes": post.get("notes", ""), "callsign": post.get("callsign", "").strip()[:40],
                    "ll": forms.whole_number(post, "ll", 0, 0, c.MAX_LL),
                    "hase": {k: forms.whole_number(post, f"hase-{k}", 0, 0, c.MAX_HASE) for k in c.BETA_SKILLS},
                    **{name: {k: v for k, v in chosen.items() if v} for name, chosen in ranks.items()},
                    "core_bonuses": picked(post, "core", verb, where, CoreBonus, items),
                    "gear": picked(post, "gear", verb, where, PilotGear, items)}
        document["hase"] = {k: v for k, v in document["hase"].items() if v}
        mechs = [mech_from_post(row, items, verb, where) for row in forms.rows(post, "mech", MAX_MECHS)]
        if verb == "remove-mech":
            del mechs[forms.row(where, mechs)]
        mechs = [mech for mech in mechs if mech["frame"]]  # the frame picker's empty choice removes the mech
        new_frame = post.get("add-mech", "")
        if isinstance(items.get(new_frame), Frame) and len(mechs) < MAX_MECHS:
            frame = items[new_frame]
            mechs.append({"name": f"{frame.name} {len(mechs) + 1}", "frame": frame.key,
                          "mounts": [{"weapons": []} for _ in frame.mounts], "systems": []})
        return {**document, "mechs": mechs}

    # --- what the pages show -------------------------------------------------------------------

    def context(self, request, checked, build=None) -> dict[str, Any]:
        return context(checked, editing=True)

    def share_context(self, request, checked, build) -> dict[str, Any]:
        return context(checked)

    def sheet_context(self, checked, build) -> dict[str, Any]:
        shown = context(checked)
        house = checked.document.get("house_rules", {})
        return {**shown, "structure_zero": house.get("structure-zero", OPTIONS["structure-zero"].default),
                "has_stress": house.get("stress", OPTIONS["stress"].default) == "track",
                "overcharge": engine.OVERCHARGE[house.get("overcharge", OPTIONS["overcharge"].default)]}

    def sheet_sections(self, build, checked, share_url: str) -> list[str]:
        """The pilot's sheet, then one sheet a mech; each mech's sheet lists that mech's issues only."""
        sections = super().sheet_sections(build, checked, share_url)
        base = {**self.common(checked, build), **self.sheet_context(checked, build), "build": build,
                "share_url": share_url, "qr": qr_data_uri(share_url)}
        report = checked.report
        for m in base["mechs"]:
            mine_only = SimpleNamespace(legal=report.legal, errors=report.errors,
                                        issues=[i for i in report.issues if i.path.startswith(f"mechs[{m['index']}]")])
            sections.append(render_to_string(self.template("mech_sheet"), {**base, "m": m, "report": mine_only}))
        return sections

    # --- combat preview ------------------------------------------------------------------------

    def preview_context(self, request, document, build) -> dict[str, Any]:
        return {**super().preview_context(request, document, build), "cover_choices": engine.COVER}

    def preview_request(self, fields) -> dict[str, Any]:
        target = {"evasion": forms.whole_number(fields, "evasion", 8, 0, 40),
                  "edef": forms.whole_number(fields, "edef", 8, 0, 40),
                  "armor": forms.whole_number(fields, "armor", 0, 0, 10),
                  **{flag: fields.get(flag) == "on" for flag in engine.TARGET_FLAGS}}
        situation = {"cover": forms.choice(fields, "cover", engine.COVER, "none"),
                     "accuracy": forms.whole_number(fields, "accuracy", 0, 0, 6),
                     "difficulty": forms.whole_number(fields, "difficulty", 0, 0, 6),
                     "bonus_damage": forms.whole_number(fields, "bonus_damage", 0, 0, 20),
                     "overcharges": forms.whole_number(fields, "overcharges", 0, 0, 4),
                     **{flag: fields.get(flag) == "on" for flag in engine.SITUATION_FLAGS}}
        return {"target": target, "situation": situation}


def picked(post, name: str, verb: str, where: str, model, items) -> list[str]:
    """A list the form keeps in order as hidden fields, with an add picker and remove buttons."""
    chosen = [row.get() for row in forms.rows(post, name, MAX_LIST)]
    chosen = [key for key in chosen if key]
    if verb == f"remove-{name}":
        del chosen[forms.row(where, chosen)]
    added = post.get(f"add-{name}", "")
    if isinstance(items.get(added), model) and len(chosen) < MAX_LIST:
        chosen.append(added)
    return chosen


def mech_from_post(row: forms.Row, items, verb: str, where: str) -> dict[str, Any]:
    frame_key = row.get("frame")
    frame = items.get(frame_key)
    mounts = []
    for mount_row in forms.rows(row.post, row.name("mount"), 8):
        weapons, mods = [], []
        for w in range(3):  # a mount's weapon slots: fixed, so no count field
            weapon = mount_row.get(f"weapon-{w}")
            if weapon:
                weapons.append(weapon)
                mods.append(mount_row.get(f"mod-{w}") or None)
        mount = {"weapons": weapons, "mods": mods}
        if mount_row.checked("bracing"):
            mount["bracing"] = True
        if mount_row.get("core"):  # the CORE bonus that adds the mount, or refits it (L-B09)
            mount["core_bonus"] = mount_row.get("core")
        mounts.append(mount)
    if isinstance(frame, Frame):  # a new frame keeps the mounts it has, empties the rest
        mounts = kept_mounts(mounts, len(frame.mounts))
    systems = [system.get() for system in forms.rows(row.post, row.name("system"), MAX_SYSTEMS)]
    systems = [key for key in systems if key]
    if verb == "remove-system" and where.startswith(f"{row.index}."):
        del systems[forms.row(where.partition(".")[2], systems)]
    added = row.get("add-system")
    if isinstance(items.get(added), System) and len(systems) < MAX_SYSTEMS:
        systems.append(added)
    return {"name": row.get("name").strip() or f"Mech {row.index + 1}", "frame": frame_key,
            "mounts": mounts, "systems": systems}


def context(checked, editing: bool = False) -> dict[str, Any]:
    document, catalogue, report = checked.document, checked.catalogue, checked.report
    items = catalogue.items
    frames = {k: i for k, i in items.items() if isinstance(i, Frame)}
    licences = document.get("licences", {})
    beta = document.get("house_rules", {}).get("mech-skills", OPTIONS["mech-skills"].default) == "beta-five"
    skills = c.BETA_SKILLS if beta or document.get("hase", {}).get("targeting") else c.HASE
    mechs = []
    for m, (mech, detail) in enumerate(zip(document.get("mechs", []), report.detail.mechs)):
        more = detail.stats["limited_bonus"].value  # L-B08, from the mech's Engineering
        frame = frames[mech["frame"]]
        at = f"mech-{m}"  # its pickers' form fields start so
        held = document.get("core_bonuses", [])
        mounts = []
        for n, (kind, loadout) in enumerate(shown_mounts(mech, frame, held)):
            weapons = [items[k] for k in loadout["weapons"]]
            mods = list(loadout.get("mods", [])) + [None] * (len(weapons) - len(loadout.get("mods", [])))
            fields = f"{at}-mount-{n}"
            bonus, added = loadout.get("core_bonus"), n >= len(frame.mounts)
            # each of the frame's mounts offers the CORE bonuses that refit one (L-B09): those the pilot holds, and
            # its own, to take off
            refits = [] if added else [k for k in dict.fromkeys([*held, bonus])
                                       if k in c.REFITTED_MOUNTS and k in items]
            mounts.append({"index": n, "type": kind, "fits": FITS[kind],
                           "bracing": loadout.get("bracing", False), "core_bonus": items.get(bonus or ""),
                           "added": added, "refits": [(items[k], k == bonus, c.REFITTED_MOUNTS[k]) for k in refits],
                           # carried as it is where no checkbox offers it: an added mount's CORE bonus
                           "core_kept": bonus if bonus and bonus not in refits else "",
                           "slots": [{"w": w, "weapon": weapon, "mod": items.get(mod) if mod else None,
                                      "field": f"{fields}-weapon-{w}", "mod_field": f"{fields}-mod-{w}",
                                      "licence": licence_label(weapon, frames),
                                      "threat": any(r.type == "Threat" for r in weapon.range),
                                      "tags": tag_text(weapon, catalogue), "kept": shown_as_text(weapon),
                                      "uses": range(c.limited_uses(weapon, more))}
                                     for w, (weapon, mod) in enumerate(zip(weapons, mods))],
                           "free_slots": [f"{fields}-weapon-{w}" for w in weapon_slots(kind, weapons)[len(weapons):]],
                           "issues": report.issues_at(f"mechs[{m}].mounts[{n}]")})
        systems = [{"index": s, "item": items[k], "licence": licence_label(items[k], frames),
                    "boxes": range(c.limited_uses(items[k], more)), "kept": shown_as_text(items[k]),
                    "tags": tag_text(items[k], catalogue)}
                   for s, k in enumerate(mech["systems"])]
        value = {k: v.value for k, v in detail.stats.items()}
        mechs.append({"index": m, "at": at, "mech": mech, "frame": frame, "frame_kept": shown_as_text(frame),
                      "mounts": mounts, "systems": systems,
                      "stats": [(c.MECH_STAT_LABELS[k], detail.stats[k]) for k in MECH_STATS],
                      "hp_boxes": range(value["hp"]), "heat_boxes": range(value["heatcap"]),
                      "structure_boxes": range(value["structure"]), "stress_boxes": range(value["stress"]),
                      "meter": next((mt for mt in report.meters if mt.key == f"sp_{m}"), None),
                      "has_ai": any(s["item"].type == "AI" or tagged(s["item"], "tg_ai") for s in systems),
                      "issues": [i for i in report.issues if i.path.startswith(f"mechs[{m}]")
                                 and not i.path.startswith(f"mechs[{m}].mounts[")],
                      "repair_boxes": range(value["repcap"]), "moves": moves(value["size"], value["speed"])})
    own = report.issues
    return {
        "skills": [(k, k.title(), document.get("hase", {}).get(k, 0)) for k in skills],
        "hase_max": c.MAX_HASE, "max_ll": c.MAX_LL,
        "trigger_rows": [{"item": s, "rank": document.get("triggers", {}).get(s.key, 0),
                          "bonus": c.trigger_bonus(document.get("triggers", {}).get(s.key, 0))}
                         for s in catalogue.of("skill") if editing or s.key in document.get("triggers", {})],
        "talent_rows": [{"item": t, "rank": document.get("talents", {}).get(t.key, 0)}
                        for t in catalogue.of("talent") if editing or t.key in document.get("talents", {})],
        "licence_rows": [{"item": f, "rank": licences.get(f.key, 0)} for f in frames.values()
                         if f.license_level and (editing or f.key in licences)],
        "core_bonuses": [items[k] for k in document.get("core_bonuses", [])],
        "gear": [items[k] for k in document.get("gear", [])],
        "gear_rows": [{"item": items[k], "uses": range(c.limited_uses(items[k], 0)), "tags": tag_text(items[k], catalogue)}
                      for k in document.get("gear", [])],
        "pilot_hp_boxes": range(report.stats["pilot_hp"].value) if "pilot_hp" in report.stats else range(0),
        "rank_names": c.RANK_NAMES, "trigger_names": ("—", "+2", "+4", "+6"), "mechs": mechs,
        "pilot_issues": [i for i in own if not i.path.startswith("mechs[")],
        "meter": {m.key: m for m in report.meters},
    }


def moves(size: float, speed: int) -> dict[str, Any]:
    """What a mech's size means on the table (L-R14, digest F16, F17, F22)."""
    across, up = movement.jump(size, speed)
    drag, lift = movement.drag_and_lift(size)
    return {"size": "½" if size == 0.5 else f"{size:g}", "footprint": "×".join(map(str, movement.footprint(size))),
            "jump_across": across,
            "jump_up": f"{up:g}" if up >= 1 else "½", "drag": f"{drag:g}", "lift": "½" if lift == 0.5 else f"{lift:g}",
            "through": [("½" if s == 0.5 else f"{s:g}") for s in movement.SIZES if movement.passes_through(size, s)],
            "grapple_with_ally": f"{movement.grapple_size([size, 1]):g}",
            "falls": [(spaces, movement.falling_damage(spaces)) for spaces in (3, 6, 9, 12)]}


def tag_text(item, catalogue) -> str:
    """An item's tags by the pack's own names ("Heat {VAL} (Self)" → "Heat 2 (Self)"), else by their ids."""
    names = []
    for tag in getattr(item, "tags", []):
        known = catalogue.items.get(tag.id)
        name = known.name if known is not None and catalogue.categories.get(tag.id) == "tag" else \
            tag.id.removeprefix("tg_").replace("_", " ").title() + (" {VAL}" if tag.val not in (None, "") else "")
        names.append(name.replace("{VAL}", str(tag.val)) if "{VAL}" in name else name)
    return ", ".join(names)


def shown_as_text(item, prefix: str = "") -> list[tuple[str, str]]:
    """The LCP fields Hardpoint does not model (actions, deployables, synergies), kept and printed as text: the
    item's own, and those of its nested parts (a frame's CORE system and traits)."""
    found = [(f"{prefix}{key.replace('_', ' ')}", value if isinstance(value, str) else
              json.dumps(value, ensure_ascii=False)[:600]) for key, value in (item.model_extra or {}).items()]
    for name in type(item).model_fields:
        value = getattr(item, name)
        parts = value if isinstance(value, list) else [value]
        for part in parts:
            if isinstance(part, BaseModel) and part.model_extra is not None:
                found += shown_as_text(part, f"{prefix}{getattr(part, 'name', name.replace('_', ' '))}: ")
    return found
