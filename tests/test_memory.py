"""What keeps the national build's memory down changes no value: batches, shared text, Enums.

The figures are measured in docs/performance.md; these tests check that each device gives
the same frames as the plain way of computing them.
"""

from __future__ import annotations

import itertools
import random
import shutil

import polars as pl
import pytest

from generator import batches, derive, load
from generator.compact import as_text, compact
from generator.contract.read import shared_text
from tests.helpers import AS_OF, GOLDEN_INPUT


def test_current_values_do_not_depend_on_the_zones_per_batch(monkeypatch):
    data = load.load(GOLDEN_INPUT)
    whole = derive.derive(data, AS_OF).current_values
    monkeypatch.setattr(derive, "ZONES", 1)
    batched = derive.derive(data, AS_OF).current_values
    assert batched["zone_id"].n_unique() > 1
    assert batched.schema == whole.schema
    assert batched.equals(whole)
    assert batched.n_chunks("all") == [1] * batched.width


def test_the_series_is_held_as_enums_and_read_back_as_text():
    data = load.load(GOLDEN_INPUT)
    d = derive.derive(data, AS_OF)
    assert isinstance(d.measurements.schema["document_id"], pl.Enum)
    text = as_text(d.measurements)
    assert text.schema["document_id"] == pl.String
    # Held as Enums from the loader on; the source columns read back as loaded, row for row.
    assert isinstance(data.measurements.schema["value_text"], pl.Enum)
    loaded = as_text(data.measurements)
    assert loaded.schema["value_text"] == pl.String
    source = text.select(c for c in data.measurements.columns if c != "reporting_limit")
    assert source.equals(loaded.select(source.columns))


def test_compact_and_back_is_the_same_frame():
    frame = pl.DataFrame(
        {
            "a": ["b", None, "a", "é", "B", "", "b"],
            "n": [1, 2, 3, 4, 5, 6, 7],
            "empty": pl.Series([None] * 7, dtype=pl.String),
        }
    )
    small = compact(frame)
    assert isinstance(small.schema["a"], pl.Enum)
    assert as_text(small).equals(frame)
    assert as_text(small).schema == frame.schema
    # The codes follow the sorted values: sorting the codes sorts the text.
    by_code = as_text(small.sort("a", nulls_last=False))["a"]
    assert by_code.equals(frame.sort("a", nulls_last=False)["a"])


def test_shared_text_keeps_every_cell():
    rng = random.Random(7)
    cells = [rng.choice([None, "", "x" * 30, "Wasserwerk Nord, Ausgang", "ü"]) for _ in range(500)]
    frame = pl.DataFrame({"t": cells, "u": [str(i) for i in range(500)], "i": list(range(500))})
    shared = shared_text(frame)
    assert shared.equals(frame)
    assert shared.schema == frame.schema


@pytest.mark.parametrize("seed", range(5))
def test_in_order_agrees_with_sorting(seed):
    rng = random.Random(seed)
    for _ in range(300):
        n = rng.randint(0, 7)
        frame = pl.DataFrame(
            {
                "a": [rng.choice([None, 1, 2]) for _ in range(n)],
                "b": [rng.choice([None, "x", "y", "é"]) for _ in range(n)],
            },
            schema={"a": pl.Int64, "b": pl.String},
        )
        ordered = frame.sort("a", "b", nulls_last=False)
        distinct = (
            frame.height < 2 or not frame.select(pl.struct("a", "b").is_duplicated().any()).item()
        )
        assert load.in_order(frame, ("a", "b")) == (frame.equals(ordered) and distinct)


def test_measurements_out_of_order_load_as_sorted(tmp_path):
    shutil.copytree(GOLDEN_INPUT, tmp_path / "data")
    path = tmp_path / "data" / "measurements.csv"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    head, rows = lines[0], lines[1:]
    random.Random(3).shuffle(rows)
    path.write_text(head + "".join(rows), encoding="utf-8")
    shuffled = load.load(tmp_path / "data").measurements
    assert shuffled.equals(load.load(GOLDEN_INPUT).measurements)


def test_runs_of_zones_cover_the_series_and_never_split_a_zone():
    d = derive.derive(load.load(GOLDEN_INPUT), AS_OF)
    for rows in (1, 3, 50, 10**9):
        runs = batches.zone_runs(d.measurements, rows)
        assert sum(length for _, length in runs) == d.measurements.height
        assert [offset for offset, _ in runs] == [0, *itertools.accumulate(n for _, n in runs[:-1])]
        zones = [set(d.measurements.slice(o, n)["zone_id"]) for o, n in runs]
        assert all(not (a & b) for i, a in enumerate(zones) for b in zones[i + 1 :])
    assert len(batches.zone_runs(d.measurements, 1)) == d.measurements["zone_id"].n_unique()


def test_verdict_changes_do_not_depend_on_the_runs(monkeypatch):
    from generator.site import feeds

    d = derive.derive(load.load(GOLDEN_INPUT), AS_OF)
    whole = feeds.verdict_changes(d, AS_OF).collect()
    monkeypatch.setattr(batches, "ROWS", 3)
    assert len(batches.zone_runs(d.measurements)) > 1
    assert feeds.verdict_changes(d, AS_OF).collect().equals(whole)
    assert whole.height > 0


def test_page_dates_and_feed_entries_do_not_depend_on_the_runs(monkeypatch):
    from generator.site import feeds, seo

    d = derive.derive(load.load(GOLDEN_INPUT), AS_OF)
    dates, entries = seo.page_dates(d, AS_OF), feeds.zone_entries(d, AS_OF)
    monkeypatch.setattr(batches, "ROWS", 3)
    assert len(batches.zone_runs(d.measurements)) > 1
    assert seo.page_dates(d, AS_OF) == dates
    assert feeds.zone_entries(d, AS_OF).equals(entries)
    assert entries.filter(pl.col("key").str.starts_with("dokument-")).height > 0
