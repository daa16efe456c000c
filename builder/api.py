"""JSON API. Errors are JSON with a status code and a reason; nothing is saved on any error."""
from __future__ import annotations

from dataclasses import asdict
from functools import wraps
from pathlib import PurePosixPath
from typing import Any

from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.csrf import csrf_exempt

from catalogue.loader import PackConflict, catalogue_for, find_pack, latest_pack, latest_pack_with, publish
from catalogue.models import Pack, UserPack
from catalogue.rulesets import ACTIVE, COMING
from catalogue.rulesets.base import BuildError, PackError, PackUnreadable, pack_refs
from catalogue.rulesets.packs import LONE_CSV_HEADER, MAX_UPLOAD

from . import api_models as answers
from . import changes, exchange, store
from .kinds import page_for
from .models import Build
from .errors import answer
from .views import build_urls


class ApiError(Exception):
    def __init__(self, status: int, reason: str, problems: list[dict[str, str]] | None = None):
        self.status, self.reason, self.problems = status, reason, problems or []


def endpoint(*methods: str):
    """Method check, JSON errors, and no CSRF: the API authenticates by capability tokens, not cookies."""
    def decorate(view):
        @csrf_exempt
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method not in methods:
                response = answer(request, 405, f"use {' or '.join(methods)}")
                response["Allow"] = ", ".join(methods)
                return response
            try:
                return view(request, *args, **kwargs)
            except ApiError as exc:
                return answer(request, exc.status, exc.reason, exc.problems)
            except BuildError as exc:
                return answer(request, 422, "the build document is not readable", exc.problems)
            except Http404:
                return answer(request, 404, "no such build or resource")
            except store.SavedBuildUnreadable as exc:
                return answer(request, 409, "the saved build cannot be read here", exc.problems)
        wrapped.methods = methods  # the OpenAPI document must describe each (tests/web/test_openapi.py)
        return wrapped
    return decorate


def read_json(request) -> Any:
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if not declared.isdigit() or int(declared) > settings.HARDPOINT_MAX_BODY:
        raise ApiError(413, f"request body over {settings.HARDPOINT_MAX_BODY} bytes")
    if request.content_type not in ("application/json", ""):
        raise ApiError(415, "send application/json")
    raw = request.body
    if not raw:
        raise ApiError(400, "empty body; send a JSON build document")
    try:
        return store.decode(raw)
    except store.Malformed as exc:
        raise ApiError(400, "malformed JSON", exc.problems) from None


def _ruleset(key: str):
    ruleset = ACTIVE.get(key)
    if ruleset is None:
        raise ApiError(404, f"no active ruleset {key!r}")
    return ruleset


def _pack(request, key: str) -> Pack:
    """The pack `?pack=name@version` names, or the newest holding `?category=`. An uploaded pack is read through
    its share link only (`?pack_link=`, with `pack=` for one of its versions), as on its own page."""
    ref, category, link = request.GET.get("pack"), request.GET.get("category"), request.GET.get("pack_link")
    if link is not None:
        owner = UserPack.by_link(link)
        if owner is None:
            raise ApiError(404, "pack_link: no uploaded pack has that share link")
        name, _, version = (ref or "").partition("@")
        pack = owner.versions.filter(name=name, version=version).first() if ref else owner.newest()
    elif ref:
        pack = find_pack(ref)
        if pack is not None and pack.source not in Pack.PUBLIC:
            raise ApiError(404, f"{ref[:80]} is an uploaded pack: read it with pack_link=<its share link>")
    elif category in ACTIVE[key].categories:
        pack = latest_pack_with(key, category)
    else:
        pack = latest_pack(key)
    if pack is None or pack.ruleset.key != key:
        raise ApiError(404, f"no pack {(ref or '')[:80]} loaded for {key}".replace("  ", " "))
    return pack


@endpoint("GET")
def rulesets(request):
    active = []
    for ruleset in ACTIVE.values():
        pack = latest_pack(ruleset.key)
        active.append(answers.ActiveRuleset(key=ruleset.key, name=ruleset.name, status="active",
                                            tagline=ruleset.tagline, kinds=[k.key for k in ruleset.kinds],
                                            pack=pack.ref if pack else None, categories=list(ruleset.categories)))
    coming = [answers.ComingRuleset(key=r.key, name=r.name, status="coming", tagline=r.tagline) for r in COMING]
    return answers.Rulesets(rulesets=active + coming).response()


