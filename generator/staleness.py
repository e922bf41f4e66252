"""When a publication is too old: the operator's cadence (`publication_cadence_months`).

TrinkwV § 46 requires a supplier to inform its consumers at least once a year; a zone whose
newest publication is older than the cadence is marked stale (zone resource and page), and
`trinkwasser fetch` lists the suppliers concerned. Build and fetch share this one rule.
"""

from __future__ import annotations

import calendar
import datetime as dt

import polars as pl

from generator import batches
from generator.compact import as_text


def cutoff(as_of: dt.date, months: int) -> dt.date:
    """Return the date `months` months before `as_of` (the last day of a shorter month)."""
    index = as_of.year * 12 + as_of.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    return dt.date(year, month, min(as_of.day, calendar.monthrange(year, month)[1]))


def stale_expr(newest: pl.Expr, as_of: dt.date, months: int) -> pl.Expr:
    """Return true where the newest publication is older than the cadence, or missing."""
    return newest.is_null() | (newest < pl.lit(cutoff(as_of, months)))


def newest_publications(
    measurements: pl.DataFrame,
    documents: pl.DataFrame,
    zones: pl.DataFrame,
    as_of: dt.date,
    months: int,
) -> pl.DataFrame:
    """Return per zone the edition date of its newest document up to `as_of`, and staleness.

    Stale: older than the cadence, or no document at all.
    """
    editions = documents.filter(pl.col("edition_date") <= as_of).select(
        "document_id", "edition_date"
    )
    # Unique per run of zones: at once, 10 million pairs held half a gigabyte.
    pairs = batches.per_run(measurements.select("zone_id", "document_id"), pl.DataFrame.unique)
    newest = (
        as_text(pairs)
        .join(editions, on="document_id")
        .group_by("zone_id")
        .agg(pl.col("edition_date").max().alias("newest_publication"))
    )
    return (
        zones.select("zone_id")
        .join(newest, on="zone_id", how="left")
        .with_columns(
            stale_expr(pl.col("newest_publication"), as_of, months).alias("publication_stale")
        )
    )
