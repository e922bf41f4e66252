"""Stage 3: turn derived frames into bytes per path (JSON, CSV, Parquet).

Resource documents are encoded by polars (`struct.json_encode`) and joined per
group, so Python only loops over files, never over measurements. Object keys are
sorted everywhere, so the bytes depend only on the data.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
from collections.abc import Iterator
from typing import Any

import polars as pl

from generator import __version__, compare
from generator.api import fields, http, openapi, resources, routes, series
from generator.api.license_resources import odbl_attribution
from generator.api.templates import template_pieces
from generator.config import Config
from generator.contract import provenance
from generator.contract.provenance import MapSource
from generator.contract.tables import PLZ_ZONES, STREETS
from generator.derive import Derived, with_links, with_numbers, with_plz
from generator.frames import parallel
from generator.frames.compact import as_text
from generator.output.csv_cells import write_csv
from generator.output.encode import (
    checked,
    constant,
    document,
    file_digest,
    json_bytes,
    json_text,
    object_bytes,
    stored_gzip,
)
from generator.output.sections import Sections, chosen_rows, in_order
from generator.site import catalog
from generator.site import pages as site
from generator.site import urls as site_urls
from generator.site.feeds import ZoneFeeds

MEASUREMENT_BATCH = 100  # zones per batch: bounds the memory of the encoded strings
ZONE_BATCH = 250  # zones per batch: bounds the memory of the encoded strings


def _encode(frame: pl.DataFrame, doc: pl.Expr) -> pl.Series:
    return frame.select(doc.struct.json_encode()).to_series()


def _lines(paths: Iterator[str], frame: pl.DataFrame, doc: pl.Expr) -> Iterator[tuple[str, bytes]]:
    """Pair each path with its row of `frame` encoded as `doc`, a line of JSON.

    The lines come out of polars as bytes: a Python `str` of each, encoded again, would
    copy every document twice more (a gigabyte of zone documents nationally).
    """
    yield from zip(paths, (_encode(frame, doc) + "\n").cast(pl.Binary), strict=True)


# ---------------------------------------------------------------------------- documents


def attribution(d: Derived, config: Config) -> dict[str, Any]:
    """Return the ODbL credit of the operator, and the credits of the map data the mapping used."""
    # Keys sorted, as in every JSON object of the tree.
    sources = [dict(sorted(s.attribution().items())) for s in d.sources if s.credit]
    return {**odbl_attribution(config.operator, config.license_url), "sources": sources}


def lookup_files(d: Derived, config: Config) -> Iterator[tuple[str, bytes]]:
    doc = document(
        resources.LOOKUP, attribution=constant(resources.ATTRIBUTION, attribution(d, config))
    )
    paths = (routes.file_path("lookup", plz=plz) for plz in d.lookups["plz"])
    yield from _lines(paths, d.lookups, doc)


def zone_files(d: Derived, as_of: dt.date, config: Config) -> Iterator[tuple[str, bytes]]:
    doc = document(
        resources.ZONE,
        as_of=pl.lit(as_of),
        attribution=constant(resources.ATTRIBUTION, attribution(d, config)),
    )
    value = document(resources.CURRENT_VALUE).alias("current_values")

    # Grouped and encoded in batches of zones: the current values of all zones as nested
    # structs at once were the build's peak of memory (about a gigabyte at national scale).
    def render(zones: pl.DataFrame) -> list[tuple[str, bytes]]:
        values = compare.with_comparison(
            with_links(d.current_values.of(zones.get_column("zone_id")), d.documents),
            d.standings,
        )
        per_zone = values.group_by("zone_id", maintain_order=True).agg(value)
        batch = zones.join(per_zone, on="zone_id", how="left", maintain_order="left")
        paths = (routes.file_path("zone", zone_id=z) for z in batch["zone_id"])
        return list(_lines(paths, batch, doc))

    batches = d.zones.iter_slices(ZONE_BATCH)
    for files in parallel.ordered(functools.partial(render, zones) for zones in batches):
        yield from files


def _series_texts(rows: pl.DataFrame, docs: pl.DataFrame) -> pl.DataFrame:
    """Return each zone's series file (`generator.api.series` layout) from its encoded rows."""
    grouped = rows.group_by("zone_id", maintain_order=True).agg(
        pl.col("row").str.join(",\n").alias("rows"),
        pl.len().alias("count"),
        pl.col("document_id").unique().sort().alias("document_id"),
        # Rows are sorted by parameter: the units' keys come in order.
        pl.col("unit_pair").unique(maintain_order=True).str.join(",").alias("units"),
    )
    doc_lists = (
        grouped.select("zone_id", "document_id")
        .explode("document_id")
        .join(docs, on="document_id", how="left", maintain_order="left")
        .group_by("zone_id", maintain_order=True)
        .agg(pl.col("doc_json").str.join(",\n").alias("documents"))
    )
    members = {
        "count": pl.col("count").cast(pl.String),
        series.UNITS: pl.concat_str(pl.lit("{"), pl.col("units"), pl.lit("}")),
        series.ROW_FIELD: pl.lit("null"),
        "zone_id": pl.col("zone_id").cast(pl.String),
    }
    # A zone with rows cites at least one document: neither list is empty here.
    text = pl.concat_str(
        [
            *template_pieces(series.HEAD, members),
            pl.lit("\n"),
            pl.col("documents"),
            pl.lit("\n" + series.MIDDLE + "\n"),
            pl.col("rows"),
            pl.lit("\n"),
            *template_pieces(series.TAIL, members),
            pl.lit("\n"),
        ]
    )
    # As bytes: a Python `str` of each file, encoded again, would copy it twice more.
    return grouped.join(doc_lists, on="zone_id", how="left", maintain_order="left").select(
        "zone_id", text.cast(pl.Binary).alias("text")
    )


