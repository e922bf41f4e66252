"""Compressed answers of `trinkwasser serve`: Brotli or gzip, for clients that accept them.

Only text (JSON, CSV, HTML, CSS, JS; also SVG, XML, plain text) of at least `MIN_BYTES` is
compressed. Every answer of such a type says `Vary: Accept-Encoding`, compressed or not, so
a cache keeps the encodings apart. Each encoding is its own representation with its own
strong ETag (`"<sha256>-br"`, `"<sha256>-gzip"`), so `If-None-Match` compares the tag of the
representation that would be sent. Compressed bytes of files are kept in a bounded cache,
keyed like the ETags by the file's identity, so a file is compressed once, not per request.
"""

from __future__ import annotations

import gzip

import brotli
from cachetools import LRUCache

from generator.api import http

COMPRESSIBLE = http.TEXT_MEDIA_TYPES
"""Media types (before `;`) whose answers are compressed."""
MIN_BYTES = 512
"""Smaller answers go as they are: the saving would not pay for the work."""
MAX_BYTES = 32 << 20
"""Larger files go as they are (the national tree has none; its largest is a few MB)."""
CACHE_BYTES = 64 << 20
"""Budget of the cache of compressed files."""
PREFERENCE = ("br", "gzip")
"""The server's order among encodings a client accepts equally."""
BROTLI_QUALITY = 5  # about gzip's speed at level 6, and smaller
GZIP_LEVEL = 6


def compressible(content_type: str) -> bool:
    return content_type.split(";", 1)[0].strip().lower() in COMPRESSIBLE


def choose(accept_encoding: str) -> str | None:
    """Return the encoding to answer with for an Accept-Encoding header, or None (identity).

    Follows RFC 9110: `q=0` refuses, `*` stands for any encoding not named, the highest q
    wins and the server's preference breaks ties.
    """
    weights: dict[str, float] = {}
    for item in accept_encoding.split(","):
        name, *params = (part.strip() for part in item.split(";"))
        if not name:
            continue
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights[name.lower()] = q
    best, best_q = None, 0.0
    for encoding in PREFERENCE:
        q = weights.get(encoding, weights.get("*", 0.0))
        if q > best_q:
            best, best_q = encoding, q
    return best


def encode(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        result: bytes = brotli.compress(data, quality=BROTLI_QUALITY)
        return result
    # mtime=0: the same bytes give the same gzip stream (and so the same answer every time).
    return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)


def tagged(etag: str, encoding: str) -> str:
    """Return the ETag of a representation: `"abc"` becomes `"abc-br"` (weak tags stay weak)."""
    return etag[:-1] + f'-{encoding}"'


class Cache:
    """Compressed bytes by (file identity, encoding), least recently used out first."""

    def __init__(self, budget: int = CACHE_BYTES):
        self.budget = budget
        # Weighed by their bytes: `budget` bounds the bytes held, not the count.
        self._items: LRUCache[tuple[object, str], bytes] = LRUCache(budget, getsizeof=len)

    @property
    def size(self) -> int:
        """The bytes held."""
        return int(self._items.currsize)

    def get(self, key: object, encoding: str, data: bytes) -> bytes:
        """Return `data` encoded, from the cache if this file was encoded before.

        An answer larger than an eighth of the budget is not kept: it would push out many.
        """
        entry = (key, encoding)
        found = self._items.get(entry)
        if found is not None:
            return found
        encoded = encode(data, encoding)
        if len(encoded) <= self.budget // 8:
            self._items[entry] = encoded
        return encoded
