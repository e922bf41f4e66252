"""Slow readers against a real `serve`: clients that request a large file and never read.

They are aborted after the write deadline, connections above the bound get the contract's
503, keyed answers stay right meanwhile, and the server recovers.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import socket
import time

import pytest

from generator.api.settings import GateSettings
from generator.gate import keys as key_tools
from generator.gate.sqlite_state import open_state
from tests.conformance.support import start_server

WRITE = 1.0  # --timeout-write of the servers here
BIG = "grosse-datei/daten.bin"  # a static file larger than every buffer on the way
SETTINGS = GateSettings()


@pytest.fixture(scope="module")
def built(golden_site, tmp_path_factory):
    # A copy of the session's tree (and its gate inputs), since the big file is added to it.
    out = tmp_path_factory.mktemp("slow") / "build"
    shutil.copytree(golden_site, out)
    gate = golden_site.with_name(golden_site.name + "-gate")
    if gate.exists():
        shutil.copytree(gate, out.with_name(out.name + "-gate"))
    big = out / BIG
    big.parent.mkdir()
    with big.open("wb") as fh:
        for _ in range(32):
            fh.write(os.urandom(1 << 20))  # 32 MiB: more than loopback's buffers hold
    yield out
    shutil.rmtree(big.parent)


def _serve(built, tmp_path, *args: str):
    server = start_server(
        built, tmp_path / "state", tmp_path / "logs", "--no-access-log",
        "--timeout-write", str(WRITE), "--timeout-request", "5", *args,
    )  # fmt: skip
    state = open_state(tmp_path / "state")
    key = key_tools.issue(state, "slow@example.org", SETTINGS.key_prefix).key
    return server, key


def _port(server) -> int:
    return int(server.base_url.rsplit(":", 1)[1])


def _lookup(server, key: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", _port(server), timeout=10)
    try:
        conn.request("GET", "/v1/lookup?plz=76437", headers={"X-Api-Key": key})
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def _slow_readers(server, count: int) -> list[socket.socket]:
    """Open connections that ask for the large file and then read nothing."""
    socks = []
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: a small window
        sock.connect(("127.0.0.1", _port(server)))
        sock.sendall(f"GET /{BIG} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        socks.append(sock)
    return socks


def _open_descriptors(server) -> int:
    return len(os.listdir(f"/proc/{server.process.pid}/fd"))


def _until(condition, limit: float = 20.0) -> bool:
    """Poll `condition` until it holds or `limit` seconds passed (a bound, not a measure)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def _reset_or_closed(sock: socket.socket) -> bool:
    """Whether the server ended the connection: reading hits EOF or a reset, not a stall."""
    sock.settimeout(5)
    try:
        for _ in range(10_000):  # at most what the buffers held, never the whole file
            if sock.recv(1 << 16) == b"":
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_slow_readers_are_aborted_and_keyed_answers_stay_right(built, tmp_path):
    server, key = _serve(built, tmp_path, "--max-connections", "200")
    socks: list[socket.socket] = []
    try:
        baseline = _open_descriptors(server)
        _, _, expected = _lookup(server, key)
        assert json.loads(expected)["plz"] == "76437"
        socks = _slow_readers(server, 60)
        assert _until(lambda: _open_descriptors(server) >= baseline + 60)
        for _ in range(20):  # while they hold their connections: right answers, never a 404
            status, _, body = _lookup(server, key)
            assert (status, body) == (200, expected)
        # After the write deadline every slow reader is aborted and its descriptor freed.
        assert _until(lambda: _open_descriptors(server) <= baseline + 2), (
            f"{_open_descriptors(server)} descriptors open, {baseline} before"
        )
        assert all(_reset_or_closed(sock) for sock in socks[:5])
        status, _, body = _lookup(server, key)
        assert (status, body) == (200, expected)
        assert "Traceback" not in server.stderr()
    finally:
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.close()
        server.stop()


def test_connections_above_the_bound_get_the_contracts_503_then_the_server_recovers(
    built, tmp_path
):
    server, key = _serve(built, tmp_path, "--max-connections", "5")
    socks: list[socket.socket] = []
    try:
        socks = _slow_readers(server, 5)
        # The five hold the bound; a sixth connection's request is refused with the 503.
        assert _until(lambda: _lookup(server, key)[0] == 503)
        status, headers, body = _lookup(server, key)
        assert status == 503
        assert json.loads(body) == {"detail": SETTINGS.message("unavailable")}
        assert headers["retry-after"] == str(SETTINGS.unavailable_retry_after)
        assert headers["connection"] == "close"
        # The slow readers are aborted after the write deadline: then it answers again.
        assert _until(lambda: _lookup(server, key)[0] == 200)
        status, _, body = _lookup(server, key)
        assert status == 200 and json.loads(body)["plz"] == "76437"
    finally:
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.close()
        server.stop()


def test_a_dropped_slow_reader_is_one_line_in_the_log_not_a_traceback(built, tmp_path):
    # Requests pipelined behind the large file, gzip or not: when the server drops the
    # connection, the app is still sending; that must end quietly, with one log line each.
    server, _key = _serve(built, tmp_path)
    socks = []
    try:
        for encoding in ("identity", "gzip") * 2:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", _port(server)))
            sock.sendall(
                f"GET /{BIG} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: {encoding}\r\n\r\n"
                "GET / HTTP/1.1\r\nHost: x\r\n\r\n".encode()
            )
            socks.append(sock)
        dropped = "dropped a client that read nothing for 1 s (--timeout-write)"
        assert _until(lambda: server.stderr().count(dropped) == len(socks), 120)
        for sock in socks:  # the client wakes up and reads what was left in its buffers
            _reset_or_closed(sock)
    finally:
        for sock in socks:
            sock.close()
        server.stop()
    log = server.stderr()
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log
    lines = [line for line in log.splitlines() if "dropped a client" in line]
    assert len(lines) == len(socks)
    assert all(re.fullmatch(rf"INFO: +127\.0\.0\.1:\d+ - {re.escape(dropped)}", x) for x in lines)
