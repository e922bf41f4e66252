"""One retry policy for the HTTP clients: Retry-After honoured, else a doubling pause.

The fetcher's own tests (tests/test_fetch.py) run it against a server on loopback; here the
policy itself, the command's options made from the fetcher's defaults, and the Netlify
Blobs client against a server on loopback that asks it to wait.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.fetch import options
from generator.fetch.politeness import Politeness
from generator.gate.netlify_blobs import BlobsClient, BlobsError
from generator.retries import RetryPolicy, WaitTooLong, retry_after


def test_a_retry_waits_what_the_server_asks_else_a_doubling_pause() -> None:
    policy = RetryPolicy(retries=3, pause=1.5, max_wait=60)
    assert [policy.wait(n) for n in range(3)] == [1.5, 3.0, 6.0]
    assert policy.wait(2, "7") == 7.0
    assert policy.wait(0, "bald") == 1.5  # not a Retry-After: the pause
    with pytest.raises(WaitTooLong, match="asks to wait 61 s"):
        policy.wait(0, "61")


def test_only_rate_limits_and_server_errors_are_tried_again_and_only_so_often() -> None:
    policy = RetryPolicy(retries=2)
    assert [s for s in (200, 304, 404, 429, 500, 502, 503, 504) if policy.retries_after(s, 0)] == [
        429,
        500,
        502,
        503,
        504,
    ]
    assert policy.retries_after(503, 1) and not policy.retries_after(503, 2)


def test_retry_after_takes_seconds_and_http_dates() -> None:
    now = dt.datetime(2026, 11, 26, 6, 0, tzinfo=dt.UTC)
    assert retry_after("120") == 120.0
    assert retry_after("Thu, 26 Nov 2026 06:01:00 GMT", now) == 60.0
    assert retry_after("Thu, 26 Nov 2026 05:01:00 GMT", now) == 0.0  # past: at once
    assert retry_after("bald") is None and retry_after(None) is None


def test_the_fetch_command_takes_the_library_defaults_in_its_units() -> None:
    assert options.unoptioned() == set()
    defaults = {o.field: o.shown(getattr(Politeness(), o.field)) for o in options.OPTIONS}
    assert options.politeness(defaults) == Politeness()
    assert defaults["max_bytes"] == 50.0  # MiB: the library's 50 * 1024 * 1024 bytes
    help_text = CliRunner().invoke(cli, ["fetch", "--help"], terminal_width=200).output
    assert "in MiB (1,048,576 bytes)" in help_text
    assert "[default: 50.0; x>=0.001]" in help_text
    assert options.politeness({**defaults, "max_bytes": 0.5}).max_bytes == 512 * 1024


@pytest.fixture
def busy_then_ready() -> Iterator[tuple[str, list[str]]]:
    """Serve on loopback: 429 with Retry-After 2, then 503 without, then 200."""
    answers = [(429, {"Retry-After": "2"}), (503, {})]
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            seen.append(self.path)
            status, headers = answers.pop(0) if answers else (200, {})
            body = b"{}" if status == 200 else b"busy"
            self.send_response(status)
            for name, value in {**headers, "Content-Length": str(len(body))}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


def test_the_blobs_client_honours_retry_after(busy_then_ready: tuple[str, list[str]]) -> None:
    url, seen = busy_then_ready
    waits: list[float] = []
    client = BlobsClient("site", "token", api_url=url, sleep=waits.append)
    status, _, body = client._send("GET", url + "/blob", {})
    assert (status, body) == (200, b"{}")
    assert waits == [2.0, 2.0]  # as asked; then the second pause of the doubling (1, 2, 4)
    assert seen == ["/blob"] * 3


def test_the_blobs_client_fails_when_asked_to_wait_too_long(
    busy_then_ready: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _ = busy_then_ready
    monkeypatch.setattr("generator.gate.netlify_blobs.RETRIES", RetryPolicy(3, 1.0, max_wait=1))
    client = BlobsClient("site", "token", api_url=url, sleep=lambda _: None)
    with pytest.raises(BlobsError, match="answered 429 and asks to wait 2 s"):
        client._send("GET", url + "/blob", {})
