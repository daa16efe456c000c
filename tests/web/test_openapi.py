"""The OpenAPI document of /api/ is the contract: it lists every route, every error it declares is the one error
shape, every layer that can refuse a request answers that shape, and Schemathesis holds the app to the document
(no 5xx, every answer as documented, nothing saved by a refusal).

Schemathesis runs a bounded, seeded profile (SCHEMATHESIS_EXAMPLES cases per operation, 25 by default); setting
SCHEMATHESIS_EXAMPLES (500, say) runs the deeper one, with Schemathesis's boundary-value phase too.
SCHEMATHESIS_REPORT=path writes the counts (operations, inputs, statuses per operation, 5xx) as JSON."""
import json
import os
import re
import zlib
from collections import Counter, defaultdict
from unittest import mock

import jsonschema
import pytest
import schemathesis
from django.apps import apps
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate as validate_openapi
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (content_type_conformance, negative_data_rejection,
                                               response_schema_conformance, status_code_conformance)

from builder.openapi import document
from builder.urls import api_patterns
from builder.wsgi import application
from catalogue.models import Pack
from catalogue.rulesets import ACTIVE
from tests.web.api_calls import create, post_json

DEEP = bool(os.environ.get("SCHEMATHESIS_EXAMPLES"))
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES") or 25)
CONFIG = SchemathesisConfig.from_dict({"generation": {"max-examples": EXAMPLES, "deterministic": True},
                                       # The coverage phase's thousands of boundary cases are for the deeper run.
                                       "phases": {"coverage": {"enabled": DEEP}}})
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          negative_data_rejection]
ERROR = "#/components/schemas/ErrorAnswer"

# The document as generated (importing this module makes no request: other tests import every test module); cases
# call the WSGI app. The served copy is checked below.
schema = schemathesis.openapi.from_dict(document(), config=CONFIG)
schemathesis.serializer.alias("application/zip", "application/octet-stream")  # a zip pack's bytes, sent as they are
TALLY: dict[str, Counter] = defaultdict(Counter)


# --- the document ----------------------------------------------------------------------------------

