"""Concurrent writers through gunicorn with several workers, against PostgreSQL (production) and SQLite.

`make test` starts a throwaway PostgreSQL (.ci/postgres) and passes its URL in TEST_POSTGRES_URL.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
URL = os.environ.get("TEST_POSTGRES_URL", "")


def call(method: str, url: str, body: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else {}
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, json.loads(raw) if raw else {}


@pytest.fixture(scope="module", params=["postgresql", "sqlite"])
def server(request, tmp_path_factory):
    import psycopg

    if request.param == "postgresql":
        if not URL:
            pytest.skip("no PostgreSQL: run `make test`, which starts one")
        with psycopg.connect(URL, autocommit=True) as admin:
            admin.execute("DROP DATABASE IF EXISTS hardpoint_concurrency")
            admin.execute("CREATE DATABASE hardpoint_concurrency")
        database = URL.rsplit("/", 1)[0] + "/hardpoint_concurrency"
    else:
        database = f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'concurrency.sqlite3'}"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(DATABASE_URL=database, DEBUG="0", SECRET_KEY="concurrency-tests-only-" + "k" * 40,
               RATE_LIMITS="0", ALLOWED_HOSTS="127.0.0.1")
    for command in (["migrate", "--noinput"], ["load_catalogue"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    gunicorn = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "builder.wsgi", "--bind",
                                 f"127.0.0.1:{port}", "--workers", "4", "--threads", "8"], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if call("GET", f"{base}/api/rulesets/")[0] == 200:
                break
        except OSError:
            time.sleep(0.2)
    else:
        gunicorn.kill()
        pytest.fail(f"gunicorn did not start: {gunicorn.stderr.read().decode()[-2000:]}")
    yield base
    gunicorn.terminate()
    gunicorn.wait(timeout=20)
    if request.param == "postgresql":
        with psycopg.connect(URL, autocommit=True) as admin:
            admin.execute("DROP DATABASE IF EXISTS hardpoint_concurrency (FORCE)")


def example(base: str) -> dict:
    return call("GET", f"{base}/api/rulesets/metallurgent/examples")[1]["examples"][0]


def test_fifty_concurrent_puts_of_one_version_give_one_200(server):
    status, created = call("POST", f"{server}/api/builds", example(server))
    assert status == 201
    url = f"{server}/api/builds/{created['edit_token']}"
    document = example(server)

    def put(n: int) -> int:
        return call("PUT", url, {"version": 1, "build": {**document, "name": f"Edit {n}"}})[0]

    with ThreadPoolExecutor(max_workers=50) as pool:
        statuses = sorted(pool.map(put, range(50)))
    assert statuses.count(200) == 1 and statuses.count(409) == 49, statuses
    status, read = call("GET", f"{server}/api/builds/{created['share_id']}")
    assert read["version"] == 2 and read["build"]["name"].startswith("Edit ")


def test_concurrent_deletes_give_one_204(server):
    status, created = call("POST", f"{server}/api/builds", example(server))
    url = f"{server}/api/builds/{created['edit_token']}"
    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = sorted(pool.map(lambda _: call("DELETE", url)[0], range(20)))
    assert statuses.count(204) == 1 and statuses.count(404) == 19, statuses



def test_fifty_concurrent_creates_all_succeed(server):
    """SQLite took 461 of 500 concurrent writes as "database is locked"; now writers wait for the lock."""
    document = example(server)
    with ThreadPoolExecutor(max_workers=50) as pool:
        statuses = list(pool.map(lambda n: call("POST", f"{server}/api/builds", {**document, "name": f"N{n}"})[0],
                                 range(50)))
    assert statuses == [201] * 50


def upload_pack(base: str, version: str, damage: int, token: str = "") -> tuple[int, dict]:
    raw = (f"name: race-kit\nversion: {version}\nruleset: darkmetal\ntitle: Race kit\nitems:\n  weapon:\n"
           f"    - {{key: race-knife, name: Race Knife, cost: 5, carry: 1H, damage: {damage}, close_combat: true, "
           f"weapon_type: Melee Weapon}}\n").encode()
    req = urllib.request.Request(f"{base}/api/packs{'/' + token if token else ''}", data=raw, method="POST",
                                 headers={"Content-Type": "application/yaml"})
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_concurrent_uploads_of_one_pack_name_give_one_owner(server):
    """Twenty uploads race for a new pack name and then for its next version: one wins each, the others are
    told 409 (never a 500, never two owners or two 1.1.0s)."""
    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(lambda n: upload_pack(server, "1.0.0", 1 + n % 3), range(20)))
    statuses = sorted(status for status, _ in results)
    assert statuses.count(201) == 1 and statuses.count(409) == 19, statuses
    token = next(body["edit_token"] for status, body in results if status == 201)
    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = sorted(pool.map(lambda n: upload_pack(server, "1.1.0", 10 + n, token)[0], range(20)))
    assert statuses.count(201) == 1 and statuses.count(409) == 19, statuses
