"""The PLZ areas simplified for display: the `plz_shapes` table the national map draws.

Simplified as one coverage (`shapely.coverage_simplify`, shapely 2.1+): neighbours keep
sharing their simplified edges, so the map has neither gaps nor overlaps, and the Länder
outlines the site derives from the shared edges line up. Written in WGS84 as text (rings of
`lon lat` pairs), so the build reads it without the geo extra.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import shapely
from pyproj import Transformer

from generator.mapping.options import SHAPE_TOLERANCE

SHAPE_COLUMNS = ["plz", "land", "shape"]
DECIMALS = 4
"""Decimals of a degree (about 7 to 11 m): far below what the map can show."""
DEFAULT_TOLERANCE = SHAPE_TOLERANCE


def _to_wgs84(geometry: np.ndarray) -> np.ndarray:
    transformer = Transformer.from_crs("EPSG:3035", "EPSG:4326", always_xy=True)

    def project(xy: np.ndarray) -> np.ndarray:
        lon, lat = transformer.transform(xy[:, 0], xy[:, 1])
        return np.column_stack([lon, lat])

    return shapely.transform(geometry, project)


def plz_shapes(
    plz_ids: np.ndarray,
    areas: np.ndarray,
    lands: np.ndarray | None,
    tolerance: float = DEFAULT_TOLERANCE,
) -> pl.DataFrame:
    """One row per PLZ: `plz`, `land` (or null) and its simplified area as `shape` text.

    `areas` are the dissolved PLZ areas in EPSG:3035 (metres), in the order of `plz_ids`.
    A ring is written without its closing point; rings are separated by `;`.
    """
    simple = shapely.coverage_simplify(areas, tolerance, simplify_boundary=True)
    simple = _to_wgs84(simple)
    polygons, owner = shapely.get_parts(simple, return_index=True)
    rings, polygon = shapely.get_rings(polygons, return_index=True)
    coords, ring = shapely.get_coordinates(rings, return_index=True)
    points = pl.DataFrame(
        {
            "ring": ring.astype(np.int64),
            "lon": np.round(coords[:, 0], DECIMALS),
            "lat": np.round(coords[:, 1], DECIMALS),
        }
    )
    ring_owner = pl.DataFrame(
        {"ring": np.arange(len(rings), dtype=np.int64), "i": owner[polygon].astype(np.int64)}
    )
    text = (
        points.filter(pl.int_range(pl.len()).over("ring") < pl.len().over("ring") - 1)
        .group_by("ring", maintain_order=True)
        .agg(
            pl.format("{} {}", pl.col("lon").cast(pl.String), pl.col("lat").cast(pl.String))
            .str.join(",")
            .alias("r")
        )
        .join(ring_owner, on="ring", maintain_order="left")
        .group_by("i", maintain_order=True)
        .agg(pl.col("r").str.join(";").alias("shape"))
    )
    frame = pl.DataFrame(
        {
            "i": np.arange(len(plz_ids), dtype=np.int64),
            "plz": plz_ids.astype(str),
            "land": None if lands is None else [None if v is None else str(v) for v in lands],
        },
        schema={"i": pl.Int64, "plz": pl.String, "land": pl.String},
    )
    return frame.join(text, on="i", how="inner").sort("plz").select(SHAPE_COLUMNS)


def land_per_plz(codes: np.ndarray, lands: np.ndarray, plz_ids: np.ndarray) -> np.ndarray:
    """Return the Land of each PLZ of `plz_ids` (sorted): the first its features name."""
    frame = (
        pl.DataFrame(
            {"plz": codes.astype(str), "land": [None if v is None else str(v) for v in lands]},
            schema={"plz": pl.String, "land": pl.String},
        )
        .drop_nulls("land")
        .group_by("plz", maintain_order=True)
        .first()
    )
    ordered = pl.DataFrame({"plz": plz_ids.astype(str)}).join(
        frame, on="plz", how="left", maintain_order="left"
    )
    return np.array(ordered["land"].to_list(), dtype=object)
