"""`trinkwasser import`: one supplier table into rows of the data contract.

Read the table (`read`), find its layout (`layouts`), match every name and unit
(`match`), and make one `measurements` row per value cell for the given zone, document
and sample date, `value_text` exactly as in the cell. Then append the new rows to the data
directory's measurements table:

- a row whose key (zone, parameter, date, sample point, statistic) is already there with
  the same value and unit is already imported and skipped;
- a row whose key is there with another value or unit is a **conflict**: reported, never
  written over; so are two rows of the table itself with one key and different values;
- the result is checked against the whole data contract in a staging copy before the
  measurements file is replaced (existing rows keep their bytes; new rows are appended);
- values whose name waits for the operator's decision (`waiting`) are listed in the data
  directory's `undecided` table, whose rows of the zone and document are replaced each
  time, so the site can say that not all published values are assigned;
- with `dry_run` nothing is written.

`import_publication` is the whole import as a library call (the CLI and
`trinkwasser fetch --import` are thin over it): the document (CSV, Excel, web page, PDF),
which table of it, the sheet and the encoding, the target, dry run and strictness.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from generator.api.resources import SAMPLE
from generator.contract import memo
from generator.contract.check import check_tables
from generator.contract.model import ROW as CONTRACT_ROW
from generator.contract.read import candidates, sniff_separator
from generator.contract.tables import ALL_TABLES, MEASUREMENTS, UNDECIDED
from generator.errors import SourceDataError, TrinkwasserError
from generator.load import reference_dir
from generator.output.atomic import atomic_write_all
from generator.output.csv_cells import SIGNED_NUMBER
from generator.progress import StepPrinter
from generator.publications import documents, layouts
from generator.publications.aliases import index_for
from generator.publications.match import MATCHED, match_frame
from generator.publications.read import ROW, TableReadError
from generator.publications.waiting import waiting

KEY = list(MEASUREMENTS.key)
STAGING = ".trinkwasser-import"


class TargetError(TrinkwasserError):
    """The import cannot run (unknown zone or document, unreadable data directory, ...)."""


@dataclass(frozen=True)
class Target:
    """Where the values go and what they are."""

    data_dir: Path
    zone_id: int
    document_id: str
    sampled_at: dt.date | None
    """The sample date; None only when the table has one column per date."""
    sample_point: str | None = None


@dataclass
class ImportResult:
    """What an import did, or would do (`dry_run`)."""

    source: str
    layout: layouts.Layout
    matches: pl.DataFrame
    """One row per distinct published (name, unit): the matcher's answer."""
    new: pl.DataFrame
    """Contract rows to append."""
    present: pl.DataFrame
    """Contract rows already in the data directory with the same value."""
    conflicts: pl.DataFrame
    """Rows whose key is taken by another value (in the data directory or the table)."""
    withheld: pl.DataFrame
    """Value cells not imported because their name or unit needs a decision."""
    empty_rows: pl.DataFrame
    reporting_limits: int
    written: Path | None = None
    notes: list[str] = field(default_factory=list)


def _typed_tables(data_dir: Path) -> dict[str, pl.DataFrame]:
    """Read and check the data directory; a missing measurements table is allowed."""
    result = check_tables(data_dir, ALL_TABLES, reference_dir())
    problems = result.problems.filter(
        ~((pl.col("table") == "measurements") & (pl.col("rule") == "missing_table"))
    )
    if problems.height:
        raise SourceDataError(problems)
    tables = {name: frame.drop(CONTRACT_ROW) for name, frame in result.tables.items()}
    if "measurements" not in tables:
        tables["measurements"] = pl.DataFrame(schema=MEASUREMENTS.dtypes)
    return tables


def _check_target(target: Target, tables: dict[str, pl.DataFrame], dates: list[dt.date]) -> None:
    if target.zone_id not in tables["zones"]["zone_id"].to_list():
        raise TargetError(f"zone {target.zone_id} is not in the zones table of {target.data_dir}")
    doc = tables["documents"].filter(pl.col("document_id") == target.document_id)
    if doc.height == 0:
        raise TargetError(
            f"document {target.document_id!r} is not in the documents table of {target.data_dir}"
        )
    edition = doc["edition_date"][0]
    late = [d for d in dates if d > edition]
    if late:
        raise TargetError(
            f"sample date {late[0]} is after the edition date {edition} of document "
            f"{target.document_id!r}"
        )


