"""`trinkwasser serve` as a production server.

Timeouts against idle and slow clients, compressed answers with correct Vary and ETags.
Real HTTP on loopback, raw sockets where the client must not help (no automatic
decompression, no normalisation).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import http.client
import resource
import socket
import time
from collections.abc import Iterator

import brotli
import pytest

from generator.api import http as http_rules
from generator.api import routes, series
from generator.gate import compress
from tests.conformance.support import Server, start_server
from tests.helpers import series_path, tree_bytes

TIMEOUT = 1.0  # --timeout-request of the servers here


@pytest.fixture(scope="module")
def built(golden_site):
    return golden_site


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.mktemp("http-server")


@pytest.fixture(scope="module")
def server(built, root) -> Iterator[Server]:
    running = start_server(
        built, root / "state", root / "logs", "--no-access-log",
        "--timeout-request", str(TIMEOUT), "--timeout-keep-alive", "1",
    )  # fmt: skip
    yield running
    running.stop()


@pytest.fixture(scope="module")
def key(server, root) -> str:
    from generator.gate import keys as key_tools
    from generator.gate.sqlite_state import open_state

    state = open_state(root / "state")
    return key_tools.issue(state, "http@example.org", state.settings.key_prefix).key


def port(server: Server) -> int:
    return int(server.base_url.rsplit(":", 1)[1])


def get(server: Server, target: str, method: str = "GET", **headers: str):
    """One request on a fresh connection; the raw status, headers and body bytes."""
    conn = http.client.HTTPConnection("127.0.0.1", port(server), timeout=10)
    try:
        conn.request(method, target, headers={k.replace("_", "-"): v for k, v in headers.items()})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def etag(body: bytes) -> str:
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def closed_by_server(sock: socket.socket, wait: float) -> bool:
    """Whether the server closes the connection within `wait` seconds (EOF or reset)."""
    sock.settimeout(wait)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


# ---------------------------------------------------------------------------- timeouts


def test_idle_and_slow_clients_are_closed_and_others_still_served(server):
    opened = time.monotonic()
    idle = [socket.create_connection(("127.0.0.1", port(server))) for _ in range(60)]
    slow = [socket.create_connection(("127.0.0.1", port(server))) for _ in range(10)]
    try:
        for sock in slow:
            sock.sendall(b"GET /v1/parameters HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        status, _, _ = get(server, "/v1/parameters", Accept_Encoding="identity")
        assert status == 200
        # Not queued behind the idle ones: answered while they are still open, for the
        # server closes none of them before its TIMEOUT. An order of events, not a time
        # bound (on a loaded machine the answer may come after that, and then they may go).
        closed = [sock for sock in idle if closed_by_server(sock, 0.01)]
        assert not closed or time.monotonic() - opened >= TIMEOUT
        # The slow ones keep sending a header line now and then: still closed in time.
        deadline = started + TIMEOUT + 2.0
        while time.monotonic() < started + TIMEOUT + 0.2:
            for sock in slow:
                sock.sendall(b"X-Slow: 1\r\n")
            time.sleep(0.2)
        for sock in idle + slow:
            assert closed_by_server(sock, max(deadline - time.monotonic(), 0.1))
    finally:
        for sock in idle + slow:
            sock.close()


def test_a_whole_request_in_time_is_answered_and_kept_alive(server):
    sock = socket.create_connection(("127.0.0.1", port(server)))
    try:
        for _ in range(3):  # three requests on one connection, each well within the timeout
            sock.sendall(b"GET /v1/parameters HTTP/1.1\r\nHost: x\r\n")
            time.sleep(TIMEOUT / 3)
            sock.sendall(b"\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(65536)
            assert head.startswith(b"HTTP/1.1 200 ")
            length = int(head.split(b"content-length: ")[1].split(b"\r\n")[0])
            body = head.split(b"\r\n\r\n", 1)[1]
            while len(body) < length:
                body += sock.recv(65536)
        assert closed_by_server(sock, 1 + 2.0)  # then idle: the keep-alive timeout closes it
    finally:
        sock.close()


def _limit_open_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (96, 96))


def test_more_idle_connections_than_file_descriptors_do_not_stop_the_server(built, tmp_path):
    """The failure that was: idle connections took every descriptor, for good."""
    running = start_server(
        built, tmp_path / "state", tmp_path / "logs", "--no-access-log",
        "--timeout-request", str(TIMEOUT), preexec_fn=_limit_open_files,
    )  # fmt: skip
    socks = []
    try:
        for _ in range(150):  # more than the server's 96 descriptors
            with contextlib.suppress(OSError):
                socks.append(socket.create_connection(("127.0.0.1", port(running)), timeout=2))
        time.sleep(TIMEOUT + 0.5)
        # `get` gives up after its own timeout; pytest-timeout guards against a hang.
        status, _, _ = get(running, "/v1/parameters", Accept_Encoding="identity")
        assert status == 200
        assert running.process.poll() is None  # the server is still up, not crashed
    finally:
        for sock in socks:
            sock.close()
        running.stop()


# ---------------------------------------------------------------------------- compression


LOOKUP = "/v1/lookup?plz=76437"


def test_json_is_compressed_for_clients_that_accept_it(server, key, built):
    plain = (built / routes.file_path("lookup", plz="76437")).read_bytes()
    assert len(plain) >= 512
    for accept, encoding, decode in (
        ("br", "br", brotli.decompress),
        ("gzip, deflate, br, zstd", "br", brotli.decompress),
        ("gzip", "gzip", gzip.decompress),
        ("br;q=0.5, gzip", "gzip", gzip.decompress),
        ("br;q=0, *", "gzip", gzip.decompress),
    ):
        status, headers, body = get(server, LOOKUP, X_Api_Key=key, Accept_Encoding=accept)
        assert status == 200, accept
        assert headers["content-encoding"] == encoding, accept
        assert headers["vary"] == "Accept-Encoding"
        assert decode(body) == plain
        assert int(headers["content-length"]) == len(body) < len(plain)
        assert headers["etag"] == etag(plain)[:-1] + f'-{encoding}"'
    for accept in ("identity", "", "gzip;q=0, br;q=0", "compress"):
        status, headers, body = get(server, LOOKUP, X_Api_Key=key, Accept_Encoding=accept)
        assert (status, body, headers["etag"]) == (200, plain, etag(plain)), accept
        assert "content-encoding" not in headers and headers["vary"] == "Accept-Encoding"


def test_each_encoding_revalidates_with_its_own_etag(server, key):
    _, first, _ = get(server, LOOKUP, X_Api_Key=key, Accept_Encoding="br")
    status, headers, body = get(
        server, LOOKUP, X_Api_Key=key, Accept_Encoding="br", If_None_Match=first["etag"]
    )
    assert (status, body) == (304, b"")
    assert headers["etag"] == first["etag"] and headers["vary"] == "Accept-Encoding"
    # The Brotli tag does not validate the gzip representation, nor the plain one.
    for accept in ("gzip", "identity"):
        status, _, _ = get(
            server, LOOKUP, X_Api_Key=key, Accept_Encoding=accept, If_None_Match=first["etag"]
        )
        assert status == 200, accept


def test_head_has_the_length_of_the_compressed_body(server, key):
    _, got, body = get(server, LOOKUP, X_Api_Key=key, Accept_Encoding="gzip")
    status, head, nothing = get(server, LOOKUP, "HEAD", X_Api_Key=key, Accept_Encoding="gzip")
    assert (status, nothing) == (200, b"")
    assert head["content-length"] == got["content-length"] == str(len(body))
    assert head["content-encoding"] == "gzip" and head["etag"] == got["etag"]


def test_site_files_and_csv_are_compressed_binary_files_are_not(server, built):
    for target in ("/", "/static/site.css", "/static/site.js", "/v1/export/plz-zonen.json"):
        status, headers, body = get(server, target, Accept_Encoding="gzip")
        assert status == 200 and headers["content-encoding"] == "gzip", target
        assert headers["vary"] == "Accept-Encoding"
        assert len(gzip.decompress(body)) > len(body)
    status, headers, body = get(server, "/v1/export/plz-zonen.csv", Accept_Encoding="gzip")
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert headers["vary"] == "Accept-Encoding" and gzip.decompress(body).startswith(b"plz,")


def test_a_file_below_the_size_worth_compressing_is_sent_as_it_is(server, key, built):
    small = built / routes.file_path("parameter_limits", code="sulfat")
    assert len(small.read_bytes()) < compress.MIN_BYTES
    target = routes.url("parameter_limits", code="sulfat")
    status, headers, body = get(server, target, X_Api_Key=key, Accept_Encoding="gzip")
    assert (status, body) == (200, small.read_bytes())
    assert headers["vary"] == "Accept-Encoding" and "content-encoding" not in headers
    status, headers, body = get(server, "/v1/export/plz-zonen.parquet", Accept_Encoding="gzip")
    assert status == 200 and body.startswith(b"PAR1")
    assert "content-encoding" not in headers and "vary" not in headers


def test_small_answers_go_as_they_are_but_still_vary(server, key):
    status, headers, body = get(
        server, "/v1/zones/99", X_Api_Key=key, Accept_Encoding="gzip"
    )  # an error: JSON of a few bytes
    assert status == 404 and body.startswith(b'{"detail"')
    assert "content-encoding" not in headers


def test_a_series_stored_compressed_is_answered_as_json(server, key, built):
    stored = series_path(built, 11)
    assert stored.name.endswith(http_rules.STORED_GZIP_SUFFIX)
    assert stored.read_bytes().startswith(b"\x1f\x8b")
    plain = gzip.decompress(stored.read_bytes())
    status, headers, body = get(server, "/v1/zones/11/measurements", X_Api_Key=key)
    assert (status, body) == (200, plain)
    assert headers["content-type"] == http_rules.JSON_TYPE
    assert headers["content-length"] == str(len(plain)) and "content-encoding" not in headers
    assert headers["etag"] == f'"{hashlib.sha256(plain).hexdigest()[:32]}"'
    # Asked for gzip, the answer is the gate's gzip of the JSON, with its own tag.
    status, headers, body = get(
        server, "/v1/zones/11/measurements", X_Api_Key=key, Accept_Encoding="gzip"
    )
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == plain and headers["etag"].endswith('-gzip"')


def test_stored_bytes_that_are_no_gzip_are_answered_as_they_are():
    # A CDN may have decoded them on the way: JSON never starts with the gzip magic.
    assert http_rules.served_bytes("a.json.gz", b'{"a":1}') == b'{"a":1}'
    assert http_rules.served_bytes("a.json.gz", gzip.compress(b"{}")) == b"{}"
    assert http_rules.served_bytes("a.json", gzip.compress(b"{}")).startswith(b"\x1f\x8b")
    assert http_rules.content_type("a.json.gz") == http_rules.JSON_TYPE


def test_a_filtered_series_is_compressed_too(server, key, built):
    whole = tree_bytes(series_path(built, 11))
    expected = series.filter_series(whole, "pfas_summe_20", {"zone_id": "11"})
    status, headers, body = get(
        server, "/v1/zones/11/measurements?parameter=pfas_summe_20", X_Api_Key=key,
        Accept_Encoding="br",
    )  # fmt: skip
    assert status == 200 and headers["content-encoding"] == "br"
    assert brotli.decompress(body) == expected
    assert headers["etag"] == etag(expected)[:-1] + '-br"'
