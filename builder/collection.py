"""A player's collection on the web: its list on the home page, its link (join it on another browser, replace it),
taking a build out of it, and its file (download every build with its links; upload into any collection on any
Hardpoint server, as often as you like: a build already there is not added twice)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone as tz
from itertools import groupby
from typing import Any, Literal

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from pydantic import BaseModel, ConfigDict, Field

from catalogue.rulesets.base import SHARE_ID, BuildError, parse_as

from . import session, store
from .charts import qr_data_uri
from .errors import go_to
from .kinds import PAGES
from .kinds.base import site_of
from .models import Build, Collection, Draft

FORMAT = "hardpoint.collection/1"
MAX_FILE = 16 * 1024 * 1024  # bytes: a thousand big rosters
MAX_BUILDS = 1000
SHOWN = 300  # rows the home page lists; a search finds the rest
EDIT_TOKEN = r"[0-9a-f]{48}"  # what new_edit_token makes: a file cannot give a build a guessable edit link
VERDICT_FILTERS = {"": "any verdict", "legal": "legal", "not-legal": "not legal yet"}


# --- the list on the home page --------------------------------------------------------------------------------

@dataclass
class Group:
    page: Any  # the kind's KindPage
    rows: list[dict] = field(default_factory=list)


def listing(request) -> dict[str, Any]:
    """The home page's collection: its link, and its builds by game and kind, searched (`q`, `verdict`)."""
    kept = session.collection(request)
    query, verdict = str(request.GET.get("q", ""))[:80].strip(), str(request.GET.get("verdict", ""))
    verdict = verdict if verdict in VERDICT_FILTERS else ""
    drafts = list(Draft.objects.filter(session_key=request.session.session_key or "")) if kept or query else []
    context = {"collection": kept, "q": query, "verdict": verdict, "verdict_filters": VERDICT_FILTERS,
               "verdict_label": VERDICT_FILTERS[verdict],
               "groups": [], "total": 0, "found": 0, "drafts": [d for d in map(draft_row, drafts) if d["new"]]}
    if kept is None:
        return context
    link = f"{site_of(request)}{kept.get_absolute_url()}"
    builds = Build.objects.filter(kept__collection=kept)
    context.update(link=link, qr=qr_data_uri(link), total=builds.count())
    if query:
        builds = builds.filter(name__icontains=query)
    if verdict:
        builds = builds.filter(verdict="legal") if verdict == "legal" else builds.exclude(verdict="legal")
    unsaved = {d.page for d in drafts}
    order = {key: index for index, key in enumerate(PAGES)}
    found = sorted(builds.order_by("-updated_at")[:SHOWN], key=lambda b: order.get((b.ruleset, b.kind), len(order)))
    context["found"] = len(found)
    for (ruleset, kind), rows in groupby(found, key=lambda b: (b.ruleset, b.kind)):
        page = PAGES.get((ruleset, kind))
        if page is not None:  # a build of a kind this server no longer has: its links say so
            context["groups"].append(Group(page, [{"build": b, "subtitle": page.describe(b.document),
                                                   "draft": b.get_absolute_url() in unsaved} for b in rows]))
    return context


def draft_row(draft: Draft) -> dict[str, Any]:
    """A draft as the home page lists it: a new build's (`new`) resumes at its page; a saved build's shows as
    "unsaved changes" on its row."""
    name = str((draft.form.get("name") or [""])[0])[:80]
    return {"url": draft.page, "at": draft.at, "name": name or "Unnamed", "new": "?draft=" in draft.page}


