"""The national map with PLZ areas: how large the map page is, gzipped, at national scale.

Draws the PLZ areas of the national demo geometry (`demo-data --scale germany
--geometries`: 8,168 PLZ cells with wiggled boundaries) through the mapping's
simplification (`generator.mapping.shapes`) and the site's drawing (`generator.site.maps`),
every PLZ linked with classes as the site writes them, and reports the raw and gzipped
bytes of the SVG and of a map page around it. Needs the demo and geo extras.

    .venv/bin/python -m benchmarks.map_areas [--tolerance METRES] [--scale small]
"""

from __future__ import annotations

import argparse
import gzip
import time

import numpy as np
import polars as pl

from generator.demo.base import SCALES
from generator.demo.geography import draw_geography, plz_in_curve_order
from generator.demo.geometry import draw_areas
from generator.mapping.areas import dissolve
from generator.mapping.shapes import DEFAULT_TOLERANCE, plz_shapes
from generator.site import maps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE)
    parser.add_argument("--seed", type=int, default=20260112)
    parser.add_argument("--scale", choices=sorted(SCALES), default="germany")
    args = parser.parse_args()
    start = time.perf_counter()
    spec = SCALES[args.scale]
    plz, lat, lon = plz_in_curve_order(spec.plz_count)
    geo = draw_geography(np.random.default_rng(args.seed), plz, lat, lon, spec)
    areas = draw_areas(np.random.default_rng([args.seed, 15]), plz, lat, lon, geo.plz_zones)
    ids, geometry = dissolve(areas.plz, areas.plz_geometry)
    print(f"areas: {len(ids):,} PLZ ({time.perf_counter() - start:.1f} s)")
    shapes = plz_shapes(ids, geometry, None, args.tolerance)
    print(f"simplified to {args.tolerance:g} m ({time.perf_counter() - start:.1f} s)")
    csv = shapes.write_csv().encode()
    print(f"plz_shapes.csv: {len(csv):,} bytes")
    # Every PLZ linked, with a class per view as the site writes them (which class does not
    # change the size: one letter each).
    letters = np.array(list("bwoqn"))
    zone = pl.DataFrame({"plz": shapes["plz"], "zone_id": np.arange(shapes.height)})
    rng = np.random.default_rng(1)
    classes = pl.DataFrame(
        {
            "zone_id": np.arange(shapes.height),
            "name": [""] * shapes.height,
            "p": letters[rng.integers(0, 5, shapes.height)],
            "n": letters[rng.integers(0, 5, shapes.height)],
            "h": np.array(list("smhn"))[rng.integers(0, 4, shapes.height)],
        }
    )
    svg = maps.shape_svg(shapes, zone, classes).encode()
    print(f"svg: {len(svg):,} bytes, gzipped {len(gzip.compress(svg, 9)):,} bytes")
    print(f"total {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
