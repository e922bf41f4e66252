"""HTTP manners both gates share: content types, CORS and cache headers, file names, ids.

Values that depend on the settings (cache ages, the license URL) are templates with named
placeholders; `GateSettings` fills them, and `routes.json` carries them filled.
"""

from __future__ import annotations

import gzip
import re
import string
from dataclasses import dataclass

KEY_HEADER = "X-Api-Key"
"""The header that carries the API key (names are case-insensitive in HTTP)."""

HIDDEN_DIR = "_data"
"""Top folder of the keyed files: never served directly, only through a route."""

MEDIA_TYPES = {
    ".json": "application/json",
    ".csv": "text/csv",
    ".parquet": "application/vnd.apache.parquet",
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".svg": "image/svg+xml",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".xml": "application/xml",
    ".ttl": "text/turtle",
    ".atom": "application/atom+xml",
    ".webmanifest": "application/manifest+json",
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
"""The one table of media types, by lower-case file suffix: OpenAPI, the Data Package and
both gates' Content-Type read it."""
TEXT_SUFFIXES = (
    ".json",
    ".csv",
    ".html",
    ".css",
    ".js",
    ".mjs",
    ".svg",
    ".txt",
    ".md",
    ".xml",
    ".ttl",
    ".atom",
    ".webmanifest",
)
"""Text files: answered with `; charset=utf-8`, and compressed."""
TEXT_MEDIA_TYPES = tuple(dict.fromkeys(MEDIA_TYPES[s] for s in TEXT_SUFFIXES))
CONTENT_TYPES = {
    suffix: f"{media}; charset=utf-8" if suffix in TEXT_SUFFIXES else media
    for suffix, media in MEDIA_TYPES.items()
}
"""The Content-Type header by suffix; anything else is DEFAULT_CONTENT_TYPE."""
DEFAULT_CONTENT_TYPE = "application/octet-stream"

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""Every page's policy: scripts, styles, images and requests from the site's own origin only,
no inline script (a `javascript:` URL or an injected `<script>` does not run). Style
attributes stay allowed for the share bars' widths, `<style>` elements do not. The Python gate
sends it with every HTML answer; netlify.toml declares the same value for the CDN."""
JSON_TYPE = CONTENT_TYPES[".json"]

EXPOSED_HEADERS = (
    "ETag",
    "Link",
    "Content-Disposition",
    "Retry-After",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
)
"""What a script on another origin may read (Access-Control-Expose-Headers)."""
ALLOWED_REQUEST_HEADERS = (KEY_HEADER, "Content-Type", "If-None-Match")
"""What a preflight allows a script on another origin to send."""
PREFLIGHT_MAX_AGE = 86400
"""Seconds a browser may keep a preflight answer (and its Cache-Control max-age)."""

CACHE = {
    "open": "public, max-age={open_max_age}",
    "keyed": "private, max-age={keyed_max_age}",
    "site": "public, max-age=0, must-revalidate",
    "error": "no-store",
    "preflight": "public, max-age={preflight_max_age}",
}
"""Cache-Control by kind of answer: open and keyed API files, site pages, errors and access
requests, preflights."""

WWW_AUTHENTICATE = 'ApiKey header="{key_header}"'
"""Sent with the 401 of a missing key."""
LICENSE_LINK = '<{license_url}>; rel="license"'
"""Link header of every ODbL-licensed answer."""
DOWNLOAD_SUFFIXES = (".csv",)
CONTENT_DISPOSITION = 'attachment; filename="{filename}"'
"""Sent with files of DOWNLOAD_SUFFIXES, so a browser saves them instead of showing them."""

FILE_SEGMENT_PATTERN = r"^[^./\\\x00-\x1f\x7f][^/\\\x00-\x1f\x7f]*$"
FILE_SEGMENT_MAX_BYTES = 200
"""A parameter value becomes part of a file name only if it is one harmless path segment:
no `/` or `\\`, no control character, not starting with `.` (so neither `.` nor `..`), at
most this many UTF-8 bytes (file systems allow 255 per name). Anything else has no file: the
gates answer the route's 404, never a path outside the route's folder."""
_FILE_SEGMENT = re.compile(FILE_SEGMENT_PATTERN)


def is_file_segment(value: str) -> bool:
    """Return whether `value` may stand for one segment of a backing file's path."""
    return (
        _FILE_SEGMENT.fullmatch(value) is not None
        and len(value.encode("utf-8", "surrogatepass")) <= FILE_SEGMENT_MAX_BYTES
    )


STORED_GZIP_SUFFIX = ".gz"
"""A file of the tree whose name ends so is stored gzip-compressed (a zone's series: 3.6 GB
of JSON nationally, 0.18 GB compressed). Both gates answer its decompressed bytes, with
the media type, ETag and length of those: the answer is the same as from an uncompressed file.
"""
_GZIP_MAGIC = b"\x1f\x8b"


def served_name(name: str) -> str:
    """Return the name whose suffix gives a file's media type: without `STORED_GZIP_SUFFIX`."""
    return name.removesuffix(STORED_GZIP_SUFFIX)


def served_bytes(name: str, data: bytes) -> bytes:
    """Return the bytes a file of the tree answers with: decompressed if it is stored so.

    Bytes that are not gzip (a CDN that decoded them on the way) are answered as they are:
    a JSON document never starts with the gzip magic.
    """
    if name.endswith(STORED_GZIP_SUFFIX) and data.startswith(_GZIP_MAGIC):
        return gzip.decompress(data)
    return data


def content_type(name: str) -> str:
    """Return the Content-Type of a file by its suffix (a stored file's: without `.gz`)."""
    name = served_name(name)
    dot = name.rfind(".")
    suffix = name[dot:].lower() if dot > name.rfind("/") else ""
    return CONTENT_TYPES.get(suffix, DEFAULT_CONTENT_TYPE)


@dataclass(frozen=True)
class IdFormat:
    """Public ids: a prefix and random characters of ID_ALPHABET (unguessable)."""

    prefix: str
    length: int

    @property
    def pattern(self) -> str:
        return f"^{self.prefix}[a-z0-9]{{{self.length}}}$"


ID_ALPHABET = string.ascii_lowercase + string.digits
REQUEST_ID = IdFormat("req_", 16)
"""Access requests: made by whichever gate stores the request."""
KEY_ID = IdFormat("key_", 10)
"""API keys: made by the operator's `trinkwasser keys` commands."""
