"""Table mode: one game of one build or roster, on every screen that has the table's link ("Play" on a share page).

A table keeps the tracks its kind declared when it was opened (Kind.tabletop), from the build at that version, and a
roster's members' tracks each under its name; their values; a round and turn counter; and the log of every change,
which undo walks back. A change says what value it saw (`before`) and what it wants (`after`): another screen's
change to the same track in between is a conflict the screen shows, never a value silently overwritten. Screens ask
every second whether the revision moved (an answer with no body when it did not).
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from catalogue.rulesets.spec import Consequence, Kind, Track

from . import forms, session, store
from .charts import qr_data_uri
from .kinds import PAGES, page_for
from .models import Build, Table, TableEvent

COUNTERS = (Track("@round", "Round", low=1, high=999, start=1), Track("@turn", "Turn", low=1, high=999, start=1))
SHOWN_EVENTS = 40
MEMBER_DEPTH = 2  # a roster's members, and the builds each of them owns
WHOLE = re.compile(r"-?[0-9]{1,6}")


# --- opening a table: its sheet of tracks ---------------------------------------------------------------------

def sheet_of(checked, name: str, share_id: str, prefix: str = "", depth: int = MEMBER_DEPTH) -> list[dict]:
    """The sections of a table: the build's own tracks, then each saved member's (`owned` links), `depth` down, each
    key under its member's share id so that two members' "heat" stay apart."""
    sections = []
    tabletop = checked.kind.tabletop
    if tabletop is not None:
        tracks = tabletop.tracks(checked.build, checked.catalogue, checked.report, checked.linked)
        sections.append({"title": name, "ruleset": checked.ruleset.key, "kind": checked.kind.key,
                         "share_id": share_id, "prefix": prefix, "tracks": [asdict(t) for t in tracks]})
    for member_id in checked.kind.owned_ids(checked.document) if depth > 0 else []:
        member = checked.linked.get(member_id)
        if member is not None:
            sections += sheet_of(store.check(member.document), member.name, member_id, f"{prefix}{member_id}/",
                                 depth - 1)
    return sections


def tracks_of(section: dict) -> list[Track]:
    return [Track(**{**t, "options": tuple(t["options"]), "lines": tuple(t["lines"])}) for t in section["tracks"]]


@require_POST
def play(request, share_id: str):
    """Open a table for the build its share page shows (the version and reveal link it was opened by)."""
    build = _version(request, get_object_or_404(Build, share_id=share_id))
    shown, reveal = store.shown(build, request.POST.get("reveal"))
    checked = store.check_saved(shown)
    sheet = sheet_of(checked, shown.name, shown.share_id)
    if not sheet:
        messages.warning(request, f"This {checked.kind.label} has nothing to track at the table yet: add its members "
                                  f"first.")
        return redirect(shown.share_url())
    table = Table.objects.create(build_id=shown.pk, version=shown.version, reveal=bool(reveal), sheet=sheet)
    session.keep_table(request, table)
    messages.success(request, "Your table is open. Send its link to the other screens at the table: anyone with it "
                              "sees the same state and may change it.")
    return redirect(table)


def _version(request, build: Build) -> Build:
    wanted = forms.whole_number(request.POST, "version", build.version, low=1)
    return build if wanted == build.version else store.at_version(build, wanted)


# --- what a table shows -------------------------------------------------------------------------------------------

@dataclass
class Shown:
    """A track as the table draws it: its value, whether the rules took it out of play, and its buttons."""

    track: Track
    key: str  # with its section's prefix: what a change names
    value: int
    greyed: bool

    @property
    def style(self) -> str:
        return style(self.track)

    @property
    def option(self) -> str:
        return self.track.options[self.value] if self.style == "choice" else ""


def value(table: Table, track: Track, prefix: str = "") -> int:
    return table.state.get(prefix + track.key, track.start)


def sections(table: Table) -> list[dict[str, Any]]:
    """Each section's tracks with their values, greyed where a consequence says, and the consequences."""
    drawn = []
    for section in table.sheet:
        kind = _kind(section)
        tracks, prefix = tracks_of(section), section["prefix"]
        state = {t.key: value(table, t, prefix) for t in tracks}
        said: list[Consequence] = kind.tabletop.consequences(tracks, state) if kind and kind.tabletop else []
        greyed = {key for c in said for key in c.greys}
        groups: dict[str, list[Shown]] = {}
        for track in tracks:
            groups.setdefault(track.group, []).append(Shown(track, prefix + track.key, state[track.key],
                                                            track.key in greyed))
        drawn.append({**section, "groups": list(groups.items()), "consequences": said,
                      "member": bool(prefix), "page": PAGES.get((section["ruleset"], section["kind"]))})
    return drawn


