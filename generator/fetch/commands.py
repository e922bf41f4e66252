"""The click command `trinkwasser fetch` (thin: options, the run, the report)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

from generator.cli_options import config_option, data_option, handle_errors, json_option
from generator.errors import install_hint, terminal_safe
from generator.fetch import options


@click.command()
@data_option("Data directory with the register of publications (sources.csv).", required=True)
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
@options.click_params
@config_option
@json_option
@handle_errors
def fetch(
    data_dir: Path,
    archive_dir: Path,
    import_: bool,
    config_path: Path | None,
    json_output: bool,
    **rules: Any,
) -> None:
    """Fetch every publication of the register (sources), archive it, report what changed.

    Polite: robots.txt, DELAY seconds between requests to a host, a User-Agent with the
    operator's contact (trinkwasser.toml), conditional requests. Marks documents whose link
    no longer answers, lists the suppliers without a publication within the cadence, and
    with --import imports new versions. Only public addresses are fetched (every redirect
    checked), only gzip or deflate accepted, the size cap applied to the decoded bytes.
    Exit status 0 whatever the servers answered or a source's document held; 1 only for a
    local problem (a broken register, an unwritable archive). See docs/operations.md.
    """
    try:
        import httpx  # noqa: F401 - only to say which extra is missing
    except ImportError:
        raise click.ClickException(
            f"fetch needs the fetch extra: {install_hint('fetch')}"
        ) from None
    from generator.config import load_config
    from generator.fetch.report import format_run, warnings
    from generator.fetch.run import run

    config = load_config(config_path)
    politeness = options.politeness(rules)
    if config.allow_private_addresses:  # [fetch] allow_private_addresses = true
        politeness = dataclasses.replace(politeness, allow_private=True)
    try:
        result = run(data_dir, archive_dir, config, politeness, import_=import_)
    except OSError as exc:
        raise click.ClickException(f"cannot write: {exc}") from None
    if json_output:
        from generator import reports
        from generator.fetch.report import run_json

        click.echo(reports.dumps(run_json(result)))
    else:
        click.echo(terminal_safe(format_run(result)))  # titles and names come from the web
    for warning in warnings(result):
        click.echo(terminal_safe(f"Warning: {warning}"), err=True)
