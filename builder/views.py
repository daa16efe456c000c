"""Pages: home, the builders (new and saved), share pages, copies, import, and the PDF sheets.

Every registered (ruleset, kind) has a page in builder/kinds; saving, sharing, copying, importing and
printing are one code path for all of them.
"""
from __future__ import annotations

import json
import re
import secrets

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from catalogue.loader import catalogue_by_ref, find_pack, latest_pack, pack_set_problems
from catalogue.models import UserPack
from catalogue.rulesets import ACTIVE, COMING, EXCHANGES
from catalogue.rulesets.base import BuildError, pack_refs

from . import changes, collection, exchange, forms, rosters, store, tasks
from .errors import bad_input, go_to
from .kinds import PAGES, page_for
from .kinds.base import site_of
from .models import Build
from .pdf import Sheet
from .session import (
    draft,
    forget,
    forget_draft,
    keep,
    keep_draft,
    keep_pack,
    latest_draft,
    lost,
    may_build_on,
    my_tables,
    my_packs,
    opened,
)


DRAFT_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,24}")
# Posts that only ask (a chooser's table, the pickers' marks) change nothing: the live edit before them kept the draft.
ASKING = ("chooser", "pickers")


@never_cache
def healthz(request):
    """That this process answers (a load balancer's check; the benchmarks' trivial view): no database, no cache."""
    return HttpResponse("ok", content_type="text/plain")


def home(request):
    examples = []
    for (ruleset, kind), page in PAGES.items():
        pack = latest_pack(ruleset, kind)
        for index, example in enumerate(pack.examples if pack else []):
            if example.get("kind") == kind:
                examples.append({"url": f"{reverse('build-new', args=[ruleset, kind])}?example={index}",
                                 "page": page, "name": example["name"], "subtitle": page.describe(example),
                                 "notes": example.get("notes", "")})
    listed = collection.listing(request)
    if request.htmx and request.htmx.target == "collection-list":  # a search as the player types
        return render(request, "collection/list.html", listed)
    if lost(request):
        messages.warning(request, "The collection this browser showed has a new link now (it was replaced on another "
                                  "browser). Open the new link here to see its builds again.")
    return render(request, "home.html", {"active": list(ACTIVE.values()), "coming": COMING, **listed,
                                         "tables": my_tables(request),
                                         "examples": examples,
                                         "import_formats": [(key, f"{exchange.label} ({ruleset.name})")
                                                            for key, (ruleset, exchange) in EXCHANGES.items()]})


def new_build(request, ruleset: str, kind: str):
    page = page_for(ruleset, kind)
    if request.method == "GET" and "pack_link" in request.GET:
        return redirect(_pack_from_link(request, page))
    pack_set = chosen_packs(request, page) or getattr(latest_pack(ruleset, kind), "ref", None)
    if pack_set is None:
        raise Http404("No pack loaded for this kind of build; run `python manage.py load_catalogue`.")
    if request.method == "GET":
        if "discard" in request.GET:
            forget_draft(request, draft_page(request.path, request.GET["discard"]))
            return redirect(request.path)
        token = draft_token(request.GET.get("draft")) or new_draft_token()
        document = page.blank(pack_set)
        example = request.GET.get("example")
        if example is not None:
            try:
                document = dict(find_pack(pack_set).examples[int(example)])  # the base pack's examples
            except (ValueError, IndexError):
                raise Http404("No such example") from None
            if document.get("kind", page.ruleset.kinds[0].key) != page.kind.key:
                raise Http404(f"That example is not a {page.kind.label}")
        elif restored := _restored_draft(request, page, pack_set, page_address=draft_page(request.path, token)):
            return page.render(request, restored[0], build=None, dirty=True, draft_restored=restored[1],
                               pack_options=pack_options(request, page, pack_set), draft=token)
        resumable = None if "draft" in request.GET else _resumable(request)
        return page.render(request, store.check(document), build=None, draft=token, resumable=resumable,
                           pack_options=pack_options(request, page, pack_set))
    if request.method != "POST":
        return HttpResponseNotAllowed(["GET", "POST"])
    notices: list[str] = []
    try:
        pack_ref = request.POST.get("pack", pack_set)
        catalogue = _new_build_catalogue(request, pack_ref)
        checked = store.check(page.read_post(request.POST, pack_ref, catalogue, request, notices))
    except BuildError as error:
        return bad_input(request, error)
    token = draft_token(request.POST.get("draft"))
    kept_at = draft_page(request.path, token) if token else None
    if request.POST.get("action") == "save":
        build = store.create(checked)
        keep(request, build)
        if kept_at:
            forget_draft(request, kept_at)
        messages.success(request, f"Saved “{build.name}”. Bookmark this page: its address is your edit link.")
        return go_to(request, build.get_absolute_url())
    response = page.render(request, checked, build=None, dirty=True, notices=notices, draft=token)
    if kept_at and response.status_code == 200 and request.POST.get("view") not in ASKING and \
            keep_draft(request, kept_at, request.POST) and request.htmx:
        response["HX-Replace-Url"] = kept_at  # a reload comes back to this draft; the menu's "New" starts blank
    return response