def contract_rows(values: pl.DataFrame, matches: pl.DataFrame, target: Target) -> pl.DataFrame:
    """Join each value cell to its match and make the contract row (matched ones only)."""
    joined = values.with_columns(pl.col("unit").fill_null("")).join(
        matches, on=["name", "unit"], how="left", maintain_order="left"
    )
    point = pl.col("sample_point")
    if target.sample_point is not None:
        point = point.fill_null(pl.lit(target.sample_point))
    return joined.with_columns(
        pl.lit(target.zone_id, dtype=pl.Int64).alias("zone_id"),
        pl.col("code").alias("parameter"),
        pl.col("sampled_at").fill_null(pl.lit(target.sampled_at, dtype=pl.Date)),
        pl.lit(target.document_id).alias("document_id"),
        point.alias("sample_point"),
        # The reporting-limit column, else a limit printed in the name (`Quecksilber
        # [Bestimmungsgrenze 0,0001]`), as printed.
        pl.col("reporting_limit")
        .fill_null(pl.col("name_reporting_limit").replace("", None))
        .alias("reporting_limit"),
        # A statistic in the name (`Nitrat Mittelwert`) or in the column (`Mittelwert`).
        pl.when(pl.col("name_statistic") != SAMPLE)
        .then(pl.col("name_statistic"))
        .otherwise(pl.col("statistic"))
        .alias("statistic"),
        (
            (pl.col("name_statistic") != SAMPLE)
            & (pl.col("statistic") != SAMPLE)
            & (pl.col("name_statistic") != pl.col("statistic"))
        ).alias("_statistic_clash"),
    )


FORMULA_CELL = r"^[=@+\-]"
"""A cell a spreadsheet may run (`generator.output.csv_cells`): no supplier publishes one."""
NO_VALUE_DASHES = r"^[-+/\s]+$"
"""Cells such as `-`, `--` or `-/-`: a table's way of saying "no value" (or "no unit"), which
no spreadsheet runs."""
SHOWN_FORMULAS = 20


def _formula(cell: pl.Expr) -> pl.Expr:
    """Whether a text cell would run as a formula: `=`, `@`, or a sign before no number."""
    return (
        cell.str.contains(FORMULA_CELL)
        & ~cell.str.contains(SIGNED_NUMBER)
        & ~cell.str.contains(NO_VALUE_DASHES)
    )


def refuse_formulas(values: pl.DataFrame, table_path: Path) -> None:
    """Refuse a table whose value, unit or sample-point cells a spreadsheet would run.

    That is a cell that starts with `=` or `@`, or with `+` or `-` and is no number
    (`+cmd|' /C calc'!A0`, `-2+3+cmd|...`); signed numbers (`-0,5`, `+0.24`) and cells of
    dashes (`-`, `-/-`) pass. Such a cell (or a workbook formula's cached text result) would
    reach measurements.csv and every spreadsheet that opens it; it is reported, with its
    row, and nothing is imported.
    """
    cells = {"value_text": "value", "unit": "unit", "sample_point": "sample point"}
    found = (
        values.select(ROW, "column", *cells)
        .unpivot(index=[ROW, "column"], on=list(cells), variable_name="cell", value_name="text")
        .filter(_formula(pl.col("text")))
        .unique([ROW, "cell", "text"], maintain_order=True)
    )
    if found.height == 0:
        return
    lines = [
        f"  row {row}, {cells[cell]}"
        + (f" in column {column!r}" if cell == "value_text" else "")
        + f": {text!r}"
        for row, column, cell, text in found.head(SHOWN_FORMULAS).iter_rows()
    ]
    if found.height > SHOWN_FORMULAS:
        lines.append(f"  ... and {found.height - SHOWN_FORMULAS} more")
    raise TableReadError(
        f"{table_path}: {found.height} cell(s) start with =, @, + or - as a spreadsheet "
        "formula does (no supplier publishes one); nothing was imported:\n" + "\n".join(lines)
    )


