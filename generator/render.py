"""Stage 3: turn derived frames into bytes per path (JSON, CSV, Parquet).

Resource documents are encoded by polars (`struct.json_encode`) and joined per
group, so Python only loops over files, never over measurements. Object keys are
sorted everywhere, so the bytes depend only on the data.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterator

import polars as pl

from generator import API_VERSION, openapi, site
from generator.api import routes
from generator.config import Config
from generator.derive import Derived
from generator.encode import const, json_bytes, obj
from generator.site import urls as site_urls
from generator.write import file_digest

MEASUREMENT_BATCH = 400  # zones per batch: bounds the memory of the encoded strings
ZONE_BATCH = 1000  # zones per batch: bounds the memory of the encoded strings


def _encode(frame: pl.DataFrame, doc: pl.Expr) -> pl.Series:
    return frame.select(doc.struct.json_encode()).to_series()


def _wrap(*parts: pl.Expr | str) -> pl.Expr:
    return pl.concat_str([pl.lit(p) if isinstance(p, str) else p for p in parts])


# ---------------------------------------------------------------------------- documents


def _doc(document_id: str = "document_id") -> pl.Expr:
    return obj(
        pl.col(document_id).alias("document_id"),
        pl.col("edition_date"),
        pl.col("retrieved_date"),
        pl.col("title"),
        pl.col("url"),
    )


def lookup_files(d: Derived, config: Config) -> Iterator[tuple[str, bytes]]:
    doc = obj(
        pl.col("ambiguity_note"),
        pl.col("ambiguity_reasons"),
        pl.col("ambiguous"),
        const(config.attribution).alias("attribution"),
        pl.col("covered_share"),
        pl.col("plz"),
        pl.col("zones"),
    )
    encoded = _encode(d.lookups, doc)
    for plz, text in zip(d.lookups["plz"], encoded, strict=True):
        yield routes.file_path("lookup", plz=plz), (text + "\n").encode()


def zone_files(d: Derived, as_of: dt.date) -> Iterator[tuple[str, bytes]]:
    cv = d.current_values
    value = obj(
        *(
            pl.col(c)
            for c in (
                "future_limit",
                "future_state",
                "group",
                "limit",
                "name_de",
                "name_en",
                "normalized_reporting_limit",
                "normalized_unit",
                "normalized_value",
                "parameter",
                "provenance",
                "qualifier",
                "reporting_limit",
                "sample_point",
                "sampled_at",
                "state",
                "unit",
                "value",
                "value_text",
            )
        ),
        pl.format("/v1/zones/{}/measurements?parameter={}", "zone_id", "parameter").alias(
            "measurements_url"
        ),
    )
    per_zone = cv.group_by("zone_id", maintain_order=True).agg(value.alias("current_values"))
    zones = d.zones.join(per_zone, on="zone_id", how="left")
    doc = obj(
        pl.lit(as_of).alias("as_of"),
        pl.col("current_values"),
        pl.format("/v1/zones/{}/measurements", "zone_id").alias("measurements_url"),
        pl.col("name"),
        pl.col("plz"),
        pl.col("population"),
        obj(
            pl.col("supplier_id"),
            pl.col("supplier_name").alias("name"),
            pl.format("/v1/suppliers/{}", "supplier_id").alias("url"),
        ).alias("supplier"),
        pl.col("water_source"),
        pl.col("zone_id"),
    )
    # Encoded in batches: all zone documents at once would hold a gigabyte of text.
    for batch in zones.iter_slices(ZONE_BATCH):
        for zone_id, text in zip(batch["zone_id"], _encode(batch, doc), strict=True):
            yield routes.file_path("zone", zone_id=zone_id), (text + "\n").encode()


_MEASUREMENT_ROW = obj(
    *(
        pl.col(c)
        for c in (
            "document_id",
            "normalized_reporting_limit",
            "normalized_unit",
            "normalized_value",
            "parameter",
            "qualifier",
            "reporting_limit",
            "sample_point",
            "sampled_at",
            "unit",
            "value",
            "value_text",
        )
    )
)


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
        _wrap(
            '{"count":',
            pl.col("count").cast(pl.String),
            ',"documents":[',
            pl.col("documents"),
            '],"measurements":[',
            pl.col("rows"),
            '],"parameter":',
            parameter,
            ',"zone_id":',
            pl.col("zone_id").cast(pl.String),
            "}\n",
        ).alias("text"),
    )


def measurement_files(d: Derived) -> Iterator[tuple[str, bytes]]:
    """Yield every zone's series, whole and per parameter, in batches of zones."""
    docs = d.documents.select("document_id", _doc().struct.json_encode().alias("doc_json"))
    m = d.measurements
    counts = m.group_by("zone_id", maintain_order=True).len()
    zone_ids, lengths = counts["zone_id"].to_list(), counts["len"].to_list()
    offset = 0
    for start in range(0, len(zone_ids), MEASUREMENT_BATCH):
        size = sum(lengths[start : start + MEASUREMENT_BATCH])
        part = m.slice(offset, size)
        offset += size
        rows = part.select(
            "zone_id",
            "parameter",
            "document_id",
            _MEASUREMENT_ROW.struct.json_encode().alias("row"),
        )
        whole = _measurement_docs(rows, docs, ["zone_id"], pl.lit("null"))
        for zone_id, text in whole.iter_rows():
            yield routes.file_path("zone_measurements", zone_id=zone_id), text.encode()
        by_param = _measurement_docs(
            rows, docs, ["zone_id", "parameter"], _wrap('"', pl.col("parameter"), '"')
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
            json_bytes(
                {
                    "count": 0,
                    "documents": [],
                    "measurements": [],
                    "parameter": None,
                    "zone_id": zone_id,
                }
            ),
        )