def test_the_served_document_is_valid_openapi_3_1(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    spec = response.json()
    assert spec["openapi"].startswith("3.1") and spec == schema.raw_schema
    validate_openapi(spec)


def test_the_document_lists_every_api_route_with_its_methods():
    paths = document()["paths"]
    for route in api_patterns:
        path = "/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(route.pattern))
        assert path in paths, f"{route.name} ({path}) is not in the OpenAPI document"
        assert set(paths[path]) == {method.lower() for method in route.callback.methods}, route.name


def test_every_declared_error_is_the_one_error_shape():
    spec = document()
    assert set(spec["components"]["schemas"]["ErrorAnswer"]["required"]) == {"status", "reason", "problems",
                                                                            "request_id"}
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            for status, answer in operation["responses"].items():
                if int(status) >= 400:
                    assert answer["content"] == {"application/json": {"schema": {"$ref": ERROR}}}, f"{method} {path}"


def test_every_kind_has_its_document_and_detail_in_the_document():
    schemas = document()["components"]["schemas"]
    assert {branch["$ref"] for branch in schemas["BuildDocument"]["oneOf"]} == {
        f"#/components/schemas/{key}.BuildDocument" for key in ACTIVE}
    for key, ruleset in ACTIVE.items():
        assert len(schemas[f"{key}.BuildDocument"]["anyOf"]) == len(ruleset.kinds)
    assert len(schemas["KindDetail"]["anyOf"]) == sum(len(ruleset.kinds) for ruleset in ACTIVE.values())


def test_the_reference_page_shows_every_operation_and_schema(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    spec = document()
    for path, methods in spec["paths"].items():
        for method in methods:
            assert f"{method.upper()} {path}" in page
    assert all(f"<code>{name}</code>" in page for name in spec["components"]["schemas"])
    assert "<script src=\"http" not in page


# --- every layer refuses in the one shape ------------------------------------------------------------

def assert_error_answer(response, status: int) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    jsonschema.validate(body, {"$ref": ERROR, "components": document()["components"]})
    assert body["status"] == status and body["request_id"] == response["X-Request-Id"]
    return body


def test_an_unknown_build_is_a_404_error_answer(client, packs):
    assert_error_answer(client.get("/api/builds/no-such-build"), 404)


def test_an_unknown_api_path_is_a_404_error_answer(client):
    assert_error_answer(client.get("/api/no/such/thing"), 404)


def test_a_wrong_method_is_a_405_error_answer(client, db):
    response = client.delete("/api/validate")
    assert_error_answer(response, 405)
    assert response["Allow"] == "POST"


def test_a_huge_json_body_is_a_413_error_answer(client, db):
    assert_error_answer(post_json(client, "/api/validate", "x" * (300 * 1024)), 413)


def test_a_huge_form_body_is_a_413_error_answer(client, db):
    """Django's own refusal (RequestDataTooBig, raised when a middleware reads the form) answers the same shape."""
    response = client.post("/api/validate", data="a=" + "x" * (300 * 1024),
                           content_type="application/x-www-form-urlencoded")
    assert_error_answer(response, 413)


def test_malformed_json_is_a_400_error_answer(client, db):
    body = assert_error_answer(post_json(client, "/api/validate", "{not json"), 400)
    assert body["problems"]


def test_an_unreadable_document_is_a_422_error_answer(client, packs):
    body = assert_error_answer(post_json(client, "/api/validate", {"ruleset": "no-such-game"}), 422)
    assert body["problems"][0]["path"] == "ruleset"


def test_rate_limited_is_a_429_error_answer(client, settings):
    settings.HARDPOINT_RATE_LIMITS = {"write": (0, 60), "preview": (0, 60), "pdf": (0, 60)}
    response = post_json(client, "/api/validate", {})
    assert_error_answer(response, 429)
    assert int(response["Retry-After"]) >= 1


def test_a_server_error_is_a_500_error_answer(packs):
    client = Client(raise_request_exception=False)
    with mock.patch("builder.api.store.check", side_effect=RuntimeError("a bug")):
        body = assert_error_answer(post_json(client, "/api/validate", {}), 500)
    assert "a bug" not in json.dumps(body)


# --- Schemathesis ------------------------------------------------------------------------------------

def rows() -> dict[str, int]:
    """How many rows each of the app's tables holds: what a refused request must leave as it was."""
    return {model.__name__: model.objects.count() for app in ("builder", "catalogue")
            for model in apps.get_app_config(app).get_models()}


@pytest.fixture
def saved(client, packs) -> list[dict]:
    """A saved build on every public pack with examples (its first), for cases to point at: random ids and documents
    seldom reach a build. Those on an older version of their pack have changes to show."""
    found = []
    for pack in Pack.objects.filter(source__in=Pack.PUBLIC).exclude(examples=[]).order_by("name", "version"):
        document = pack.examples[0]
        found.append({**create(client, document), "document": document})
    return found


def on_saved(case, build: dict) -> None:
    """Point a generated request at a saved build: its share id or edit token in the path, no query (the defaults),
    its document as the body where a body is a build."""
    case.query = {}
    for name in ("ref", "share_id"):
        if name in (case.path_parameters or {}):
            case.path_parameters[name] = build["edit_token" if case.method in ("PUT", "DELETE") else "share_id"]
    if case.method == "PUT":
        case.body = {"version": build["version"], "build": build["document"]}
    elif case.path in ("/api/validate", "/api/builds"):
        case.body = build["document"]
    elif case.path == "/api/preview":
        case.body = {"attacker": {"build": build["share_id"]}}


@pytest.fixture
def connection_kept():
    """Schemathesis calls the WSGI handler, whose request signals would close the test database's connection;
    Django's own test client keeps it open the same way."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def saved_for(case, saved: list[dict]) -> dict | None:
    """A saved build for half the valid cases, chosen by the case's content: the same when Hypothesis replays the
    case (no `given` strategy, which would turn off Schemathesis's coverage phase)."""
    if case.meta.generation.mode != GenerationMode.POSITIVE:
        return None
    pick = zlib.crc32(repr((case.path_parameters, case.query, case.body)).encode())
    return saved[pick // 2 % len(saved)] if pick % 2 else None


@schema.parametrize()
@settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_contract(case, saved, connection_kept):
    if build := saved_for(case, saved):
        on_saved(case, build)
    before = rows()
    response = case.call(app=application)
    TALLY[case.operation.label][response.status_code] += 1
    case.validate_response(response, checks=CHECKS)
    if response.status_code >= 400:
        assert rows() == before, f"{case.operation.label} answered {response.status_code} and saved a row"


@pytest.fixture(scope="module", autouse=True)
def counts():
    """The run's counts, printed at the end (pytest -s shows them) and written to SCHEMATHESIS_REPORT."""
    yield
    if not TALLY:
        return
    found = {"operations": len(TALLY), "inputs": sum(sum(c.values()) for c in TALLY.values()),
             "server_errors": sum(n for c in TALLY.values() for status, n in c.items() if status >= 500),
             "statuses": {label: dict(sorted(c.items())) for label, c in sorted(TALLY.items())}}
    print(json.dumps(found, indent=1))
    if os.environ.get("SCHEMATHESIS_REPORT"):
        with open(os.environ["SCHEMATHESIS_REPORT"], "w") as out:
            json.dump(found, out, indent=1)
