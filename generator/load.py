"""Stage 1: load the source tables and check them against the data contract.

The contract is declared in `generator.contract.tables` and enforced by one generic checker
(`generator.contract.check`). Every problem is collected (table, row, column, offending
value, rule, how to fix) and reported at once; nothing downstream runs on data that broke
the contract. What comes out are the validated, typed source tables; reading published
values and converting units is the next stage's work (`generator.derive`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path

import polars as pl

from generator.config import is_sample as is_sample
from generator.config import sample_data_dir as sample_data_dir
from generator.contract import provenance, rules
from generator.contract.check import check_tables
from generator.contract.memo import Memo
from generator.contract.model import ROW
from generator.contract.problems import Problems
from generator.contract.provenance import MappingProvenance
from generator.contract.tables import ALL_TABLES, MEASUREMENTS
from generator.errors import SourceDataError, terminal_safe

# rule -> how to fix it. The rule names are part of the documented contract.
RULES: dict[str, str] = {r.name: r.fix for r in rules.ALL}
MEASUREMENT_ORDER = list(MEASUREMENTS.sorted_by)


@dataclass(frozen=True)
class SourceData:
    """The validated, typed tables a build works on.

    One field per declared table, and the mapping's provenance (`mapping.json`) where the data
    directory has it.
    """

    suppliers: pl.DataFrame
    zones: pl.DataFrame
    plz_zones: pl.DataFrame
    streets: pl.DataFrame
    documents: pl.DataFrame
    measurements: pl.DataFrame
    """Sorted by MEASUREMENT_ORDER; `value_text` exactly as published; text as `Enum`s."""
    places: pl.DataFrame
    """Optional: no rows when the data directory has no places table."""
    plz_shapes: pl.DataFrame
    """Optional: the PLZ areas for the map (no rows without a plz_shapes table)."""
    sources: pl.DataFrame
    """The register of publications `trinkwasser fetch` reads; the build does not use it."""
    aliases: pl.DataFrame
    """The operator's decisions on published names (`trinkwasser import` reads them)."""
    undecided: pl.DataFrame
    """Published values waiting for a decision (the zones' summaries say so)."""
    parameters: pl.DataFrame
    limits: pl.DataFrame
    pesticides: pl.DataFrame
    explanations: pl.DataFrame
    explained_parameters: pl.DataFrame
    hardness_ranges: pl.DataFrame
    mapping: MappingProvenance | None = None


def _check_fields() -> None:
    """SourceData has one field per declared table: a table is never dropped silently."""
    declared = {t.name for t in ALL_TABLES}
    held = {f.name for f in fields(SourceData)} - {"mapping"}
    if declared != held:
        raise TypeError(
            "SourceData and the declared tables differ: "
            f"not held {sorted(declared - held)}, not declared {sorted(held - declared)}"
        )


_check_fields()


def reference_dir() -> Path:
    """Return the directory of the packaged reference tables (register, limits, ...)."""
    return Path(str(resources.files("generator") / "reference"))


LOAD_STEPS = 2 * len(ALL_TABLES)
"""Units of progress of a load: each table read, then each checked (the `tick` calls)."""


@dataclass(frozen=True)
class Checked:
    """What checking a data directory found."""

    data: SourceData | None
    """The typed tables, or None when there are errors."""
    problems: pl.DataFrame
    """The errors: table, row, column, value, rule, message."""
    warnings: pl.DataFrame
    """Breaches of the rules of `rules.WARNINGS`, in the same form: their rows are kept (a
    unit that does not convert: the value is kept as published, without a verdict)."""


def checked(
    data_dir: Path, tick: Callable[[], None] | None = None, kept: Memo | None = None
) -> Checked:
    """Load and check every table and `mapping.json`; return the data, errors and warnings.

    `kept`: where the series' row groups read by the last build are kept
    (`generator.contract.memo`).
    """
    result = check_tables(
        Path(data_dir), ALL_TABLES, reference_dir(), tick, as_declared=True, kept=kept
    )
    more = Problems()
    mapping = provenance.read(Path(data_dir), more) if Path(data_dir).is_dir() else None
    problems = pl.concat([result.problems, more.frame([provenance.TABLE])])
    if not result.complete(ALL_TABLES) or problems.height:
        return Checked(None, problems, result.warnings)
    # Popped: each table is released as its frame without the row numbers is made.
    frames = {table.name: result.tables.pop(table.name).drop(ROW) for table in ALL_TABLES}
    return Checked(SourceData(**frames, mapping=mapping), problems, result.warnings)


def check(
    data_dir: Path, tick: Callable[[], None] | None = None, kept: Memo | None = None
) -> tuple[SourceData | None, pl.DataFrame]:
    """Load and check every table and `mapping.json`: the typed data (or None) and the errors.

    The warnings are `checked`'s.
    """
    result = checked(data_dir, tick, kept)
    return result.data, result.problems


def load_warned(
    data_dir: Path, tick: Callable[[], None] | None = None, kept: Memo | None = None
) -> tuple[SourceData, pl.DataFrame]:
    """Load and check the data directory: the data and its warnings.

    Raise SourceDataError listing every error (and no warning) when there is one.
    """
    result = checked(data_dir, tick, kept)
    if result.data is None:
        raise SourceDataError(result.problems)
    return result.data, result.warnings


def load(
    data_dir: Path, tick: Callable[[], None] | None = None, kept: Memo | None = None
) -> SourceData:
    """Load and check the data directory; raise SourceDataError listing every error."""
    return load_warned(data_dir, tick, kept)[0]


def format_problems(problems: pl.DataFrame, limit: int | None = 200, label: str = "") -> str:
    """Render problems as lines a person can act on, with a hint per rule.

    `label` starts each line (`warning: ` for the warnings).
    """
    lines: list[str] = []
    shown = problems if limit is None or limit <= 0 else problems.head(limit)
    for p in shown.iter_rows(named=True):
        where = p["table"] or "data directory"  # no table: the directory is missing
        if p["row"] is not None:
            where += f", row {p['row']}"
        if p["column"] is not None:
            where += f", column {p['column']}"
        value = "" if p["value"] is None else f" (value: {p['value']!r})"
        lines.append(f"{label}{where}: {p['message']}{value} [{p['rule']}] Fix: {RULES[p['rule']]}")
    if limit and problems.height > limit:
        lines.append(f"... and {problems.height - limit} more (use --max-problems 0 to list all)")
    return terminal_safe("\n".join(lines))


def format_warnings(warnings: pl.DataFrame, limit: int | None = 200) -> str:
    """Render warnings as `format_problems` does, each line marked, after one line of summary."""
    summary = (
        f"warning: {warnings.height} value(s) kept as published, without a verdict "
        "(the build goes on):"
    )
    return terminal_safe(summary) + "\n" + format_problems(warnings, limit, "warning: ")
