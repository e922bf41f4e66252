"""The gate's state: API keys, daily quota counters and access requests, in SQLite.

One database file in the state directory (`--state`, default `./state`), in WAL mode so the
server and the `keys` commands can use it at the same time. Every write is committed before
the gate answers. Quota counting is one atomic upsert, so concurrent requests never overshoot.
Keys and access requests are written with `synchronous=FULL` (they survive a power cut); the
hot quota counters with `synchronous=NORMAL` (they survive a crash of the process).

The stores are described as protocols (`RequestSource`, `KeyStore`, `QuotaCounter`) so a
second backend can stand in for one of them, e.g. access requests kept in Netlify Blobs
while keys stay here. Time comes from an injectable clock; days are Europe/Berlin days.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import secrets
import sqlite3
import string
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo

from generator.api.settings import TIMEZONE, GateSettings
from generator.errors import TrinkwasserError

BERLIN = ZoneInfo(TIMEZONE)
DB_NAME = "gate.sqlite3"
SCHEMA_VERSION = 1
REQUEST_STATES = ("pending", "approved", "rejected")
KEY_STATES = ("active", "revoked")
_ID_ALPHABET = string.ascii_lowercase + string.digits

Clock = Callable[[], dt.datetime]


def system_clock() -> dt.datetime:
    """Return the current time (aware, UTC)."""
    return dt.datetime.now(dt.UTC)


class StateError(TrinkwasserError):
    """A state operation cannot be done as asked."""


class NotFoundError(StateError):
    """No request or key with that id."""


class TransitionError(StateError):
    """The request or key is not in a state that allows the change (e.g. approved twice)."""


class BurstLimitError(StateError):
    """Too many access requests for one address in a short time."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class AccessRequest:
    id: str
    email: str
    zweck: str
    status: str  # pending | approved | rejected
    created_at: dt.datetime
    decided_at: dt.datetime | None = None
    reason: str | None = None
    key_id: str | None = None


@dataclass(frozen=True)
class ApiKey:
    id: str
    hint: str
    """The prefix and first characters of the key, enough for the operator to recognise it."""
    email: str
    note: str
    status: str  # active | revoked
    created_at: dt.datetime
    revoked_at: dt.datetime | None = None
    request_id: str | None = None

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True)
class QuotaUsage:
    """The outcome of counting one keyed request."""

    allowed: bool
    limit: int
    used: int
    now: dt.datetime
    reset_at: dt.datetime
    """Next midnight in Europe/Berlin (aware)."""

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)

    @property
    def retry_after(self) -> int:
        """Whole seconds until the reset, at least 1."""
        return max(1, seconds_until(self.now, self.reset_at))


def quota_day(now: dt.datetime) -> dt.date:
    """Return the Europe/Berlin calendar day of an aware instant."""
    return now.astimezone(BERLIN).date()


def next_reset(now: dt.datetime) -> dt.datetime:
    """Return the next midnight in Europe/Berlin after `now` (23, 24 or 25 hours per day)."""
    tomorrow = quota_day(now) + dt.timedelta(days=1)
    # Midnight always exists in Berlin (the clocks change at 02:00/03:00), so no fold issue.
    return dt.datetime.combine(tomorrow, dt.time(0), tzinfo=BERLIN)


def seconds_until(now: dt.datetime, then: dt.datetime) -> int:
    """Return whole seconds from `now` to `then`, rounded up, computed in UTC.

    Subtracting two datetimes that share a tzinfo uses wall-clock time, which is an hour off
    across a daylight-saving change; converting both to UTC first avoids that.
    """
    delta = then.astimezone(dt.UTC) - now.astimezone(dt.UTC)
    return math.ceil(delta.total_seconds())


def new_id(prefix: str, length: int) -> str:
    """Return a random id such as `req_k3x9...` (unguessable: ids are shown to the public)."""
    return prefix + "".join(secrets.choice(_ID_ALPHABET) for _ in range(length))


