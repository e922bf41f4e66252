"""Synthetic PLZ and zone areas that reproduce the demo's `plz_zones` table.

Each PLZ gets the Voronoi cell around its real coordinate (clipped to a rough outline of
Germany made of 15 km discs around every PLZ). The cell edges are densified and bent by one
smooth displacement field, so boundaries wiggle like real ones while neighbouring cells
still share every vertex. Each cell is then cut into vertical strips whose areas are the
PLZ's `area_share` values (found by bisection); the strip left over is not covered by any
zone. A zone is the union of its strips: a zone that continues into the next PLZ becomes
multipart. `trinkwasser mapping` run on these files gives back the `plz_zones` table they
were drawn from (up to the rounding of the file formats), which the tests rely on.

Some zones are given as lists of "municipalities" (their strips, with an 8-digit key)
instead of a polygon, some PLZ come as two features, and a few zones carry a duplicated
part (an invalid multipolygon the mapping must repair without changing any share).

Everything is computed on arrays in ETRS89-LAEA (EPSG:3035); the only Python loops run
over the zones that consist of several strips.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import shapely
from pyproj import Transformer

LAEA = "EPSG:3035"
OUTLINE_BUFFER_M = 15_000.0
DENSIFY_M = 80.0
# The displacement field: two sine waves per axis. The sum of amplitude * 2 pi / wavelength
# stays well below 1, so the field is a homeomorphism: it bends but never folds a boundary.
WAVES = ((150.0, 4_000.0), (30.0, 900.0))
ADMIN_ZONE_SHARE = 0.2
OPERATOR_ZONE_SHARE = 0.05
OVERRIDE_ZONE_SHARE = 0.01
SPLIT_PLZ_SHARE = 0.005
DUPLICATED_PART_ZONES = 3


@dataclass
class Areas:
    """PLZ and zone areas in EPSG:3035, ready to be written in the formats operators use."""

    plz: np.ndarray
    """PLZ code of every PLZ feature (a PLZ given as two features appears twice)."""
    plz_geometry: np.ndarray
    zone_id: np.ndarray
    """Zones given as polygons."""
    zone_geometry: np.ndarray
    zone_source: np.ndarray
    """`supplier` or `operator`: who drew the polygon."""
    zone_confidence: np.ndarray
    """A per-zone override of the confidence, NaN where none is given."""
    admin_key: np.ndarray
    admin_geometry: np.ndarray
    zone_admin: pl.DataFrame
    """zone_id, area_key: the zones assembled from municipalities."""
    cells: np.ndarray
    """One (multi)polygon per PLZ, in the order of the PLZ list (for the grid and streets)."""
    outline: shapely.Geometry


def to_laea(lat: np.ndarray, lon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Project WGS84 coordinates to ETRS89-LAEA metres."""
    return Transformer.from_crs("EPSG:4326", LAEA, always_xy=True).transform(lon, lat)


def draw_areas(
    rng: np.random.Generator,
    plz: np.ndarray,
    lat: np.ndarray,
    lon: np.ndarray,
    plz_zones: pl.DataFrame,
) -> Areas:
    """Draw the PLZ cells, cut them into the zones of `plz_zones`, pick the input forms."""
    x, y = to_laea(lat, lon)
    cells, outline = _voronoi_cells(x, y)
    cells = _wiggle(cells, rng.uniform(0, 2 * np.pi, size=4))
    pieces = _cut(cells, plz, plz_zones)

    zone_ids = pieces["zone_id"].unique().sort().to_numpy()
    zone_geometry = _union_by(pieces["zone_id"].to_numpy(), pieces["geometry"].to_numpy(), zone_ids)
    n = len(zone_ids)
    kind = rng.random(n)
    admin = kind < ADMIN_ZONE_SHARE
    operator = (kind >= ADMIN_ZONE_SHARE) & (kind < ADMIN_ZONE_SHARE + OPERATOR_ZONE_SHARE)
    confidence = np.where(
        rng.random(n) < OVERRIDE_ZONE_SHARE, np.round(rng.uniform(0.3, 1.0, size=n), 2), np.nan
    )

    # Municipalities: the strips of the zones given as lists, keyed like an AGS.
    admin_pieces = pieces.filter(pl.col("zone_id").is_in(zone_ids[admin].tolist()))
    keys = np.array([f"{i:08d}" for i in range(1, admin_pieces.height + 1)], dtype=object)
    zone_admin = pl.DataFrame(
        {"zone_id": admin_pieces["zone_id"], "area_key": keys}, schema_overrides={}
    ).sort("zone_id", "area_key")

    polygon = ~admin
    geoms = zone_geometry[polygon]
    broken = rng.choice(len(geoms), size=min(DUPLICATED_PART_ZONES, len(geoms)), replace=False)
    geoms[broken] = _with_duplicated_part(geoms[broken])

    plz_geometry, plz_codes = _split_some(rng, cells, plz)
    return Areas(
        plz=plz_codes,
        plz_geometry=plz_geometry,
        zone_id=zone_ids[polygon],
        zone_geometry=geoms,
        zone_source=np.where(operator[polygon], "operator", "supplier"),
        zone_confidence=confidence[polygon],
        admin_key=keys,
        admin_geometry=admin_pieces["geometry"].to_numpy(),
        zone_admin=zone_admin,
        cells=cells,
        outline=outline,
    )


