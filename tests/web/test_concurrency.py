"""Concurrent writers through gunicorn with several workers, against PostgreSQL (production) and SQLite.

`make test` starts a throwaway PostgreSQL (.ci/postgres) and passes its URL in TEST_POSTGRES_URL.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.helpers.cluster import POSTGRES_URL, Node, call as answer, drop_database, environment, fresh_database, prepare


def call(method: str, url: str, body: dict | None = None) -> tuple[int, dict]:
    found = answer(method, url, body)
    return found.status, found.json()


@pytest.fixture(scope="module", params=["postgresql", "sqlite"])
def server(request, tmp_path_factory):
    work = tmp_path_factory.mktemp("concurrency")
    if request.param == "postgresql":
        if not POSTGRES_URL:
            pytest.skip("no PostgreSQL: run `make test`, which starts one")
        database = fresh_database("hardpoint_concurrency")
    else:
        database = f"sqlite:///{work / 'concurrency.sqlite3'}"
    env = environment(database, STATIC_ROOT=str(work / "static"))
    prepare(env)
    node = Node(env, work / "gunicorn.log", workers=4, threads=8).start()
    yield node.url
    node.stop()
    if request.param == "postgresql":
        drop_database("hardpoint_concurrency")


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
    found = answer("POST", f"{base}/api/packs{'/' + token if token else ''}", raw, {"Content-Type": "application/yaml"})
    return found.status, found.json()


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
