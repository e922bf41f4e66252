"""Deterministic JSON: sorted keys, UTF-8, a trailing newline; the same from Python and polars."""

from __future__ import annotations

import json

import polars as pl


def json_bytes(value: object) -> bytes:
    """Serialise a Python value: sorted keys, UTF-8, trailing newline."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (text + "\n").encode()


def obj(*fields: pl.Expr | str) -> pl.Expr:
    """Return a struct whose fields are sorted by name (a JSON object with sorted keys)."""
    exprs = [pl.col(f) if isinstance(f, str) else f for f in fields]
    return pl.struct(sorted(exprs, key=lambda e: e.meta.output_name()))


def const(value: dict) -> pl.Expr:
    """Return a constant struct (e.g. the attribution) for every row."""
    return obj(*(pl.lit(v).alias(k) for k, v in value.items()))
