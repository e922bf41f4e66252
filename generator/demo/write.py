"""Generate the six source tables for a scale and seed, and write them to a directory."""

from __future__ import annotations

import time
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import polars as pl

from generator.demo.base import SCALES, Progress, Scale
from generator.demo.documents import draw_documents
from generator.demo.geography import draw_geography, plz_in_curve_order
from generator.demo.measurements import draw_measurements
from generator.demo.places import draw_places
from generator.demo.suppliers import draw_suppliers_and_zones
from generator.progress import StepPrinter

WRITTEN = ("suppliers", "zones", "plz_zones", "documents", "measurements", "places")
"""The tables `write_demo_data` writes, in this order."""
STEPS = 11 + len(WRITTEN)
"""Steps `write_demo_data` reports: eleven while drawing, one per table written."""


def write_demo_data(
    out: Path, scale: str = "small", seed: int = 20260112, progress: Progress | None = None
) -> dict[str, int]:
    """Write the six source tables into `out`; return the number of rows per table.

    `progress` gets a line per step; a `StepPrinter` shows them as a counted step (a bar on a
    terminal).
    """
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; use one of {', '.join(SCALES)}")
    printer = progress if isinstance(progress, StepPrinter) else None
    steps = printer.bar("Generating demo data", STEPS, "steps") if printer else nullcontext(None)
    with steps as bar:
        start = time.perf_counter()

        def report(message: str) -> None:
            line = f"{message} ({time.perf_counter() - start:.1f} s)"
            if bar is not None:
                bar.advance(note=line)
            elif progress is not None:
                progress(line)

        return _generate(Path(out), SCALES[scale], seed, report)


def _generate(out: Path, spec: Scale, seed: int, report: Progress) -> dict[str, int]:
    rng = np.random.default_rng(seed)
    plz, lat, lon = plz_in_curve_order(spec.plz_count)
    geo = draw_geography(rng, plz, lat, lon, spec)
    report(f"plz_zones: {geo.plz_zones.height:,} rows, {geo.n_zones:,} zones")
    world = draw_suppliers_and_zones(rng, geo, spec)
    report(f"suppliers: {world.suppliers.height:,}, zones: {world.zones.height:,}")
    documents = draw_documents(rng, world)
    report(f"documents: {documents.height:,} rows")
    measurements = draw_measurements(rng, world, documents, report)
    report(f"measurements: {measurements.height:,} rows")

    tables = {
        "suppliers": world.suppliers,
        "zones": world.zones,
        "plz_zones": geo.plz_zones,
        "documents": documents.drop("_year"),
        "measurements": measurements,
        "places": draw_places(geo.plz_zones, world.zones, plz, lat, lon),
    }
    assert tuple(tables) == WRITTEN
    _write_tables(out, tables, spec.file_format, report)
    return {name: frame.height for name, frame in tables.items()}


def _write_tables(
    out: Path, tables: dict[str, pl.DataFrame], file_format: str, report: Progress
) -> None:
    """Write every table as `<name>.<file_format>` into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in tables.items():
        # A leftover table in the other format would make the directory ambiguous.
        for ext in ("csv", "parquet"):
            if ext != file_format:
                (out / f"{name}.{ext}").unlink(missing_ok=True)
        path = out / f"{name}.{file_format}"
        if file_format == "parquet":
            frame.write_parquet(path, compression="zstd", statistics=True)
        else:
            frame.write_csv(path, date_format="%Y-%m-%d")
        report(f"written {path}")
