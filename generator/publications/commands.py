"""The bodies of `trinkwasser parameters match` and `trinkwasser import` (the CLI is thin)."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import polars as pl

from generator.errors import TrinkwasserError
from generator.progress import StepPrinter
from generator.publications import documents
from generator.publications.aliases import index_for
from generator.publications.importer import IncompleteImport, Target, import_publication
from generator.publications.match import MATCH_COLUMNS, match_frame
from generator.publications.read import read_csv
from generator.publications.report import format_report


def _register(data_dir: Path | None) -> pl.DataFrame | None:
    if data_dir is None:
        return None
    from generator.contract.check import check_tables
    from generator.contract.reference_tables import PARAMETERS
    from generator.errors import SourceDataError
    from generator.load import reference_dir

    result = check_tables(data_dir, (PARAMETERS,), reference_dir())
    if result.problems.height:
        raise SourceDataError(result.problems)
    return result.tables["parameters"]


def read_names(file: Path) -> pl.DataFrame:
    """Read the `name,unit` CSV of `parameters match` (comma or semicolon)."""
    raw = read_csv(file)
    header = raw.frame.row(0, named=True)
    columns = {(v or "").strip().casefold(): c for c, v in header.items() if c != "_row"}
    if "name" not in columns:
        raise TrinkwasserError(f"{file}: the first row must be the header name,unit")
    body = raw.frame.slice(1)
    unit = pl.col(columns["unit"]) if "unit" in columns else pl.lit(None, dtype=pl.String)
    return body.select(pl.col(columns["name"]).alias("name"), unit.alias("unit")).filter(
        pl.col("name").is_not_null()
    )


def run_match(file: Path, data_dir: Path | None) -> None:
    names = read_names(file)
    result = match_frame(names, index_for(_register(data_dir)))
    out = result.select(MATCH_COLUMNS).with_columns(pl.col(pl.String).replace("", None))
    sys.stdout.write(out.write_csv(null_value=""))
    for row in result.unique(["name", "unit"], maintain_order=True).iter_rows(named=True):
        if row["status"] == "no_match":
            hint = row["suggestions"].split()
            perhaps = f"; perhaps {', '.join(hint)}" if hint else ""
            click.echo(f"{row['name']!r}: no sure match{perhaps} (never applied)", err=True)
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
) -> None:
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
        click.echo(exc.listing)
        click.echo(f"Error: {exc}", err=True)
        click.get_current_context().exit(exc.exit_code)
    except IncompleteImport as exc:
        click.echo(format_report(exc.result, dry_run=True))
        raise
    click.echo(format_report(result, dry_run=dry_run))
