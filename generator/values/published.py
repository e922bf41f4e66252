"""What a published value states: the numbers of the series, read once per distinct spelling.

A data point's numbers (`value`, `qualifier`, `reporting_limit`, and the two numbers in the
register unit, `normalized_value` and `normalized_reporting_limit`) follow from four of its
texts: the value as published, the reporting limit printed beside it, its unit and its
parameter. Ten million data points nationally have about a hundred thousand distinct
quadruples of these. So the series holds one code per row (`reading`), and the numbers are
a small table (the readings) that whoever shows or assesses rows gathers by that code
(`with_numbers`). As five columns of the series they were half of its memory.
"""

from __future__ import annotations

import polars as pl
import polars.selectors as cs

from generator.api.qualifiers import BELOW_REPORTING_LIMIT, NOT_DETECTED, NUMBER, QUALIFIERS
from generator.frames.compact import compact, mapped, packed, unpacked
from generator.values import units
from generator.values.parse import parse_values
from generator.values.units import SIG_FIGS

RENAMED = {"reporting_limit": "reporting_limit_text"}
"""The contract's columns the series names otherwise: the text beside the number it reads."""
READING = "reading"
"""The series' column: the row of the readings that holds the row's numbers."""
TEXTS = ("value_text", "reporting_limit_text", "unit", "parameter")
"""What the numbers of a data point follow from."""
NUMBERS = (
    "value",
    "qualifier",
    "reporting_limit",
    "normalized_value",
    "normalized_reporting_limit",
    "normalized_low",
)
QUALIFIER = pl.Enum(sorted(QUALIFIERS))
"""Compact like the series' text columns (`generator.frames.compact`), over every qualifier there
is, so that any qualifier compares with it."""


def read(measurements: pl.DataFrame, parameters: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return the series with a `reading` per row, and the readings (`NUMBERS`, by code).

    `value`, `qualifier`, `reporting_limit` come from `generator.values.parse.parse_values`;
    `normalized_value` and `normalized_reporting_limit` are the same numbers times the unit
    factor, to `SIG_FIGS` significant figures (the unrounded product is never kept: every
    verdict compares the rounded number, as the API shows it). A unit that does not convert
    for its parameter (Karbonathärte in mmol/l; a warning of the loader, `rules.WARNINGS`)
    has no factor: both normalized numbers are null, so nothing compares the value with a
    limit in the register unit (classify gives such a row `unit_mismatch`).

    The contract's `reporting_limit` is the text of a reporting-limit column: in the series
    it is `reporting_limit_text`, beside the number `reporting_limit` of the readings.
    """
    measurements = measurements.rename(RENAMED, strict=False)
    if "reporting_limit_text" not in measurements.columns:
        measurements = measurements.with_columns(
            pl.lit(None, dtype=pl.String).alias("reporting_limit_text")
        )
    # A column of nulls only (a caller's frame without any text in it) reads as text.
    texts = compact(measurements.select(TEXTS).with_columns(cs.by_dtype(pl.Null).cast(pl.String)))
    # One number per row from the codes of its four texts; the distinct numbers, sorted,
    # are the readings, so codes do not depend on threads.
    keys = packed(texts, TEXTS)
    distinct = keys.unique().sort()
    # Each key's place among the distinct ones, by a hash join: a binary search of ten
    # million keys took four times as long.
    places = distinct.to_frame().with_row_index(READING)
    reading = (
        keys.to_frame()
        .join(places, on="key", how="left", maintain_order="left")
        .get_column(READING)
    )
    del keys
    table = unpacked(distinct, texts, TEXTS)
    return measurements.with_columns(reading), _numbers(table, parameters)


def _numbers(table: pl.DataFrame, parameters: pl.DataFrame) -> pl.DataFrame:
    """Return the `NUMBERS` of each row of distinct `TEXTS` (plain text columns)."""
    parsed = _published_limit(parse_values(table, "value_text", with_low=True))
    pairs = (
        table.select("unit", "parameter")
        .unique()
        .join(
            parameters.select(pl.col("code").alias("parameter"), pl.col("unit").alias("_to")),
            on="parameter",
            how="inner",
        )
    )
    factors = units.factor_frame(pairs, "unit", "_to", "parameter").drop("_to")
    factor = (
        table.select("unit", "parameter")
        .join(factors, on=["unit", "parameter"], how="left", maintain_order="left")
        .get_column("factor")
    )
    return parsed.select(
        "value",
        pl.col("qualifier").cast(QUALIFIER),
        "reporting_limit",
        (pl.col("value") * factor).round_sig_figs(SIG_FIGS).alias("normalized_value"),
        (pl.col("reporting_limit") * factor)
        .round_sig_figs(SIG_FIGS)
        .alias("normalized_reporting_limit"),
        (pl.col("low") * factor).round_sig_figs(SIG_FIGS).alias("normalized_low"),
    )


def _published_limit(parsed: pl.DataFrame) -> pl.DataFrame:
    """Give `< x`, `< BG` and `n.n.` the reporting limit printed in a column of its own.

    A value below the reporting limit without a number (`< BG`, `< NWG`) says only "less
    than the limit in the reporting-limit column", and `n.n.` beside such a column says the
    method could not detect the substance at that limit: the column's number is then their
    reporting limit. Where the cell has a number too (`< 0,05` beside 0,1), the larger
    counts: the value is below the smaller, but the laboratory vouches only for the larger.
    """
    printed = parse_values(
        parsed.select(pl.col("reporting_limit_text").alias("value_text")), "value_text"
    )
    number = printed.select(
        pl.when(pl.col("qualifier").is_in([NUMBER, BELOW_REPORTING_LIMIT])).then(
            pl.coalesce("value", "reporting_limit")
        )
    ).to_series()
    q = pl.col("qualifier")
    return parsed.with_columns(
        pl.when(q.is_in([BELOW_REPORTING_LIMIT, NOT_DETECTED]))
        .then(pl.max_horizontal(pl.col("reporting_limit"), number))
        .otherwise(pl.col("reporting_limit"))
        .alias("reporting_limit")
    )


def with_numbers(rows: pl.DataFrame, readings: pl.DataFrame, keep: bool = False) -> pl.DataFrame:
    """Return rows of the series with the `NUMBERS` of their `reading` in its place.

    `keep`: beside it, for whoever computes something of a reading once, not per row.
    """
    numbers = readings.gather(rows.get_column(READING))
    return (rows if keep else rows.drop(READING)).hstack(numbers)


def measurement_rows(measurements: pl.DataFrame, parameters: pl.DataFrame) -> pl.DataFrame:
    """Return these data points with their register unit, in their order (the verbatim series)."""
    # The loader already sorted the table; adding columns does not copy the others.
    units_by_code = parameters.select("code", "unit")
    unit = mapped(
        measurements,
        "parameter",
        lambda code: code.replace_strict(
            units_by_code["code"], units_by_code["unit"], default=None
        ),
    )
    return measurements.with_columns(unit.alias("normalized_unit"))


def read_series(
    measurements: pl.DataFrame, parameters: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return the series of these rows of the source table, and its readings.

    A `reading` per row (`generator.values.published`) and each row's `normalized_unit`. A
    reading's numbers follow from its own four texts, so rows read apart read alike.
    """
    series, readings = read(measurements, parameters)
    return measurement_rows(series, parameters), readings
