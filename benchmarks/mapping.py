"""Benchmark `trinkwasser mapping` at national scale against geopandas.overlay.

    python benchmarks/mapping.py                 # Germany-scale map data (generated once, cached)
    python benchmarks/mapping.py --scale small   # a quick run

The map data comes from `trinkwasser demo-data --geometries` (the `demo` and `geo` extras;
`scripts/test.sh` installs both, and geopandas with the test extra): 8,168 PLZ areas as
GeoJSON (WGS84), 14,868 zones as a GeoPackage in EPSG:25832 (a fifth of them given as
lists of municipalities), a 3-million-cell population grid and an .osm.pbf of streets.

In one run on one machine it times, each in its own process (wall, CPU, peak memory):

1. the reference: what a GIS analyst runs today with geopandas on the same files: read
   both layers, merge the features of a PLZ and assemble the municipality zones
   (`dissolve`), project to EPSG:3035, `geopandas.overlay(plz, zones, how="intersection")`
   and the area of each piece divided by its PLZ's area;
2. `trinkwasser mapping` with the same inputs (areas only, the same work);
3. `trinkwasser mapping` with the population grid and the streets as well.

It then checks that the shares of (1) and (2) agree to 1e-6 for every pair at or above
the minimum share (and that (2) has no other rows), except in PLZ where zones overlap,
where the mapping splits the overlap and the overlay counts it twice (their largest
difference is printed), and prints the figures that docs/performance.md records.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("benchmark_build", HERE / "build.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
TRINKWASSER = bench.TRINKWASSER
MIN_SHARE = 0.005
# The table has six decimals, each share within a millionth of its exact value (largest-
# remainder rounding); the slack allows for the float representation of that millionth.
TOLERANCE = 1e-6
FLOAT_SLACK = 1e-12
TARGET_SPEEDUP = 3.0
TARGET_PEAK_MIB = 2048


def overlay_reference(geo: Path, out: Path) -> None:
    """Run the GIS analyst's way, writing `out` as plz,zone_id,area_share (all pieces)."""
    import geopandas as gpd
    import pandas as pd

    plz = gpd.read_file(geo / "plz_areas.geojson")
    plz = plz.dissolve("plz").reset_index().to_crs(3035)
    zones = gpd.read_file(geo / "zone_areas.gpkg")[["zone_id", "geometry"]]
    admin = gpd.read_file(geo / "admin_areas.gpkg")
    lists = pd.read_csv(geo / "zone_admin.csv", dtype={"area_key": str})
    assembled = admin.merge(lists, left_on="AGS", right_on="area_key")[["zone_id", "geometry"]]
    assembled = assembled.dissolve("zone_id").reset_index()
    zones = pd.concat([zones, assembled], ignore_index=True).to_crs(3035)
    # A careful analyst repairs invalid areas first: overlay's own repair (the "linework"
    # method) would cut a zone's overlapping parts out of it instead of merging them.
    zones["geometry"] = zones.make_valid(method="structure", keep_collapsed=False)
    pieces = gpd.overlay(plz, zones, how="intersection")
    pieces["area"] = pieces.area
    total = plz.set_index("plz").area
    pieces["area_share"] = pieces["area"] / pieces["plz"].map(total)
    shares = pieces.groupby(["plz", "zone_id"], as_index=False)["area_share"].sum()
    shares.to_csv(out, index=False)


def compare(ours: Path, reference: Path) -> dict:
    """Compare the shares; PLZ where zones overlap are held apart.

    Where zones overlap inside a PLZ, the mapping splits the overlap equally (rule 6 of
    docs/mapping.md) while a plain overlay counts it for both zones: those shares are
    expected to differ by up to half the overlap's area.
    """

    def read(path: Path) -> dict[tuple[str, int], float]:
        with path.open(newline="", encoding="utf-8") as fh:
            return {(r["plz"], int(r["zone_id"])): float(r["area_share"])
                    for r in csv.DictReader(fh)}  # fmt: skip

    with ours.with_name("mapping-report.csv").open(newline="", encoding="utf-8") as fh:
        overlapping = {plz for r in csv.DictReader(fh) if r["kind"] == "zone_overlap"
                       for plz in r["detail"].removeprefix("in PLZ ").split()}  # fmt: skip
    mine, theirs = read(ours), read(reference)
    expected = {k: v for k, v in theirs.items() if v >= MIN_SHARE}
    common = set(expected) & set(mine)
    strict = [k for k in common if k[0] not in overlapping]
    split = [k for k in common if k[0] in overlapping]
    return {
        "pairs": len(strict),
        "worst": max((abs(mine[k] - expected[k]) for k in strict), default=0.0),
        "differ": len(set(expected) ^ set(mine)),
        "overlap_pairs": len(split),
        "overlap_worst": max((abs(mine[k] - expected[k]) for k in split), default=0.0),
    }


