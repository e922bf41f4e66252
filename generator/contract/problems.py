"""Collecting problems: one frame per check, concatenated and sorted once at the end."""

from __future__ import annotations

import polars as pl

from generator.contract.model import ROW
from generator.contract.rules import Rule

PROBLEM_SCHEMA = {
    "table": pl.String,
    "row": pl.Int64,
    "column": pl.String,
    "value": pl.String,
    "rule": pl.String,
    "message": pl.String,
}
VALUE_CHARS = 200
"""A reported value is cut after this many characters (a runaway quoted cell can be huge)."""


class Problems:
    """Every problem found, as (table, row, column, value, rule, message) rows."""

    def __init__(self) -> None:
        self._frames: list[pl.DataFrame] = []

    def add(
        self,
        table: str,
        rule: Rule,
        message: str,
        column: str | None = None,
        row: int | None = None,
        value: str | None = None,
    ) -> None:
        """Add one problem; `row` None means the problem concerns the whole table or file."""
        record = {
            "table": table,
            "row": row,
            "column": column,
            "value": None if value is None else value[:VALUE_CHARS],
            "rule": rule.name,
            "message": message,
        }
        self._frames.append(pl.DataFrame([record], schema=PROBLEM_SCHEMA))

    def hits(self, table: str, column: str, rule: Rule, hits: pl.DataFrame) -> None:
        """Add one problem per row of `hits`, a frame of `ROW`, `value` and `message`."""
        if hits.height == 0:
            return
        self._frames.append(
            hits.select(
                pl.lit(table).alias("table"),
                pl.col(ROW).cast(pl.Int64).alias("row"),
                pl.lit(column).alias("column"),
                pl.col("value").cast(pl.String).str.slice(0, VALUE_CHARS).alias("value"),
                pl.lit(rule.name).alias("rule"),
                pl.col("message").cast(pl.String).alias("message"),
            )
        )

    def frame(self, table_order: list[str]) -> pl.DataFrame:
        """All problems: tables in `table_order`, then by row (file-level first), column, rule."""
        if not self._frames:
            return pl.DataFrame(schema=PROBLEM_SCHEMA)
        order = {name: i for i, name in enumerate(table_order)}
        return (
            pl.concat(self._frames)
            .with_columns(pl.col("table").replace_strict(order, default=len(order)).alias("_t"))
            .sort(["_t", "row", "column", "rule", "message"], nulls_last=False, maintain_order=True)
            .drop("_t")
        )
