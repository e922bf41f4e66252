"""One retry policy for the project's HTTP clients: which answers to retry, and how long to wait.

A 429 or a server error (500, 502, 503, 504) is tried again, at most `retries` times; before
each try the client waits what the server asked for in `Retry-After` (seconds or an HTTP
date, RFC 9110 10.2.3), else a pause that doubles from `pause`. A server that asks for more
than `max_wait` seconds is not waited for. `trinkwasser fetch` (`generator.fetch.polite`)
and the Netlify Blobs client of `trinkwasser keys` (`generator.gate.netlify_blobs`) follow it.
"""

from __future__ import annotations

import datetime as dt
import email.utils
from dataclasses import dataclass

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


def retry_after(value: str | None, now: dt.datetime | None = None) -> float | None:
    """Seconds a Retry-After header asks for (a number of seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():  # "²".isdigit() is true too
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    now = now or dt.datetime.now(dt.UTC)
    return max((when - now).total_seconds(), 0.0)


class WaitTooLong(Exception):
    """The server asked for a longer wait (`asked` seconds) than the policy allows."""

    def __init__(self, asked: float, limit: float):
        super().__init__(f"asks to wait {asked:g} s (Retry-After), more than {limit:g} s")
        self.asked = asked
        self.limit = limit


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 3
    """Tries after the first."""
    pause: float = 1.0
    """Seconds before the first retry when the server names none; doubled for each next."""
    max_wait: float = 600.0
    """The longest Retry-After waited for."""

    def retries_after(self, status: int, attempt: int) -> bool:
        """Whether an answer of `status` to try `attempt` (0: the first) is tried again."""
        return status in RETRY_STATUSES and attempt < self.retries

    def wait(self, attempt: int, asked: str | None = None) -> float:
        """Return the seconds to wait after try `attempt` failed; `asked`: its Retry-After.

        Raises `WaitTooLong` when the server asks for more than `max_wait`.
        """
        seconds = retry_after(asked)
        if seconds is not None and seconds > self.max_wait:
            raise WaitTooLong(seconds, self.max_wait)
        return seconds if seconds is not None else self.pause * 2**attempt
