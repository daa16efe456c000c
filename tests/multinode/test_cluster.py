"""Two gunicorn nodes and a task worker sharing one PostgreSQL and one Redis: a change made through either node is
what both serve at once, limits count across them, faults lose nothing acknowledged, and the site lives through
Redis going away."""
from __future__ import annotations

import os
import re
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
import yaml

from catalogue.rulesets import resolve
from tests.helpers.cluster import REDIS_URL, Node, call, manage, start_redis, wait_until
from tests.helpers.pdf import pdf_text

pytestmark = pytest.mark.multinode


def examples(node: Node, ruleset: str, kind: str) -> list[dict]:
    found = call("GET", f"{node.url}/api/rulesets/{ruleset}/examples").json()["examples"]
    return [e for e in found if e["kind"] == kind]


def create(node: Node, document: dict, headers=None) -> dict:
    answer = call("POST", f"{node.url}/api/builds", document, headers)
    assert answer.status == 201, answer.text[:500]
    return answer.json()


def rows(site, sql: str, *args) -> list[tuple]:
    with psycopg.connect(site.env["DATABASE_URL"]) as connection:
        return connection.execute(sql, args).fetchall()


def in_a_fresh_minute() -> None:
    """Rate limits count in one-minute windows: a test that fills one starts early in it."""
    if time.time() % 60 > 40:
        time.sleep(61 - time.time() % 60)


def test_an_edit_on_one_node_is_served_at_once_by_the_other_and_a_deletion_by_both(site, tmp_path):
    a, b = site.nodes
    document = examples(a, "metallurgent", "anvil")[0]
    created = create(a, document)
    share = created["share_id"]
    for node in (a, b):  # both draw and cache the first version: page, JSON and PDF
        assert call("GET", f"{node.url}/s/{share}/").status == 200
        assert call("GET", f"{node.url}/s/{share}.json").json()["name"] == document["name"]
        assert document["name"] in pdf_text(call("GET", f"{node.url}/s/{share}.pdf").body, tmp_path)

    edited = call("PUT", f"{a.url}/api/builds/{created['edit_token']}",
                  {"version": 1, "build": {**document, "name": "Renamed On A"}})
    assert edited.status == 200
    title = re.search(r"<title>(.*?)</title>", call("GET", f"{b.url}/s/{share}/").text, re.S).group(1)
    assert "Renamed On A" in title and document["name"] not in title
    assert call("GET", f"{b.url}/s/{share}.json").json()["name"] == "Renamed On A"
    assert "Renamed On A" in pdf_text(call("GET", f"{b.url}/s/{share}.pdf").body, tmp_path)

    assert call("DELETE", f"{b.url}/api/builds/{created['edit_token']}").status == 204
    for node in (a, b):
        for path in (f"/s/{share}/", f"/s/{share}.json", f"/s/{share}.pdf", f"/api/builds/{share}"):
            assert call("GET", node.url + path).status == 404, (node.url, path)


def test_rate_limits_count_across_nodes(site, client_address):
    a, b = site.nodes
    share = create(a, examples(a, "metallurgent", "anvil")[0])["share_id"]
    in_a_fresh_minute()
    statuses = [call("GET", f"{(a, b)[n % 2].url}/s/{share}.pdf", headers=client_address).status for n in range(20)]
    assert statuses == [200] * 20
    for node in (a, b):  # the 21st PDF in the minute, whichever node gets it
        refused = call("GET", f"{node.url}/s/{share}.pdf", headers=client_address)
        assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1


