"""Reading, checking and saving build documents: shared by the pages, the API and the CLI."""
from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db import transaction
from django.db.models import F
from django.http import Http404
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from catalogue.loader import catalogue_by_ref, catalogue_for, latest_pack_with, pack_set_problems
from catalogue.rulesets import house_rules, resolve
from catalogue.rulesets.base import BuildError, Catalogue, Linked, Report
from catalogue.rulesets.reading import Unreadable, loads_json
from catalogue.rulesets.spec import Kind, Link, Ruleset

from .models import Build, BuildVersion, new_share_id


class SavedBuildUnreadable(Exception):
    """A saved build that no longer reads here, most often because its pinned pack is not loaded."""

    def __init__(self, build: Build, problems: list[dict[str, str]]):
        self.build, self.problems = build, problems
        super().__init__(f"saved build {build.share_id} cannot be read")


class StaleVersion(Exception):
    def __init__(self, current: int):
        self.current = current
        super().__init__(f"the build is at version {current}")


@dataclass
class Checked:
    """A readable build document with its catalogue and Report."""

    document: dict[str, Any]
    ruleset: Ruleset
    kind: Kind
    catalogue: Catalogue
    report: Report
    build: Any = None  # the kind's parsed document model
    linked: Mapping[str, Linked | None] = field(default_factory=dict)  # the saved builds it names, checked

    @property
    def name(self) -> str:
        return self.document["name"]

    @cached_property
    def resolved(self) -> Any:
        """The typed build its rules read (the kind's `resolve`), or the parsed document for a kind without one."""
        return self.kind.resolve(self.build, self.catalogue) if self.kind.resolve else self.build


class Malformed(BuildError):
    """Bytes that are no JSON at all (the API's 400), as against JSON whose values cannot be read (its 422)."""


def decode(raw: bytes | str) -> Any:
    try:
        return loads_json(raw)
    except Unreadable as exc:  # a number too long, nesting too deep, a NUL in a string
        raise BuildError([exc.problem()]) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Malformed([{"path": "(document)", "message": f"not valid JSON: {exc}"}]) from None


def check(document: Any, depth: int = 2, saved: "SavedBuilds | None" = None) -> Checked:
    """Parse, resolve against the pinned pack and validate; BuildError when unreadable.

    Saved builds this one names (an Anvil's Pilot, a squad's Anvils, its opponent) are checked too,
    `depth` levels down, so a squad sees each Anvil's Pilot but never loops.
    """
    ruleset, kind = resolve(document)
    build = kind.parse(document)
    house_rules.check(ruleset.house_rules(), ruleset.rules(), build.house_rules)
    catalogue = catalogue_by_ref(build.pack_set)
    if catalogue is None:
        raise BuildError(pack_set_problems(build.pack_set)
                         or [{"path": "pack", "message": f"pack {build.pack} is not loaded here"}])
    if catalogue.ruleset != ruleset.key or kind.pack_category not in catalogue.categories.values():
        raise BuildError([{"path": "pack", "message": f"pack {build.pack} has no {ruleset.name} "
                                                      f"{kind.label} parts"}])
    parsed = build.model_dump(mode="json")
    saved = saved or SavedBuilds()
    if kind.links:
        check_link_kinds(ruleset, kind.links, parsed, saved)
    linked = saved.linked(kind.linked_ids(parsed), depth)
    report = kind.validate(build, catalogue, linked)
    for removed in build.removed:
        if removed.by == "import":
            report.add("HP-IMPORT", "error", removed.path, f"{removed.name} was left out of the import: {removed.pack} "
                                                           f"has no such item.", "Load the pack that has it and import "
                                                           "again, or choose what goes in its place, then dismiss this.")
        else:
            report.add("HP-UPGRADE", "warning", removed.path, f"{removed.name} is not in {removed.pack}: the upgrade "
                                                              f"took it out. Choose what goes in its place, then "
                                                              f"dismiss this.")
    _collisions(report, catalogue, {key for _, _, key in kind.items_used(parsed)})
    house_rules.apply_severity(report, build.house_rules.get("severity", {}))
    return Checked(parsed, ruleset, kind, catalogue, report, build, linked)


