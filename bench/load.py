"""Throughput: gunicorn serving the app as `make serve` runs it, driven by a small load generator."""
import http.client
import secrets
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from tests.helpers.cluster import HOST, Node, environment

STATIC = "/static/css/hardpoint.css"  # WhiteNoise serves it before any view, URL or template of the app is loaded


@contextmanager
def gunicorn(database_url: str, workers: int, secret_key: str | None = None, **settings: str):
    """gunicorn on a free local port with DEBUG off over `database_url`; yields the port, and stops the server
    however the block ends. With this process's `secret_key`, the server reads the sessions this process made."""
    # bench.settings adds the baselines' views; everything else is the app's own, rate limits off.
    env = environment(database_url, DJANGO_SETTINGS_MODULE="bench.settings",
                      SECRET_KEY=secret_key or secrets.token_urlsafe(50), **settings)
    with tempfile.TemporaryDirectory() as work:
        node = Node(env, Path(work) / "gunicorn.log", workers=workers, probe=STATIC)
        try:
            node.start()
            yield node.port
        except BaseException:
            sys.stderr.write("gunicorn's log ends:\n" + node.tail() + "\n")
            raise
        finally:
            node.stop()


def until_serving(port: int, path: str = STATIC, timeout: float = 30) -> None:
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


def requests_per_second(ports: int | list[int], path: str, seconds: float, clients: int, status: int = 200) -> float:
    """Responses a second to `clients` concurrent clients asking for `path` again and again for `seconds`, spread
    over the nodes at `ports` as a load balancer would (one site: the same Host header to each).

    Every client's last request finishes before this returns, so a run also warms each busy worker up.
    """
    ports = [ports] if isinstance(ports, int) else ports
    end = time.perf_counter() + seconds

    def client(port: int) -> tuple[int, Counter]:
        # Keep-alive where the server allows it; gunicorn's sync workers close after each response, and
        # http.client then reconnects by itself, as a browser would.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        answered, statuses = 0, Counter()
        while time.perf_counter() < end:
            connection.request("GET", path, headers={"Host": HOST})
            response = connection.getresponse()
            response.read()
            statuses[response.status] += 1
            answered += time.perf_counter() < end
        connection.close()
        return answered, statuses

    with ThreadPoolExecutor(clients) as pool:
        results = [run.result() for run in [pool.submit(client, ports[n % len(ports)]) for n in range(clients)]]
    statuses = sum((s for _, s in results), Counter())
    if set(statuses) != {status}:
        raise RuntimeError(f"GET {path} answered {dict(statuses)}")
    return sum(a for a, _ in results) / seconds