def main() -> None:
    parser = bench.arguments(__doc__, "Scratch directory (map data cache and outputs).")
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="Threads for trinkwasser mapping (default: its own default).",
    )
    parser.add_argument("--reference-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    data = args.work / f"map-{args.scale}"
    geo = data / "geo"
    if args.reference_only:
        overlay_reference(geo, args.reference_only)
        return
    if not (geo / "streets.osm.pbf").exists():
        gen = bench.measured(
            [*TRINKWASSER, "demo-data", "--out", str(data), "--scale", args.scale, "--geometries"],
            stdout=subprocess.DEVNULL,
        )
        print(f"map data generated in {gen['wall']:.1f} s (peak {gen['peak_mib']:.0f} MiB)")
    out = args.work / f"mapping-{args.scale}"
    out.mkdir(parents=True, exist_ok=True)
    threads = ["--threads", str(args.threads)] if args.threads else []
    inputs = [
        str(geo / "plz_areas.geojson"),
        str(geo / "zone_areas.gpkg"),
        "--zone-admin",
        str(geo / "zone_admin.csv"),
        "--admin-areas",
        str(geo / "admin_areas.gpkg"),
    ]

    reference = bench.measured(
        [
            sys.executable,
            __file__,
            "--scale",
            args.scale,
            "--work",
            str(args.work),
            "--reference-only",
            str(out / "overlay.csv"),
        ]
    )
    ours = bench.measured(
        [
            *TRINKWASSER,
            "mapping",
            *inputs,
            "--out",
            str(out / "areas/plz_zones.csv"),
            "-q",
            *threads,
        ],
        stdout=subprocess.DEVNULL,
    )
    full = bench.measured(
        [
            *TRINKWASSER,
            "mapping",
            *inputs,
            "--out",
            str(out / "full/plz_zones.csv"),
            "--population",
            str(geo / "zensus_100m.csv"),
            "--streets",
            str(geo / "streets.osm.pbf"),
            "--streets-out",
            str(out / "full/streets.csv"),
            *threads,
        ],
        stdout=subprocess.DEVNULL,
    )
    agree = compare(out / "areas/plz_zones.csv", out / "overlay.csv")
    speedup = reference["wall"] / ours["wall"]

    def line(label: str, m: dict) -> str:
        return (
            f"{label:<44} {m['wall']:7.1f} s wall {m['cpu']:7.1f} s CPU "
            f"{m['peak_mib']:7.0f} MiB peak"
        )

    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
    print(line("geopandas: read, dissolve, overlay, areas", reference))
    print(line("trinkwasser mapping (areas)", ours))
    print(line("trinkwasser mapping (+ grid and streets)", full))
    print(
        f"speed-up over geopandas.overlay (wall):     {speedup:.2f}x (target >= "
        f"{TARGET_SPEEDUP:g}x), CPU {reference['cpu'] / ours['cpu']:.2f}x"
    )
    print(
        f"peak memory, full run:                     {full['peak_mib']:.0f} MiB "
        f"(target <= {TARGET_PEAK_MIB} MiB)"
    )
    print(
        f"shares compared: {agree['pairs']:,} pairs, largest difference "
        f"{agree['worst']:.1e} (tolerance {TOLERANCE:g}); pairs present in only one: "
        f"{agree['differ']}"
    )
    print(
        f"in PLZ where zones overlap (split equally): {agree['overlap_pairs']} pairs, "
        f"largest difference {agree['overlap_worst']:.1e}"
    )
    if agree["worst"] > TOLERANCE + FLOAT_SLACK or agree["differ"]:
        sys.exit("the shares do not agree with geopandas.overlay")


if __name__ == "__main__":
    main()
