"""The click command `trinkwasser fetch` (thin: options, the run, the report)."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli_options import config_option, handle_errors


@click.command()
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Data directory with the register of publications (sources.csv).",
)
@click.option(
    "--archive",
    "archive_dir",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Directory of the archive: every version read, and a manifest per source.",
)
@click.option(
    "--import",
    "import_",
    is_flag=True,
    help="Import every new version into documents and measurements (as `trinkwasser import`).",
)
@click.option(
    "--delay",
    type=click.FloatRange(min=0),
    default=5.0,
    show_default=True,
    help="Seconds between two requests to the same host.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=60.0,
    show_default=True,
    help="Seconds one request may take, the whole body included.",
)
@click.option(
    "--max-size",
    type=click.FloatRange(min=0.001),
    default=50.0,
    show_default=True,
    help="Largest document read, in MB (1,000,000 bytes); a larger one fails.",
)
@click.option(
    "--retries",
    type=click.IntRange(0, 10),
    default=3,
    show_default=True,
    help="Retries of a 429 or 5xx answer (after Retry-After, else a doubling pause).",
)
@click.option(
    "--max-redirects",
    type=click.IntRange(0, 20),
    default=5,
    show_default=True,
    help="Redirects followed for one document (each checked against robots.txt).",
)
@click.option(
    "--max-retry-wait",
    type=click.FloatRange(min=0),
    default=600.0,
    show_default=True,
    help="Longest Retry-After waited for, in seconds; a longer one fails the source.",
)
@config_option
@handle_errors
def fetch(
    data_dir: Path,
    archive_dir: Path,
    import_: bool,
    delay: float,
    timeout: float,
    max_size: float,
    retries: int,
    max_redirects: int,
    max_retry_wait: float,
    config_path: Path | None,
) -> None:
    """Fetch every publication of the register (sources), archive it, report what changed.

    Polite: robots.txt, DELAY seconds between requests to a host, a User-Agent with the
    operator's contact (trinkwasser.toml), conditional requests. Marks documents whose link
    no longer answers, lists the suppliers without a publication within the cadence, and
    with --import imports new versions. Exit status 0 whatever the servers answered; 1 only
    for a local problem (a broken register, an unwritable archive). See docs/operations.md.
    """
    try:
        import httpx  # noqa: F401 - only to say which extra is missing
    except ImportError:
        raise click.ClickException(
            "fetch needs the fetch extra: pip install 'trinkwasserdaten[fetch]'"
        ) from None
    from generator.config import load_config
    from generator.fetch.polite import Politeness
    from generator.fetch.report import format_run
    from generator.fetch.run import run

    config = load_config(config_path)
    rules = Politeness(
        delay=delay,
        timeout=timeout,
        max_bytes=int(max_size * 1_000_000),
        max_redirects=max_redirects,
        retries=retries,
        max_retry_wait=max_retry_wait,
    )
    try:
        result = run(data_dir, archive_dir, config, rules, import_=import_)
    except OSError as exc:
        raise click.ClickException(f"cannot write: {exc}") from None
    click.echo(format_run(result))
