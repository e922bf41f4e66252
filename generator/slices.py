"""Frames put together from slices of others, without holding them twice."""

from __future__ import annotations

import polars as pl


def side_by_side(parts: list[pl.DataFrame]) -> pl.DataFrame:
    """Return the current values of `parts` one below the other, taking them from the list.

    One chunk per column, made one column at a time (renderers filter these rows per batch
    on several threads): at no time are the parts held twice.
    """
    values = pl.concat(parts, how="vertical_relaxed", rechunk=False)
    parts.clear()
    for name in values.columns:
        values = values.with_columns(values.get_column(name).rechunk())
    return values


FEW_CHUNKS = 64
"""Up to so many slices, the merged current values stay in slices (`merged`)."""


def merged(previous: pl.DataFrame, kept: pl.Series, derived: pl.DataFrame) -> pl.DataFrame:
    """Return the current values of kept and derived zones in zone order, as derived whole.

    `previous` holds every zone's rows of the previous build, in zone order, `derived` the
    rows of the zones not `kept`. Each zone not kept has its rows replaced by slices: a
    few stay slices, many are made one chunk per column, one column at a time.
    """
    zone = previous.get_column("zone_id")
    distinct = zone.unique()
    replaced = distinct.filter(~distinct.is_in(kept.implode()))
    replaced = pl.concat([replaced, derived.get_column("zone_id")]).unique().sort()
    cut = zip(
        zone.search_sorted(replaced, side="left").to_list(),
        zone.search_sorted(replaced, side="right").to_list(),
        derived.get_column("zone_id").search_sorted(replaced, side="left").to_list(),
        derived.get_column("zone_id").search_sorted(replaced, side="right").to_list(),
        strict=True,
    )
    parts, start = [], 0
    for lo, hi, new_lo, new_hi in cut:
        parts += [previous.slice(start, lo - start), derived.slice(new_lo, new_hi - new_lo)]
        start = hi
    parts.append(previous.slice(start))
    del previous
    if len(parts) <= FEW_CHUNKS:
        # A daily update's few zones: a filter or join over a few chunks costs what it does
        # over one, and making one chunk of a million rows took a third of a second.
        return pl.concat(parts, how="vertical_relaxed", rechunk=False)
    return side_by_side(parts)
