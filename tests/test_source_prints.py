"""Source prints of a daily update: only zones with rows in new row groups are hashed again.

Whatever the edit of the series file (rows appended as a row group, a row group changed,
dropped, moved or repeated, a document retitled), the prints are the ones hashing every
zone gives; the previous prints are taken only when every row group they were made of is
still there in order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator import load as load_module
from generator.build import build
from generator.config import Config
from generator.incremental import hashes, reuse, source_prints
from generator.incremental import render_plan as incremental
from generator.incremental.source_prints import Known
from generator.load import load
from generator.ordinance import staleness
from generator.output.state import Basis
from tests.helpers import (
    AS_OF,
    GOLDEN_INPUT,
    golden_data_in_row_groups,
    golden_series,
    tree_files,
    write_row_groups,
)

CODE = "code"


def _earlier(rows: pl.DataFrame, days: int) -> pl.DataFrame:
    """Return the same samples `days` earlier: a publication of older analyses.

    The edition date of each one's document stays after it.
    """
    earlier = pl.col("sampled_at").str.to_date() - pl.duration(days=days)
    return rows.with_columns(earlier.cast(pl.String).alias("sampled_at"))


def _previous(data: Path) -> tuple[Basis, pl.DataFrame, pl.DataFrame]:
    """Return what a build of `data` keeps for the next: basis, prints, cited documents."""
    basis = source_prints.basis(data, CODE)
    assert basis is not None
    loaded = load(data)
    prints = source_prints.source_prints(loaded.measurements, loaded.documents)
    pairs = staleness.zone_documents(loaded.measurements, AS_OF)
    return basis, prints, pairs


edits = st.lists(
    st.tuples(
        st.sampled_from(["append", "change", "drop", "move", "repeat", "title"]),
        st.integers(0, 1000),
    ),
    min_size=1,
    max_size=3,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cuts=st.lists(st.integers(1, 83), min_size=0, max_size=3, unique=True), edits=edits)
def test_prints_taken_from_the_previous_build_are_the_prints_of_every_zone(
    tmp_path: Path, cuts: list[int], edits: list[tuple[str, int]]
) -> None:
    series = golden_series()
    bounds = [0, *sorted(cuts), series.height]
    chunks = [series.slice(a, b - a) for a, b in zip(bounds, bounds[1:], strict=False)]
    before, prints, pairs = _previous(golden_data_in_row_groups(tmp_path, chunks))
    kept_in_order = True
    for i, (kind, n) in enumerate(edits):
        at = n % len(chunks)
        if kind == "append":
            chunks.append(_earlier(series.slice(n % series.height, 1 + n % 5), 1000 + i))
        elif kind == "change":
            chunk = chunks[at]
            changed = pl.int_range(pl.len()) == n % chunk.height
            value = pl.when(changed).then(pl.lit("0,5")).otherwise(pl.col("value_text"))
            chunks[at] = chunk.with_columns(value.alias("value_text"))
            kept_in_order = kept_in_order and chunk.equals(chunks[at])
        elif kind == "drop" and len(chunks) > 1:
            chunks.pop(at)
            kept_in_order = False
        elif kind == "move" and len(chunks) > 1:
            chunks.insert(0, chunks.pop(at))
            kept_in_order = kept_in_order and at == 0
        elif kind == "repeat":
            chunks.append(_earlier(chunks[at], 2000 + i))
    data = golden_data_in_row_groups(tmp_path, chunks)
    if any(kind == "title" for kind, _ in edits):
        docs = pl.read_csv(data / "documents.csv", infer_schema=False)
        docs.with_columns(pl.format("{} (neu)", "title").alias("title")).write_csv(
            data / "documents.csv"
        )
    now = source_prints.basis(data, CODE)
    assert now is not None
    loaded = load(data)
    touched = source_prints.touched(before, now)
    whole = source_prints.source_prints(loaded.measurements, loaded.documents)
    if kept_in_order:
        assert touched is not None  # the previous prints are taken: the case under test
    if touched is not None:
        known = Known(touched, prints, pairs.lazy())
        taken = source_prints.source_prints(loaded.measurements, loaded.documents, known)
        assert taken.equals(whole)


def test_other_code_hashes_every_zone(tmp_path: Path) -> None:
    series = golden_series()
    before = source_prints.basis(golden_data_in_row_groups(tmp_path, [series]), CODE)
    now = source_prints.basis(golden_data_in_row_groups(tmp_path, [series]), "other code")
    assert before is not None and now is not None
    assert source_prints.touched(before, now) is None
    assert source_prints.touched(before, before) is not None


def test_a_series_as_csv_has_no_basis(tmp_path: Path) -> None:
    assert source_prints.basis(GOLDEN_INPUT, CODE) is None


@pytest.mark.slow
def test_a_daily_update_hashes_the_rows_of_the_zones_appended_to(tmp_path: Path) -> None:
    """End to end: the rebuild hashes the new publication's zones, the tree is a full build's."""
    series = golden_series()
    old = series.filter(pl.col("sampled_at") < "2026-09-01")
    new = _earlier(series.filter(pl.col("zone_id") == "11").head(2), 200)
    data = golden_data_in_row_groups(tmp_path, [old.head(30), old.slice(30)])
    build(data, tmp_path / "daily", AS_OF, Config())
    write_row_groups(data / "measurements.parquet", [old.head(30), old.slice(30), new])
    hashed: list[pl.DataFrame] = []
    per_zone = hashes.per_zone

    def spy(frame: pl.DataFrame, name: str) -> pl.DataFrame:
        if name == "_series":
            hashed.append(frame)
        return per_zone(frame, name)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(source_prints, "per_zone", spy)
        build(data, tmp_path / "daily", AS_OF, Config())
    assert [f["zone_id"].unique().to_list() for f in hashed] == [[11]]
    assert hashed[0].height == old.filter(pl.col("zone_id") == "11").height + new.height
    build(data, tmp_path / "full", AS_OF, Config())
    assert tree_files(tmp_path / "daily") == tree_files(tmp_path / "full")


def _built_then_appended(tmp_path: Path) -> tuple[Path, pl.DataFrame, pl.DataFrame]:
    """Build the older rows into `daily`, then append zone 11's rows as a row group.

    Return the data directory, the older rows and the appended ones.
    """
    series = golden_series()
    old = series.filter(pl.col("sampled_at") < "2026-09-01")
    first = _earlier(series.filter(pl.col("zone_id") == "11").head(2), 200)
    data = golden_data_in_row_groups(tmp_path, [old])
    build(data, tmp_path / "daily", AS_OF, Config())
    write_row_groups(data / "measurements.parquet", [old, first])
    return data, old, first


@pytest.mark.parametrize("shared", [False, True])
def test_an_update_derives_the_zone_appended_to_or_every_zone_when_a_shared_table_changed(
    tmp_path: Path, shared: bool
) -> None:
    data, _, _ = _built_then_appended(tmp_path)
    if shared:  # a zone's name: every zone is derived again
        zones = pl.read_csv(data / "zones.csv", infer_schema=False)
        zones.with_columns(pl.format("{} (neu)", "name").alias("name")).write_csv(
            data / "zones.csv"
        )
    result = build(data, tmp_path / "daily", AS_OF, Config())
    every = pl.read_csv(data / "zones.csv", infer_schema=False).height
    assert result.zones_derived == (every if shared else 1)
    build(data, tmp_path / "full", AS_OF, Config())
    assert tree_files(tmp_path / "daily") == tree_files(tmp_path / "full")


def test_a_series_that_changes_while_it_loads_is_noted_nowhere(tmp_path: Path) -> None:
    """Rows appended during the load may not be in the frame: the next build hashes all."""
    data, old, first = _built_then_appended(tmp_path)
    then = _earlier(golden_series().filter(pl.col("zone_id") == "11").head(2), 300)
    loading = load_module.load_warned  # what the build loads with

    def appended_meanwhile(*args: Any, **kwargs: Any) -> Any:
        loaded = loading(*args, **kwargs)
        write_row_groups(data / "measurements.parquet", [old, first, then])
        return loaded

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(load_module, "load_warned", appended_meanwhile)
        build(data, tmp_path / "daily", AS_OF, Config())
    state = incremental.read_state(tmp_path / "daily")
    assert state is not None and state.basis is None
    build(data, tmp_path / "daily", AS_OF, Config())  # the rows appended: every zone hashed
    build(data, tmp_path / "full", AS_OF, Config())
    assert tree_files(tmp_path / "daily") == tree_files(tmp_path / "full")


def test_a_series_rewritten_after_its_load_is_read_by_the_next_build(tmp_path: Path) -> None:
    """The zones to hash are told before the load: a rewrite during derive is the next's."""
    data, old, first = _built_then_appended(tmp_path)
    front = _earlier(golden_series().filter(pl.col("zone_id") == "12").head(3), 300)
    known = reuse.known

    def rewritten_meanwhile(*args: Any, **kwargs: Any) -> Any:
        write_row_groups(data / "measurements.parquet", [front, old, first])
        return known(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reuse, "known", rewritten_meanwhile)
        build(data, tmp_path / "daily", AS_OF, Config())
    rewritten = (data / "measurements.parquet").read_bytes()
    write_row_groups(data / "measurements.parquet", [old, first])
    build(data, tmp_path / "loaded", AS_OF, Config())
    assert tree_files(tmp_path / "daily") == tree_files(tmp_path / "loaded")  # what it loaded
    (data / "measurements.parquet").write_bytes(rewritten)
    build(data, tmp_path / "daily", AS_OF, Config())
    build(data, tmp_path / "full", AS_OF, Config())
    assert tree_files(tmp_path / "daily") == tree_files(tmp_path / "full")