def test_a_pdf_job_queued_on_one_node_is_rendered_by_the_worker_and_followed_on_either(site, tmp_path):
    a, b = site.nodes
    pilots = examples(a, "lancer", "pilot")
    members = [create(a, pilot)["share_id"] for pilot in pilots[:3]]
    lance = create(a, {"format": "hardpoint.build/1", "ruleset": "lancer", "kind": "lance", "pack": pilots[0]["pack"],
                       "name": "Night Lance", "pilots": [{"build": share} for share in members]})
    queued = call("GET", f"{a.url}/s/{lance['share_id']}.pdf")  # four builds to print: more than a request renders
    assert queued.status in (200, 202) and "pdf-progress" in queued.text

    def state(node: Node) -> str:
        part = call("GET", f"{node.url}/s/{lance['share_id']}/pdf-progress").text
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part)).strip()

    seen = []

    def ready() -> bool:
        on_a, on_b = state(a), state(b)
        seen.append((on_a, on_b))
        return "ready" in on_a.lower() and "ready" in on_b.lower()

    wait_until(ready, f"the worker did not render the PDF: {seen[-1:]}", timeout=120, every=0.5)
    assert seen[-1][0] == seen[-1][1]  # one state, read from either node
    pdf = call("GET", f"{b.url}/s/{lance['share_id']}.pdf")
    assert pdf.status == 200 and pdf.headers["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.body, tmp_path)
    assert "Night Lance" in text and all(p["name"] in text for p in pilots[:3])


def test_a_pack_uploaded_on_one_node_is_used_on_the_other_and_a_deleted_one_is_gone_from_both(site):
    a, b = site.nodes
    base = examples(a, "darkmetal", "leader")[0]
    raw = yaml.safe_dump({"name": "cluster-kit", "version": "1.0.0", "ruleset": "darkmetal", "title": "Cluster kit",
                          "extends": base["pack"], "items": {"weapon": [
                              {"key": "rivet-knife", "name": "Rivet Knife", "cost": 5, "carry": "1H", "damage": 1,
                               "close_combat": True, "weapon_type": "Melee Weapon"}]}}).encode()
    uploaded = call("POST", f"{a.url}/api/packs", raw, {"Content-Type": "application/yaml"})
    assert uploaded.status == 201, uploaded.text[:500]
    pack = uploaded.json()
    document = {**base, "pack": pack["pack"], "hands": [{"item": "rivet-knife"}]}
    pack_page = urlsplit(pack["share_url"]).path
    on_b = call("POST", f"{b.url}/api/validate", document)  # at once: nothing of it was kept anywhere yet
    assert on_b.status == 200 and "Rivet Knife" not in str(on_b.json().get("problems"))
    saved = create(b, document)
    for node in (a, b):
        assert call("GET", node.url + pack_page).status == 200
        assert call("GET", f"{node.url}/s/{saved['share_id']}.json").status == 200

    # The operator removes the pack, on a third machine: neither node's memory of it is told.
    manage(site.env, "shell", "-c", "from catalogue.models import Pack; Pack.objects.filter(name='cluster-kit').delete()")

    def gone(node: Node) -> bool:
        return call("POST", f"{node.url}/api/validate", document).status == 422

    for node in (a, b):
        wait_until(lambda: gone(node), f"{node.url} still reads the deleted pack", timeout=10, every=0.25)
        assert call("GET", node.url + pack_page).status == 404


def test_concurrent_puts_of_one_version_across_nodes_give_one_200(site):
    a, b = site.nodes
    document = examples(a, "metallurgent", "anvil")[0]
    token = create(a, document)["edit_token"]

    def put(n: int) -> int:
        node = (a, b)[n % 2]
        return call("PUT", f"{node.url}/api/builds/{token}", {"version": 1, "build": {**document, "name": f"E{n}"}}).status

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = sorted(pool.map(put, range(20)))
    assert statuses.count(200) == 1 and statuses.count(409) == 19, statuses


def test_a_worker_killed_mid_storm_loses_no_acknowledged_save_and_leaves_no_half_written_build(site):
    a, b = site.nodes
    document = examples(a, "metallurgent", "anvil")[0]
    builds = [create(b, {**document, "name": f"Storm {n}"}) for n in range(6)]
    acknowledged: dict[str, dict[int, str]] = {build["share_id"]: {} for build in builds}
    lost_connections = []

    def storm(build: dict) -> None:
        version = 1
        for n in range(12):
            node, marker = (a, b)[n % 2], f"{build['share_id']} save {n}"
            try:
                answer = call("PUT", f"{node.url}/api/builds/{build['edit_token']}",
                              {"version": version, "build": {**document, "name": build["share_id"], "notes": marker}},
                              timeout=30)
            except OSError:  # the worker that had it died: whether it saved, only a read can tell
                lost_connections.append(marker)
                answer = None
            if answer is not None and answer.status == 200:
                version = answer.json()["version"]
                acknowledged[build["share_id"]][version] = marker
            else:
                version = call("GET", f"{b.url}/api/builds/{build['share_id']}").json()["version"]

    threads = [threading.Thread(target=storm, args=(build,)) for build in builds]
    for thread in threads:
        thread.start()
    killed = []
    for _ in range(2):  # two of node A's workers die with requests in hand
        time.sleep(0.4)
        killed.append(a.worker_pids()[0])
        os.kill(killed[-1], signal.SIGKILL)
    for thread in threads:
        thread.join(timeout=120)
    wait_until(lambda: len(set(a.worker_pids()) - set(killed)) == a.workers,
               "node A's master did not replace its killed workers")

    assert sum(map(len, acknowledged.values())) >= 6 * 6  # the storm went on through the kills
    for build in builds:
        versions = rows(site, "SELECT v.number, v.document FROM builder_buildversion v JOIN builder_build b "
                              "ON b.id = v.build_id WHERE b.share_id = %s ORDER BY v.number", build["share_id"])
        numbers = [number for number, _ in versions]
        assert numbers == list(range(1, len(numbers) + 1)), numbers  # contiguous: no version half-written
        (current,), = rows(site, "SELECT version FROM builder_build WHERE share_id = %s", build["share_id"])
        assert current == numbers[-1]
        saved = dict(versions)
        for version, marker in acknowledged[build["share_id"]].items():
            assert saved[version]["notes"] == marker, (version, marker)
        for _, stored in versions:
            ruleset, kind = resolve(stored)
            kind.parse(stored)  # every version reads


def test_the_site_lives_through_redis_stopping_and_recovers_when_it_is_back(site, client_address, tmp_path):
    a, b = site.nodes
    document = examples(a, "metallurgent", "anvil")[0]
    created = create(a, document)
    share, token = created["share_id"], created["edit_token"]
    cache = redis.Redis.from_url(REDIS_URL)
    try:
        try:
            cache.shutdown(nosave=True)
        except redis.exceptions.ConnectionError:
            pass  # it answers the shutdown by going away
        wait_until(lambda: not _answers(cache), "Redis did not stop")
        in_a_fresh_minute()
        for n, node in enumerate((a, b, a, b)):
            assert call("GET", f"{node.url}/s/{share}/").status == 200
            saved = call("PUT", f"{node.url}/api/builds/{token}",
                         {"version": n + 1, "build": {**document, "name": f"Without Redis {n}"}})
            assert saved.status == 200, saved.text[:300]
            assert f"Without Redis {n}" in call("GET", f"{(b, a)[n % 2].url}/s/{share}/").text
        assert create(b, {**document, "name": "Made Without Redis"})["share_id"]
        # Rate limits fail open: with nothing to count in, the 21st PDF of the minute is served.
        statuses = [call("GET", f"{(a, b)[n % 2].url}/s/{share}.pdf", headers=client_address).status
                    for n in range(21)]
        assert statuses == [200] * 21
        assert "Without Redis 3" in pdf_text(call("GET", f"{a.url}/s/{share}.pdf").body, tmp_path)
        assert all("cache unavailable" in node.tail(100_000) for node in (a, b))
    finally:
        start_redis()
    wait_until(lambda: _answers(cache), "Redis did not come back")
    for node in (a, b):
        assert call("GET", f"{node.url}/s/{share}/").status == 200
    assert cache.dbsize() > 0  # what the nodes draw is kept again


def _answers(cache) -> bool:
    try:
        return cache.ping()
    except redis.exceptions.ConnectionError:
        return False


def test_static_files_have_content_hashed_names_cached_for_a_year(site):
    a, b = site.nodes
    page = call("GET", f"{a.url}/").text
    stylesheet = re.search(r'href="(/static/css/hardpoint\.[0-9a-f]{12}\.css)"', page)
    assert stylesheet, "the page links the stylesheet by its hashed name"
    for node in (a, b):
        served = call("GET", node.url + stylesheet.group(1), headers={"Accept-Encoding": "gzip"})
        assert served.status == 200 and "max-age=315360000" in served.headers["Cache-Control"]
        assert "immutable" in served.headers["Cache-Control"]
