"""Read area layers (any vector format GDAL reads, and GeoParquet) into EPSG:3035 geometries.

Every check of the input happens here, before anything is computed: a feature without its
key, a PLZ that is not five digits, a zone id that is not a whole number, a layer without a
coordinate reference system, something that is not an area. All problems of a file are
collected and raised together as one `MappingInputError`, so an operator fixes them in one go.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import shapely
from pyproj import CRS, Transformer

from generator.api.patterns import PLZ_PATTERN
from generator.errors import TrinkwasserError

LAEA = CRS.from_epsg(3035)
PLZ_RE = re.compile(PLZ_PATTERN)
# How many problems one error message lists; the count says how many there were in all.
MAX_LISTED = 20


class MappingInputError(TrinkwasserError):
    """An input of `trinkwasser mapping` is unreadable or breaks a rule; nothing was written."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        listed = "\n".join(f"  {p}" for p in problems[:MAX_LISTED])
        more = len(problems) - MAX_LISTED
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(
            f"{len(problems)} problem(s) in the input; nothing was written:\n{listed}{tail}"
        )


@dataclass
class Layer:
    """The features of one file: geometries in EPSG:3035 and the properties asked for."""

    path: Path
    crs: str
    """The CRS the file declares, as `EPSG:nnnn` where it has a code, else its name."""
    geometry: np.ndarray
    properties: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.geometry)


def read_layer(
    path: Path, required: Sequence[str], optional: Sequence[str] = (), threads: int = 1
) -> Layer:
    """Read one area layer; `required` properties must exist, `optional` ones may."""
    path = Path(path)
    if not path.exists():
        raise MappingInputError([f"{path}: no such file"])
    try:
        if path.suffix.lower() in (".parquet", ".geoparquet"):
            crs, wkb, columns = _read_geoparquet(path)
        else:
            crs, wkb, columns = _read_ogr(path)
    except MappingInputError:
        raise
    except Exception as exc:  # GDAL, Arrow and JSON report unreadable files in many ways
        raise MappingInputError([f"{path}: cannot read it as a vector file ({exc})"]) from None
    if crs is None:
        raise MappingInputError(
            [
                f"{path}: the file declares no coordinate reference system; add one (a .prj file "
                "beside a Shapefile, the layer's SRS in a GeoPackage); GeoJSON is always WGS84"
            ]
        )
    missing = [name for name in required if name not in columns]
    if missing:
        raise MappingInputError(
            [
                f"{path}: no property {name!r}; the features have: "
                f"{', '.join(sorted(columns)) or 'no properties'}"
                for name in missing
            ]
        )
    problems: list[str] = []
    geometry = _areas(path, wkb, problems)
    if problems:
        raise MappingInputError(problems)
    check_coordinates(path, geometry, crs)
    properties = {name: columns[name] for name in [*required, *optional] if name in columns}
    projected = projected_to_laea(path, geometry, crs, threads)
    return Layer(path, _crs_name(crs), projected, properties)


def gdal_safe_path(path: Path) -> None:
    """Refuse a file name GDAL would read as another path (`a;b.gpkg` opens `a`)."""
    from pyogrio.util import vsi_path

    if vsi_path(str(path)) != str(path):
        raise MappingInputError(
            [
                f"{path!s}: GDAL reads this file name as another path (it holds ';', '?', '#', "
                "'!' or a scheme such as 'zip:'); rename the file"
            ]
        )


def _outside(xy: np.ndarray, bounds: tuple[float, float, float, float]) -> np.ndarray:
    x, y = xy[:, 0], xy[:, 1]
    west, south, east, north = bounds
    return ~((x >= west) & (x <= east) & (y >= south) & (y <= north))


def _features_of(geometry: np.ndarray, vertices: np.ndarray) -> np.ndarray:
    """Return the (sorted, distinct) feature numbers of the given vertex indices."""
    owner = np.repeat(np.arange(len(geometry)), shapely.get_num_coordinates(geometry))
    return np.unique(owner[vertices])


def _listed(features: np.ndarray) -> str:
    shown = ", ".join(f"#{i + 1}" for i in features[:5])
    return shown + (f" and {len(features) - 5} more" if len(features) > 5 else "")


