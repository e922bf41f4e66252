"""Suppliers and zones: neighbouring zones grouped into suppliers, with invented names."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from generator.demo.base import Scale, pick
from generator.demo.geography import Geography, step_km

# Invented place names: prefix + root + suffix.
ROOTS = (
    "Ahorn", "Alten", "Bären", "Biber", "Birken", "Buchen", "Dachs", "Dorn", "Eber", "Eichen",
    "Erlen", "Eschen", "Eulen", "Falken", "Fichten", "Forst", "Fried", "Gersten", "Gold", "Grün",
    "Hafer", "Hasel", "Hirsch", "Hopfen", "Kalten", "Kirsch", "Kling", "Königs", "Kreuz",
    "Lauter", "Lerchen", "Linden", "Marien", "Mittel", "Moos", "Mühl", "Oster", "Reichen",
    "Rosen", "Rot", "Sand", "Schön", "Schwarz", "Sieg", "Silber", "Sonnen", "Stein", "Sternen",
    "Tannen", "Wein", "Weiden", "Weiß", "Winter", "Wolfs", "Brunn", "Holz", "Wies", "Hag",
    "Kirch", "Hoch", "Adler", "Apfel", "Auer", "Berken", "Blumen", "Breiten", "Drossel", "Elm",
    "Espen", "Finken", "Flachs", "Frauen", "Fuchs", "Gras", "Hahnen", "Heiden", "Helm", "Herren",
    "Hessel", "Horn", "Hutten", "Immen", "Kalk", "Kesten", "Korn", "Kranich", "Lamm", "Lehm",
    "Lohr", "Mark", "Meisen", "Nessel", "Otter", "Pappel", "Quell", "Raben", "Ried", "Salz",
    "Schilf", "Schlehen", "Schwanen", "Sperber", "Stock", "Storch", "Ulmen", "Wachtel", "Walz",
    "Wasser", "Wicken", "Wiesel", "Zeisig",
)  # fmt: skip
SUFFIXES = (
    "heim", "hausen", "dorf", "feld", "burg", "bach", "stadt", "ingen", "au", "rode", "hofen",
    "kirchen", "brück", "thal", "born", "stedt", "leben", "weiler", "beuren", "berg", "grund",
    "hagen", "furt", "mühle", "ach", "wang", "reuth", "roda", "büttel", "siel", "winkel",
    "lohe", "hain",
)  # fmt: skip
PREFIXES = ("", "Bad ", "Neu-", "Alt-", "Groß ", "Klein ", "Markt ", "Ober-", "Nieder-")
SUPPLIER_KINDS = (
    # (name pattern, domain prefix, weight)
    ("Stadtwerke {}", "stadtwerke", 0.22),
    ("Stadtwerke {} GmbH", "swg", 0.10),
    ("Gemeindewerke {}", "gemeindewerke", 0.14),
    ("Wasserversorgung {}", "wasser", 0.20),
    ("Zweckverband Wasserversorgung {}", "zv-wasser", 0.12),
    ("Wasserverband {}", "wasserverband", 0.08),
    ("Eigenbetrieb Wasserwerk {}", "wasserwerk", 0.07),
    ("Wasserbeschaffungsverband {}", "wbv", 0.07),
)
DIRECTIONS = ("Nord", "Süd", "Ost", "West", "Mitte", "Hochzone", "Tiefzone", "Altstadt")
SOURCES: tuple[tuple[str | None, float], ...] = (
    # (pattern with {} for a works name, weight)
    ("Grundwasser, Wasserwerk {}", 0.43),
    ("Grundwasser, Brunnen {}", 0.10),
    ("Quellwasser, Quellfassung {}", 0.10),
    ("Oberflächenwasser, Talsperre {}", 0.08),
    ("Uferfiltrat, Wasserwerk {}", 0.07),
    ("Mischwasser aus Grundwasser und Fremdbezug", 0.08),
    ("Fremdbezug, Zweckverband {}", 0.07),
    (None, 0.07),
)


@dataclass
class World:
    """Suppliers and zones, plus the zone attributes the measurements need."""

    suppliers: pl.DataFrame
    zones: pl.DataFrame
    zone_supplier: np.ndarray
    """Supplier index (0-based) of every zone."""
    zone_lat: np.ndarray
    zone_lon: np.ndarray
    sample_points: pl.Series
    """Two candidate sample points per zone (index 2*z and 2*z+1; the second may be null)."""
    base_url: pl.Series


def _town_names(
    rng: np.random.Generator, count: int, unique: bool, groups: np.ndarray | None = None
) -> pl.Series:
    """Return `count` invented place names; without repeats (within `groups`) when `unique`."""

    def draw(size: int) -> pl.Series:
        prefix = pick(rng, [0.86] + [0.14 / (len(PREFIXES) - 1)] * (len(PREFIXES) - 1), size)
        return pl.select(
            pl.concat_str(
                pl.lit(pl.Series(PREFIXES).gather(prefix)),
                pl.lit(pl.Series(ROOTS).gather(rng.integers(0, len(ROOTS), size))),
                pl.lit(pl.Series(SUFFIXES).gather(rng.integers(0, len(SUFFIXES), size))),
            )
        ).to_series()

    names = draw(count)
    group = pl.Series(np.zeros(count, np.int64) if groups is None else groups)
    while unique:
        frame = pl.DataFrame({"g": group, "n": names})
        repeat = ~frame.select(pl.struct("g", "n").is_first_distinct()).to_series().to_numpy()
        if not repeat.any():
            break
        idx = np.flatnonzero(repeat)
        if groups is None:
            # Repeats become double names, as merged municipalities have them.
            fresh = pl.select(
                pl.concat_str(pl.lit(names.gather(idx)), pl.lit("-"), pl.lit(draw(len(idx))))
            ).to_series()
        else:
            fresh = draw(len(idx))
        names = names.scatter(idx, fresh)
    return names


def _slug(expr: pl.Expr) -> pl.Expr:
    """Turn a German name into an ASCII domain label."""
    out = expr.str.to_lowercase()
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        out = out.str.replace_all(a, b, literal=True)
    return out.str.replace_all(r"[^a-z0-9]+", "-").str.strip_chars("-")


def draw_suppliers_and_zones(rng: np.random.Generator, geo: Geography, spec: Scale) -> World:
    """Group neighbouring zones into suppliers and invent names, sources and sample points."""
    nz = geo.n_zones
    extra = spec.zones_per_supplier - 1
    sizes = 1 + rng.negative_binomial(0.7, 0.7 / (0.7 + extra), size=nz)
    ends = np.cumsum(sizes)
    start = np.zeros(nz, dtype=np.bool_)
    start[ends[ends < nz]] = True
    # As with zones, a supplier never spans a jump of the curve.
    start |= step_km(geo.zone_lat, geo.zone_lon) > 25
    start[0] = True
    zone_supplier = np.cumsum(start) - 1
    ns = int(zone_supplier[-1]) + 1
    first_zone = np.flatnonzero(start)
    rank = np.arange(nz) - first_zone[zone_supplier]
    size = np.bincount(zone_supplier, minlength=ns)

    town = _town_names(rng, ns, unique=True)
    kind = pick(rng, [k[2] for k in SUPPLIER_KINDS], ns)
    # Big suppliers are municipal utilities or associations, not a village's own works.
    kind = np.where((size >= 6) & (kind >= 2), np.where(kind % 2 == 0, 0, 4), kind)
    has_site = rng.random(ns) < 0.85
    sup = pl.DataFrame(
        {
            "supplier_id": np.arange(1, ns + 1, dtype=np.int64),
            "town": town,
            "kind": kind,
            "has_site": has_site,
        }
    )
    name_expr = pl.lit(None, dtype=pl.String)
    domain_expr = pl.lit(None, dtype=pl.String)
    for i, (pattern, prefix, _) in enumerate(SUPPLIER_KINDS):
        before, after = pattern.split("{}")
        name_expr = (
            pl.when(pl.col("kind") == i)
            .then(pl.concat_str(pl.lit(before), pl.col("town"), pl.lit(after)))
            .otherwise(name_expr)
        )
        domain_expr = pl.when(pl.col("kind") == i).then(pl.lit(prefix)).otherwise(domain_expr)
    sup = sup.with_columns(
        name_expr.alias("name"),
        pl.concat_str(
            pl.lit("https://www."), domain_expr, pl.lit("-"), _slug(pl.col("town")),
            pl.lit(".example"),
        ).alias("base_url"),
    )  # fmt: skip
    suppliers = sup.select(
        "supplier_id",
        "name",
        pl.col("town").alias("city"),
        pl.when(pl.col("has_site")).then(pl.col("base_url")).alias("website"),
    )

    # Zone names: the supplier's town for its first zone, then villages or town districts.
    village = _town_names(rng, nz, unique=True, groups=zone_supplier)
    town_of_zone = town.gather(zone_supplier)
    is_village = rng.random(nz) < 0.5
    # Districts are numbered among the supplier's non-village zones: Nord, Süd, Ost, ...
    is_district = ~is_village & (rank > 0)
    seen = np.cumsum(is_district)
    nth = seen - seen[first_zone[zone_supplier]] - 1
    direction = pl.Series(DIRECTIONS).gather(np.maximum(nth, 0) % len(DIRECTIONS))
    lap = np.maximum(nth, 0) // len(DIRECTIONS)
    works = _town_names(rng, nz, unique=False)
    # Most zones of a supplier share its main works.
    shared = rng.random(nz) < 0.7
    works = pl.select(
        pl.when(pl.Series(shared)).then(works.gather(first_zone[zone_supplier])).otherwise(works)
    ).to_series()
    source_kind = pick(rng, [s[1] for s in SOURCES], nz)
    source_expr = pl.lit(None, dtype=pl.String)
    for i, (source, _) in enumerate(SOURCES):
        if source is None:
            continue
        before, _, after = source.partition("{}")
        value = (
            pl.concat_str(pl.lit(before), pl.col("works"), pl.lit(after))
            if "{}" in source
            else pl.lit(source)
        )
        source_expr = pl.when(pl.col("source_kind") == i).then(value).otherwise(source_expr)
    # A supplier's first zone is its town centre; the others are villages and districts.
    people = np.where(rank == 0, 6000, 2000) * geo.zone_area**0.8
    population = np.round(people * np.exp(rng.normal(0, 1.0, nz)), -1).clip(20, 900_000)
    z = pl.DataFrame(
        {
            "zone_id": np.arange(1, nz + 1, dtype=np.int64),
            "supplier_id": (zone_supplier + 1).astype(np.int64),
            "rank": rank,
            "single": size[zone_supplier] == 1,
            "town": town_of_zone,
            "village": village,
            "is_village": is_village,
            "direction": direction,
            "lap": lap,
            "works": works,
            "source_kind": source_kind,
            "population": np.where(rng.random(nz) < 0.04, -1, population).astype(np.int64),
            "point_kind": pick(rng, [0.35, 0.2, 0.25, 0.1, 0.1], nz),
            "second_point": rng.random(nz) < 0.2,
            "spot": pick(rng, [1, 1, 1, 1], nz),
        }
    )
    district = pl.concat_str(
        pl.col("town"),
        pl.lit(" "),
        pl.col("direction"),
        pl.when(pl.col("lap") > 0).then(pl.format(" {}", pl.col("lap") + 1)).otherwise(pl.lit("")),
    )
    z = z.with_columns(
        pl.when(pl.col("rank") == 0)
        .then(
            pl.when(pl.col("single"))
            .then(pl.col("town"))
            .otherwise(pl.concat_str(pl.col("town"), pl.lit(" Kernstadt")))
        )
        .when(pl.col("is_village"))
        .then(pl.col("village"))
        .otherwise(district)
        .alias("name"),
        source_expr.alias("water_source"),
    )
    spots = pl.Series(["Rathaus", "Grundschule", "Feuerwehrhaus", "Sportheim"])
    point_a = (
        pl.when(pl.col("point_kind") == 0)
        .then(pl.format("Wasserwerk {}, Reinwasser", pl.col("works")))
        .when(pl.col("point_kind") == 1)
        .then(pl.format("Hochbehälter {}", pl.col("village")))
        .when(pl.col("point_kind") == 2)
        .then(pl.format("Ortsnetz {}", pl.col("name")))
        .when(pl.col("point_kind") == 3)
        .then(pl.format("Zapfstelle {}, {}", spots.gather(z["spot"].to_numpy()), pl.col("name")))
    )
    point_b = (
        pl.when(pl.col("second_point") & (pl.col("point_kind") < 4))
        .then(
            pl.when(pl.col("point_kind") == 2)
            .then(pl.format("Hochbehälter {}", pl.col("village")))
            .otherwise(pl.format("Ortsnetz {}", pl.col("name")))
        )
        .otherwise(pl.lit(None, dtype=pl.String))
    )
    points = z.select(pl.concat_list(point_a, point_b).alias("p")).explode("p").to_series()
    zones = z.select(
        "zone_id",
        "supplier_id",
        "name",
        "water_source",
        pl.when(pl.col("population") >= 0).then(pl.col("population")).alias("population"),
    )
    return World(
        suppliers=suppliers,
        zones=zones,
        zone_supplier=zone_supplier,
        zone_lat=geo.zone_lat,
        zone_lon=geo.zone_lon,
        sample_points=points,
        base_url=sup["base_url"],
    )