@never_cache  # the page shows the collection's link
def join(request, token: str):
    """A collection's link: what it holds, and a button that joins this browser to it (a link preview in a chat
    app opens it too, and must not join anything)."""
    joined = Collection.objects.filter(token=token).first()
    if joined is None:
        raise Http404("No collection has this link: it was mistyped, or its owner replaced it with a new one.")
    if request.method == "POST":
        had = session.collection(request)
        brought = len(had.builds.all()) if had is not None and had.pk != joined.pk else 0
        session.join(request, joined)
        messages.success(request, "This browser now shows your collection: builds saved on any browser that opened "
                                  "its link appear here." + (f" The {brought} build{'s' if brought != 1 else ''} "
                                                             f"this browser kept joined it." if brought else ""))
        return redirect(reverse("home") + "#collection")
    current = session.collection(request)
    kinds = {}
    for build in joined.builds.only("ruleset", "kind"):
        page = PAGES.get((build.ruleset, build.kind))
        if page is not None:
            label = f"{page.ruleset.name} {page.kind.label}"
            kinds[label] = kinds.get(label, 0) + 1
    return render(request, "collection/join.html", {"joined": joined, "kinds": sorted(kinds.items()),
                                                    "here": current is not None and current.pk == joined.pk,
                                                    "mine": current.builds.count() if current else 0})


@require_POST
def replace(request):
    kept = session.collection(request)
    if kept is None:
        raise Http404("This browser has no collection yet: it starts with the first build you save.")
    kept.replace()
    session.join(request, kept)
    messages.success(request, "Your collection has a new link: the old one opens nothing now. Open the new one on "
                              "your other browsers to see your builds there again.")
    return redirect(reverse("home") + "#collection-link")


@require_POST
def remove(request):
    """Take a build out of the collection (its links still open it; deleting it is on its edit page)."""
    kept = session.collection(request)
    build = get_object_or_404(Build, share_id=str(request.POST.get("build", ""))[:32],
                              kept__collection=kept) if kept else None
    if build is None:
        raise Http404("This browser has no collection yet.")
    session.forget(request, build)
    if request.htmx:
        return render(request, "collection/list.html", {**listing(request), "removed": build})
    messages.success(request, f"Took “{build.name}” out of your collection. Its edit and share links still open it.")
    return go_to(request, reverse("home") + "#collection")


# --- the collection's file --------------------------------------------------------------------------------------

class Entry(BaseModel):
    """A build in a collection file: its document and its links, which stay the same on another server."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(max_length=200)
    ruleset: str = Field(max_length=40)
    kind: str = Field(max_length=40)
    version: int = Field(ge=1)
    saved_at: str = Field(max_length=40)
    edit_token: str = Field(pattern=f"^{EDIT_TOKEN}$")
    share_id: str = Field(pattern=f"^{SHARE_ID}$")
    links: dict[Literal["edit", "share"], str] = Field(default_factory=dict)
    document: dict[str, Any]


class CollectionFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal["hardpoint.collection/1"]
    exported_at: str = Field(default="", max_length=40)
    builds: list[Entry] = Field(max_length=MAX_BUILDS)


@never_cache
def download(request):
    """Every build of the collection with its document and links: a backup, or a move to another server. It holds
    every edit link, so it is as private as the collection's link."""
    kept = session.collection(request)
    builds = kept.builds.order_by("ruleset", "kind", "name") if kept else []
    site = site_of(request)
    data = CollectionFile(format=FORMAT, exported_at=datetime.now(tz.utc).isoformat(timespec="seconds"), builds=[
        Entry(name=b.name, ruleset=b.ruleset, kind=b.kind, version=b.version,
              saved_at=b.updated_at.isoformat(timespec="seconds"), edit_token=b.edit_token, share_id=b.share_id,
              links={"edit": f"{site}{b.get_absolute_url()}", "share": f"{site}{b.share_url()}"}, document=b.document)
        for b in builds])
    response = HttpResponse(data.model_dump_json(indent=1), content_type="application/json")
    stamp = datetime.now(tz.utc).strftime("%Y-%m-%d")
    response["Content-Disposition"] = f'attachment; filename="hardpoint-collection-{stamp}.json"'
    return response


@dataclass
class Imported:
    added: list[Build] = field(default_factory=list)
    already: list[Build] = field(default_factory=list)  # on this server: put in the collection, left as they are
    skipped: list[dict[str, str]] = field(default_factory=list)  # entries whose document does not check here


def read(raw: bytes) -> CollectionFile:
    """The file, or a BuildError naming the field: a file that is not a collection file saves nothing."""
    return parse_as(CollectionFile, store.decode(raw))


