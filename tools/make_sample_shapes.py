"""Write the PLZ areas of the bundled sample for the map: SYNTHETIC, like the rest of it.

The sample's PLZ are real, their areas are not: each PLZ gets the demo generator's Voronoi
cell around its coordinate (`generator/demo/geometry.py`: the mean of its places in
`generator/sample/places.csv`, cells bent like real boundaries, clipped to 15 km around
the PLZ), and its Land is the Natural Earth Land (`generator/site/laender.csv`) that holds
that coordinate. `trinkwasser mapping` then simplifies the areas as it does real ones and
writes `generator/sample/plz_shapes.csv`; the rest of what it writes is thrown away (the
sample's `plz_zones` stay as `tools/make_sample.py` writes them).

Needs the `geo` extra. Run from the repository root after `tools/make_sample.py`:

    python tools/make_sample_shapes.py

The same input gives the same bytes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl
import shapely
from pyproj import Transformer

from generator.demo.geometry import LAEA, draw_areas

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "generator" / "sample"
LAENDER = ROOT / "generator" / "site" / "laender.csv"
SEED = 20260112


def laender() -> tuple[list[str], np.ndarray]:
    """Return the Länder's names and polygons (WGS84) from the map's `laender.csv`."""
    frame = pl.read_csv(LAENDER)
    polygons = []
    for shape in frame["shape"]:
        rings = [
            [tuple(map(float, pair.split(" "))) for pair in ring.split(",")]
            for ring in shape.split(";")
        ]
        # Exterior and holes are not told apart in the file: even-odd over all rings.
        polygons.append(
            shapely.symmetric_difference_all([shapely.Polygon(r).buffer(0) for r in rings])
        )
    return frame["land"].to_list(), np.array(polygons, dtype=object)


def main() -> None:
    places = pl.read_csv(SAMPLE / "places.csv", schema_overrides={"plz": pl.String})
    centres = places.group_by("plz").agg(pl.col("lat").mean(), pl.col("lon").mean()).sort("plz")
    plz_zones = pl.read_csv(SAMPLE / "plz_zones.csv", schema_overrides={"plz": pl.String})
    plz = centres["plz"].to_numpy().astype(object)
    lat, lon = centres["lat"].to_numpy(), centres["lon"].to_numpy()
    areas = draw_areas(np.random.default_rng([SEED, 54]), plz, lat, lon, plz_zones)

    names, polygons = laender()
    points = shapely.points(lon, lat)
    land = {
        code: next((n for n, poly in zip(names, polygons, strict=True) if poly.contains(pt)), None)
        for code, pt in zip(plz, points, strict=True)
    }
    to_wgs84 = Transformer.from_crs(LAEA, "EPSG:4326", always_xy=True)
    features = [
        {
            "type": "Feature",
            "properties": {"plz": code, "land": land[code]},
            "geometry": json.loads(
                shapely.to_geojson(
                    shapely.transform(
                        geom,
                        lambda xy: np.column_stack(to_wgs84.transform(xy[:, 0], xy[:, 1])),
                    )
                )
            ),
        }
        for code, geom in zip(areas.plz, areas.plz_geometry, strict=True)
    ]
    zones = [
        {
            "type": "Feature",
            "properties": {"zone_id": int(zone)},
            "geometry": json.loads(
                shapely.to_geojson(
                    shapely.transform(
                        geom,
                        lambda xy: np.column_stack(to_wgs84.transform(xy[:, 0], xy[:, 1])),
                    )
                )
            ),
        }
        for zone, geom in zip(areas.zone_id, areas.zone_geometry, strict=True)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "plz.geojson").write_text(
            json.dumps({"type": "FeatureCollection", "features": features})
        )
        (work / "zones.geojson").write_text(
            json.dumps({"type": "FeatureCollection", "features": zones})
        )
        subprocess.run(
            [
                sys.executable,
                "-m",
                "generator",
                "mapping",
                str(work / "plz.geojson"),
                str(work / "zones.geojson"),
                "--out",
                str(work / "plz_zones.csv"),
                "--plz-land-field",
                "land",
                "--shape-tolerance",
                "150",
                "--shapes-out",
                str(SAMPLE / "plz_shapes.csv"),
                "--quiet",
            ],
            check=True,
            cwd=ROOT,
        )
    print(f"{len(features)} synthetic PLZ areas -> {SAMPLE / 'plz_shapes.csv'}")


if __name__ == "__main__":
    main()
