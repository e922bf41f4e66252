"""The series' data points as JSON, each member written once per distinct value.

A data point's object (`resources.MEASUREMENT`, keys sorted) has nine members that follow
from its reading (`generator.published`: its four texts and the numbers read from them) and
four of its own (its document, sample point, date and statistic). A batch of a hundred
zones has tens of thousands of rows but a few thousand readings, dates, documents and sample
points. So each run of members is encoded once per distinct value and every row's object
is put together from them: members encoded alone are, byte for byte, the members of the
object encoded whole (`struct.json_encode`, no spaces), and encoding every member of every
row was most of the series' encoding time.
"""

from __future__ import annotations

import polars as pl

from generator.api.fields import Resource
from generator.compact import as_text
from generator.published import NUMBERS, READING, TEXTS, with_numbers

OF_READING = frozenset(TEXTS) | frozenset(NUMBERS)
"""The members a row's reading decides."""


def runs(resource: Resource) -> list[tuple[bool, list[str]]]:
    """Split the resource's members, in key order, into runs: (of the reading?, names)."""
    found: list[tuple[bool, list[str]]] = []
    for name in sorted(resource.names):
        of_reading = name in OF_READING
        if found and found[-1][0] == of_reading:
            found[-1][1].append(name)
        else:
            found.append((of_reading, [name]))
    return found


def _members(names: list[str]) -> pl.Expr:
    """Return the members `"a":1,"b":null` of these columns: their object without braces."""
    whole = pl.struct([pl.col(name) for name in names]).struct.json_encode()
    return whole.str.slice(1).str.strip_suffix("}")


def row_texts(rows: pl.DataFrame, readings: pl.DataFrame, resource: Resource) -> pl.Series:
    """Return each row of the series as the JSON object of `resource` (no line break).

    `rows`: rows of `Derived.measurements` (their `reading`, text columns as `Enum`s).
    The same text as `document(resource).struct.json_encode()` of
    `as_text(with_numbers(rows, readings))`.
    """
    parts = runs(resource)
    distinct = as_text(with_numbers(rows.unique(READING), readings, keep=True))
    of_reading = distinct.select(
        READING,
        *(_members(names).alias(f"_run{i}") for i, (mine, names) in enumerate(parts) if mine),
    )
    joined = rows.select(READING).join(of_reading, on=READING, how="left", maintain_order="left")
    pieces: list[pl.Series] = []
    for i, (mine, names) in enumerate(parts):
        if mine:
            pieces.append(joined.get_column(f"_run{i}"))
        else:
            pieces += [_per_value(rows.get_column(name)) for name in names]
    return (
        pl.DataFrame(pieces)
        .select(pl.concat_str([pl.lit("{"), pl.concat_str(pl.all(), separator=","), pl.lit("}")]))
        .to_series()
        .alias("row")
    )


def _per_value(column: pl.Series) -> pl.Series:
    """Return the member of each row of `column`, encoded once per distinct value."""
    values = column.unique().to_frame()
    encoded = values.with_columns(
        as_text(values).select(_members([column.name])).to_series().alias("_member")
    )
    return (
        column.to_frame()
        .join(encoded, on=column.name, how="left", maintain_order="left", nulls_equal=True)
        .get_column("_member")
        .alias(f"_{column.name}")
    )
