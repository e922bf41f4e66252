"""Read a supplier's table as published: every cell as text, nothing converted.

CSV (comma, semicolon or tab, detected; UTF-8 by default) and Excel workbooks (`.xlsx`,
`.xlsm`, `.xls`, `.ods`, through polars' `read_excel` and its default engine, fastexcel:
the optional `import` extra). Title lines above the header and blank lines are kept as
rows, so row numbers in reports are the rows a person sees in the file.

Cells are text exactly as they are in the file. An Excel cell that holds a number (not
text) has no printed form of its own; it reads as fastexcel writes it (`12.5`, `0.0012`,
`7`, with a decimal point), and a date cell as `2025-03-15 00:00:00`.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from generator.errors import TrinkwasserError

EXCEL_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods")
ROW = "_row"
"""Column of the 1-based row (line of a CSV file, row of a sheet) a table row comes from."""


class TableReadError(TrinkwasserError):
    """A supplier table cannot be read."""


@dataclass(frozen=True)
class RawTable:
    """A supplier table as text: columns `c0`, `c1`, ... and `_row`."""

    path: Path
    frame: pl.DataFrame
    kind: str
    """How it was read, in words (`semicolon-separated CSV`, `Excel sheet 'Analyse'`)."""

    @property
    def cells(self) -> list[str]:
        return [c for c in self.frame.columns if c != ROW]


def sniff_delimiter(lines: list[str]) -> str:
    """Return `;`, tab or `,`: the first that appears in at least half of the lines."""
    filled = [line for line in lines if line.strip()] or [""]
    for delimiter in (";", "\t"):
        if sum(delimiter in line for line in filled) * 2 >= len(filled):
            return delimiter
    return ","


def read_csv(path: Path, encoding: str = "utf-8") -> RawTable:
    data = path.read_bytes()
    try:
        text = data.decode(
            "utf-8-sig" if encoding.replace("_", "-").lower() == "utf-8" else encoding
        )
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise TableReadError(
            f"{path}: byte {exc.start} (line {line}) is not {encoding}; a table saved by Excel "
            "as plain 'CSV' is usually Windows-1252: try --encoding cp1252"
        ) from None
    except LookupError:
        raise TableReadError(f"unknown encoding {encoding!r}") from None
    delimiter = sniff_delimiter(text.splitlines()[:30])
    # A supplier table is a page of an analysis, not a data set: the csv module reads its
    # ragged rows (a title line above the header) and quoted cells; polars takes it from here.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[list[str]] = []
    lines: list[int] = []
    try:
        for cells in reader:
            rows.append(cells)
            lines.append(reader.line_num)
    except csv.Error as exc:
        raise TableReadError(f"{path}, line {reader.line_num}: {exc}") from None
    width = max((len(r) for r in rows), default=0)
    columns = {f"c{i}": [r[i] if i < len(r) else None for r in rows] for i in range(width)}
    frame = pl.DataFrame(columns, schema={c: pl.String for c in columns}).with_columns(
        pl.Series(ROW, lines, dtype=pl.Int64)
    )
    names = {";": "semicolon", "\t": "tab", ",": "comma"}
    return RawTable(path, _blank_to_null(frame), f"{names[delimiter]}-separated CSV")


def read_excel(path: Path, sheet: str | None = None) -> RawTable:
    try:
        import fastexcel  # noqa: F401  (polars' default engine; the `import` extra)
    except ModuleNotFoundError:
        raise TableReadError(
            "reading Excel needs fastexcel, which is not installed. Install the import extra: "
            "pip install 'trinkwasserdaten[import]' (or save the sheet as CSV UTF-8)"
        ) from None
    try:
        frame = pl.read_excel(
            path,
            sheet_name=sheet,
            has_header=False,
            infer_schema_length=0,
            drop_empty_rows=False,
            drop_empty_cols=False,
        )
    except Exception as exc:  # fastexcel raises its own types for every kind of bad file
        raise TableReadError(f"{path}: cannot read the workbook: {exc}") from None
    frame = frame.select(
        pl.col(c).cast(pl.String).alias(f"c{i}") for i, c in enumerate(frame.columns)
    ).with_row_index(ROW, offset=1)
    frame = frame.with_columns(pl.col(ROW).cast(pl.Int64))
    return RawTable(path, _blank_to_null(frame), f"Excel sheet {sheet!r}" if sheet else "Excel")


def _blank_to_null(frame: pl.DataFrame) -> pl.DataFrame:
    """Empty a cell of only spaces; keep any other cell exactly as it is."""
    return frame.with_columns(
        pl.when(pl.col(c).str.strip_chars() == "").then(None).otherwise(pl.col(c)).alias(c)
        for c in frame.columns
        if c != ROW
    )


def read_table(path: Path, sheet: str | None = None, encoding: str = "utf-8") -> RawTable:
    """Read a supplier table (CSV or Excel, by the file's suffix)."""
    path = Path(path)
    if not path.is_file():
        raise TableReadError(f"{path}: no such file")
    if path.suffix.lower() in EXCEL_SUFFIXES:
        return read_excel(path, sheet)
    if sheet is not None:
        raise TableReadError(f"{path}: --sheet applies to Excel workbooks only")
    return read_csv(path, encoding)
