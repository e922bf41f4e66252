"""Exhaustion: OS and state failures are a 503 with Retry-After, never a wrong answer.

An OS error other than "no such file" and a failing key and quota store are a 503, never a
404, a wrong body or an unstored acknowledgement.
"""

from __future__ import annotations

import errno
import functools
import json
import logging
import os
import sqlite3

import httpx
import pytest

from generator.api.settings import GateSettings
from generator.gate import keys as key_tools
from generator.gate.app import OutageLog, create_app
from generator.gate.sqlite_state import open_state
from tests.conformance.support import event_loop_thread

SETTINGS = GateSettings()
UNAVAILABLE = {"detail": SETTINGS.message("unavailable")}


@pytest.fixture(scope="module")
def sample(golden_site):
    return golden_site  # read-only: the errors are injected, never written


@pytest.fixture
def state(tmp_path):
    return open_state(tmp_path / "state")


@pytest.fixture
def call(sample, state):
    with event_loop_thread() as portal:
        transport = httpx.ASGITransport(app=create_app(sample, state))
        client = httpx.AsyncClient(transport=transport, base_url="http://gate")
        yield lambda method, target, **kw: portal.call(
            functools.partial(client.request, method, target, **kw)
        )
        portal.call(client.aclose)


@pytest.fixture
def key(state):
    return key_tools.issue(state, "q@example.org", SETTINGS.key_prefix).key


def _fail_opens_under(monkeypatch, root, code: int) -> None:
    """Make every open of a file of the build fail with `code` (as EMFILE does when full)."""
    real_open = os.open
    prefix = str(root.resolve())

    def failing_open(path, flags, *args, **kwargs):
        if str(path).startswith(prefix):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", failing_open)


def _assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.json() == UNAVAILABLE
    assert response.headers["retry-after"] == str(SETTINGS.unavailable_retry_after)
    assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("code", [errno.EMFILE, errno.ENFILE, errno.EACCES, errno.EIO])
def test_an_os_error_other_than_absence_is_a_503_never_a_404(call, key, sample, monkeypatch, code):
    assert call("GET", "/v1/lookup?plz=76437", headers={"X-Api-Key": key}).status_code == 200
    _fail_opens_under(monkeypatch, sample, code)
    keyed = {"X-Api-Key": key}
    for target, headers in [
        ("/v1/lookup?plz=76437", keyed),  # a PLZ that exists
        ("/v1/lookup?plz=99999", keyed),  # nor can absence be known
        ("/v1/zones/11", keyed),
        ("/v1/zones/11/measurements?parameter=blei", keyed),
        ("/v1/parameters", {}),
        ("/v1/export/plz-zonen.csv", {}),
        ("/", {}),
        ("/plz/76437/", {}),
    ]:
        _assert_unavailable(call("GET", target, headers=headers))
    monkeypatch.undo()
    again = call("GET", "/v1/lookup?plz=76437", headers=keyed)
    assert again.status_code == 200 and again.json()["plz"] == "76437"


def test_a_register_that_cannot_be_read_does_not_make_every_code_unknown(
    call, key, sample, monkeypatch
):
    real_stat = os.stat

    def failing_stat(path, *args, **kwargs):
        if str(path).endswith("parameters.json"):
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", failing_stat)
    target = "/v1/zones/11/measurements?parameter=blei"
    _assert_unavailable(call("GET", target, headers={"X-Api-Key": key}))
    monkeypatch.undo()
    assert call("GET", target, headers={"X-Api-Key": key}).status_code == 200


@pytest.mark.parametrize(
    "method", ["key_by_hash", "consume"], ids=["key lookup fails", "quota count fails"]
)
def test_a_failing_key_and_quota_store_is_a_503(call, key, state, monkeypatch, method):
    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(state, method, broken)
    _assert_unavailable(call("GET", "/v1/lookup?plz=76437", headers={"X-Api-Key": key}))


def test_an_access_request_is_acknowledged_only_when_stored(call, state, monkeypatch):
    body = {"email": "ada@example.org", "zweck": "Eine App für die Stadt Musterstadt"}
    real_conn = state._conn
    broken = [True]

    def full_disk():
        conn = real_conn()
        # Every write of this connection fails while `broken`, as with a full disk.
        conn.set_authorizer(
            lambda action, *rest: (
                sqlite3.SQLITE_DENY
                if broken[0] and action == sqlite3.SQLITE_INSERT
                else sqlite3.SQLITE_OK
            )
        )
        return conn

    monkeypatch.setattr(state, "_conn", full_disk)
    _assert_unavailable(call("POST", "/v1/keys/antrag", json=body))
    broken[0] = False
    assert state.list_requests() == []
    stored = call("POST", "/v1/keys/antrag", json=body)
    assert stored.status_code == 202
    assert [r.id for r in state.list_requests()] == [stored.json()["request_id"]]


def test_the_503_is_in_the_openapi_document_of_every_operation(sample):
    document = json.loads((sample / "v1" / "openapi.json").read_text(encoding="utf-8"))
    for path, operations in document["paths"].items():
        for method, op in operations.items():
            answer = op["responses"].get("503")
            assert answer is not None, f"{method} {path}"
            assert "Retry-After" in answer["headers"]


def test_outages_are_logged_once_then_once_a_minute_with_a_count(caplog):
    now = [0.0]
    outages = OutageLog(clock=lambda: now[0])
    error = OSError(errno.EMFILE, "Too many open files")
    with caplog.at_level(logging.ERROR, logger="trinkwasser.gate"):
        for _ in range(500):
            outages.note(error)
        now[0] = 61.0
        outages.note(error)
        outages.note(sqlite3.OperationalError("disk I/O error"))
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "503 Service Unavailable: [Errno 24] Too many open files",
        "503 Service Unavailable: [Errno 24] Too many open files (500 answers since the last line)",
        "503 Service Unavailable: disk I/O error",
    ]
