"""CSV files for others without formulas: the one writer every published or printed CSV uses.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and some also one that starts
with a tab or a carriage return) as a formula, so a zone name such as `=HYPERLINK(...)` in a
source table would become a link or a command in the reader's spreadsheet. As OWASP
recommends ("CSV Injection"), such a text cell gets a leading apostrophe, which spreadsheets
show as text and hide. Cells that are numbers written as text (`-0,5`, `+0.24`, `-23`,
`1.234,5`, `-1e-3`) stay as they are: a signed number runs nothing. Numeric columns are never
touched (they are numbers, not text).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

FORMULA_START = r"^[=+\-@\t\r]"
"""What a spreadsheet may run as a formula when a text cell starts with it."""
SIGNED_NUMBER = r"^[+-]?[0-9.,]*[0-9][0-9.,]*([eE][+-]?[0-9]+)?$"
"""A number written as text, with either decimal mark: left as it is."""


def neutralised(column: str) -> pl.Expr:
    """Return the text column with an apostrophe before every cell a spreadsheet would run."""
    cell = pl.col(column)
    runs = cell.str.contains(FORMULA_START) & ~cell.str.contains(SIGNED_NUMBER)
    return pl.when(runs).then(pl.lit("'") + cell).otherwise(cell).alias(column)


def safe_frame(frame: pl.DataFrame) -> pl.DataFrame:
    """Return the frame with every text column neutralised (other columns as they are)."""
    text = [name for name, dtype in frame.schema.items() if dtype == pl.String]
    return frame.with_columns(neutralised(name) for name in text) if text else frame


def write_csv(frame: pl.DataFrame, path: Path | None = None, **options: Any) -> str:
    """`frame.write_csv` without formulas; returns the text when no path is given, else ""."""
    safe = safe_frame(frame)
    if path is None:
        return str(safe.write_csv(**options))
    safe.write_csv(path, **options)
    return ""