@endpoint("GET")
def items(request, key: str):
    ruleset = _ruleset(key)
    category = request.GET.get("category")
    if category is not None and category not in ruleset.categories:
        raise ApiError(400, f"unknown category {category!r}; expected one of {', '.join(ruleset.categories)}")
    pack = _pack(request, key)
    catalogue = catalogue_for(pack)
    # The pack's category is the item's `category`; an item's own field of that name (a weapon's) stays beside it.
    found = [answers.Item(key=k, **_renamed(catalogue.items[k].model_dump(mode="json", exclude={"key"})), category=c)
             for k, c in catalogue.categories.items() if category in (None, c)]
    return answers.Items(ruleset=key, pack=pack.ref, source=pack.source, items=found).response()


def _renamed(fields: dict[str, Any]) -> dict[str, Any]:
    return {("item_category" if name == "category" else name): value for name, value in fields.items()}


@endpoint("GET")
def examples(request, key: str):
    _ruleset(key)
    pack = _pack(request, key)
    return answers.Examples(ruleset=key, pack=pack.ref, examples=pack.examples).response()


@endpoint("GET")
def house_rules(request, key: str):
    """The house-rule options of a ruleset: kind, allowed values, default and the rule each touches; and the
    severities any rule ID of its index may be given."""
    ruleset = _ruleset(key)
    kinds = [kind.key for kind in ruleset.kinds]
    options = [answers.HouseRuleOption(key=o.key, kind=o.kind, label=o.label, rule=o.rule, text=o.text,
                                       kinds=list(o.kinds or kinds), default=o.default,
                                       **({"low": o.low, "high": o.high} if o.kind == "parameter" else
                                          {"choices": o.choices})) for o in ruleset.house_rules().values()]
    severity = answers.Severities(rules=list(ruleset.rules()), values=["error", "warning", "info", "off"])
    return answers.HouseRules(ruleset=key, options=options, severity=severity).response()


@endpoint("POST")
def validate(request):
    checked = store.check(read_json(request))
    return answers.Report.of(checked.report).response()


@endpoint("POST")
def create_build(request):
    checked = store.check(read_json(request))
    build = store.create(checked)
    return answers.SavedBuild(**build_urls(request, build), share_id=build.share_id, edit_token=build.edit_token,
                              version=build.version, report=answers.Report.of(checked.report)).response(201)


@endpoint("POST")
def import_other(request, format: str):
    """Another app's file (`/api/import/compcon`) saved as a build: the same reply as POST /api/builds, and the
    ids no loaded pack knows, left out (`?pack=` names a pack that may hold them)."""
    read_json(request)  # the same limits and JSON checks as a build
    imported = exchange.read(format, request.body, request.GET.get("pack", ""))
    build = store.create(imported.checked)
    return answers.ImportedBuild(
        **build_urls(request, build), share_id=build.share_id, edit_token=build.edit_token, version=build.version,
        report=answers.Report.of(imported.checked.report), packs=pack_refs(build.pack_ref),
        missing_packs=imported.missing, unknown=exchange.unknown_as_dicts(imported.unknown)).response(201)


@endpoint("GET", "PUT", "DELETE")
def build_detail(request, ref: str):
    if request.method == "GET":
        build = get_object_or_404(Build, share_id=ref)
        wanted = request.GET.get("version")
        if wanted is not None:
            if not (wanted.isascii() and wanted.isdigit() and len(wanted) <= 9):
                raise ApiError(400, "version must be a whole number")
            build = store.at_version(build, int(wanted))
        build, _ = store.shown(build, request.GET.get("reveal"))
        checked = store.check_saved(build)
        return answers.BuildRead(build=build.document, version=build.version, share_id=build.share_id,
                                 share_url=request.build_absolute_uri(build.share_url()),
                                 report=answers.Report.of(checked.report)).response()
    build = get_object_or_404(Build, edit_token=ref)
    if request.method == "DELETE":
        # Of several DELETEs racing, only the one that removed the row answers 204.
        deleted, _ = Build.objects.filter(pk=build.pk).delete()
        if not deleted:
            raise ApiError(404, "no such build or resource")
        return HttpResponse(status=204)
    body = read_json(request)
    if not isinstance(body, dict) or set(body) != {"version", "build"}:
        raise ApiError(400, 'send {"version": <the version you edited>, "build": {...}}')
    if not isinstance(body["version"], int) or isinstance(body["version"], bool):
        raise ApiError(400, "version must be an integer")
    checked = store.check(body["build"])
    try:
        build = store.update(build, checked, body["version"])
    except store.StaleVersion as stale:
        raise ApiError(409, f"stale version: you edited version {body['version']}, the build is now at "
                            f"version {stale.current}; fetch it and reapply your change") from None
    return answers.UpdatedBuild(**build_urls(request, build), version=build.version,
                                report=answers.Report.of(checked.report)).response()


