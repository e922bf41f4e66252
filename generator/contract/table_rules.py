"""Table rules: constraints on several rows, or on rows of two tables, together."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from generator.contract import rules
from generator.contract.model import ROW, Context, Table, TableRule
from generator.contract.order import neighbours
from generator.contract.rules import Rule
from generator.frames.compact import as_text, like, per_text
from generator.frames.slices import rows_of


def _shown(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def all_rules(table: Table) -> tuple[TableRule, ...]:
    """Return every table-level rule of `table`, the key's uniqueness first."""
    nullable = tuple(k for k in table.key if not table.column(k).required)
    # Sorted by the key's columns first, equal keys are neighbours.
    by_key = set(table.sorted_by[: len(table.key)]) == set(table.key)
    order = table.sorted_by if by_key else ()
    return (UniqueKey(table.key, nullable, order, table=table.name), *table.rules)


@dataclass(frozen=True)
class UniqueKey(TableRule):
    """No two rows share the key. Built from `Table.key`; never declared by hand."""

    key: tuple[str, ...]
    nullable: tuple[str, ...] = ()
    """Optional key columns: an empty cell there is a value like any other (`sample_point`)."""
    order: tuple[str, ...] = ()
    """The table's `sorted_by` when it starts with the key's columns (in any order)."""
    rule: Rule = rules.DUPLICATE_KEY
    table: str = ""
    """The table's name: where the checker was told which of its rows may tie (`Context`)."""

    @property
    def column(self) -> str:
        return self.key[0]

    def columns(self) -> tuple[str, ...]:
        return self.key

    def describe(self) -> str:
        return f"no two rows share the key ({_shown(self.key)})"

    def find(self, frame: pl.DataFrame, ctx: Context) -> pl.DataFrame | None:
        key = list(self.key)
        # A row with an empty required key column is an `empty_required` problem already.
        must = [k for k in key if k not in self.nullable]
        complete = pl.all_horizontal(pl.col(k).is_not_null() for k in must)
        # A 64-bit hash per row finds candidate duplicates without materialising the
        # composite key (10 million rows of strings), and without filtering the frame (a
        # copy of every column); candidates are then compared on the real key.
        suspects = self._neighbours(frame, complete, ctx)
        if suspects is None:
            row_hash = pl.lit(0, dtype=pl.UInt64)
            for i, k in enumerate(key):
                row_hash = row_hash * 1_000_003 + pl.col(k).hash(seed=i)
            hashed = frame.select(pl.col(ROW), row_hash.alias("_h"), complete.alias("_complete"))
            hashed = hashed.filter(pl.col("_complete")).drop("_complete")
            suspects = hashed.filter(pl.col("_h").is_duplicated()).select(ROW)
            del hashed
        if suspects.height == 0:
            return None
        candidates = frame.select(ROW, *key).join(suspects, on=ROW, how="semi").sort(ROW)
        repeated = candidates.filter(~pl.struct(key).is_first_distinct())
        if repeated.height == 0:
            return None
        first = candidates.group_by(key).agg(pl.col(ROW).min().alias("_first"))
        dup = repeated.join(first, on=key, how="left", nulls_equal=True)
        value = pl.concat_str(
            [pl.col(k).cast(pl.String).fill_null("") for k in key], separator=" | "
        )
        return dup.select(
            ROW,
            value.alias("value"),
            pl.format(
                "duplicate key ({}): same as row {}", pl.lit(", ".join(key)), pl.col("_first")
            ).alias("message"),
        )

    def _neighbours(
        self, frame: pl.DataFrame, complete: pl.Expr, ctx: Context
    ) -> pl.DataFrame | None:
        """Return the rows equal to a neighbour on the key if the frame is in `order`, else None.

        In order, two rows with one key are neighbours: a pass over the sorted table
        finds them without a hash table of every row.
        """
        if not self.order or frame.height < 2:
            return None
        ties = ctx.may_tie(self.table) if len(self.order) == len(self.key) else None
        if ties is not None:
            # Sorted by the key alone, its rows tie only where the sort said they may: a
            # daily update's few zones, not ten million rows compared again.
            frame = rows_of(frame, self.order[0], ties)
            if frame.height < 2:
                return frame.select(ROW)
        pairs = neighbours(frame, self.order)
        if not pairs.select((pl.col("before") | pl.col("same")).all()).item():
            return None
        same = pairs.get_column("same")  # row i and row i + 1
        as_next = same.extend_constant(False, 1)
        as_previous = pl.Series([False]).extend(same)
        paired = frame.select(complete).to_series() & (as_next | as_previous)
        return frame.select(ROW).filter(paired)


