"""What the `trinkwasser` commands share: errors, `--verbose`, `--config`, `--data`, `--quiet`.

Defined once here and imported by `generator/cli.py` and the commands of `generator/gate/`
and `generator/fetch/`, so every command reports errors the same way, reads its
configuration the same way, and names its data directory and its silence alike.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import click

_VERBOSE = "trinkwasser.verbose"

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])


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


def data_option(help: str, *, required: bool = False, exists: bool = False) -> Callable[[F], F]:
    """Add `--data DIR` (the parameter `data_dir`): the data directory a command reads.

    Each command says in `help` what it reads there, and whether a default stands in.
    """
    return click.option(
        "--data",
        "data_dir",
        type=click.Path(file_okay=False, exists=exists, path_type=Path),
        required=required,
        default=None,
        help=help,
    )


def quiet_option(help: str = "Print nothing but errors.") -> Callable[[F], F]:
    """Add `-q/--quiet` (the parameter `quiet`); `help` says what a command still prints."""
    return click.option("-q", "--quiet", is_flag=True, help=help)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn library errors into `Error: ...` (exit 1); tracebacks only with --verbose.

    A `SourceDataError` first lists its problems on stderr (at most `--max-problems` of
    them when the command has that option, else 200). Put it right above the function,
    below the command's options; it adds `-v/--verbose` to the command.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from generator.errors import SourceDataError, TrinkwasserError, terminal_safe

        ctx = click.get_current_context()
        if ctx.params.get("json_output"):
            return _as_json(ctx, func, *args, **kwargs)
        try:
            return func(*args, **kwargs)
        except click.ClickException as exc:
            safe = terminal_safe(exc.message)
            if safe == exc.message:
                raise
            raise click.ClickException(safe) from None
        except SourceDataError as exc:
            from generator.load import format_problems

            click.echo(format_problems(exc.problems, ctx.params.get("max_problems", 200)), err=True)
            _traceback_if_verbose(ctx)
            raise click.ClickException(exc.summary) from None
        except TrinkwasserError as exc:
            _traceback_if_verbose(ctx)
            raise click.ClickException(terminal_safe(str(exc))) from None
        except MemoryError:
            _traceback_if_verbose(ctx)
            raise click.ClickException("out of memory; nothing was written") from None
        except OSError as exc:
            # A file that cannot be read or written (permissions, a full disk): one line.
            _traceback_if_verbose(ctx)
            raise click.ClickException(terminal_safe(str(exc))) from None

    return verbose_option(wrapper)


json_option = click.option(
    "--json",
    "json_output",
    is_flag=True,
    help="Print the report as one JSON object (schema in docs/operations.md); errors too.",
)


def _as_json(ctx: click.Context, func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run `func`; an error is printed as a `trinkwasser.error/1` report, exit status kept."""
    from generator import reports
    from generator.errors import SourceDataError, TrinkwasserError

    try:
        return func(*args, **kwargs)
    except click.exceptions.Exit:
        raise
    except click.ClickException as exc:
        click.echo(reports.error(exc.format_message(), exc.exit_code))
        _traceback_if_verbose(ctx)
        ctx.exit(exc.exit_code)
    except SourceDataError as exc:
        click.echo(reports.error(exc.summary, 1, reports.problems(exc.problems)))
        _traceback_if_verbose(ctx)
        ctx.exit(1)
    except (TrinkwasserError, OSError, MemoryError) as exc:
        message = "out of memory; nothing was written" if isinstance(exc, MemoryError) else str(exc)
        click.echo(reports.error(message, 1))
        _traceback_if_verbose(ctx)
        ctx.exit(1)
    raise AssertionError("unreachable")  # ctx.exit raises


def _traceback_if_verbose(ctx: click.Context) -> None:
    if ctx.meta.get(_VERBOSE):
        traceback.print_exc()
