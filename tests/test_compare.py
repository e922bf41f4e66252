"""Where a zone's value stands among all zones' (generator/compare.py), and how pages say it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl

from generator import compare
from generator.site import urls


def _rows(values: list[tuple[str, float | None, float | None]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "zone_id": list(range(1, len(values) + 1)),
            "parameter": ["nitrat"] * len(values),
            "qualifier": [q for q, _, _ in values],
            "normalized_value": [v for _, v, _ in values],
            "normalized_reporting_limit": [bound for _, _, bound in values],
        }
    )


def test_shares_count_only_what_is_certain_and_the_band_below_a_limit_apart():
    rows = _rows(
        [
            ("number", 10.0, None),
            ("number", 20.0, None),
            ("below_reporting_limit", None, 15.0),
            ("number", 30.0, None),
            ("not_detected", None, None),
            ("number", 20.0, None),
            ("text", None, None),  # not comparable: left out
        ]
    )
    got = {r["zone_id"]: r for r in compare.standings(rows).iter_rows(named=True)}
    assert set(got) == {1, 2, 3, 4, 5, 6} and {r["zones"] for r in got.values()} == {6}
    # 10: three measured values are higher; nothing is certainly lower (the "< 15" may be more).
    assert (got[1]["lower_than_percent"], got[1]["higher_than_percent"]) == (50, 0)
    # 20: 30 is higher (1 of 6, 16 %); 10 and "< 15" are certainly lower (2 of 6, 33 %).
    assert (got[2]["lower_than_percent"], got[2]["higher_than_percent"]) == (16, 33)
    # "< 15" is lower than 20, 30, 20 and never counted as zero: nothing is lower than it.
    assert (got[3]["lower_than_percent"], got[3]["higher_than_percent"]) == (50, None)
    # Not detected with no limit given: nothing is certain either way.
    assert (got[5]["lower_than_percent"], got[5]["higher_than_percent"]) == (None, None)
    assert {r["below_reporting_limit_percent"] for r in got.values()} == {33}


def test_too_few_zones_make_no_comparison():
    rows = _rows([("number", float(v), None) for v in range(compare.MIN_ZONES - 1)])
    assert compare.standings(rows).is_empty()
    assert compare.distributions(
        rows, pl.DataFrame(schema={"code": pl.String, "value": pl.Float64})
    ).is_empty()


def test_the_distribution_counts_measured_values_in_bars_and_the_band_apart():
    rows = _rows(
        [("number", 5.0, None)] * 4 + [("number", 60.0, None), ("below_reporting_limit", None, 1.0)]
    )
    dist = compare.distributions(rows, pl.DataFrame({"code": ["nitrat"], "value": [50.0]}))
    row = dist.row(0, named=True)
    # The axis ends at the limit (above the 95th percentile would be 60: the larger wins).
    assert row["zones"] == 6 and row["below"] == 1 and row["top"] >= 50.0
    assert sum(row["bins"]) == 5 and row["bins"][-1] == 1  # 60 counts in the last bar


def test_the_sample_zone_documents_and_pages_say_where_a_value_stands(sample_build: Path):
    zones = sorted((sample_build / "_data" / "v1" / "zones").glob("*.json"))
    nitrate = {}
    for path in zones:
        doc = json.loads(path.read_text())
        for v in doc["current_values"]:
            if v["parameter"] == "nitrat" and v["qualifier"] == "number":
                nitrate[doc["zone_id"]] = (v["normalized_value"], v["comparison"])
    values = [v for v, _ in nitrate.values()]
    for zone_id, (value, comparison) in nitrate.items():
        higher = sum(1 for w in values if w > value)
        assert comparison["lower_than_percent"] == higher * 100 // comparison["zones"], zone_id
        page = (sample_build / urls.file_path("zone", zone_id=zone_id)).read_text()
        assert (
            f"Niedriger als in {comparison['lower_than_percent']} % der Versorgungsgebiete "
            "in Deutschland" in page
        )
    # Parameters not compared have no comparison.
    doc = json.loads(zones[0].read_text())
    assert all(
        v["comparison"] is None
        for v in doc["current_values"]
        if v["parameter"] not in compare.COMPARED
    )
    # The parameter page shows the national distribution with its limit inside the chart.
    page = (sample_build / urls.file_path("parameter", code="nitrat")).read_text()
    assert '<svg class="distribution"' in page and "Grenzwert 50 mg/l</text>" in page
    assert re.search(r"unter der Bestimmungsgrenze oder nicht nachgewiesen</td><td>\d+", page)
