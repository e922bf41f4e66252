"""How `trinkwasser serve` runs the gate: uvicorn with httptools and uvloop, and timeouts.

uvicorn closes a kept-alive connection that stays idle after an answer, but arms no timer
for a connection that never sends a request, nor for one that sends its headers a byte at a
time: 1,100 such connections took every file descriptor of a server with the usual limit
of 1,024 and left it unresponsive. `GuardedHttpTools` gives each request a deadline, from
the moment the connection opens (or the next request starts) until the request is complete,
head and body; a connection that misses it is closed. With the keep-alive timeout that bounds
what idle and slow clients can hold to what they open within those seconds.

The process also raises its soft limit of open files to the hard limit at start (each
connection is a file descriptor); docs/gate.md says how many a server needs.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

OVERHEAD_FDS = 64
"""Descriptors the process needs besides connections: SQLite, the files it serves, logs."""


@dataclass(frozen=True)
class Limits:
    """The timeouts of `trinkwasser serve` (seconds)."""

    request: float = 10.0
    """A connection must deliver a complete request within this time of opening (or of the
    first byte of its next request)."""
    keep_alive: int = 5
    """An idle kept-alive connection is closed after this time."""


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for each request to arrive whole."""

    request_timeout = Limits.request
    """Set per server by `protocol_class`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()  # a connection that never sends anything is closed too

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # the next request on a kept-alive connection gets its own deadline

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def protocol_class(limits: Limits) -> type[GuardedHttpTools]:
    """Return the protocol with this server's request timeout."""
    return type("GuardedHttpTools", (GuardedHttpTools,), {"request_timeout": limits.request})


def raise_open_file_limit() -> tuple[int, int]:
    """Raise the soft limit of open files to the hard limit; return (soft, hard) after."""
    try:
        import resource
    except ImportError:  # not on Windows
        return (-1, -1)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass  # e.g. an unlimited hard limit some systems refuse as a soft one
    return soft, hard


def event_loop() -> str:
    """Uvloop where it is installed (not on Windows), else asyncio's loop."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"
