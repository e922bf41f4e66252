"""What needs a person's look: every finding of a mapping run, as one table and a summary.

Each finding is one row: its kind, the PLZ and zone(s) it concerns, a share or an area and a
sentence. The table is written as a CSV beside the mapping; the summary (counts per kind and
the largest cases) ends the command's output.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

Column = str | int | float | None | Sequence[Any] | np.ndarray | pl.Series
"""A report column: one value for every finding, or one per finding."""

SCHEMA = {
    "kind": pl.String,
    "plz": pl.String,
    "zone_id": pl.Int64,
    "other_zone_id": pl.Int64,
    "share": pl.Float64,
    "area_m2": pl.Float64,
    "detail": pl.String,
}

# kind -> (how the summary names it, column that ranks its cases, most important first)
KINDS = {
    "repaired_plz": ("PLZ areas with invalid geometry, repaired", "area_m2"),
    "repaired_zone": ("zone areas with invalid geometry, repaired", "area_m2"),
    "repaired_admin_area": ("administrative areas with invalid geometry, repaired", "area_m2"),
    "sliver": ("intersections below the minimum share, dropped as boundary noise", "share"),
    "unassigned": ("PLZ with a part no zone covers (at least the minimum share)", "share"),
    "plz_without_zone": ("PLZ that no zone covers: no row in the table", "area_m2"),
    "zone_overlap": ("pairs of zones that overlap inside a PLZ (split equally)", "area_m2"),
    "zone_without_plz": ("zones that cover no PLZ above the minimum share", "area_m2"),
    "population_unknown": (
        "PLZ without a known inhabited grid cell: empty population_share",
        "area_m2",
    ),
    "street_unassigned": ("streets in a shared PLZ that lie in no zone", "share"),
}


class Report:
    """Collect findings (in bulk, as columns) and render them."""

    def __init__(self) -> None:
        self._frames: list[pl.DataFrame] = []
        self.counts: dict[str, int] = {}
        """Counted without a row each (e.g. slivers proven below the minimum unmeasured)."""

    def add(self, kind: str, **columns: Column) -> None:
        """Add findings of one kind; columns are equal-length sequences or scalars."""
        if kind not in KINDS:
            raise ValueError(f"unknown report kind {kind!r}")
        lengths = {
            len(v)
            for v in columns.values()
            if v is not None and not isinstance(v, (str, int, float))
        }
        n = lengths.pop() if lengths else 1
        data: dict[str, Column] = {"kind": [kind] * n}
        for name in list(SCHEMA)[1:]:
            value = columns.get(name)
            data[name] = (
                [value] * n if value is None or isinstance(value, (str, int, float)) else value
            )
        frame = pl.DataFrame(data, schema=SCHEMA)
        if frame.height:
            self._frames.append(frame)

    def count(self, kind: str, n: int) -> None:
        """Count findings that get no row of their own."""
        self.counts[kind] = self.counts.get(kind, 0) + n

    def frame(self) -> pl.DataFrame:
        """Return every finding, sorted by kind, PLZ and zone (stable, for identical bytes)."""
        if not self._frames:
            return pl.DataFrame(schema=SCHEMA)
        order = {kind: i for i, kind in enumerate(KINDS)}
        return (
            pl.concat(self._frames)
            .with_columns(pl.col("kind").replace_strict(order).alias("_order"))
            .sort("_order", "plz", "zone_id", "other_zone_id", nulls_last=True)
            .drop("_order")
            .with_columns(pl.col("share").round(6), pl.col("area_m2").round(1))
        )

    def totals(self) -> dict[str, int]:
        """Return the number of findings per kind (rows plus counted ones)."""
        out = dict.fromkeys(KINDS, 0)
        for frame in self._frames:
            kind = frame["kind"][0]
            out[kind] += frame.height
        for kind, n in self.counts.items():
            out[kind] += n
        return {kind: n for kind, n in out.items() if n}

    def summary(self, examples: int = 3) -> str:
        """Return one line per kind with its count and its largest cases."""
        frame = self.frame()
        lines = []
        for kind, n in self.totals().items():
            label, rank = KINDS[kind]
            cases = frame.filter(pl.col("kind") == kind).sort(
                rank, descending=True, nulls_last=True
            )
            shown = ", ".join(_case(row) for row in cases.head(examples).iter_rows(named=True))
            lines.append(f"  {n:>7,}  {label}" + (f" (e.g. {shown})" if shown else ""))
        return "\n".join(lines) if lines else "  nothing to look at"


def _case(row: dict[str, Any]) -> str:
    who = []
    if row["plz"] is not None:
        who.append(f"PLZ {row['plz']}")
    if row["zone_id"] is not None:
        zones = f"zone {row['zone_id']}"
        if row["other_zone_id"] is not None:
            zones = f"zones {row['zone_id']}/{row['other_zone_id']}"
        who.append(zones)
    size = ""
    if row["share"] is not None:
        size = f" {row['share']:.2%}"
    elif row["area_m2"] is not None:
        size = f" {row['area_m2']:,.0f} m²"
    return " ".join(who) + size
