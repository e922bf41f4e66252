"""The gate's answers as data, and the headers every answer carries.

Bodies, headers and their wording come from the service contract (`generator.api`); this
module only puts them into ASGI's shape (lower-case byte headers).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO
from urllib.parse import unquote

from generator.api import http
from generator.api.messages import MESSAGES
from generator.api.settings import GateSettings

Headers = list[tuple[bytes, bytes]]

_ENCODED_SEPARATOR = re.compile(r"%(2f|5c)", re.IGNORECASE)


def header(name: str, value: str | int) -> tuple[bytes, bytes]:
    return name.lower().encode("latin-1"), str(value).encode("latin-1")


def json_bytes(value: Any) -> bytes:
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


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Apply If-None-Match (weak comparison, lists and `*`)."""
    value = if_none_match.strip()
    if value == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == bare for tag in value.split(","))


class Manners:
    """The headers and small answers of one gate, filled from its settings."""

    def __init__(self, settings: GateSettings):
        self.settings = settings
        self.cache = settings.cache()
        self.exposed = ", ".join(http.EXPOSED_HEADERS)
        self.allowed = ", ".join(http.ALLOWED_REQUEST_HEADERS)

    def base(self, content_type: str | None, cache: str) -> Headers:
        """Headers of every answer but a preflight: type, CORS, nosniff, Cache-Control."""
        headers = [
            header("access-control-allow-origin", "*"),
            header("access-control-expose-headers", self.exposed),
            header("x-content-type-options", "nosniff"),
            header("cache-control", cache),
        ]
        if content_type:
            headers.insert(0, header("content-type", content_type))
        return headers

    def json(self, status: int, value: Any, extra: Sequence[tuple[bytes, bytes]] = ()) -> Response:
        """Answer with uncacheable JSON (errors, 422s, access requests)."""
        headers = [*self.base(http.JSON_TYPE, self.cache["error"]), *extra]
        return Response(status, headers, json_bytes(value))

    def message(
        self, name: str, extra: Sequence[tuple[bytes, bytes]] = (), **runtime: object
    ) -> Response:
        """Answer with one of the contract's messages (`"key_invalid"`, say)."""
        detail = self.settings.message(name, **runtime)
        return self.json(MESSAGES[name].status, {"detail": detail}, extra)

    def not_found(
        self, detail: str | None = None, extra: Sequence[tuple[bytes, bytes]] = ()
    ) -> Response:
        if detail is None:
            return self.message("not_found", extra)
        return self.json(MESSAGES["not_found"].status, {"detail": detail}, extra)

    def license_link(self) -> tuple[bytes, bytes]:
        return header("link", self.settings.header(http.LICENSE_LINK))

    def preflight(self, allow: str) -> Response:
        """Answer a CORS preflight (and plain OPTIONS): which methods and headers may come."""
        headers = [
            header("access-control-allow-origin", "*"),
            header("access-control-allow-methods", allow),
            header("access-control-allow-headers", self.allowed),
            header("access-control-max-age", http.PREFLIGHT_MAX_AGE),
            header("allow", allow),
            header("cache-control", self.cache["preflight"]),
        ]
        return Response(204, headers)
