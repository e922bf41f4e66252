"""Frames put together from slices: the same rows a filter or a concatenation gives."""

from __future__ import annotations

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from generator.frames import slices


@given(
    zones=st.lists(st.integers(1, 40), max_size=200).map(sorted),
    chosen=st.sets(st.integers(0, 45), max_size=80),
)
def test_rows_of_some_zones_are_the_rows_a_filter_keeps(zones: list[int], chosen: set[int]) -> None:
    """A few zones by binary search, many by a filter: the same rows in the same order."""
    frame = pl.DataFrame(
        {"zone_id": zones, "row": range(len(zones))}, schema={"zone_id": pl.Int64, "row": pl.Int64}
    )
    values = pl.Series("zone_id", sorted(chosen), dtype=pl.Int32)
    found = slices.rows_of(frame, "zone_id", values)
    assert found.schema == frame.schema
    assert found.equals(frame.filter(pl.col("zone_id").is_in(sorted(chosen))))