def _resumable(request) -> dict | None:
    """The newest draft of a new build of this kind this browser left, which a fresh "New" page offers to resume."""
    kept = latest_draft(request, draft_page(request.path, ""))
    if kept is None:
        return None
    name = (kept.form.get("name") or [""])[0][:80]
    return {"url": kept.page, "at": kept.at, "name": name, "token": kept.page.rpartition("=")[2]}


def draft_page(path: str, token: str) -> str:
    """The address a new build's draft is kept under (and reloads at)."""
    return f"{path}?draft={token}"


def draft_token(text: str | None) -> str:
    return text if text and DRAFT_TOKEN.fullmatch(text) else ""


def new_draft_token() -> str:
    return secrets.token_urlsafe(9)


def _new_build_catalogue(request, pack_ref: str):
    """The packs a new build's form names, if this browser may build on each (see session.may_build_on)."""
    pack_ref = str(pack_ref)[:1000]
    catalogue = catalogue_by_ref(pack_ref)
    if catalogue is None:
        raise BuildError(pack_set_problems(pack_ref) or [{"path": "pack", "message": f"pack {pack_ref[:60]} is "
                                                                                       f"not loaded here"}])
    if catalogue.shares:  # asked on every post: the share ids ride on the catalogue, no query needed
        links = opened(request)
        for path, ref in zip(["pack", *(f"extensions[{i}]" for i in range(len(catalogue.extensions)))],
                             catalogue.refs):
            if ref in catalogue.shares and catalogue.shares[ref] not in links:
                raise BuildError([{"path": path, "message": f"{ref[:60]} is an uploaded pack whose share link "
                                                            f"this browser has not opened"}])
    return catalogue


def pack_options(request, page, pack_set: str) -> dict[str, list[dict]]:
    """This browser's uploaded packs of the ruleset: those a new build may start on (their newest version holds
    the kind's items), and those it may add as an extension (any not among its packs yet)."""
    rows, refs = my_packs(request, page.ruleset.key), pack_refs(pack_set)
    return {"start": [row for row in rows if row["latest"].items.filter(category=page.kind.pack_category).exists()],
            "add": [row for row in rows if row["latest"].ref not in refs]}


def _pack_from_link(request, page) -> str:
    """A pasted pack share link (or its id) as the new-build address on that pack's newest version: on it alone,
    or added to the packs the build has (`extend`)."""
    owner = UserPack.by_link(request.GET.get("pack_link", ""))
    newest = owner.newest() if owner else None
    if newest is None:
        raise Http404("That is not a pack's share link here.")
    keep_pack(request, owner)
    kept = str(request.GET.get("pack", ""))[:1000]
    return f"{request.path}?pack={f'{kept},' if 'extend' in request.GET and kept else ''}{newest.ref}"


def chosen_packs(request, page) -> str | None:
    """The packs a new build starts on when the link names them (`?pack=name@version`, from an uploaded pack's
    page, or a base and its extensions separated by commas); of the page's ruleset, holding the kind's items."""
    ref = request.GET.get("pack")
    if not ref:
        return None
    if request.GET.get("extend"):  # the pack-choice form's "Add": one more pack after those the build has
        ref = f"{ref},{request.GET['extend']}"
    try:
        catalogue = _new_build_catalogue(request, ref)
    except BuildError as error:
        raise Http404(f"{error.problems[0]['message']}: open its share link first, or paste it under Pack") from None
    if catalogue.ruleset != page.ruleset.key or page.kind.pack_category not in catalogue.categories.values():
        raise Http404(f"No pack {ref[:60]} for a {page.ruleset.name} {page.kind.label}")
    return catalogue.ref


