"""German numbers and limit wording: the Python and the polars version write the same text.

Parameter pages and chart notes are worded in Python, zone pages and chart axes in polars;
a reader must not find "0,1" on one page and "0.1" or "1e-7" on another.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.site import text

FINITE = st.floats(allow_nan=False, allow_infinity=False)
# Measured values and limits: what the data holds, with few digits (0.1, 2790, 6.5).
PUBLISHED = st.builds(
    lambda mantissa, exponent: mantissa * 10.0**exponent,
    st.integers(-99999, 99999),
    st.integers(-12, 6),
)
NUMBERS = st.one_of(FINITE, PUBLISHED, st.sampled_from([0.0, -0.0, 5e-324, 1e16, 1e-7]))


def polars_numbers(values: list[float | None]) -> list[str | None]:
    frame = pl.DataFrame({"v": values}, schema={"v": pl.Float64})
    return frame.select(text.number_expr(pl.col("v"))).to_series().to_list()


# Many values per example: one polars call checks them all.
@settings(max_examples=100, deadline=None)
@given(st.lists(NUMBERS, min_size=1, max_size=1000))
def test_number_formatters_agree(values):
    assert polars_numbers(values) == [text.number(v) for v in values]


@given(NUMBERS)
def test_numbers_read_back_exactly_and_never_use_an_exponent(value):
    written = text.number(value)
    assert "e" not in written.lower() and "." not in written
    assert float(written.replace(",", ".")) == value


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.1, "0,1"),
        (2790.0, "2790"),
        (0.00012, "0,00012"),
        (2e-05, "0,00002"),
        (1e-07, "0,0000001"),
        (1e16, "10000000000000000"),
        (-6.5, "-6,5"),
        (-0.0, "0"),
        (5, "5"),
    ],
)
def test_german_numbers(value, expected):
    assert text.number(value) == expected
    assert polars_numbers([value]) == [expected]


def test_null_stays_empty():
    assert text.number(None) == "" and polars_numbers([None]) == [None]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10**18), min_size=1, max_size=100))
def test_thousands_formatters_agree(values):
    frame = pl.DataFrame({"n": values}, schema={"n": pl.Int64})
    got = frame.select(text.thousands_expr(pl.col("n"))).to_series().to_list()
    assert got == [text.thousands(n) for n in values]


# ---------------------------------------------------------------------------- limits

LIMIT_FIELDS = ("kind", "value", "value_min", "value_max", "requirement", "unit")
MAYBE_NUMBER = st.one_of(st.none(), NUMBERS)
LIMITS = st.fixed_dictionaries(
    {
        "kind": st.one_of(st.none(), st.sampled_from([*text.KINDS, "sonstiges"])),
        "value": MAYBE_NUMBER,
        "value_min": MAYBE_NUMBER,
        "value_max": MAYBE_NUMBER,
        "requirement": st.one_of(st.none(), st.just(""), st.text(max_size=20)),
        "unit": st.one_of(
            st.none(), st.sampled_from(["", "µg/l", "mg/l", "pH", *text.UNITS]), st.text(max_size=8)
        ),
    }
)


def polars_limits(rows: list[dict]) -> list[str | None]:
    schema = {
        "kind": pl.String,
        "value": pl.Float64,
        "value_min": pl.Float64,
        "value_max": pl.Float64,
        "requirement": pl.String,
        "unit": pl.String,
    }
    frame = pl.DataFrame(rows, schema=schema).select(pl.struct(*LIMIT_FIELDS).alias("limit"))
    return frame.select(text.limit_expr(pl.col("limit"))).to_series().to_list()


def python_limit(row: dict) -> str:
    return text.limit(*(row[f] for f in LIMIT_FIELDS))


@settings(max_examples=80, deadline=None)
@given(st.lists(LIMITS, min_size=1, max_size=200))
def test_limit_wordings_agree(rows):
    words = polars_limits(rows)
    for row, written in zip(rows, words, strict=True):
        # polars leaves a row without a limit null (the page shows a dash); Python says "".
        assert (written is None) == (row["kind"] is None)
        assert (written or "") == python_limit(row), row


def test_no_limit_at_all_is_null():
    frame = pl.DataFrame(
        {"limit": [None]}, schema={"limit": pl.Struct(dict.fromkeys(LIMIT_FIELDS, pl.String))}
    )
    assert frame.select(text.limit_expr(pl.col("limit"))).to_series().to_list() == [None]


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (("grenzwert", 0.1, None, None, None, "µg/l"), "Grenzwert 0,1 µg/l"),
        (("range", None, 6.5, 9.5, None, None), "zulässiger Bereich 6,5 bis 9,5"),
        (("range", None, 6.5, None, None, "pH"), "zulässiger Bereich ab 6,5 pH"),
        (("range", None, None, 9.5, None, None), "zulässiger Bereich bis 9,5"),
        (("requirement", None, None, None, "ohne Befund", None), "Anforderung: ohne Befund"),
        # A requirement is words even when its text reads as a number.
        (("requirement", 0.0, None, None, "0", None), "Anforderung: 0"),
        (("requirement", None, None, None, None, None), "Anforderung"),
        (("indicator", None, None, None, None, "mg/l"), "Grenzwert für Indikatorparameter"),
        (
            ("referenzwert", 2e-05, None, None, None, "count/100 ml"),
            "Referenzwert 0,00002 KBE/100 ml",
        ),
        (
            ("massnahmenwert", 100.0, None, None, None, "count/100 ml"),
            "technischer Maßnahmenwert 100 KBE/100 ml",
        ),
        (("parameterwert", 100.0, None, None, None, "Bq/l"), "Parameterwert 100 Bq/l"),
        (
            ("orientierungswert", 1.0, None, None, None, "µg/l"),
            "gesundheitlicher Orientierungswert (UBA) 1 µg/l",
        ),
    ],
)
def test_limit_words(row, expected):
    assert text.limit(*row) == expected
    assert polars_limits([dict(zip(LIMIT_FIELDS, row, strict=True))]) == [expected]