def _voronoi_cells(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, shapely.Geometry]:
    points = shapely.points(x, y)
    # Arrays in, an array out; the stubs also allow a single Point.
    assert isinstance(points, np.ndarray)
    outline = shapely.union_all(shapely.buffer(points, OUTLINE_BUFFER_M, quad_segs=4))
    outline = shapely.simplify(outline, 500.0)
    frame = shapely.box(*shapely.bounds(outline)).buffer(50_000.0, join_style="mitre")
    diagram = shapely.voronoi_polygons(shapely.multipoints(points), extend_to=frame, ordered=True)
    cells = shapely.intersection(shapely.get_parts(diagram), outline)
    return cells, outline


def _wiggle(geoms: np.ndarray, phases: np.ndarray) -> np.ndarray:
    """Densify every edge the same way from both sides, then bend all vertices alike."""
    parts, part_of = shapely.get_parts(geoms, return_index=True)
    rings, ring_of = shapely.get_rings(parts, return_index=True)
    xy, vertex_of = shapely.get_coordinates(rings, return_index=True)
    start = np.flatnonzero(vertex_of[1:] == vertex_of[:-1])
    p, q = xy[start], xy[start + 1]
    # Walk every edge from its lexicographically smaller end, so the two cells sharing it
    # compute bit-identical points.
    swap = (p[:, 0] > q[:, 0]) | ((p[:, 0] == q[:, 0]) & (p[:, 1] > q[:, 1]))
    a = np.where(swap[:, None], q, p)
    b = np.where(swap[:, None], p, q)
    steps = np.maximum(1, np.ceil(np.hypot(*(b - a).T) / DENSIFY_M)).astype(np.int64)
    seg = np.repeat(np.arange(len(start)), steps)
    i = np.arange(len(seg)) - np.repeat(np.cumsum(steps) - steps, steps)
    j = np.where(swap[seg], steps[seg] - i, i)
    pts = a[seg] + (b - a)[seg] * (j / steps[seg])[:, None]
    pts = pts + _displacement(pts, phases)
    rebuilt = shapely.linearrings(pts, indices=vertex_of[start][seg])
    polys = shapely.polygons(rebuilt, indices=ring_of)
    wiggled: np.ndarray = shapely.multipolygons(polys, indices=part_of)
    return wiggled


def _displacement(pts: np.ndarray, phases: np.ndarray) -> np.ndarray:
    (a1, l1), (a2, l2) = WAVES
    x, y = pts[:, 0], pts[:, 1]
    k1, k2 = 2 * np.pi / l1, 2 * np.pi / l2
    dx = a1 * np.sin(k1 * y + phases[0]) + a2 * np.sin(k2 * (x + y) + phases[1])
    dy = a1 * np.sin(k1 * x + phases[2]) + a2 * np.sin(k2 * (x - y) + phases[3])
    return np.column_stack([dx, dy])


