"""Read a supplier's table as published: every cell as text, nothing converted.

CSV (comma, semicolon or tab, detected; UTF-8 by default) and Excel workbooks (`.xlsx`,
`.xlsm`, `.xls`, `.ods`, through python-calamine: the optional `import` extra). Title
lines above the header and blank lines are kept as rows, so row numbers in reports are
the rows a person sees in the file. Web pages and PDF reports are read by
`generator.publications.html` and `generator.publications.pdf`.

Cells are text exactly as they are in the file. An Excel cell that holds a number (not
text) is stored as a binary floating-point number with a decimal point; it is written as
the sheet shows it to a German reader in the General format: at most 15 significant
digits (so `0.1 + 0.2` is `0,3`, never `0,30000000000000004`), no exponent, a decimal
comma (`12,5`, `0,0012`, `7`). A date cell is `15.03.2025`. A cell stored as text keeps
its text, whatever it looks like.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl

from generator.errors import TrinkwasserError, install_hint
from generator.publications import caps
from generator.publications.workbook_size import check_workbook_size

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
            if len(cells) > caps.MAX_CSV_COLUMNS:
                raise TableReadError(
                    f"{path}, line {reader.line_num}: {len(cells):,} cells, more than the cap "
                    f"of {caps.MAX_CSV_COLUMNS:,} columns per CSV table; nothing was read"
                )
            rows.append(cells)
            lines.append(reader.line_num)
    except csv.Error as exc:
        raise TableReadError(f"{path}, line {reader.line_num}: {exc}") from None
    width = max((len(r) for r in rows), default=0)
    if width * len(rows) > caps.MAX_CSV_CELLS:  # ragged lines are filled up to the widest
        raise TableReadError(
            f"{path}: {len(rows):,} lines of up to {width:,} cells make "
            f"{width * len(rows):,} cells, more than the cap of {caps.MAX_CSV_CELLS:,} cells "
            "per CSV table; nothing was read"
        )
    columns = {f"c{i}": [r[i] if i < len(r) else None for r in rows] for i in range(width)}
    frame = pl.DataFrame(columns, schema={c: pl.String for c in columns}).with_columns(
        pl.Series(ROW, lines, dtype=pl.Int64)
    )
    names = {";": "semicolon", "\t": "tab", ",": "comma"}
    return RawTable(path, _blank_to_null(frame), f"{names[delimiter]}-separated CSV")


def _calamine() -> Any:
    try:
        import python_calamine
    except ModuleNotFoundError:
        raise TableReadError(
            "reading Excel needs python-calamine, which is not installed. Install the import "
            f"extra: {install_hint('import')} (or save the sheet as CSV UTF-8)"
        ) from None
    return python_calamine


def _workbook(path: Path) -> Any:
    calamine = _calamine()
    try:
        return calamine.CalamineWorkbook.from_path(str(path))
    except (KeyboardInterrupt, SystemExit):
        raise
    # calamine raises its own types for every kind of bad file, and a panic of the Rust
    # reader arrives as pyo3's PanicException, which is no Exception.
    except BaseException as exc:
        raise TableReadError(f"{path}: cannot read the workbook: {exc}") from None


def excel_sheets(path: Path) -> list[str]:
    """Return the names of the workbook's sheets, in order."""
    return [str(name) for name in _workbook(path).sheet_names]


def shown(cell: object) -> str | None:
    """Return a cell as a German reader sees it in the sheet (see the module doc)."""
    if cell is None or cell == "":
        return None
    if isinstance(cell, bool):
        return "WAHR" if cell else "FALSCH"
    if isinstance(cell, int):
        return str(cell)
    if isinstance(cell, float):
        if not math.isfinite(cell):
            return str(cell)
        # Excel shows at most 15 significant digits: 0.1 + 0.2 is `0,3`, never
        # `0,30000000000000004`; no exponent, a decimal comma.
        text = format(Decimal(f"{cell:.15g}"), "f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return "0" if text == "-0" else text.replace(".", ",")
    if isinstance(cell, dt.datetime):
        if cell.time() == dt.time(0):
            return cell.strftime("%d.%m.%Y")
        return cell.strftime("%d.%m.%Y %H:%M")
    if isinstance(cell, dt.date):
        return cell.strftime("%d.%m.%Y")
    if isinstance(cell, dt.time):
        return cell.strftime("%H:%M")
    return str(cell)


def read_excel(path: Path, sheet: str | None = None) -> RawTable:
    check_workbook_size(path, sheet)
    book = _workbook(path)
    names = [str(n) for n in book.sheet_names]
    name = sheet if sheet is not None else (names[0] if names else None)
    if name is None or name not in names:
        known = ", ".join(repr(n) for n in names)
        raise TableReadError(f"{path}: no sheet {sheet!r} (the workbook has {known})")
    try:
        cells = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a panic of the reader, as above
        raise TableReadError(f"{path}: cannot read sheet {name!r}: {exc}") from None
    rows = [[shown(c) for c in row] for row in cells]
    width = max((len(r) for r in rows), default=0)
    columns = {f"c{i}": [r[i] if i < len(r) else None for r in rows] for i in range(width)}
    frame = pl.DataFrame(columns, schema={c: pl.String for c in columns}).with_columns(
        pl.Series(ROW, range(1, len(rows) + 1), dtype=pl.Int64)
    )
    return RawTable(path, _blank_to_null(frame), f"Excel sheet {name!r}")


def _blank_to_null(frame: pl.DataFrame) -> pl.DataFrame:
    """Empty a cell of only spaces; keep any other cell exactly as it is."""
    return frame.with_columns(
        pl.when(pl.col(c).str.strip_chars() == "").then(None).otherwise(pl.col(c)).alias(c)
        for c in frame.columns
        if c != ROW
    )


blank_to_null = _blank_to_null