def _conflicts(rows: pl.DataFrame, existing: pl.DataFrame) -> tuple[pl.DataFrame, ...]:
    """Split new rows into (new, already present, conflicting)."""
    # Two cells of the table with one key: the same value once, different values never.
    within = rows.group_by(KEY).agg(
        pl.struct("value_text", "unit").n_unique().alias("_variants"), pl.len().alias("_n")
    )
    rows = rows.join(within, on=KEY, how="left", nulls_equal=True, maintain_order="left")
    inner = rows.filter(pl.col("_variants") > 1).with_columns(
        pl.lit("another cell of the table has the same key and another value").alias("why")
    )
    rows = rows.filter(pl.col("_variants") == 1).unique(KEY, keep="first", maintain_order=True)
    old = existing.select(
        *KEY,
        pl.col("value_text").alias("_old_text"),
        pl.col("unit").fill_null("").alias("_old_unit"),
    )
    rows = rows.join(old, on=KEY, how="left", nulls_equal=True, maintain_order="left")
    there = pl.col("_old_text").is_not_null()
    same = (pl.col("_old_text") == pl.col("value_text")) & (pl.col("_old_unit") == pl.col("unit"))
    clash = rows.filter(there & ~same).with_columns(
        pl.format(
            "the data directory has {} {} for this key", pl.col("_old_text"), pl.col("_old_unit")
        ).alias("why")
    )
    conflicts = pl.concat([inner, clash], how="diagonal_relaxed").drop(
        "_variants", "_n", "_old_text", "_old_unit", strict=False
    )
    present = rows.filter(there & same).drop("_variants", "_n", "_old_text", "_old_unit")
    new = rows.filter(~there).drop("_variants", "_n", "_old_text", "_old_unit")
    return new, present, conflicts


def plan(
    table_path: Path,
    target: Target,
    sheet: str | None = None,
    encoding: str | None = None,
    progress: StepPrinter | None = None,
    table: str | None = None,
) -> ImportResult:
    """Work out what importing the publication's table would do; write nothing.

    `table` chooses one table of a document with several: its number or a part of its
    heading (see `generator.publications.documents.choose`).
    """
    progress = progress or StepPrinter(enabled=False)
    with progress.step("Reading the data directory"):
        tables = _typed_tables(target.data_dir)
    with progress.step(f"Reading {table_path}"):
        chosen = documents.choose(documents.read_document(table_path, sheet, encoding), table)
        raw = chosen.table
        lay = chosen.layout
        assert lay is not None  # a data table has a layout
        values = layouts.values(raw, lay)
        refuse_formulas(values, table_path)
    dates = [c.sampled_at for c in lay.columns if c.sampled_at is not None]
    if target.sampled_at is None and not dates:
        raise TargetError("the table has no date columns: give the sample date (--sampled-at)")
    _check_target(target, tables, dates + ([target.sampled_at] if target.sampled_at else []))
    with progress.step("Matching names and units"):
        index = index_for(tables.get("parameters"), tables.get("aliases"))
        pairs = values.select("name", pl.col("unit").fill_null("")).unique(maintain_order=True)
        matched = match_frame(pairs, index).rename(
            {"statistic": "name_statistic", "reporting_limit": "name_reporting_limit"}
        )
    rows = contract_rows(values, matched, target)
    clash = (pl.col("status") == MATCHED) & pl.col("_statistic_clash")
    withheld = pl.concat(
        [
            rows.filter(pl.col("status") != MATCHED),
            rows.filter(clash).with_columns(
                pl.lit("ambiguous").alias("status"),
                pl.format(
                    "the name says {}, the column {}", pl.col("name_statistic"), pl.col("statistic")
                ).alias("reason"),
            ),
        ]
    )
    ready = rows.filter((pl.col("status") == MATCHED) & ~pl.col("_statistic_clash"))
    ready = ready.with_columns(pl.col("unit_read").alias("unit"))
    new, present, conflicts = _conflicts(ready, tables["measurements"])
    heading = f", {chosen.heading!r}" if chosen.heading else ""
    return ImportResult(
        source=f"{table_path} ({raw.kind}{heading})",
        layout=lay,
        matches=matched,
        new=new,
        present=present,
        conflicts=conflicts,
        withheld=withheld,
        empty_rows=layouts.rows_without_values(raw, lay),
        reporting_limits=values.height - values["reporting_limit"].null_count(),
        notes=list(lay.notes),
    )


