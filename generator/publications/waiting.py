"""Published values that wait for the operator's decision, and the command that settles each.

A value waits when the matcher found no sure code for its name (`no_match`) or found
several (`ambiguous`): a person can tell which parameter the supplier meant, and
`trinkwasser parameters decide NAME UNIT CODE --data DIR` records it in the data
directory's `aliases.csv`, so the next import takes the value. The other refusals are no
open question: the register says the name is no parameter of it (`not_in_register`), the
value is another quantity (`different_quantity`, e.g. nitrate given as N), the unit does
not fit (`unit_error`), or the contract has no place for the statistic.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from generator.publications.read import ROW

DECIDABLE = ("no_match", "ambiguous")
"""The matcher's statuses a decision settles."""

CODE_PLACEHOLDER = "CODE"


def decide_command(name: str, unit: str, data_dir: Path, code: str = CODE_PLACEHOLDER) -> str:
    """Return the shell command that records `name` in `unit` as `code` for `data_dir`."""
    words = ["trinkwasser", "parameters", "decide", name, unit, code, "--data", str(data_dir)]
    return shlex.join(words)


@dataclass(frozen=True)
class Waiting:
    """One published name and unit whose values wait for a decision."""

    name: str
    unit: str
    values: int
    """How many value cells of the table carry it."""
    rows: tuple[int, ...]
    """The table's rows it was read from."""
    status: str
    reason: str
    suggestions: tuple[str, ...]
    """Register codes of similar names, most similar first; never applied."""

    def command(self, data_dir: Path) -> str:
        """Return the command that settles it (CODE stands for the code to choose)."""
        return decide_command(self.name, self.unit, data_dir)

    def as_json(self, data_dir: Path) -> dict[str, Any]:
        return {
            "name": self.name,
            "unit": self.unit,
            "values": self.values,
            "rows": list(self.rows),
            "status": self.status,
            "reason": self.reason,
            "suggestions": list(self.suggestions),
            "command": self.command(data_dir),
        }


def waiting(withheld: pl.DataFrame, matches: pl.DataFrame) -> list[Waiting]:
    """Return the withheld values' names that a decision settles, in the table's order.

    `withheld` and `matches` are an import's (`ImportResult`): a value withheld for a clash
    of statistics, though its name is sure, waits for no decision about its name.
    """
    if withheld.height == 0:
        return []
    decidable = matches.filter(pl.col("status").is_in(DECIDABLE)).select("name", "unit")
    grouped = (
        withheld.with_columns(pl.col("unit").fill_null(""))
        .join(decidable, on=["name", "unit"], how="semi", maintain_order="left")
        .group_by("name", "unit", maintain_order=True)
        .agg(
            pl.len().alias("values"),
            pl.col(ROW).unique().sort(),
            pl.col("status").first(),
            pl.col("reason").first(),
            pl.col("suggestions").first(),
        )
    )
    return [
        Waiting(
            name=r["name"],
            unit=r["unit"],
            values=r["values"],
            rows=tuple(r[ROW]),
            status=r["status"],
            reason=r["reason"],
            suggestions=tuple((r["suggestions"] or "").split()),
        )
        for r in grouped.iter_rows(named=True)
    ]


def describe(items: list[Waiting], data_dir: Path, indent: str = "  ") -> list[str]:
    """Return lines naming each waiting name, its suggestions and the command that settles it."""
    lines = []
    for w in items:
        unit = f" [{w.unit}]" if w.unit else ""
        perhaps = f"; perhaps {' or '.join(w.suggestions)}" if w.suggestions else ""
        lines.append(f"{indent}{w.name!r}{unit}: {w.values} value(s), {w.reason}{perhaps}.")
        lines.append(f"{indent}  settle it: {w.command(data_dir)}")
    return lines
