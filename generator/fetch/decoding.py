"""Content codings of a response, decoded in small pieces under the size cap.

Only `gzip` and `deflate` are asked for (Accept-Encoding) and accepted, in one layer: a
server that answers with another coding (`br`, `zstd`, `compress`) or stacks them
(`gzip, gzip`) gets the source marked failed, with the reason. The decoder never makes more
than `PIECE` bytes at once and counts them as it goes, so a body that inflates a thousandfold
(a "decompression bomb") is dropped after at most the cap plus one piece, after
milliseconds, and without ever holding more than that in memory.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

ACCEPT_ENCODING = "gzip, deflate"
"""What the requests say they accept (identity, no coding, is always acceptable)."""
PIECE = 64 * 1024
"""The most bytes one decoding step makes (the event loop gets a turn between two)."""
_GZIP = ("gzip", "x-gzip")


class CodingRefused(Exception):
    """The response's coding is not accepted, damaged, or decodes past the size cap."""


def coding(values: list[str]) -> str:
    """Return the one coding of a response from its Content-Encoding headers ("" for none)."""
    named = [v.strip().lower() for value in values for v in value.split(",")]
    layers = [v for v in named if v and v != "identity"]
    shown = ", ".join(values)
    if len(layers) > 1:
        raise CodingRefused(
            f"encoded in {len(layers)} layers (Content-Encoding: {shown}); one layer of "
            "gzip or deflate is accepted"
        )
    if layers and layers[0] not in (*_GZIP, "deflate"):
        raise CodingRefused(
            f"Content-Encoding {shown} is not accepted (gzip, deflate or none were asked for)"
        )
    return layers[0] if layers else ""


class BoundedDecoder:
    """Decode one response body in pieces of at most PIECE bytes, `limit` bytes in all."""

    def __init__(self, name: str, limit: int):
        self.name = name
        self.limit = limit
        self.size = 0
        """Decoded bytes so far."""
        self._obj: zlib._Decompress | None = None
        self._head = b""  # deflate: the first bytes, until the format is known

    def _check(self, piece: bytes) -> bytes:
        self.size += len(piece)
        if self.size > self.limit:
            raise CodingRefused(f"larger than the size cap ({self.limit} bytes)")
        return piece

    def _start(self, data: bytes) -> bytes | None:
        """Choose the decompressor; return the data to feed it (None: wait for more)."""
        if self.name in _GZIP:
            self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
            return data
        data = self._head + data
        if len(data) < 2:
            self._head = data
            return None
        # RFC 9110 deflate is the zlib format; some servers send raw deflate (as browsers
        # accept): a zlib header is a deflate method byte whose pair divides by 31.
        wrapped = data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
        self._obj = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        return data

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Yield the decoded pieces of the next received bytes."""
        if not self.name:
            if data:
                yield self._check(data)
            return
        if self._obj is None:
            started = self._start(data)
            if started is None:
                return
            data = started
        yield from self._drain(data)

    def finish(self) -> Iterator[bytes]:
        """Yield what is left once the body has ended."""
        if self.name and self._obj is None and self._head:
            self._obj = zlib.decompressobj(-zlib.MAX_WBITS)
            yield from self._drain(self._head)
        if self._obj is not None:
            yield from self._drain(b"")
            try:
                rest = self._obj.flush()
            except zlib.error as exc:
                raise CodingRefused(f"the {self.name} coding is damaged ({exc})") from None
            if rest:
                yield self._check(rest)
            if not self._obj.eof:
                raise CodingRefused(f"the {self.name} coding is damaged (it ends too early)")

    def _drain(self, data: bytes) -> Iterator[bytes]:
        obj = self._obj
        assert obj is not None
        while not obj.eof:  # bytes after the end of the stream are ignored, as browsers do
            try:
                piece = obj.decompress(data, PIECE)
            except zlib.error as exc:
                raise CodingRefused(f"the {self.name} coding is damaged ({exc})") from None
            if piece:
                yield self._check(piece)
            data = obj.unconsumed_tail
            if not data and len(piece) < PIECE:
                return
