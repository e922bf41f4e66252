"""The gate's state as a model, whatever stores it: records, states, quota days, protocols.

Both backends (SQLite for `trinkwasser serve`, Netlify Blobs for the production gate) build
their records, timestamps and ids here and refuse the same transitions with the same
words, so the operator's commands behave alike on either.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, overload
from zoneinfo import ZoneInfo

from generator.api.http import ID_ALPHABET, IdFormat
from generator.api.settings import TIMEZONE
from generator.errors import TrinkwasserError

BERLIN = ZoneInfo(TIMEZONE)
DECISIONS = ("approved", "rejected")

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


# ---------------------------------------------------------------------------- records


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


def request_from_record(record: Mapping[str, Any]) -> AccessRequest:
    """Read a stored access request (a SQLite row as a dict, or a JSON blob)."""
    return AccessRequest(
        record["id"],
        record["email"],
        record["zweck"],
        record["status"],
        parse_timestamp(record["created_at"]),
        parse_timestamp(record.get("decided_at")),
        record.get("reason"),
        record.get("key_id"),
    )


def key_from_record(record: Mapping[str, Any]) -> ApiKey:
    """Read a stored key (a SQLite row as a dict, or a JSON blob; never the key itself)."""
    return ApiKey(
        record["id"],
        record["hint"],
        record["email"],
        record.get("note") or "",
        record["status"],
        parse_timestamp(record["created_at"]),
        parse_timestamp(record.get("revoked_at")),
        record.get("request_id"),
    )


def timestamp(value: dt.datetime) -> str:
    """Return the stored form of an instant: ISO 8601 in UTC, fixed width (sorts as it reads)."""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@overload
def parse_timestamp(value: str) -> dt.datetime: ...
@overload
def parse_timestamp(value: str | None) -> dt.datetime | None: ...
def parse_timestamp(value: str | None) -> dt.datetime | None:
    """Read a stored instant; an absent one (None) stays None."""
    return None if value is None else dt.datetime.fromisoformat(value)


def new_id(kind: IdFormat) -> str:
    """Return a random id such as `req_k3x9...` (unguessable: ids are shown to the public)."""
    return kind.prefix + "".join(secrets.choice(ID_ALPHABET) for _ in range(kind.length))


# ---------------------------------------------------------------------------- transitions


def check_decision(status: str) -> None:
    """Refuse anything but a decision (a programming error, not an operator's)."""
    if status not in DECISIONS:
        raise ValueError(f"a decision is 'approved' or 'rejected', not {status!r}")


def undecidable(request_id: str, status: str) -> TransitionError:
    """Return the error for deciding a request that is no longer pending."""
    return TransitionError(
        f"access request {request_id} is already {status}; "
        "only pending requests can be approved or rejected"
    )


def already_revoked(key_id: str) -> TransitionError:
    return TransitionError(f"key {key_id} is already revoked")


def no_request(request_id: str) -> NotFoundError:
    return NotFoundError(f"no access request with id {request_id!r}")


def no_key(key_id: str) -> NotFoundError:
    return NotFoundError(f"no key with id {key_id!r} (see `trinkwasser keys list`)")


# ---------------------------------------------------------------------------- quota days


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


# ---------------------------------------------------------------------------- protocols


class RequestSource(Protocol):
    """Where access requests are read and decided (SQLite or Netlify Blobs)."""

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
    """Counts keyed requests (the gate's side)."""

    def consume(self, key_id: str) -> QuotaUsage: ...


class UsageReader(Protocol):
    """Reads the counts (the operator's side, `keys list`)."""

    def used(self, key_id: str, now: dt.datetime | None = None) -> int:
        """Return how many requests `key_id` made on the Berlin day of `now` (default: today)."""
        ...


class OperatorState(RequestSource, KeyStore, UsageReader, Protocol):
    """All the `keys` commands use: the SQLite state and Netlify Blobs both provide it."""
