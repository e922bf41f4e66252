"""How `trinkwasser serve` runs the gate: uvicorn with httptools and uvloop, and timeouts.

uvicorn closes a kept-alive connection that stays idle after an answer, but arms no timer
for a connection that never sends a request, nor for one that sends its headers a byte at a
time: 1,100 such connections took every file descriptor of a server with the usual limit
of 1,024 and left it unresponsive. `GuardedHttpTools` gives each request a deadline, from
the moment the connection opens (or the next request starts) until the request is complete,
head and body; a connection that misses it is closed. With the keep-alive timeout that bounds
what idle and slow clients can hold to what they open within those seconds.

A client that sends its request and then never reads the answer holds its connection too:
once the kernel's and the transport's buffers are full, the answer waits. A write deadline
bounds that: a connection that accepts no byte for that long is aborted (closing it would
wait for the client to read). Above a number of open connections below the descriptor
limit, a request gets the contract's 503 with Retry-After and its connection is closed.

The process also raises its soft limit of open files to the hard limit at start (each
connection is a file descriptor); docs/gate.md says how many a server needs.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, MutableMapping
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
    write: float = 10.0
    """A connection that accepts no byte of its answer for this long is aborted."""
    max_connections: int | None = None
    """Open connections above this get a 503 and are closed (None: no bound)."""


Asgi = Callable[
    [
        MutableMapping[str, Any],
        Callable[[], Awaitable[MutableMapping[str, Any]]],
        Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ],
    Awaitable[None],
]


class _DeadlineTransport:
    """The connection's transport, whose `close` gives up on unsent bytes after a deadline.

    `close` waits until the client has read every buffered byte; a client that never reads
    would keep the descriptor for good. Everything else is the transport's own.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop, wait: float):
        self._transport = transport
        self._loop = loop
        self._wait = wait

    def close(self) -> None:
        transport = self._transport
        if not transport.is_closing() and transport.get_write_buffer_size():
            self._loop.call_later(self._wait, _abort, transport)
        transport.close()

    def write(self, data: bytes) -> None:
        # A connection dropped for a slow reader (or closed for a slow request) is gone
        # before the app learns it: what it still sends has no one to go to. Writing it
        # would raise inside uvicorn and log a traceback for an ordinary event.
        if not self._transport.is_closing():
            self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def _abort(transport: asyncio.Transport) -> None:
    with contextlib.suppress(RuntimeError):  # already gone
        transport.abort()


class GuardedHttpTools(HttpToolsProtocol):
    """Serve HTTP with uvicorn's httptools protocol, bounded in time and connections.

    A deadline for each request to arrive whole, a write deadline, and a bound on open
    connections.
    """

    request_timeout = Limits.request
    """Set per server by `protocol_class` (as the two below)."""
    write_timeout = Limits.write
    max_connections: int | None = None
    overloaded: Asgi | None = None
    """The app that answers requests beyond `max_connections` (the contract's 503)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._write_deadline: asyncio.TimerHandle | None = None

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
        self.transport = _DeadlineTransport(transport, self.loop, self.write_timeout)  # type: ignore[assignment]
        self._arm()  # a connection that never sends anything is closed too

    def on_headers_complete(self) -> None:
        limit, overloaded = self.max_connections, self.overloaded
        if limit is None or overloaded is None or len(self.connections) <= limit:
            super().on_headers_complete()
            return
        # uvicorn runs `self.app` for the request: the 503 app, for this request only.
        app = self.app
        self.app = overloaded
        try:
            super().on_headers_complete()
        finally:
            self.app = app

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_deadline is None:
            self._write_deadline = self.loop.call_later(self.write_timeout, self._not_reading)

    def resume_writing(self) -> None:
        self._cancel_write_deadline()
        super().resume_writing()

    def _cancel_write_deadline(self) -> None:
        if self._write_deadline is not None:
            self._write_deadline.cancel()
            self._write_deadline = None

    def _not_reading(self) -> None:
        self._write_deadline = None
        if self.cycle is not None:
            self.cycle.disconnected = True  # the app's next send ends quietly
        client = "%s:%d - " % self.client if self.client else ""  # noqa: UP031 - uvicorn's form
        self.logger.info(
            "%sdropped a client that read nothing for %g s (--timeout-write)",
            client,
            self.write_timeout,
        )
        _abort(self.transport)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # the next request on a kept-alive connection gets its own deadline

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._cancel_write_deadline()
        super().connection_lost(exc)


def protocol_class(limits: Limits, overloaded: Asgi | None = None) -> type[GuardedHttpTools]:
    """Return the protocol with this server's timeouts, bound and 503 app."""
    members = {
        "request_timeout": limits.request,
        "write_timeout": limits.write,
        "max_connections": limits.max_connections,
        "overloaded": staticmethod(overloaded) if overloaded is not None else None,
    }
    return type("GuardedHttpTools", (GuardedHttpTools,), members)


def connection_bound(open_files: int) -> int:
    """Return how many connections a server with this many descriptors serves before 503."""
    return max(open_files - OVERHEAD_FDS, 1)


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