@endpoint("GET")
def build_changes(request, share_id: str):
    """What moving the build to `?pack=name@version` (by default the newest version of its pack) would change:
    items changed, removed and added, and the issues before and after."""
    build = store.public_view(get_object_or_404(Build, share_id=share_id))
    target = request.GET.get("pack") or (newer.ref if (newer := changes.newer_pack(build.pack_ref)) else "")
    if not target:
        raise ApiError(404, "the build is on the newest version of its pack; name one with ?pack=")
    compared = changes.compare(store.check_saved(build).document, page_for(build.ruleset, build.kind).kind,
                               target[:100])
    return answers.PackChanges.model_validate(compared).response()


@endpoint("POST")
def preview(request):
    """{"attacker": a build or {"build": share id}, ...what its kind's preview reads (Preview.reads: a "target"
    and a "situation")} → the preview as JSON."""
    body = read_json(request)
    if not isinstance(body, dict) or "attacker" not in body:
        raise ApiError(400, 'send {"attacker": ..., "situation": {...}}')
    attacker = body["attacker"]
    if isinstance(attacker, dict) and set(attacker) == {"build"}:
        found = Build.objects.filter(share_id=str(attacker["build"])[:40]).first()
        if found is None:
            raise BuildError([{"path": "attacker.build", "message": "no saved build has that share id"}])
        attacker = store.public_view(found).document
    return JsonResponse(store.preview(store.check(attacker), {k: v for k, v in body.items() if k != "attacker"}))


# A raw (not multipart) upload's media type, and the file name that tells the reader its format.
RAW_UPLOADS = {"application/yaml": "pack.yaml", "application/x-yaml": "pack.yaml", "text/yaml": "pack.yaml",
               "application/zip": "pack.zip", "text/csv": "pack.csv"}


@endpoint("POST")
def packs(request, token: str | None = None):
    """Upload a user pack (POST /api/packs) or publish a new version of one (POST /api/packs/<edit token>).

    The body is the pack itself (YAML, zip, or one CSV with its header in the query: name, version, ruleset,
    title, category; `filename` names a game's own format, kit.lcp) or multipart/form-data with `file` and those
    fields. 201 when loaded, 200 when that
    version was already loaded with the same content; 422 names every problem; nothing is saved on an error.
    Entries that could not be read are left out and listed in `skipped` ({file, category, id, field, message}).
    """
    if token is not None:
        get_object_or_404(UserPack, edit_token=token)
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if not declared.isdigit() or int(declared) > MAX_UPLOAD + 64 * 1024:  # a multipart envelope's overhead
        raise ApiError(413, f"a pack is at most {MAX_UPLOAD} bytes")
    if request.content_type == "multipart/form-data":
        upload = request.FILES.get("file")
        if upload is None:
            raise ApiError(400, "send the pack as the multipart field 'file'")
        if upload.size > MAX_UPLOAD:
            raise ApiError(413, f"a pack is at most {MAX_UPLOAD} bytes")
        raw, filename, fields = upload.read(), upload.name, request.POST
    elif request.content_type in RAW_UPLOADS:
        # `?filename=kit.lcp` names the file, whose suffix picks the reader (a game's own zip format).
        named = PurePosixPath(str(request.GET.get("filename", ""))[:100]).name
        raw, filename, fields = request.read(MAX_UPLOAD + 1), named or RAW_UPLOADS[request.content_type], request.GET
        if len(raw) > MAX_UPLOAD:
            raise ApiError(413, f"a pack is at most {MAX_UPLOAD} bytes")
    else:
        raise ApiError(415, f"send one of {', '.join(RAW_UPLOADS)}, or multipart/form-data with 'file'")
    header = {field: str(fields[field])[:120] for field in LONE_CSV_HEADER if fields.get(field)} or None
    try:
        published = publish(raw, filename, header=header, edit_token=token,
                            owner_note=str(fields.get("owner_note", ""))[:200])
    except PackUnreadable as exc:
        raise ApiError(400, "not a pack file", pack_problems(exc)) from None
    except PackConflict as exc:
        raise ApiError(409, "the pack's name or version cannot be published", pack_problems(exc)) from None
    except PackError as exc:
        raise ApiError(422, "the pack is not valid; nothing was loaded", pack_problems(exc)) from None
    owner, result = published.user_pack, published.result
    return answers.PublishedPack(
        pack=result.ref, items=published.own_items, extends=published.extends, status=result.status,
        share_url=request.build_absolute_uri(owner.share_url()),
        edit_url=request.build_absolute_uri(owner.get_absolute_url()), edit_token=owner.edit_token,
        skipped=[asdict(entry) for entry in published.skipped]).response(201 if result.status == "created" else 200)


def pack_problems(error: PackError) -> list[dict[str, str]]:
    """A PackError's lines as problems: `path` is what the line names before its first ': '."""
    problems = []
    for line in str(error).splitlines():
        path, _, message = line.partition(": ")
        problems.append({"path": path, "message": message or path})
    return problems