def supplier_files(d: Derived) -> Iterator[tuple[str, bytes]]:
    s = d.suppliers
    doc = obj(
        pl.col("city"),
        pl.col("documents").fill_null([]),
        pl.col("name"),
        pl.col("supplier_id"),
        pl.col("website"),
        pl.col("zones").fill_null([]),
    )
    for supplier_id, text in zip(s["supplier_id"], _encode(s, doc), strict=True):
        yield routes.file_path("supplier", supplier_id=supplier_id), (text + "\n").encode()


def parameter_files(d: Derived) -> Iterator[tuple[str, bytes]]:
    params = d.parameters
    register = [
        dict(r, limits_url=routes.url("parameter_limits", code=r["code"]))
        for r in params.to_dicts()
    ]
    yield (
        routes.file_path("parameters"),
        json_bytes({"count": len(register), "parameters": register}),
    )
    limits = d.limits.select(
        "code",
        "kind",
        "limit_value",
        "value",
        "value_min",
        "value_max",
        "requirement",
        "unit",
        pl.col("valid_from").cast(pl.String),
        pl.col("valid_until").cast(pl.String),
        "legal_basis",
        "note",
        "source_url",
    )
    by_code: dict[str, list[dict]] = {}
    for row in limits.to_dicts():
        by_code.setdefault(row.pop("code"), []).append(row)
    for p in params.iter_rows(named=True):
        yield (
            routes.file_path("parameter_limits", code=p["code"]),
            json_bytes(
                {
                    "code": p["code"],
                    "name_de": p["name_de"],
                    "name_en": p["name_en"],
                    "unit": p["unit"],
                    "limits": by_code.get(p["code"], []),
                }
            ),
        )


# ---------------------------------------------------------------------------- export

EXPORT_FIELDS = {
    "plz": ("string", "German postal code (five digits)."),
    "zone_id": ("integer", "Id of the supply zone (/v1/zones/{zone_id})."),
    "zone_name": ("string", "Name of the supply zone."),
    "supplier_id": ("integer", "Id of the supplier operating the zone."),
    "supplier_name": ("string", "Name of the supplier."),
    "area_share": ("number", "Share of the PLZ area inside the zone, in (0, 1]."),
    "confidence": ("number", "How sure the assignment is, in [0, 1]."),
}


def export_files(d: Derived, config: Config) -> Iterator[tuple[str, bytes]]:
    rows = d.export.select(list(EXPORT_FIELDS))
    csv = rows.write_csv().encode()
    parquet = io.BytesIO()
    rows.write_parquet(parquet, compression="zstd", statistics=False)
    encoded = ",".join(_encode(rows, obj(*(pl.col(c) for c in EXPORT_FIELDS))))
    head = json_bytes({"attribution": config.attribution, "count": rows.height})[:-2]
    document = head + b',"rows":[' + encoded.encode() + b"]}\n"
    files = {
        "v1/export/plz-zonen.csv": csv,
        "v1/export/plz-zonen.json": document,
        "v1/export/plz-zonen.parquet": parquet.getvalue(),
    }
    yield from files.items()
    yield "v1/export/datapackage.json", json_bytes(datapackage(files, rows.height, config))


def datapackage(files: dict[str, bytes], count: int, config: Config) -> dict:
    """Describe the export as a Frictionless Data Package (licence and credit included)."""
    schema = {
        "fields": [
            {"name": n, "type": t, "description": desc} for n, (t, desc) in EXPORT_FIELDS.items()
        ],
        "primaryKey": ["plz", "zone_id"],
    }
    formats = {
        "csv": "text/csv",
        "json": "application/json",
        "parquet": "application/vnd.apache.parquet",
    }
    resources = []
    for path, payload in files.items():
        name = path.rsplit("/", 1)[1]
        fmt = name.rsplit(".", 1)[1]
        resource = {
            "name": f"plz-zonen-{fmt}",
            "path": name,
            "format": fmt,
            "mediatype": formats[fmt],
            "bytes": len(payload),
            "hash": "sha256:" + file_digest(payload),
            "schema": schema,
        }
        if fmt == "csv":
            resource["encoding"] = "utf-8"
            resource["dialect"] = {"delimiter": ",", "header": True}
        if fmt == "json":
            resource["description"] = (
                "The rows are in the `rows` member; `attribution` carries the ODbL credit."
            )
        resources.append(resource)
    return {
        "name": "trinkwasser-plz-zonen",
        "title": "PLZ-Versorgungsgebiete / postal code to drinking-water supply zone mapping",
        "description": f"{count} PLZ-zone pairs. Derived from OpenStreetMap data; "
        "contains no measured values.",
        "version": API_VERSION,
        "homepage": config.base_url + site_urls.PAGES["downloads"],
        "licenses": [
            {
                "name": "ODbL-1.0",
                "path": config.license_url,
                "title": "Open Data Commons Open Database License 1.0",
            }
        ],
        "contributors": [{"title": config.operator, "role": "publisher", "email": config.contact}],
        "sources": [
            {
                "title": "OpenStreetMap contributors",
                "path": "https://www.openstreetmap.org/copyright",
            }
        ],
        "attribution": config.attribution["credit"],
        "resources": resources,
    }


def render_all(d: Derived, as_of: dt.date, config: Config) -> Iterator[tuple[str, bytes]]:
    """Yield (path, bytes) for every file of the API tree."""
    yield from parameter_files(d)
    yield from export_files(d, config)
    yield from lookup_files(d, config)
    yield from supplier_files(d)
    yield from zone_files(d, as_of)
    yield from measurement_files(d)
    yield "v1/openapi.json", json_bytes(openapi.document(config))
    yield from site.site_files(d, as_of, config)
