"""Population-weighted shares from the Zensus 2022 population grid.

The statistical offices publish the grid as a semicolon CSV, one row per inhabited cell:
`GITTER_ID_100m;x_mp_100m;y_mp_100m;Einwohner` with the cell centre in ETRS89-LAEA
(EPSG:3035); the 1 km grid has the same layout with `_1km` names. Cells whose count is kept
secret show a dash. A cell counts in the PLZ and the zone part where its centre lies; a
secret cell is unknown, not zero, so it counts in neither the numerator nor the
denominator, and a PLZ whose inhabited cells are all secret gets no share at all.

Cells are matched in chunks (an STRtree of a chunk's centres queried with the prepared PLZ
and part polygons), so memory stays flat for the 3.1 million cells of the 100 m grid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import shapely

from generator.mapping.intersect import Parts
from generator.mapping.read import MappingInputError, outside_europe

# A dash in any of its typographic forms marks a secret cell.
SECRET = ("-", "\u2013", "\u2014")
CHUNK = 400_000


@dataclass
class Grid:
    path: Path
    resolution: str
    """The suffix of the column names: `100m` or `1km`."""
    x: np.ndarray
    y: np.ndarray
    inhabitants: np.ndarray
    """Inhabitants per cell; -1 where the count is secret."""

    @property
    def secret(self) -> int:
        return int((self.inhabitants < 0).sum())


def read_grid(path: Path) -> Grid:
    """Read a Zensus grid CSV; every value must be a number (or a dash for secret counts)."""
    path = Path(path)
    if not path.is_file():
        raise MappingInputError([f"{path}: no such file"])
    try:
        header = pl.read_csv(path, separator=";", n_rows=0, encoding="utf8").columns
        # The cell ids (a third of the file) are not needed: the centres say it all.
        wanted = [c for c in header if not c.lstrip("\ufeff").startswith("GITTER_ID")]
        frame = pl.read_csv(
            path, separator=";", infer_schema=False, encoding="utf8", columns=wanted or None
        )
    except pl.exceptions.ComputeError:
        # Not UTF-8: older publications of the statistical offices are Windows-1252.
        try:
            text = path.read_bytes().decode("cp1252").encode()
            frame = pl.read_csv(text, separator=";", infer_schema=False)
        except Exception as exc:
            raise MappingInputError(
                [f"{path}: cannot read it as a semicolon CSV ({exc})"]
            ) from None
    except Exception as exc:
        raise MappingInputError([f"{path}: cannot read it as a semicolon CSV ({exc})"]) from None
    names = {c.strip().lstrip("\ufeff"): c for c in frame.columns}
    xs = [c for c in names if re.fullmatch(r"x_mp_\w+", c)]
    if not xs or "Einwohner" not in names or f"y_mp_{xs[0][5:]}" not in names:
        raise MappingInputError(
            [
                f"{path}: expected the Zensus grid columns GITTER_ID_100m;x_mp_100m;y_mp_100m;"
                f"Einwohner (or the 1km ones), found {';'.join(frame.columns)}"
            ]
        )
    resolution = xs[0][5:]
    x = _numbers(frame, names[f"x_mp_{resolution}"], path)
    y = _numbers(frame, names[f"y_mp_{resolution}"], path)
    off = np.flatnonzero(outside_europe(x, y))
    if len(off):
        x_text, y_text = frame[names[f"x_mp_{resolution}"]], frame[names[f"y_mp_{resolution}"]]
        raise MappingInputError(
            [
                f"{path}: line {i + 2}: the cell centre ({x_text[int(i)]!r}, "
                f"{y_text[int(i)]!r}) is no point of EPSG:3035 in Europe (NaN, infinite or far "
                "off)"
                for i in off
            ]
        )
    value = frame[names["Einwohner"]].str.strip_chars()
    secret = value.is_in(SECRET)
    count = value.str.to_integer(strict=False)
    bad = (count.is_null() & ~secret) | (count < 0)
    if bad.any():
        rows = np.flatnonzero(bad.to_numpy())
        raise MappingInputError(
            [
                f"{path}: line {i + 2}: Einwohner {frame[names['Einwohner']][int(i)]!r} is neither "
                "a whole number nor a dash (secret)"
                for i in rows
            ]
        )
    inhabitants = count.fill_null(-1).to_numpy().astype(np.int64)
    return Grid(path, resolution, x, y, inhabitants)


def _numbers(frame: pl.DataFrame, column: str, path: Path) -> np.ndarray:
    values = frame[column].str.strip_chars().str.replace(",", ".").cast(pl.Float64, strict=False)
    bad = np.flatnonzero(values.is_null().to_numpy())
    if len(bad):
        raise MappingInputError(
            [
                f"{path}: line {i + 2}: {column} {frame[column][int(i)]!r} is not a number"
                for i in bad
            ]
        )
    return values.to_numpy()


def _matches(
    tree: shapely.STRtree, x: np.ndarray, y: np.ndarray, polygons: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return (polygon, cell) for every cell centre in or on a polygon."""
    # Boxes first, then the point test on the prepared polygons: cheaper than a query with
    # a predicate, which tests point geometries.
    poly, cell = tree.query(polygons)
    hit = shapely.intersects_xy(polygons[poly], x[cell], y[cell])
    return poly[hit], cell[hit]