def _ts(value: dt.datetime) -> str:
    # Fixed width and UTC, so the text sorts like the instant.
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_ts(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


# ---------------------------------------------------------------------------- protocols


class RequestSource(Protocol):
    """Where access requests are read and decided (SQLite here; Netlify Blobs later)."""

    def list_requests(self, status: str | None = None) -> list[AccessRequest]: ...

    def get_request(self, request_id: str) -> AccessRequest: ...

    def decide_request(
        self,
        request_id: str,
        status: str,
        *,
        key_id: str | None = None,
        reason: str | None = None,
    ) -> AccessRequest:
        """Move a pending request to approved or rejected; raise TransitionError otherwise."""
        ...


class KeyStore(Protocol):
    """Where key hashes live; `atomic()` groups writes into one transaction."""

    def add_key(
        self, key_hash: str, hint: str, email: str, note: str, request_id: str | None = None
    ) -> ApiKey: ...

    def key_by_hash(self, key_hash: str) -> ApiKey | None: ...

    def get_key(self, key_id: str) -> ApiKey: ...

    def list_keys(self) -> list[ApiKey]: ...

    def revoke_key(self, key_id: str) -> ApiKey: ...

    def atomic(self) -> contextlib.AbstractContextManager[None]: ...


class QuotaCounter(Protocol):
    def consume(self, key_id: str) -> QuotaUsage: ...


# ---------------------------------------------------------------------------- SQLite

_SCHEMA = """
CREATE TABLE access_requests (
    id         TEXT PRIMARY KEY,
    email      TEXT NOT NULL,
    email_key  TEXT NOT NULL,          -- lower-cased address, for the burst limit
    zweck      TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    created_at TEXT NOT NULL,          -- ISO 8601, UTC
    decided_at TEXT,
    reason     TEXT,
    key_id     TEXT
);
CREATE INDEX access_requests_by_address ON access_requests (email_key, created_at);
CREATE INDEX access_requests_by_status ON access_requests (status, created_at);
CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    key_hash   TEXT NOT NULL UNIQUE,   -- hex SHA-256 of the key, never the key itself
    hint       TEXT NOT NULL,
    email      TEXT NOT NULL,
    note       TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    request_id TEXT REFERENCES access_requests (id)
);
CREATE TABLE quota_usage (
    key_id TEXT NOT NULL,
    day    TEXT NOT NULL,              -- Europe/Berlin calendar day, YYYY-MM-DD
    count  INTEGER NOT NULL,
    PRIMARY KEY (key_id, day)
) WITHOUT ROWID;
"""

# One statement: insert the day's first count or add one while below the limit. No row comes
# back when the limit is reached, so two concurrent requests can never both take the last one.
_CONSUME = """
INSERT INTO quota_usage (key_id, day, count) VALUES (?1, ?2, 1)
ON CONFLICT (key_id, day) DO UPDATE SET count = count + 1 WHERE count < ?3
RETURNING count
"""


class SqliteState:
    """Keys, quota and access requests in `<state_dir>/gate.sqlite3`; safe across threads.

    Each thread gets its own connection (SQLite connections must not be shared), and WAL
    lets readers and one writer work at the same time, across processes too.
    """

    def __init__(
        self,
        state_dir: Path,
        *,
        clock: Clock = system_clock,
        settings: GateSettings | None = None,
    ):
        self.state_dir = Path(state_dir)
        self.path = self.state_dir / DB_NAME
        self.clock = clock
        self.settings = settings or GateSettings()
        self._local = threading.local()
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self._migrate()

    # -- connections and transactions

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._local.conn = conn
            self._local.depth = 0
        return conn

    @contextlib.contextmanager
    def atomic(self, durable: bool = True) -> Iterator[None]:
        """Run the block in one write transaction (nested blocks join the outer one)."""
        conn = self._conn()
        if self._local.depth:
            self._local.depth += 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        if durable:
            conn.execute("PRAGMA synchronous=FULL")
        try:
            # IMMEDIATE takes the write lock up front: a read-then-write block cannot be
            # overtaken by another writer between its read and its write.
            conn.execute("BEGIN IMMEDIATE")
            self._local.depth = 1
            try:
                yield
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            self._local.depth = 0
            if durable:
                conn.execute("PRAGMA synchronous=NORMAL")

    def close(self) -> None:
        """Close this thread's connection."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def _migrate(self) -> None:
        conn = self._conn()
        with self.atomic():
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StateError(
                    f"{self.path} was written by a newer version of trinkwasser "
                    f"(schema {version}, this one knows {SCHEMA_VERSION}); upgrade it"
                )
            if version == 0:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    # -- access requests

    def submit_request(self, email: str, zweck: str) -> AccessRequest:
        """Store a new pending request; raise BurstLimitError when the address is flooding."""
        now = self.clock()
        window = dt.timedelta(seconds=self.settings.request_window)
        email_key = email.strip().lower()
        with self.atomic():
            conn = self._conn()
            recent = conn.execute(
                "SELECT created_at FROM access_requests WHERE email_key = ? AND created_at > ?"
                " ORDER BY created_at",
                (email_key, _ts(now - window)),
            ).fetchall()
            if len(recent) >= self.settings.request_burst:
                # The oldest request in the window leaves it first and frees a slot.
                frees_at = _parse_ts(recent[0]["created_at"]) + window
                raise BurstLimitError(
                    f"Too many access requests for this address: at most "
                    f"{self.settings.request_burst} per {self.settings.request_window // 60} "
                    f"minutes. Your earlier requests are stored and will be answered.",
                    retry_after=max(1, seconds_until(now, frees_at)),
                )
            request = AccessRequest(new_id("req_", 16), email, zweck, "pending", now)
            conn.execute(
                "INSERT INTO access_requests (id, email, email_key, zweck, status, created_at)"
                " VALUES (?, ?, ?, ?, 'pending', ?)",
                (request.id, email, email_key, zweck, _ts(now)),
            )
        return request

    @staticmethod
    def _request(row: sqlite3.Row) -> AccessRequest:
        return AccessRequest(
            row["id"],
            row["email"],
            row["zweck"],
            row["status"],
            _parse_ts(row["created_at"]),
            _parse_ts(row["decided_at"]),
            row["reason"],
            row["key_id"],
        )

    def list_requests(self, status: str | None = None) -> list[AccessRequest]:
        sql = "SELECT * FROM access_requests"
        args: tuple = ()
        if status is not None:
            sql += " WHERE status = ?"
            args = (status,)
        rows = self._conn().execute(sql + " ORDER BY created_at, id", args).fetchall()
        return [self._request(r) for r in rows]

    def get_request(self, request_id: str) -> AccessRequest:
        row = (
            self._conn()
            .execute("SELECT * FROM access_requests WHERE id = ?", (request_id,))
            .fetchone()
        )
        if row is None:
            raise NotFoundError(f"no access request with id {request_id!r}")
        return self._request(row)

    def decide_request(
        self,
        request_id: str,
        status: str,
        *,
        key_id: str | None = None,
        reason: str | None = None,
    ) -> AccessRequest:
        if status not in ("approved", "rejected"):
            raise ValueError(f"a decision is 'approved' or 'rejected', not {status!r}")
        with self.atomic():
            # Compare-and-set on 'pending': of two concurrent decisions only one wins.
            changed = (
                self._conn()
                .execute(
                    "UPDATE access_requests SET status = ?, decided_at = ?, reason = ?,"
                    " key_id = ? WHERE id = ? AND status = 'pending'",
                    (status, _ts(self.clock()), reason, key_id, request_id),
                )
                .rowcount
            )
            request = self.get_request(request_id)
            if not changed:
                raise TransitionError(
                    f"access request {request_id} is already {request.status}; "
                    "only pending requests can be approved or rejected"
                )
        return request

    # -- keys

    @staticmethod
    def _key(row: sqlite3.Row) -> ApiKey:
        return ApiKey(
            row["id"],
            row["hint"],
            row["email"],
            row["note"],
            row["status"],
            _parse_ts(row["created_at"]),
            _parse_ts(row["revoked_at"]),
            row["request_id"],
        )

    def add_key(
        self, key_hash: str, hint: str, email: str, note: str, request_id: str | None = None
    ) -> ApiKey:
        now = self.clock()
        with self.atomic():
            for _ in range(5):
                key_id = new_id("key_", 10)
                try:
                    self._conn().execute(
                        "INSERT INTO api_keys (id, key_hash, hint, email, note, status,"
                        " created_at, request_id) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)",
                        (key_id, key_hash, hint, email, note, _ts(now), request_id),
                    )
                except sqlite3.IntegrityError as exc:
                    if "api_keys.id" in str(exc):
                        continue  # an id collision: draw another one
                    raise StateError(f"cannot store the key: {exc}") from exc
                return self.get_key(key_id)
        raise StateError("could not draw an unused key id")

    def key_by_hash(self, key_hash: str) -> ApiKey | None:
        row = (
            self._conn()
            .execute("SELECT * FROM api_keys WHERE key_hash = ?", (key_hash,))
            .fetchone()
        )
        return None if row is None else self._key(row)

    def get_key(self, key_id: str) -> ApiKey:
        row = self._conn().execute("SELECT * FROM api_keys WHERE id = ?", (key_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no key with id {key_id!r} (see `trinkwasser keys list`)")
        return self._key(row)

    def list_keys(self) -> list[ApiKey]:
        rows = self._conn().execute("SELECT * FROM api_keys ORDER BY created_at, id").fetchall()
        return [self._key(r) for r in rows]

    def revoke_key(self, key_id: str) -> ApiKey:
        with self.atomic():
            changed = (
                self._conn()
                .execute(
                    "UPDATE api_keys SET status = 'revoked', revoked_at = ?"
                    " WHERE id = ? AND status = 'active'",
                    (_ts(self.clock()), key_id),
                )
                .rowcount
            )
            key = self.get_key(key_id)
            if not changed:
                raise TransitionError(f"key {key_id} is already revoked")
        return key

    # -- quota

    def consume(self, key_id: str) -> QuotaUsage:
        """Count one request of `key_id` against today's quota, atomically and committed."""
        now = self.clock()
        day = quota_day(now).isoformat()
        limit = self.settings.daily_quota
        # fetchall() steps the statement to its end, which commits it (autocommit mode).
        rows = self._conn().execute(_CONSUME, (key_id, day, limit)).fetchall()
        if rows:
            return QuotaUsage(True, limit, rows[0][0], now, next_reset(now))
        return QuotaUsage(False, limit, self.used(key_id, now), now, next_reset(now))

    def used(self, key_id: str, now: dt.datetime | None = None) -> int:
        """Return how many requests `key_id` made on the Berlin day of `now` (default: today)."""
        day = quota_day(now or self.clock()).isoformat()
        row = (
            self._conn()
            .execute("SELECT count FROM quota_usage WHERE key_id = ? AND day = ?", (key_id, day))
            .fetchone()
        )
        return 0 if row is None else row[0]

    def prune_usage(self, keep_days: int = 35) -> int:
        """Delete counters older than `keep_days` days; return how many rows went."""
        oldest = (quota_day(self.clock()) - dt.timedelta(days=keep_days)).isoformat()
        with self.atomic(durable=False):
            return self._conn().execute("DELETE FROM quota_usage WHERE day < ?", (oldest,)).rowcount


def open_state(
    state_dir: Path, *, clock: Clock = system_clock, settings: GateSettings | None = None
) -> SqliteState:
    """Open (creating if needed) the state in `state_dir`."""
    try:
        return SqliteState(state_dir, clock=clock, settings=settings)
    except sqlite3.Error as exc:
        raise StateError(f"cannot open the state in {state_dir}: {exc}") from exc
