"""Reading, checking and saving build documents: shared by the pages, the API and the CLI."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F

from catalogue.loader import catalogue_by_ref
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import BuildError, Catalogue, Linked, Report

from .models import Build


class StaleVersion(Exception):
    def __init__(self, current: int):
        self.current = current
        super().__init__(f"the build is at version {current}")


@dataclass
class Checked:
    """A readable build document with its catalogue and Report."""

    document: dict[str, Any]
    module: Any
    catalogue: Catalogue
    report: Report

    @property
    def name(self) -> str:
        return self.document["name"]


def decode(raw: bytes | str) -> Any:
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BuildError([{"path": "(document)", "message": f"not valid JSON: {exc}"}]) from None
    except RecursionError:
        raise BuildError([{"path": "(document)", "message": "JSON nested too deeply to be a build"}]) from None


def check(document: Any, depth: int = 2) -> Checked:
    """Parse, resolve against the pinned pack and validate; BuildError when unreadable.

    Saved builds this one names (an Anvil's Pilot, a squad's Anvils, its opponent) are checked too,
    `depth` levels down, so a squad sees each Anvil's Pilot but never loops.
    """
    if not isinstance(document, dict):
        raise BuildError([{"path": "(document)", "message": "a build is a JSON object"}])
    ruleset = document.get("ruleset")
    module = ACTIVE.get(ruleset) if isinstance(ruleset, str) else None
    if module is None:
        raise BuildError([{"path": "ruleset", "message": f"unknown ruleset {document.get('ruleset')!r}; "
                                                         f"expected one of {', '.join(ACTIVE)}"}])
    build = module.parse(document)
    catalogue = catalogue_by_ref(build.pack)
    if catalogue is None:
        raise BuildError([{"path": "pack", "message": f"pack {build.pack} is not loaded here"}])
    report = module.validate(build, catalogue, linked(module.links(build), depth))
    return Checked(build.model_dump(mode="json", exclude_defaults=False), module, catalogue, report)


def linked(share_ids: list[str], depth: int) -> dict[str, Linked | None]:
    """The named saved builds, checked; None for one that no longer exists (it was deleted)."""
    if not share_ids or depth <= 0:
        return {}
    found = {b.share_id: b for b in Build.objects.filter(share_id__in=set(share_ids))}
    result: dict[str, Linked | None] = {}
    for share_id in share_ids:
        build = found.get(share_id)
        if build is None:
            result[share_id] = None
            continue
        try:
            report = check(build.document, depth - 1).report
        except BuildError:
            # A saved build that stopped reading (say its pack was removed) counts as missing.
            result[share_id] = None
            continue
        result[share_id] = Linked(share_id, build.kind, build.name, build.document, report)
    return result


def create(checked: Checked, forked_from: Build | None = None) -> Build:
    doc = checked.document
    return Build.objects.create(
        ruleset=doc["ruleset"], kind=doc["kind"], name=doc["name"], pack_ref=doc["pack"], document=doc,
        legal=checked.report.legal, forked_from=forked_from)


def update(build: Build, checked: Checked, based_on: int) -> Build:
    """Save over `build` only if nobody saved since `based_on`; one atomic compare-and-set."""
    doc = checked.document
    if doc["ruleset"] != build.ruleset or doc["kind"] != build.kind:
        raise BuildError([{"path": "ruleset", "message": "a build cannot change its ruleset or kind"}])
    checked.module.check_update(build.document, doc)
    with transaction.atomic():
        changed = Build.objects.filter(pk=build.pk, version=based_on).update(
            name=doc["name"], pack_ref=doc["pack"], document=doc, legal=checked.report.legal,
            version=F("version") + 1)
        if not changed:
            current = Build.objects.filter(pk=build.pk).values_list("version", flat=True).first()
            raise StaleVersion(current or 0)
    build.refresh_from_db()
    return build


def copy(source: Build, deep: bool = False) -> Build:
    """A new build from another, named as a copy.

    A deep copy (taking someone's shared build) also copies the saved builds it names, so the copy
    never changes when the original's owner edits theirs: a squad's Anvils, an Anvil's Pilot.
    """
    with transaction.atomic():
        document = dict(source.document)
        if deep:
            document = _copy_links(document)
        name = source.name if source.name.endswith("(copy)") else f"{source.name} (copy)"
        return create(check({**document, "name": name[:80]}), forked_from=source)


def _copy_links(document: dict[str, Any]) -> dict[str, Any]:
    copies: dict[str, str] = {}

    def copied(share_id: str) -> str:
        if share_id not in copies:
            original = Build.objects.filter(share_id=share_id).first()
            # A deleted build stays a dangling reference: the copy says it is missing, as the original does.
            copies[share_id] = copy(original, deep=True).share_id if original else share_id
        return copies[share_id]

    if document.get("pilot"):
        document["pilot"] = copied(document["pilot"])
    if document.get("kind") == "squad":
        document["platoons"] = [
            {**platoon, "members": [{"build": copied(m["build"])} if m.get("build") else m
                                    for m in platoon["members"]]}
            for platoon in document.get("platoons", [])]
    return document
