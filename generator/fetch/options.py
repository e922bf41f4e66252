"""What `trinkwasser fetch` takes: its politeness options, declared once.

Each option is a field of `Politeness` (`generator.fetch.polite`), whose value is its
default: the command shows the library's defaults, in the option's unit, and turns what it
is given back into a `Politeness`. A test checks that every field has its option and that
the command's defaults make the library's `Politeness()`. The module needs no httpx, so the
CLI can declare the command (and show `--help`) without the fetch extra.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

import click

from generator.fetch.politeness import Politeness

F = TypeVar("F", bound=Callable[..., Any])

MIB = 1024 * 1024
"""Bytes in a MiB: `--max-size` is given in MiB, the library counts bytes."""


@dataclass(frozen=True)
class Option:
    """The command-line form of one field of `Politeness`."""

    field: str
    flag: str
    type: click.ParamType[Any]
    help: str
    shown: Callable[[Any], Any] = lambda value: value
    """The field's value as the option takes it (its unit)."""
    taken: Callable[[Any], Any] = lambda value: value
    """The option's value as the field takes it."""
    is_flag: bool = False
    """A switch without a value (its default: off)."""


OPTIONS = (
    Option(
        "delay",
        "--delay",
        click.FloatRange(min=0),
        "Seconds between two requests to the same host.",
    ),
    Option(
        "timeout",
        "--timeout",
        click.FloatRange(min=0.1),
        "Seconds one request may take, the whole body included.",
    ),
    Option(
        "max_bytes",
        "--max-size",
        click.FloatRange(min=0.001),
        "Largest document read, in MiB (1,048,576 bytes); a larger one fails.",
        shown=lambda n: n / MIB,
        taken=lambda mib: int(mib * MIB),
    ),
    Option(
        "retries",
        "--retries",
        click.IntRange(0, 10),
        "Retries of a 429 or 5xx answer (after Retry-After, else a doubling pause).",
    ),
    Option(
        "max_redirects",
        "--max-redirects",
        click.IntRange(0, 20),
        "Redirects followed for one document (each checked against robots.txt).",
    ),
    Option(
        "max_retry_wait",
        "--max-retry-wait",
        click.FloatRange(min=0),
        "Longest Retry-After waited for, in seconds; a longer one fails the source.",
    ),
    Option(
        "allow_private",
        "--allow-private-addresses",
        click.BOOL,
        "Also fetch from loopback, link-local, private and CGNAT addresses (an intranet; "
        "tests). Without it (or [fetch] allow_private_addresses), such hosts are refused.",
        is_flag=True,
    ),
)


def click_params(command: F) -> F:
    """Decorate the command with an option per field of `Politeness`, its default shown."""
    defaults = Politeness()
    for option in reversed(OPTIONS):  # click applies decorators bottom-up
        if option.is_flag:
            command = click.option(option.flag, option.field, is_flag=True, help=option.help)(
                command
            )
            continue
        command = click.option(
            option.flag,
            option.field,
            type=option.type,
            default=option.shown(getattr(defaults, option.field)),
            show_default=True,
            help=option.help,
        )(command)
    return command


def politeness(values: dict[str, Any]) -> Politeness:
    """Return the `Politeness` the command's parsed values ask for."""
    return Politeness(**{o.field: o.taken(values[o.field]) for o in OPTIONS})


def unoptioned() -> set[str]:
    """Return the fields of `Politeness` the command has no option for (none, a test says)."""
    return {f.name for f in fields(Politeness)} - {o.field for o in OPTIONS}
