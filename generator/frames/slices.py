"""Frames put together from slices of others, without holding them twice."""

from __future__ import annotations

from collections.abc import Callable

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


FEW_KEYS = 64
"""Up to so many zones, `rows_of` finds their rows by binary search rather than a filter;
up to so many slices, `merged` leaves its frame in slices."""


def rows_of(frame: pl.DataFrame, key: str, values: pl.Series) -> pl.DataFrame:
    """Return the rows of `frame`, sorted by its column `key`, whose key is among `values`.

    Of a few values, found by a binary search each, not by a scan of every row: a daily
    update's few zones among ten million data points. `values` are sorted and distinct.
    """
    column = frame.get_column(key)
    if values.len() > FEW_KEYS:
        return frame.filter(pl.col(key).is_in(values.implode()))
    values = values.cast(column.dtype)
    starts = column.search_sorted(values, side="left").to_list()
    ends = column.search_sorted(values, side="right").to_list()
    parts = [frame.slice(at, end - at) for at, end in zip(starts, ends, strict=True) if end > at]
    return pl.concat(parts) if parts else frame.clear()


def spliced(
    frame: pl.DataFrame,
    key: str,
    values: pl.Series,
    run: Callable[[int, int, int], pl.DataFrame],
) -> list[pl.DataFrame]:
    """Return `frame` as slices, the rows of each of `values` replaced by `run`.

    `frame` is sorted by its column `key`, `values` are sorted and distinct; `run(i, start,
    end)` gives the rows that take the place of `frame`'s rows `start:end`, those of
    `values[i]` (none: where they would be).
    """
    column = frame.get_column(key)
    starts = column.search_sorted(values, side="left").to_list()
    ends = column.search_sorted(values, side="right").to_list()
    parts, at = [], 0
    for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
        parts += [frame.slice(at, start - at), run(i, start, end)]
        at = end
    parts.append(frame.slice(at))
    return parts


def merged(previous: pl.DataFrame, kept: pl.Series, derived: pl.DataFrame) -> pl.DataFrame:
    """Return the current values of kept and derived zones in zone order, as derived whole.

    `previous` holds every zone's rows of the previous build, in zone order, `derived` the
    rows of the zones not `kept`. Each zone not kept has its rows replaced by slices: a
    few stay slices, many are made one chunk per column, one column at a time.
    """
    distinct = previous.get_column("zone_id").unique()
    replaced = distinct.filter(~distinct.is_in(kept.implode()))
    replaced = pl.concat([replaced, derived.get_column("zone_id")]).unique().sort()
    own = derived.get_column("zone_id")
    lows = own.search_sorted(replaced, side="left").to_list()
    highs = own.search_sorted(replaced, side="right").to_list()
    parts = spliced(
        previous, "zone_id", replaced, lambda i, _, __: derived.slice(lows[i], highs[i] - lows[i])
    )
    del previous
    if len(parts) <= FEW_KEYS:
        # A daily update's few zones: a filter or join over a few chunks costs what it does
        # over one, and making one chunk of a million rows took a third of a second.
        return pl.concat(parts, how="vertical_relaxed", rechunk=False)
    return side_by_side(parts)
