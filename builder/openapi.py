"""The OpenAPI 3.1 document of the JSON API, generated, never written by hand: its paths are the routes of
`builder.urls.api_patterns`, what each operation takes and answers is in OPERATIONS below, and every schema comes
from a pydantic model: the answers (api_models), and from the registry each kind's build document, its report's
Detail and its preview request, and each ruleset's pack file. Served at /api/openapi.json, and read at /api/docs/.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import version
from typing import Any, Literal, Union

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import get_resolver
from django.utils.html import format_html, format_html_join
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model
from pydantic.json_schema import GenerateJsonSchema

from catalogue.rulesets import ACTIVE, EXCHANGES
from catalogue.rulesets.base import PackHeader, ShareId
from catalogue.rulesets.packs import LONE_CSV_HEADER, MAX_UPLOAD
from catalogue.rulesets.spec import Ruleset

from . import api_models as answers
from .api import RAW_UPLOADS, endpoint

REF = "#/components/schemas/{model}"
PAGE = "text/html"  # an answer that is a page, not JSON
BODY = settings.HARDPOINT_MAX_BODY // 1024


@dataclass(frozen=True)
class Operation:
    """One method of one route: what it does, the query it reads (name → what, or (what, schema)), its request body
    (a type, or a type or schema by media type), its answers (status → the type of its body; None: no body, PAGE: a
    page) and its error statuses, each with when (every error answers api_models.ErrorAnswer)."""

    summary: str
    answers: Mapping[int, Any]
    errors: Mapping[int, str] = field(default_factory=dict)
    body: Any = None
    query: Mapping[str, str | tuple[str, dict[str, Any]]] = field(default_factory=dict)
    description: str = ""


class SavedBuildRef(BaseModel):
    """A saved build named by its share id."""

    model_config = ConfigDict(extra="forbid")
    build: ShareId


class BuildUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(description="the version you edited; a build saved since is a 409")
    build: answers.BuildDocument


class ImportFile(BaseModel):
    """Another app's file, as that app writes it."""

    model_config = ConfigDict(extra="allow")


class PackForm(BaseModel):
    """A pack as a form upload: the file, and the lone CSV's header fields."""

    model_config = ConfigDict(extra="forbid")
    file: bytes = Field(json_schema_extra={"format": "binary"})
    owner_note: str = ""
    # The lone CSV's header (LONE_CSV_HEADER), named here as the form names them.
    ruleset: str = ""
    name: str = ""
    version: str = ""
    title: str = ""
    category: str = ""
    extends: str = ""


def preview_requests() -> Any:
    """One request model per kind with a preview: its attacker, and each part its previewer reads (Preview.reads),
    of the type the previewer reads it as."""
    models = []
    for ruleset in ACTIVE.values():
        for kind in ruleset.kinds:
            if kind.previewer is None:
                continue
            fields = {part: (kind_of, Field(default_factory=dict)) for part, kind_of in kind.previewer.reads.items()}
            models.append(create_model(
                f"{ruleset.key}-{kind.key}-preview", __config__=ConfigDict(extra="forbid"),
                attacker=(kind.document | SavedBuildRef, Field(description="the build, or a saved one")),
                **fields))
    return Union[tuple(models)]


def pack_files() -> Any:
    """Each ruleset's pack file (YAML): its header, its items by category, each category's own model."""
    return Union[tuple(_pack_file(ruleset) for ruleset in ACTIVE.values())]


def _pack_file(ruleset: Ruleset) -> type[BaseModel]:
    items = create_model(f"{ruleset.key}-pack-items", __config__=ConfigDict(extra="forbid"),
                         **{category: (list[model], []) for category, model in ruleset.categories.items()})
    return create_model(f"{ruleset.key}-pack-file", __base__=PackHeader,
                        ruleset=(Literal[ruleset.key], ...), source=(Literal["user"], "user"), items=(items, ...),
                        examples=(list[dict[str, Any]], Field([], description="build documents without the header")))


# Built once: each holds a model per kind or ruleset.
PREVIEW_REQUEST = preview_requests()
PACK_FILE = pack_files()

BODY_ERRORS = {400: "malformed JSON, an empty body, the wrong shape, or a NUL character in a query field",
               413: f"a body over {BODY} KB", 415: "a body that is not application/json"}
LIMITED = {429: "too many requests of this kind from this client in a minute (Retry-After says when to retry)"}
PACK_CHOICE = {"pack": "name@version of a public pack (by default the ruleset's newest)",
               "category": "the newest pack holding this category, when no pack is named",
               "pack_link": "an uploaded pack's share link or id (its newest version, or `pack`'s)"}