SHOWN_CLASHES = 5  # unused clashes named one by one; more are counted, pack by pack


def _collisions(report, catalogue, used: set[str]) -> None:
    """HP-PACKS: an id two of the build's packs define is named, a warning where the build uses it; of the ids it
    does not use, the first few are named and the rest counted."""
    unused = [clash for clash in catalogue.collisions if clash.key not in used]
    for clash in [c for c in catalogue.collisions if c.key in used] + unused[:SHOWN_CLASHES]:
        report.add("HP-PACKS", "warning" if clash.key in used else "info", "extensions",
                   f"{clash.dropped} and {clash.kept} both have '{clash.key}'; {clash.name} is read from "
                   f"{clash.kept}.", "Leave out one of the packs, or keep the order that reads the item you mean.")
    if len(unused) > SHOWN_CLASHES:
        report.add("HP-PACKS", "info", "extensions", f"{len(unused) - SHOWN_CLASHES} more ids are in two of the "
                                                     f"build's packs; each is read from the first.")


def verdict(checked: Checked, to_fit: Collection[str] = ()) -> str:
    """The build's badge: empty (nothing chosen), incomplete (only `to_fit` errors: parts not chosen yet on a build
    in progress), illegal (a rule broken) or legal."""
    if checked.kind.is_empty(checked.document):
        return "empty"
    errors = checked.report.errors
    if not errors:
        return "legal"
    return "incomplete" if all(i.code in to_fit for i in errors) else "illegal"


def check_link_kinds(ruleset: Ruleset, links: tuple[Link, ...], document: Any, saved: "SavedBuilds") -> None:
    """A link names a saved build of the kind its field expects (a Pilot link, a Pilot); a deleted one may dangle."""
    saved.fetch(i for link in links for i in link.ids(document))
    problems = []
    for link in links:
        for share_id in link.ids(document):
            other = saved.rows.get(share_id)
            if other is not None and (other.ruleset, other.kind) != (ruleset.key, link.kind):
                problems.append({"path": link.path, "message": f"{share_id} is a {other.ruleset} {other.kind}, "
                                                               f"not a {ruleset.name} {link.kind}"})
    if problems:
        raise BuildError(problems)


def preview(checked: Checked, request: Any) -> dict[str, Any]:
    """The kind's combat preview of a checked build (Kind.preview). The saved builds its request names are read
    first, as their share links show them, and so is the newest pack it may pick a target from."""
    previewer, named, targets = checked.kind.previewer, {}, None
    if previewer is not None and isinstance(request, Mapping):
        saved = SavedBuilds()
        check_link_kinds(checked.ruleset, previewer.links, request, saved)
        named = saved.linked(previewer.named(request), depth=1)
        pack = latest_pack_with(checked.ruleset.key, previewer.targets_from) if previewer.targets_from else None
        targets = catalogue_for(pack) if pack else None
    return checked.kind.preview(checked.build, checked.catalogue, request, {**checked.linked, **named},
                                report=checked.report, targets=targets)


def check_saved(build: Build) -> Checked:
    try:
        return check(build.document)
    except BuildError as error:
        raise SavedBuildUnreadable(build, error.problems) from None


class SavedBuilds:
    """The saved builds one check reads: fetched one query per level of links, each checked once."""

    def __init__(self):
        self.rows: dict[str, Build] = {}
        self.asked: set[str] = set()
        self.read: dict[tuple[str, int], Linked | None] = {}

    def fetch(self, share_ids) -> None:
        wanted = set(share_ids) - self.asked
        if wanted:
            self.asked |= wanted
            self.rows.update((b.share_id, b) for b in Build.objects.filter(share_id__in=wanted))

    def linked(self, share_ids: list[str], depth: int) -> dict[str, Linked | None]:
        """The named saved builds, checked; None for one that no longer exists or no longer reads."""
        if not share_ids or depth <= 0:
            return {}
        self.fetch(share_ids)
        if depth > 1:  # the next level of links in one query too
            self.fetch(i for s in share_ids if s in self.rows for i in links_of(self.rows[s]))
        for share_id in share_ids:
            if (share_id, depth) not in self.read:
                self.read[share_id, depth] = self._read(share_id, depth)
        return {share_id: self.read[share_id, depth] for share_id in share_ids}

    def _read(self, share_id: str, depth: int) -> Linked | None:
        build = self.rows.get(share_id)
        if build is None:
            return None
        try:
            # Another build's secrets stay masked wherever it is named (anyone may name a build by its share link);
            # its verdict is reached with them, and the whole build goes along for the rules' verdicts only.
            shown = public_view(build)
            checked = check(build.document, depth - 1, self)
        except BuildError:
            return None  # a saved build that stopped reading (say its pack was removed) counts as missing
        whole = build.document if shown is not build else None
        return Linked(share_id, build.kind, build.name, shown.document, checked.report, whole, checked.catalogue)


