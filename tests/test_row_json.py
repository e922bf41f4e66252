"""The series' rows put together from members encoded once per value: the same JSON as whole."""

from __future__ import annotations

import datetime as dt
import json

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import published
from generator.api import resources
from generator.compact import as_text, compact
from generator.encode import document
from generator.row_json import row_texts, runs
from tests.test_published import LIMITS, PAIRS, PARAMETERS, VALUES

ODD = ['Netz "Nord"', "Wasserwerk\\Ost", "Ü\u00e4\n", "", None]
points = st.tuples(
    st.sampled_from(VALUES + ["1e-7", "2790,0", '3 "ca."']),
    st.sampled_from(LIMITS),
    st.sampled_from(PAIRS),
    st.sampled_from(ODD + ["Hochbehälter"]),
    st.dates(dt.date(1999, 1, 1), dt.date(2030, 12, 31)),
    st.sampled_from(["sample", "mean", "max", None]),
    st.sampled_from(["wk-2026", 'doc "1"', "ä"]),
)


def _series(rows: list[tuple]) -> tuple[pl.DataFrame, pl.DataFrame]:
    names = [*published.TEXTS, "sample_point", "sampled_at", "statistic", "document_id"]
    frame = pl.DataFrame(
        [(v, r, u, p, sp, day, stat, doc) for v, r, (u, p), sp, day, stat, doc in rows],
        schema={**dict.fromkeys(names, pl.String), "sampled_at": pl.Date},
        orient="row",
    )
    # As derive holds it: text columns as `Enum`s, a reading per row.
    return published.read(compact(frame), PARAMETERS)


@settings(max_examples=80, deadline=None)
@given(st.lists(points, max_size=40))
def test_rows_are_the_documents_encoded_whole(rows):
    series, readings = _series(rows)
    whole = (
        as_text(published.with_numbers(series, readings))
        .select(document(resources.MEASUREMENT).struct.json_encode())
        .to_series()
    )
    found = row_texts(series, readings, resources.MEASUREMENT)
    assert found.to_list() == whole.to_list()
    for text in found:
        assert sorted(json.loads(text)) == sorted(resources.MEASUREMENT.names)


def test_the_runs_cover_every_member_in_key_order():
    parts = runs(resources.MEASUREMENT)
    names = [name for _, run in parts for name in run]
    assert names == sorted(resources.MEASUREMENT.names)
    # Members of the reading and of the row alternate: a run never follows one of its kind.
    assert all(a[0] != b[0] for a, b in zip(parts, parts[1:], strict=False))
    assert {name for mine, run in parts if mine for name in run} <= set(published.TEXTS) | set(
        published.NUMBERS
    )