def measurement_files(d: Derived) -> Iterator[tuple[str, bytes]]:
    """Yield every zone's series file, in batches of zones, stored gzip-compressed.

    One file per zone, never per parameter: the gates answer `?parameter=` from it, see
    `generator.api.series`. Compressed in the batch's thread, on every CPU: zlib lets go
    of the GIL.
    """
    docs = d.documents.select(
        "document_id", document(resources.DOCUMENT).struct.json_encode().alias("doc_json")
    )
    m = d.measurements
    counts = m.group_by("zone_id", maintain_order=True).len()
    zone_ids, lengths = counts["zone_id"].to_list(), counts["len"].to_list()
    row = document(resources.MEASUREMENT).struct.json_encode().alias("row")
    # Each parameter's register unit once per series (`"blei":"µg/l"`), not in every row.
    units = dict(d.parameters.select("code", "unit").iter_rows())
    pairs = {code: series.units_text({code: unit})[1:-1] for code, unit in units.items()}
    pair = pl.col("parameter").replace_strict(pairs, return_dtype=pl.String).alias("unit_pair")

    def render(offset: int, size: int) -> list[tuple[str, bytes]]:
        rows = as_text(with_numbers(m.slice(offset, size), d.readings))
        rows = rows.select("zone_id", "document_id", row, pair)
        texts = _series_texts(rows, docs)
        return [
            (routes.file_path("zone_measurements", zone_id=zone_id), stored_gzip(text))
            for zone_id, text in texts.iter_rows()
        ]

    tasks, offset = [], 0
    for start in range(0, len(zone_ids), MEASUREMENT_BATCH):
        size = sum(lengths[start : start + MEASUREMENT_BATCH])
        tasks.append(functools.partial(render, offset, size))
        offset += size
    for files in parallel.ordered(tasks):
        yield from files
    # Zones without any published value still answer, with an empty series.
    for zone_id in d.zones.join(counts, on="zone_id", how="anti")["zone_id"]:
        members = {series.ROW_FIELD: "null", series.UNITS: "{}", "zone_id": str(zone_id)}
        empty = stored_gzip(series.lines([], [], members))
        yield routes.file_path("zone_measurements", zone_id=zone_id), empty


def supplier_files(
    d: Derived, chosen: frozenset[int] | None = None
) -> Iterator[tuple[str, bytes | None]]:
    """Yield every supplier's document: rendered for the `chosen` (all when None), else kept."""
    mask = chosen_rows(d.suppliers, "supplier_id", chosen)
    paths = routes.file_paths("supplier", d.suppliers["supplier_id"])
    chosen_paths = (p for p, m in zip(paths, mask, strict=True) if m)
    rendered = _lines(chosen_paths, d.suppliers.filter(mask), document(resources.SUPPLIER))
    yield from in_order(paths, mask.to_list(), rendered)


def parameter_files(d: Derived) -> Iterator[tuple[str, bytes]]:
    params = d.parameters
    register = ",".join(_encode(params, document(resources.PARAMETER)))
    yield (
        routes.file_path("parameters"),
        object_bytes(
            resources.PARAMETER_REGISTER,
            count=str(params.height).encode(),
            parameters=f"[{register}]".encode(),
        ),
    )
    versions = d.limits.group_by("code", maintain_order=True).agg(
        document(resources.LIMIT_VERSION).alias("limits")
    )
    with_limits = params.join(versions, on="code", how="left", maintain_order="left").with_columns(
        pl.col("limits").fill_null([])
    )
    paths = (routes.file_path("parameter_limits", code=c) for c in with_limits["code"])
    yield from _lines(paths, with_limits, document(resources.PARAMETER_LIMITS))