def check_coordinates(path: Path, geometry: np.ndarray, crs: CRS) -> None:
    """Refuse NaN, infinite and impossible coordinates, naming the features; nothing repaired.

    In a geographic CRS (GeoJSON is always WGS84) a coordinate beyond ±180/±90 is almost
    always a file in metres that declares degrees.
    """
    xy = shapely.get_coordinates(geometry, include_z=False)
    problems: list[str] = []
    finite = np.isfinite(xy).all(axis=1)
    if not finite.all():
        features = _features_of(geometry, np.flatnonzero(~finite))
        problems.append(
            f"{path}: feature(s) {_listed(features)} have a coordinate that is not a number "
            "(NaN or infinite)"
        )
    if crs.is_geographic:
        beyond = finite & _outside(xy, (-180.0, -90.0, 180.0, 90.0))
        if beyond.any():
            features = _features_of(geometry, np.flatnonzero(beyond))
            x, y = xy[np.flatnonzero(beyond)[0]]
            problems.append(
                f"{path}: feature(s) {_listed(features)} have coordinates such as ({x:.6g}, "
                f"{y:.6g}), beyond longitude/latitude, while the file declares {_crs_name(crs)} "
                "in degrees: the coordinates are probably metres of a projected CRS (such as "
                "EPSG:25832 or EPSG:3035); GeoJSON must be WGS84 longitude/latitude, other "
                "formats must declare the CRS they are in"
            )
    if problems:
        raise MappingInputError(problems)


def _laea_bounds() -> tuple[float, float, float, float]:
    """EPSG:3035's area of use (Europe) in its own metres."""
    area = LAEA.area_of_use
    assert area is not None
    to = Transformer.from_crs("EPSG:4326", LAEA, always_xy=True)
    west, south, east, north = to.transform_bounds(*area.bounds)
    return float(west), float(south), float(east), float(north)


LAEA_BOUNDS = _laea_bounds()
"""Where a point in EPSG:3035 can be: further out it is no place in Europe."""