@never_cache  # the edit link is the key to the build: no cache keeps a copy of the page
def edit_build(request, token: str):
    build = get_object_or_404(Build, edit_token=token)
    page = page_for(build.ruleset, build.kind)
    if request.method == "GET":
        keep(request, build)
        if "discard" in request.GET:
            forget_draft(request, request.path)
            return redirect(request.path)
        if restored := _restored_draft(request, page, build.pack_ref, build):
            return page.render(request, restored[0], build=build, dirty=True, draft_restored=restored[1],
                               form_version=build.version)
        return page.render(request, store.check_saved(build), build=build)
    if request.method != "POST":
        return HttpResponseNotAllowed(["GET", "POST"])
    notices: list[str] = []
    store.check_saved(build)  # a build whose pack is gone cannot be edited here (409)
    try:
        document = carried(page.read_post(request.POST, build.pack_ref, catalogue_by_ref(build.pack_ref),
                                          request, notices), build)
        checked = store.check(document)
        based_on = forms.whole_number(request.POST, "version", low=0)
    except BuildError as error:
        return bad_input(request, error)
    action = request.POST.get("action")
    if action == "save_copy":
        # After a conflict: keep both versions rather than choosing one for the user.
        copy = store.create(checked, forked_from=build)
        keep(request, copy)
        forget_draft(request, request.path)
        messages.success(request, f"Saved your version as a new build, “{copy.name}”.")
        return go_to(request, copy.get_absolute_url())
    if action == "save":
        try:
            build = store.update(build, checked, based_on)
        except store.StaleVersion as stale:
            build.refresh_from_db()
            return page.render(request, checked, status=409, build=build, conflict=stale.current, dirty=True,
                               form_version=based_on, notices=notices,
                               conflict_changes=changes.labelled(changes.document_changes(build.document, checked.document),
                                                                 page.ruleset, [checked.catalogue]))
        except BuildError as error:
            return bad_input(request, error)
        keep(request, build)
        forget_draft(request, request.path)
        return page.render(request, checked, build=build, saved=True, notices=notices)
    dirty = checked.document != build.document
    response = page.render(request, checked, build=build, form_version=based_on, notices=notices, dirty=dirty)
    if response.status_code == 200 and request.POST.get("view") not in ASKING:
        if dirty:  # kept as it is made, so a reload finds it before any beacon could land
            keep_draft(request, request.path, request.POST)
        else:
            forget_draft(request, request.path)
    return response


@require_POST
def duplicate_build(request, token: str):
    try:
        copy, = store.copy(get_object_or_404(Build, edit_token=token))
    except BuildError as error:
        return bad_input(request, error)
    keep(request, copy)
    messages.success(request, f"Duplicated as “{copy.name}”. This is the copy's edit link.")
    return redirect(copy)


@require_POST
def delete_build(request, token: str):
    build = get_object_or_404(Build, edit_token=token)
    forget(request, build)
    name = build.name
    build.delete()
    messages.success(request, f"Deleted “{name}”. Its edit and share links no longer work.")
    return redirect("home")


def share(request, share_id: str):
    build, reveal = store.shown(get_object_or_404(Build, share_id=share_id), request.GET.get("reveal"))
    return page_for(build.ruleset, build.kind).render_share(request, build, reveal)


def _saved(request, share_id: str, version: int | None = None) -> Build:
    """The build a share link names, as saved at `version` (or `?version=n`) when one is asked for."""
    build = get_object_or_404(Build, share_id=share_id)
    wanted = version if version is not None else request.GET.get("version")
    if wanted in (None, "") or str(wanted) == str(build.version):
        return build
    if not str(wanted).isascii() or not str(wanted).isdigit() or len(str(wanted)) > 9:
        raise Http404("No such version")
    return store.at_version(build, int(wanted))


def share_version(request, share_id: str, version: int):
    """The share page of one saved version."""
    build, reveal = store.shown(_saved(request, share_id, version), request.GET.get("reveal"))
    return page_for(build.ruleset, build.kind).render_share(request, build, reveal)


