"""Repair invalid areas and merge the features of one key (a PLZ, a zone, an AGS) into one area."""

from __future__ import annotations

import numpy as np
import polars as pl
import shapely

from generator.mapping.report import Column, Report


def repair(geometry: np.ndarray, labels: np.ndarray, kind: str, report: Report) -> np.ndarray:
    """Return valid geometries; every repair is reported with its label and GEOS's reason.

    A self-intersection ("bow-tie"), overlapping parts of a multipolygon or a ring that
    touches itself would make areas and intersections wrong or fail. `make_valid` with the
    "structure" method keeps the area the rings enclose and merges overlapping parts.
    """
    invalid = np.flatnonzero(~shapely.is_valid(geometry))
    if not len(invalid):
        return geometry
    reasons = shapely.is_valid_reason(geometry[invalid])
    fixed = shapely.make_valid(geometry[invalid], method="structure", keep_collapsed=False)
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