@dataclass(frozen=True)
class ShareSum(TableRule):
    """The shares of one group add up to at most `at_most` (plus a rounding tolerance)."""

    column: str
    per: str | tuple[str, ...]
    """The column, or columns, whose values make a group (a PLZ; a street of a PLZ)."""
    at_most: float = 1.0
    tolerance: float = 0.001
    rule: Rule = rules.SHARE_SUM_EXCEEDS_ONE

    @property
    def group(self) -> tuple[str, ...]:
        return (self.per,) if isinstance(self.per, str) else self.per

    def columns(self) -> tuple[str, ...]:
        return (self.column, *self.group)

    def describe(self) -> str:
        group = _shown(self.group)
        return (
            f"the `{self.column}` values of one {group if len(self.group) == 1 else f'({group})'}"
            f" add up to at most {self.at_most:g} (tolerance {self.tolerance:g})"
        )

    def find(self, frame: pl.DataFrame, ctx: Context) -> pl.DataFrame | None:
        group = list(self.group)
        known = pl.all_horizontal(pl.col(c).is_not_null() for c in [*group, self.column])
        sums = (
            frame.filter(known)
            .group_by(group)
            .agg(
                pl.col(ROW).min(),
                pl.col(self.column).sum().alias("_total"),
                pl.col(ROW).sort().cast(pl.String).str.join(", ").alias("_rows"),
            )
            .filter(pl.col("_total") > self.at_most + self.tolerance)
        )
        which = pl.concat_str(
            [pl.format("{} {}", pl.lit(c), pl.col(c).cast(pl.String)) for c in group],
            separator=", ",
        )
        return sums.select(
            ROW,
            pl.col("_total").round(4).cast(pl.String).alias("value"),
            pl.format(
                "the {} values of {} (rows {}) add up to {}, more than {}",
                pl.lit(f"{self.column}"),
                which,
                pl.col("_rows"),
                pl.col("_total").round(4),
                pl.lit(f"{self.at_most:g}"),
            ).alias("message"),
        )


@dataclass(frozen=True)
class RowOf(TableRule):
    """The values of several columns together name a row of another table (a pair key).

    A street's (`plz`, `zone_id`) must be a row of `plz_zones`: a street cannot lie in a
    zone that does not serve its PLZ.
    """

    pair: tuple[str, ...]
    table: str
    rule: Rule = rules.DANGLING_REFERENCE

    @property
    def column(self) -> str:
        return self.pair[-1]

    def columns(self) -> tuple[str, ...]:
        return self.pair

    def describe(self) -> str:
        return f"({_shown(self.pair)}) is a row of `{self.table}`"

    def find(self, frame: pl.DataFrame, ctx: Context) -> pl.DataFrame | None:
        other = ctx.table(self.table)
        if other is None:
            return None  # the other table has its own problem
        pair = list(self.pair)
        known = frame.filter(pl.all_horizontal(pl.col(c).is_not_null() for c in pair))
        missing = known.join(other.select(pair).unique(), on=pair, how="anti")
        return missing.select(
            ROW,
            pl.concat_str([pl.col(c).cast(pl.String) for c in pair], separator=" | ").alias(
                "value"
            ),
            pl.format(
                "{} is no row of {}",
                pl.concat_str(
                    [pl.format("{} {}", pl.lit(c), pl.col(c).cast(pl.String)) for c in pair],
                    separator=", ",
                ),
                pl.lit(self.table),
            ).alias("message"),
        )