PACK_FIELDS = {name: f"a lone CSV's header field {name}" for name in LONE_CSV_HEADER} | {
    "filename": "the file's name, whose suffix picks the reader (a game's own format)",
    "owner_note": "a note to yourself about the pack"}
PACK_BODY = {**{media: PACK_FILE for media in RAW_UPLOADS if "yaml" in media},
             "application/zip": {"type": "string", "format": "binary"}, "text/csv": {"type": "string"},
             "multipart/form-data": PackForm}
PACK_ERRORS = {400: "not a pack file (unreadable bytes), or a form without its file",
               404: "no pack has that edit token", 409: "the pack's name is taken, or the version is not newer",
               413: f"over {MAX_UPLOAD // 1024 // 1024} MB", 415: "a media type no reader takes",
               422: "the pack is not valid; every problem is named", **LIMITED}

OPERATIONS: dict[str, dict[str, Operation]] = {
    "api-rulesets": {"get": Operation(
        "Every ruleset, active or coming; the active ones with their kinds, newest pack and categories",
        {200: answers.Rulesets})},
    "api-items": {"get": Operation(
        "A pack's items, all or of one category, with their fields", {200: answers.Items},
        {400: "an unknown category, or a NUL character in a query field",
         404: "an unknown ruleset or pack (an uploaded pack by name, not link)"},
        query=PACK_CHOICE)},
    "api-examples": {"get": Operation(
        "A pack's example builds, as build documents", {200: answers.Examples},
        {404: "an unknown ruleset or pack"}, query=PACK_CHOICE)},
    "api-house-rules": {"get": Operation(
        "The ruleset's house-rule options, and the rule IDs whose severity a build may set",
        {200: answers.HouseRules}, {404: "an unknown ruleset"})},
    "api-validate": {"post": Operation(
        "Check a build document: its Report", {200: answers.Report},
        {**BODY_ERRORS, 422: "the document is not readable (each problem names its field)", **LIMITED},
        body=answers.BuildDocument)},
    "api-builds": {"post": Operation(
        "Save a build: its links, share id, edit token and Report", {201: answers.SavedBuild},
        {**BODY_ERRORS, 422: "the document is not readable, or holds items its share link masks", **LIMITED},
        body=answers.BuildDocument)},
    "api-build": {
        "get": Operation("A saved build by its share id, as its share link shows it, with its Report",
                         {200: answers.BuildRead},
                         {400: "version is not a whole number, or a query field holds a NUL character",
                          404: "no build has that share id, or no such version",
                          409: "the saved build no longer reads here (its pack is not loaded)"},
                         query={"version": ("an earlier save's number", {"type": "integer", "minimum": 0}),
                                "reveal": "the reveal token: the build whole, secret items too"}),
        "put": Operation("Save a new version over the one you edited", {200: answers.UpdatedBuild},
                         {**BODY_ERRORS, 404: "no build has that edit token",
                          409: "stale version: the build was saved since the version you edited",
                          422: "the document is not readable, or changes what a saved build may not", **LIMITED},
                         body=BuildUpdate, description="`ref` is the edit token."),
        "delete": Operation("Delete the build", {204: None}, {404: "no build has that edit token", **LIMITED},
                            description="`ref` is the edit token."),
    },
    "api-build-changes": {"get": Operation(
        "What moving the build to another version of its pack would change", {200: answers.PackChanges},
        {404: "no such build, or it is on the newest version of its pack",
         409: "the saved build no longer reads here", 422: "the named pack version does not read the build"},
        query={"pack": "name@version to move to (by default the newest version of the build's pack)"})},
    "api-preview": {"post": Operation(
        "The combat preview of a build: the odds of each attack against a target in a situation",
        {200: answers.PreviewAnswer},
        {**BODY_ERRORS, 422: "the attacker or what the preview reads is not readable", **LIMITED},
        body=PREVIEW_REQUEST,
        description="What is read besides the attacker is its kind's: one request shape per kind with a preview.")},
    "api-import": {"post": Operation(
        "Save a build from another app's file", {201: answers.ImportedBuild},
        {**BODY_ERRORS, 404: "no such format", 422: "the file is not readable; the problem names its field",
         **LIMITED},
        body=ImportFile, query={"pack": "the packs to read it with: name@version[,name@version…] or a share link"})},
    "api-packs": {"post": Operation(
        "Upload a pack: loaded as a new user pack", {201: answers.PublishedPack},
        {**PACK_ERRORS, 404: "an uploaded pack it extends is not loaded"}, body=PACK_BODY, query=PACK_FIELDS,
        description="Entries that do not read are left out and listed in `skipped`; nothing is saved on an error.")},
    "api-pack-publish": {"post": Operation(
        "Publish a new version of an uploaded pack", {201: answers.PublishedPack, 200: answers.PublishedPack},
        PACK_ERRORS, body=PACK_BODY, query=PACK_FIELDS,
        description="`token` is the pack's edit token. 200 when that version is already loaded unchanged.")},
    "api-openapi": {"get": Operation("This document", {200: dict[str, Any]})},
    "api-docs": {"get": Operation("This document as a page to read", {200: PAGE})},
}

