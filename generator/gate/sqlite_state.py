"""The gate's state in SQLite: API keys, daily quota counters and access requests.

One database file in the state directory (`--state`, default `./state`), in WAL mode so the
server and the `keys` commands can use it at the same time. Every write is committed before
the gate answers. Quota counting is one atomic upsert, so concurrent requests never overshoot.
Keys and access requests are written with `synchronous=FULL` (they survive a power cut); the
hot quota counters with `synchronous=NORMAL` (they survive a crash of the process).

Records, states and quota days come from `generator.gate.model`, which the Netlify Blobs
backend shares. Time comes from an injectable clock; days are Europe/Berlin days.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

from generator.api.http import KEY_ID, REQUEST_ID
from generator.api.settings import GateSettings
from generator.gate.model import (
    AccessRequest,
    ApiKey,
    BurstLimitError,
    Clock,
    QuotaUsage,
    StateError,
    already_revoked,
    check_decision,
    key_from_record,
    new_id,
    next_reset,
    no_key,
    no_request,
    parse_timestamp,
    quota_day,
    request_from_record,
    seconds_until,
    system_clock,
    timestamp,
    undecidable,
)

DB_NAME = "gate.sqlite3"
SCHEMA_VERSION = 1


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
                (email_key, timestamp(now - window)),
            ).fetchall()
            if len(recent) >= self.settings.request_burst:
                # The oldest request in the window leaves it first and frees a slot.
                frees_at = parse_timestamp(recent[0]["created_at"]) + window
                raise BurstLimitError(
                    self.settings.message("burst_limit"),
                    retry_after=max(1, seconds_until(now, frees_at)),
                )
            request = AccessRequest(new_id(REQUEST_ID), email, zweck, "pending", now)
            conn.execute(
                "INSERT INTO access_requests (id, email, email_key, zweck, status, created_at)"
                " VALUES (?, ?, ?, ?, 'pending', ?)",
                (request.id, email, email_key, zweck, timestamp(now)),
            )
        return request

    def list_requests(self, status: str | None = None) -> list[AccessRequest]:
        sql = "SELECT * FROM access_requests"
        args: tuple[str, ...] = ()
        if status is not None:
            sql += " WHERE status = ?"
            args = (status,)
        rows = self._conn().execute(sql + " ORDER BY created_at, id", args).fetchall()
        return [request_from_record(dict(r)) for r in rows]

    def get_request(self, request_id: str) -> AccessRequest:
        row = (
            self._conn()
            .execute("SELECT * FROM access_requests WHERE id = ?", (request_id,))
            .fetchone()
        )
        if row is None:
            raise no_request(request_id)
        return request_from_record(dict(row))

    def decide_request(
        self,
        request_id: str,
        status: str,
        *,
        key_id: str | None = None,
        reason: str | None = None,
    ) -> AccessRequest:
        check_decision(status)
        with self.atomic():
            # Compare-and-set on 'pending': of two concurrent decisions only one wins.
            changed = (
                self._conn()
                .execute(
                    "UPDATE access_requests SET status = ?, decided_at = ?, reason = ?,"
                    " key_id = ? WHERE id = ? AND status = 'pending'",
                    (status, timestamp(self.clock()), reason, key_id, request_id),
                )
                .rowcount
            )
            request = self.get_request(request_id)
            if not changed:
                raise undecidable(request_id, request.status)
        return request

    # -- keys

    def add_key(
        self, key_hash: str, hint: str, email: str, note: str, request_id: str | None = None
    ) -> ApiKey:
        now = self.clock()
        with self.atomic():
            for _ in range(5):
                key_id = new_id(KEY_ID)
                try:
                    self._conn().execute(
                        "INSERT INTO api_keys (id, key_hash, hint, email, note, status,"
                        " created_at, request_id) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)",
                        (key_id, key_hash, hint, email, note, timestamp(now), request_id),
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
        return None if row is None else key_from_record(dict(row))

    def get_key(self, key_id: str) -> ApiKey:
        row = self._conn().execute("SELECT * FROM api_keys WHERE id = ?", (key_id,)).fetchone()
        if row is None:
            raise no_key(key_id)
        return key_from_record(dict(row))

    def list_keys(self) -> list[ApiKey]:
        rows = self._conn().execute("SELECT * FROM api_keys ORDER BY created_at, id").fetchall()
        return [key_from_record(dict(r)) for r in rows]

    def revoke_key(self, key_id: str) -> ApiKey:
        with self.atomic():
            changed = (
                self._conn()
                .execute(
                    "UPDATE api_keys SET status = 'revoked', revoked_at = ?"
                    " WHERE id = ? AND status = 'active'",
                    (timestamp(self.clock()), key_id),
                )
                .rowcount
            )
            key = self.get_key(key_id)
            if not changed:
                raise already_revoked(key_id)
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
