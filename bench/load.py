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
def gunicorn(database_url: str, workers: int):
    """gunicorn on a free local port with DEBUG off over `database_url`; yields the port, and stops the server
    however the block ends."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # bench.settings adds the trivial view; everything else is the app's own, rate limits off.
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings", "DEBUG": "0", "RATE_LIMITS": "0",
           "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1", "DATABASE_URL": database_url}
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