def outside_europe(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Which points (EPSG:3035 metres) are NaN, infinite or outside EPSG:3035's area of use."""
    return _outside(np.column_stack([x, y]), LAEA_BOUNDS)


def projected_to_laea(path: Path, geometry: np.ndarray, crs: CRS, threads: int) -> np.ndarray:
    """`to_laea`, with a CRS pyproj cannot transform and points off Europe as clear errors."""
    try:
        projected = to_laea(geometry, crs, threads)
    except Exception as exc:  # pyproj raises CRSError, ProjError and others
        raise MappingInputError(
            [f"{path}: its CRS {_crs_name(crs)} cannot be transformed to EPSG:3035 ({exc})"]
        ) from None
    xy = shapely.get_coordinates(projected)
    off = np.flatnonzero(outside_europe(xy[:, 0], xy[:, 1]))
    if len(off):
        features = _features_of(projected, off)
        raise MappingInputError(
            [
                f"{path}: feature(s) {_listed(features)} lie outside Europe once transformed "
                f"from {_crs_name(crs)} to EPSG:3035 (or cannot be transformed at all); check "
                "the CRS the file declares"
            ]
        )
    return projected


# What a reader hands on: the declared CRS (None: none declared), the geometries as WKB and
# the property columns by name.
RawLayer = tuple[CRS | None, np.ndarray, dict[str, np.ndarray]]


def _read_ogr(path: Path) -> RawLayer:
    import pyogrio
    import pyogrio.raw

    gdal_safe_path(path)
    # Only containers hold several layers; listing a GeoJSON file's layers would parse it.
    if path.suffix.lower() in (".gpkg", ".sqlite"):
        layers = pyogrio.list_layers(path)
        if len(layers) != 1:
            names = ", ".join(str(name) for name, _ in layers)
            raise MappingInputError(
                [
                    f"{path}: has {len(layers)} layers ({names}); save the areas as a file "
                    "of their own"
                ]
            )
    meta, _fids, wkb, values = pyogrio.raw.read(path)
    crs = CRS.from_user_input(meta["crs"]) if meta["crs"] else None
    columns = {str(name): np.asarray(col) for name, col in zip(meta["fields"], values, strict=True)}
    return crs, wkb, columns


def _read_geoparquet(path: Path) -> RawLayer:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    raw = (table.schema.metadata or {}).get(b"geo")
    if raw is None:
        raise MappingInputError([f"{path}: a Parquet file without GeoParquet metadata ('geo')"])
    geo: dict[str, Any] = json.loads(raw)
    name = geo["primary_column"]
    column = geo["columns"][name]
    if column.get("encoding", "WKB").upper() != "WKB":
        raise MappingInputError(
            [
                f"{path}: geometry column {name!r} is encoded as {column['encoding']}; "
                "write it as WKB (the GeoParquet default)"
            ]
        )
    # The GeoParquet spec: a missing `crs` means OGC:CRS84, an explicit null means unknown.
    if "crs" not in column:
        crs = CRS.from_user_input("OGC:CRS84")
    elif column["crs"] is None:
        crs = None
    else:
        crs = CRS.from_user_input(column["crs"])
    wkb = np.asarray(table.column(name).to_pylist(), dtype=object)
    columns = {
        c: np.asarray(table.column(c).to_pylist(), dtype=object)
        for c in table.column_names
        if c != name
    }
    return crs, wkb, columns


def _areas(path: Path, wkb: np.ndarray, problems: list[str]) -> np.ndarray:
    """Parse WKB; every feature must be a polygon or multipolygon (a PLZ or zone area)."""
    geometry = shapely.from_wkb(wkb, on_invalid="ignore")
    missing = np.flatnonzero(shapely.is_missing(geometry) | shapely.is_empty(geometry))
    problems += [f"{path}: feature #{i + 1} has no geometry" for i in missing]
    kinds = shapely.get_type_id(geometry)
    wrong = np.flatnonzero(~np.isin(kinds, (3, 6)) & ~shapely.is_missing(geometry))
    problems += [
        f"{path}: feature #{i + 1} is a {geometry[i].geom_type}, not an area (Polygon or "
        "MultiPolygon)"
        for i in wrong
        if not shapely.is_empty(geometry[i])
    ]
    return geometry


def _crs_name(crs: CRS) -> str:
    code = crs.to_epsg()
    if code is not None:
        return f"EPSG:{code}"
    authority = crs.to_authority()
    return ":".join(authority) if authority else crs.name


def to_laea(geometry: np.ndarray, crs: CRS, threads: int = 1) -> np.ndarray:
    """Project to EPSG:3035 in place (the geometries were just parsed), in parallel chunks."""
    if crs.equals(LAEA) or not len(geometry):
        return geometry
    transformer = Transformer.from_crs(crs, LAEA, always_xy=True)
    xy = shapely.get_coordinates(geometry)
    bounds = np.linspace(0, len(xy), max(1, threads) * 4 + 1).astype(np.int64)

    def project(chunk: tuple[int, int]) -> None:
        a, b = chunk
        # pyproj releases the GIL while it transforms, so the chunks run side by side.
        xy[a:b, 0], xy[a:b, 1] = transformer.transform(xy[a:b, 0], xy[a:b, 1])

    chunks = list(zip(bounds[:-1], bounds[1:], strict=True))
    if threads > 1:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(project, chunks))
    else:
        for chunk in chunks:
            project(chunk)
    return shapely.set_coordinates(geometry, xy)


def _feature(layer: Layer, i: int) -> str:
    return f"{layer.path}: feature #{i + 1}"


def plz_codes(layer: Layer, field_name: str) -> np.ndarray:
    """Return the PLZ of every feature as five-digit text; raise on a missing or bad one."""
    problems: list[str] = []
    codes = np.empty(layer.count, dtype=object)
    for i, value in enumerate(layer.properties[field_name].tolist()):
        text = _text(value)
        if text is None:
            problems.append(f"{_feature(layer, i)} has no {field_name!r}")
        elif not PLZ_RE.match(text):
            hint = (
                " (a number field drops leading zeros: store the PLZ as text)"
                if isinstance(value, (int, float, np.integer, np.floating))
                else ""
            )
            problems.append(
                f"{_feature(layer, i)}: {field_name} {value!r} is not five digits{hint}"
            )
        codes[i] = text
    if problems:
        raise MappingInputError(problems)
    return codes


def zone_ids(values: np.ndarray, where: list[str], field_name: str) -> np.ndarray:
    """Return whole, positive zone ids; `where[i]` names row i in an error."""
    problems: list[str] = []
    out = np.zeros(len(values), dtype=np.int64)
    for i, value in enumerate(values.tolist()):
        number = _whole_number(value)
        if number is None or number <= 0:
            shown = "nothing" if _text(value) is None else repr(value)
            problems.append(f"{where[i]}: {field_name} is {shown}, not a whole number above 0")
        else:
            out[i] = number
    if problems:
        raise MappingInputError(problems)
    return out


