"""The gate's ASGI app in-process: quota with an injected clock, files, paths, swaps."""

from __future__ import annotations

import datetime as dt
import functools
import os
import shutil
from zoneinfo import ZoneInfo

import httpx
import pytest

from generator.gate import keys as key_tools
from generator.gate.app import create_app
from generator.gate.files import STREAM_ABOVE
from generator.gate.responses import split_path
from generator.gate.sqlite_state import open_state
from tests.conformance.support import event_loop_thread

BERLIN = ZoneInfo("Europe/Berlin")


class Clock:
    def __init__(self, now: dt.datetime):
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture(scope="module")
def sample(golden_site):
    return golden_site


@pytest.fixture
def writable(sample, tmp_path):
    """Copy the sample build privately, for a test that changes it."""
    return shutil.copytree(sample, tmp_path / "build")


@pytest.fixture
def clock():
    return Clock(dt.datetime(2026, 3, 29, 12, 0, tzinfo=BERLIN))


@pytest.fixture
def state(tmp_path, clock):
    return open_state(tmp_path / "state", clock=clock)


@pytest.fixture
def serve(state):
    """Return call(method, target, **httpx kwargs) for the app serving a build directory."""
    clients = []
    with event_loop_thread() as portal:

        def for_build(build_dir):
            app = create_app(build_dir, state)
            transport = httpx.ASGITransport(app=app)
            client = httpx.AsyncClient(transport=transport, base_url="http://gate")
            clients.append(client)
            return lambda method, target, **kw: portal.call(
                functools.partial(client.request, method, target, **kw)
            )

        yield for_build
        for client in clients:
            portal.call(client.aclose)


@pytest.fixture
def call(serve, sample):
    """Send requests to the app serving the shared sample (read-only)."""
    return serve(sample)


def test_quota_through_the_app_with_an_injected_clock(call, state, clock):
    key = key_tools.issue(state, "q@example.org", "twd_").key
    headers = {"X-Api-Key": key}
    for n in range(999):
        assert call("GET", "/v1/zones/11", headers=headers).status_code == 200, n
    thousandth = call("GET", "/v1/zones/11", headers=headers)
    assert thousandth.status_code == 200
    assert thousandth.headers["x-ratelimit-remaining"] == "0"
    refused = call("GET", "/v1/zones/11", headers=headers)
    assert refused.status_code == 429
    # 2026-03-29 is the spring-forward day: from 12:00 CEST to midnight is 12 h, not 13.
    assert refused.headers["retry-after"] == str(12 * 3600)
    reset = dt.datetime(2026, 3, 30, tzinfo=BERLIN)
    assert refused.headers["x-ratelimit-reset"] == str(int(reset.timestamp()))
    assert refused.json() == {
        "detail": "Daily quota of 1000 requests used up. It resets at midnight Europe/Berlin "
        "(2026-03-30T00:00:00+02:00), in 43200 seconds."
    }
    clock.now = dt.datetime(2026, 3, 29, 23, 59, 59, tzinfo=BERLIN)
    assert call("GET", "/v1/zones/11", headers=headers).status_code == 429
    clock.now = dt.datetime(2026, 3, 30, 0, 0, tzinfo=BERLIN)
    again = call("GET", "/v1/zones/11", headers=headers)
    assert again.status_code == 200
    assert again.headers["x-ratelimit-remaining"] == "999"


def test_the_street_table_is_an_open_file(call, sample):
    got = call("GET", "/v1/export/strassen.csv")
    assert got.status_code == 200 and "x-api-key" not in {h.lower() for h in got.request.headers}
    assert got.headers["content-type"].startswith("text/csv")
    assert got.content == (sample / "v1" / "export" / "strassen.csv").read_bytes()
    assert got.text.splitlines()[0] == "plz,street,zone_id,length_share"
    assert "76437,Hauptstraße,11,0.4" in got.text.splitlines()


