"""Deterministic JSON: sorted keys, UTF-8, a trailing newline; the same from Python and polars.

Documents are encoded from their declaration (`generator.api.resources`): `document` picks
a resource's fields from the columns of a frame, so nothing else lists them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TypeVar

import polars as pl
from isal import igzip

from generator.api.fields import Resource

V = TypeVar("V")
M = TypeVar("M", bound=Mapping[str, object])


def json_bytes(value: object) -> bytes:
    """Serialise a Python value: sorted keys, UTF-8, trailing newline."""
    return (json_text(value) + "\n").encode()


def json_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def obj(*fields: pl.Expr | str) -> pl.Expr:
    """Return a struct whose fields are sorted by name (a JSON object with sorted keys)."""
    exprs: list[pl.Expr] = [pl.col(f) if isinstance(f, str) else f for f in fields]
    ordered = sorted(exprs, key=_output_name)
    return pl.struct(ordered)


def _output_name(expr: pl.Expr) -> str:
    return expr.meta.output_name()


def _check(resource: Resource, given: set[str]) -> None:
    unknown = given - set(resource.names)
    if unknown:
        raise KeyError(f"{resource.name} declares no field {', '.join(sorted(unknown))}")


def document(resource: Resource, prefix: str = "", **given: pl.Expr) -> pl.Expr:
    """Return the struct of one resource per row: each declared field, keys sorted.

    A field is the column `prefix + name` unless an expression is given for it.
    """
    _check(resource, set(given))
    return obj(*(given.get(name, pl.col(prefix + name)).alias(name) for name in resource.names))


def checked(resource: Resource, value: M) -> M:
    """Return `value` if its keys are exactly the fields of `resource`, else raise."""
    if set(value) != set(resource.names):
        raise KeyError(f"{resource.name} has fields {resource.names}, given {sorted(value)}")
    return value


def constant(resource: Resource, value: Mapping[str, object]) -> pl.Expr:
    """Return a constant struct (e.g. the attribution) for every row."""
    return obj(*(pl.lit(v).alias(k) for k, v in checked(resource, value).items()))


def _members(resource: Resource, parts: dict[str, V]) -> list[tuple[str, V]]:
    return sorted(checked(resource, parts).items())


def object_bytes(resource: Resource, **parts: bytes) -> bytes:
    """Join members already encoded as JSON into one document of `resource` (a line)."""
    members = [json_text(k).encode() + b":" + v for k, v in _members(resource, parts)]
    return b"{" + b",".join(members) + b"}\n"


def file_digest(data: bytes) -> str:
    """Return the SHA-256 of a file's bytes, in hex (the manifest, versioned asset URLs)."""
    return hashlib.sha256(data).hexdigest()


STORED_GZIP_LEVEL = 2
"""ISA-L's level for stored files (0 to 3). On the national series it compresses about
3 GB/s, five times zlib's level 3, to the same size within 1 % (a twentieth of the bytes):
with zlib, compressing them was about a tenth of a full build's CPU time."""


def stored_gzip(data: bytes) -> bytes:
    """Compress a file stored as gzip (`generator.api.http.STORED_GZIP_SUFFIX`), reproducibly.

    No name and no time in the header: the same bytes in, the same bytes out. ISA-L
    (`isal`, its `igzip`) writes the gzip format any client reads, and lets go of the GIL
    while it compresses, so the render threads compress side by side.
    """
    return igzip.compress(data, compresslevel=STORED_GZIP_LEVEL, mtime=0)
