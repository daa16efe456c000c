"""Issue 9's causes of server errors, each named: no input gives a 500, and a refused or failed request saves nothing."""
import json
import logging
from types import SimpleNamespace

import pytest
from django.test import Client

from builder import store
from builder.models import Build
from catalogue.loader import latest_pack
from catalogue.models import Pack
from tests.helpers.refs import pack_ref

pytestmark = pytest.mark.django_db


@pytest.fixture
def anvil_doc(packs):
    return dict(latest_pack("metallurgent", "anvil").examples[0])


@pytest.fixture
def pilot(packs):
    return store.create(store.check({"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "pilot",
                                     "pack": pack_ref("metallurgent", "pilot"), "name": "Vesna", "mettle": 7}))


def api(client, method, url, body=None):
    return getattr(client, method)(url, json.dumps(body) if body is not None else None, content_type="application/json")


def test_cause_1_an_anvil_with_a_linked_pilot_answers_json(client, anvil_doc, pilot):
    created = api(client, "post", "/api/builds", {**anvil_doc, "pilot": pilot.share_id})
    assert created.status_code == 201
    body = created.json()
    assert body["report"]["detail"]["pilot"]["stats"]["specialisation"]["value"]
    read = client.get(f"/api/builds/{body['share_id']}")
    assert read.status_code == 200 and read.json()["report"]["detail"]["pilot"]["mettle"] == 7
    put = api(client, "put", f"/api/builds/{body['edit_token']}", {"version": 1, "build": read.json()["build"]})
    assert put.status_code == 200 and put.json()["version"] == 2


@pytest.mark.parametrize("kind", [["anvil"], {"a": 1}, 5, None, True])
def test_cause_2_a_kind_that_is_not_a_string_is_422(client, anvil_doc, kind):
    response = api(client, "post", "/api/builds", {**anvil_doc, "kind": kind})
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "kind"
    assert Build.objects.count() == 0


def test_cause_4_a_build_pinned_to_another_rulesets_pack_is_422(client, anvil_doc, packs):
    for document in ({**anvil_doc, "pack": pack_ref("darkmetal", "leader")},
                     {**anvil_doc, "pack": pack_ref("metallurgent", "squad")},
                     {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader",
                      "pack": pack_ref("metallurgent", "anvil"), "name": "Crossed"}):
        response = api(client, "post", "/api/builds", document)
        assert response.status_code == 422 and response.json()["problems"][0]["path"] == "pack", document["pack"]
    assert Build.objects.count() == 0


def squad_doc(name, members=(), opponent=None):
    return {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad",
            "pack": pack_ref("metallurgent", "squad"), "name": name, "opponent": opponent,
            "platoons": [{"name": "A", "members": list(members)}]}


def test_cause_5_builds_naming_each_other_open_and_copy_without_looping(client, anvil_doc, packs):
    anvil = store.create(store.check(anvil_doc))
    red = store.create(store.check(squad_doc("Red", [{"build": anvil.share_id}])))
    blue = store.create(store.check(squad_doc("Blue", [{"unit": "rifle-squad"}], opponent=red.share_id)))
    red.document = {**red.document, "opponent": blue.share_id}  # two squads naming each other
    red.save()
    assert client.get(f"/s/{red.share_id}/").status_code == 200
    before = Build.objects.count()
    response = client.post(f"/s/{red.share_id}/copy")
    assert response.status_code == 302 and Build.objects.count() - before == 2  # the squad and its Anvil
    copy = Build.objects.get(edit_token=response["Location"].split("/")[2])
    assert copy.document["opponent"] == blue.share_id  # an opponent is named, not owned


def test_cause_5_a_link_to_the_wrong_kind_is_refused_and_old_ones_do_not_loop(client, anvil_doc, packs):
    anvil = store.create(store.check(anvil_doc))
    response = api(client, "post", "/api/builds", {**anvil_doc, "pilot": anvil.share_id})
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "pilot"
    squad = store.create(store.check(squad_doc("Loop", [{"build": anvil.share_id}])))
    response = api(client, "post", "/api/builds", squad_doc("Nested", [{"build": squad.share_id}]))
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == "platoons[].members[].build"
    # Written before links were checked: an Anvil naming itself, a squad listing itself. No loop, no 500.
    anvil.document = {**anvil.document, "pilot": anvil.share_id}
    anvil.save()
    squad.document["platoons"][0]["members"].append({"build": squad.share_id})
    squad.save()
    before = Build.objects.count()
    for build in (anvil, squad):
        response = client.post(f"/s/{build.share_id}/copy")
        assert response.status_code == 409 and "not a" in response.content.decode()
    assert Build.objects.count() == before