def population_shares(
    grid: Grid, plz: np.ndarray, parts: Parts
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return (plz_index, zone_index, population_share) and per PLZ its cell counts.

    The second frame has plz_index, inhabitants (known), cells and secret_cells.
    """
    shapely.prepare(plz)
    shapely.prepare(parts.geometry)
    order = np.argsort(grid.x, kind="stable")  # compact chunks: vertical strips of the map
    by_zone, by_plz = [], []
    for start in range(0, len(order), CHUNK):
        idx = order[start : start + CHUNK]
        x, y = grid.x[idx], grid.y[idx]
        centres = shapely.points(x, y)
        assert isinstance(centres, np.ndarray)  # arrays in, an array out (the stubs allow a Point)
        tree = shapely.STRtree(centres)
        p, c = _matches(tree, x, y, plz)
        # A centre on the boundary of two PLZ counts once, in the first.
        cell_plz = (
            pl.DataFrame({"cell": c, "plz_index": p})
            .group_by("cell")
            .agg(pl.col("plz_index").min())
        )
        people = pl.DataFrame({"cell": np.arange(len(idx)), "n": grid.inhabitants[idx]})
        cell_plz = cell_plz.join(people, on="cell")
        by_plz.append(
            cell_plz.group_by("plz_index").agg(
                pl.col("n").filter(pl.col("n") >= 0).sum().alias("inhabitants"),
                pl.len().alias("cells"),
                (pl.col("n") < 0).sum().alias("secret_cells"),
            )
        )
        k, c = _matches(tree, x, y, parts.geometry)
        hits = pl.DataFrame(
            {
                "cell": c,
                "plz_index": parts.plz_index[k],
                "zone_index": parts.zone_index[k],
                "w": parts.weight[k],
            }
        )
        # Keep the part of the cell's own PLZ; a centre on the line between two parts
        # counts half in each (weights of one cell never add up to more than 1).
        hits = hits.join(cell_plz.filter(pl.col("n") >= 0), on=["cell", "plz_index"]).with_columns(
            pl.col("w") / pl.max_horizontal(pl.col("w").sum().over("cell"), 1.0)
        )
        by_zone.append(
            hits.group_by("plz_index", "zone_index").agg(
                (pl.col("n") * pl.col("w")).sum().alias("people")
            )
        )
    totals = (
        pl.concat(by_plz).group_by("plz_index").agg(pl.all().sum()).sort("plz_index")
        if by_plz
        else pl.DataFrame(
            schema={
                "plz_index": pl.Int64,
                "inhabitants": pl.Int64,
                "cells": pl.UInt32,
                "secret_cells": pl.UInt32,
            }
        )
    )
    zones = (
        pl.concat(by_zone).group_by("plz_index", "zone_index").agg(pl.col("people").sum())
        if by_zone
        else pl.DataFrame(
            schema={"plz_index": pl.Int64, "zone_index": pl.Int64, "people": pl.Float64}
        )
    )
    shares = (
        zones.join(totals.select("plz_index", "inhabitants"), on="plz_index")
        .select(
            "plz_index",
            "zone_index",
            (pl.col("people") / pl.col("inhabitants")).alias("population_share"),
        )
        .filter(pl.col("population_share").is_not_nan())
    )
    return shares, totals