# ---------------------------------------------------------------------------- writing


def _csv_lines(rows: pl.DataFrame, columns: list[str], delimiter: str, newline: str) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=newline)
    for row in rows.select(columns).iter_rows():
        writer.writerow(["" if v is None else str(v) for v in row])
    return buffer.getvalue()


def _needed_columns(frame: pl.DataFrame) -> list[str]:
    """Return the declared columns the new rows need: required ones and those they fill."""
    needed = []
    for column in MEASUREMENTS.columns:
        values = frame[column.name]
        filled = values.is_not_null()
        if column.default is not None:
            filled &= values.cast(pl.String) != str(column.default)
        if column.required or filled.any():
            needed.append(column.name)
    return needed


def _staged_measurements(existing: Path | None, rows: pl.DataFrame, staging: Path) -> Path:
    """Write the measurements file with `rows` appended into `staging`; return its path."""
    declared = MEASUREMENTS.names
    frame = rows.select(declared).with_columns(pl.col("sampled_at").cast(pl.String))
    if existing is not None and existing.suffix == ".parquet":
        out = staging / existing.name
        old = pl.read_parquet(existing)
        new = frame.cast({c: t for c, t in old.schema.items() if c in declared}, strict=False)
        memo.write_appended(existing, pl.concat([old, new], how="diagonal_relaxed"), out)
        return out
    out = staging / "measurements.csv"
    if existing is None:
        out.write_text(",".join(declared) + "\n" + _csv_lines(frame, declared, ",", "\n"), "utf-8")
        return out
    data = existing.read_bytes()
    first, _, rest = data.partition(b"\n")
    newline = "\r\n" if first.endswith(b"\r") else "\n"
    header_text = first.decode("utf-8-sig").strip()
    delimiter = sniff_separator(header_text)
    header = [h.strip() for h in next(csv.reader([header_text], delimiter=delimiter))]
    added = [c for c in _needed_columns(frame) if c not in header]
    if added:  # existing rows read the added columns as empty, i.e. as their defaults
        extended = first.rstrip(b"\r") + (delimiter + delimiter.join(added)).encode()
        data = extended + newline.encode() + rest
    if data and not data.endswith(b"\n"):
        data += newline.encode()
    out.write_bytes(data + _csv_lines(frame, header + added, delimiter, newline).encode("utf-8"))
    return out


def remove_stale_staging(data_dir: Path, prefix: str = STAGING) -> list[Path]:
    """Remove staging folders of imports that were killed (their process is gone).

    `write` removes its folder itself, but not when the process is killed outright; the
    folder's name carries the process id, so a running import's folder is left alone.
    `prefix` names whose folders: an import's, or `fetch --import`'s.
    """
    removed = []
    for folder in sorted(Path(data_dir).glob(f"{prefix}-*")):
        pid = folder.name.removeprefix(f"{prefix}-").split("-", 1)[0]
        if not folder.is_dir() or (pid.isdigit() and _alive(int(pid))):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


UNDECIDED_COLUMNS = UNDECIDED.names


