"""Read one table file (CSV or Parquet) into a frame of raw values, or report why not."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import polars as pl
import polars.selectors as cs

from generator.contract import csv_scan, memo, rules
from generator.contract.model import ROW
from generator.contract.problems import Problems
from generator.frames import parallel
from generator.frames.compact import compact as compact_text

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


def read(
    path: Path,
    table: str,
    problems: Problems,
    compact: bool = False,
    kept: memo.Memo | None = None,
) -> pl.DataFrame | None:
    """Return the file's cells (text for CSV) with a `ROW` column, or None after a problem.

    One chunk per column (a reader returns a chunk per row group, and later steps that put
    columns side by side would each copy the table to align them), but for a table put
    together from its memo: a chunk per part there, alike in every column (`memo.read`).

    `compact`: each text column as an `Enum` of its sorted distinct texts
    (`generator.frames.compact`), made column by column as it is read. `kept`: where the row
    groups a Parquet file shares with the last build's are taken from (`generator.contract.memo`).
    """
    frame: pl.DataFrame | None
    if path.suffix == ".parquet":
        try:
            if compact and kept is not None:
                frame = memo.read(
                    path,
                    table,
                    kept,
                    lambda: _read_parquet(path, compact),
                    functools.partial(parquet_rows, path),
                )
            else:
                frame = _read_parquet(path, compact)
        except Exception as exc:  # noqa: BLE001 - any reader failure is reported, not raised
            problems.add(table, rules.UNREADABLE_FILE, f"{path.name}: {_first_line(exc)}")
            return None
    else:
        frame = _read_csv(path, table, problems)
        if frame is None:
            return None
        if compact:
            frame = compact_text(frame)
        frame = frame.rechunk()
    # CSV headers sometimes carry stray spaces; the names are otherwise exact.
    frame = frame.rename({c: c.strip() for c in frame.columns})
    return frame.with_row_index(ROW, offset=1)


def _read_parquet(path: Path, compact: bool) -> pl.DataFrame:
    """Read a Parquet file, one chunk per column.

    `compact`: column by column, each text column as an `Enum`.

    Read whole, 10 million measurements hold every cell's text on its own at once (about
    a gigabyte); a column of them as text is some hundred megabytes, as an `Enum` 40.
    """
    names = list(pl.read_parquet_schema(path))
    if not names or not compact:
        return _as_written(pl.read_parquet(path)).rechunk()

    def column(name: str) -> Callable[[], pl.DataFrame]:
        return lambda: compact_text(_as_written(pl.read_parquet(path, columns=[name])))

    # Two columns at a time: finding a column's distinct texts runs on one CPU.
    frame = pl.concat(parallel.ordered(map(column, names), threads=2), how="horizontal")
    return frame.rechunk()


def parquet_rows(path: Path, offset: int, n: int) -> pl.DataFrame:
    """Return `n` rows of a Parquet file from row `offset`, its categories as text."""
    return _as_written(pl.scan_parquet(path).slice(offset, n).collect())


def _as_written(frame: pl.DataFrame) -> pl.DataFrame:
    """Return `frame` with a file's categorical columns as their text.

    A Parquet file may store text as categories in an order of its own, with categories no
    row uses; checked and sorted, the text is what counts (blank, control characters, the
    order of `sorted_by`).
    """
    return frame.with_columns((cs.categorical() | cs.enum()).cast(pl.String))


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
