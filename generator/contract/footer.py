"""A Parquet file's footer, read without pyarrow: its schema and where each column chunk is.

A daily update asks only this of the series file (`generator.contract.memo.digests`), and
importing pyarrow (and numpy with it) took a fifth of a second of a rebuild of a few
seconds. The footer is a Thrift struct in the compact protocol
(https://github.com/apache/parquet-format, `FileMetaData`); this reads any such struct
into field numbers and values and picks the few fields the memo needs.
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAGIC = b"PAR1"


class FooterError(ValueError):
    """The file is not Parquet, or its footer is cut short or malformed."""


@dataclass(frozen=True)
class Chunk:
    """One column chunk of a row group: how it is stored, and where its bytes are."""

    path: tuple[str, ...]
    physical_type: int
    codec: int
    encodings: tuple[int, ...]
    num_values: int
    start: int
    """The first byte: its dictionary page, else its first data page."""
    size: int
    """Its bytes as stored (compressed)."""


@dataclass(frozen=True)
class Footer:
    schema: str
    """The schema elements and the writer's Arrow schema, as text (equal text, equal schema)."""
    groups: list[tuple[int, list[Chunk]]]
    """Each row group: its rows and its column chunks."""
    metadata: dict[str, str] = field(default_factory=dict)
    """The file's key-value metadata (a writer's own, such as a build's `basis`)."""


def read_footer(path: Path) -> Footer:
    """Return the footer of Parquet file `path`; `FooterError` when it has none."""
    with Path(path).open("rb") as fh:
        fh.seek(0, 2)
        end = fh.tell()
        if end < 12:
            raise FooterError(f"{path.name} is too short for Parquet")
        fh.seek(end - 8)
        tail = fh.read(8)
        (length,) = struct.unpack("<i", tail[:4])
        if tail[4:] != MAGIC or not 0 < length <= end - 12:
            raise FooterError(f"{path.name} has no Parquet footer")
        fh.seek(end - 8 - length)
        data = fh.read(length)
    try:
        return _parsed(data)
    except (
        AttributeError,
        IndexError,
        KeyError,
        RecursionError,
        TypeError,
        ValueError,
        struct.error,
    ) as exc:
        raise FooterError(f"{path.name}: malformed Parquet footer ({exc!r})") from exc


@functools.lru_cache(maxsize=4)
def _parsed(data: bytes) -> Footer:
    """Return the footer its bytes say (the same bytes, the same footer, parsed once).

    A build reads the series' footer three times: before the load, in it and after it
    (`generator.incremental.source_prints`, `generator.contract.memo`); each parse in Python took as
    long as hashing the row groups. Callers do not change what they are given.
    """
    meta, _ = _struct(data, 0)
    return _footer(meta)


def _footer(meta: dict[int, Any]) -> Footer:
    schema = [sorted(element.items()) for element in meta[2]]
    arrow = [kv.get(2) for kv in meta.get(5, []) if kv.get(1) == b"ARROW:schema"]
    metadata = {
        kv[1].decode(errors="replace"): kv.get(2, b"").decode(errors="replace")
        for kv in meta.get(5, [])
    }
    groups = []
    for group in meta[4]:
        chunks = []
        for column in group[1]:
            m = column[3]
            pages = [m.get(11), m[9]]  # dictionary page, first data page
            chunks.append(
                Chunk(
                    tuple(p.decode() for p in m[3]),
                    m[1],
                    m[4],
                    tuple(m[2]),
                    m[5],
                    min(p for p in pages if p is not None and p > 0),
                    m[7],
                )
            )
        groups.append((group[3], chunks))
    return Footer(repr((schema, arrow)), groups, metadata)


# Thrift compact protocol: a field is a byte of (id delta << 4 | type); ints are zigzag
# varints; a list is a byte of (size << 4 | element type), size 15 then a varint.
_TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(1, 13)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
        shift += 7


def _zigzag(data: bytes, at: int) -> tuple[int, int]:
    value, at = _varint(data, at)
    return (value >> 1) ^ -(value & 1), at


def _value(data: bytes, at: int, kind: int) -> tuple[Any, int]:
    if kind in (_TRUE, _FALSE):  # in a struct the type says it (`_element`: elsewhere)
        return kind == _TRUE, at
    if kind == _BYTE:
        return struct.unpack_from("<b", data, at)[0], at + 1
    if kind in (_I16, _I32, _I64):
        return _zigzag(data, at)
    if kind == _DOUBLE:
        return struct.unpack_from("<d", data, at)[0], at + 8
    if kind == _BINARY:
        n, at = _varint(data, at)
        return bytes(data[at : at + n]), at + n
    if kind in (_LIST, _SET):
        head = data[at]
        at += 1
        size, element = head >> 4, head & 0x0F
        if size == 15:
            size, at = _varint(data, at)
        items = []
        for _ in range(_fits(data, at, size)):
            item, at = _element(data, at, element)
            items.append(item)
        return items, at
    if kind == _MAP:
        size, at = _varint(data, at)
        if not size:
            return {}, at
        types = data[at]
        at += 1
        pairs = {}
        for _ in range(_fits(data, at, size)):
            key, at = _element(data, at, types >> 4)
            pairs[key], at = _element(data, at, types & 0x0F)
        return pairs, at
    if kind == _STRUCT:
        return _struct(data, at)
    raise FooterError(f"unknown Thrift type {kind}")


def _element(data: bytes, at: int, kind: int) -> tuple[Any, int]:
    """Return an element of a list or map: a boolean there is a byte of its own."""
    if kind in (_TRUE, _FALSE):
        return data[at] == 1, at + 1
    return _value(data, at, kind)


def _fits(data: bytes, at: int, size: int) -> int:
    """Return `size`, the elements of a list or map; each takes a byte at least."""
    if size > len(data) - at:
        raise FooterError(f"{size} elements at byte {at} of a footer of {len(data)}")
    return size


def _struct(data: bytes, at: int) -> tuple[dict[int, Any], int]:
    fields: dict[int, Any] = {}
    last = 0
    while True:
        head = data[at]
        at += 1
        if head == 0:  # stop
            return fields, at
        delta, kind = head >> 4, head & 0x0F
        if delta:
            last += delta
        else:
            last, at = _zigzag(data, at)
        fields[last], at = _value(data, at, kind)
