"""`trinkwasser mapping`: the PLZ-to-zone table computed from open map data.

PLZ areas (e.g. the OpenStreetMap postal-code boundaries) are intersected with zone areas
(the suppliers' maps, or the municipalities a zone serves) in ETRS89-LAEA (EPSG:3035). The
result is the `plz_zones` table of the data contract with a confidence per row, optionally
population-weighted shares from the Zensus 2022 grid and, for PLZ shared by several zones,
which zone each named street lies in. A report lists everything that needs a person's
look, and `mapping.json` records the inputs and rules (docs/mapping.md).

Modules, in the order a run uses them:

- `read`: vector files (through GDAL/pyogrio) and GeoParquet, checked and projected
- `areas`: repairing invalid geometries, merging the features of one PLZ or zone
- `intersect`: the shares, slivers and overlapping zones
- `table`: confidence and rounding
- `population`, `streets`: the census grid and OpenStreetMap streets
- `report`: the findings; `run`: the command's driver and its outputs
- `options`: what the command takes (needs none of the extra, so `--help` works without it)

Needs the optional `geo` extra (shapely, pyproj, pyogrio, osmium); the build never imports
this package.
"""