def _kind(section: dict) -> Kind | None:
    page = PAGES.get((section["ruleset"], section["kind"]))
    return page.kind if page is not None else None


def pinned(table: Table) -> Build:
    """The build as the table plays it: at the version it was opened on, as the link that opened it shows it."""
    build = table.build if table.build.version == table.version else store.at_version(table.build, table.version)
    return build if table.reveal else store.public_view(build)


def played(table: Table, build: Build | None = None) -> dict[str, Any]:
    """The build's document as the table's state leaves it (Tabletop.played), for the combat preview."""
    document = (build or pinned(table)).document
    own = table.sheet[0] if table.sheet and not table.sheet[0]["prefix"] else None
    kind = _kind(own) if own else None
    if kind is None or kind.tabletop is None or kind.tabletop.played is None:
        return document
    tracks = tracks_of(own)
    return kind.tabletop.played(document, tracks, {t.key: value(table, t) for t in tracks})


def live_context(table: Table) -> dict[str, Any]:
    """What the part every screen asks for again draws: the tracks, the counter, the log, and the document the
    preview reads now."""
    page, build = page_for(table.build.ruleset, table.build.kind), pinned(table)
    counters = {t.key: value(table, t) for t in COUNTERS}
    events = list(table.events.all()[:SHOWN_EVENTS])
    moved_since = _moved_since(table, events)
    return {"table": table, "build": build, "page": page, "sections": sections(table), "round": counters["@round"],
            "turn": counters["@turn"],
            "events": [{"event": e, "undoable": e.undone_by is None and e.undo_of is None and e.changes
                        and e.revision not in moved_since} for e in events],
            **({"played": (now := played(table, build)), "document_json": json.dumps(now)} if page.previews else {})}


def context(request, table: Table, **extra) -> dict[str, Any]:
    """The whole table page: its live part, its link, and the combat preview's form."""
    found = live_context(table)
    page, build = found["page"], found["build"]
    link = request.build_absolute_uri(table.get_absolute_url())
    found.update(link=link, qr=qr_data_uri(link), **extra)
    if page.previews:
        found.update(page.preview_context(request, found["played"], build),
                     preview_form_template=page.template("preview_form"))
    return found


def _moved_since(table: Table, events: list[TableEvent]) -> set[int]:
    """The revisions whose changes a later change moved again: undoing one would overwrite that later change."""
    moved, later = set(), set()
    for event in events:  # newest first
        keys = {key for key, _, _ in event.changes}
        if keys & later:
            moved.add(event.revision)
        if event.undone_by is None:
            later |= keys
    return moved


@never_cache
@require_GET
def show(request, token: str):
    table = _table(token)
    session.keep_table(request, table)
    return render(request, "table/page.html", context(request, table))


@never_cache
@require_GET
def live(request, token: str):
    """What changed since the revision this screen shows: nothing (204, from the revision alone: every open screen
    asks each second), or the table's live part."""
    revision = Table.objects.filter(token=token[:64]).values_list("revision", flat=True).first()
    if revision is not None and str(revision) == request.GET.get("revision"):
        return HttpResponse(status=204)
    return render(request, "table/live.html", live_context(_table(token)))


def _table(token: str) -> Table:
    table = Table.objects.filter(token=token[:64]).select_related("build").first()
    if table is None:
        raise Http404("No table has this link: it was mistyped, or its build was deleted.")
    return table


# --- changing a table ---------------------------------------------------------------------------------------------

class Refused(Exception):
    def __init__(self, status: int, path: str, message: str, **said):
        super().__init__(message)
        self.status, self.path, self.message, self.said = status, path, message, said


def tracks_by_key(table: Table) -> dict[str, tuple[Track, str]]:
    """Every track of the table by the key a change names, with the title of its section."""
    found = {t.key: (t, "") for t in COUNTERS}
    for section in table.sheet:
        found.update({section["prefix"] + t.key: (t, section["title"]) for t in tracks_of(section)})
    return found


def _whole(post, name: str) -> int:
    text = str(post.get(name, ""))
    if not WHOLE.fullmatch(text):
        raise Refused(400, name, f"{name} must be a whole number")
    return int(text)


def _apply(table: Table, moves: list[tuple[str, int, int]], what: str, change_id: str = "",
           undo_of: int | None = None) -> TableEvent:
    for key, _, after in moves:
        table.state[key] = after
    table.revision += 1
    table.save(update_fields=["state", "revision", "updated_at"])
    return TableEvent.objects.create(table=table, revision=table.revision, what=what[:300],
                                     changes=[list(m) for m in moves], change_id=change_id, undo_of=undo_of)