def test_cause_6_a_build_whose_pack_is_missing_is_a_409_naming_the_pack(client, anvil_doc):
    build = store.create(store.check(anvil_doc))
    Pack.objects.filter(name=anvil_doc["pack"].split("@")[0]).delete()
    for method, url in (("get", f"/s/{build.share_id}/"), ("get", build.get_absolute_url()),
                        ("post", build.get_absolute_url()), ("get", f"/s/{build.share_id}.pdf"),
                        ("post", f"/s/{build.share_id}/copy"), ("post", f"/b/{build.edit_token}/duplicate")):
        response = getattr(client, method)(url)
        assert response.status_code == 409, (url, response.status_code)
        assert anvil_doc["pack"] in response.content.decode(), url
    response = client.get(f"/api/builds/{build.share_id}")
    assert response.status_code == 409 and anvil_doc["pack"] in json.dumps(response.json())
    assert Build.objects.count() == 1


def test_cause_7_put_after_delete_is_404_and_only_one_delete_is_204(client, anvil_doc):
    created = api(client, "post", "/api/builds", anvil_doc).json()
    url = f"/api/builds/{created['edit_token']}"
    build = Build.objects.get(share_id=created["share_id"])
    assert client.delete(url).status_code == 204
    assert client.delete(url).status_code == 404
    with pytest.raises(Exception) as raised:  # a PUT that loaded the row just before it went
        store.update(build, store.check(anvil_doc), 1)
    assert type(raised.value).__name__ == "Http404"
    response = api(client, "put", url, {"version": 1, "build": anvil_doc})
    assert response.status_code == 404 and response.json()["status"] == 404


def test_a_request_that_fails_after_saving_saves_nothing(anvil_doc, monkeypatch, caplog):
    from builder import views

    def broken(*args, **kwargs):
        raise RuntimeError("boom after the row was written")

    monkeypatch.setattr(views, "keep", broken)
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.post("/import/", {"json": json.dumps(anvil_doc)})
    assert response.status_code == 500 and Build.objects.count() == 0
    request_id = response["X-Request-Id"]
    assert request_id in response.content.decode()
    logged = [r for r in caplog.records if r.name == "django.request" and r.exc_info]
    assert logged and "boom after the row was written" in str(logged[0].exc_info[1])
    assert logged[0].request_id == request_id


def test_api_errors_are_json_with_status_reason_and_problems(client, packs):
    for response, status in ((client.get("/api/no-such-endpoint"), 404), (client.get("/api/validate"), 405),
                             (client.delete("/api/rulesets/"), 405)):
        body = response.json()
        assert response.status_code == status and body["status"] == status and body["reason"]
        assert body["problems"] == [] and response["X-Request-Id"]


def test_the_pdf_renderer_fetches_nothing_a_build_names(client, anvil_doc, canary, tmp_path):
    from builder.pdf import layout

    url, hits = canary
    hostile = (f'</p><img src="{url}/img"><style>body {{ background: url({url}/css) }}</style>'
               f'<link rel="stylesheet" href="{url}/link"> url({url}/text) file:///etc/passwd')
    build = store.create(store.check({**anvil_doc, "notes": hostile}))
    response = client.get(f"/s/{build.share_id}.pdf")
    assert response.status_code == 200 and hits == []
    share = client.get(f"/s/{build.share_id}/").content.decode()
    assert f'<img src="{url}' not in share and "&lt;img src=" in share
    # Even HTML that does name outside resources (were escaping ever to fail) fetches none of them.
    layout(f'<p>x</p><img src="{url}/direct"><img src="file:///etc/passwd"><div style="background:url({url}/bg)">')
    assert hits == []