# ---------------------------------------------------------------------------- export


def credit_line(attribution: dict[str, Any]) -> str:
    """Return the ODbL credit with the license's address, as a copy of the file carries it.

    Map data under another license that the mapping used (the Zensus grid behind
    `population_share`, dl-de/by-2-0) is credited after it, with its license.
    """
    others = [
        f"{s['credit']} ({s['license']})"
        for s in attribution.get("sources", [])
        if s.get("credit") and s["license"] != attribution["license"]
    ]
    return "; ".join([f"{attribution['credit']}, {attribution['license_url']}", *others])


def parquet_metadata(attribution: dict[str, Any]) -> dict[str, str]:
    """Key-value metadata of the Parquet export: license, credits, sources and obligations."""
    return {
        "license": attribution["license"],
        "license_url": attribution["license_url"],
        "attribution": attribution["credit"],
        "source": attribution["source"],
        "sources": json_text(attribution.get("sources", [])),
        "obligations": json_text(attribution["obligations"]),
    }


def export_files(d: Derived, config: Config) -> Iterator[tuple[str, bytes]]:
    rows = d.export.select(resources.EXPORT_ROW.names)
    credits = attribution(d, config)
    # The credit travels inside each copy: a column of the CSV (every reader keeps the rows
    # intact, unlike a comment line), key-value metadata of the Parquet file.
    csv = write_csv(
        rows.with_columns(
            pl.lit(credit_line(credits)).alias(resources.CSV_ATTRIBUTION.name)
        ).select(resources.export_csv_row().names)
    ).encode()
    parquet = io.BytesIO()
    rows.write_parquet(
        parquet, compression="zstd", statistics=False, metadata=parquet_metadata(credits)
    )
    encoded = ",".join(_encode(rows, document(resources.EXPORT_ROW)))
    files = {
        routes.file_path("export", format="csv"): csv,
        routes.file_path("export", format="json"): object_bytes(
            resources.EXPORT,
            attribution=json_text(checked(resources.ATTRIBUTION, credits)).encode(),
            count=str(rows.height).encode(),
            rows=f"[{encoded}]".encode(),
        ),
        routes.open_file("export_parquet"): parquet.getvalue(),
    }
    # The streets are a table of their own (a row per street and zone, only for PLZ with
    # several zones); always written, so its address never changes.
    streets = write_csv(
        d.streets.with_columns(
            pl.lit(credit_line(credits)).alias(resources.CSV_ATTRIBUTION.name)
        ).select(resources.street_csv_row().names)
    ).encode()
    yield from files.items()
    yield routes.open_file("export_streets"), streets
    yield (
        routes.open_file("datapackage"),
        json_bytes(
            datapackage(
                files,
                rows.height,
                config,
                d.sources,
                (routes.open_file("export_streets"), streets, d.streets.height),
            )
        ),
    )


def _resource(name: str, path: str, payload: bytes, fmt: str) -> dict[str, Any]:
    resource: dict[str, Any] = {
        "name": name,
        "path": path.rsplit("/", 1)[1],
        "format": fmt,
        "mediatype": http.MEDIA_TYPES["." + fmt],
        "bytes": len(payload),
        "hash": "sha256:" + file_digest(payload),
    }
    if fmt == "csv":
        resource["encoding"] = "utf-8"
        resource["dialect"] = {"delimiter": ",", "header": True}
    return resource