def links_of(build: Build) -> list[str]:
    try:
        return resolve(build.document)[1].linked_ids(build.document)
    except BuildError:
        return []


def link_versions(build: Build, depth: int = 2) -> list[tuple[str, int]]:
    """(share id, version) of the build and of every saved build it names, `depth` links down: what its check
    reads, so any edit, deletion or new link among them changes the list. One query per level."""
    versions = {build.share_id: build.version}
    level = [build]
    for _ in range(depth):
        wanted = {i for b in level for i in links_of(b)} - versions.keys()
        if not wanted:
            break
        level = list(Build.objects.filter(share_id__in=wanted).only("share_id", "version", "document"))
        versions.update({b.share_id: b.version for b in level})
    return sorted(versions.items())


# --- secrets a share link masks (Kind.secrecy) ----------------------------------------------------

def public_view(build: Build) -> Build:
    """The build as its share link shows it: its kind's secret items masked in an unsaved, read-only copy (the
    build itself when it keeps nothing secret)."""
    try:
        _, kind = resolve(build.document)
    except BuildError:
        return build
    if kind.secrecy is None:
        return build
    document = kind.secrecy.public(build.document, catalogue_by_ref(build.pack_ref))
    if document == build.document:
        return build
    shown = read_only(build, document=document)
    shown.snapshot, shown.masked = getattr(build, "snapshot", False), True
    return shown


def revealed(build: Build, token: Any) -> bool:
    return isinstance(token, str) and bool(token) and constant_time_compare(token, build.reveal_token)


def shown(build: Build, reveal: Any = None) -> tuple[Build, str]:
    """The build whole with its reveal token (also given back), else its public view (and "")."""
    return (build, reveal) if revealed(build, reveal) else (public_view(build), "")


def refuse_masked(checked: Checked) -> None:
    """A share link's masked view is not the build: saving it would lose the secret items for good."""
    secrecy = checked.kind.secrecy
    if secrecy is not None and (paths := secrecy.masked(checked.document)):
        raise BuildError([{"path": path, "message": "a secret item masked on a share link cannot be saved; copy the "
                                                    "build from its edit or reveal link, or leave the slot empty"}
                          for path in paths])


def create(checked: Checked, forked_from: Build | None = None, links: tuple[str, str] | None = None) -> Build:
    """Save a new build; `links` (edit token, share id) keeps the links it had on another server."""
    refuse_masked(checked)
    doc = checked.document
    with transaction.atomic():
        build = Build.objects.create(
            ruleset=doc["ruleset"], kind=doc["kind"], name=doc["name"], pack_ref=checked.build.pack_set, document=doc,
            legal=checked.report.legal, verdict=verdict(checked), forked_from=forked_from,
            **(dict(zip(("edit_token", "share_id"), links)) if links else {}))
        record(build)
    return build


def record(build: Build) -> None:
    """Keep this save as a numbered version of the build."""
    BuildVersion.objects.create(build=build, number=build.version, name=build.name, pack_ref=build.pack_ref,
                                document=build.document, legal=build.legal, verdict=build.verdict)


def versions_of(build: Build) -> list[BuildVersion]:
    """The build's saved versions, newest first (without their documents)."""
    return list(BuildVersion.objects.filter(build_id=build.pk).defer("document"))


