"""Which values stand for a parameter when a zone publishes aggregates: each point its newest."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from generator.ordinance import evidence
from tests.verdict_zones import assess, row

D1, D2 = dt.date(2026, 3, 1), dt.date(2026, 6, 30)


def _series(rows: list[tuple[str, dt.date, str, str | None, str]]) -> pl.DataFrame:
    """(parameter, date, statistic, sample point, value) rows, sorted as the loader sorts."""
    frame = pl.DataFrame(
        rows,
        schema={
            "parameter": pl.String,
            "sampled_at": pl.Date,
            "statistic": pl.String,
            "sample_point": pl.String,
            "value_text": pl.String,
        },
        orient="row",
    ).with_columns(pl.lit(1, dtype=pl.Int64).alias("zone_id"))
    return frame.sort("zone_id", "parameter", "sampled_at", "statistic", "sample_point")


def test_each_sample_point_stands_on_its_newest_date_with_every_statistic():
    latest = evidence.newest(
        _series(
            [
                ("nitrat", D1, "sample", None, "20"),
                ("nitrat", D2, "max", None, "30"),
                ("nitrat", D2, "mean", None, "25"),
                ("nitrat", D2, "sample", "Netz", "24"),
                ("nitrat", D1, "sample", "Brunnen", "41"),
                ("blei", D2, "max", None, "< 1"),
                ("blei", D1, "sample", None, "2"),
            ]
        )
    )
    chosen = sorted(
        latest.select("parameter", "sample_point", "statistic", "value_text").rows(),
        key=lambda r: tuple("" if c is None else c for c in r),
    )
    assert chosen == [
        ("blei", None, "max", "< 1"),  # a later aggregate replaces an older sample there
        ("nitrat", None, "max", "30"),  # every statistic of the point's newest date
        ("nitrat", None, "mean", "25"),
        ("nitrat", "Brunnen", "sample", "41"),  # an older date at another point still stands
        ("nitrat", "Netz", "sample", "24"),
    ]


@pytest.mark.parametrize(
    ("statistic", "value", "state"),
    [
        ("max", "40", "below_limit"),  # every sample was at most 40
        ("max", "60", "exceeds_limit"),
        ("mean", "40", "not_assessable"),  # a sample may have been above 50
        ("mean", "60", "exceeds_limit"),  # some sample was above the mean
        ("min", "< 10", "not_assessable"),
        ("min", "n.n.", "not_assessable"),
        ("min", "60", "exceeds_limit"),  # every sample was above 50
        ("sample", "40", "below_limit"),
    ],
)
def test_an_aggregate_claims_no_more_than_it_shows(statistic, value, state):
    values, _ = assess([row("nitrat", value, "mg/l", D2, statistic=statistic)])
    assert values["nitrat"]["state"] == state


@pytest.mark.parametrize(
    ("rows", "state"),
    [
        ([("max", "8,0")], "not_assessable"),  # the lower end is open
        ([("min", "5,9")], "outside_range"),  # some sample was below 6,5
        ([("min", "7,0"), ("max", "8,0")], "within_range"),
        ([("min", "7,0"), ("mean", "7,5"), ("max", "9,8")], "outside_range"),
        ([("sample", "7,2")], "within_range"),
    ],
)
def test_a_range_needs_both_ends_which_a_minimum_and_a_maximum_give_together(rows, state):
    values, _ = assess([row("ph_wert", v, "", D2, statistic=s) for s, v in rows])
    assert values["ph_wert"]["state"] == state