def load(file: CollectionFile) -> Imported:
    """Save the file's builds with the links they had. A build whose edit link is already here is that build (the
    same file again, or a file of this server's): it is not added twice, and not overwritten. One whose document
    does not check here (its pack is not loaded) is skipped and named; the others are saved."""
    done = Imported()
    here = {b.edit_token: b for b in Build.objects.filter(edit_token__in=[e.edit_token for e in file.builds])}
    taken = set(Build.objects.filter(share_id__in=[e.share_id for e in file.builds]).values_list("share_id",
                                                                                                  flat=True))
    for index, entry in linked_first(file.builds):
        if entry.edit_token in here:
            if here[entry.edit_token] not in done.already:
                done.already.append(here[entry.edit_token])
            continue
        if entry.share_id in taken:
            done.skipped.append({"path": f"builds[{index}].share_id", "message": f"“{entry.name[:80]}”: another "
                                 "build here has this share link, so this one cannot keep it; nothing of it was saved"})
            continue
        try:
            checked = store.check(entry.document)
        except BuildError as error:
            problem = error.problems[0]
            done.skipped.append({"path": f"builds[{index}].document.{problem['path']}",
                                 "message": f"“{entry.name[:80]}”: {problem['message']}"})
            continue
        try:
            build = store.create(checked, links=(entry.edit_token, entry.share_id))
        except IntegrityError:  # the same file uploaded twice at once: the other upload saved it
            done.skipped.append({"path": f"builds[{index}]", "message": f"“{entry.name[:80]}” was saved by another "
                                                                        "upload at the same moment"})
            continue
        if (saved_at := _time(entry.saved_at)) is not None:  # the list shows when it was last saved, wherever
            Build.objects.filter(pk=build.pk).update(updated_at=saved_at)
        here[entry.edit_token] = build
        taken.add(entry.share_id)
        done.added.append(build)
    return done


def _time(text: str) -> datetime | None:
    """A file's time, if it is one and not in the future."""
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        return None
    return found if found.tzinfo is not None and found <= datetime.now(tz.utc) else None


def linked_first(entries: list[Entry]) -> list[tuple[int, Entry]]:
    """The entries (with their places in the file), each after the builds of the file it names: a squad's Anvils
    are saved before the squad, so its check finds them."""
    in_file = {e.share_id for e in entries}
    names = {e.share_id: set(_links(e)) & in_file - {e.share_id} for e in entries}
    placed: list[tuple[int, Entry]] = []
    done: set[str] = set()
    waiting = list(enumerate(entries))
    while waiting:
        ready = [(i, e) for i, e in waiting if names[e.share_id] <= done] or waiting[:1]  # a loop: in file order
        placed += ready
        done |= {e.share_id for _, e in ready}
        moved = {i for i, _ in ready}
        waiting = [(i, e) for i, e in waiting if i not in moved]
    return placed


def _links(entry: Entry) -> list[str]:
    page = PAGES.get((entry.document.get("ruleset"), entry.document.get("kind")))
    return page.kind.linked_ids(entry.document) if page is not None else []


@require_POST
def upload(request):
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise BuildError([{"path": "file", "message": "choose a collection file (.json) to upload"}])
        if upload.size > MAX_FILE:
            raise BuildError([{"path": "file", "message": f"the file is {upload.size:,} bytes; a collection file "
                                                          f"is at most {MAX_FILE:,}"}])
        file = read(upload.read())
    except BuildError as error:
        return render(request, "bad_input.html", {"problems": error.problems, "heading": "That file is not a "
                                                  "collection file we can read"}, status=422)
    done = load(file)
    session.keep(request, *done.added, *done.already)
    said = f"Uploaded {len(done.added)} build{'s' if len(done.added) != 1 else ''}"
    if done.already:
        said += f"; {len(done.already)} {'was' if len(done.already) == 1 else 'were'} here already and kept as " \
                f"{'it was' if len(done.already) == 1 else 'they were'}"
    messages.success(request, said + ".")
    for problem in done.skipped[:20]:
        messages.warning(request, f"Skipped {problem['path']}: {problem['message']}")
    if len(done.skipped) > 20:
        messages.warning(request, f"… and {len(done.skipped) - 20} more skipped.")
    return redirect(reverse("home") + "#collection")

