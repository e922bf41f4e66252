"""Read one table file (CSV or Parquet) into a frame of raw values, or report why not."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from generator.contract import csv_scan, rules
from generator.contract.model import ROW
from generator.contract.problems import Problems

FORMATS = ("csv", "parquet")


def candidates(directory: Path, name: str) -> list[Path]:
    """Return the files that could hold table `name` (one is right, two are ambiguous)."""
    return [p for p in (directory / f"{name}.{ext}" for ext in FORMATS) if p.is_file()]


def _header(path: Path) -> bytes:
    with path.open("rb") as fh:
        return fh.readline()


def sniff_separator(header: str) -> str:
    """Pick the delimiter from the header line: German spreadsheet exports use ';'."""
    counts = {sep: header.count(sep) for sep in (",", ";", "\t")}
    return max(counts, key=lambda sep: (counts[sep], sep == ","))


def read(path: Path, table: str, problems: Problems) -> pl.DataFrame | None:
    """Return the file's cells (text for CSV) with a `ROW` column, or None after a problem."""
    frame: pl.DataFrame | None
    if path.suffix == ".parquet":
        try:
            frame = _read_parquet(path)
        except Exception as exc:  # noqa: BLE001 - any reader failure is reported, not raised
            problems.add(table, rules.UNREADABLE_FILE, f"{path.name}: {_first_line(exc)}")
            return None
    else:
        frame = _read_csv(path, table, problems)
        if frame is None:
            return None
        frame = shared_text(frame)  # a Parquet file's columns are shared as they are read
    # CSV headers sometimes carry stray spaces; the names are otherwise exact.
    frame = frame.rename({c: c.strip() for c in frame.columns})
    # One chunk per column: a reader returns a chunk per row group, and later steps that
    # put columns side by side would each copy the table to align them.
    return frame.rechunk().with_row_index(ROW, offset=1)


def _read_parquet(path: Path) -> pl.DataFrame:
    """Read a Parquet file column by column, each column's text shared as it comes in.

    Read whole, 10 million measurements hold every cell's text on its own at once (about
    a gigabyte) before `shared_text` could give any of it back.
    """
    names = list(pl.read_parquet_schema(path))
    if not names:
        return pl.read_parquet(path)
    columns = [shared_text(pl.read_parquet(path, columns=[name])).rechunk() for name in names]
    return pl.concat(columns, how="horizontal")


def shared_text(frame: pl.DataFrame) -> pl.DataFrame:
    """Return `frame` with each text column's equal cells sharing one copy of their bytes.

    A reader stores every cell's text on its own: 10 million measurements name a few
    thousand documents and sample points, about 20 and 30 bytes each, over and over. A
    column gathered from its distinct values holds the same strings (same type, same
    values, so nothing downstream can tell) as 16-byte views into one copy of them.
    Columns that are mostly distinct are left as they are.
    """
    for name, dtype in frame.schema.items():
        if dtype != pl.String or frame.height < 2:
            continue
        distinct = frame.select(pl.col(name).unique()).with_row_index("_code")
        if 2 * distinct.height > frame.height:
            continue
        codes = (
            frame.select(name)
            .join(distinct, on=name, how="left", nulls_equal=True, maintain_order="left")
            .get_column("_code")
        )
        frame = frame.with_columns(distinct.get_column(name).gather(codes).alias(name))
    return frame


def _read_csv(path: Path, table: str, problems: Problems) -> pl.DataFrame | None:
    raw_header = _header(path)
    text_header = raw_header.decode("utf-8", errors="replace").removeprefix("\ufeff")
    sep = sniff_separator(text_header)
    try:
        raw_header.decode("utf-8")
    except UnicodeDecodeError:
        # polars reads a header that is not UTF-8 without complaint, as garbled names.
        failure = "the header line is not UTF-8"
    else:
        try:
            return pl.read_csv(path, separator=sep, infer_schema=False, encoding="utf8")
        except Exception as exc:  # noqa: BLE001 - any reader failure is reported, not raised
            failure = _first_line(exc)
    header = [c.strip().strip('"') for c in text_header.rstrip("\r\n").split(sep)]
    faults = csv_scan.diagnose(path, sep, header)
    for f in faults:
        problems.add(table, f.rule, f"{path.name}: {f.message}", column=f.column, row=f.row)
    if not faults:
        problems.add(table, rules.UNREADABLE_FILE, f"{path.name}: {failure}")
    return None


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
