"""What `mapping.json` records: the inputs, the rules applied, the outputs and the credits."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from generator import __version__
from generator.contract.provenance import (
    GRID_TITLE,
    OSM_CREDIT,
    OSM_LICENSE,
    OSM_LICENSE_URL,
    PLZ_AREAS_TITLE,
    STREETS_TITLE,
    ZENSUS_CREDIT,
    ZENSUS_LICENSE,
    ZENSUS_LICENSE_URL,
)
from generator.mapping import table
from generator.mapping.intersect import BAND_OF_MIN_SHARE, OVERLAP_MIN_M2, OVERLAP_MIN_WIDTH_M
from generator.mapping.read import Layer
from generator.mapping.report import Report

if TYPE_CHECKING:
    from generator.mapping.options import MappingOptions
    from generator.mapping.population import Grid
    from generator.mapping.streets import Streets

Record = dict[str, Any]
"""A JSON object of mapping.json."""


def describe(path: Path, **facts: object) -> Record:
    """Name, date and digest of an input file, and what was read from it."""
    path = Path(path)
    stat = path.stat()
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    modified = dt.datetime.fromtimestamp(stat.st_mtime, dt.UTC).strftime("%Y-%m-%d")
    return {
        "file": path.name,
        "modified": modified,
        "bytes": stat.st_size,
        "sha256": digest.hexdigest(),
        **facts,
    }


def provenance(
    options: MappingOptions,
    plz_layer: Layer,
    zone_inputs: dict[str, Record],
    grid: Grid | None,
    population_info: dict[str, int] | None,
    streets: Streets | None,
    rows: pl.DataFrame,
    street_rows: pl.DataFrame | None,
    report: Report,
) -> Record:
    inputs: dict[str, Record] = {
        "plz_areas": describe(
            plz_layer.path, features=plz_layer.count, crs=plz_layer.crs, field=options.plz_field
        ),
        **zone_inputs,
    }
    # Each source names its entry of `inputs` (`input`): the build reads the file's date,
    # the grid's edition and the extract's timestamp from there.
    sources: list[Record] = [
        {
            "title": PLZ_AREAS_TITLE,
            "file": plz_layer.path.name,
            "credit": OSM_CREDIT,
            "license": OSM_LICENSE,
            "license_url": OSM_LICENSE_URL,
            "input": "plz_areas",
        }
    ]
    # Zone maps and municipality lists come from suppliers and authorities under terms
    # the operator knows; they are named, their license is not guessed.
    for key, title in (
        ("zone_areas", "Versorgungsgebiete"),
        ("zone_admin", "Gebietslisten"),
        ("admin_areas", "Verwaltungsgebiete"),
    ):
        if key in zone_inputs:
            sources.append({"title": title, "file": zone_inputs[key]["file"], "input": key})
    if grid is not None:
        inputs["population"] = describe(
            grid.path,
            edition=options.population_edition,
            resolution=grid.resolution,
            **(population_info or {}),
        )
        sources.append(
            {
                "title": f"{GRID_TITLE}, {options.population_edition} ({grid.resolution})",
                "file": grid.path.name,
                "credit": ZENSUS_CREDIT,
                "license": ZENSUS_LICENSE,
                "license_url": ZENSUS_LICENSE_URL,
                "input": "population",
            }
        )
    if streets is not None:
        inputs["streets"] = describe(
            streets.path,
            osm_timestamp=streets.timestamp,
            osm_timestamp_source=streets.timestamp_source,
            named_ways=int(len(streets.name)),
            ways_without_locations=streets.broken,
        )
        sources.append(
            {
                "title": STREETS_TITLE,
                "file": streets.path.name,
                "credit": OSM_CREDIT,
                "license": OSM_LICENSE,
                "license_url": OSM_LICENSE_URL,
                "timestamp": streets.timestamp,
                "input": "streets",
            }
        )
    outputs: dict[str, Record] = {
        "plz_zones": {"file": options.out.name, "rows": rows.height, "plz": rows["plz"].n_unique()}
    }
    if street_rows is not None and options.streets_out is not None:
        outputs["streets"] = {"file": options.streets_out.name, "rows": street_rows.height}
    outputs["report"] = {"file": options.report_path.name, "findings": report.totals()}
    return {
        "tool": f"trinkwasser mapping {__version__}",
        "inputs": inputs,
        "rules": {
            "equal_area_crs": "EPSG:3035",
            "min_share": options.min_share,
            "core_band_of_min_share": BAND_OF_MIN_SHARE,
            "overlaps": "split equally among the overlapping zones (from "
            f"{OVERLAP_MIN_M2:g} m² and {OVERLAP_MIN_WIDTH_M * 100:g} cm mean width)",
            "confidence": {
                **table.CONFIDENCE,
                "near_minimum": f"below {table.NEAR_MINIMUM:g}x "
                "the minimum share, lowered linearly down to half at the minimum",
            },
            "population": "a cell counts where its centre lies; secret cells count nowhere",
            "streets": "highway=* ways with a name; length in EPSG:3035",
            "zone_boundary_source_default": options.zone_source,
        },
        "outputs": outputs,
        "sources": sources,
    }
