"""The gate's state: quota per Berlin day (injected clock), atomic counting, requests, keys."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from zoneinfo import ZoneInfo

import pytest

from generator.api.settings import GateSettings
from generator.gate import keys as key_tools
from generator.gate.model import (
    BurstLimitError,
    NotFoundError,
    StateError,
    TransitionError,
    next_reset,
    quota_day,
    seconds_until,
)
from generator.gate.sqlite_state import DB_NAME, open_state

BERLIN = ZoneInfo("Europe/Berlin")
UTC = dt.UTC


class Clock:
    """A settable clock; the state reads it for every operation."""

    def __init__(self, now: dt.datetime):
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def berlin(*args: int, fold: int = 0) -> dt.datetime:
    return dt.datetime(*args, tzinfo=BERLIN, fold=fold)


@pytest.fixture
def clock():
    return Clock(berlin(2026, 11, 23, 12, 0))


@pytest.fixture
def state(tmp_path, clock):
    return open_state(tmp_path / "state", clock=clock)


def new_key_id(state) -> str:
    return key_tools.issue(state, "q@example.org", "twd_").api_key.id


# ---------------------------------------------------------------------------- quota


def test_thousandth_request_passes_the_next_is_refused(state):
    key_id = new_key_id(state)
    for n in range(1, 1000):
        assert state.consume(key_id).used == n
    thousandth = state.consume(key_id)
    assert (thousandth.allowed, thousandth.used, thousandth.remaining) == (True, 1000, 0)
    refused = state.consume(key_id)
    assert (refused.allowed, refused.used, refused.remaining) == (False, 1000, 0)
    assert state.used(key_id) == 1000  # refusals do not count past the limit


def test_fifty_concurrent_requests_with_twenty_left(state):
    key_id = new_key_id(state)
    for _ in range(980):
        state.consume(key_id)
    start = threading.Barrier(50)

    def one(_):
        start.wait()  # all threads hit the database together
        return state.consume(key_id).allowed

    with ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(one, range(50)))
    assert results.count(True) == 20
    assert state.used(key_id) == 1000


def test_concurrent_counting_across_processes_style_connections(tmp_path, clock):
    """Two state objects on one directory (as the server and a CLI would be) share counts."""
    first = open_state(tmp_path / "s", clock=clock)
    second = open_state(tmp_path / "s", clock=clock)
    key_id = new_key_id(first)
    first.consume(key_id)
    assert second.consume(key_id).used == 2
    assert first.used(key_id) == 2


def test_count_resets_at_midnight_berlin(state, clock):
    key_id = new_key_id(state)
    clock.now = berlin(2026, 11, 23, 23, 59, 59)
    for _ in range(1000):
        state.consume(key_id)
    refused = state.consume(key_id)
    assert not refused.allowed
    assert refused.reset_at == berlin(2026, 11, 24, 0, 0)
    assert refused.retry_after == 1
    clock.now = berlin(2026, 11, 24, 0, 0)
    fresh = state.consume(key_id)
    assert (fresh.allowed, fresh.used) == (True, 1)


def test_day_is_the_berlin_day_not_the_utc_day(state, clock):
    key_id = new_key_id(state)
    # 23:30 UTC on the 23rd is already 00:30 on the 24th in Berlin (CET, UTC+1).
    clock.now = dt.datetime(2026, 11, 23, 22, 59, tzinfo=UTC)
    state.consume(key_id)
    clock.now = dt.datetime(2026, 11, 23, 23, 30, tzinfo=UTC)
    assert state.consume(key_id).used == 1
    assert quota_day(clock.now) == dt.date(2026, 11, 24)


def test_spring_forward_day_has_23_hours(state, clock):
    """On 2026-03-29 Berlin skips 02:00-03:00: the day ends 23 h after it began."""
    key_id = new_key_id(state)
    clock.now = berlin(2026, 3, 29, 0, 0)
    first = state.consume(key_id)
    assert first.reset_at == berlin(2026, 3, 30, 0, 0)
    assert first.retry_after == 23 * 3600
    clock.now = berlin(2026, 3, 29, 1, 59, 59)  # CET, one second before the jump
    assert state.consume(key_id).used == 2
    clock.now = berlin(2026, 3, 29, 3, 0)  # CEST, one second later in real time
    assert state.consume(key_id).used == 3
    clock.now = berlin(2026, 3, 29, 23, 59, 59)
    assert state.consume(key_id).retry_after == 1
    clock.now = berlin(2026, 3, 30, 0, 0)
    assert state.consume(key_id).used == 1


def test_fall_back_day_has_25_hours(state, clock):
    """On 2026-10-25 02:00-03:00 happens twice: both belong to the same quota day."""
    key_id = new_key_id(state)
    clock.now = berlin(2026, 10, 25, 0, 0)
    start = state.consume(key_id)
    assert start.retry_after == 25 * 3600
    clock.now = berlin(2026, 10, 25, 2, 30, fold=0)  # first 02:30, CEST
    assert state.consume(key_id).used == 2
    clock.now = berlin(2026, 10, 25, 2, 30, fold=1)  # second 02:30, CET, an hour later
    second = state.consume(key_id)
    assert second.used == 3
    assert second.retry_after == (21 * 60 + 30) * 60
    clock.now = berlin(2026, 10, 26, 0, 0)
    assert state.consume(key_id).used == 1


def test_retry_after_is_computed_in_utc_even_for_berlin_clocks():
    # Same tzinfo on both sides would subtract wall times and be an hour off on DST days.
    now = berlin(2026, 3, 29, 0, 30)
    assert seconds_until(now, next_reset(now)) == 22 * 3600 + 30 * 60
    assert next_reset(dt.datetime(2026, 10, 24, 22, 0, tzinfo=UTC)) == berlin(2026, 10, 26)


def test_keys_count_separately(state):
    a, b = new_key_id(state), new_key_id(state)
    state.consume(a)
    state.consume(a)
    assert state.consume(b).used == 1


def test_old_counters_are_pruned(state, clock):
    key_id = new_key_id(state)
    state.consume(key_id)
    clock.now += dt.timedelta(days=40)
    state.consume(key_id)
    assert state.prune_usage(keep_days=35) == 1
    assert state.used(key_id) == 1


def test_lower_limit_from_settings(tmp_path, clock):
    state = open_state(tmp_path / "s", clock=clock, settings=GateSettings(daily_quota=2))
    key_id = new_key_id(state)
    assert [state.consume(key_id).allowed for _ in range(3)] == [True, True, False]


# ---------------------------------------------------------------------------- requests


def test_request_is_committed_when_submit_returns(state, tmp_path):
    request = state.submit_request("ada@example.org", "Eine App für die Stadt")
    # A separate connection (as another process would use) sees it at once.
    with sqlite3.connect(state.path) as other:
        row = other.execute(
            "SELECT email, zweck, status FROM access_requests WHERE id = ?", (request.id,)
        ).fetchone()
    assert row == ("ada@example.org", "Eine App für die Stadt", "pending")
    assert request.id.startswith("req_") and len(request.id) == 20


def test_burst_limit_per_address_and_window(state, clock):
    for _ in range(3):
        state.submit_request("Ada@Example.org", "Eine App für die Stadt")
        clock.now += dt.timedelta(minutes=10)
    with pytest.raises(BurstLimitError) as refused:
        state.submit_request("ada@example.org", "Noch einmal, bitte")
    # The first request (at 12:00) leaves the one-hour window at 13:00; it is 12:30 now.
    assert refused.value.retry_after == 30 * 60
    state.submit_request("grace@example.org", "Eine andere Adresse")
    clock.now += dt.timedelta(minutes=30, seconds=1)
    state.submit_request("ada@example.org", "Jetzt wieder erlaubt")
    assert len(state.list_requests("pending")) == 5


def test_request_transitions(state):
    request = state.submit_request("ada@example.org", "Eine App für die Stadt")
    rejected = state.decide_request(request.id, "rejected", reason="kein Zweck erkennbar")
    assert (rejected.status, rejected.reason) == ("rejected", "kein Zweck erkennbar")
    with pytest.raises(TransitionError, match="already rejected"):
        state.decide_request(request.id, "approved")
    with pytest.raises(NotFoundError):
        state.get_request("req_nope")
    with pytest.raises(ValueError):
        state.decide_request(request.id, "pending")


def test_approve_issues_one_key_and_twice_is_an_error(state):
    request = state.submit_request("ada@example.org", "Eine App für die Stadt")
    issued = key_tools.approve(state, state, request.id, "twd_")
    assert issued.request.status == "approved"
    assert issued.request.key_id == issued.api_key.id
    assert state.key_by_hash(key_tools.hash_key(issued.key)).email == "ada@example.org"
    with pytest.raises(TransitionError, match="already approved"):
        key_tools.approve(state, state, request.id, "twd_")
    assert len(state.list_keys()) == 1


def test_a_failed_decision_rolls_the_key_back(state):
    """Approval is one transaction: if marking the request fails, no key is left behind."""
    request = state.submit_request("ada@example.org", "Eine App für die Stadt")

    class Racing:
        """A request source that lost a race: someone else decided meanwhile."""

        def get_request(self, request_id):
            return state.get_request(request_id)

        def decide_request(self, request_id, status, **kw):
            raise TransitionError("decided elsewhere")

    with pytest.raises(TransitionError):
        key_tools.approve(Racing(), state, request.id, "twd_")
    assert state.list_keys() == []


# ---------------------------------------------------------------------------- keys


def test_only_the_hash_of_a_key_is_stored(state, tmp_path):
    issued = key_tools.issue(state, "ops@example.org", "twd_", note="Monitoring")
    assert issued.key.startswith("twd_") and len(issued.key) == 36
    state.close()
    raw = b"".join(p.read_bytes() for p in (tmp_path / "state").iterdir())
    assert issued.key.encode() not in raw
    assert key_tools.hash_key(issued.key).encode() in raw


def test_revoke_and_its_errors(state):
    issued = key_tools.issue(state, "ops@example.org", "twd_")
    revoked = state.revoke_key(issued.api_key.id)
    assert revoked.status == "revoked" and revoked.revoked_at is not None
    assert not key_tools.authenticate(state, issued.key).active
    with pytest.raises(TransitionError, match="already revoked"):
        state.revoke_key(issued.api_key.id)
    with pytest.raises(NotFoundError):
        state.revoke_key("key_unknown")


def test_authenticate_unknown_and_oversized(state):
    assert key_tools.authenticate(state, "twd_" + "x" * 32) is None
    assert key_tools.authenticate(state, "") is None
    assert key_tools.authenticate(state, "x" * 10_000) is None


def test_demo_key_is_reused(state, tmp_path):
    state_dir = tmp_path / "state"
    key, created = key_tools.ensure_demo_key(state, state_dir, "twd_")
    again, created_again = key_tools.ensure_demo_key(state, state_dir, "twd_")
    assert (created, created_again, again) == (True, False, key)
    assert (state_dir / key_tools.DEMO_KEY_FILE).stat().st_mode & 0o777 == 0o600
    state.revoke_key(state.key_by_hash(key_tools.hash_key(key)).id)
    replaced, created_new = key_tools.ensure_demo_key(state, state_dir, "twd_")
    assert created_new and replaced != key


def test_newer_schema_is_refused(tmp_path, clock):
    open_state(tmp_path / "s", clock=clock).close()
    with sqlite3.connect(tmp_path / "s" / DB_NAME) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StateError, match="newer version"):
        open_state(tmp_path / "s", clock=clock)


def test_database_is_in_wal_mode(state):
    with sqlite3.connect(state.path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