def undecided_bytes(result: ImportResult, target: Target) -> tuple[Path, bytes] | None:
    """Return the data directory's `undecided` table with the target's rows replaced.

    None when the table would not change (no file and nothing waiting, or the same rows).
    """
    data_dir = Path(target.data_dir)
    found = candidates(data_dir, UNDECIDED.name)
    if found and found[0].suffix != ".csv":
        raise TargetError(f"{found[0]}: the import keeps this table as undecided.csv")
    path = found[0] if found else data_dir / f"{UNDECIDED.name}.csv"
    schema = dict.fromkeys(UNDECIDED_COLUMNS, pl.String)
    old = (
        pl.read_csv(path, schema_overrides=schema, infer_schema=False, encoding="utf8")
        if found
        else pl.DataFrame(schema=schema)
    ).select(UNDECIDED_COLUMNS)
    mine = (pl.col("zone_id").str.strip_chars() == str(target.zone_id)) & (
        pl.col("document_id").str.strip_chars() == target.document_id
    )
    new = pl.DataFrame(
        [
            {
                "zone_id": str(target.zone_id),
                "document_id": target.document_id,
                "name": w.name,
                "unit": w.unit or None,
                "values": str(w.values),
            }
            for w in waiting(result.withheld, result.matches)
        ],
        schema=schema,
    )
    rows = pl.concat([old.filter(~mine.fill_null(False)), new]).sort(
        pl.col("zone_id").cast(pl.Int64, strict=False), "document_id", "name", "unit"
    )
    if not found and rows.height == 0:
        return None
    data = rows.write_csv().encode("utf-8")
    if found and data == path.read_bytes():
        return None
    return path, data


def write(result: ImportResult, target: Target) -> Path:
    """Append `result.new` and list what waits, after checking the whole result.

    Return the measurements file (or, when no row was new, the `undecided` table).
    """
    data_dir = Path(target.data_dir)
    found = candidates(data_dir, "measurements")
    existing = found[0] if found else None
    undecided = undecided_bytes(result, target)
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING}-{os.getpid()}-", dir=data_dir))
    try:
        for path in data_dir.iterdir():
            if path.is_file() and path != existing and path.suffix in (".csv", ".parquet"):
                (staging / path.name).symlink_to(path.resolve())
        staged = []
        if result.new.height:
            staged.append(_staged_measurements(existing, result.new, staging))
        if undecided is not None:
            table = staging / undecided[0].name
            table.unlink(missing_ok=True)
            table.write_bytes(undecided[1])
            staged.append(table)
        check = check_tables(staging, ALL_TABLES, reference_dir())
        if check.problems.height:
            raise SourceDataError(check.problems)
        # The measurements first: a value imported is never listed as waiting meanwhile.
        atomic_write_all(
            [(data_dir / path.name, functools.partial(shutil.copyfile, path)) for path in staged]
        )
        return data_dir / staged[0].name
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def changes(result: ImportResult, target: Target) -> bool:
    """Whether writing `result` changes the data directory (new rows, or what waits)."""
    return bool(result.new.height) or undecided_bytes(result, target) is not None


class IncompleteImport(TrinkwasserError):
    """`strict` and some value could not be imported: nothing was written."""

    def __init__(self, result: ImportResult, count: int) -> None:
        super().__init__(f"{count} value(s) could not be imported (--strict); nothing was written")
        self.result = result


def import_publication(
    source: Path,
    target: Target,
    *,
    table: str | None = None,
    sheet: str | None = None,
    encoding: str | None = None,
    dry_run: bool = False,
    strict: bool = False,
    progress: StepPrinter | None = None,
) -> ImportResult:
    """Import one table of a publication into the data directory (see the module doc).

    `table`: the table's number or a part of its heading, for a document with several;
    `sheet`: the sheet of a workbook; `encoding`: of a CSV table (default UTF-8) or a web
    page (default: as the page declares). Raises `IncompleteImport` with `strict` when some
    value cannot be imported, `documents.NoTableChosen` when the document has several data
    tables and `table` names none of them, and `TrinkwasserError` for anything unreadable;
    nothing is written then.
    """
    result = plan(source, target, sheet, encoding, progress=progress, table=table)
    incomplete = result.withheld.height + result.conflicts.height
    if strict and incomplete:
        raise IncompleteImport(result, incomplete)
    if not dry_run and changes(result, target):
        with (progress or StepPrinter(enabled=False)).step("Checking the result and writing"):
            result.written = write(result, target)
    return result
