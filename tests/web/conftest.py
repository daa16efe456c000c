"""Fixtures of the cross-game web tests: a local HTTP server that counts the requests it gets, for the checks that
nothing a build names is ever fetched (the PDF renderer's, hostile text's). The browser fixtures are in
tests/conftest.py."""
import pytest


@pytest.fixture
def canary():
    """A local HTTP server that counts the requests it gets."""
    import http.server
    import threading

    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()
