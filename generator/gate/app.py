"""The gate as an ASGI application: the API behind keys and quota, and the static site.

A plain ASGI callable rather than a framework app: the gate must control every byte of its
answers (FastAPI-identical 422 bodies) and see the raw request path (encoded slashes are
refused, not decoded into a different route), and it has only one kind of route.

This module only dispatches: paths of the route table go to the API gate (`api.py`),
everything else under the build directory to static file serving (`static.py`), except
`_data/` and dot files, which are 404 whatever the key.

An OS error other than "no such file" (out of descriptors, a refused or failed read) and any
failure of the SQLite state end in the contract's 503 with Retry-After: an answer the server
could not check is never given as a 404 or as an acknowledgement.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote

import anyio

from generator.api import site_rules
from generator.api.http import HIDDEN_DIR
from generator.api.settings import GateSettings, gate_dir
from generator.gate.files import CHUNK, FileServer
from generator.gate.handler import ApiGate
from generator.gate.responses import Manners, Response, header, split_path
from generator.gate.sqlite_state import SqliteState
from generator.gate.static import StaticSite

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

log = logging.getLogger("trinkwasser.gate")


class OutageLog:
    """Logs each kind of failure once when it starts, then at most once a minute with a count.

    Under exhaustion every request fails alike; a line per request would fill the disk the
    server may already be short of.
    """

    every = 60.0

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._last: dict[str, float] = {}
        self._since: dict[str, int] = {}

    def note(self, exc: BaseException) -> None:
        code = getattr(exc, "errno", None)
        kind = f"{type(exc).__name__} {code}" if code is not None else type(exc).__name__
        now = self.clock()
        last = self._last.get(kind)
        self._since[kind] = self._since.get(kind, 0) + 1
        if last is not None and now - last < self.every:
            return
        count = self._since.pop(kind)
        again = f" ({count} answers since the last line)" if last is not None else ""
        log.error("503 Service Unavailable: %s%s", exc, again)
        self._last[kind] = now


class Gate:
    """The ASGI application: `Gate(build_dir, state, settings)` is called per request."""

    def __init__(
        self,
        build_dir: Path,
        state: SqliteState,
        settings: GateSettings,
        demo_key: str | None = None,
    ):
        self.state = state
        self.settings = settings
        self.manners = Manners(settings)
        self.files = FileServer(build_dir, self.manners)
        self.api = ApiGate(self.files, self.manners, state, settings)
        search_file = gate_dir(build_dir) / site_rules.SEARCH_FILE
        self.site = StaticSite(
            self.files, self.manners, settings, self.api.is_licensed, search_file, demo_key
        )
        self.outages = OutageLog()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        response = await self.handle(scope, receive)
        await self._send(scope, response, send)

    async def overloaded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a request beyond the server's connection bound with the contract's 503.

        The connection is closed after it (`server.GuardedHttpTools`).
        """
        response = self.manners.unavailable()
        response.headers.append(header("connection", "close"))
        await self._send(scope, response, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.state.prune_usage()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.state.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def handle(self, scope: Scope, receive: Receive) -> Response:
        """Answer one HTTP request; a 503 when the server cannot read what the answer needs."""
        try:
            return await self._answer(scope, receive)
        except (OSError, sqlite3.Error) as exc:
            self.outages.note(exc)
            return self.manners.unavailable()

    async def _answer(self, scope: Scope, receive: Receive) -> Response:
        # Servers other than uvicorn may omit raw_path; re-encoding the decoded path then
        # loses only the distinction of encoded slashes, which split_path cannot see anyway.
        raw_path = scope.get("raw_path") or quote(scope["path"]).encode("ascii")
        segments = split_path(raw_path)
        if segments is None or segments[0] == HIDDEN_DIR:
            return self.manners.not_found()
        if any(s.startswith(".") for s in segments):
            return self.manners.not_found()
        method = scope["method"]
        query = scope.get("query_string", b"").decode("latin-1")
        headers = _headers(scope)
        if segments[0] == "v1":
            matches = self.api.match(segments)
            if matches:
                pairs = parse_qsl(query, keep_blank_values=True)
                return await self.api.answer(method, pairs, headers, receive, matches)
        return self.site.answer(method, segments, query, headers)

    async def _send(self, scope: Scope, response: Response, send: Send) -> None:
        headers = response.headers
        if response.status != 304:
            length = response.length if response.length is not None else len(response.body)
            headers = [*headers, header("content-length", length)]
        await send({"type": "http.response.start", "status": response.status, "headers": headers})
        if scope["method"] == "HEAD" or response.status == 304 or response.file is None:
            if response.file is not None:
                response.file.close()
            body = b"" if scope["method"] == "HEAD" else response.body
            await send({"type": "http.response.body", "body": body})
            return
        with response.file as fh:
            while True:
                chunk = await anyio.to_thread.run_sync(fh.read, CHUNK)
                more = len(chunk) == CHUNK
                await send({"type": "http.response.body", "body": chunk, "more_body": more})
                if not more:
                    return


def _headers(scope: Scope) -> dict[str, str]:
    """Return the request headers by lower-case name; the first of repeated ones (as Starlette)."""
    headers: dict[str, str] = {}
    for name, value in scope["headers"]:
        headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return headers


def create_app(
    build_dir: Path,
    state: SqliteState,
    settings: GateSettings | None = None,
    demo_key: str | None = None,
) -> Gate:
    """Return the gate for a build directory and a state (tests pass a state with a clock).

    `demo_key`: the local demo key of `serve --demo-key`, which the API reference then shows.
    """
    return Gate(build_dir, state, settings or state.settings, demo_key)
