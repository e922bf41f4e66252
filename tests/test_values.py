"""Tests for reading published values (generator.values.parse)."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.values.parse import (
    ABOVE,
    BELOW_REPORTING_LIMIT,
    NOT_DETECTED,
    NOT_DETERMINED,
    NUMBER,
    QUALIFIERS,
    RANGE,
    TEXT,
    parse_value,
    parse_values,
)

NBSP = "\u00a0"
THIN = "\u2009"

# (published text, value, qualifier, reporting_limit)
CASES = [
    # plain numbers, decimal comma and point
    ("0,018", 0.018, NUMBER, None),
    ("7,6", 7.6, NUMBER, None),
    ("0", 0.0, NUMBER, None),
    ("+0,24", 0.24, NUMBER, None),
    ("-0,5", -0.5, NUMBER, None),
    ("\u22120,5", -0.5, NUMBER, None),
    ("0.018", 0.018, NUMBER, None),
    (",5", 0.5, NUMBER, None),
    # thousands separator rule
    ("1.234,5", 1234.5, NUMBER, None),
    ("12.345.678,9", 12345678.9, NUMBER, None),
    ("1.234", 1234.0, NUMBER, None),
    ("12.345", 12345.0, NUMBER, None),
    ("1.234.567", 1234567.0, NUMBER, None),
    ("1.23", 1.23, NUMBER, None),
    ("1.2345", 1.2345, NUMBER, None),
    ("1234.567", 1234.567, NUMBER, None),
    ("01.234", 1.234, NUMBER, None),
    ("1.234e3", 1234.0, NUMBER, None),
    ("0.234.567", None, TEXT, None),
    ("1,234.5", None, TEXT, None),
    ("1,2,3", None, TEXT, None),
    ("1 234", None, TEXT, None),
    # scientific notation
    ("1,2E-3", 0.0012, NUMBER, None),
    ("1.2e-3", 0.0012, NUMBER, None),
    ("1,5e3 mg/l", 1500.0, NUMBER, None),
    ("1,2 E-3", None, TEXT, None),
    ("1E999", None, TEXT, None),
    ("1,2E–3", None, TEXT, None),
    ("1,2E-3 mg/l", 0.0012, NUMBER, None),
    # whitespace
    (f"{NBSP}0,018{THIN}", 0.018, NUMBER, None),
    ("\t7,6\t", 7.6, NUMBER, None),
    (f"<{NBSP}0,001", None, BELOW_REPORTING_LIMIT, 0.001),
    # units
    ("12,6 °C", 12.6, NUMBER, None),
    ("12,6°C", 12.6, NUMBER, None),
    ("0,05 mg/l", 0.05, NUMBER, None),
    ("0,05\tmg/l", 0.05, NUMBER, None),
    ("7,5 µS/cm", 7.5, NUMBER, None),
    ("0/100 ml", 0.0, NUMBER, None),
    ("0 KBE/100 ml", 0.0, NUMBER, None),
    # footnote marks
    ("0,05¹)", 0.05, NUMBER, None),
    ("0,05²", 0.05, NUMBER, None),
    ("0,018*", 0.018, NUMBER, None),
    ("0,018**", 0.018, NUMBER, None),
    ("0,018 *", 0.018, NUMBER, None),
    ("0,05 1)", 0.05, NUMBER, None),
    ("0,051)", None, TEXT, None),
    ("0,05 (a)", 0.05, NUMBER, None),
    ("0,05a)", 0.05, NUMBER, None),
    ("0,05 mg/l¹)", 0.05, NUMBER, None),
    # below a reporting limit
    ("< 0,001", None, BELOW_REPORTING_LIMIT, 0.001),
    ("<0,005", None, BELOW_REPORTING_LIMIT, 0.005),
    ("<0,05*", None, BELOW_REPORTING_LIMIT, 0.05),
    ("< 0,01 ²", None, BELOW_REPORTING_LIMIT, 0.01),
    ("< 0,05 mg/l", None, BELOW_REPORTING_LIMIT, 0.05),
    ("≤ 0,1", None, BELOW_REPORTING_LIMIT, 0.1),
    ("unter 0,02", None, BELOW_REPORTING_LIMIT, 0.02),
    ("< BG", None, BELOW_REPORTING_LIMIT, None),
    ("<BG", None, BELOW_REPORTING_LIMIT, None),
    ("< NG", None, BELOW_REPORTING_LIMIT, None),
    ("unter BG", None, BELOW_REPORTING_LIMIT, None),
    ("< BG¹)", None, BELOW_REPORTING_LIMIT, None),
    ("< abc", None, TEXT, None),
    # above
    (">100", 100.0, ABOVE, None),
    ("> 100", 100.0, ABOVE, None),
    (">= 5", 5.0, ABOVE, None),
    ("über 1.000", 1000.0, ABOVE, None),
    # ranges: the value is the larger bound
    ("0,001 - 0,004", 0.004, RANGE, None),
    ("0,001-0,004", 0.004, RANGE, None),
    ("0,001–0,004", 0.004, RANGE, None),
    ("0,001 – 0,004", 0.004, RANGE, None),
    ("0,001 bis 0,004", 0.004, RANGE, None),
    ("7,2 - 7,8 mg/l", 7.8, RANGE, None),
    ("1 mg/l - 2 mg/l", 2.0, RANGE, None),
    ("5 - 1", 5.0, RANGE, None),
    ("-0,5 - -0,2", -0.2, RANGE, None),
    ("< 0,001 - 0,004", 0.004, RANGE, None),
    ("n.n. - 0,004", 0.004, RANGE, None),
    ("5 mg/l bis 7 mg/l (Sommer)", 7.0, RANGE, None),
    ("740 µS/cm - 800 µS/cm bei 25 °C", 800.0, RANGE, None),
    # a second bound the range rule cannot read must not leave the first number standing
    ("5 mg/l (Sommer) bis 7", None, TEXT, None),
    ("740 µS/cm bei 25 °C - 800", None, TEXT, None),
    ("5 mg/l (Sommer)bis 7", None, TEXT, None),
    ("< 0,5 mg/l (Winter) - 3", None, TEXT, None),
    ("> 5 mg/l (Winter) bis 9", None, TEXT, None),
    # not detected
    ("n.n.", None, NOT_DETECTED, None),
    ("n. n.", None, NOT_DETECTED, None),
    ("N.N.", None, NOT_DETECTED, None),
    ("nn", None, NOT_DETECTED, None),
    ("n.n.*", None, NOT_DETECTED, None),
    ("nicht nachweisbar", None, NOT_DETECTED, None),
    # not determined
    ("n.b.", None, NOT_DETERMINED, None),
    ("n. b.", None, NOT_DETERMINED, None),
    ("nicht bestimmt", None, NOT_DETERMINED, None),
    ("-", None, NOT_DETERMINED, None),
    ("--", None, NOT_DETERMINED, None),
    ("—", None, NOT_DETERMINED, None),
    ("", None, NOT_DETERMINED, None),
    (f" {NBSP} ", None, NOT_DETERMINED, None),
    # verbal findings
    ("farblos", None, TEXT, None),
    ("o.B.", None, TEXT, None),
    ("ohne Befund", None, TEXT, None),
    ("klar", None, TEXT, None),
    ("geruchlos", None, TEXT, None),
    ("negativ", None, TEXT, None),
    ("mittel", None, TEXT, None),
    ("2024-01-05", None, TEXT, None),
    ("\u0661\u0662", None, TEXT, None),  # Arabic-Indic digits: not a published German number
]


def _approx(expected: float | None) -> object:
    return None if expected is None else pytest.approx(expected)


@pytest.mark.parametrize(("text", "value", "qualifier", "reporting_limit"), CASES)
def test_parse_value(
    text: str, value: float | None, qualifier: str, reporting_limit: float | None
) -> None:
    got_value, got_qualifier, got_limit = parse_value(text)
    assert got_qualifier == qualifier
    assert got_value == _approx(value)
    assert got_limit == _approx(reporting_limit)


def test_table_covers_enough_styles() -> None:
    assert len(CASES) >= 45
    assert len({case[0] for case in CASES}) == len(CASES)
    assert {case[2] for case in CASES} == set(QUALIFIERS)


def test_qualifier_descriptions() -> None:
    for name, description in QUALIFIERS.items():
        assert name == name.lower()
        assert description.endswith(".")


def test_null_input_is_not_determined() -> None:
    assert parse_value(None) == (None, NOT_DETERMINED, None)


def test_lazy_frame_stays_lazy_and_other_columns_survive() -> None:
    lazy = pl.LazyFrame(
        {
            "parameter": ["nitrat", "blei", "faerbung", "pfas"],
            "value_text": ["12,3", "< 0,001", "farblos", None],
        }
    )
    result = parse_values(lazy)
    assert isinstance(result, pl.LazyFrame)
    frame = result.collect()
    assert frame.columns == ["parameter", "value_text", "value", "qualifier", "reporting_limit"]
    assert frame.schema["value"] == pl.Float64
    assert frame.schema["qualifier"] == pl.String
    assert frame.schema["reporting_limit"] == pl.Float64
    assert frame["parameter"].to_list() == ["nitrat", "blei", "faerbung", "pfas"]
    assert frame["value_text"].to_list() == ["12,3", "< 0,001", "farblos", None]
    assert frame["qualifier"].to_list() == [NUMBER, BELOW_REPORTING_LIMIT, TEXT, NOT_DETERMINED]
    assert frame["value"].to_list() == [pytest.approx(12.3), None, None, None]
    assert frame["reporting_limit"].to_list() == [None, pytest.approx(0.001), None, None]


def test_other_column_name_and_null_dtype() -> None:
    frame = parse_values(pl.DataFrame({"raw": ["1,5"]}), column="raw")
    assert frame.row(0) == ("1,5", pytest.approx(1.5), NUMBER, None)
    nulls = parse_values(pl.DataFrame({"value_text": [None, None]}))
    assert nulls["qualifier"].to_list() == [NOT_DETERMINED, NOT_DETERMINED]


def test_output_name_as_input_is_refused() -> None:
    with pytest.raises(ValueError, match="overwritten"):
        parse_values(pl.DataFrame({"value": ["1"]}), column="value")


def test_working_column_names_are_refused() -> None:
    with pytest.raises(ValueError, match="reserved"):
        parse_values(pl.DataFrame({"value_text": ["1"], "__values_clean": ["x"]}))


def test_empty_frame() -> None:
    frame = parse_values(pl.DataFrame({"value_text": []}, schema={"value_text": pl.String}))
    assert frame.height == 0
    assert frame.columns == ["value_text", "value", "qualifier", "reporting_limit"]


_DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=7)
_SPACE = st.sampled_from(["", " ", NBSP, THIN, "\t", "  "])


@st.composite
def number_like(draw: st.DrawFn) -> str:
    """Strings shaped like published values, to reach the number branches often."""
    number = draw(_DIGITS)
    if draw(st.booleans()):
        number += draw(st.sampled_from([",", ".", ".", "e", "E-"])) + draw(_DIGITS)
    if draw(st.booleans()):
        number += draw(st.sampled_from([".", ","])) + draw(_DIGITS)
    prefix = draw(st.sampled_from(["", "", "+", "-", "\u2212", "<", "< ", ">", "≤ ", "unter "]))
    text = draw(_SPACE) + prefix + number
    if draw(st.booleans()):
        text += draw(_SPACE) + draw(st.sampled_from(["-", "–", "bis", "—"]))
        text += draw(_SPACE) + draw(_DIGITS)
    text += draw(st.sampled_from(["", " mg/l", "°C", " µS/cm", " E-3", " 3"]))
    text += draw(st.sampled_from(["", "*", "**", "¹)", "²", " 1)", "1)", "a)", " (b)", ")"]))
    return text + draw(_SPACE)


_VALUE_TEXTS = st.lists(st.one_of(st.none(), st.text(), number_like()), max_size=25)


@settings(max_examples=300, deadline=None)
@given(_VALUE_TEXTS)
def test_parse_values_properties(texts: list[str | None]) -> None:
    before = pl.DataFrame(
        {"row": list(range(len(texts))), "value_text": texts},
        schema={"row": pl.Int64, "value_text": pl.String},
    )
    snapshot = before.clone()
    after = parse_values(before)

    assert before.equals(snapshot)
    assert after.height == before.height
    assert after["row"].to_list() == list(range(len(texts)))
    assert after["value_text"].equals(before["value_text"])
    assert after.schema["value"] == pl.Float64
    assert after.schema["reporting_limit"] == pl.Float64
    assert after["qualifier"].null_count() == 0
    assert set(after["qualifier"].to_list()) <= set(QUALIFIERS)
    for value, qualifier, limit in after.select("value", "qualifier", "reporting_limit").rows():
        if qualifier in (NUMBER, ABOVE, RANGE):
            assert value is not None
        else:
            assert value is None
        if limit is not None:
            assert qualifier == BELOW_REPORTING_LIMIT


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), _SPACE)
def test_german_decimal_roundtrip(number: float, space: str) -> None:
    text = space + f"{number:.6f}".replace(".", ",") + space
    value, qualifier, limit = parse_value(text)
    assert qualifier == NUMBER
    assert value == pytest.approx(number, abs=1e-6)
    assert limit is None


# ---------------------------------------------------------------------------- limit values


def test_parse_limit_values() -> None:
    from generator.values.parse import parse_limit_values

    limits = pl.DataFrame(
        {
            "kind": ["grenzwert", "range", "requirement", "indicator", "range"],
            "limit_value": [" 0.1 ", "6.5..9.5", "ohne anormale Veränderung", "viel", "7"],
        }
    )
    parsed = parse_limit_values(limits)
    assert parsed.columns == [
        "kind",
        "limit_value",
        "value",
        "value_min",
        "value_max",
        "requirement",
    ]
    assert parsed.select("value", "value_min", "value_max", "requirement").rows() == [
        (0.1, None, None, None),
        (None, 6.5, 9.5, None),
        (None, None, None, "ohne anormale Veränderung"),
        (None, None, None, None),
        (7.0, None, None, None),
    ]
    assert parsed["limit_value"].equals(limits["limit_value"])


def test_unreadable_limit_value() -> None:
    from generator.values.parse import unreadable_limit_value

    frame = pl.DataFrame(
        {
            "kind": ["grenzwert", "indicator", "range", "range", "requirement", "referenzwert"],
            "limit_value": ["0.1", "viel", "6.5..9.5", "7", "klar", "0,5"],
        }
    )
    bad = frame.select(unreadable_limit_value(pl.col("limit_value"), pl.col("kind"))).to_series()
    assert bad.to_list() == [False, True, False, True, False, True]
