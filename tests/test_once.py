"""Expressions run on the columns they read, or once per distinct value: the same as row by row."""

from __future__ import annotations

import datetime as dt
import threading

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.api import verdicts
from generator.derive import with_links, with_numbers
from generator.frames.compact import as_text
from generator.site import assets, charts, fragments, text
from generator.site.expressions import PerValue, read_by, with_narrow
from generator.site.value_table import limit_words, value_rows
from tests.helpers import AS_OF

# A limit as the current values hold it (the columns of `limit_expr`'s struct, and dates).
LIMIT = pl.Struct(
    {
        **dict.fromkeys(("kind", "requirement", "unit"), pl.String),
        **dict.fromkeys(("value", "value_min", "value_max"), pl.Float64),
        **dict.fromkeys(("valid_from", "valid_until"), pl.Date),
    }
)

limits = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {
            "kind": st.sampled_from(["grenzwert", "indicator", "leitwert", None]),
            "value": st.one_of(st.none(), st.sampled_from([0.1, 0.02, 50.0, 1e-7, 2790.0])),
            "value_min": st.one_of(st.none(), st.just(6.5)),
            "value_max": st.one_of(st.none(), st.just(9.5)),
            "requirement": st.one_of(st.none(), st.just("ohne anormale Veränderung")),
            "unit": st.sampled_from(["µg/l", "mg/l", "count/100 ml", None]),
            "valid_from": st.sampled_from([dt.date(2023, 6, 24), dt.date(2026, 1, 12)]),
            "valid_until": st.one_of(st.none(), st.just(dt.date(2027, 12, 31))),
        }
    ),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(limits, max_size=12), min_size=1, max_size=4))
def test_per_value_is_the_expression_row_by_row(batches: list[list[dict | None]]) -> None:
    """Batches sharing one `PerValue` each get what `limit_expr` gives their rows."""
    words = PerValue(text.limit_expr)
    for rows in batches:
        column = pl.Series("limit", rows, dtype=LIMIT)
        expected = column.to_frame().select(text.limit_expr(pl.col("limit"))).to_series()
        assert words.of_rows(column).to_list() == expected.to_list()


@pytest.mark.parametrize("first", [0, 1])
def test_per_value_keeps_a_null_apart_from_nulls_only(first: int) -> None:
    kind = pl.Struct({"a": pl.Int64, "b": pl.String})
    batches = [[None], [{"a": None, "b": None}]]
    null_or_not = PerValue(lambda e: e.is_null().cast(pl.String))
    for rows in (batches[first], batches[1 - first]):
        found = null_or_not.of_rows(pl.Series("s", rows, dtype=kind)).to_list()
        assert found == [str(rows[0] is None).lower()]


def test_per_value_computes_each_value_once() -> None:
    seen: list[int] = []

    def counted(expr: pl.Expr) -> pl.Expr:
        return expr.map_batches(lambda s: (seen.append(s.len()), s * 2)[1], return_dtype=pl.Int64)

    doubled = PerValue(counted)
    assert doubled.of_rows(pl.Series("n", [1, 2, 2, None])).to_list() == [2, 4, 4, None]
    assert doubled.of_rows(pl.Series("n", [2, 3, 1])).to_list() == [4, 6, 2]
    assert doubled.of_rows(pl.Series("n", [3, None])).to_list() == [6, None]
    assert seen == [3, 1]  # 1, 2 and null; then 3; then nothing


def test_per_value_from_threads() -> None:
    squares = PerValue(lambda e: e * e)
    results: dict[int, list[int | None]] = {}

    def run(k: int) -> None:
        results[k] = squares.of_rows(pl.Series("n", list(range(k, k + 200)))).to_list()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(0, 400, 50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {k: [n * n for n in range(k, k + 200)] for k in range(0, 400, 50)}


def test_with_narrow_adds_what_with_columns_adds() -> None:
    frame = pl.DataFrame(
        {
            "a": [1, 2, None],
            "b": ["x", "<", None],
            "wide": [{"f": [1, 2]}, None, {"f": []}],
        }
    )
    exprs = [pl.format("{}-{}", pl.col("a"), text.esc(pl.col("b"))).alias("c")]
    assert read_by(exprs) == ["a", "b"]
    # What names no column (or several outputs) runs on the whole frame.
    assert read_by([*exprs, pl.first()]) is None and read_by([pl.lit("k")]) is None
    assert read_by([pl.col("a", "b")]) is None
    whole = with_narrow(frame, None, lambda f: f.with_columns(pl.first().alias("c")), ["c"])
    assert whole["c"].to_list() == [1, 2, None]
    narrow = with_narrow(frame, read_by(exprs), lambda f: f.with_columns(exprs), ["c"])
    assert narrow.equals(frame.with_columns(exprs))


def test_fragment_on_a_wide_frame() -> None:
    frame = pl.DataFrame({"a": ["<b>", None], "n": [{"x": 1}, None], "flag": [True, False]})
    filled = fragments.with_fragment(
        frame, "<i>{a}</i>{?flag}!{/flag}", {"a": pl.col("a"), "flag": pl.col("flag")}, "html"
    )
    assert filled.columns == ["a", "n", "flag", "html"]
    assert filled["html"].to_list() == ["<i>&lt;b&gt;</i>!", "<i></i>"]
    constant = fragments.with_fragment(frame, "{x}", {"x": pl.lit("k")}, "html")
    assert constant["html"].to_list() == ["k", "k"]


def test_charts_read_once_per_reading_as_per_row(golden_derived) -> None:
    """The charts of rows carrying their `reading` are those of rows without it."""
    d = golden_derived
    inputs = charts.ChartInputs.prepare(d.limits, d.parameters)
    per_row = charts.chart_frame(as_text(with_numbers(d.measurements, d.readings)), inputs, AS_OF)
    per_reading = charts.chart_frame(
        as_text(with_numbers(d.measurements, d.readings, keep=True)), inputs, AS_OF
    )
    assert per_row.height > 0
    assert per_reading.equals(per_row)


@pytest.mark.parametrize("size", [1, 3])
def test_value_rows_in_batches_as_at_once(golden_derived, size: int) -> None:
    """Batches sharing the limits in words give each zone the rows it gets in one batch."""
    d = golden_derived
    templates = assets.templates_dir()
    row, source = (fragments.load(templates, n) for n in ("value_row.html", "source_item.html"))
    badges = {state: f"<b>{state}</b>" for state in verdicts.STATES}
    ids = d.zones["zone_id"].sort()

    def rows(zone_ids: pl.Series, words: PerValue) -> pl.DataFrame:
        values = with_links(d.current_values.of(zone_ids), d.documents)
        return value_rows(values, row, badges, source, words)

    at_once = rows(ids, limit_words())
    shared = limit_words()
    batches = [rows(ids.slice(k, size), shared) for k in range(0, ids.len(), size)]
    assert at_once.height > 0
    assert pl.concat(batches).equals(at_once)