def at_version(build: Build, number: int) -> Build:
    """The build as it was saved at `number`, unsaved and read-only (404 when there is no such version)."""
    kept = BuildVersion.objects.filter(build=build, number=number).first()
    if kept is None:
        raise Http404(f"{build.name} has no version {number}")
    snapshot = read_only(build, name=kept.name, pack_ref=kept.pack_ref, document=kept.document, version=kept.number,
                         legal=kept.legal, verdict=kept.verdict, updated_at=kept.saved_at)
    snapshot.snapshot = True  # pages and sheets say which version they show
    return snapshot


def read_only(build: Build, **changed: Any) -> Build:
    """An unsaved copy of the build with some fields changed: a past version, or what its share link shows."""
    fields = ("pk", "edit_token", "share_id", "ruleset", "kind", "name", "pack_ref", "document", "version", "legal",
              "verdict", "created_at", "updated_at")
    return Build(**{**{field: getattr(build, field) for field in fields}, **changed})


def update(build: Build, checked: Checked, based_on: int) -> Build:
    """Save over `build` only if nobody saved since `based_on`; one atomic compare-and-set."""
    doc = checked.document
    if doc["ruleset"] != build.ruleset or doc["kind"] != build.kind:
        raise BuildError([{"path": "ruleset", "message": "a build cannot change its ruleset or kind"}])
    refuse_masked(checked)
    if checked.kind.check_update is not None:
        checked.kind.check_update(build.document, doc)
    with transaction.atomic():
        # update() skips auto_now: the time of this save is set here, or pages keep showing the first save's.
        changed = Build.objects.filter(pk=build.pk, version=based_on).update(
            name=doc["name"], pack_ref=checked.build.pack_set, document=doc, legal=checked.report.legal,
            verdict=verdict(checked), version=F("version") + 1, updated_at=timezone.now())
        if not changed:
            current = Build.objects.filter(pk=build.pk).values_list("version", flat=True).first()
            if current is None:
                raise Http404("The build was deleted.")
            raise StaleVersion(current)
        build.refresh_from_db()
        record(build)
    return build


def copy(source: Build, deep: bool = False) -> list[Build]:
    """New builds from a saved one, each named as a copy; the source's copy comes first. Copies of the builds it
    owns are of their public views (`public_view`), as is the source's copy when `source` is one.

    A deep copy (taking someone's shared build) also copies every build it owns, and theirs, so the copy
    never changes when the original's owner edits theirs: a squad's Anvils, an Anvil's Pilot. Builds that
    name each other are copied once each; a deleted one stays a dangling link, as in the original.
    """
    originals = ([source] + [public_view(b) for b in owned_closure(source)[1:]]) if deep else [source]
    new_ids = {original.share_id: new_share_id() for original in originals}
    with transaction.atomic():
        copies = []
        for original in originals:
            _, kind = resolve(original.document)
            document = original.document
            if kind.secrecy is not None:  # what a share link masks stays out of the copy
                document = kind.secrecy.without_masked(document)
            for link in kind.links:
                document = link.relinked(document, new_ids)
            name = original.name if original.name.endswith("(copy)") else f"{original.name} (copy)"
            # A copy is a new build elsewhere too: it does not write back into the other app's file (its ids).
            document = {**{k: v for k, v in document.items() if k != "kept"}, "name": name[:80]}
            copies.append(Build.objects.create(
                share_id=new_ids[original.share_id], ruleset=original.ruleset, kind=original.kind, name=name[:80],
                pack_ref=original.pack_ref, document=document, forked_from=original))
        # Legality once every copy exists, since a copied squad's report reads its copied Anvils.
        for build in copies:
            checked = check_saved(build)
            build.legal, build.verdict = checked.report.legal, verdict(checked)
            Build.objects.filter(pk=build.pk).update(legal=build.legal, verdict=build.verdict)
            record(build)
    return copies


def owned_closure(source: Build) -> list[Build]:
    """The build and every saved build it owns, directly or through others, each once."""
    found, queue = {source.share_id: source}, [source]
    while queue:
        build = queue.pop(0)
        _, kind = resolve(build.document)
        wanted = [i for i in kind.owned_ids(build.document) if i not in found]
        for named in Build.objects.filter(share_id__in=wanted):
            found[named.share_id] = named
            queue.append(named)
    return list(found.values())
