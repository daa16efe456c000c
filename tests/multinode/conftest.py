"""Two web nodes and a task worker on one PostgreSQL and one Redis, as docs/install.md lays production out: what one
node does, the other sees."""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from tests.helpers.cluster import (POSTGRES_URL, REDIS_URL, Node, Worker, drop_database, environment, fresh_database,
                                   prepare)

DATABASE = "hardpoint_cluster"
_addresses = itertools.count(1)


@dataclass
class Site:
    a: Node
    b: Node
    worker: Worker
    env: dict[str, str]

    @property
    def nodes(self) -> tuple[Node, Node]:
        return self.a, self.b


@pytest.fixture(scope="package")
def site(tmp_path_factory):
    if not (POSTGRES_URL and REDIS_URL):
        pytest.skip("needs PostgreSQL and Redis: `make test` starts both (Debian's postgresql and redis-server)")
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    work = tmp_path_factory.mktemp("cluster")
    # Rate limits on, counted per client address as a proxy passes it on; a pack deleted on one machine is seen
    # gone by the others' memory within a second.
    env = environment(fresh_database(DATABASE), REDIS_URL, RATE_LIMITS="1", TRUST_X_FORWARDED_FOR="1",
                      HARDPOINT_PACK_RECHECK_SECONDS="1", STATIC_ROOT=str(work / "static"))
    prepare(env)
    started = []
    try:
        for name in ("a", "b"):
            started.append(Node(env, work / f"{name}.log").start())
        started.append(Worker(env, work / "worker.log").start())
        site = Site(started[0], started[1], started[2], env)
        yield site
        started += [site.a, site.b]  # a test may have restarted a node
    finally:
        for process in started:
            process.stop()
        drop_database(DATABASE)


@pytest.fixture
def client_address() -> dict[str, str]:
    """A client of its own, so that each test's requests count against no other's rate limits."""
    return {"X-Forwarded-For": f"10.77.0.{next(_addresses)}"}
