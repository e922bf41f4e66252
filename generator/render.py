"""Stage 3: turn derived frames into bytes per path (JSON, CSV, Parquet).

Resource documents are encoded by polars (`struct.json_encode`) and joined per
group, so Python only loops over files, never over measurements. Object keys are
sorted everywhere, so the bytes depend only on the data.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterator
from typing import Any

import polars as pl

from generator import API_VERSION, openapi, site
from generator.api import fields, resources, routes
from generator.config import Config
from generator.contract import provenance
from generator.contract.provenance import MapSource
from generator.derive import Derived
from generator.encode import (
    checked,
    constant,
    document,
    json_bytes,
    json_text,
    object_bytes,
    object_text,
)
from generator.site import urls as site_urls
from generator.write import file_digest

MEASUREMENT_BATCH = 400  # zones per batch: bounds the memory of the encoded strings
ZONE_BATCH = 1000  # zones per batch: bounds the memory of the encoded strings


def _encode(frame: pl.DataFrame, doc: pl.Expr) -> pl.Series:
    return frame.select(doc.struct.json_encode()).to_series()


def _lines(paths: Iterator[str], texts: pl.Series) -> Iterator[tuple[str, bytes]]:
    for path, text in zip(paths, texts, strict=True):
        yield path, (text + "\n").encode()


# ---------------------------------------------------------------------------- documents


def attribution(d: Derived, config: Config) -> dict[str, Any]:
    """The ODbL credit of the operator, and the credits of the map data the mapping used."""
    # Keys sorted, as in every JSON object of the tree.
    sources = [dict(sorted(s.attribution().items())) for s in d.sources if s.credit]
    return {**config.attribution, "sources": sources}


def lookup_files(d: Derived, config: Config) -> Iterator[tuple[str, bytes]]:
    doc = document(
        resources.LOOKUP, attribution=constant(resources.ATTRIBUTION, attribution(d, config))
    )
    paths = (routes.file_path("lookup", plz=plz) for plz in d.lookups["plz"])
    yield from _lines(paths, _encode(d.lookups, doc))


def zone_files(d: Derived, as_of: dt.date) -> Iterator[tuple[str, bytes]]:
    per_zone = d.current_values.group_by("zone_id", maintain_order=True).agg(
        document(resources.CURRENT_VALUE).alias("current_values")
    )
    zones = d.zones.join(per_zone, on="zone_id", how="left")
    doc = document(resources.ZONE, as_of=pl.lit(as_of))
    # Encoded in batches: all zone documents at once would hold a gigabyte of text.
    for batch in zones.iter_slices(ZONE_BATCH):
        paths = (routes.file_path("zone", zone_id=z) for z in batch["zone_id"])
        yield from _lines(paths, _encode(batch, doc))


def _measurement_docs(
    rows: pl.DataFrame, docs: pl.DataFrame, by: list[str], parameter: pl.Expr
) -> pl.DataFrame:
    """Join encoded rows per group into whole documents (count, documents, measurements)."""
    grouped = rows.group_by(by, maintain_order=True).agg(
        pl.col("row").str.join(",").alias("rows"),
        pl.len().alias("count"),
        pl.col("document_id").unique().sort().alias("document_ids"),
    )
    doc_lists = (
        grouped.select(*by, pl.col("document_ids").alias("document_id"))
        .explode("document_id")
        .join(docs, on="document_id", how="left")
        .group_by(by, maintain_order=True)
        .agg(pl.col("doc_json").str.join(",").alias("documents"))
    )
    return grouped.join(doc_lists, on=by, how="left", maintain_order="left").select(
        *by,
        object_text(
            resources.MEASUREMENTS,
            count=pl.col("count").cast(pl.String),
            documents=pl.format("[{}]", pl.col("documents")),
            measurements=pl.format("[{}]", pl.col("rows")),
            parameter=parameter,
            zone_id=pl.col("zone_id").cast(pl.String),
        ).alias("text"),
    )


def measurement_files(d: Derived) -> Iterator[tuple[str, bytes]]:
    """Yield every zone's series, whole and per parameter, in batches of zones."""
    docs = d.documents.select(
        "document_id", document(resources.DOCUMENT).struct.json_encode().alias("doc_json")
    )
    m = d.measurements
    counts = m.group_by("zone_id", maintain_order=True).len()
    zone_ids, lengths = counts["zone_id"].to_list(), counts["len"].to_list()
    offset = 0
    row = document(resources.MEASUREMENT).struct.json_encode().alias("row")
    for start in range(0, len(zone_ids), MEASUREMENT_BATCH):
        size = sum(lengths[start : start + MEASUREMENT_BATCH])
        part = m.slice(offset, size)
        offset += size
        rows = part.select("zone_id", "parameter", "document_id", row)
        whole = _measurement_docs(rows, docs, ["zone_id"], pl.lit("null"))
        for zone_id, text in whole.iter_rows():
            yield routes.file_path("zone_measurements", zone_id=zone_id), text.encode()
        by_param = _measurement_docs(
            rows, docs, ["zone_id", "parameter"], pl.format('"{}"', pl.col("parameter"))
        )
        for zone_id, parameter, text in by_param.iter_rows():
            yield (
                routes.file_path("zone_measurements", zone_id=zone_id, parameter=parameter),
                text.encode(),
            )
    # Zones without any published value still answer, with an empty series.
    for zone_id in d.zones.join(counts, on="zone_id", how="anti")["zone_id"]:
        yield (
            routes.file_path("zone_measurements", zone_id=zone_id),
            object_bytes(
                resources.MEASUREMENTS,
                count=b"0",
                documents=b"[]",
                measurements=b"[]",
                parameter=b"null",
                zone_id=str(zone_id).encode(),
            ),
        )


