"""The gate as an ASGI application: the API behind keys and quota, and the static site.

A plain ASGI callable rather than a framework app: the gate must control every byte of its
answers (FastAPI-identical 422 bodies) and see the raw request path (encoded slashes are
refused, not decoded into a different route), and it has only one kind of route.

Order for an API route (DESIGN §7): route match (404/405) -> body size (413) -> parameter
validation (422) -> key (401/403) -> quota (429) -> resource (404 with a clear detail) -> 200.
Everything else under the build directory is served as static files, except `_data/`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import parse_qsl, quote, unquote

import anyio

from generator.api import routes as route_table
from generator.api.settings import KEY_HEADER, GateSettings
from generator.gate import keys as key_tools
from generator.gate.state import BurstLimitError, SqliteState
from generator.gate.validation import BodyParseError, error_body, validate

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

HIDDEN_DIR = "_data"
STREAM_ABOVE = 1 << 20  # bytes; smaller files are read in one go
CHUNK = 1 << 16
ETAG_CACHE_SIZE = 8192

CONTENT_TYPES = {
    ".json": "application/json; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
    ".parquet": "application/vnd.apache.parquet",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".xml": "application/xml; charset=utf-8",
    ".webmanifest": "application/manifest+json; charset=utf-8",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".pdf": "application/pdf",
    ".zip": "application/zip",
}
JSON_TYPE = CONTENT_TYPES[".json"]
EXPOSED = (
    "ETag, Link, Content-Disposition, Retry-After, X-RateLimit-Limit, "
    "X-RateLimit-Remaining, X-RateLimit-Reset"
)
ALLOWED_REQUEST_HEADERS = f"{KEY_HEADER}, Content-Type, If-None-Match"
SITE_CACHE = "public, max-age=0, must-revalidate"
SEARCH_PATH = "suche"  # the site's search form target, redirected to the PLZ page
_ENCODED_SEPARATOR = re.compile(r"%(2f|5c)", re.IGNORECASE)

Headers = list[tuple[bytes, bytes]]


def _h(name: str, value: str | int) -> tuple[bytes, bytes]:
    return name.lower().encode("latin-1"), str(value).encode("latin-1")


def _json(value: Any) -> bytes:
    # The layout FastAPI's JSONResponse uses, so every gate-made body looks alike.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@dataclass
class Response:
    status: int
    headers: Headers = field(default_factory=list)
    body: bytes = b""
    file: BinaryIO | None = None
    """Stream this open file as the body (large files) instead of `body`; closed after."""
    length: int | None = None


def split_path(raw_path: bytes) -> list[str] | None:
    """Return the decoded segments of a request path, or None if it is not a safe path.

    Refused: anything not starting with `/`, encoded `/` or `\\` (they would let one segment
    become two), `\\` and NUL, `.` and `..` segments, and empty segments (`//`) except a
    trailing slash.
    """
    if not raw_path.startswith(b"/"):
        return None
    try:
        text = raw_path.decode("ascii")
    except UnicodeDecodeError:
        return None
    if _ENCODED_SEPARATOR.search(text) or "\\" in text:
        return None
    segments = [unquote(s, errors="replace") for s in text[1:].split("/")]
    last = len(segments) - 1
    for i, segment in enumerate(segments):
        if segment in (".", "..") or "\x00" in segment or "\\" in segment:
            return None
        if segment == "" and i != last:
            return None
    return segments


def _etag_matches(header: str, etag: str) -> bool:
    """Apply If-None-Match (weak comparison, lists and `*`)."""
    header = header.strip()
    if header == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == bare for tag in header.split(","))


class _Route:
    """A table route compiled for matching path segments."""

    def __init__(self, route: route_table.Route):
        self.route = route
        self.segments = route.path.strip("/").split("/")

    def match(self, segments: list[str]) -> dict[str, str] | None:
        if len(segments) != len(self.segments):
            return None
        params = {}
        for template, segment in zip(self.segments, segments, strict=True):
            if template.startswith("{"):
                if not segment:
                    return None
                params[template[1:-1]] = segment
            elif template != segment:
                return None
        return params


class Gate:
    """The ASGI application: `Gate(build_dir, state, settings)` is called per request."""

    def __init__(self, build_dir: Path, state: SqliteState, settings: GateSettings):
        self.root = Path(build_dir).resolve()
        self.state = state
        self.settings = settings
        self.routes = [_Route(r) for r in route_table.ROUTES]
        # Open files of ODbL routes get the licence link when fetched by file name too;
        # `plz-zonen.{format}` becomes `plz-zonen.*`, which covers the Parquet export as well.
        self.odbl_files = sorted(
            re.sub(r"\{\w+\}", "*", r.file)
            for r in route_table.ROUTES
            if r.license == "odbl" and r.file
        )
        self._etags: OrderedDict[tuple, str] = OrderedDict()

    # -- ASGI entry

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        response = await self.handle(scope, receive)
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

    async def _send(self, scope: Scope, response: Response, send: Send) -> None:
        headers = response.headers
        if response.status != 304:
            length = response.length if response.length is not None else len(response.body)
            headers = [*headers, _h("content-length", length)]
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

    # -- dispatch

    async def handle(self, scope: Scope, receive: Receive) -> Response:
        """Answer one HTTP request."""
        # Servers other than uvicorn may omit raw_path; re-encoding the decoded path then
        # loses only the distinction of encoded slashes, which split_path cannot see anyway.
        raw_path = scope.get("raw_path") or quote(scope["path"]).encode("ascii")
        segments = split_path(raw_path)
        if segments is None or segments[0] == HIDDEN_DIR:
            return self.not_found()
        if any(s.startswith(".") for s in segments):
            return self.not_found()
        if segments[0] == "v1":
            matches = [(r.route, p) for r in self.routes if (p := r.match(segments)) is not None]
            if matches:
                return await self.api(scope, receive, matches)
        return self.static(scope, segments)

    def _headers(self, scope: Scope) -> dict[str, str]:
        headers: dict[str, str] = {}
        for name, value in scope["headers"]:
            headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
        return headers

    # -- API routes

    async def api(
        self, scope: Scope, receive: Receive, matches: list[tuple[route_table.Route, dict]]
    ) -> Response:
        method = scope["method"]
        allowed = {r.method for r, _ in matches}
        if "GET" in allowed:
            allowed.add("HEAD")
        allow = ", ".join(sorted(allowed | {"OPTIONS"}))
        if method == "OPTIONS":
            return self.preflight(allow)
        wanted = "GET" if method == "HEAD" else method
        found = [(r, p) for r, p in matches if r.method == wanted]
        if not found:
            return self.error(405, "Method Not Allowed", [_h("allow", allow)])
        route, path_params = found[0]
        headers = self._headers(scope)

        body = None
        if self._too_large(headers):
            return self.too_large()
        if any(p.location == "body" for p in route.params):
            body = await self._read_body(receive)
            if body is None:
                return self.too_large()
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        try:
            result = validate(route, path_params, query, body, headers.get("content-type"))
        except BodyParseError as exc:
            return self.error(400, exc.detail)
        if result.errors:
            return Response(422, self._base(JSON_TYPE, "no-store"), error_body(result.errors))

        extra: Headers = []
        if route.access == "key":
            refused = self._check_key(headers.get(KEY_HEADER.lower(), ""), extra)
            if refused is not None:
                return refused
        if route.method == "POST":
            return await self.access_request(result.values)
        cache = (
            f"private, max-age={self.settings.keyed_max_age}"
            if route.access == "key"
            else f"public, max-age={self.settings.open_max_age}"
        )
        licence = [self._license_link()] if route.license == "odbl" else []
        response = self.file(route.file_for(result.values), headers, cache, [*extra, *licence])
        if response is None:
            return self.error(404, route.detail_for(result.values), extra)
        return response

    def _check_key(self, presented: str, extra: Headers) -> Response | None:
        """Check the key and count the request; return the refusal, or None to go on.

        The rate-limit headers of a counted request are appended to `extra`.
        """
        presented = presented.strip()
        if not presented:
            return self.error(
                401,
                f"Missing API key: send it in the {KEY_HEADER} header. "
                "Request a key with POST /v1/keys/antrag.",
                [_h("www-authenticate", f'ApiKey header="{KEY_HEADER}"')],
            )
        api_key = key_tools.authenticate(self.state, presented)
        if api_key is None:
            return self.error(403, "Invalid API key.")
        if not api_key.active:
            return self.error(403, "This API key has been revoked.")
        usage = self.state.consume(api_key.id)
        extra += [
            _h("x-ratelimit-limit", usage.limit),
            _h("x-ratelimit-remaining", usage.remaining),
            _h("x-ratelimit-reset", int(usage.reset_at.timestamp())),
        ]
        if not usage.allowed:
            reset = usage.reset_at.isoformat()
            return self.error(
                429,
                f"Daily quota of {usage.limit} requests used up. It resets at midnight "
                f"Europe/Berlin ({reset}), in {usage.retry_after} seconds.",
                [*extra, _h("retry-after", usage.retry_after)],
            )
        return None

    async def access_request(self, values: dict[str, Any]) -> Response:
        try:
            # Runs in a worker thread: the durable commit waits for the disk.
            request = await anyio.to_thread.run_sync(
                self.state.submit_request, values["email"], values["zweck"]
            )
        except BurstLimitError as exc:
            return self.error(429, str(exc), [_h("retry-after", exc.retry_after)])
        body = {
            "detail": "Your request is stored. An operator reviews it and sends the key to "
            "your address; the key is never part of this answer.",
            "request_id": request.id,
            "status": request.status,
        }
        return Response(202, self._base(JSON_TYPE, "no-store"), _json(body))

    async def _read_body(self, receive: Receive) -> bytes | None:
        """Read the whole body; return None as soon as it exceeds the limit."""
        chunks, size = [], 0
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

    def _too_large(self, headers: dict[str, str]) -> bool:
        length = headers.get("content-length", "")
        return length.isdigit() and int(length) > self.settings.max_body_bytes

    # -- static files

    def static(self, scope: Scope, segments: list[str]) -> Response:
        """Serve a published file: the site, and open files under /v1 that are no route."""
        method = scope["method"]
        api = segments[0] == "v1"
        rel = "/".join(segments)
        if rel.rstrip("/") == SEARCH_PATH and method in ("GET", "HEAD"):
            redirect = self._search_redirect(scope)
            if redirect is not None:
                return redirect
        candidates = [rel + "index.html"] if rel == "" or rel.endswith("/") else [rel]
        target = self._inside(candidates[0])
        if not api and target is not None and target.is_dir():
            query = scope.get("query_string", b"").decode("latin-1")
            location = quote(f"/{rel}/") + (f"?{query}" if query else "")
            return Response(301, [*self._base(None, SITE_CACHE), _h("location", location)])
        if not api and not rel.endswith("/") and rel:
            candidates.append(rel + ".html")  # pretty URLs, as Netlify serves them
        allow = "GET, HEAD, OPTIONS"
        for candidate in candidates:
            target = self._inside(candidate)
            if target is None or not target.is_file():
                continue
            if method == "OPTIONS":
                return self.preflight(allow)
            if method not in ("GET", "HEAD"):
                return self.error(405, "Method Not Allowed", [_h("allow", allow)])
            extra: Headers = []
            if any(fnmatchcase(candidate, g) for g in self.odbl_files):
                extra.append(self._license_link())
            cache = f"public, max-age={self.settings.open_max_age}" if api else SITE_CACHE
            response = self.file(candidate, self._headers(scope), cache, extra)
            if response is not None:
                return response
        if method == "OPTIONS" and api:
            return self.preflight("GET, HEAD, OPTIONS, POST")
        if not api:
            page = self._inside("404.html")
            if page is not None and page.is_file():
                body = page.read_bytes()
                return Response(404, self._base(CONTENT_TYPES[".html"], "no-store"), body)
        return self.not_found()

    def _search_redirect(self, scope: Scope) -> Response | None:
        """Apply the site's search rule (Netlify: `/suche plz=:plz /plz/:plz/ 302`)."""
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        if not query.get("plz"):
            return None  # the rule needs the parameter, as on Netlify: the 404 page follows
        # Imported here: the site package pulls in the page renderer, which the gate does not
        # need for anything else.
        from generator.site.urls import search_target

        location = search_target(query["plz"])
        return Response(302, [*self._base(None, "no-store"), _h("location", location)])

    def _inside(self, rel: str) -> Path | None:
        """Return the path of `rel` in the build directory, or None if it would leave it."""
        path = self.root / rel
        real = os.path.realpath(path)
        if real != str(self.root) and not real.startswith(str(self.root) + os.sep):
            return None
        return path

    def file(
        self, rel: str, headers: dict[str, str], cache: str, extra: Headers
    ) -> Response | None:
        """Answer a file of the build with ETag/304 handling; None if there is no such file."""
        path = self._inside(rel)
        if path is None:
            return None
        try:
            fd = os.open(path, os.O_RDONLY)
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError):
            return None
        # Everything goes through this one descriptor: if a new build is swapped in meanwhile,
        # the ETag and the bytes still belong to the same file.
        fh = os.fdopen(fd, "rb")
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            fh.close()
            return None
        small = info.st_size <= STREAM_ABOVE
        body = fh.read() if small else b""
        cache_key = (str(path), info.st_ino, info.st_mtime_ns, info.st_size)
        etag = self._etags.get(cache_key) or self._remember_etag(cache_key, body if small else fh)
        if small:
            fh.close()
        content_type = CONTENT_TYPES.get(Path(rel).suffix.lower(), "application/octet-stream")
        out = [*self._base(content_type, cache), _h("etag", etag), *extra]
        if rel.endswith(".csv"):
            out.append(_h("content-disposition", f'attachment; filename="{Path(rel).name}"'))
        if _etag_matches(headers.get("if-none-match", ""), etag):
            if not small:
                fh.close()
            return Response(304, out)
        if not small:
            return Response(200, out, file=fh, length=info.st_size)
        return Response(200, out, body)

    def _remember_etag(self, cache_key: tuple, content: bytes | BinaryIO) -> str:
        digest = hashlib.sha256()
        if isinstance(content, bytes):
            digest.update(content)
        else:
            for chunk in iter(lambda: content.read(CHUNK), b""):
                digest.update(chunk)
            content.seek(0)
        etag = f'"{digest.hexdigest()[:32]}"'
        self._etags[cache_key] = etag
        if len(self._etags) > ETAG_CACHE_SIZE:
            self._etags.popitem(last=False)
        return etag

    # -- small answers

    def _base(self, content_type: str | None, cache: str) -> Headers:
        headers = [
            _h("access-control-allow-origin", "*"),
            _h("access-control-expose-headers", EXPOSED),
            _h("x-content-type-options", "nosniff"),
            _h("cache-control", cache),
        ]
        if content_type:
            headers.insert(0, _h("content-type", content_type))
        return headers

    def _license_link(self) -> tuple[bytes, bytes]:
        return _h("link", f'<{self.settings.license_url}>; rel="license"')

    def error(self, status: int, detail: str, extra: Headers = ()) -> Response:
        headers = [*self._base(JSON_TYPE, "no-store"), *extra]
        return Response(status, headers, _json({"detail": detail}))

    def not_found(self) -> Response:
        return self.error(404, "Not Found")

    def too_large(self) -> Response:
        return self.error(
            413, f"Request body too large: at most {self.settings.max_body_bytes} bytes."
        )

    def preflight(self, allow: str) -> Response:
        """Answer a CORS preflight (and plain OPTIONS): which methods and headers may come."""
        headers = [
            _h("access-control-allow-origin", "*"),
            _h("access-control-allow-methods", allow),
            _h("access-control-allow-headers", ALLOWED_REQUEST_HEADERS),
            _h("access-control-max-age", 86400),
            _h("allow", allow),
            _h("cache-control", "public, max-age=86400"),
        ]
        return Response(204, headers)


def create_app(build_dir: Path, state: SqliteState, settings: GateSettings | None = None) -> Gate:
    """Return the gate for a build directory and a state (tests pass a state with a clock)."""
    return Gate(build_dir, state, settings or state.settings)