@dataclass(frozen=True)
class NonOverlapping(TableRule):
    """The validity periods [start, end] of one group do not overlap (empty end: open)."""

    per: str
    start: str
    end: str
    rule: Rule = rules.OVERLAPPING_VALIDITY

    @property
    def column(self) -> str:
        return self.start

    def columns(self) -> tuple[str, ...]:
        return (self.per, self.start, self.end)

    def describe(self) -> str:
        return (
            f"the periods `{self.start}`..`{self.end}` of one `{self.per}` do not overlap "
            f"(an empty `{self.end}` is open-ended)"
        )

    def find(self, frame: pl.DataFrame, ctx: Context) -> pl.DataFrame | None:
        ordered = frame.filter(pl.col(self.start).is_not_null()).sort(self.per, self.start, ROW)
        ordered = ordered.with_columns(
            pl.col(self.end).shift(1).over(self.per).alias("_prev_end"),
            pl.col(ROW).shift(1).over(self.per).alias("_prev_row"),
        )
        overlapping = ordered.filter(
            pl.col("_prev_row").is_not_null()
            & (pl.col("_prev_end").is_null() | (pl.col("_prev_end") >= pl.col(self.start)))
        )
        return overlapping.select(
            ROW,
            pl.col(self.start).cast(pl.String).alias("value"),
            pl.format(
                "validity of {} overlaps the period of row {}",
                pl.col(self.per),
                pl.col("_prev_row"),
            ).alias("message"),
        )


@dataclass(frozen=True)
class NotAfterReferenced(TableRule):
    """A date not after a date of the row another table's key names (sample before report)."""

    column: str
    via: str
    table: str
    other: str
    """The date column of `table`."""
    key: str
    """The key column of `table` that `via` names."""
    rule: Rule = rules.DATE_ORDER

    def columns(self) -> tuple[str, ...]:
        return (self.column, self.via)

    def describe(self) -> str:
        return (
            f"`{self.column}` is not after the `{self.other}` of the `{self.table}` row "
            f"its `{self.via}` names"
        )

    def find(self, frame: pl.DataFrame, ctx: Context) -> pl.DataFrame | None:
        other = ctx.table(self.table)
        if other is None:
            return None
        dates = other.select(pl.col(self.key).alias(self.via), pl.col(self.other).alias("_other"))
        if dates.get_column(self.via).drop_nulls().is_duplicated().any():
            # A key named twice (its own `duplicate_key` problem): each of its rows counts.
            # Typed like the rows: a key none of them names drops out with the nulls.
            dates = like(dates, frame).drop_nulls(self.via)
            joined = frame.select(ROW, self.via, self.column).join(dates, on=self.via)
        else:
            # The other table's date looked up beside each row: three columns, not a join's
            # copy of them. As text: each text of the rows looks its key up once.
            plain = as_text(dates).drop_nulls(self.via)

            def theirs(key: pl.Expr) -> pl.Expr:
                return key.replace_strict(
                    plain.get_column(self.via),
                    plain.get_column("_other"),
                    default=None,
                    return_dtype=plain.schema["_other"],
                )

            # Of a compact column, once per text (`per_text`).
            looked_up = per_text(frame, self.via, theirs)
            joined = frame.select(ROW, self.via, self.column, pl.lit(looked_up).alias("_other"))
        return joined.filter(pl.col(self.column) > pl.col("_other")).select(
            ROW,
            pl.col(self.column).cast(pl.String).alias("value"),
            pl.format(
                "{} {} is after the {} {} of {} {}",
                pl.lit(self.column),
                pl.col(self.column),
                pl.lit(self.other),
                pl.col("_other"),
                pl.lit(self.via),
                pl.col(self.via),
            ).alias("message"),
        )
