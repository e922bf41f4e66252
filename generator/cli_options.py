"""What every `trinkwasser` command shares: the error handling, `--verbose` and `--config`.

Defined once here and imported by `generator/cli.py` and `generator/gate/commands.py`, so
every command reports errors the same way and reads its configuration the same way.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import click

_VERBOSE = "trinkwasser.verbose"

P = ParamSpec("P")
R = TypeVar("R")


def _remember_verbose(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    # ctx.meta is shared by a command and the groups above it, so `-v` counts wherever it
    # is given: `trinkwasser -v keys approve ID` and `trinkwasser keys approve ID -v`.
    if value:
        ctx.meta[_VERBOSE] = True
    return value


def verbose_option(func: Callable[P, R]) -> Callable[P, R]:
    """Add `-v/--verbose` (tracebacks on errors) to a command or group."""
    return click.option(
        "-v",
        "--verbose",
        is_flag=True,
        expose_value=False,
        callback=_remember_verbose,
        help="Show tracebacks on errors.",
    )(func)


config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Configuration file (default: ./trinkwasser.toml if present, else built-in defaults).",
)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn library errors into `Error: ...` (exit 1); tracebacks only with --verbose.

    A `SourceDataError` first lists its problems on stderr (at most `--max-problems` of
    them when the command has that option, else 200). Put it right above the function,
    below the command's options; it adds `-v/--verbose` to the command.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from generator.errors import SourceDataError, TrinkwasserError

        ctx = click.get_current_context()
        try:
            return func(*args, **kwargs)
        except SourceDataError as exc:
            from generator.load import format_problems

            click.echo(format_problems(exc.problems, ctx.params.get("max_problems", 200)), err=True)
            _traceback_if_verbose(ctx)
            raise click.ClickException(exc.summary) from None
        except TrinkwasserError as exc:
            _traceback_if_verbose(ctx)
            raise click.ClickException(str(exc)) from None

    return verbose_option(wrapper)


def _traceback_if_verbose(ctx: click.Context) -> None:
    if ctx.meta.get(_VERBOSE):
        traceback.print_exc()
