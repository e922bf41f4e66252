"""The building blocks of the contract: column types, columns, tables, constraints.

A constraint is an object that knows its rule, its message, how to find the rows that break
it (a polars mask or a join over whole columns) and how to describe itself in the docs. The
generic checker (`generator.contract.check`) walks the declarations; nothing else lists rules.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:
    from generator.contract.rules import Rule

# Logical column types. Every source value is read as text (CSV) or as its Parquet type,
# then cast to one of these; a failed cast is a `wrong_type` (or `invalid_date`) problem.
STR = "str"
INT = "int"
FLOAT = "float"
DATE = "date"
DTYPES: dict[str, type[pl.DataType]] = {
    STR: pl.String,
    INT: pl.Int64,
    FLOAT: pl.Float64,
    DATE: pl.Date,
}

# What an absent table means.
REQUIRED = "required"
"""The table must be in the data directory (`missing_table` otherwise)."""
EMPTY = "empty"
"""The table may be left out; then it has no rows."""
PACKAGED = "packaged"
"""The table ships with the package (generator/reference/); the data directory may replace it."""

_PYTHON_TYPES: dict[str, type | tuple[type, ...]] = {
    STR: str,
    INT: int,
    FLOAT: (int, float),
    DATE: dt.date,
}

ROW = "_row"
"""Working column: the 1-based data row of the file (the header is not counted)."""


class Context:
    """What a constraint may look at besides its own table: the other typed tables."""

    def __init__(
        self, tables: dict[str, pl.DataFrame], ties: dict[str, pl.Series | None] | None = None
    ):
        self.tables = tables
        self.ties = ties or {}
        """Per table sorted as declared, where its rows may tie (`order.Declared.ties`)."""

    def table(self, name: str) -> pl.DataFrame | None:
        """Return the typed frame of `name`, or None when it could not be loaded."""
        return self.tables.get(name)

    def may_tie(self, name: str) -> pl.Series | None:
        """Return the values of the first sorted column of `name` whose rows may tie (sorted).

        None when any row may (or nothing is known of the table's order).
        """
        return self.ties.get(name)


class Constraint:
    """A rule about the values of one column (subclasses: RowConstraint, JoinConstraint)."""

    rule: Rule

    def describe(self) -> str:
        """Say in a few words what a valid value looks like (the docs' constraints column)."""
        raise NotImplementedError

    def columns(self) -> tuple[str, ...]:
        """Other columns of the same table the constraint reads."""
        return ()

    def foreign_key(self) -> tuple[str, str] | None:
        """Return (other table, other column) if the docs list this as a foreign key."""
        return None


class RowConstraint(Constraint):
    """A constraint decided by each row on its own; all of a table's masks run in one pass."""

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        """Return an expression that is true where the row breaks the constraint.

        `frame` is the typed table; a constraint may look at its distinct values to build
        the expression (never at each row in Python).
        """
        raise NotImplementedError

    def message(self, column: str) -> str | pl.Expr:
        raise NotImplementedError


class JoinConstraint(Constraint):
    """A constraint that needs another table (a join) to find the rows that break it."""

    def find(self, column: str, frame: pl.DataFrame, ctx: Context) -> pl.DataFrame | None:
        """Return the breaking rows as a frame of `ROW`, `value` and `message`, or None."""
        raise NotImplementedError


class TableRule:
    """A rule about several rows or tables together (keys, sums, periods, date order)."""

    rule: Rule

    if TYPE_CHECKING:
        # Subclasses give it as a dataclass field or as a property; declared read-only
        # here (only for the checker) so both may override it.
        @property
        def column(self) -> str:
            """The column problems are reported in."""

    def describe(self) -> str:
        """One sentence for the docs."""
        raise NotImplementedError

    def columns(self) -> tuple[str, ...]:
        """Every column of its own table the rule reads."""
        return (self.column,)

    def find(self, frame: pl.DataFrame, ctx: Context) -> pl.DataFrame | None:
        """Return the breaking rows as a frame of `ROW`, `value` and `message`, or None."""
        raise NotImplementedError


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    required: bool
    """True: the column must be in the file and no cell may be empty."""
    meaning: str
    example: str
    rules: tuple[Constraint, ...] = ()
    default: str | int | float | None = None
    """Value of an empty cell, and of every row when an optional column is left out."""

    def __post_init__(self) -> None:
        if self.type not in DTYPES:
            raise ValueError(f"column {self.name}: unknown type {self.type!r}")
        if self.required and self.default is not None:
            raise ValueError(f"column {self.name}: a required column cannot have a default")
        if self.default is not None and not isinstance(self.default, _PYTHON_TYPES[self.type]):
            raise ValueError(f"column {self.name}: default {self.default!r} is not {self.type}")

    @property
    def constraints(self) -> str:
        """The constraints in words, as the docs show them."""
        return "; ".join(c.describe() for c in self.rules)


@dataclass(frozen=True)
class Table:
    name: str
    meaning: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    """Unique per row (`duplicate_key` otherwise)."""
    rules: tuple[TableRule, ...] = field(default=())
    if_absent: str = REQUIRED
    sorted_by: tuple[str, ...] = field(default=())
    """The loader hands the rows on sorted by these columns (nulls first)."""
    compact: bool = False
    """Its text columns are read as `Enum`s and checked once per distinct text.

    For the one table whose text is most of a build's memory and time (the measurements):
    10 million cells name some ten thousand texts.
    """

    def __post_init__(self) -> None:
        if self.if_absent not in (REQUIRED, EMPTY, PACKAGED):
            raise ValueError(f"table {self.name}: unknown if_absent {self.if_absent!r}")
        names = self.names
        if len(set(names)) != len(names):
            raise ValueError(f"table {self.name}: a column is declared twice")
        unknown = set(self.key) | set(self.sorted_by)
        for rule in self.rules:
            unknown |= set(rule.columns())
        for column in self.columns:
            for constraint in column.rules:
                unknown |= set(constraint.columns())
        unknown -= set(names)
        if unknown:
            raise ValueError(f"table {self.name}: rules name unknown columns {sorted(unknown)}")

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def references(self) -> tuple[tuple[str, str, str], ...]:
        """(column, other table, other column) of every foreign key checked as dangling."""
        return tuple(
            (c.name, *key) for c in self.columns for r in c.rules if (key := r.foreign_key())
        )

    @property
    def dtypes(self) -> dict[str, type[pl.DataType]]:
        return {c.name: DTYPES[c.type] for c in self.columns}
