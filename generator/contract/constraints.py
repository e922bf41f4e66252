"""Column constraints: each knows its rule, its message, its test and its description.

Row constraints return a polars mask (true where a row breaks them); the checker evaluates
every mask of a table in one pass. Join constraints look the values up in another table.
Nothing here touches a row in Python: at most the *distinct* values of a column (a few
hundred unit spellings), never each of the 10 million measurements.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from generator.contract import rules
from generator.contract.model import ROW, Context, JoinConstraint, RowConstraint
from generator.contract.rules import Rule
from generator.frames.compact import as_text, distinct, like
from generator.values import parse, units


def _number(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True)
class Positive(RowConstraint):
    rule: Rule = rules.NOT_POSITIVE

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        return pl.col(column) <= 0

    def message(self, column: str) -> str:
        return f"{column} must be greater than 0"

    def describe(self) -> str:
        return "> 0"


@dataclass(frozen=True)
class NonNegative(RowConstraint):
    rule: Rule = rules.NEGATIVE

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        return pl.col(column) < 0

    def message(self, column: str) -> str:
        return f"{column} cannot be negative"

    def describe(self) -> str:
        return ">= 0"


@dataclass(frozen=True)
class Range(RowConstraint):
    lo: float
    hi: float
    lo_open: bool = False
    hi_open: bool = False
    rule: Rule = rules.OUT_OF_RANGE

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        c = pl.col(column)
        below = c <= self.lo if self.lo_open else c < self.lo
        above = c >= self.hi if self.hi_open else c > self.hi
        return below | above

    def message(self, column: str) -> str:
        return f"{column} must be {self.describe()}"

    def describe(self) -> str:
        left, right = "(" if self.lo_open else "[", ")" if self.hi_open else "]"
        return f"in {left}{_number(self.lo)}, {_number(self.hi)}{right}"


@dataclass(frozen=True)
class Pattern(RowConstraint):
    regex: str
    rule: Rule
    says: str
    """What a matching value is, in words: the message reads `COLUMN must be SAYS`."""

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        return ~pl.col(column).str.contains(self.regex)

    def message(self, column: str) -> str:
        return f"{column} must be {self.says}"

    def describe(self) -> str:
        return f"{self.says}: `{self.regex}`"


@dataclass(frozen=True)
class FilledWithout(RowConstraint):
    """Required where another column of the row is empty (a reason where there is no code)."""

    other: str
    rule: Rule = rules.MISSING_REASON

    def columns(self) -> tuple[str, ...]:
        return (self.other,)

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        return pl.col(column).is_null() & pl.col(self.other).is_null()

    def message(self, column: str) -> str:
        return f"{column} is required when {self.other} is empty"

    def describe(self) -> str:
        return f"required when `{self.other}` is empty"


@dataclass(frozen=True)
class Choices(RowConstraint):
    values: tuple[str, ...]
    rule: Rule = rules.INVALID_CHOICE

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        return ~pl.col(column).is_in(self.values)

    def message(self, column: str) -> str:
        return f"{column} must be one of {', '.join(self.values)}"

    def describe(self) -> str:
        return "one of " + ", ".join(f"`{v}`" for v in self.values)


@dataclass(frozen=True)
class NotBefore(RowConstraint):
    """A date that cannot lie before another date of the same row."""

    other: str
    rule: Rule = rules.DATE_ORDER

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        return pl.col(column) < pl.col(self.other)

    def message(self, column: str) -> pl.Expr:
        return pl.format(
            "{} {} is before {} {}",
            pl.lit(column),
            pl.col(column),
            pl.lit(self.other),
            pl.col(self.other),
        )

    def describe(self) -> str:
        return f"not before `{self.other}`"

    def columns(self) -> tuple[str, ...]:
        return (self.other,)


@dataclass(frozen=True)
class References(JoinConstraint):
    """A foreign key: the value must exist in `table.column`."""

    table: str
    column: str
    rule: Rule = rules.DANGLING_REFERENCE

    def find(self, column: str, frame: pl.DataFrame, ctx: Context) -> pl.DataFrame | None:
        other = ctx.table(self.table)
        if other is None:
            return None  # the other table has its own problem; do not pile up more
        known = other.select(pl.col(self.column).drop_nulls().unique().alias(column))
        # Each distinct value is looked up once, then the rows of those not found are
        # gathered: two columns, not a join's copy of 10 million rows.
        dtype = frame.get_column(column).dtype
        if isinstance(dtype, pl.Enum):
            # Its texts: a text no row uses could only find no rows below.
            distinct = dtype.categories.alias(column).to_frame()
        else:
            distinct = frame.select(pl.col(column).drop_nulls().unique())
        missing = as_text(distinct).join(as_text(known), on=column, how="anti")
        if missing.height == 0:
            return None
        cells = frame.select(ROW, column)
        dangling = cells.join(like(missing, cells), on=column, how="semi")
        return dangling.select(
            ROW,
            pl.col(column).cast(pl.String).alias("value"),
            pl.lit(f"{column} not found in {self.table}.{self.column}").alias("message"),
        )

    def describe(self) -> str:
        return f"-> `{self.table}.{self.column}`"

    def foreign_key(self) -> tuple[str, str] | None:
        return (self.table, self.column)


@dataclass(frozen=True)
class InRegister(References):
    """A parameter code: the value must be a code of the parameter register."""

    table: str = "parameters"
    column: str = "code"
    rule: Rule = rules.UNKNOWN_PARAMETER

    def foreign_key(self) -> tuple[str, str] | None:
        return None  # the register is no table of the data: the docs say "in the register"

    def describe(self) -> str:
        return "a code of the parameter register (`parameters.code`)"


@dataclass(frozen=True)
class Unit(RowConstraint):
    """A unit spelling `generator.values.units` knows (an empty cell means: no unit)."""

    rule: Rule = rules.UNKNOWN_UNIT

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        spellings = frame.get_column(column).drop_nulls().unique().to_list()
        unknown = [s for s in spellings if units.canonical(s) is None]
        return pl.col(column).is_in(unknown)

    def message(self, column: str) -> str:
        return "unit spelling is not known"

    def describe(self) -> str:
        return "a known unit spelling (see Units)"


def _shown_unit(unit: pl.Expr) -> pl.Expr:
    return pl.when(unit == "").then(pl.lit("(none)")).otherwise(unit)


@dataclass(frozen=True)
class UnitConvertible(JoinConstraint):
    """The unit converts to the register unit of the row's parameter."""

    parameter: str = "parameter"
    rule: Rule = rules.UNIT_NOT_CONVERTIBLE

    def find(self, column: str, frame: pl.DataFrame, ctx: Context) -> pl.DataFrame | None:
        params = ctx.table("parameters")
        if params is None:
            return None
        # Python sees each distinct (unit, parameter) pair once, never each row.
        pairs = distinct(frame, [column, self.parameter])
        pairs = pairs.with_columns(pl.col(column).fill_null("").alias("_unit")).join(
            params.select(
                pl.col("code").alias(self.parameter),
                pl.col("unit").fill_null("").alias("_parameter_unit"),
            ),
            on=self.parameter,
            how="inner",
        )
        known = [units.canonical(u) is not None for u in pairs.get_column("_unit").to_list()]
        pairs = units.factor_frame(
            pairs.filter(pl.Series(known, dtype=pl.Boolean)),
            "_unit",
            "_parameter_unit",
            self.parameter,
        )
        bad = pairs.filter(pl.col("factor").is_null()).drop("factor")
        if bad.height == 0:
            return None
        cells = frame.select(ROW, column, self.parameter)
        hits = cells.join(like(bad, cells), on=[column, self.parameter], nulls_equal=True)
        return hits.select(
            ROW,
            pl.col("_unit").alias("value"),
            pl.format(
                "unit {} cannot be converted to {}'s unit {}",
                _shown_unit(pl.col("_unit")),
                pl.col(self.parameter),
                _shown_unit(pl.col("_parameter_unit")),
            ).alias("message"),
        )

    def describe(self) -> str:
        return "convertible to the unit of the parameter (empty only for unitless parameters)"

    def columns(self) -> tuple[str, ...]:
        return (self.parameter,)


@dataclass(frozen=True)
class LimitValue(RowConstraint):
    """A limit as the column `kind` demands: a number, `min..max`, or requirement text."""

    kind: str = "kind"
    rule: Rule = rules.INVALID_LIMIT_VALUE

    def mask(self, column: str, frame: pl.DataFrame) -> pl.Expr:
        return parse.unreadable_limit_value(pl.col(column), pl.col(self.kind))

    def message(self, column: str) -> str:
        return f"{column} must be a number (or min..max for {self.kind} range)"

    def columns(self) -> tuple[str, ...]:
        return (self.kind,)

    def describe(self) -> str:
        numeric = ", ".join(f"`{k}`" for k in parse.NUMERIC_LIMIT_KINDS)
        return (
            f"a number with a decimal point for {numeric}; `min..max` for `range`; "
            "the requirement in words for `requirement`"
        )
