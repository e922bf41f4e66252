"""The text columns of the measurement series, held compactly from the reader on.

The series is the largest frame of a build (10 million rows at national scale) and lives
from the reader to the end of rendering. Polars holds a text cell as a 16-byte view (plus
its bytes, if longer than 12); a column of a few thousand distinct values as an `Enum` of
them is 4 bytes a row. `Enum`, not `Categorical`: its codes follow the sorted distinct
values, so they are the same in every run, whatever the threads did.

Nothing computes on the codes: the contract check types and tests each distinct text once
and spreads the answer to the rows (`per_text`), and every reader of the series takes the
rows it needs and gets their text back (`as_text`), joins a small frame of texts typed
like the series (`like`) or maps a column once per distinct text (`per_text`), so what it
sees is what it saw before, value for value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import polars as pl
import polars.selectors as cs


def compact(frame: pl.DataFrame) -> pl.DataFrame:
    """Return `frame` with every text column as an `Enum` of its sorted distinct values."""
    text = [name for name, dtype in frame.schema.items() if dtype == pl.String]
    return frame.with_columns(as_enum(frame.get_column(name)) for name in text)


def as_enum(column: pl.Series) -> pl.Series:
    """Return a text column as an `Enum` of its sorted distinct values."""
    return column.cast(pl.Enum(column.drop_nulls().unique().sort()))


def as_text(frame: pl.DataFrame) -> pl.DataFrame:
    """Return `frame` with its `Enum` columns as text again (the inverse of `compact`)."""
    return frame.with_columns(cs.enum().cast(pl.String))


def like(frame: pl.DataFrame, model: pl.DataFrame) -> pl.DataFrame:
    """Return `frame` with its text columns typed as `model`'s columns of the same name.

    For joining a small frame of texts to the compact series: an `Enum` only joins an
    `Enum` of the same values. A text the model's `Enum` lacks becomes null: no row of
    the model can match it.
    """
    return frame.with_columns(
        pl.col(name).cast(model.schema[name], strict=False)
        for name, dtype in frame.schema.items()
        if dtype == pl.String and isinstance(model.schema.get(name), pl.Enum)
    )


def per_text(frame: pl.DataFrame, name: str, expr: Callable[[pl.Expr], pl.Expr]) -> pl.Series:
    """Return `expr` of column `name` for every row, computed once per text of an `Enum`.

    An empty cell (null) counts as one more text: `expr` sees it as it would in the column.
    """
    dtype = frame.get_column(name).dtype  # not the whole schema: each `Enum` is made anew
    if not isinstance(dtype, pl.Enum):
        return frame.select(expr(pl.col(name))).to_series()
    return per_row(frame.get_column(name), _each(dtype, name, expr).to_frame())


def mapped(frame: pl.DataFrame, name: str, expr: Callable[[pl.Expr], pl.Expr]) -> pl.Series:
    """Return `expr` (text to text) of `Enum` column `name` for every row, compact.

    What `compact` of `per_text` gives, an `Enum` of the texts the rows get, without making
    a text per row: computed once per text and spread as codes.
    """
    column = frame.get_column(name)
    dtype = column.dtype
    if not isinstance(dtype, pl.Enum):  # a frame of plain text: its texts compacted
        return as_enum(frame.select(expr(pl.col(name))).to_series())
    each = _each(dtype, name, expr)
    used = column.to_physical().unique().fill_null(each.len() - 1)  # the null row's place
    values = each.gather(used).drop_nulls().unique().sort()
    # A text of no row may map to a text outside `values`: it is never spread.
    return per_row(column, each.cast(pl.Enum(values), strict=False).to_frame())


def any_row(frame: pl.DataFrame, name: str, expr: Callable[[pl.Expr], pl.Expr]) -> bool:
    """Whether the boolean `expr` of `Enum` column `name` holds for any row.

    Its texts (and null, if a row is empty) are tested, not its rows. A text no row uses
    may answer true too; then the caller asks the rows.
    """
    column = frame.get_column(name)
    dtype = column.dtype
    assert isinstance(dtype, pl.Enum), f"{name} is no Enum column"
    hits = _each(dtype, name, expr)
    if not column.has_nulls():
        hits = hits.head(hits.len() - 1)  # the null row stands for no row
    return bool(hits.any())


def _each(dtype: pl.Enum, name: str, expr: Callable[[pl.Expr], pl.Expr]) -> pl.Series:
    """Return `expr` of each text of an `Enum` column `name`, and last of null (`texts`)."""
    return texts(dtype, name).select(expr(pl.col(name))).to_series()


def texts(dtype: pl.Enum, name: str) -> pl.DataFrame:
    """Return the texts of an `Enum` as a column `name`, and a last row of null."""
    values = pl.Series(name, dtype.categories, dtype=pl.String)
    return pl.concat([values, pl.Series(name, [None], dtype=pl.String)]).to_frame()


def per_row(column: pl.Series, per_text: pl.DataFrame) -> pl.Series:
    """Spread a one-column frame with a row per row of `texts(column.dtype)` to every row."""
    codes = column.to_physical()
    last = per_text.height - 1  # the null row
    each = per_text.to_series()
    if each.dtype == pl.Boolean and not each.has_nulls():
        # A test of the codes against the few that hold: a gather of ten million took
        # four times as long.
        hits = pl.arange(0, last, eager=True, dtype=pl.UInt32).filter(each.head(last))
        found = codes.is_in(hits.implode())  # null where the code is: the null row's
        return (found.fill_null(each[last]) if codes.has_nulls() else found).alias(each.name)
    return each.gather(codes.fill_null(last) if codes.has_nulls() else codes)


def packed(frame: pl.DataFrame, names: Sequence[str]) -> pl.Series:
    """Return one number per row from the codes of `Enum` columns `names`.

    An empty cell has a code of its own. Equal numbers, equal texts: a group-by or a
    `unique` over the number is one over a single integer column, not over several.
    `unpacked` gives the texts back.
    """
    sizes = _sizes(frame, names)
    span = math.prod(sizes)
    if span > 2**64:
        raise ValueError(f"too many distinct texts to number their combinations: {sizes}")
    # Half the bytes where the numbers fit: a unit and a parameter per row of ten million
    # took a third of the time as 32-bit numbers.
    dtype = pl.UInt32 if span <= 2**32 else pl.UInt64
    key: pl.Expr | None = None
    for name, size in zip(names, sizes, strict=True):
        code = pl.col(name).to_physical()
        if frame.get_column(name).has_nulls():  # a fill of a column without any is a copy
            code = code.fill_null(size - 1)
        code = code.cast(dtype)
        # Not from a literal 0: broadcasting it to every row took as long as the rest.
        key = code if key is None else key * size + code
    return frame.select(pl.lit(0, dtype=dtype) if key is None else key).to_series().alias("key")


def unpacked(keys: pl.Series, frame: pl.DataFrame, names: Sequence[str]) -> pl.DataFrame:
    """Return the texts of `names` that each number of `packed(frame, names)` stands for."""
    columns = {}
    rest = keys.alias("key").to_frame()
    for name, size in zip(reversed(names), reversed(_sizes(frame, names)), strict=True):
        code = rest.select(
            pl.when(pl.col("key") % size < size - 1).then(pl.col("key") % size).cast(pl.UInt32)
        ).to_series()
        rest = rest.select(pl.col("key") // size)
        columns[name] = _categories(frame, name).gather(code)
    return pl.DataFrame([columns[name] for name in names])


FEW_COMBINATIONS = 2**16
"""Combinations of texts that `distinct` finds among ten million rows in first-met order."""


def distinct(frame: pl.DataFrame, names: Sequence[str]) -> pl.DataFrame:
    """Return the distinct rows of columns `names` as text (of `Enum` columns, by `packed`)."""
    if all(isinstance(frame.get_column(name).dtype, pl.Enum) for name in names):
        keys = packed(frame, names)
        # Few possible numbers (a unit and a parameter): kept in the order first met, they
        # are found in half the time; many (a million spellings) take twice as long so.
        few = math.prod(_sizes(frame, names)) <= FEW_COMBINATIONS
        return unpacked(keys.unique(maintain_order=few).sort(), frame, names)
    return as_text(frame.select(names).unique())


def _categories(frame: pl.DataFrame, name: str) -> pl.Series:
    dtype = frame.get_column(name).dtype
    if not isinstance(dtype, pl.Enum):
        raise TypeError(f"expected a compact text column, got {dtype}")
    return dtype.categories.alias(name)


def _sizes(frame: pl.DataFrame, names: Sequence[str]) -> list[int]:
    """Each column's codes: one per text, and one for the empty cell."""
    return [_categories(frame, name).len() + 1 for name in names]