def compare_versions(request, share_id: str):
    """What changed between two saved versions: the document's fields, and the rule issues of each."""
    build = get_object_or_404(Build, share_id=share_id)
    try:
        a, b = (store.public_view(_saved(request, share_id, forms.whole_number(request.GET, side, default, low=1)))
                for side, default in (("a", max(1, build.version - 1)), ("b", build.version)))
        checked = [store.check(v.document) for v in (a, b)]
        fields = changes.labelled(changes.document_changes(a.document, b.document), checked[1].ruleset,
                                  [c.catalogue for c in checked])
        issues = [c.report for c in checked]
    except BuildError as error:
        return bad_input(request, error)
    return render(request, "builder/compare.html", {
        "build": build, "a": a, "b": b, "fields": fields, "versions": build.versions.all(),
        "issues_a": [i.as_dict() for i in issues[0].issues], "issues_b": [i.as_dict() for i in issues[1].issues]})


def share_json(request, share_id: str):
    build, _ = store.shown(_saved(request, share_id), request.GET.get("reveal"))
    response = HttpResponse(json.dumps(build.document, indent=2, ensure_ascii=False),
                            content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{_filename(build)}.json"'
    return response


def share_text(request, share_id: str):
    """The build as plain text to paste in a chat (builder.text)."""
    return _text(request, share_id, "plain", "text/plain")


def share_markdown(request, share_id: str):
    """The build as Markdown, for forums and chats that read it."""
    return _text(request, share_id, "markdown", "text/markdown")


def _text(request, share_id: str, wording: str, content_type: str):
    build, _ = store.shown(_saved(request, share_id), request.GET.get("reveal"))
    words = page_for(build.ruleset, build.kind).text(build, site_of(request))
    return HttpResponse(words[wording], content_type=f"{content_type}; charset=utf-8")


def share_pdf(request, share_id: str):
    """The PDF, from the sheets cache or rendered now; one of many builds renders in the worker meanwhile, and
    this answers with a page that follows it (a failed one is queued again when the page's link asks)."""
    sheet = _sheet(request, share_id)
    if sheet is None:
        return HttpResponse(NO_SUCH_PAPER, status=400, content_type="text/plain")
    pdf = sheet.cached()
    if pdf is None and sheet.total <= settings.HARDPOINT_INLINE_PDF_BUILDS:
        pdf = sheet.render()
    if pdf is None:
        progress = tasks.start(sheet, retry="retry" in request.GET)
        return render(request, "builder/pdf_progress.html", {"sheet": sheet, "progress": progress},
                      status=202 if progress.under_way else 200)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{_filename(sheet.build)}.pdf"'
    return response


def share_pdf_progress(request, share_id: str):
    """The part of the progress page that asks again every second; once the PDF is ready it sends the browser there."""
    sheet = _sheet(request, share_id)
    if sheet is None:
        return HttpResponse(NO_SUCH_PAPER, status=400, content_type="text/plain")
    progress = tasks.progress(sheet)
    response = render(request, "builder/pdf_progress_part.html", {"sheet": sheet, "progress": progress})
    if progress.ready and request.htmx:
        response["HX-Redirect"] = f"{reverse('build-pdf', args=[share_id])}?{sheet.query}"
    return response


NO_SUCH_PAPER = "paper must be a4 or letter"


def _sheet(request, share_id: str) -> Sheet | None:
    """The sheet a PDF link asks for (404 for no such build), or None for a paper we do not print on."""
    build = _saved(request, share_id)
    paper = request.GET.get("paper", "a4")
    return (Sheet(build, paper, site_of(request), request.GET.get("reveal", ""))
            if paper in ("a4", "letter") else None)


def _filename(build: Build) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in build.name).strip("-")
    return safe or build.kind


def carried(document: dict, build: Build | None) -> dict:
    """A document from a saved build's form, with what no form holds carried from the build: the file another
    app's import kept (BuildDocument.kept), too big to post with every edit."""
    if build is not None and build.document.get("kept"):
        return {**document, "kept": build.document["kept"]}
    return document


def _restored_draft(request, page, pack_ref: str, build: Build | None = None, page_address: str = ""):
    """The unsaved changes this browser left on this builder page (checked, and when), unless no longer readable
    or made stale by a save since."""
    page_address = page_address or request.path
    kept = draft(request, page_address)
    if kept is None:
        return None
    form, at = kept
    try:
        if build is None:
            pack_ref = form.get("pack", pack_ref)
            catalogue = _new_build_catalogue(request, pack_ref)
        elif (catalogue := catalogue_by_ref(pack_ref)) is None:
            raise BuildError([{"path": "pack", "message": "pack not loaded"}])
        checked = store.check(carried(page.read_post(form, pack_ref, catalogue, request, []), build))
    except BuildError:
        checked = None
    if checked is None or (build is not None and (form.get("version") != str(build.version)
                                                  or checked.document == build.document)):
        forget_draft(request, page_address)
        return None
    return checked, at


