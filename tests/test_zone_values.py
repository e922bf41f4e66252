"""Current values partly left in files read as one frame of every zone holds them."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.frames.zone_values import Run, ZoneValues

ZONES = 12


def _every(changed: frozenset[int] = frozenset()) -> pl.DataFrame:
    """Three rows per zone 1 to ZONES, in zone order; a changed zone's values doubled."""
    ids = [z for z in range(1, ZONES + 1) for _ in range(3)]
    return pl.DataFrame(
        {
            "zone_id": ids,
            "parameter": [p for _ in range(ZONES) for p in ("nitrat", "blei", "pfas")],
            "value": [float(z * (2 if z in changed else 1)) for z in ids],
            "limit": [{"value": 50.0, "unit": "mg/l"} for _ in ids],
        }
    )


def _runs(folder: Path, frame: pl.DataFrame, per_run: int = 4) -> tuple[Run, ...]:
    runs = []
    for first in range(1, ZONES + 1, per_run):
        last = min(first + per_run - 1, ZONES)
        rows = frame.filter(pl.col("zone_id").is_between(first, last))
        path = folder / f"{first}-{last}.arrow"
        rows.write_ipc(path, compression="zstd")
        runs.append(Run(first, last, rows.height, path))
    return tuple(runs)


def _updated(folder: Path, changed: frozenset[int]) -> tuple[ZoneValues, pl.DataFrame]:
    """Return the values of a daily update that derived `changed`, and the whole frame."""
    runs = _runs(folder, _every())
    now = _every(changed)
    derived = pl.col("zone_id").is_in(sorted(changed))
    kept = pl.Series("zone_id", [z for z in range(1, ZONES + 1) if z not in changed])
    return ZoneValues(now.filter(derived), runs, kept), now


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    changed=st.frozensets(st.integers(1, ZONES), max_size=ZONES),
    asked=st.frozensets(st.integers(1, ZONES + 2), max_size=ZONES),
)
def test_rows_read_from_the_runs_are_those_of_the_whole_frame(
    tmp_path: Path, changed: frozenset[int], asked: frozenset[int]
) -> None:
    values, now = _updated(tmp_path, changed)
    assert values.whole is (not values.runs)
    assert values.all().equals(now)
    assert values.lazy().select("zone_id", "value").collect().equals(now.select("zone_id", "value"))
    some = pl.Series("zone_id", sorted(asked), dtype=pl.Int64)
    assert values.of(some).equals(now.filter(pl.col("zone_id").is_in(some.implode())))


def test_only_the_runs_holding_the_zones_asked_for_are_read(tmp_path: Path) -> None:
    values, now = _updated(tmp_path, frozenset({6}))
    values.runs[-1].path.write_bytes(b"gone")  # zones 9 to 12
    asked = pl.Series("zone_id", [2, 6, 7])
    assert values.of(asked).equals(now.filter(pl.col("zone_id").is_in([2, 6, 7])))
    with pytest.raises((OSError, pl.exceptions.PolarsError)):
        values.of(pl.Series("zone_id", [10]))


def test_values_held_whole_read_no_file(tmp_path: Path) -> None:
    now = _every()
    values = ZoneValues(now)
    assert values.whole
    assert values.all() is now
    assert values.of(pl.Series("zone_id", [3, 4])).equals(
        now.filter(pl.col("zone_id") < 5).slice(6)
    )


def test_a_zone_both_derived_and_kept_is_refused(tmp_path: Path) -> None:
    """Its rows would be read twice by `of` and `lazy`, and once by `all`."""
    runs = _runs(tmp_path, _every())
    derived = _every(frozenset({5})).filter(pl.col("zone_id") == 5)
    with pytest.raises(ValueError, match="both derived and kept"):
        ZoneValues(derived, runs, pl.Series("zone_id", list(range(1, ZONES + 1))))
    kept = pl.Series("zone_id", [z for z in range(1, ZONES + 1) if z != 5])
    assert ZoneValues(derived, runs, kept).all().equals(_every(frozenset({5})))
