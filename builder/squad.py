"""The METALLURGENT squad page: Platoons of saved Anvils and catalogue units, slots, Initiative, turn order.

Units are added by searching (a datalist of this browser's Anvils and the pack's units, or a pasted
share link); nothing lists other people's builds, since share links are the only way to reach them.
"""
from __future__ import annotations

from typing import Any

from django.shortcuts import render as render_template

from catalogue.rulesets.base import BuildError, Catalogue

from .anvil import SHARE_ID_IN_TEXT
from .session import mine

SHARE_TEMPLATE = "builder/metallurgent/squad_share.html"
MAX_PLATOONS = 24
MAX_MEMBERS = 8


def blank(pack_ref: str) -> dict[str, Any]:
    return {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad", "pack": pack_ref,
            "name": "New Squad", "platoons": [{"name": "1st Platoon", "members": []}]}


def _count(post, name: str, limit: int) -> int:
    try:
        value = int(post.get(name, "0"))
    except ValueError:
        raise BuildError([{"path": name, "message": "expected a whole number"}]) from None
    if not 0 <= value <= limit:
        raise BuildError([{"path": name, "message": f"at most {limit}"}])
    return value


def _member(value: str, path: str) -> dict[str, str]:
    kind, _, ref = value.partition(":")
    if kind not in ("build", "unit") or not ref:
        raise BuildError([{"path": path, "message": f"{value[:40]!r} is not a squad member"}])
    return {kind: ref}


def find(text: str, catalogue: Catalogue, anvils) -> dict[str, str] | None:
    """What a search box entry names: a datalist choice, a unit's name or key, an Anvil's name or share link."""
    text = text.strip()
    if "#" in text:  # datalist values end in "#<share id>" or "#unit:<key>"
        token = text.rsplit("#", 1)[1]
        return {"unit": token[5:]} if token.startswith("unit:") else {"build": token}
    lowered = text.lower()
    for unit in catalogue.of("conventional_unit"):
        if lowered in (unit.key, unit.name.lower()):
            return {"unit": unit.key}
    for build in anvils:
        if lowered == build.name.lower():
            return {"build": build.share_id}
    if "/s/" in text:
        found = SHARE_ID_IN_TEXT.search(text)
        if found:
            return {"build": found.group(1)}
    return None


def document_from_post(post, pack_ref: str, catalogue: Catalogue, request=None, notices: list | None = None):
    anvils = mine(request, "anvil") if request is not None else []
    platoons = []
    for i in range(_count(post, "platoon-count", MAX_PLATOONS)):
        members = [_member(post.get(f"platoon-{i}-member-{j}", ""), f"platoon-{i}-member-{j}")
                   for j in range(_count(post, f"platoon-{i}-count", MAX_MEMBERS))]
        platoons.append({"name": post.get(f"platoon-{i}-name", "").strip() or f"Platoon {i + 1}", "members": members,
                         "moves": [post.get(f"platoon-{i}-member-{j}-to", str(i)) for j in range(len(members))]})
        wanted = post.get(f"add-{i}", "").strip()
        if wanted:
            member = find(wanted, catalogue, anvils)
            if member is None and notices is not None:
                notices.append(f"Nothing matches “{wanted[:60]}”: pick from the list or paste a share link.")
            elif member is not None:
                members.append(member)
    # Moving a unit to another Platoon (a select per unit).
    for i, platoon in enumerate(platoons):
        for member, target in list(zip(platoon["members"], platoon.pop("moves"))):
            if target.isdigit() and int(target) != i and int(target) < len(platoons):
                platoon["members"].remove(member)
                platoons[int(target)]["members"].append(member)
    verb, _, arg = post.get("action", "").partition(":")
    index = int(arg.split(":")[0]) if arg.split(":")[0].isdigit() else -1
    if verb == "add-platoon":
        platoons.append({"name": f"Platoon {len(platoons) + 1}", "members": []})
    elif verb == "remove-platoon" and 0 <= index < len(platoons):
        del platoons[index]
    elif verb in ("up", "down") and 0 <= index < len(platoons):
        other = index - 1 if verb == "up" else index + 1
        if 0 <= other < len(platoons):
            platoons[index], platoons[other] = platoons[other], platoons[index]
    elif verb == "remove-member" and ":" in arg:
        p, m = (int(x) if x.isdigit() else -1 for x in arg.split(":", 1))
        if 0 <= p < len(platoons) and 0 <= m < len(platoons[p]["members"]):
            del platoons[p]["members"][m]
    players = post.get("players", "").strip()
    opponent = post.get("opponent", "").strip()
    if opponent:
        found = SHARE_ID_IN_TEXT.search(opponent)
        if found is None:
            raise BuildError([{"path": "opponent", "message": f"{opponent[:60]!r} is not a share link"}])
        opponent = found.group(1)
    return {
        "format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad", "pack": pack_ref,
        "name": post.get("name", "").strip() or "New Squad", "notes": post.get("notes", ""),
        "players": int(players) if players.isdigit() else None, "platoons": platoons,
        "opponent": opponent or None,
    }


def context(checked) -> dict[str, Any]:
    report = checked.report
    platoons = report.detail.get("platoons", [])
    for platoon in platoons:
        for unit in platoon["units"]:
            unit["member"] = f"{'build' if unit['kind'] != 'unit' else 'unit'}:{unit['ref']}"
            unit["anchor"] = anchor(unit["path"])
            unit["issues"] = report.issues_at(unit["path"])
            unit["item"] = checked.catalogue.items.get(unit["ref"]) if unit["kind"] == "unit" else None
        platoon["issues"] = report.issues_at(f"platoons[{platoon['index']}]")
        platoon["meter"] = next(m for m in report.meters if m.key == f"platoon_{platoon['index']}_slots")
    squad_issues = [i for i in report.issues if not i.path.startswith("platoons[")]
    issue_links = [{"issue": i, "anchor": anchor(i.path)} for i in report.issues]
    by_initiative = sorted((p for p in platoons if p["initiative"] is not None), key=lambda p: -p["initiative"])
    return {"document": checked.document, "report": report, "platoons": platoons, "squad_issues": squad_issues,
            "by_initiative": by_initiative,
            "issue_links": issue_links,
            "units": checked.catalogue.of("conventional_unit"), "stats": report.stats,
            "turn_order": report.detail.get("turn_order"), "opponent_name": report.detail.get("opponent")}


def anchor(path: str) -> str:
    """The page anchor of an issue's path: a unit row, a Platoon, or the squad summary."""
    numbers = [n for n in path.replace("[", " ").replace("]", " ").split() if n.isdigit()]
    if path.startswith("platoons[") and ".members[" in path:
        return f"member-{numbers[0]}-{numbers[1]}"
    if path.startswith("platoons["):
        return f"platoon-{numbers[0]}"
    return "summary"


def render(request, checked, status: int = 200, **extra):
    build = extra.get("build")
    context_ = context(checked)
    context_["my_anvils"] = mine(request, "anvil")
    context_["my_squads"] = [s for s in mine(request, "squad") if build is None or s.pk != build.pk]
    template = "builder/metallurgent/_squad_workbench.html" if request.htmx else "builder/metallurgent/squad.html"
    return render_template(request, template, {**context_, **extra}, status=status)


share_context = context
