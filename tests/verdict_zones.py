"""Zones made of given rows, assessed by the build's own verdict code (`derive.zone_verdicts`).

The golden input's register, limits, pesticides and documents are loaded once; a zone is
then only its measurement rows, so a property test can assess hundreds of generated zones
in seconds. Rows are written as the data contract's table holds them (text as published).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from functools import cache
from typing import Any

import polars as pl

from generator import derive
from generator.load import MEASUREMENT_ORDER, SourceData, load
from generator.values import published
from generator.values.parse import parse_limit_values
from tests.helpers import AS_OF, GOLDEN_INPUT

ZONE = 11
"""A zone of the golden input (its supplier, documents and PLZ come along)."""
DOCUMENT = "wk-2026"
"""A document of that zone's supplier, edition 2026-06-30."""

COLUMNS = {
    "zone_id": pl.Int64,
    "parameter": pl.String,
    "sampled_at": pl.Date,
    "value_text": pl.String,
    "unit": pl.String,
    "document_id": pl.String,
    "sample_point": pl.String,
    "statistic": pl.String,
    "reporting_limit": pl.String,
}


@cache
def reference() -> SourceData:
    """Return the golden input, loaded once, its limits read as derive reads them."""
    data = load(GOLDEN_INPUT)
    return dataclasses.replace(data, limits=parse_limit_values(data.limits))


def row(
    parameter: str,
    value_text: str,
    unit: str,
    sampled_at: dt.date = dt.date(2026, 6, 3),
    sample_point: str | None = None,
    statistic: str = "sample",
    reporting_limit: str | None = None,
    document_id: str = DOCUMENT,
) -> dict[str, Any]:
    """Return one measurement row of the zone, as the contract's table holds it."""
    return {
        "zone_id": ZONE,
        "parameter": parameter,
        "sampled_at": sampled_at,
        "value_text": value_text,
        "unit": unit,
        "document_id": document_id,
        "sample_point": sample_point,
        "statistic": statistic,
        "reporting_limit": reporting_limit,
    }


def _table(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """Return measurement rows as the contract's table, in the loader's order."""
    return (
        pl.DataFrame(rows, schema=COLUMNS, orient="row")
        .sort(MEASUREMENT_ORDER, nulls_last=False)
        .with_columns(pl.col("unit").fill_null(""))
    )


def zone_data(rows: list[dict[str, Any]]) -> SourceData:
    """Return the golden input whose only measurements are zone `ZONE`'s `rows`."""
    measurements = _table(rows)
    return dataclasses.replace(reference(), measurements=measurements)


def assess_many(
    zones: list[list[dict[str, Any]]], as_of: dt.date = AS_OF, cadence_months: int = 12
) -> list[tuple[dict[str, dict[str, Any]], dict[str, Any]]]:
    """Assess several zones in one pass: each its current values by parameter and summary.

    Zone i is zone `ZONE`'s supplier and settings under id `ZONE * 1000 + i`; its rows keep
    every column but the zone. One pass, because a verdict looks at one zone's rows only
    and the queries' fixed cost is most of the time of a small zone.
    """
    data = reference()
    editions = dict(data.documents.select("document_id", "edition_date").iter_rows())
    for r in (r for zone in zones for r in zone):
        # The data contract's rule: no sample after the edition of the document citing it.
        assert r["sampled_at"] <= editions[r["document_id"]], r
    ids = [ZONE * 1000 + i for i in range(len(zones))]
    rows = [
        {**r, "zone_id": zone_id} for zone_id, zone in zip(ids, zones, strict=True) for r in zone
    ]
    measurements = _table(rows)
    template = data.zones.filter(pl.col("zone_id") == ZONE)
    zone_rows = pl.concat(
        [template.with_columns(pl.lit(i, pl.Int64).alias("zone_id")) for i in ids]
    )
    data = dataclasses.replace(data, measurements=measurements, zones=zone_rows)
    series, readings = published.read_series(measurements, data.parameters)
    values, summaries = derive.zone_verdicts(
        data, series, readings, derive.zones(data), as_of, cadence_months
    )
    out = []
    for zone_id in ids:
        own = values.filter(pl.col("zone_id") == zone_id)
        [zone] = summaries.filter(pl.col("zone_id") == zone_id).to_dicts()
        # The summary, with the zone's other derived fields beside it (`_zone`).
        out.append(
            ({r["parameter"]: r for r in own.to_dicts()}, {**zone["summary"], "_zone": zone})
        )
    return out


def assess(
    rows: list[dict[str, Any]], as_of: dt.date = AS_OF, cadence_months: int = 12
) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """Return the zone's current values by parameter, and its summary."""
    return assess_many([rows], as_of, cadence_months)[0]
