"""Runs of whole zones: how the series (10 million rows nationally) is worked on in parts.

A step whose every group lies within one zone (a zone's hash, a parameter's samples) gives
the same result on each run of zones as on the whole series, and holds only one run's
intermediate frames at a time.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

ROWS = 500_000
"""About how many rows a run holds (a zone is never split, so a run may hold more)."""


def zone_runs(frame: pl.DataFrame, rows: int | None = None) -> list[tuple[int, int]]:
    """Return (offset, length) of consecutive runs of whole zones; `frame` sorted by zone."""
    rows = rows or ROWS
    counts = frame.group_by("zone_id", maintain_order=True).len()["len"].to_list()
    runs, start, size = [], 0, 0
    for n in counts:
        if size and size + n > rows:
            runs.append((start, size))
            start, size = start + size, 0
        size += n
    if size or not runs:
        runs.append((start, size))
    return runs


def per_run(
    frame: pl.DataFrame, step: Callable[[pl.DataFrame], pl.DataFrame], rows: int | None = None
) -> pl.DataFrame:
    """Return `step` of each run of whole zones of `frame`, stacked in order.

    For a step whose groups each lie within one zone: a group-by over the whole series holds
    its keys for all 10 million rows at once.
    """
    return pl.concat([step(frame.slice(offset, n)) for offset, n in zone_runs(frame, rows)])
