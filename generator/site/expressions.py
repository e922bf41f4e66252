"""Long polars expressions made cheap: planned on the columns they read, run once per value.

The site's row fragments and limits in words are expressions of hundreds of nodes, run
batch after batch on the current values (thirty columns, nested structs). polars resolves
every node against the schema of the frame it runs on, so they run on the few columns they
read (`with_narrow`); and an expression of one column whose values repeat (a limit, shared
by every zone) runs once per distinct value of a whole build (`PerValue`). Both give what
the expression gives row by row, for expressions that work row by row (no `over`, `shift`
or aggregation) and, for `PerValue`, give the same for values a join takes as equal
(`-0.0` and `0.0`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import polars as pl


def read_by(exprs: list[pl.Expr]) -> list[str] | None:
    """Return the columns `exprs` read, sorted; None when one reads columns it does not name.

    `pl.all()`, selectors, `pl.first()` or a literal alone name none, so no narrower frame
    is known for them.
    """
    names: set[str] = set()
    for expr in exprs:
        roots = expr.meta.root_names()
        if not roots or expr.meta.has_multiple_outputs():
            return None
        names.update(roots)
    return sorted(names)


def with_narrow(
    frame: pl.DataFrame,
    columns: list[str] | None,
    added: Callable[[pl.DataFrame], pl.DataFrame],
    names: list[str],
) -> pl.DataFrame:
    """Return `frame` with the columns `names` of `added(frame.select(columns))`.

    `columns` None (of `read_by`): `added(frame)`. `added` must keep the rows and their
    order (it adds columns, as `with_columns` does).
    """
    result = added(frame if columns is None else frame.select(columns))
    return frame.with_columns(result.get_column(name) for name in names)


class PerValue:
    """An expression of one column, computed once for each distinct value asked for.

    Batches of zones share most of their values (a limit is every zone's): a batch computes
    the expression only for the values no batch before it had, or none. Thread-safe.
    """

    def __init__(self, expr: Callable[[pl.Expr], pl.Expr]) -> None:
        self._expr = expr
        self._done: pl.DataFrame | None = None
        """The distinct values so far (column `value`, nulls among them) and each one's `once`."""
        self._lock = threading.Lock()

    def of_rows(self, column: pl.Series) -> pl.Series:
        """Return the expression of every row of `column`."""
        values = column.alias("value").to_frame()
        with self._lock:
            done = self._done
            new = values.unique()
            if done is not None:
                new = new.join(done, on="value", how="anti", nulls_equal=True)
            if done is None or not new.is_empty():
                new = new.with_columns(self._expr(pl.col("value")).alias("once"))
                done = new if done is None else pl.concat([done, new])
                self._done = done
        found = values.join(done, on="value", how="left", maintain_order="left", nulls_equal=True)
        if found.height != values.height:  # two distinct values the join took for one
            raise ValueError(f"values of {column.name} that join as equal but are not")
        return found.get_column("once").alias(column.name)
