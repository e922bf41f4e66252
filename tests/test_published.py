"""The series' numbers as readings: the same numbers as reading every data point on its own."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import load
from generator.frames.compact import as_text, compact
from generator.values import published, units
from generator.values.parse import parse_values
from generator.values.units import SIG_FIGS

PARAMETERS = load.load(load.sample_data_dir()).parameters
VALUES = ["0,05", "< 0,01", "< BG", "n.n.", "12", "0,050", "1-3", "> 5", "", None]
LIMITS = [None, "0,01", "0,1", "BG 0,02", "n.b."]
PAIRS = [
    ("µg/l", "pfas_summe_20"),
    ("ng/l", "pfas_summe_20"),
    ("mg/l", "nitrat"),
    ("mg/l", "blei"),
    ("µg/l", "blei"),
    (None, "nitrat"),
    ("mg/l", "unknown"),
]


def _one_by_one(frame: pl.DataFrame) -> pl.DataFrame:
    """Every data point read on its own, as the build did before readings."""
    parsed = parse_values(frame, "value_text", with_low=True)
    printed = parse_values(frame.select(pl.col("reporting_limit_text").alias("value_text")))
    number = printed.select(
        pl.when(pl.col("qualifier").is_in(["number", "below_reporting_limit"])).then(
            pl.coalesce("value", "reporting_limit")
        )
    ).to_series()
    # `< x` and `n.n.` are below the larger of the cell's number and the printed column's.
    below = pl.col("qualifier").is_in(["below_reporting_limit", "not_detected"])
    parsed = parsed.with_columns(
        pl.when(below)
        .then(pl.max_horizontal("reporting_limit", number))
        .otherwise(pl.col("reporting_limit"))
        .alias("reporting_limit")
    )
    register = dict(PARAMETERS.select("code", "unit").iter_rows())
    factors = [
        units.factor(u, register[p], p) if p in register and u is not None else None
        for u, p in frame.select("unit", "parameter").iter_rows()
    ]
    factor = pl.Series(factors, dtype=pl.Float64)
    return parsed.select(
        "value",
        "qualifier",
        "reporting_limit",
        (pl.col("value") * factor).round_sig_figs(SIG_FIGS).alias("normalized_value"),
        (pl.col("reporting_limit") * factor)
        .round_sig_figs(SIG_FIGS)
        .alias("normalized_reporting_limit"),
        (pl.col("low") * factor).round_sig_figs(SIG_FIGS).alias("normalized_low"),
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(VALUES), st.sampled_from(LIMITS), st.sampled_from(PAIRS)),
        max_size=40,
    )
)
def test_readings_give_every_point_its_own_numbers(points):
    frame = pl.DataFrame(
        {
            "value_text": [v for v, _, _ in points],
            "reporting_limit_text": [r for _, r, _ in points],
            "unit": [u for _, _, (u, _) in points],
            "parameter": [p for _, _, (_, p) in points],
        },
        schema=dict.fromkeys(published.TEXTS, pl.String),
    )
    series, readings = published.read(compact(frame), PARAMETERS)
    # One reading per distinct quadruple of texts, and every point's are its own numbers.
    assert readings.height == frame.unique().height
    numbers = as_text(published.with_numbers(series, readings)).select(published.NUMBERS)
    assert numbers.equals(_one_by_one(frame))
    assert as_text(series.drop(published.READING)).equals(frame)


def test_the_codes_follow_the_texts_not_the_order_of_rows():
    frame = compact(
        pl.DataFrame(
            {"value_text": ["2", "1", "2"], "unit": ["mg/l"] * 3, "parameter": ["nitrat"] * 3}
        )
    )
    series, readings = published.read(frame, PARAMETERS)
    assert series[published.READING].to_list() == [1, 0, 1]
    assert readings["value"].to_list() == [1.0, 2.0]
    # Without a reporting-limit column the series has an empty one, as the contract's is.
    assert series["reporting_limit_text"].null_count() == 3


def test_a_column_without_any_text_reads_as_empty_text():
    frame = pl.DataFrame(
        {"value_text": ["1"], "reporting_limit": [None], "unit": ["mg/l"], "parameter": ["nitrat"]}
    )
    assert frame.schema["reporting_limit"] == pl.Null
    series, readings = published.read(frame, PARAMETERS)
    numbers = published.with_numbers(series, readings)
    assert numbers.select("value", "normalized_value", "reporting_limit").row(0) == (1.0, 1.0, None)
