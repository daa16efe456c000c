"""Pages: home, the Anvil builder (new and saved), share pages, import, and the PDF sheet."""
from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from catalogue.loader import latest_pack
from catalogue.rulesets import ACTIVE, PLANNED
from catalogue.rulesets.base import BuildError

from . import anvil, store
from .models import Build
from .pdf import render_sheet

REMEMBERED_BUILDS = 50


def remember(request, build: Build) -> None:
    """Builds opened on this browser are listed on its home page (no accounts needed)."""
    tokens = request.session.get("builds", [])
    if tokens[:1] != [build.edit_token]:  # unchanged lists are not rewritten on every edit
        others = [t for t in tokens if t != build.edit_token]
        request.session["builds"] = [build.edit_token] + others[: REMEMBERED_BUILDS - 1]


def forget(request, build: Build) -> None:
    request.session["builds"] = [t for t in request.session.get("builds", []) if t != build.edit_token]


def home(request):
    tokens = request.session.get("builds", [])
    mine = sorted(Build.objects.filter(edit_token__in=tokens), key=lambda b: tokens.index(b.edit_token))
    pack = latest_pack("metallurgent")
    examples = []
    if pack is not None:
        for index, example in enumerate(pack.examples):
            examples.append({"index": index, "name": example["name"], "task": example.get("task") or "",
                             "notes": example.get("notes", "")})
    return render(request, "home.html", {
        "active": list(ACTIVE.values()), "planned": PLANNED, "mine": mine, "examples": examples, "pack": pack,
    })


def _module(ruleset: str, kind: str):
    module = ACTIVE.get(ruleset)
    if module is None or kind not in module.KINDS:
        raise Http404("No such ruleset or kind")
    return module


def _render_builder(request, checked, status: int = 200, **extra):
    """The builder in the shape the request asked for.

    htmx value edits get `view=live` (issues, bars, stats) and are told to refresh the pickers,
    which come back as `view=pickers`; everything else gets the whole workbench or page.
    """
    view = request.POST.get("view") if request.htmx and request.method == "POST" else None
    if view == "live":
        context = anvil.live(checked.document, checked.catalogue, checked.report)
        template = "builder/metallurgent/_live.html"
    elif view == "pickers":
        context = anvil.pickers(anvil.live(checked.document, checked.catalogue, checked.report), checked.catalogue)
        template = "builder/metallurgent/_pickers.html"
    else:
        context = anvil.workbench(checked.document, checked.catalogue, checked.report)
        template = "builder/metallurgent/_workbench.html" if request.htmx else "builder/metallurgent/anvil.html"
    response = render(request, template, {**context, **extra}, status=status)
    if view == "live":
        trigger_client_event(response, "pickers-stale", after="settle")
    return response


def _bad_input(request, error: BuildError):
    """A form that does not describe a build (tampered or stale page): say what, keep nothing."""
    return render(request, "bad_input.html", {"problems": error.problems}, status=422)


def new_build(request, ruleset: str, kind: str):
    _module(ruleset, kind)
    pack = latest_pack(ruleset)
    if pack is None:
        raise Http404("No pack loaded for this ruleset; run `python manage.py load_catalogue`.")
    if request.method == "GET":
        document = {"format": "hardpoint.build/1", "ruleset": ruleset, "kind": kind, "pack": pack.ref,
                    "name": "New Anvil"}
        example = request.GET.get("example")
        if example is not None:
            try:
                document = dict(pack.examples[int(example)])
            except (ValueError, IndexError):
                raise Http404("No such example") from None
        return _render_builder(request, store.check(document), build=None)
    if request.method != "POST":
        return HttpResponseNotAllowed(["GET", "POST"])
    try:
        checked = store.check(anvil.document_from_post(request.POST, request.POST.get("pack", pack.ref)))
    except BuildError as error:
        return _bad_input(request, error)
    if request.POST.get("action") == "save":
        build = store.create(checked)
        remember(request, build)
        messages.success(request, f"Saved “{build.name}”. Bookmark this page: its address is your edit link.")
        url = build.get_absolute_url()
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return _render_builder(request, checked, build=None, dirty=True)