def layer_zone_ids(layer: Layer, field_name: str) -> np.ndarray:
    """Return the zone id of every feature of a zone layer."""
    where = [_feature(layer, i) for i in range(layer.count)]
    return zone_ids(layer.properties[field_name], where, field_name)


def text_keys(layer: Layer, field_name: str) -> np.ndarray:
    """Return a text key (such as an AGS) of every feature; raise where one is missing."""
    values = [_text(v) for v in layer.properties[field_name].tolist()]
    problems = [
        f"{_feature(layer, i)} has no {field_name!r}" for i, v in enumerate(values) if v is None
    ]
    if problems:
        raise MappingInputError(problems)
    return np.asarray(values, dtype=object)


def confidences(values: np.ndarray | None, where: list[str]) -> np.ndarray:
    """Return per-zone confidence overrides (NaN where none is given); each in [0, 1]."""
    if values is None:
        return np.full(len(where), np.nan)
    problems: list[str] = []
    out = np.full(len(values), np.nan)
    for i, value in enumerate(values.tolist()):
        text = _text(value)
        if text is None:
            continue
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            number = math.nan
        if not 0 <= number <= 1:
            problems.append(f"{where[i]}: confidence {value!r} is not a number in [0, 1]")
        out[i] = number
    if problems:
        raise MappingInputError(problems)
    return out


def boundary_sources(values: np.ndarray | None, where: list[str], default: str) -> np.ndarray:
    """Return who drew each zone polygon: `supplier` or `operator` (default where empty)."""
    if values is None:
        return np.full(len(where), default, dtype=object)
    problems: list[str] = []
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values.tolist()):
        text = _text(value)
        out[i] = default if text is None else text
        if out[i] not in ("supplier", "operator"):
            problems.append(
                f"{where[i]}: boundary_source {value!r} is neither 'supplier' nor 'operator'"
            )
    if problems:
        raise MappingInputError(problems)
    return out


def read_zone_admin(path: Path) -> pl.DataFrame:
    """Read the CSV `zone_id,area_key[,confidence]` of zones given as administrative areas."""
    try:
        frame = pl.read_csv(path, infer_schema=False, encoding="utf8")
    except Exception as exc:
        raise MappingInputError([f"{path}: cannot read it as a UTF-8 CSV file ({exc})"]) from None
    frame = frame.rename({c: c.strip() for c in frame.columns})
    missing = [c for c in ("zone_id", "area_key") if c not in frame.columns]
    unknown = [c for c in frame.columns if c not in ("zone_id", "area_key", "confidence")]
    if missing or unknown:
        raise MappingInputError(
            [
                f"{path}: missing column {c!r} (columns: zone_id,area_key[,confidence])"
                for c in missing
            ]
            + [
                f"{path}: unknown column {c!r} (columns: zone_id,area_key[,confidence])"
                for c in unknown
            ]
        )
    where = [f"{path}: row {i + 1}" for i in range(frame.height)]
    ids = zone_ids(frame["zone_id"].to_numpy(), where, "zone_id")
    keys = frame["area_key"].str.strip_chars()
    blank = [where[i] for i in np.flatnonzero(keys.is_null().to_numpy() | (keys == "").to_numpy())]
    if blank:
        raise MappingInputError([f"{w}: area_key is empty" for w in blank])
    conf = confidences(
        frame["confidence"].to_numpy() if "confidence" in frame.columns else None, where
    )
    return pl.DataFrame(
        {
            "zone_id": ids,
            "area_key": keys,
            "confidence": conf,
            "row": np.arange(1, frame.height + 1),
        }
    )


def _text(value: object) -> str | None:
    """Return a property value as stripped text, None when it is missing or blank."""
    if value is None or (isinstance(value, (float, np.floating)) and math.isnan(value)):
        return None
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        value = int(value)
    text = str(value).strip()
    return text or None


def _whole_number(value: object) -> int | None:
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return int(value) if math.isfinite(value) and float(value).is_integer() else None
    text = _text(value)
    return int(text) if text is not None and re.fullmatch(r"[+]?\d+", text) else None
