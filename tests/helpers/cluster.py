"""Hardpoint as production runs it, for tests and benchmarks that need real processes: gunicorn nodes and a task
worker sharing one PostgreSQL database (and one Redis, when given), each started as `make serve` starts them.

`make test` starts a throwaway PostgreSQL (.ci/postgres) and Redis (.ci/redis) and passes their URLs in
TEST_POSTGRES_URL and TEST_REDIS_URL."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "")
HOST = "hardpoint.test"  # what a load balancer in front of the nodes passes on: one site, whichever node answers


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self):
        return json.loads(self.body) if self.body else {}

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def call(method: str, url: str, body=None, headers: dict | None = None, timeout: float = 60) -> Answer:
    """One request as a browser or an API client on the site would make it (redirects not followed); `body` is
    JSON unless it is bytes already."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    sent = {"Host": HOST, **({"Content-Type": "application/json"} if data is not None else {}), **(headers or {})}
    try:
        with _opener.open(urllib.request.Request(url, data=data, method=method, headers=sent), timeout=timeout) as r:
            return Answer(r.status, dict(r.headers), r.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, dict(error.headers), error.read())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fresh_database(name: str) -> str:
    """An empty database of that name on the test PostgreSQL server, and its URL."""
    import psycopg

    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    return POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"


def drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} (FORCE)")


def environment(database: str, redis: str = "", **settings: str) -> dict[str, str]:
    """The settings every process of one site shares (`make serve`'s, with DEBUG off)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "REDIS_URL")}
    env.update({"DATABASE_URL": database, "DEBUG": "0", "SECRET_KEY": "cluster-tests-only-" + "k" * 40,
                "RATE_LIMITS": "0", "ALLOWED_HOSTS": f"{HOST},127.0.0.1", "HARDPOINT_RELEASE": "cluster-test",
                **settings})
    if redis:
        env["REDIS_URL"] = redis
    return env


def manage(env: dict[str, str], *command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)


@dataclass
class Node:
    """One machine's web server: gunicorn with its workers, on a port of its own."""

    env: dict[str, str]
    log: Path
    workers: int = 2
    threads: int = 1
    # Asked until it answers 200: a static file loads no view, URL or template of the app in the worker.
    probe: str = "/healthz"
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Node:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [str(Path(sys.executable).parent / "gunicorn"), "builder.wsgi", "--bind", f"127.0.0.1:{self.port}",
                 "--workers", str(self.workers), "--threads", str(self.threads), "--timeout", "60",
                 "--graceful-timeout", "5"], cwd=ROOT, env=self.env, stdout=log, stderr=log)
        wait_until(lambda: self.answers(), f"gunicorn on port {self.port} did not start: {self.tail()}")
        return self

    def answers(self) -> bool:
        try:
            return call("GET", self.url + self.probe, timeout=2).status == 200
        except OSError:
            return False

    def worker_pids(self) -> list[int]:
        """The gunicorn workers the master runs now (it starts a new one for each that dies)."""
        found = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout
        return [int(pid) for pid in found.split()]

    def tail(self, size: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-size:] if self.log.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Worker:
    """A task worker (`manage.py db_worker`): renders the big PDFs any node queues."""

    env: dict[str, str]
    log: Path
    process: subprocess.Popen | None = None

    def start(self) -> Worker:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, "manage.py", "db_worker"], cwd=ROOT, env=self.env,
                                            stdout=log, stderr=log)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_redis() -> None:
    """The test Redis (.ci/redis), started again after a test stopped it."""
    subprocess.run(["sh", ".ci/redis"], cwd=ROOT, check=True, capture_output=True)


def prepare(env: dict[str, str]) -> None:
    """What `make serve` does before it serves: the schema, the packs and the static files."""
    manage(env, "migrate", "--noinput")
    manage(env, "load_catalogue")
    manage(env, "collectstatic", "--noinput", "-v", "0")


def wait_until(condition, failure: str, timeout: float = 30, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(failure)
        time.sleep(every)
