"""Servers on loopback that stand in for suppliers' sites, shared by the fetch tests."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from generator.config import Config
from generator.fetch.politeness import Politeness

CONFIG = Config(operator="Wasserdaten Prüfbetrieb", contact="abruf@pruef.example")
# The servers are on loopback, which only an explicit allowance lets fetch reach.
RULES = Politeness(
    delay=0.05, timeout=1.0, max_bytes=20_000, retries=2, max_retry_wait=5, allow_private=True
)
DAY = dt.datetime(2026, 11, 26, 6, 0, tzinfo=dt.UTC)

ANALYSE = """Trinkwasseranalyse Kleinstadt Mitte
Stand: 16.07.2026

Parameter;Einheit;Messwert
Nitrat;mg/l;24,2
Calcium;mg/l;101
"""


@dataclass
class Site:
    """A supplier's web server: fixed routes, and a log of every request it got."""

    routes: dict[str, Callable[[BaseHTTPRequestHandler], None]]
    log: list[tuple[float, str, dict[str, str]]] = field(default_factory=list)
    url: str = ""

    def paths(self) -> list[str]:
        return [path for _, path, _ in self.log]


def serve(site: Site) -> Iterator[Site]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            site.log.append((time.monotonic(), self.path, dict(self.headers.items())))
            handler = site.routes.get(self.path)
            try:
                if handler is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                else:
                    handler(self)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    site.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()


def send(h: BaseHTTPRequestHandler, status: int, body: bytes = b"", **headers: str) -> None:
    h.send_response(status)
    for name, value in headers.items():
        h.send_header(name.replace("_", "-"), value)
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    if body:
        h.wfile.write(body)


class Document:
    """A document served with validators: 304 when the client's match."""

    def __init__(self, text: str, content_type: str = "text/csv; charset=utf-8"):
        self.set(text)
        self.content_type = content_type
        self.bodies = 0

    def set(self, text: str) -> None:
        self.body = text.encode("utf-8")
        self.etag = f'"v{abs(hash(text))}"'

    def __call__(self, h: BaseHTTPRequestHandler) -> None:
        if h.headers.get("If-None-Match") == self.etag:
            send(h, 304, ETag=self.etag)
            return
        self.bodies += 1
        send(
            h,
            200,
            self.body,
            ETag=self.etag,
            Last_Modified="Mon, 02 Nov 2026 08:00:00 GMT",
            Content_Type=self.content_type,
        )


def static(status: int, body: bytes = b"", **headers: str) -> Callable[..., None]:
    return lambda h: send(h, status, body, **headers)