def roster_search(request, ruleset: str, kind: str):
    """A roster's add box, searched: this browser's builds of the member kind, the pack's examples and items whose
    name holds the text, or the build a pasted link names (or why it cannot be added)."""
    page = page_for(ruleset, kind)
    roster = page.roster_for(str(request.GET.get("field", ""))[:40])
    catalogue = catalogue_by_ref(str(request.GET.get("pack", ""))[:1000])
    if roster is None or catalogue is None or catalogue.ruleset != ruleset:
        raise Http404("No such roster on this page, or its pack is not loaded")
    text = str(request.GET.get(roster.field, ""))[:200]
    describe = page_for(ruleset, roster.member).describe
    results = rosters.matches(text, request, page, roster, catalogue, describe)[:rosters.MAX_RESULTS]
    # Nothing found by name: say why the text itself (a pasted link) cannot join, if it cannot.
    problem = "" if results or not text.strip() else rosters.lookup(text, request, page, roster, catalogue)[1]
    return render(request, "partials/roster_results.html", {"roster": roster, "results": results, "text": text,
                                                             "problem": problem})


@require_POST
def save_draft(request):
    """What a builder page sends as it is left with unsaved changes (navigator.sendBeacon), to restore later."""
    path, _, query = request.POST.get("draft_for", "").partition("?")
    try:
        match = resolve(path)
    except Resolver404:
        match = None
    token = draft_token(QueryDict(query).get("draft"))
    if match is None or match.url_name not in ("build-new", "build-edit") or (match.url_name == "build-new"
                                                                              and not token):
        return HttpResponse("draft_for: the address of a builder page", status=400, content_type="text/plain")
    if not keep_draft(request, draft_page(path, token) if token else path, request.POST):
        return HttpResponse("draft: too large to keep", status=413, content_type="text/plain")
    return HttpResponse(status=204)


@require_POST
def fork(request, share_id: str):
    source, _ = store.shown(get_object_or_404(Build, share_id=share_id), request.POST.get("reveal"))
    try:
        copy, *linked = store.copy(source, deep=True)
    except BuildError as error:
        return bad_input(request, error)
    keep(request, copy, *linked)
    also = f" with {len(linked)} linked build{'s' if len(linked) != 1 else ''} (listed under your builds)" if linked else ""
    kept = (f" Its {page_for(source.ruleset, source.kind).secret_label} stay with its owner: their places are empty."
            if getattr(source, "masked", False) else "")
    messages.success(request, f"Copied “{source.name}” to your builds{also}. This is your copy's edit link.{kept}")
    return redirect(copy)


@require_POST
def import_build(request):
    """A build file, Hardpoint's own or another app's (`format`: a ruleset's exchange, read against `pack`)."""
    upload = request.FILES.get("file")
    text = request.POST.get("json", "")
    other = request.POST.get("format", "")
    unknown, missing = [], []
    try:
        if upload is not None:
            if upload.size > settings.HARDPOINT_MAX_BODY:
                raise BuildError([{"path": "file", "message": "file too large for a build"}])
            raw = upload.read()
        elif text.strip():
            raw = text
        else:
            raise BuildError([{"path": "file", "message": "choose a build JSON file or paste one"}])
        if other:
            imported = exchange.read(other, raw, request.POST.get("pack", ""), [r["latest"] for r in my_packs(request)])
            checked, unknown, missing = imported.checked, imported.unknown, imported.missing
        else:
            checked = store.check(store.decode(raw))
    except BuildError as error:
        return render(request, "bad_input.html", {"problems": error.problems, "importing": True}, status=422)
    build = store.create(checked)
    keep(request, build)
    extensions = pack_refs(build.pack_ref)[1:]
    messages.success(request, f"Imported “{build.name}” on {pack_refs(build.pack_ref)[0]}"
                              + (f" with {', '.join(extensions)}." if extensions else "."))
    if missing:
        messages.warning(request, f"The file names content not loaded here: {', '.join(missing)}. Upload "
                                  f"{'it' if len(missing) == 1 else 'them'} as a pack (an .lcp loads as it is), then "
                                  f"import again.")
    if unknown:
        listed = "; ".join(f"{u.id} ({u.where})" for u in unknown[:40])
        messages.warning(request, f"Left out {len(unknown)} id{'s' if len(unknown) != 1 else ''} no loaded pack knows: "
                                  f"{listed}. Upload the pack that holds them, then import again choosing it.")
    return redirect(build)