def change(table: Table, post) -> TableEvent | None:
    """Move one track from the value the screen saw to another; the counters move the tracks that reset with them.
    None when this change (by its id) was already made."""
    change_id = str(post.get("change", ""))[:40]
    if change_id and table.events.filter(change_id=change_id).exists():
        return None  # sent again after its answer was lost
    key = str(post.get("key", ""))
    known = tracks_by_key(table)
    if key not in known:
        raise Refused(400, "key", "no such track at this table")
    track, title = known[key]
    before, after = _whole(post, "before"), _whole(post, "after")
    if not track.low <= after <= track.high:
        raise Refused(400, "after", f"{track.label} goes from {track.low} to {track.high}")
    now = value(table, track, key[: len(key) - len(track.key)])
    if now != before:
        raise Refused(409, "before", f"{track.label} is {said(track, now)} now: another screen changed it",
                      key=key, current=now, before=before, after=after, label=track.label)
    moves = [(key, before, after)]
    if key in ("@round", "@turn") and after > before:
        moves += resets(table, known, "round" if key == "@round" else "turn")
    what = f"{title}: " if title and title != table.sheet[0]["title"] else ""
    return _apply(table, [m for m in moves if m[1] != m[2] or m[0] == key],
                  f"{what}{track.label} {said(track, before)} → {said(track, after)}", change_id)


def resets(table: Table, known: dict[str, tuple[Track, str]], moved: str) -> list[tuple[str, int, int]]:
    """A new round sets the turn to 1 and refills what refills each round or turn; a new turn what refills each turn."""
    found = [("@turn", value(table, COUNTERS[1]), 1)] if moved == "round" else []
    for key, (track, _) in known.items():
        if track.resets and (track.resets == moved or moved == "round") and not key.startswith("@"):
            found.append((key, table.state.get(key, track.start), track.start))
    return found


def style(track: Track) -> str:
    """A choice of options; a box to tick (something used, from unused); else a count, a single token among them."""
    if track.options:
        return "choice"
    return "box" if (track.low, track.high, track.start) == (0, 1, 0) else "count"


def said(track: Track, number: int) -> str:
    if track.options:
        return track.options[number] if 0 <= number < len(track.options) else str(number)
    return ("used" if number else "unused") if style(track) == "box" else str(number)


def undo(table: Table, post) -> TableEvent:
    revision = _whole(post, "revision")
    event = table.events.filter(revision=revision).first()
    if event is None or event.undone_by is not None or event.undo_of is not None:
        raise Refused(409, "revision", "that change is already undone, or is an undo")
    known = tracks_by_key(table)
    for key, _, after in event.changes:
        track = known.get(key, (None,))[0]
        if track is not None and value(table, track, key[: len(key) - len(track.key)]) != after:
            raise Refused(409, "revision", f"{track.label} changed again since: undo that first")
    moves = [(key, after, before) for key, before, after in event.changes if key in known]
    undone = _apply(table, moves, f"Undo: {event.what}", undo_of=event.revision)
    event.undone_by = undone.revision
    event.save(update_fields=["undone_by"])
    return undone


def reset(table: Table) -> TableEvent:
    known = tracks_by_key(table)
    moves = [(key, table.state[key], track.start) for key, (track, _) in known.items()
             if key in table.state and table.state[key] != track.start]
    return _apply(table, moves, "Reset to the start of the game")


def _changing(request, token: str, act):
    """One change to a table, in one transaction with the row locked (two screens at once take turns). A screen
    with JavaScript gets JSON (its queue reads it); without, the page again."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(token=token[:64]).first()
            if table is None:
                raise Refused(404, "table", "No table has this link: it was mistyped, or its build was deleted.")
            event = act(table)
    except Refused as refused:
        if wants_json:
            return JsonResponse({"status": refused.status, "path": refused.path, "reason": refused.message,
                                 **refused.said}, status=refused.status)
        if refused.status == 404:
            raise Http404(refused.message) from None
        table = _table(token)
        return render(request, "table/page.html", context(request, table, refused=refused), status=refused.status)
    except IntegrityError:  # the same change sent twice at the same moment: the other one made it
        event = None
        table = _table(token)
    if wants_json:
        return JsonResponse({"revision": table.revision, "what": event.what if event else "already made"})
    return redirect(reverse("table", args=[token]) + "#table-live")


@require_POST
def change_view(request, token: str):
    return _changing(request, token, lambda table: change(table, request.POST))


@require_POST
def undo_view(request, token: str):
    return _changing(request, token, lambda table: undo(table, request.POST))


@require_POST
def reset_view(request, token: str):
    return _changing(request, token, reset)
