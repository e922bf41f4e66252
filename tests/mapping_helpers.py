"""Hand-made inputs for `trinkwasser mapping`: layers in a chosen CRS, grids, OSM files."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pyogrio.raw
import shapely
from click.testing import CliRunner
from pyproj import Transformer
from shapely.geometry import box

from generator.cli import cli

# A corner in Hesse in ETRS89-LAEA metres; the test squares are kilometres wide from here.
X0, Y0 = 4_300_000.0, 3_100_000.0


def sq(x0: float, y0: float, x1: float, y1: float):
    """Make a rectangle given in metres from the test origin (EPSG:3035)."""
    return box(X0 + x0, Y0 + y0, X0 + x1, Y0 + y1)


def write_layer(
    path: Path, geometries, crs: str | None = "EPSG:3035", geometry_type="MultiPolygon", **fields
) -> Path:
    """Write areas (already in `crs`) with their properties as a GDAL vector file."""
    drivers = {
        ".gpkg": "GPKG",
        ".geojson": "GeoJSON",
        ".shp": "ESRI Shapefile",
        ".fgb": "FlatGeobuf",
    }
    values = [
        np.asarray(v, dtype=object if isinstance(v[0], str) or v[0] is None else None)
        for v in fields.values()
    ]
    pyogrio.raw.write(
        path,
        shapely.to_wkb(np.asarray(geometries, dtype=object)),
        values,
        list(fields),
        driver=drivers[path.suffix],
        crs=crs,
        geometry_type=geometry_type,
        promote_to_multi=geometry_type == "MultiPolygon",
    )
    return path


KM = 1000.0


def two_plz_three_zones(folder: Path) -> tuple[Path, Path]:
    """Write PLZ 34117 (split between zones 1 and 2) and 34119 (zone 3), one km each."""
    plz = write_layer(
        folder / "plz.gpkg", [sq(0, 0, KM, KM), sq(2 * KM, 0, 3 * KM, KM)], plz=["34117", "34119"]
    )
    zones = write_layer(
        folder / "zones.gpkg",
        [sq(0, 0, 500, KM), sq(500, 0, KM, KM), sq(2 * KM, 0, 3 * KM, KM)],
        zone_id=[1, 2, 3],
    )
    return plz, zones


def write_geojson(path: Path, features: list[tuple[dict, object]]) -> Path:
    """Write (properties, geometry) pairs as GeoJSON text (always WGS84 lon/lat)."""
    collection = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": props,
                "geometry": None if geom is None else json.loads(shapely.to_geojson(geom)),
            }
            for props, geom in features
        ],
    }
    path.write_text(json.dumps(collection), encoding="utf-8")
    return path


def to_crs(geometry, crs: str):
    """Project a geometry given in EPSG:3035 to `crs`."""
    from pyproj import Transformer

    t = Transformer.from_crs("EPSG:3035", crs, always_xy=True)
    return shapely.transform(geometry, lambda xy: np.column_stack(t.transform(xy[:, 0], xy[:, 1])))


def write_grid(
    path: Path,
    cells: list[tuple[float, float, str]],
    resolution: str = "100m",
    encoding: str = "utf-8",
) -> Path:
    """Write a Zensus grid CSV: (x, y) in metres from the test origin, and Einwohner."""
    size = 100 if resolution == "100m" else 1000
    with path.open("w", newline="", encoding=encoding) as fh:
        w = csv.writer(fh, delimiter=";")
        w.writerow(
            [f"GITTER_ID_{resolution}", f"x_mp_{resolution}", f"y_mp_{resolution}", "Einwohner"]
        )
        for x, y, n in cells:
            gx, gy = X0 + x, Y0 + y
            w.writerow(
                [
                    f"CRS3035RES{resolution}N{int(gy - size / 2)}E{int(gx - size / 2)}",
                    f"{gx:.0f}",
                    f"{gy:.0f}",
                    n,
                ]
            )
    return path


def mapping(*args, cwd: Path | None = None):
    """Run `trinkwasser mapping` in-process; return the click result."""
    return CliRunner().invoke(cli, ["mapping", *map(str, args)], catch_exceptions=False)


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def shares(path: Path, column: str = "area_share") -> dict[tuple[str, int], float | None]:
    """Return {(plz, zone_id): share} of a plz_zones CSV."""
    return {
        (r["plz"], int(r["zone_id"])): float(r[column]) if r[column] else None for r in rows(path)
    }


TO_WGS84 = Transformer.from_crs("EPSG:3035", "EPSG:4326", always_xy=True)

# (way id, tags, points in metres from the test origin). The shared PLZ 34117 is split at
# x = 500 m into zones 1 and 2; PLZ 34119 (zone 3 only) is not shared.
WAYS = [
    (10, {"highway": "residential", "name": "Hauptstraße"}, [(200, 500), (600, 500)]),
    (11, {"highway": "residential", "name": "Schulstraße"}, [(100, 100), (100, 300)]),
    (12, {"highway": "residential", "name": "Schulstraße"}, [(100, 300), (300, 300)]),
    (14, {"highway": "tertiary", "name": "Ringstraße"}, [(800, 700), (1500, 700)]),
    (15, {"highway": "service"}, [(100, 800), (900, 800)]),  # no name
    (16, {"waterway": "river", "name": "Fulda"}, [(100, 900), (900, 900)]),  # not a street
    (17, {"highway": "residential", "name": "Dorfstraße"}, [(2200, 500), (2800, 500)]),
]


def lonlat(x: float, y: float) -> tuple[float, float]:
    lon, lat = TO_WGS84.transform(X0 + x, Y0 + y)
    return round(lon, 7), round(lat, 7)


def write_osm_xml(path, ways=WAYS, broken: bool = False):
    """Write `ways` (and their nodes) as an OpenStreetMap XML extract."""
    nodes, refs = {}, []
    for _, _, points in ways:
        ids = []
        for p in points:
            nodes.setdefault(p, len(nodes) + 1)
            ids.append(nodes[p])
        refs.append(ids)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="hand">']
    for (x, y), i in nodes.items():
        lon, lat = lonlat(x, y)
        lines.append(f'<node id="{i}" version="1" lat="{lat}" lon="{lon}"/>')
    for n, ((way_id, tags, _), ids) in enumerate(zip(ways, refs, strict=True)):
        stamp = f' timestamp="2026-10-{n + 1:02d}T08:00:00Z"'
        lines.append(f'<way id="{way_id}" version="1"{stamp}>')
        lines += [f'<nd ref="{i}"/>' for i in ids]
        lines += [f'<tag k="{k}" v="{v}"/>' for k, v in tags.items()]
        lines.append("</way>")
    if broken:  # a way whose node is not in the extract (cut at its edge)
        lines.append(
            '<way id="99" version="1"><nd ref="1"/><nd ref="9999"/>'
            '<tag k="highway" v="residential"/><tag k="name" v="Randweg"/></way>'
        )
    lines.append("</osm>")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def write_osm_pbf(path, ways=WAYS):
    """Write `ways` (and their nodes) as an OpenStreetMap PBF extract."""
    import osmium  # only the .pbf tests need it

    header = osmium.io.Header()
    header.set("osmosis_replication_timestamp", "2026-11-20T21:21:02Z")
    writer = osmium.SimpleWriter(str(path), header=header)
    nodes: dict = {}
    for _, _, points in ways:
        for p in points:
            if p not in nodes:
                nodes[p] = len(nodes) + 1
                writer.add_node(osmium.osm.mutable.Node(id=nodes[p], location=lonlat(*p)))
    for way_id, tags, points in ways:
        writer.add_way(
            osmium.osm.mutable.Way(id=way_id, nodes=[nodes[p] for p in points], tags=tags)
        )
    writer.close()
    return path
