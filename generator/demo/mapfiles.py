"""Write the synthetic map data `trinkwasser mapping` reads, in the formats operators get.

- `plz_areas.geojson`: PLZ areas in WGS84 with 7 decimals, like an OpenStreetMap export
- `zone_areas.gpkg`: zone polygons in EPSG:25832 (UTM 32N, as German authorities publish)
  with `zone_id`, `boundary_source` and, for a few zones, a `confidence` override
- `zone_admin.csv` and `admin_areas.gpkg`: the zones given as lists of municipalities
- `zensus_100m.csv`: a population grid in the layout of the Zensus 2022 100 m grid
- `streets.osm.pbf`: named streets (plus unnamed ways and rivers the reader must skip)

The zone layers are bent by a second, gentle displacement (up to about 3 m), so PLZ and
zone boundaries differ by metres as boundaries from different sources do.

Deterministic for a seed: the draws come from their own generator (`[seed, 15]`), after
and apart from the tables, whose bytes stay exactly as `write_demo_data` writes them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import shapely
from pyproj import Transformer

from generator.demo.base import SCALES, Progress
from generator.demo.geography import draw_geography, plz_in_curve_order
from generator.demo.geometry import LAEA, Areas, draw_areas

# Inhabited 100 m cells in Germany (Zensus 2022: about 3.1 million); scaled by PLZ count.
NATIONAL_CELLS = 3_000_000
NATIONAL_PLZ = 8168
SECRET_SHARE = 0.03
STREETS_PER_PLZ = 9
ZONE_NOISE = (2.0, 300.0)  # amplitude and wavelength in metres
OSM_TIMESTAMP = "2026-11-20T21:21:02Z"
STREET_NAMES = (
    "Hauptstraße",
    "Schulstraße",
    "Gartenstraße",
    "Bahnhofstraße",
    "Dorfstraße",
    "Bergstraße",
    "Birkenweg",
    "Lindenstraße",
    "Kirchstraße",
    "Waldstraße",
    "Ringstraße",
    "Schillerstraße",
    "Goethestraße",
    "Jahnstraße",
    "Am Sportplatz",
    "Wiesenweg",
    "Mühlenweg",
    "Feldstraße",
    "Rosenstraße",
    "Friedhofstraße",
    "Industriestraße",
    "Buchenweg",
    "Lessingstraße",
    "Am Bach",
    "Poststraße",
    "Eichenweg",
    "Talstraße",
    "Mozartstraße",
    "Wiesenstraße",
    "Tulpenweg",
    "Kastanienallee",
    "Marktplatz",
    "Brunnenstraße",
    "Uhlandstraße",
    "Am Hang",
    "Sonnenstraße",
    "Parkstraße",
    "Lerchenweg",
    "Drosselweg",
    "Ahornweg",
)


def write_demo_geometries(
    out: Path, scale: str = "small", seed: int = 20260112, progress: Progress | None = None
) -> dict[str, int]:
    """Write the map files for the demo dataset of `scale` and `seed` into `out`."""
    spec = SCALES[scale]
    start = time.perf_counter()

    def report(message: str) -> None:
        if progress is not None:
            progress(f"{message} ({time.perf_counter() - start:.1f} s)")

    # The tables' generator, replayed to its first stage: the same PLZ and plz_zones.
    plz, lat, lon = plz_in_curve_order(spec.plz_count)
    geo = draw_geography(np.random.default_rng(seed), plz, lat, lon, spec)
    rng = np.random.default_rng([seed, 15])
    areas = draw_areas(rng, plz, lat, lon, geo.plz_zones)
    report(
        f"areas: {len(areas.plz):,} PLZ features, {len(areas.zone_id):,} zone polygons, "
        f"{len(areas.admin_key):,} municipalities"
    )
    cells = draw_grid(rng, areas, round(NATIONAL_CELLS * len(plz) / NATIONAL_PLZ))
    report(f"population grid: {cells.height:,} cells")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _write_areas(out, areas)
    cells.write_csv(out / "zensus_100m.csv", separator=";")
    ways = write_streets(rng, areas, plz, out / "streets.osm.pbf")
    report(f"written to {out}")
    return {
        "plz_areas": len(areas.plz),
        "zone_areas": len(areas.zone_id),
        "admin_areas": len(areas.admin_key),
        "zone_admin": areas.zone_admin.height,
        "grid_cells": cells.height,
        "street_ways": ways,
    }


def _bend(geometry: np.ndarray) -> np.ndarray:
    amplitude, wavelength = ZONE_NOISE
    k = 2 * np.pi / wavelength

    def move(xy: np.ndarray) -> np.ndarray:
        return xy + amplitude * np.column_stack(
            [np.sin(k * xy[:, 1] + 1.0), np.sin(k * xy[:, 0] + 2.0)]
        )

    return shapely.transform(geometry, move)


def _write_areas(out: Path, areas: Areas) -> None:
    import pyogrio
    import pyogrio.raw

    to_wgs84 = _transformer("EPSG:4326")
    to_utm = _transformer("EPSG:25832")

    def write(
        path: Path, geometry: np.ndarray, crs: str, fields: dict[str, np.ndarray], **options: Any
    ) -> None:
        path.unlink(missing_ok=True)
        # A GeoPackage records when it was written; a fixed date keeps its bytes stable.
        pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": "2026-01-12T00:00:00Z"})
        try:
            pyogrio.raw.write(
                path,
                shapely.to_wkb(geometry),
                list(fields.values()),
                list(fields),
                crs=crs,
                geometry_type="MultiPolygon",
                promote_to_multi=True,
                **options,
            )
        finally:
            pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": None})

    write(
        out / "plz_areas.geojson",
        shapely.transform(areas.plz_geometry, to_wgs84),
        "EPSG:4326",
        {"plz": areas.plz.astype(object)},
        driver="GeoJSON",
        layer_options={"COORDINATE_PRECISION": 7, "RFC7946": "YES"},
    )
    confidence = areas.zone_confidence.astype(object)
    confidence[np.isnan(areas.zone_confidence)] = None
    write(
        out / "zone_areas.gpkg",
        shapely.transform(_bend(areas.zone_geometry), to_utm),
        "EPSG:25832",
        {
            "zone_id": areas.zone_id.astype(np.int64),
            "boundary_source": areas.zone_source.astype(object),
            "confidence": confidence,
        },
        driver="GPKG",
    )
    write(
        out / "admin_areas.gpkg",
        shapely.transform(_bend(areas.admin_geometry), to_utm),
        "EPSG:25832",
        {"AGS": areas.admin_key},
        driver="GPKG",
    )
    areas.zone_admin.write_csv(out / "zone_admin.csv")


def _transformer(target: str) -> Callable[[np.ndarray], np.ndarray]:
    transformer = Transformer.from_crs(LAEA, target, always_xy=True)

    def project(xy: np.ndarray) -> np.ndarray:
        return np.column_stack(transformer.transform(xy[:, 0], xy[:, 1]))

    return project


def draw_grid(rng: np.random.Generator, areas: Areas, target: int) -> pl.DataFrame:
    """Draw inhabited 100 m cells around the PLZ centres, in the Zensus 2022 layout."""
    area = shapely.area(areas.cells)
    centre = shapely.get_coordinates(shapely.point_on_surface(areas.cells))
    weight = area * rng.lognormal(0.0, 0.8, size=len(area))
    per_plz = rng.multinomial(int(target * 1.25), weight / weight.sum())
    owner = np.repeat(np.arange(len(area)), per_plz)
    # People cluster around the centre of their PLZ: most of a PLZ's area is fields or forest.
    spread = np.sqrt(area)[owner] / 5
    x = centre[owner, 0] + rng.normal(size=len(owner)) * spread
    y = centre[owner, 1] + rng.normal(size=len(owner)) * spread
    gx, gy = np.floor(x / 100).astype(np.int64), np.floor(y / 100).astype(np.int64)
    cells = np.unique(np.column_stack([gx, gy]), axis=0)
    inside = shapely.contains_xy(areas.outline, cells[:, 0] * 100 + 50, cells[:, 1] * 100 + 50)
    cells = cells[inside]
    if len(cells) > target:
        cells = cells[np.sort(rng.choice(len(cells), size=target, replace=False))]
    people = np.ceil(rng.lognormal(2.0, 1.1, size=len(cells))).astype(np.int64)
    secret = rng.random(len(cells)) < SECRET_SHARE
    frame = pl.DataFrame({"gx": cells[:, 0], "gy": cells[:, 1], "n": people, "secret": secret})
    return frame.select(
        pl.format("CRS3035RES100mN{}E{}", pl.col("gy") * 100, pl.col("gx") * 100).alias(
            "GITTER_ID_100m"
        ),
        (pl.col("gx") * 100 + 50).alias("x_mp_100m"),
        (pl.col("gy") * 100 + 50).alias("y_mp_100m"),
        pl.when(pl.col("secret"))
        .then(pl.lit("–"))
        .otherwise(pl.col("n").cast(pl.String))
        .alias("Einwohner"),
    )


def write_streets(rng: np.random.Generator, areas: Areas, plz: np.ndarray, path: Path) -> int:
    """Write named streets around each PLZ centre as an .osm.pbf file; return the ways."""
    import osmium

    area = shapely.area(areas.cells)
    centre = shapely.get_coordinates(shapely.point_on_surface(areas.cells))
    count = rng.poisson(STREETS_PER_PLZ, size=len(plz)) + 1
    owner = np.repeat(np.arange(len(plz)), count)
    n = len(owner)
    names = np.empty(n, dtype=object)
    for p in np.unique(owner):  # distinct names within a PLZ
        idx = np.flatnonzero(owner == p)
        names[idx] = rng.choice(STREET_NAMES, size=len(idx), replace=len(idx) > len(STREET_NAMES))
    spread = np.sqrt(area)[owner] / 4
    start = centre[owner] + rng.normal(size=(n, 2)) * spread[:, None]
    # A street is 2 to 7 nodes going one way with a little bend, 120 to 400 m per step.
    nodes = rng.integers(2, 8, size=n)
    heading = rng.uniform(0, 2 * np.pi, size=n)
    street = np.repeat(np.arange(n), nodes)
    step = np.arange(len(street)) - np.repeat(np.cumsum(nodes) - nodes, nodes)
    turn = heading[street] + rng.normal(0, 0.25, size=len(street))
    length = rng.uniform(120, 400, size=len(street)) * (step > 0)
    dx = np.cos(turn) * length
    dy = np.sin(turn) * length
    x = start[street, 0] + _cumsum_by(dx, nodes)
    y = start[street, 1] + _cumsum_by(dy, nodes)
    lon, lat = Transformer.from_crs(LAEA, "EPSG:4326", always_xy=True).transform(x, y)
    # Every fifth street is cut into two ways sharing a node (as OSM splits streets).
    split = (rng.random(n) < 0.2) & (nodes >= 4)

    header = osmium.io.Header()
    header.set("osmosis_replication_timestamp", OSM_TIMESTAMP)
    path.unlink(missing_ok=True)
    writer = osmium.SimpleWriter(str(path), header=header)
    ways = 0
    try:
        for i, (lo, la) in enumerate(zip(np.round(lon, 7), np.round(lat, 7), strict=True)):
            writer.add_node(
                osmium.osm.mutable.Node(
                    id=i + 1, location=(lo, la), version=1, timestamp=OSM_TIMESTAMP
                )
            )
        first = np.cumsum(nodes) - nodes + 1
        for s in range(n):
            ids = list(range(first[s], first[s] + nodes[s]))
            cuts = [ids[: len(ids) // 2 + 1], ids[len(ids) // 2 :]] if split[s] else [ids]
            for part in cuts:
                ways += 1
                tags = {"highway": "residential", "name": names[s]}
                writer.add_way(
                    osmium.osm.mutable.Way(
                        id=ways, nodes=part, tags=tags, version=1, timestamp=OSM_TIMESTAMP
                    )
                )
        # Ways the reader must skip: an unnamed service road and a named river.
        for tags in ({"highway": "service"}, {"waterway": "river", "name": "Fulda"}):
            ways += 1
            writer.add_way(
                osmium.osm.mutable.Way(
                    id=ways, nodes=[1, 2], tags=tags, version=1, timestamp=OSM_TIMESTAMP
                )
            )
    finally:
        writer.close()
    return ways


def _cumsum_by(values: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Cumulative sums restarting at each group of `sizes` consecutive values."""
    total = np.cumsum(values)
    offset = np.repeat(total[np.cumsum(sizes) - sizes] - values[np.cumsum(sizes) - sizes], sizes)
    restarted: np.ndarray = total - offset
    return restarted
