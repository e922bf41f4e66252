"""`trinkwasser mapping`: read the inputs, compute the tables, write them with their provenance.

Everything is read and checked first, then computed, and only then written (each file to a
temporary name, renamed at the end), so a bad input or a failure leaves no output behind.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
import polars as pl
import shapely

from generator.mapping import read, table
from generator.mapping.areas import dissolve, repair
from generator.mapping.intersect import overlay
from generator.mapping.options import MappingOptions
from generator.mapping.provenance import Record, provenance
from generator.mapping.read import MappingInputError
from generator.mapping.report import Report
from generator.mapping.shapes import land_per_plz, plz_shapes
from generator.mapping.zones import Zones, check_areas, read_layers, read_zones
from generator.output.atomic import Content, atomic_write_all
from generator.output.csv_cells import write_csv
from generator.progress import Report as Progress
from generator.progress import StepPrinter


@dataclass
class MappingResult:
    rows: int
    plz: int
    zones: int
    street_rows: int | None
    report: Report
    written: list[Path] = field(default_factory=list)


def run_mapping(options: MappingOptions, progress: Progress | None = None) -> MappingResult:
    """Compute `plz_zones` (and the streets table) from the inputs and write them."""
    progress = progress or StepPrinter(enabled=False)
    _check_options(options)
    start = time.perf_counter()

    def step(message: str) -> None:
        progress(f"{message} ({time.perf_counter() - start:.1f} s)")

    report = Report()
    plz_layer, zone_layer, admin_layer = read_layers(options)
    codes = read.plz_codes(plz_layer, options.plz_field)
    plz_ids, plz = dissolve(
        codes, repair(plz_layer.geometry, codes, "repaired_plz", report, options.max_crossings)
    )
    check_areas(plz, [f"PLZ {c}" for c in plz_ids.tolist()], options.plz_areas)
    step(f"PLZ areas: {plz_layer.count:,} features, {len(plz_ids):,} PLZ")
    lands = None
    if options.plz_land_field and options.plz_land_field in plz_layer.properties:
        lands = land_per_plz(codes, plz_layer.properties[options.plz_land_field], plz_ids)
    shapes = plz_shapes(plz_ids, plz, lands, options.shape_tolerance)
    step(f"PLZ areas for the map: {shapes.height:,}, simplified to {options.shape_tolerance:g} m")
    zones, zone_inputs = read_zones(options, zone_layer, admin_layer, report)
    step(f"zone areas: {len(zones.ids):,} zones")
    grid = streets = None
    if options.population:
        from generator.mapping.population import read_grid

        grid = read_grid(options.population)
        step(f"population grid: {len(grid.x):,} cells ({grid.secret:,} secret)")
    if options.streets:
        from generator.mapping.streets import read_streets

        streets = read_streets(options.streets)
        step(f"streets: {len(streets.name):,} named ways")

    result = overlay(
        plz, zones.geometry, options.min_share, options.threads, report, plz_ids, zones.ids
    )
    step(f"intersections: {result.shares.height:,} rows")
    rows = _plz_zones(result.shares, plz_ids, zones, options.min_share)
    _report_coverage(rows, plz_ids, result.plz_area, zones, options.min_share, report)

    population_info = None
    if grid is not None:
        from generator.mapping.population import population_shares

        shares, totals = population_shares(grid, plz, result.parts)
        rows = _with_population(rows, shares, totals, plz_ids, result.plz_area, report)
        population_info = {
            "cells": int(len(grid.x)),
            "secret_cells": grid.secret,
            "cells_in_plz": int(totals["cells"].sum()) if totals.height else 0,
        }
        step("population shares")
    rows = table.rounded_shares(rows, "population_share", ["plz"])

    street_rows = None
    if streets is not None:
        from generator.mapping.streets import street_shares

        shared = np.unique(rows.filter(pl.len().over("plz") > 1)["plz_index"].to_numpy())
        found = street_shares(
            streets, plz, shared, result.parts, options.min_share, options.threads, report, plz_ids
        )
        street_rows = table.rounded_shares(
            found.with_columns(
                pl.Series("plz", plz_ids[found["plz_index"].to_numpy()], dtype=pl.String),
                pl.Series("zone_id", zones.ids[found["zone_index"].to_numpy()], dtype=pl.Int64),
            ).filter(pl.col("length_share") > 0),
            "length_share",
            ["plz", "street"],
        ).select(table.STREET_COLUMNS)
        step(f"streets in shared PLZ: {street_rows.height:,} rows")

    out_rows = rows.select(table.COLUMNS)
    record = provenance(
        options,
        plz_layer,
        zone_inputs,
        grid,
        population_info,
        streets,
        out_rows,
        street_rows,
        report,
    )
    written = _write_all(options, out_rows, street_rows, report, record, shapes)
    step(f"written: {', '.join(str(p) for p in written)}")
    return MappingResult(
        out_rows.height,
        len(plz_ids),
        len(zones.ids),
        None if street_rows is None else street_rows.height,
        report,
        written,
    )


def _check_options(options: MappingOptions) -> None:
    problems = []
    if options.zone_areas is None and options.zone_admin is None:
        problems.append(
            "give zone areas (ZONE_AREAS) or zones as administrative areas "
            "(--zone-admin with --admin-areas)"
        )
    if (options.zone_admin is None) != (options.admin_areas is None):
        problems.append("--zone-admin and --admin-areas go together")
    if (options.streets is None) != (options.streets_out is None):
        problems.append("--streets and --streets-out go together")
    outputs = {
        "--out": options.out,
        "--report": options.report_path,
        "--streets-out": options.streets_out,
        "mapping.json": options.provenance_path,
        "--shapes-out": options.shapes_path,
    }
    seen: dict[Path, str] = {}
    for option, path in outputs.items():
        if path is None:
            continue
        where = Path(os.path.abspath(path))
        if where in seen:
            problems.append(
                f"{option} and {seen[where]} name the same file {path}: give each its own"
            )
        seen[where] = option
    inputs = [
        options.plz_areas,
        options.zone_areas,
        options.zone_admin,
        options.admin_areas,
        options.population,
        options.streets,
    ]
    for path in inputs:
        overwriter = None if path is None else seen.get(Path(os.path.abspath(path)))
        if overwriter is not None:
            problems.append(f"{path} is an input and would be overwritten by {overwriter}")
    if problems:
        raise MappingInputError(problems)


def _plz_zones(
    shares: pl.DataFrame, plz_ids: np.ndarray, zones: Zones, min_share: float
) -> pl.DataFrame:
    base = table.base_confidence(zones.source, zones.override)
    zone_index = shares["zone_index"].to_numpy()
    frame = shares.with_columns(
        pl.Series("plz", plz_ids[shares["plz_index"].to_numpy()], dtype=pl.String),
        pl.Series("zone_id", zones.ids[zone_index], dtype=pl.Int64),
        pl.Series("boundary_source", zones.source[zone_index], dtype=pl.String),
        pl.Series("_base", base[zone_index], dtype=pl.Float64),
    )
    frame = frame.with_columns(
        table.confidence(pl.col("_base"), pl.col("area_share"), min_share).alias("confidence"),
        pl.lit(None, dtype=pl.Float64).alias("population_share"),
    )
    frame = table.rounded_shares(frame, "area_share", ["plz"]).filter(pl.col("area_share") > 0)
    return frame.drop("_base").sort(
        ["plz", "area_share", "zone_id"], descending=[False, True, False]
    )


def _report_coverage(
    rows: pl.DataFrame,
    plz_ids: np.ndarray,
    plz_area: np.ndarray,
    zones: Zones,
    min_share: float,
    report: Report,
) -> None:
    covered = rows.group_by("plz_index").agg(pl.col("area_share").sum())
    all_plz = pl.DataFrame({"plz_index": np.arange(len(plz_ids)), "area": plz_area})
    coverage = all_plz.join(covered, on="plz_index", how="left")
    none = coverage.filter(pl.col("area_share").is_null())
    report.add(
        "plz_without_zone",
        plz=plz_ids[none["plz_index"].to_numpy()].tolist(),
        share=1.0,
        area_m2=none["area"],
        detail="no zone covers at least the minimum share",
    )
    part = coverage.with_columns((1 - pl.col("area_share")).alias("rest")).filter(
        pl.col("rest") >= max(min_share, 1e-6)
    )
    report.add(
        "unassigned",
        plz=plz_ids[part["plz_index"].to_numpy()].tolist(),
        share=part["rest"],
        area_m2=part["rest"] * part["area"],
        detail="this part is covered by no zone (or only by slivers)",
    )
    used = set(rows["zone_id"].to_list())
    unused = np.array([z not in used for z in zones.ids.tolist()], dtype=bool)
    report.add(
        "zone_without_plz",
        zone_id=zones.ids[unused],
        area_m2=shapely.area(zones.geometry[unused]),
        detail="the zone covers no PLZ above the minimum share",
    )


def _with_population(
    rows: pl.DataFrame,
    shares: pl.DataFrame,
    totals: pl.DataFrame,
    plz_ids: np.ndarray,
    plz_area: np.ndarray,
    report: Report,
) -> pl.DataFrame:
    """Add population_share.

    0 where no inhabitant of a populated PLZ lives in the zone, empty where the PLZ has no
    known inhabitant at all.
    """
    known = (
        totals.filter(pl.col("inhabitants") > 0)
        .select("plz_index")
        .with_columns(pl.lit(True).alias("_known"))
    )
    rows = (
        rows.drop("population_share")
        .join(shares, on=["plz_index", "zone_index"], how="left")
        .join(known, on="plz_index", how="left")
        .with_columns(
            pl.when(pl.col("_known"))
            .then(pl.col("population_share").fill_null(0.0))
            .alias("population_share")
        )
        .drop("_known")
    )
    unknown = (
        rows.filter(pl.col("population_share").is_null())
        .select("plz_index")
        .unique()
        .sort("plz_index")
        .join(totals, on="plz_index", how="left")
    )
    index = unknown["plz_index"].to_numpy()
    secret = unknown["secret_cells"].fill_null(0).to_list()
    report.add(
        "population_unknown",
        plz=plz_ids[index].tolist(),
        area_m2=plz_area[index],
        detail=[f"{s} inhabited cell(s), all secret" if s else "no inhabited cell" for s in secret],
    )
    return rows.sort(["plz", "area_share", "zone_id"], descending=[False, True, False])


def _write_all(
    options: MappingOptions,
    rows: pl.DataFrame,
    street_rows: pl.DataFrame | None,
    report: Report,
    record: Record,
    shapes: pl.DataFrame | None = None,
) -> list[Path]:
    """Write every output to a temporary name first, then rename them all."""
    text = json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    targets: list[tuple[Path, Content]] = [
        (options.out, partial(write_csv, rows)),
        (options.report_path, partial(write_csv, report.frame())),
    ]
    if street_rows is not None and options.streets_out is not None:
        targets.append((options.streets_out, partial(write_csv, street_rows)))
    if shapes is not None:
        targets.append((options.shapes_path, shapes.write_csv))
    targets.append((options.provenance_path, text.encode("utf-8")))
    atomic_write_all(targets)
    return [path for path, _ in targets]
