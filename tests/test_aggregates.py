"""Which published value stands for a parameter when a zone publishes aggregates."""

from __future__ import annotations

import datetime as dt

import polars as pl

from generator.ordinance.current import aggregate_verdicts as _aggregate_verdicts
from generator.ordinance.sums import newest

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


def _chosen(
    rows: list[tuple[str, dt.date, str, str | None, str]],
) -> dict[str, tuple[str, str] | list[tuple[str, str]]]:
    """Return the rows that stand for each parameter: one as a pair, several as a list."""
    latest = newest(_series(rows), ["zone_id", "parameter"])
    out: dict[str, list[tuple[str, str]]] = {}
    for p, s, v in latest.select("parameter", "statistic", "value_text").rows():
        out.setdefault(p, []).append((s, v))
    return {p: pairs[0] if len(pairs) == 1 else sorted(pairs) for p, pairs in out.items()}


def test_the_latest_date_wins_and_on_it_a_sample_beats_aggregates():
    chosen = _chosen(
        [
            ("nitrat", D1, "sample", None, "20"),
            ("nitrat", D2, "max", None, "30"),
            ("nitrat", D2, "mean", None, "25"),
            ("nitrat", D2, "sample", "Netz", "24"),
            ("sulfat", D1, "sample", None, "80"),
            ("sulfat", D2, "min", None, "70"),
            ("sulfat", D2, "mean", None, "75"),
            ("sulfat", D2, "max", None, "79"),
            ("chlorid", D2, "min", None, "20"),
            ("chlorid", D2, "mean", None, "22"),
            ("blei", D2, "max", None, "< 1"),
            ("blei", D1, "sample", None, "2"),
            ("kupfer", D2, "sample", "A", "0,1"),
            ("kupfer", D2, "sample", "B", "0,2"),
        ]
    )
    assert chosen == {
        "nitrat": ("sample", "24"),  # a sample on the latest date, aggregates beside it
        "sulfat": ("max", "79"),  # only aggregates on the latest date: the maximum
        "chlorid": ("mean", "22"),  # no maximum: the mean
        "blei": ("max", "< 1"),  # a later aggregate beats an older sample
        # every sample point of the date (the worst is chosen after classification)
        "kupfer": [("sample", "0,1"), ("sample", "0,2")],
    }


def test_an_aggregate_claims_no_more_than_it_shows():
    kinds = {"grenzwert": 50.0, "range": None}
    rows = [
        ("max", "grenzwert", "below_limit", "below_limit"),
        ("max", "grenzwert", "exceeds_limit", "exceeds_limit"),
        ("mean", "grenzwert", "below_limit", "not_assessable"),
        ("mean", "grenzwert", "exceeds_limit", "exceeds_limit"),
        ("min", "grenzwert", "below_reporting_limit", "not_assessable"),
        ("min", "grenzwert", "not_detected", "not_assessable"),
        ("max", "range", "within_range", "not_assessable"),
        ("min", "range", "outside_range", "outside_range"),
        ("sample", "range", "within_range", "within_range"),
        ("sample", "grenzwert", "below_limit", "below_limit"),
        (None, None, "not_measured", "not_measured"),
    ]
    frame = pl.DataFrame(
        {
            "statistic": [r[0] for r in rows],
            "limit": [
                {"kind": r[1], "value": kinds.get(r[1] or "")} if r[1] else None for r in rows
            ],
            "state": [r[2] for r in rows],
            "future_limit": [None] * len(rows),
            "future_state": [None] * len(rows),
        },
        schema_overrides={
            "future_limit": pl.Struct({"kind": pl.String, "value": pl.Float64}),
            "future_state": pl.String,
        },
    )
    assert _aggregate_verdicts(frame)["state"].to_list() == [r[3] for r in rows]
