"""Throughput: gunicorn serving the app as `make serve` runs it, driven by a small load generator."""
import http.client
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def gunicorn(database_url: str, workers: int, secret_key: str | None = None):
    """gunicorn on a free local port with DEBUG off over `database_url`; yields the port, and stops the server
    however the block ends. With this process's `secret_key`, the server reads the sessions this process made."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # bench.settings adds the trivial view; everything else is the app's own, rate limits off.
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings", "DEBUG": "0", "RATE_LIMITS": "0",
           "SECRET_KEY": secret_key or secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
           "DATABASE_URL": database_url}
    command = [sys.executable, "-m", "gunicorn", "builder.wsgi", "--bind", f"127.0.0.1:{port}",
               "--workers", str(workers)]
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            wait_for(server, port)
            yield port
        except BaseException:
            log.seek(0)
            tail = log.read().decode(errors="replace").splitlines()[-60:]
            sys.stderr.write("gunicorn's log ends:\n" + "\n".join(tail) + "\n")
            raise
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def wait_for(server: subprocess.Popen, port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while server.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not start")


def until_serving(port: int, path: str = "/static/css/hardpoint.css", timeout: float = 30) -> None:
    """Waits until a worker answers: a static file, which WhiteNoise serves before any view, URL or template of
    the app is loaded, so the next request is still the worker's first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                return
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.05)
    raise RuntimeError(f"no worker answered GET {path}")


def timed_request(port: int, method: str, path: str, body: bytes | None = None,
                  headers: dict[str, str] | None = None) -> float:
    """Seconds from sending one request to reading its whole answer, which must be a 200."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        start = time.perf_counter()
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        answer = response.read()
        elapsed = time.perf_counter() - start
    finally:
        connection.close()
    if response.status != 200:
        raise RuntimeError(f"{method} {path} answered {response.status}: {answer[:300]!r}")
    return elapsed


def requests_per_second(port: int, path: str, seconds: float, clients: int) -> float:
    """Responses a second to `clients` concurrent clients asking for `path` again and again for `seconds`.

    Every client's last request finishes before this returns, so a run also warms each busy worker up.
    """
    end = time.perf_counter() + seconds

    def client() -> tuple[int, Counter]:
        # Keep-alive where the server allows it; gunicorn's sync workers close after each response, and
        # http.client then reconnects by itself, as a browser would.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        answered, statuses = 0, Counter()
        while time.perf_counter() < end:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            statuses[response.status] += 1
            answered += time.perf_counter() < end
        connection.close()
        return answered, statuses

    with ThreadPoolExecutor(clients) as pool:
        results = [run.result() for run in [pool.submit(client) for _ in range(clients)]]
    statuses = sum((s for _, s in results), Counter())
    if set(statuses) != {200}:
        raise RuntimeError(f"GET {path} answered {dict(statuses)}")
    return sum(a for a, _ in results) / seconds
