"""Streets for shared postcodes: which zone each named street of such a PLZ lies in.

Named streets are OpenStreetMap ways with a `highway` tag and a `name`, read with pyosmium
from the extracts published per Bundesland (`.osm.pbf`) or from `.osm` XML. Node locations
are resolved in C++ and every way becomes WKB there; Python only collects the names.

For every PLZ with more than one zone, a street is all ways of that name inside the PLZ.
`length_share` is the share of its length in the PLZ that lies in the zone, measured in
EPSG:3035 with the same parts (and the same 1/k weights where zones overlap) as the areas.
A stretch that runs exactly along the line between two zones lies in both; where that
makes a street's shares add up to more than 1, they are scaled down to add up to 1.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import shapely
from pyproj import CRS

from generator.mapping.intersect import Parts, threaded
from generator.mapping.read import MappingInputError, to_laea
from generator.mapping.report import Report

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


@dataclass
class Streets:
    path: Path
    name: np.ndarray
    geometry: np.ndarray
    """Ways in EPSG:3035."""
    timestamp: str | None
    """The extract's replication timestamp, else the newest edit among the ways read."""
    timestamp_source: str
    broken: int
    """Ways left out because a node's location is missing from the extract."""


def read_streets(path: Path) -> Streets:
    """Read every way with `highway` and `name` from an OSM extract (PBF or XML)."""
    import osmium

    path = Path(path)
    if not path.is_file():
        raise MappingInputError([f"{path}: no such file"])
    names: list[str] = []
    wkb: list[str] = []
    newest = EPOCH
    broken = 0
    factory = osmium.geom.WKBFactory()
    try:
        processor = (
            osmium.FileProcessor(str(path))
            .with_locations()
            .with_filter(osmium.filter.KeyFilter("highway"))
        )
        header = processor.header.get("osmosis_replication_timestamp")
        for obj in processor:
            if not isinstance(obj, osmium.osm.Way):
                continue
            name = (obj.tags.get("name") or "").strip()
            if not name:
                continue
            try:
                wkb.append(factory.create_linestring(obj))
            except (osmium.InvalidLocationError, RuntimeError):
                broken += 1  # a way cut at the extract's edge, or a one-node way
                continue
            names.append(name)
            newest = max(newest, obj.timestamp)
    except (RuntimeError, ValueError, osmium.InvalidLocationError) as exc:
        # A node with lat="nan" stops the parser itself: the file is refused, not repaired.
        raise MappingInputError([f"{path}: cannot read it as an OSM extract ({exc})"]) from None
    geometry = (
        to_laea(shapely.from_wkb(np.asarray(wkb, dtype=object)), CRS.from_epsg(4326))
        if wkb
        else np.empty(0, dtype=object)
    )
    if header:
        stamp, source = header, "replication timestamp of the extract"
    elif newest > EPOCH:
        stamp, source = newest.strftime("%Y-%m-%dT%H:%M:%SZ"), "newest edit of a street read"
    else:
        stamp, source = None, "the extract carries no timestamp"
    return Streets(path, np.asarray(names, dtype=object), geometry, stamp, source, broken)


def _common_length(lines: np.ndarray, areas: np.ndarray) -> np.ndarray:
    return shapely.length(shapely.intersection(lines, areas))


def street_shares(
    streets: Streets,
    plz: np.ndarray,
    shared: np.ndarray,
    parts: Parts,
    min_share: float,
    threads: int,
    report: Report,
    plz_codes: np.ndarray,
) -> pl.DataFrame:
    """Return plz_index, street, zone_index, length_share for the PLZ in `shared`."""
    empty = pl.DataFrame(
        schema={
            "plz_index": pl.Int64,
            "street": pl.String,
            "zone_index": pl.Int64,
            "length_share": pl.Float64,
        }
    )
    if not len(shared) or not len(streets.geometry):
        return empty
    tree = shapely.STRtree(streets.geometry)
    p_local, line = tree.query(plz[shared], predicate="intersects")
    p = shared[p_local]
    inside = threaded(shapely.intersection, [streets.geometry[line], plz[p]], threads)
    pieces = pl.DataFrame(
        {
            "plz_index": p,
            "street": streets.name[line],
            "piece": np.arange(len(p)),
            "length": shapely.length(inside),
        }
    )
    totals = pieces.group_by("plz_index", "street").agg(pl.col("length").sum().alias("total"))

    part_rows = pl.DataFrame({"plz_index": parts.plz_index, "part": np.arange(len(parts.weight))})
    pairs = pieces.join(part_rows, on="plz_index")
    piece, part = pairs["piece"].to_numpy(), pairs["part"].to_numpy()
    length = threaded(_common_length, [inside[piece], parts.geometry[part]], threads)
    lengths = (
        pairs.select("plz_index", "street")
        .with_columns(
            pl.Series("zone_index", parts.zone_index[part]),
            pl.Series("length", length * parts.weight[part]),
        )
        .group_by("plz_index", "street", "zone_index")
        .agg(pl.col("length").sum())
        .join(totals, on=["plz_index", "street"])
        .filter(pl.col("total") > 0)
        .with_columns((pl.col("length") / pl.col("total")).alias("length_share"))
        .with_columns(
            pl.col("length_share")
            / pl.max_horizontal(pl.col("length_share").sum().over("plz_index", "street"), 1.0)
        )
    )
    kept = lengths.filter(pl.col("length_share") >= max(min_share, 1e-12))
    assigned = kept.group_by("plz_index", "street").agg(pl.col("length_share").sum())
    lost = (
        totals.filter(pl.col("total") > 0)
        .join(assigned, on=["plz_index", "street"], how="left")
        .with_columns((1 - pl.col("length_share").fill_null(0)).alias("share"))
        .filter(pl.col("share") >= max(min_share, 1e-9))
        .sort("plz_index", "street")
    )
    report.add(
        "street_unassigned",
        plz=plz_codes[lost["plz_index"].to_numpy()].tolist(),
        share=lost["share"],
        area_m2=None,
        detail=(
            "street " + lost["street"] + ": this share of its length lies in no zone"
        ).to_list(),
    )
    return kept.select("plz_index", "street", "zone_index", "length_share").sort(
        "plz_index", "street", "zone_index"
    )
