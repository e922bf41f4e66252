"""The order of a table's rows, told by comparing each row with the next.

Each row is compared with the next one column after the other, on zero-copy slices, so a
test needs a few bits per row: sorting a table that is already in order would only copy
it (10 million measurements are some hundreds of MiB), and in a table in key order two
rows with the same key are neighbours.
"""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

from generator.frames.slices import spliced


def neighbours(frame: pl.DataFrame, columns: tuple[str, ...]) -> pl.DataFrame:
    """Return, for each row but the last, how it compares with the next on `columns`.

    `before`: it sorts strictly before the next (nulls first); `same`: every column is
    equal (two nulls are). A frame of several chunks, alike in every column (a series put
    together from its memo and a new row group), is compared chunk by chunk and across
    each boundary: a row and the next of another chunk side by side would copy every column.
    """
    keys = frame.select(columns)
    lengths = [n for n in keys.get_column(columns[0]).chunk_lengths() if n] if columns else []
    aligned = all([n for n in keys.get_column(c).chunk_lengths() if n] == lengths for c in columns)
    if len(lengths) < 2 or not aligned:
        return _neighbours(keys.rechunk(), columns)
    parts, at = [], 0
    for n in lengths:
        if at:
            parts.append(_neighbours(keys.slice(at - 1, 2), columns))  # across the boundary
        parts.append(_neighbours(keys.slice(at, n), columns))
        at += n
    return pl.concat(parts)


def _neighbours(frame: pl.DataFrame, columns: tuple[str, ...]) -> pl.DataFrame:
    pairs = pl.concat(
        [
            frame.select(columns).slice(0, frame.height - 1),
            frame.select(pl.col(c).alias(f"_next {c}") for c in columns).slice(1),
        ],
        how="horizontal",
    )
    before = pl.lit(False)  # past the last column: equal rows are not in strict order
    same = pl.lit(True)
    for c in reversed(columns):
        a, b = pl.col(c), pl.col(f"_next {c}")
        less = (a.is_null() & b.is_not_null()) | (a < b).fill_null(False)
        before = less | (a.eq_missing(b) & before)
        same = same & a.eq_missing(b)
    return pairs.select(before.alias("before"), same.alias("same"))


def in_order(frame: pl.DataFrame, columns: tuple[str, ...]) -> bool:
    """Whether every row sorts strictly after the one before it (nulls first).

    Strictly: rows that tie may come out of a sort in another order, so a table with ties
    is not in order.
    """
    if frame.height < 2:
        return True
    return bool(neighbours(frame, columns).get_column("before").all())


FEW_RUNS = 32
"""Rows appended with at most so many values of the first column are merged in by runs."""


class Declared(NamedTuple):
    """A frame in the declared order, and where two neighbours may still be equal."""

    frame: pl.DataFrame
    ties: pl.Series | None
    """The values of the first column whose rows may tie with a neighbour on every column,
    sorted and distinct (none: the frame was in strict order); None: the rows of any value
    may."""


def as_declared(frame: pl.DataFrame, columns: tuple[str, ...]) -> pl.DataFrame:
    """Return `frame` sorted by `columns` (nulls first); as it is when already in order.

    Stable: rows that tie keep the order of the file. A file in order but for a few rows
    at its end (an import appends a supplier's) has those rows merged in (`merged_tail`):
    the frame a sort gives, without sorting ten million rows for a few hundred.
    """
    return declared(frame, columns).frame


def declared(frame: pl.DataFrame, columns: tuple[str, ...]) -> Declared:
    """Return `as_declared`'s frame and, as far as the way there tells, where rows tie.

    Ties are duplicate keys when the key is `columns`: a frame found in strict order has
    none, and one with rows merged in (`merged_tail`) can have them only among the rows of
    the values those rows have (the others stay in the strict order they were found in).
    Its key is then checked on those runs, not on ten million rows again (`UniqueKey`).
    """
    if not columns or frame.height < 2:
        return Declared(frame, None)
    before = neighbours(frame, columns).get_column("before")
    if before.all():
        return Declared(frame.rechunk(), frame.get_column(columns[0]).clear())  # one chunk
    ordered = int(before.arg_min() or 0) + 1  # the rows up to the first out of order
    if _few_appended(frame, columns[0], ordered):
        merged, values = merged_tail(frame, columns, ordered)
        return Declared(merged, values)
    frame = frame.sort(list(columns), nulls_last=False, maintain_order=True)
    return Declared(frame.rechunk(), None)


def _few_appended(frame: pl.DataFrame, first: str, ordered: int) -> bool:
    """Whether the rows after `ordered` are at most an eighth, with few values of `first`.

    And `first` holds integers without nulls (`search_sorted` places them).
    """
    column = frame.get_column(first)
    return (
        (frame.height - ordered) * 8 <= frame.height
        and column.dtype.is_integer()
        and not column.null_count()
        and column.slice(ordered).n_unique() <= FEW_RUNS
    )


def merged_tail(
    frame: pl.DataFrame, columns: tuple[str, ...], ordered: int
) -> tuple[pl.DataFrame, pl.Series]:
    """Return `frame` sorted as `as_declared` does, its first `ordered` rows in strict order.

    And the values of the first column whose rows were sorted again: those of the rows
    after `ordered`.

    A sort puts the rows of one value of the first column together, in the order of the
    other columns, and keeps ties in the order of the file. So the rows after `ordered`
    are put, per value of the first column (integers without nulls), with the ordered rows
    of that value, which come before them in the file; only those runs are sorted, and
    every other row stays where it is. The result is one chunk, as a sort's: later steps
    over ten million rows were slower over slices than the copy costs here.
    """
    first = columns[0]
    head, tail = frame.slice(0, ordered), frame.slice(ordered)
    values = tail.get_column(first).unique().sort()
    keys = values.to_list()

    def run(i: int, start: int, end: int) -> pl.DataFrame:
        rows = pl.concat([head.slice(start, end - start), tail.filter(pl.col(first) == keys[i])])
        return rows.sort(list(columns), nulls_last=False, maintain_order=True)

    parts = spliced(head, first, values, run)
    # Flagged sorted as a sort flags it, so later steps take the same ways over it.
    return pl.concat(parts, rechunk=True).with_columns(pl.col(first).set_sorted()), values