def datapackage(
    files: dict[str, bytes],
    count: int,
    config: Config,
    sources: tuple[MapSource, ...] = (),
    streets: tuple[str, bytes, int] | None = None,
) -> dict[str, Any]:
    """Describe the export as a Frictionless Data Package (license and credit included).

    `sources` are the map data the mapping was computed from (`mapping.json`), each with
    its file, date and license; `streets` the street table as (path, bytes, rows).
    """
    schemas = {
        fmt: {"fields": fields.table_schema(row), "primaryKey": list(PLZ_ZONES.key)}
        for fmt, row in (
            ("csv", resources.export_csv_row()),
            ("json", resources.EXPORT_ROW),
            ("parquet", resources.EXPORT_ROW),
        )
    }
    described = []
    for path, payload in files.items():
        fmt = path.rsplit(".", 1)[1]
        resource = _resource(f"plz-zonen-{fmt}", path, payload, fmt)
        resource["schema"] = schemas[fmt]
        if fmt == "json":
            resource["description"] = (
                "The rows are in the `rows` member; `attribution` carries the ODbL credit."
            )
        if fmt == "parquet":
            resource["description"] = (
                "The key-value metadata of the file carries the license, the credit and the "
                "obligations."
            )
        described.append(resource)
    if streets is not None:
        path, payload, rows = streets
        resource = _resource("strassen-csv", path, payload, "csv")
        resource["description"] = (
            f"{rows} rows: for each PLZ served by several zones, which zone each named street "
            "lies in, with the share of its length (street names from OpenStreetMap); the "
            "`attribution` column carries the ODbL credit on every row."
        )
        resource["schema"] = {
            "fields": fields.table_schema(resources.street_csv_row()),
            "primaryKey": list(STREETS.key),
            "foreignKeys": [
                {
                    "fields": ["plz", "zone_id"],
                    "reference": {"resource": "plz-zonen-csv", "fields": ["plz", "zone_id"]},
                }
            ],
        }
        described.append(resource)
    listed = [s.datapackage() for s in sources] or [
        {"title": "OpenStreetMap contributors", "path": "https://www.openstreetmap.org/copyright"}
    ]
    return {
        "name": "trinkwasser-plz-zonen",
        "title": "PLZ-Versorgungsgebiete / postal code to drinking-water supply zone mapping",
        "description": f"{count} PLZ-zone pairs. Derived from OpenStreetMap data"
        + (
            ", population shares from the Zensus 2022 population grid (dl-de/by-2-0)"
            if any(s.license == provenance.ZENSUS_LICENSE for s in sources)
            else ""
        )
        + "; contains no measured values.",
        "version": __version__,
        "homepage": config.base_url + site_urls.url("downloads"),
        "licenses": [
            {
                "name": "ODbL-1.0",
                "path": config.license_url,
                "title": "Open Data Commons Open Database License 1.0",
            }
        ],
        "contributors": [{"title": config.operator, "role": "publisher", "email": config.contact}],
        "sources": listed,
        "attribution": odbl_attribution(config.operator, config.license_url)["credit"],
        "obligations": odbl_attribution(config.operator, config.license_url)["obligations"],
        "resources": described,
    }


def api_file_count(d: Derived) -> int:
    """Return how many files `render_all` yields for the API (the site's come on top).

    A test counts the API files of a real build against it.
    """
    one_per_zone = 2  # the zone and its series
    open_route_files = 3  # the register, the export as JSON and as CSV
    return (
        d.lookups.height
        + one_per_zone * d.zones.height
        + d.suppliers.height
        + d.parameters.height
        + open_route_files
        + len(routes.OPEN_FILES)  # OpenAPI, Parquet, streets, datapackage.json, catalogue
    )


def render_all(
    d: Derived,
    as_of: dt.date,
    config: Config,
    zones: Derived | None = None,
    zone_feeds: ZoneFeeds | None = None,
    plz: frozenset[str] | None = None,
    sections: Sections | None = None,
    index: bytes | None = None,
    suppliers: frozenset[int] | None = None,
    begun: site.Begun | None = None,
) -> Iterator[tuple[str, bytes | None]]:
    """Yield (path, bytes) for every file of the tree, (path, None) for one kept as it is.

    `zones` is `d` restricted to the zones whose files are rendered (`incremental.restrict`),
    `zone_feeds` the zone feeds to render (`incremental.zone_feeds`); the files of the others
    are the caller's to keep. `plz` are the PLZ whose lookups and pages are rendered (all
    when None), the others' the caller keeps, and so for `suppliers` and their document
    and page (yielded with None to keep). `sections` says which sections are kept
    (`generator.output.sections`) and records the files of each; `index` is the search index,
    when the caller made it; `begun`, the site as `site.begin` began it, when the caller
    began it. Everything else is rendered from `d`.
    """
    zones = d if zones is None else zones
    sections = Sections() if sections is None else sections
    # A build's national pieces are made while the API's files are rendered: its `zones`
    # are always `d` restricted (to every zone in a full build). A daily update begins
    # them itself, earlier. Rendered from one `d` alone, each is made when asked for.
    begun = begun or site.begin(d, as_of, config, index, ahead=zones is not d)
    yield from sections.files("parameters", lambda: parameter_files(d))
    yield from sections.files("export", lambda: _export_and_catalog(d, config, as_of))
    chosen = with_plz(d, plz)  # the PLZ's lookups and pages read the same zones' rows
    yield from lookup_files(chosen, config)
    yield from supplier_files(d, suppliers)
    yield from zone_files(zones, as_of, config)
    yield from measurement_files(zones)
    yield from sections.files(
        "openapi", lambda: [(routes.open_file("openapi"), json_bytes(openapi.document(config)))]
    )
    yield from site.site_files(
        d, as_of, config, zones, zone_feeds, plz, sections, suppliers, begun, chosen
    )


def _export_and_catalog(d: Derived, config: Config, as_of: dt.date) -> Iterator[tuple[str, bytes]]:
    yield from export_files(d, config)
    yield routes.open_file("catalog"), catalog.turtle(d, config, as_of)
