"""The bodies of `trinkwasser parameters match` and `trinkwasser import` (the CLI is thin)."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path

import click
import polars as pl

from generator import reports
from generator.errors import TrinkwasserError, terminal_safe
from generator.locking import exclusive
from generator.output.csv_cells import write_csv
from generator.progress import StepPrinter
from generator.publications import documents
from generator.publications.aliases import AliasIndex, index_for
from generator.publications.importer import (
    IncompleteImport,
    Target,
    import_publication,
    remove_stale_staging,
)
from generator.publications.match import MATCH_COLUMNS, match_frame
from generator.publications.read import read_csv
from generator.publications.report import format_report, report_json


def _register(data_dir: Path | None) -> AliasIndex:
    """Return the alias index of a data directory: its register and its own decisions."""
    if data_dir is None:
        return index_for(None)
    from generator.contract.check import check_tables
    from generator.contract.reference_tables import PARAMETERS
    from generator.contract.tables import ALIASES
    from generator.errors import SourceDataError
    from generator.load import reference_dir

    result = check_tables(data_dir, (PARAMETERS, ALIASES), reference_dir())
    if result.problems.height:
        raise SourceDataError(result.problems)
    return index_for(result.tables["parameters"], result.tables["aliases"])


def read_names(file: Path, encoding: str = "utf-8") -> pl.DataFrame:
    """Read the `name,unit` CSV of `parameters match` (comma or semicolon)."""
    raw = read_csv(file, encoding)
    if raw.frame.height == 0:
        raise TrinkwasserError(
            f"{file}: the file is empty; its first row must be the header name,unit"
        )
    header = raw.frame.row(0, named=True)
    columns = {(v or "").strip().casefold(): c for c, v in header.items() if c != "_row"}
    if "name" not in columns:
        raise TrinkwasserError(f"{file}: the first row must be the header name,unit")
    body = raw.frame.slice(1)
    unit = pl.col(columns["unit"]) if "unit" in columns else pl.lit(None, dtype=pl.String)
    return body.select(pl.col(columns["name"]).alias("name"), unit.alias("unit")).filter(
        pl.col("name").is_not_null()
    )


SHOWN_UNMATCHED = 50
"""Names without a match listed on stderr; the CSV on stdout has every one."""


def run_match(file: Path, data_dir: Path | None, encoding: str = "utf-8") -> None:
    names = read_names(file, encoding)
    result = match_frame(names, _register(data_dir), progress=StepPrinter())
    out = result.select(MATCH_COLUMNS).with_columns(pl.col(pl.String).replace("", None))
    # The names come from a supplier's file: an escape sequence in one would reach the
    # operator's terminal, so control characters are shown escaped (as in every report).
    sys.stdout.write(terminal_safe(write_csv(out, null_value="")))
    unmatched = result.filter(pl.col("status") == "no_match").unique(
        ["name", "unit"], maintain_order=True
    )
    for row in unmatched.head(SHOWN_UNMATCHED).iter_rows(named=True):
        hint = row["suggestions"].split()
        perhaps = f"; perhaps {', '.join(hint)}" if hint else ""
        click.echo(f"{row['name']!r}: no sure match{perhaps} (never applied)", err=True)
    if unmatched.height > SHOWN_UNMATCHED:
        more = unmatched.height - SHOWN_UNMATCHED
        click.echo(f"... and {more} more without a sure match (see the CSV)", err=True)
    counts = result.group_by("status").len().sort("status")
    summary = ", ".join(f"{n} {s}" for s, n in counts.iter_rows())
    click.echo(f"{names.height} name(s): {summary}", err=True)


def run_list_tables(file: Path, sheet: str | None, encoding: str | None) -> None:
    """Print every table of the document (`trinkwasser import FILE --list-tables`)."""
    click.echo(documents.listing(documents.read_document(file, sheet, encoding)))


def run_import(
    table_path: Path,
    target: Target,
    sheet: str | None,
    encoding: str | None,
    dry_run: bool,
    strict: bool,
    table: str | None = None,
    json_output: bool = False,
) -> None:
    # A dry run writes nothing, so it needs no lock (generator.locking).
    with nullcontext() if dry_run else exclusive(target.data_dir, "trinkwasser import"):
        _import(table_path, target, sheet, encoding, dry_run, strict, table, json_output)


def _import(
    table_path: Path,
    target: Target,
    sheet: str | None,
    encoding: str | None,
    dry_run: bool,
    strict: bool,
    table: str | None,
    json_output: bool = False,
) -> None:
    if not dry_run:
        for folder in remove_stale_staging(target.data_dir):
            click.echo(f"Removed {folder}, left behind by an interrupted import.", err=True)
    try:
        result = import_publication(
            table_path,
            target,
            table=table,
            sheet=sheet,
            encoding=encoding,
            dry_run=dry_run,
            strict=strict,
            progress=StepPrinter(),
        )
    except documents.NoTableChosen as exc:
        if json_output:
            click.echo(reports.error(f"{exc}\n{exc.listing}", exc.exit_code))
        else:
            click.echo(exc.listing)
            click.echo(f"Error: {exc}", err=True)
        click.get_current_context().exit(exc.exit_code)
    except IncompleteImport as exc:
        if json_output:
            click.echo(reports.dumps(report_json(exc.result, target, True, ok=False)))
            click.get_current_context().exit(1)
        click.echo(terminal_safe(format_report(exc.result, True, target.data_dir)))
        raise
    if json_output:
        click.echo(reports.dumps(report_json(result, target, dry_run)))
        return
    click.echo(terminal_safe(format_report(result, dry_run, target.data_dir)))