def edit_build(request, token: str):
    build = get_object_or_404(Build, edit_token=token)
    remember(request, build)
    if request.method == "GET":
        return _render_builder(request, store.check(build.document), build=build)
    if request.method != "POST":
        return HttpResponseNotAllowed(["GET", "POST"])
    try:
        checked = store.check(anvil.document_from_post(request.POST, build.pack_ref))
        based_on = int(request.POST.get("version", "0"))
    except ValueError as error:
        return _bad_input(request, error if isinstance(error, BuildError)
                          else BuildError([{"path": "version", "message": "not a version number"}]))
    action = request.POST.get("action")
    if action == "save_copy":
        # After a conflict: keep both versions rather than choosing one for the user.
        copy = store.create(checked, forked_from=build)
        remember(request, copy)
        messages.success(request, f"Saved your version as a new build, “{copy.name}”.")
        return HttpResponseClientRedirect(copy.get_absolute_url()) if request.htmx else redirect(copy)
    if action == "save":
        try:
            build = store.update(build, checked, based_on)
        except store.StaleVersion as stale:
            return _render_builder(request, checked, status=409, build=build, conflict=stale.current,
                                   dirty=True, form_version=based_on)
        return _render_builder(request, checked, build=build, saved=True)
    return _render_builder(request, checked, build=build, form_version=based_on,
                           dirty=checked.document != build.document)


@require_POST
def duplicate_build(request, token: str):
    copy = store.copy(get_object_or_404(Build, edit_token=token))
    remember(request, copy)
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
    build = get_object_or_404(Build, share_id=share_id)
    checked = store.check(build.document)
    return render(request, "builder/metallurgent/share.html", {
        **anvil.workbench(checked.document, checked.catalogue, checked.report), "build": build,
        "pack": checked.catalogue,
    })


def share_json(request, share_id: str):
    build = get_object_or_404(Build, share_id=share_id)
    response = HttpResponse(json.dumps(build.document, indent=2, ensure_ascii=False),
                            content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{_filename(build)}.json"'
    return response


def share_pdf(request, share_id: str):
    build = get_object_or_404(Build, share_id=share_id)
    paper = request.GET.get("paper", "a4")
    if paper not in ("a4", "letter"):
        return HttpResponse("paper must be a4 or letter", status=400, content_type="text/plain")
    checked = store.check(build.document)
    pdf = render_sheet(build, checked, paper, request.build_absolute_uri(build.share_url()))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{_filename(build)}.pdf"'
    return response


def _filename(build: Build) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in build.name).strip("-")
    return safe or "anvil"


@require_POST
def fork(request, share_id: str):
    source = get_object_or_404(Build, share_id=share_id)
    copy = store.copy(source)
    remember(request, copy)
    messages.success(request, f"Copied “{source.name}” to your builds. This is your copy's edit link.")
    return redirect(copy)


@require_POST
def import_build(request):
    upload = request.FILES.get("file")
    text = request.POST.get("json", "")
    try:
        if upload is not None:
            if upload.size > settings.HARDPOINT_MAX_BODY:
                raise BuildError([{"path": "file", "message": "file too large for a build"}])
            raw = upload.read()
        elif text.strip():
            raw = text
        else:
            raise BuildError([{"path": "file", "message": "choose a build JSON file or paste one"}])
        checked = store.check(store.decode(raw))
    except BuildError as error:
        return render(request, "bad_input.html", {"problems": error.problems, "importing": True}, status=422)
    build = store.create(checked)
    remember(request, build)
    messages.success(request, f"Imported “{build.name}”.")
    return redirect(build)


def build_urls(request, build: Build) -> dict[str, str]:
    return {"edit_url": request.build_absolute_uri(build.get_absolute_url()),
            "share_url": request.build_absolute_uri(build.share_url()),
            "pdf_url": request.build_absolute_uri(reverse("build-pdf", args=[build.share_id]))}
