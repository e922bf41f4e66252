"""The API gate: the routes of the table behind validation, keys and quota.

Order for an API route (docs/architecture.md, "The order of checks"): route match (404/405)
-> body size (413) -> parameter validation (422) -> key (401/403) -> quota (429) -> resource
(404 with a clear detail) -> 200.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from fnmatch import fnmatchcase
from typing import Any

import anyio

from generator.api import http, routes, series
from generator.api.http import KEY_HEADER
from generator.api.settings import GateSettings
from generator.gate import keys as key_tools
from generator.gate.files import FileServer, no_such_file
from generator.gate.model import BurstLimitError
from generator.gate.responses import Headers, Manners, Response, header
from generator.gate.sqlite_state import SqliteState
from generator.gate.validation import BodyParseError, error_body, validate

Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Match = tuple[routes.Route, dict[str, str]]


class ApiGate:
    """Answers requests whose path is a route of the table."""

    def __init__(
        self, files: FileServer, manners: Manners, state: SqliteState, settings: GateSettings
    ):
        self.files = files
        self.manners = manners
        self.state = state
        self.settings = settings
        # Open files of the mapping get the license link when fetched by file name too.
        self.odbl_files = routes.odbl_files()
        self._codes_key: tuple[int, int, int] | None = None
        self._codes_value: frozenset[str] = frozenset()

    @staticmethod
    def match(segments: list[str]) -> list[Match]:
        """Return the routes (of any method) whose path the segments are."""
        return [(r, p) for r in routes.ROUTES if (p := r.match(segments)) is not None]

    def is_licensed(self, rel: str) -> bool:
        """Whether an open file carries the ODbL mapping (and so the license link)."""
        return any(fnmatchcase(rel, glob) for glob in self.odbl_files)

    async def answer(
        self,
        method: str,
        query: list[tuple[str, str]],
        headers: Mapping[str, str],
        receive: Receive,
        matches: list[Match],
    ) -> Response:
        allowed = {r.method for r, _ in matches}
        if "GET" in allowed:
            allowed.add("HEAD")
        allow = ", ".join(sorted(allowed | {"OPTIONS"}))
        if method == "OPTIONS":
            return self.manners.preflight(allow)
        wanted = "GET" if method == "HEAD" else method
        found = [(r, p) for r, p in matches if r.method == wanted]
        if not found:
            return self.manners.message("method_not_allowed", [header("allow", allow)])
        route, path_params = found[0]

        body = None
        if self._too_large(headers):
            return self.manners.message("body_too_large")
        if any(p.location == "body" for p in route.params):
            body = await self._read_body(receive)
            if body is None:
                return self.manners.message("body_too_large")
        try:
            result = validate(route, path_params, query, body, headers.get("content-type"), headers)
        except BodyParseError:
            return self.manners.message("body_unreadable")
        if result.errors:
            cache = self.manners.cache["error"]
            return Response(
                422, self.manners.base(http.JSON_TYPE, cache), error_body(result.errors)
            )

        extra: Headers = []
        if route.access == "key":
            refused = self._check_key(headers.get(KEY_HEADER.lower(), ""), extra)
            if refused is not None:
                return refused
        if route.method == "POST":
            return await self._access_request(route, result.values)
        cache = self.manners.cache["keyed" if route.access == "key" else "open"]
        license = [self.manners.license_link()] if route.license == "odbl" else []
        rel = route.file_for(result.values)
        code = result.values.get(route.filter.param) if route.filter else None
        if rel is not None and code is not None:
            return self._filtered(route, rel, str(code), result.values, headers, cache, extra)
        response = None if rel is None else self.files.file(rel, headers, cache, [*extra, *license])
        if response is None:
            return self.manners.not_found(route.detail_for(result.values), extra)
        return response

    def _filtered(
        self,
        route: routes.Route,
        rel: str,
        code: str,
        values: dict[str, Any],
        headers: Mapping[str, str],
        cache: str,
        extra: Headers,
    ) -> Response:
        """Answer `?parameter=CODE` from the zone's series file (generator.api.series).

        No zone: the route's 404; a code not in the register: the filter's 404; a known
        code without rows: an empty series.
        """
        if not self.files.is_file(rel):
            return self.manners.not_found(route.detail_for(values), extra)
        if code not in self._codes():
            return self.manners.not_found(route.unknown_detail(values), extra)
        members = {p.name: str(values[p.name]) for p in route.params if p.location == "path"}
        response = self.files.file(
            rel,
            headers,
            cache,
            extra,
            transform=lambda body: series.filter_series(body, code, members),
        )
        if response is None:  # swapped away between the two looks
            return self.manners.not_found(route.detail_for(values), extra)
        return response

    def _codes(self) -> frozenset[str]:
        """Return the codes of the served tree's parameter register, read again when it changes."""
        path = self.files.inside(routes.file_path("parameters"))
        try:
            info = os.stat(path) if path is not None else None
        except OSError as exc:
            if not no_such_file(exc):
                raise  # an empty register would answer "unknown code" for every code
            info = None
        key = None if info is None else (info.st_ino, info.st_mtime_ns, info.st_size)
        if key != self._codes_key:
            register = path.read_bytes() if path is not None and info is not None else None
            codes = series.register_codes(register) if register else []
            self._codes_key, self._codes_value = key, frozenset(codes)
        return self._codes_value

    def _check_key(self, presented: str, extra: Headers) -> Response | None:
        """Check the key and count the request; return the refusal, or None to go on.

        The rate-limit headers of a counted request are appended to `extra`.
        """
        presented = presented.strip()
        if not presented:
            challenge = self.settings.header(http.WWW_AUTHENTICATE)
            return self.manners.message("key_missing", [header("www-authenticate", challenge)])
        api_key = key_tools.authenticate(self.state, presented, self.settings.max_key_length)
        if api_key is None:
            return self.manners.message("key_invalid")
        if not api_key.active:
            return self.manners.message("key_revoked")
        usage = self.state.consume(api_key.id)
        extra += [
            header("x-ratelimit-limit", usage.limit),
            header("x-ratelimit-remaining", usage.remaining),
            header("x-ratelimit-reset", int(usage.reset_at.timestamp())),
        ]
        if not usage.allowed:
            return self.manners.message(
                "quota_used_up",
                [*extra, header("retry-after", usage.retry_after)],
                reset=usage.reset_at.isoformat(),
                retry_after=usage.retry_after,
            )
        return None

    async def _access_request(self, route: routes.Route, values: dict[str, Any]) -> Response:
        try:
            # Runs in a worker thread: the durable commit waits for the disk.
            request = await anyio.to_thread.run_sync(
                self.state.submit_request, values["email"], values["zweck"]
            )
        except BurstLimitError as exc:
            return self.manners.message("burst_limit", [header("retry-after", exc.retry_after)])
        body = {
            "detail": self.settings.message("request_stored"),
            "request_id": request.id,
            "status": request.status,
        }
        return self.manners.json(route.status, body)

    async def _read_body(self, receive: Receive) -> bytes | None:
        """Read the whole body; return None as soon as it exceeds the limit."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.settings.max_body_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _too_large(self, headers: Mapping[str, str]) -> bool:
        length = headers.get("content-length", "")
        return length.isdigit() and int(length) > self.settings.max_body_bytes
