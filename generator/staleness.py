"""When a publication is too old: the operator's cadence (`publication_cadence_months`).

TrinkwV § 46 requires a supplier to inform its consumers at least once a year; a zone whose
newest publication is older than the cadence is marked stale (zone resource and page), and
`trinkwasser fetch` lists the suppliers concerned. Build and fetch share this one rule.
"""

from __future__ import annotations

import calendar
import datetime as dt

import polars as pl


def cutoff(as_of: dt.date, months: int) -> dt.date:
    """Return the date `months` months before `as_of` (the last day of a shorter month)."""
    index = as_of.year * 12 + as_of.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    return dt.date(year, month, min(as_of.day, calendar.monthrange(year, month)[1]))


def stale_expr(newest: pl.Expr, as_of: dt.date, months: int) -> pl.Expr:
    """Return true where the newest publication is older than the cadence, or missing."""
    return newest.is_null() | (newest < pl.lit(cutoff(as_of, months)))
