"""The exception tree. The CLI turns these into `Error: ...` messages (exit status 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl


def terminal_safe(text: str) -> str:
    """Return the text with control characters and bidi overrides escaped as `repr` does.

    Cells of a supplier's table or a map's properties reach reports and error messages; an
    escape sequence (`\x1b[2J`) or a right-to-left override (U+202E) in one would rewrite
    the operator's terminal or reverse what a line says. Line breaks of the report stay.
    """
    if text.isprintable():
        return text
    return "\n".join(
        line
        if line.isprintable()
        else "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)
        for line in text.split("\n")
    )


def install_hint(extra: str) -> str:
    """Return the commands that install the optional `extra` (e.g. "import").

    The package is not on a package index: it installs from a checkout or from the wheel
    `python -m build` writes into dist/, so the hint names both and no index entry.
    """
    from generator import __version__

    wheel = f"dist/trinkwasserdaten-{__version__}-py3-none-any.whl"
    return (
        f"pip install '.[{extra}]' in a checkout of the project, or "
        f"pip install '{wheel}[{extra}]' where the wheel was built"
    )


class TrinkwasserError(Exception):
    """Base class of every error the library raises on purpose."""


class ConfigError(TrinkwasserError):
    """The configuration file is invalid."""


class SourceDataError(TrinkwasserError):
    """The source data breaks the data contract; `problems` lists every problem."""

    def __init__(self, problems: pl.DataFrame, summary: str | None = None):
        self.problems = problems
        self.summary = summary or (
            f"the source data has {problems.height} problem(s); nothing was written"
        )
        """The last line the CLI prints, after the problems."""
        super().__init__(f"the source data has {problems.height} problem(s)")


class BuildError(TrinkwasserError):
    """The build could not be completed; the previous output is untouched."""