PATH_PARAMETERS = {"key": "a ruleset's key", "ref": "a build's share id (GET) or edit token (PUT, DELETE)",
                   "share_id": "a build's share id", "format": "another app's file format",
                   "token": "an uploaded pack's edit token"}


@endpoint("GET")
def schema(request):
    return JsonResponse(document())


@cache
def document() -> dict[str, Any]:
    types = Types()
    paths: dict[str, dict[str, Any]] = {}
    # builder.urls.api_patterns, read through the resolver: the URLconf imports this module.
    api = next(entry for entry in get_resolver().url_patterns if str(entry.pattern) == "api/")
    for route in api.url_patterns:
        path, parameters = _path(route)
        paths[path] = {method: _operation(operation, parameters, types)
                       for method, operation in OPERATIONS[route.name].items()}
    return {"openapi": "3.1.0",
            "info": {"title": "Hardpoint API", "version": version("hardpoint"),
                     "description": "Build documents in, Reports out. Every error answers with one shape, "
                                    "ErrorAnswer; nothing is saved by a request that is refused."},
            "paths": paths, "components": {"schemas": types.schemas()}}


def _path(route) -> tuple[str, list[dict[str, Any]]]:
    """The route as an OpenAPI path and its parameters, each with its converter's pattern."""
    pattern = route.pattern
    parameters = [{"name": name, "in": "path", "required": True, "description": PATH_PARAMETERS[name],
                   "schema": _path_schema(name, converter.regex)} for name, converter in pattern.converters.items()]
    return "/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern)), parameters


def _path_schema(name: str, regex: str) -> dict[str, Any]:
    choices = {"key": list(ACTIVE), "format": list(EXCHANGES)}.get(name)
    return {"type": "string", "enum": choices} if choices else {"type": "string", "pattern": f"^{regex}$"}


def _operation(operation: Operation, parameters: list[dict[str, Any]], types: Types) -> dict[str, Any]:
    query = []
    for name, what in operation.query.items():
        what, schema = what if isinstance(what, tuple) else (what, {"type": "string"})
        query.append({"name": name, "in": "query", "required": False, "description": what, "schema": schema})
    errors = dict(operation.errors)
    if query:  # PlainText refuses a NUL in any query field
        errors.setdefault(400, "a NUL character in a query field")
    if parameters:
        errors.setdefault(404, "no such resource")
    error = {"application/json": {"schema": types.ref(answers.ErrorAnswer, "serialization")}}
    responses = {str(status): _content(kind, types) for status, kind in operation.answers.items()}
    responses |= {str(status): {"description": when, "content": error} for status, when in errors.items()}
    found: dict[str, Any] = {"summary": operation.summary, "responses": responses}
    if operation.description:
        found["description"] = operation.description
    if parameters or query:
        found["parameters"] = parameters + query
    if operation.body is not None:
        media = operation.body if isinstance(operation.body, Mapping) else {"application/json": operation.body}
        found["requestBody"] = {"required": True, "content": {
            name: {"schema": types.ref(kind, "validation")} for name, kind in media.items()}}
    return found


def _content(kind: Any, types: Types) -> dict[str, Any]:
    if kind is None:
        return {"description": "done; no body"}
    if kind == PAGE:
        return {"description": "a page", "content": {PAGE: {"schema": {"type": "string"}}}}
    return {"description": "done", "content": {"application/json": {"schema": types.ref(kind, "serialization")}}}


