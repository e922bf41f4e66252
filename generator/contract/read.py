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
            frame = pl.read_parquet(path)
        except Exception as exc:  # noqa: BLE001 - any reader failure is reported, not raised
            problems.add(table, rules.UNREADABLE_FILE, f"{path.name}: {_first_line(exc)}")
            return None
    else:
        frame = _read_csv(path, table, problems)
        if frame is None:
            return None
    # CSV headers sometimes carry stray spaces; the names are otherwise exact.
    return frame.rename({c: c.strip() for c in frame.columns}).with_row_index(ROW, offset=1)


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
