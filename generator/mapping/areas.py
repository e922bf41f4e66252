"""Repair invalid areas and merge the features of one key (a PLZ, a zone, an AGS) into one area."""

from __future__ import annotations

import numpy as np
import polars as pl
import shapely

from generator.mapping.options import MAX_CROSSINGS
from generator.mapping.read import MappingInputError
from generator.mapping.report import Column, Report

_CHUNK = 256


def crossings(polygon: shapely.Geometry, limit: int) -> int:
    """Count where the rings' segments meet other than at their shared vertices.

    Counting stops past `limit`, so time and memory stay bounded by the limit, not the ring.
    """
    rings = np.asarray(shapely.get_rings(shapely.get_parts(polygon)), dtype=object)
    coords, ring = shapely.get_coordinates(rings, return_index=True)
    same = ring[:-1] == ring[1:]
    starts = np.flatnonzero(same)
    segments = np.asarray(
        shapely.linestrings(np.stack([coords[starts], coords[starts + 1]], axis=1)), dtype=object
    )
    seg_ring = ring[starts]
    # Position of each segment in its ring, and the ring's segment count (for the wrap).
    first = np.searchsorted(seg_ring, seg_ring, side="left")
    position = np.arange(len(starts)) - first
    size = np.bincount(seg_ring)[seg_ring]
    tree = shapely.STRtree(segments)
    count = 0
    for a0 in range(0, len(segments), _CHUNK):
        a, b = tree.query(segments[a0 : a0 + _CHUNK], predicate="intersects")
        a = a + a0
        later = a < b
        a, b = a[later], b[later]
        gap = np.abs(position[a] - position[b])
        neighbours = (seg_ring[a] == seg_ring[b]) & ((gap == 1) | (gap == size[a] - 1))
        count += int((~neighbours).sum())
        if count > limit:
            return count
    return count


def repair(
    geometry: np.ndarray,
    labels: np.ndarray,
    kind: str,
    report: Report,
    max_crossings: int = MAX_CROSSINGS,
) -> np.ndarray:
    """Return valid geometries; every repair is reported with its label and GEOS's reason.

    A self-intersection ("bow-tie"), overlapping parts of a multipolygon or a ring that
    touches itself would make areas and intersections wrong or fail. `make_valid` with the
    "structure" method keeps the area the rings enclose and merges overlapping parts. A
    feature whose rings cross themselves more than `max_crossings` times is refused: its
    repair could take hours and gigabytes, and it is no plausible area.
    """
    invalid = np.flatnonzero(~shapely.is_valid(geometry))
    if not len(invalid):
        return geometry
    tangled = [
        f"{kind.removeprefix('repaired_').replace('_', ' ')} {labels[i]}: feature #{i + 1} "
        f"crosses itself more than {max_crossings:,} times; repairing it is unbounded work. "
        "Fix it in a GIS, or raise --max-crossings"
        for i in invalid.tolist()
        if crossings(geometry[i], max_crossings) > max_crossings
    ]
    if tangled:
        raise MappingInputError(tangled)
    reasons = shapely.is_valid_reason(geometry[invalid])
    try:
        fixed = shapely.make_valid(geometry[invalid], method="structure", keep_collapsed=False)
    except shapely.errors.GEOSException as exc:
        raise MappingInputError(
            [f"{kind.removeprefix('repaired_')} areas: an invalid feature resists repair ({exc})"]
        ) from None
    fixed = _polygonal(fixed)
    out = geometry.copy()
    out[invalid] = fixed
    key = "plz" if kind == "repaired_plz" else None
    columns: dict[str, Column] = {
        "area_m2": shapely.area(fixed),
        "detail": [f"made valid: {r}" for r in reasons],
    }
    if key:
        columns["plz"] = labels[invalid].astype(str).tolist()
    elif kind == "repaired_zone":
        columns["zone_id"] = labels[invalid].astype(np.int64)
    else:
        columns["detail"] = [
            f"area {k}: made valid: {r}"
            for k, r in zip(labels[invalid].tolist(), reasons, strict=True)
        ]
    report.add(kind, **columns)
    return out


def _polygonal(geometry: np.ndarray) -> np.ndarray:
    """Keep only the polygons of each geometry (a repair may leave lines of collapsed parts)."""
    parts, index = shapely.get_parts(geometry, return_index=True)
    parts, inner = shapely.get_parts(parts, return_index=True)  # collections hold multipolygons
    index = index[inner]
    keep = shapely.get_type_id(parts) == 3
    out = np.full(len(geometry), None, dtype=object)
    shapely.multipolygons(parts[keep], indices=index[keep], out=out)
    out[shapely.is_missing(out)] = shapely.MultiPolygon()
    return out


def dissolve(keys: np.ndarray, geometry: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the sorted distinct keys and, for each, the union of its features.

    A PLZ given as several features (an island, a part split off by a motorway) is one area;
    the union also removes any overlap between those features, so nothing counts twice.
    """
    frame = pl.DataFrame({"key": keys, "i": np.arange(len(keys))})
    groups = frame.group_by("key").agg("i").sort("key")
    out = np.empty(groups.height, dtype=object)
    indices = groups["i"].to_list()
    single = np.array([len(idx) == 1 for idx in indices], dtype=bool)
    out[single] = geometry[[idx[0] for idx, s in zip(indices, single, strict=True) if s]]
    # Only keys with several features need a union: a loop over those few.
    for n in np.flatnonzero(~single):
        out[n] = shapely.union_all(geometry[indices[n]])
    return groups["key"].to_numpy(), out
