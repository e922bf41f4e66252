"""When a publication is too old: the operator's cadence (`publication_cadence_months`).

TrinkwV § 46 requires a supplier to inform its consumers at least once a year; a zone whose
newest publication is older than the cadence is marked stale (zone resource and page), and
`trinkwasser fetch` lists the suppliers concerned. Build and fetch share this one rule.
"""

from __future__ import annotations

import calendar
import datetime as dt

import polars as pl

from generator.frames import batches
from generator.frames.compact import as_text

DEFAULT_CADENCE_MONTHS = 12
"""TrinkwV § 46: consumers are informed at least once a year (`publication_cadence_months`)."""


def cutoff(as_of: dt.date, months: int) -> dt.date:
    """Return the date `months` months before `as_of` (the last day of a shorter month)."""
    index = as_of.year * 12 + as_of.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    return dt.date(year, month, min(as_of.day, calendar.monthrange(year, month)[1]))


def stale_expr(newest: pl.Expr, as_of: dt.date, months: int) -> pl.Expr:
    """Return true where the newest publication is older than the cadence, or missing."""
    return newest.is_null() | (newest < pl.lit(cutoff(as_of, months)))


def zone_documents(series: pl.DataFrame, as_of: dt.date) -> pl.DataFrame:
    """Return per zone and cited document its samples up to `as_of` and the latest of them.

    `zone_id`, `document_id` (text), `samples`, `last_sampled` (null when none), sorted: one
    row per pair of the series (sorted by zone), a pair whose samples all lie after `as_of`
    included. What the feeds, the sitemap's dates and the staleness need of the series.
    """
    kept = pl.col("sampled_at") <= as_of

    # Grouped per run of zones: a group-by of 10 million pairs at once held half a gigabyte.
    def grouped(run: pl.DataFrame) -> pl.DataFrame:
        return run.group_by("zone_id", "document_id").agg(
            kept.sum().cast(pl.UInt32).alias("samples"),
            pl.when(kept).then(pl.col("sampled_at")).max().alias("last_sampled"),
        )

    pairs = batches.per_run(series.select("zone_id", "document_id", "sampled_at"), grouped)
    return as_text(pairs).sort("zone_id", "document_id")


def newest_publications(
    pairs: pl.DataFrame,
    documents: pl.DataFrame,
    zones: pl.DataFrame,
    as_of: dt.date,
    months: int,
) -> pl.DataFrame:
    """Return per zone the edition date of its newest document up to `as_of`, and staleness.

    `pairs` are the zones' `zone_documents`. Stale: older than the cadence, or no document.
    """
    editions = documents.filter(pl.col("edition_date") <= as_of).select(
        "document_id", "edition_date"
    )
    newest = (
        pairs.select("zone_id", "document_id")
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
