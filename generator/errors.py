"""The exception tree. The CLI turns these into `Error: ...` messages (exit status 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl


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