class Types:
    """The schemas an operation names, gathered to be generated in one go: pydantic then names every model once,
    however many rulesets have a model of the same name. `ref` hands out a placeholder filled in by `schemas`."""

    def __init__(self):
        self.wanted: dict[tuple[Any, str], dict[str, Any]] = {}

    def ref(self, kind: Any, mode: str) -> dict[str, Any]:
        if isinstance(kind, dict):  # a schema written out (a file's raw bytes)
            return kind
        return self.wanted.setdefault((kind, mode), {})

    def schemas(self) -> dict[str, Any]:
        inputs = [((kind, mode), mode, TypeAdapter(kind)) for kind, mode in self.wanted]
        # Every kind's document and Detail, for the unions the answers name (api_models.BuildDocument, KindDetail).
        kinds = {(ruleset.key, kind.key): kind for ruleset in ACTIVE.values() for kind in ruleset.kinds}
        inputs += [(key, "validation", TypeAdapter(kind.document)) for key, kind in kinds.items()]
        inputs += [(key, "serialization", TypeAdapter(kind.detail)) for key, kind in kinds.items()]
        found, definitions = TypeAdapter.json_schemas(inputs, ref_template=REF, schema_generator=Names)
        for key, placeholder in self.wanted.items():
            placeholder.update(found[key, key[1]])
        named = {f"{ruleset.key}.BuildDocument": {"anyOf": [found[(ruleset.key, kind.key), "validation"]
                                                             for kind in ruleset.kinds], "required": ["ruleset"]}
                 for ruleset in ACTIVE.values()}
        # A document names its ruleset (required); its kind, when left out, is the ruleset's first.
        mapping = {key: REF.format(model=f"{key}.BuildDocument") for key in ACTIVE}
        named["BuildDocument"] = {"oneOf": [{"$ref": ref} for ref in mapping.values()],
                                  "discriminator": {"propertyName": "ruleset", "mapping": mapping}}
        named["KindDetail"] = {"anyOf": [found[key, "serialization"] for key in kinds]}
        return dict(sorted({**definitions.get("$defs", {}), **named}.items()))


class Names(GenerateJsonSchema):
    """A model named as another one is (each game has its `Situation`) is told apart by its module within the app,
    `<game>.preview.Situation`, rather than by its whole import path."""

    def normalize_name(self, name: str) -> str:
        return re.sub(r"[^a-zA-Z0-9.\-_]", "_", re.sub(r"^(catalogue\.rulesets|builder)\.", "", name))


# --- the reference page: the same document, to read --------------------------------------------------------------

@endpoint("GET")
def reference(request):
    spec = document()
    operations = [{"method": method.upper(), "path": path, "anchor": _anchor(f"{method} {path}"), **operation,
                   "parameters": [{**p, "type": _shown(p["schema"])} for p in operation.get("parameters", [])],
                   "body": [(media, _shown(s["schema"])) for media, s in
                            operation.get("requestBody", {}).get("content", {}).items()],
                   "answers": [(status, answer["description"], _shown(_schema_of(answer)))
                               for status, answer in operation["responses"].items()]}
                  for path, methods in spec["paths"].items() for method, operation in methods.items()]
    schemas = [{"name": name, "anchor": _anchor(name), "description": s.get("description", ""),
                "is": "" if "properties" in s else _shown({key: s[key] for key in ("anyOf", "oneOf") if key in s}),
                "fields": [{"name": field, "type": _shown(prop), "required": field in s.get("required", ()),
                            "description": prop.get("description", "")}
                           for field, prop in s.get("properties", {}).items()]}
               for name, s in spec["components"]["schemas"].items()]
    return render(request, "api/reference.html", {"openapi": spec["openapi"], "info": spec["info"],
                                                   "operations": operations, "schemas": schemas})


def _anchor(name: str) -> str:
    return re.sub(r"[^a-zA-Z0-9]+", "-", name).strip("-").lower()


def _schema_of(answer: dict[str, Any]) -> dict[str, Any] | None:
    return next((media["schema"] for media in answer.get("content", {}).values()), None)


def _shown(schema: dict[str, Any] | None) -> str:
    """A schema in a few words, each named schema linked to its entry on the page."""
    if not schema:
        return ""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return format_html('<a href="#{}">{}</a>', _anchor(name), name)
    if choices := schema.get("anyOf") or schema.get("oneOf"):
        return format_html_join(" or ", "{}", ((_shown(choice),) for choice in choices))
    if "const" in schema:
        return format_html("<code>{}</code>", json.dumps(schema["const"]))
    if "enum" in schema:
        values = format_html_join(", ", "<code>{}</code>", ((json.dumps(value),) for value in schema["enum"]))
        return format_html("one of {}", values)
    kind = schema.get("type")
    if kind == "array":
        return format_html("list of {}", _shown(schema.get("items")) or "any")
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict) and "properties" not in schema:
        return format_html("map of {}", _shown(schema["additionalProperties"]) or "any")
    return schema.get("format", kind or "any")
