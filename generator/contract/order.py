"""The order of a table's rows, told by comparing each row with the next.

Each row is compared with the next one column after the other, on zero-copy slices, so a
test needs a few bits per row: sorting a table that is already in order would only copy
it (10 million measurements are some hundreds of MiB), and in a table in key order two
rows with the same key are neighbours.
"""

from __future__ import annotations

import polars as pl


def neighbours(frame: pl.DataFrame, columns: tuple[str, ...]) -> pl.DataFrame:
    """Return, for each row but the last, how it compares with the next on `columns`.

    `before`: it sorts strictly before the next (nulls first); `same`: every column is
    equal (two nulls are).
    """
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


def as_declared(frame: pl.DataFrame, columns: tuple[str, ...]) -> pl.DataFrame:
    """Return `frame` sorted by `columns` (nulls first); as it is when already in order.

    Stable: rows that tie keep the order of the file.
    """
    if not columns or in_order(frame, columns):
        return frame
    return frame.sort(list(columns), nulls_last=False, maintain_order=True)