def test_large_files_are_streamed_with_a_stable_etag(serve, writable):
    call, build_dir = serve(writable), writable
    big = os.urandom(STREAM_ABOVE * 3 + 17)
    (build_dir / "v1" / "export" / "big.parquet").write_bytes(big)
    got = call("GET", "/v1/export/big.parquet")
    assert got.status_code == 200
    assert got.content == big
    assert got.headers["content-length"] == str(len(big))
    assert got.headers["content-type"] == "application/vnd.apache.parquet"
    head = call("HEAD", "/v1/export/big.parquet")
    assert head.headers["etag"] == got.headers["etag"] and head.content == b""
    cached = call("GET", "/v1/export/big.parquet", headers={"If-None-Match": got.headers["etag"]})
    assert cached.status_code == 304 and cached.content == b""


def test_a_new_build_is_served_at_once(serve, writable):
    call, build_dir = serve(writable), writable
    first = call("GET", "/v1/parameters")
    path = build_dir / "v1" / "parameters.json"
    path.write_bytes(b'{"count":0,"parameters":[]}\n')
    second = call("GET", "/v1/parameters")
    assert second.json() == {"count": 0, "parameters": []}
    assert second.headers["etag"] != first.headers["etag"]


def test_symlinks_out_of_the_build_are_not_followed(serve, writable, tmp_path):
    call, build_dir = serve(writable), writable
    secret = tmp_path / "secret.txt"
    secret.write_text("private")
    (build_dir / "leak.txt").symlink_to(secret)
    (build_dir / "v1" / "leak.json").symlink_to(secret)
    assert call("GET", "/leak.txt").status_code == 404
    assert call("GET", "/v1/leak.json").status_code == 404


def test_hidden_and_dot_files_are_not_served(serve, writable):
    call, build_dir = serve(writable), writable
    (build_dir / ".env").write_text("SECRET=1")
    assert call("GET", "/.env").status_code == 404
    assert call("GET", "/_data/v1/zones/11.json").json() == {"detail": "Not Found"}


def test_keyed_answers_need_the_key_even_for_head_and_304(call, state):
    key = key_tools.issue(state, "h@example.org", "twd_").key
    etag = call("GET", "/v1/zones/11", headers={"X-Api-Key": key}).headers["etag"]
    assert call("GET", "/v1/zones/11", headers={"If-None-Match": etag}).status_code == 401
    assert call("HEAD", "/v1/zones/11").status_code == 401


def test_revoked_key_is_refused_without_counting(call, state):
    issued = key_tools.issue(state, "r@example.org", "twd_")
    state.revoke_key(issued.api_key.id)
    answer = call("GET", "/v1/zones/11", headers={"X-Api-Key": issued.key})
    assert answer.status_code == 403
    assert state.used(issued.api_key.id) == 0


def test_access_request_reaches_the_state(call, state):
    answer = call(
        "POST", "/v1/keys/antrag", json={"email": "ada@example.org", "zweck": "Eine Stadt-App"}
    )
    assert answer.status_code == 202
    [request] = state.list_requests("pending")
    assert request.id == answer.json()["request_id"]


@pytest.mark.parametrize(
    "raw, segments",
    [
        (b"/", [""]),
        (b"/v1/zones/11", ["v1", "zones", "11"]),
        (b"/api/", ["api", ""]),
        (b"/v1/lookup%3Fplz", ["v1", "lookup?plz"]),
        (b"/v1/zones/%201", ["v1", "zones", " 1"]),
        (b"/v1/zones/%FF", ["v1", "zones", "\ufffd"]),
    ],
)
def test_split_path_decodes_segments(raw, segments):
    assert split_path(raw) == segments


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"v1/zones",
        b"http://evil/x",
        b"//etc/passwd",
        b"/v1//zones",
        b"/v1/../_data",
        b"/v1/./zones",
        b"/v1/%2e%2e/_data",
        b"/v1/%2E/zones",
        b"/v1/zones/11%2fmeasurements",
        b"/v1/zones/11%5Cmeasurements",
        b"/v1\\zones",
        b"/v1/zones/%00",
        "/v1/zönes".encode(),
    ],
)
def test_split_path_refuses_unsafe_paths(raw):
    assert split_path(raw) is None