def _cut(cells: np.ndarray, plz: np.ndarray, plz_zones: pl.DataFrame) -> pl.DataFrame:
    """Cut each cell into vertical strips with the areas of its zones' shares."""
    index = pl.DataFrame({"plz": plz, "cell": np.arange(len(plz))})
    rows = (
        plz_zones.join(index, on="plz")
        .sort("cell", "zone_id")
        .with_columns(pl.col("area_share").cum_sum().over("cell").alias("upto"))
        .with_columns(pl.col("upto").shift(1, fill_value=0.0).over("cell").alias("after"))
    )
    cell = rows["cell"].to_numpy()
    bounds = shapely.bounds(cells)
    # The last strip of a fully covered cell ends at the cell's edge: no bisection needed.
    left = _cut_positions(cells, bounds, cell, rows["after"].to_numpy())
    right = _cut_positions(cells, bounds, cell, rows["upto"].to_numpy())
    b = bounds[cell]
    strips = shapely.intersection(cells[cell], shapely.box(left, b[:, 1] - 1, right, b[:, 3] + 1))
    return rows.select("plz", "zone_id").with_columns(
        pl.Series("geometry", strips, dtype=pl.Object)
    )


def _cut_positions(
    cells: np.ndarray, bounds: np.ndarray, cell: np.ndarray, share: np.ndarray
) -> np.ndarray:
    """Return x such that the part of the cell left of x has `share` of its area."""
    b = bounds[cell]
    target = share * shapely.area(cells)[cell]
    lo, hi = b[:, 0] - 1.0, b[:, 2] + 1.0
    todo = (share > 0) & (share < 1 - 1e-12)
    g = cells[cell][todo]
    lo_t, hi_t, t, bt = lo[todo], hi[todo], target[todo], b[todo]
    # 30 halvings of a cell's width (at most tens of km) leave under 0.1 mm.
    for _ in range(30):
        mid = (lo_t + hi_t) / 2
        left_part = shapely.intersection(
            g, shapely.box(bt[:, 0] - 1, bt[:, 1] - 1, mid, bt[:, 3] + 1)
        )
        below = shapely.area(left_part) < t
        lo_t = np.where(below, mid, lo_t)
        hi_t = np.where(below, hi_t, mid)
    out: np.ndarray = np.where(share <= 0, lo, hi)
    out[todo] = (lo_t + hi_t) / 2
    return out


def _union_by(keys: np.ndarray, geoms: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Return the union of the geometries of each key, in the order of `order`."""
    frame = pl.DataFrame({"key": keys, "i": np.arange(len(keys))}).group_by("key").agg("i")
    members = dict(zip(frame["key"].to_list(), frame["i"].to_list(), strict=True))
    out = np.empty(len(order), dtype=object)
    for n, key in enumerate(order.tolist()):
        idx = members[key]
        out[n] = geoms[idx[0]] if len(idx) == 1 else shapely.union_all(geoms[idx])
    parts, index = shapely.get_parts(out, return_index=True)
    unions = shapely.multipolygons(parts, indices=index)
    assert isinstance(unions, np.ndarray)  # one per index (the stubs also allow one geometry)
    return unions


def _with_duplicated_part(geoms: np.ndarray) -> np.ndarray:
    """Add a copy of a zone's largest part to it: overlapping parts, an invalid multipolygon."""
    out = np.empty(len(geoms), dtype=object)
    for n, geom in enumerate(geoms):
        parts = shapely.get_parts(geom)
        largest = parts[np.argmax(shapely.area(parts))]
        disc = shapely.buffer(shapely.point_on_surface(largest), 300.0, quad_segs=2)
        part = shapely.intersection(disc, largest)
        out[n] = shapely.multipolygons([*parts, *shapely.get_parts(part)])
    return out


def _split_some(
    rng: np.random.Generator, cells: np.ndarray, plz: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Give a few PLZ as two features (west and east half), as OSM extracts sometimes do."""
    split = rng.random(len(plz)) < SPLIT_PLZ_SHARE
    b = shapely.bounds(cells[split])
    mid = (b[:, 0] + b[:, 2]) / 2
    west = shapely.intersection(
        cells[split], shapely.box(b[:, 0] - 1, b[:, 1] - 1, mid, b[:, 3] + 1)
    )
    east = shapely.intersection(
        cells[split], shapely.box(mid, b[:, 1] - 1, b[:, 2] + 1, b[:, 3] + 1)
    )
    geoms = np.concatenate([cells[~split], west, east])
    codes = np.concatenate([plz[~split], plz[split], plz[split]])
    order = np.argsort(codes, kind="stable")
    return geoms[order], codes[order]