def export_build(request, share_id: str, format: str):
    """A saved build in another app's format, as a file to download."""
    build = store.public_view(get_object_or_404(Build, share_id=share_id))
    try:
        data = exchange.write(build, format)
    except BuildError as error:
        return bad_input(request, error)
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{slugify(build.name) or "build"}.{format}.json"'
    return response


def build_urls(request, build: Build) -> dict[str, str]:
    return {"edit_url": request.build_absolute_uri(build.get_absolute_url()),
            "share_url": request.build_absolute_uri(build.share_url()),
            "pdf_url": request.build_absolute_uri(reverse("build-pdf", args=[build.share_id]))}


# --- newer pack versions: what they change, and upgrading -----------------------------------------

def _changes_page(request, build: Build, editing: bool):
    page = page_for(build.ruleset, build.kind)
    target = request.GET.get("pack") or (newer.ref if (newer := changes.newer_pack(build.pack_ref)) else "")
    if not target:
        raise Http404("This build is on the newest version of its pack.")
    try:
        compared = changes.compare(store.check_saved(build).document, page.kind, target[:100])
    except BuildError as error:
        return bad_input(request, error)
    return render(request, "builder/changes.html", {"build": build, "page": page, "changes": compared,
                                                    "editing": editing, "target": compared["to"]})


def share_changes(request, share_id: str):
    return _changes_page(request, store.public_view(get_object_or_404(Build, share_id=share_id)), editing=False)


@never_cache
def edit_changes(request, token: str):
    return _changes_page(request, get_object_or_404(Build, edit_token=token), editing=True)


@require_POST
def build_packs(request, token: str):
    """Add an extension to a saved build (a pack this browser has, or a pasted share link) or take one off, as a
    new build version; one the build still uses an item of stays, and says which."""
    build = get_object_or_404(Build, edit_token=token)
    refs = pack_refs(build.pack_ref)
    try:
        if (removed := str(request.POST.get("remove", ""))[:100]) in refs[1:]:
            refs.remove(removed)
            kept = catalogue_by_ref(",".join(refs))
            used = [key for _, _, key in page_for(build.ruleset, build.kind).kind.items_used(build.document)
                    if kept is not None and key not in kept.items]
            if used:
                raise BuildError([{"path": "remove", "message": f"{removed} holds what the build uses: "
                                                                f"{', '.join(sorted(set(used))[:8])}; take those "
                                                                f"out first"}])
        else:
            owner = UserPack.by_link(str(request.POST.get("extend", ""))[:200])
            added = owner.newest() if owner else find_pack(str(request.POST.get("extend", ""))[:100])
            if added is None or not may_build_on(request, added) or added.ref in refs:
                raise BuildError([{"path": "extend", "message": "paste the share link of a pack to add, one the "
                                                                "build does not have yet"}])
            if owner:
                keep_pack(request, owner)
            refs.append(added.ref)
        pack, *extensions = refs
        document = {**build.document, "pack": pack, "extensions": extensions}
        store.update(build, store.check(document), forms.whole_number(request.POST, "version", low=1))
    except BuildError as error:
        return bad_input(request, error)
    except store.StaleVersion:
        messages.error(request, "The build was saved elsewhere since you looked; try again.")
        return redirect(build)
    messages.success(request, f"This build now reads {', '.join(refs)}.")
    return redirect(build)


@require_POST
def upgrade(request, token: str):
    """Move the build onto another version of its pack as a new build version; what the version no longer has
    is emptied and named."""
    build = get_object_or_404(Build, edit_token=token)
    page = page_for(build.ruleset, build.kind)
    try:
        old, new = changes.versions(build.pack_ref, str(request.POST.get("pack", ""))[:100])
        moved = changes.upgraded(store.check_saved(build).document, page.kind, old, new)
        store.update(build, store.check(moved.document), forms.whole_number(request.POST, "version", low=1))
    except BuildError as error:
        return bad_input(request, error)
    except store.StaleVersion:
        messages.error(request, "The build was saved elsewhere since you looked; check what changes again.")
        return redirect("build-edit-changes", token)
    gone = "; ".join(f"{e['name']} ({e['path']})" for e in moved.emptied)
    messages.success(request, f"Moved to {new.ref}." + (f" Emptied, as the new version has no such item: {gone}."
                                                         if gone else ""))
    return redirect(build)