def supplier_files(d: Derived) -> Iterator[tuple[str, bytes]]:
    s = d.suppliers
    paths = (routes.file_path("supplier", supplier_id=i) for i in s["supplier_id"])
    yield from _lines(paths, _encode(s, document(resources.SUPPLIER)))


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
    yield from _lines(paths, _encode(with_limits, document(resources.PARAMETER_LIMITS)))


# ---------------------------------------------------------------------------- export


def export_files(d: Derived, config: Config) -> Iterator[tuple[str, bytes]]:
    rows = d.export.select(resources.EXPORT_ROW.names)
    csv = rows.write_csv().encode()
    parquet = io.BytesIO()
    rows.write_parquet(parquet, compression="zstd", statistics=False)
    encoded = ",".join(_encode(rows, document(resources.EXPORT_ROW)))
    files = {
        routes.file_path("export", format="csv"): csv,
        routes.file_path("export", format="json"): object_bytes(
            resources.EXPORT,
            attribution=json_text(checked(resources.ATTRIBUTION, attribution(d, config))).encode(),
            count=str(rows.height).encode(),
            rows=f"[{encoded}]".encode(),
        ),
        routes.open_file("export_parquet"): parquet.getvalue(),
    }
    # The streets are a table of their own (a row per street and zone, only for PLZ with
    # several zones); always written, so its address never changes.
    streets = d.streets.select(resources.STREET_ROW.names).write_csv().encode()
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
    formats = {
        "csv": "text/csv",
        "json": "application/json",
        "parquet": "application/vnd.apache.parquet",
    }
    resource: dict[str, Any] = {
        "name": name,
        "path": path.rsplit("/", 1)[1],
        "format": fmt,
        "mediatype": formats[fmt],
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
    """Describe the export as a Frictionless Data Package (licence and credit included).

    `sources` are the map data the mapping was computed from (`mapping.json`), each with
    its file, date and licence; `streets` the street table as (path, bytes, rows).
    """
    schema = {
        "fields": fields.table_schema(resources.EXPORT_ROW),
        "primaryKey": ["plz", "zone_id"],
    }
    described = []
    for path, payload in files.items():
        fmt = path.rsplit(".", 1)[1]
        resource = _resource(f"plz-zonen-{fmt}", path, payload, fmt)
        resource["schema"] = schema
        if fmt == "json":
            resource["description"] = (
                "The rows are in the `rows` member; `attribution` carries the ODbL credit."
            )
        described.append(resource)
    if streets is not None:
        path, payload, rows = streets
        resource = _resource("strassen-csv", path, payload, "csv")
        resource["description"] = (
            f"{rows} rows: for each PLZ served by several zones, which zone each named street "
            "lies in, with the share of its length (street names from OpenStreetMap)."
        )
        resource["schema"] = {
            "fields": fields.table_schema(resources.STREET_ROW),
            "primaryKey": ["plz", "street", "zone_id"],
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
            if any(s.license == provenance.ZENSUS_LICENCE for s in sources)
            else ""
        )
        + "; contains no measured values.",
        "version": API_VERSION,
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
        "attribution": config.attribution["credit"],
        "resources": described,
    }


def render_all(d: Derived, as_of: dt.date, config: Config) -> Iterator[tuple[str, bytes]]:
    """Yield (path, bytes) for every file of the API tree."""
    yield from parameter_files(d)
    yield from export_files(d, config)
    yield from lookup_files(d, config)
    yield from supplier_files(d)
    yield from zone_files(d, as_of)
    yield from measurement_files(d)
    yield routes.open_file("openapi"), json_bytes(openapi.document(config))
    yield from site.site_files(d, as_of, config)