def test_headers_csp_no_store_and_referrer_policy(client, anvil_doc):
    build = store.create(store.check(anvil_doc))
    edit = client.get(build.get_absolute_url())
    assert "no-store" in edit["Cache-Control"] and edit["Referrer-Policy"] == "same-origin"
    csp = edit["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert "unsafe-eval" not in csp and edit["Permissions-Policy"]
    html = edit.content.decode()
    assert "<script>" not in html and " onsubmit=" not in html and "javascript:" not in html


def test_check_deploy_is_clean_with_production_settings():
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update({"DEBUG": "0", "HTTPS": "1", "SECRET_KEY": "x" * 60 + "production-like-key-0123456789",
                "ALLOWED_HOSTS": "hardpoint.example"})
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            capture_output=True, text=True, env=env, cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_debug_is_off_unless_asked_for():
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    off = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                         env={**env, "DJANGO_SETTINGS_MODULE": "builder.settings", "SECRET_KEY": "k" * 50})
    assert off.stdout.strip() == "False"
    keyless = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                             env={**env, "DJANGO_SETTINGS_MODULE": "builder.settings"})
    assert keyless.returncode != 0 and "SECRET_KEY" in keyless.stderr


def test_rate_limits_answer_429_with_retry_after(client, anvil_doc, settings, monkeypatch):
    from django.core.cache import cache

    from builder import ratelimit

    cache.clear()
    # The limiter's clock stands still mid-window: no minute turns over during the test.
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_800_000_030.0))
    settings.HARDPOINT_RATE_LIMITS = {"write": (3, 60), "preview": (2, 60), "pdf": (1, 60)}
    build = store.create(store.check(anvil_doc))
    assert client.get(f"/s/{build.share_id}.pdf").status_code == 200
    limited = client.get(f"/s/{build.share_id}.pdf")
    assert limited.status_code == 429 and 1 <= int(limited["Retry-After"]) <= 61
    assert client.get(f"/s/{build.share_id}/").status_code == 200  # reading is never limited
    statuses = [api(client, "post", "/api/validate", anvil_doc).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    body = api(client, "post", "/api/builds", anvil_doc).json()
    assert body["status"] == 429 and "a minute" in body["reason"] and Build.objects.count() == 1
    other = Client(REMOTE_ADDR="127.0.0.2")  # another client has its own allowance
    assert api(other, "post", "/api/validate", anvil_doc).status_code == 200
    cache.clear()


def test_a_pdf_prints_a_bounded_number_of_sheets(client, anvil_doc, settings, tmp_path):
    import subprocess

    settings.HARDPOINT_MAX_PRINTED_BUILDS = 3
    anvils = [store.create(store.check({**anvil_doc, "name": f"Anvil {n}"})) for n in range(4)]
    squad = store.create(store.check(squad_doc("Big", [{"build": a.share_id} for a in anvils])))
    pdf = tmp_path / "squad.pdf"
    pdf.write_bytes(client.get(f"/s/{squad.share_id}.pdf").content)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Not printed here" in text and "Anvil 3 (anvil)" in text
    assert anvils[3].share_id in "".join(text.split())
    assert text.count("LEGAL when printed") == 3


def test_cause_3_non_ascii_digits_are_a_422_naming_the_field(client, anvil_doc, pilot):
    anvil = store.create(store.check(anvil_doc))
    for url, form, field in (
            ("/new/metallurgent/anvil/", {"pack": anvil_doc["pack"], "gear-count": "²"}, "gear-count"),
            ("/new/metallurgent/pilot/", {"pack": pilot.pack_ref, "xp": "٣"}, "xp"),
            ("/new/metallurgent/squad/", {"pack": pack_ref("metallurgent", "squad"), "players": "²"}, "players"),
            ("/new/darkmetal/leader/", {"pack": pack_ref("darkmetal", "leader"), "trait-ath": "²"}, "trait-ath"),
            (anvil.get_absolute_url(), {"pack": anvil_doc["pack"], "version": "¹"}, "version"),
            ("/preview/metallurgent/anvil/", {"attacker_build": anvil.share_id, "preview-target": "unit:t-72b-mbt",
                                             "preview-range": "²"}, "range")):
        response = client.post(url, {**form, "action": "save"})
        assert response.status_code == 422 and f"<code>{field}</code>" in response.content.decode(), url
    assert Build.objects.count() == 2
