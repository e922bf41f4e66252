"""Each PLZ's share per zone: PLZ areas intersected with zone areas in EPSG:3035.

The expensive part of an overlay is computing intersections, and most candidate pairs are
neighbours whose boundaries merely touch or cross by a few metres (boundaries drawn from
different sources never match exactly). Those pairs are proven to lie below the minimum
share without computing them: each PLZ gets a core, the PLZ shrunk by a margin chosen so
that the band between core and boundary holds less than the minimum share of its area. A
zone that does not reach into the core can only cover part of that band. Only pairs that
reach the core are intersected exactly, in parallel threads (shapely releases the GIL).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import polars as pl
import shapely

from generator.mapping.report import Report

# Overlaps smaller or thinner than this are rounding of coordinates (a file's precision,
# a CRS round trip, a union's noding), not zones that claim the same land. The width is
# the overlap's mean width, 2 * area / perimeter.
OVERLAP_MIN_M2 = 1.0
OVERLAP_MIN_WIDTH_M = 0.01
# The band of a PLZ's core holds at most this fraction of the minimum share.
BAND_OF_MIN_SHARE = 0.9


@dataclass
class Parts:
    """Where each (PLZ, zone) row lies: a piece of the PLZ and the weight it counts with.

    A piece covered by one zone counts fully; where k zones overlap, the overlap is a
    separate face that counts 1/k for each of them. Population and streets use the same
    parts, so every share of a PLZ follows the same rule.
    """

    plz_index: np.ndarray
    zone_index: np.ndarray
    geometry: np.ndarray
    weight: np.ndarray


@dataclass
class Overlay:
    plz_area: np.ndarray
    shares: pl.DataFrame
    """plz_index, zone_index, area_share: the rows kept (at least the minimum share)."""
    parts: Parts


def threaded(func: Callable[..., np.ndarray], arrays: list[np.ndarray], threads: int) -> np.ndarray:
    """Apply a vectorised shapely function to chunks of the arrays in a thread pool.

    Only for functions that do not use prepared geometries (see `overlay`).
    """
    n = len(arrays[0])
    if threads <= 1 or n < 1000:
        return func(*arrays)
    # Many small chunks: the costly pairs cluster (dense cities), a few big ones would idle.
    bounds = np.linspace(0, n, threads * 16 + 1).astype(np.int64)
    with ThreadPoolExecutor(threads) as pool:
        chunks = pool.map(
            lambda ab: func(*(a[ab[0] : ab[1]] for a in arrays)),
            zip(bounds[:-1], bounds[1:], strict=True),
        )
        return np.concatenate(list(chunks))


def overlay(
    plz: np.ndarray,
    zones: np.ndarray,
    min_share: float,
    threads: int,
    report: Report,
    plz_codes: np.ndarray,
    zone_ids: np.ndarray,
) -> Overlay:
    """Intersect every PLZ with every zone; drop slivers, split overlaps, report both."""
    plz_area = shapely.area(plz)
    core = _cores(plz, plz_area, min_share, threads)
    # Candidate pairs by bounding box, then the predicates on prepared geometries. Not in
    # threads: GEOS builds a prepared geometry's indexes lazily, on first use, and two
    # threads using the same one at once could corrupt them.
    near = shapely.STRtree(zones).query(plz)
    shapely.prepare(core)
    reaches_core = shapely.intersects(core[near[0]], zones[near[1]])
    deep, rest = near[:, reaches_core], near[:, ~reaches_core]
    # Pairs that touch the PLZ but miss its core are slivers, proven without measuring
    # them; they are only counted.
    shapely.prepare(plz)
    touching = shapely.intersects(plz[rest[0]], zones[rest[1]])
    report.count("sliver", int(touching.sum()))

    pi, zi = deep
    pieces = threaded(shapely.intersection, [plz[pi], zones[zi]], threads)
    share = shapely.area(pieces) / plz_area[pi]
    kept = share >= min_share if min_share > 0 else share > 0
    small = ~kept & (share > 0)
    report.add(
        "sliver",
        plz=plz_codes[pi[small]].tolist(),
        zone_id=zone_ids[zi[small]],
        share=share[small],
        area_m2=share[small] * plz_area[pi[small]],
        detail="below the minimum share",
    )
    pi, zi, pieces = pi[kept], zi[kept], pieces[kept]

    parts = _split_overlaps(pi, zi, pieces, plz_area, threads, report, plz_codes, zone_ids)
    share = shapely.area(parts.geometry) * parts.weight / plz_area[parts.plz_index]
    shares = (
        pl.DataFrame(
            {"plz_index": parts.plz_index, "zone_index": parts.zone_index, "area_share": share}
        )
        .group_by("plz_index", "zone_index")
        .agg(pl.col("area_share").sum())
        .sort("plz_index", "zone_index")
    )
    return Overlay(plz_area, shares, parts)


def _cores(plz: np.ndarray, area: np.ndarray, min_share: float, threads: int) -> np.ndarray:
    """Return each PLZ shrunk so the band it loses holds less than `min_share` of its area.

    Where no such core exists (no minimum share, or a PLZ too thin for its band to stay
    below it), the core is the PLZ itself and every touching zone is intersected exactly.
    """
    if min_share <= 0:
        return plz
    margin = BAND_OF_MIN_SHARE * min_share * area / np.maximum(shapely.length(plz), 1e-9)
    core = threaded(lambda g, d: shapely.buffer(g, -d, quad_segs=2), [plz, margin], threads)
    band = 1 - shapely.area(core) / area
    usable = (band < min_share) & ~shapely.is_empty(core)
    return np.where(usable, core, plz)


def _split_overlaps(
    pi: np.ndarray,
    zi: np.ndarray,
    pieces: np.ndarray,
    plz_area: np.ndarray,
    threads: int,
    report: Report,
    plz_codes: np.ndarray,
    zone_ids: np.ndarray,
) -> Parts:
    """Find zones overlapping inside a PLZ; there, cut the pieces into faces counted 1/k."""
    weight = np.ones(len(pi))
    frame = pl.DataFrame({"p": pi, "k": np.arange(len(pi))})
    pairs = frame.join(frame, on="p", suffix="_b").filter(pl.col("k") < pl.col("k_b"))
    a, b = pairs["k"].to_numpy(), pairs["k_b"].to_numpy()
    ba, bb = shapely.bounds(pieces[a]), shapely.bounds(pieces[b])
    near = (
        (ba[:, 0] <= bb[:, 2])
        & (bb[:, 0] <= ba[:, 2])
        & (ba[:, 1] <= bb[:, 3])
        & (bb[:, 1] <= ba[:, 3])
    )
    a, b = a[near], b[near]
    common = threaded(shapely.intersection, [pieces[a], pieces[b]], threads)
    overlap = shapely.area(common)
    width = 2 * overlap / np.maximum(shapely.length(common), 1e-12)
    real = (overlap >= OVERLAP_MIN_M2) & (width >= OVERLAP_MIN_WIDTH_M)
    a, b, overlap = a[real], b[real], overlap[real]
    if not len(a):
        return Parts(pi, zi, pieces, weight)

    # One row per zone pair, with the PLZ where they overlap.
    by_pair = (
        pl.DataFrame(
            {"z1": zone_ids[zi[a]], "z2": zone_ids[zi[b]], "area": overlap, "plz": plz_codes[pi[a]]}
        )
        .with_columns(
            pl.min_horizontal("z1", "z2").alias("zone_id"),
            pl.max_horizontal("z1", "z2").alias("other_zone_id"),
        )
        .group_by("zone_id", "other_zone_id")
        .agg(pl.col("area").sum(), pl.col("plz").sort().str.join(" "))
        .sort("zone_id", "other_zone_id")
    )
    report.add(
        "zone_overlap",
        zone_id=by_pair["zone_id"],
        other_zone_id=by_pair["other_zone_id"],
        area_m2=by_pair["area"],
        detail=("in PLZ " + by_pair["plz"]).to_list(),
    )

    affected = np.unique(pi[a])
    keep = ~np.isin(pi, affected)
    out_p, out_z, out_g, out_w = [pi[keep]], [zi[keep]], [pieces[keep]], [weight[keep]]
    for p in affected:  # a loop over the few PLZ where zones overlap
        idx = np.flatnonzero(pi == p)
        faces, members = _faces(pieces[idx])
        for f, inside in zip(faces, members, strict=True):
            k = int(inside.sum())
            out_p.append(np.full(k, p))
            out_z.append(zi[idx][inside])
            out_g.append(np.full(k, f, dtype=object))
            out_w.append(np.full(k, 1.0 / k))
    return Parts(*(np.concatenate(x) for x in (out_p, out_z, out_g, out_w)))


def _faces(pieces: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Cut overlapping pieces into disjoint faces; return each face and the pieces it lies in."""
    lines = shapely.union_all(shapely.get_parts(shapely.boundary(pieces)))
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(lines)))
    faces = faces[shapely.area(faces) > 0]
    points = shapely.point_on_surface(faces)
    inside = shapely.contains(pieces[:, None], points[None, :])
    used = inside.any(axis=0)
    return faces[used], [inside[:, j] for j in np.flatnonzero(used)]
