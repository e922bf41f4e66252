"""Stage 2: derive the resource frames (pure: frames in, frames out).

Each function returns a frame whose columns are the fields of one resource, so the
render stage only has to encode rows. Nothing here builds a Python object per
measurement: every step is a polars expression over whole columns.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass

import polars as pl

from generator import units
from generator.api import resources, routes
from generator.contract import provenance
from generator.contract.provenance import MapSource
from generator.encode import document
from generator.load import SourceData
from generator.values import parse_limit_values, parse_values

# Ambiguity rule (documented in docs/api.md): a lookup is ambiguous when more than one
# zone covers a material share of the PLZ (of its inhabitants, where the population shares
# are known, else of its area), or when the best assignment is uncertain.
MATERIAL_SHARE = 0.10
LOW_CONFIDENCE = 0.5

# Shown on every zone even when never measured there, so "no data" is visible.
KEY_PARAMETERS = ("pfas_summe_20", "pfas_summe_4", "nitrat", "blei")

SIG_FIGS = 12  # converted values are rounded so unit factors leave no float noise


@dataclass(frozen=True)
class Derived:
    lookups: pl.DataFrame
    zones: pl.DataFrame
    current_values: pl.DataFrame
    measurements: pl.DataFrame
    suppliers: pl.DataFrame
    limits: pl.DataFrame
    parameters: pl.DataFrame
    export: pl.DataFrame
    documents: pl.DataFrame
    streets: pl.DataFrame
    """plz, street, zone_id, length_share: the streets of PLZ served by several zones."""
    sources: tuple[MapSource, ...] = ()
    """The map data the mapping comes from, with credits (mapping.json, else the defaults)."""


def _round(expr: pl.Expr) -> pl.Expr:
    return expr.round_sig_figs(SIG_FIGS)


def export_rows(data: SourceData) -> pl.DataFrame:
    """Return every PLZ-zone pair with names; the ODbL export (never measured values)."""
    return (
        data.plz_zones.join(
            data.zones.select("zone_id", pl.col("name").alias("zone_name"), "supplier_id"),
            on="zone_id",
        )
        .join(
            data.suppliers.select("supplier_id", pl.col("name").alias("supplier_name")),
            on="supplier_id",
        )
        .select(
            "plz",
            "zone_id",
            "zone_name",
            "supplier_id",
            "supplier_name",
            "area_share",
            "confidence",
            "population_share",
            "boundary_source",
        )
        .sort("plz", "zone_id")
    )


def streets(data: SourceData) -> pl.DataFrame:
    """Return the street table by PLZ, street and zone (the export `strassen.csv`)."""
    return data.streets.select(resources.STREET_ROW.names).sort("plz", "street", "zone_id")


def map_sources(data: SourceData) -> tuple[MapSource, ...]:
    """Return the map data the mapping was computed from, each with its credit.

    From `mapping.json` where the data directory has it; otherwise what the contract says
    the tables come from. The census grid and the street names are credited wherever the
    tables hold population shares or streets.
    """
    population = bool(data.plz_zones["population_share"].is_not_null().any())
    has_streets = data.streets.height > 0
    if data.mapping is None:
        return provenance.default_sources(population, has_streets)
    return provenance.completed(data.mapping.sources, population, has_streets)


def lookups(export: pl.DataFrame, streets: pl.DataFrame) -> pl.DataFrame:
    """Return one row per PLZ: its zones, largest first, and whether the answer is ambiguous.

    Zones are ranked by population share where the PLZ has population shares (a PLZ whose
    area lies mostly in the forest of one zone while its people live in another leads with
    the second), else by area share; the ambiguity rule weighs them the same way.
    """
    by_population = pl.col("population_share").is_not_null().any().over("plz")
    weight = (
        pl.when(by_population)
        .then(pl.col("population_share").fill_null(0.0))
        .otherwise(pl.col("area_share"))
    )
    per_zone = streets.group_by("plz", "zone_id").agg(pl.col("street").sort().alias("streets"))
    ranked = (
        export.with_columns(weight.alias("_weight"), by_population.alias("_by_population"))
        .sort(["plz", "_weight", "area_share", "zone_id"], descending=[False, True, True, False])
        .join(per_zone, on=["plz", "zone_id"], how="left", maintain_order="left")
        .with_columns(pl.col("streets").fill_null(pl.lit([], dtype=pl.List(pl.String))))
    )
    per_plz = ranked.group_by("plz", maintain_order=True).agg(
        document(
            resources.LOOKUP_ZONE,
            supplier_url=routes.url_expr("supplier", supplier_id=pl.col("supplier_id")),
            zone_url=routes.url_expr("zone", zone_id=pl.col("zone_id")),
        ).alias("zones"),
        (pl.col("_weight") >= MATERIAL_SHARE).sum().alias("_material"),
        pl.col("confidence").first().alias("_best_confidence"),
        pl.col("area_share").sum().alias("_covered"),
        pl.col("_by_population").first(),
    )
    split = pl.col("_material") > 1
    low = pl.col("_best_confidence") < LOW_CONFIDENCE
    reasons = pl.concat_list(
        pl.when(split).then(pl.lit(["split"])).otherwise(pl.lit([], dtype=pl.List(pl.String))),
        pl.when(low)
        .then(pl.lit(["low_confidence"]))
        .otherwise(pl.lit([], dtype=pl.List(pl.String))),
    )
    percent = int(MATERIAL_SHARE * 100)
    material = pl.format(
        "{} zones each {}",
        pl.col("_material"),
        pl.when(pl.col("_by_population"))
        .then(pl.lit(f"serve at least {percent}% of the inhabitants of this PLZ"))
        .otherwise(pl.lit(f"cover at least {percent}% of this PLZ")),
    )
    note = (
        pl.when(split & low)
        .then(
            pl.format(
                "{}, and the assignment of the largest is uncertain (confidence {}). Ask your "
                "supplier which zone serves your address.",
                material,
                pl.col("_best_confidence"),
            )
        )
        .when(split)
        .then(
            pl.format(
                "{}. Which one serves an address depends on the street; ask your supplier if "
                "unsure.",
                material,
            )
        )
        .when(low)
        .then(
            pl.format(
                "The assignment of this PLZ is uncertain (confidence {} is below {}).",
                pl.col("_best_confidence"),
                pl.lit(LOW_CONFIDENCE),
            )
        )
    )
    return per_plz.select(
        "plz",
        "zones",
        pl.when(pl.col("_by_population"))
        .then(pl.lit("population_share"))
        .otherwise(pl.lit("area_share"))
        .alias("ranked_by"),
        (split | low).alias("ambiguous"),
        reasons.alias("ambiguity_reasons"),
        note.alias("ambiguity_note"),
        _round(pl.col("_covered")).alias("covered_share"),
    )


def _limits_for(
    limits: pl.DataFrame, params: pl.DataFrame, as_of: dt.date
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return (current, future) limits per code, converted to the register unit."""
    pairs = (
        limits.select("unit")
        .unique()
        .join(params.select(pl.col("unit").alias("parameter_unit")).unique(), how="cross")
    )
    pairs = units.factor_frame(pairs, "unit", "parameter_unit")
    conv = (
        limits.join(params.select("code", pl.col("unit").alias("parameter_unit")), on="code")
        .join(pairs, on=["unit", "parameter_unit"], how="left")
        .select(
            "code",
            "kind",
            "valid_from",
            "valid_until",
            "legal_basis",
            "requirement",
            pl.col("factor").is_null().alias("unit_mismatch"),
            _round(pl.col("value") * pl.col("factor")).alias("value"),
            _round(pl.col("value_min") * pl.col("factor")).alias("value_min"),
            _round(pl.col("value_max") * pl.col("factor")).alias("value_max"),
            pl.col("parameter_unit").alias("unit"),
        )
    )
    in_force = (pl.col("valid_from") <= as_of) & (
        pl.col("valid_until").is_null() | (pl.col("valid_until") >= as_of)
    )
    current = conv.filter(in_force).sort("code", "valid_from").unique("code", keep="last")
    future = (
        conv.filter(pl.col("valid_from") > as_of)
        .sort("code", "valid_from")
        .unique("code", keep="first")
    )
    return current, future


def _classify(prefix: str) -> pl.Expr:
    """Return the state of each row against the limit columns named `{prefix}*`."""
    v = pl.col("normalized_value")
    rl = pl.col("normalized_reporting_limit")
    q = pl.col("qualifier")
    lim = pl.col(f"{prefix}value")
    lo, hi = pl.col(f"{prefix}value_min"), pl.col(f"{prefix}value_max")
    kind = pl.col(f"{prefix}kind")
    numeric = q == "number"
    return (
        pl.when(kind.is_null())
        .then(pl.lit("no_limit"))
        .when(pl.col(f"{prefix}unit_mismatch"))
        .then(pl.lit("unit_mismatch"))
        .when(kind == "requirement")
        .then(pl.lit("requirement"))
        .when(q == "not_detected")
        .then(pl.lit("not_detected"))
        .when(kind == "range")
        .then(
            pl.when(numeric & (v >= lo) & (v <= hi))
            .then(pl.lit("within_range"))
            .when(numeric)
            .then(pl.lit("outside_range"))
            .otherwise(pl.lit("not_assessable"))
        )
        .when(numeric)
        .then(pl.when(v <= lim).then(pl.lit("below_limit")).otherwise(pl.lit("exceeds_limit")))
        .when(q == "below_reporting_limit")
        .then(
            pl.when(rl <= lim)
            .then(pl.lit("below_reporting_limit"))
            .otherwise(pl.lit("not_assessable"))
        )
        .when((q == "range") & (v <= lim))
        .then(pl.lit("below_limit"))
        .when((q == "above") & (v >= lim))
        .then(pl.lit("exceeds_limit"))
        .otherwise(pl.lit("not_assessable"))
    )


def _limit_struct(prefix: str) -> pl.Expr:
    return pl.when(pl.col(f"{prefix}kind").is_not_null()).then(
        document(resources.LIMIT, prefix=prefix)
    )


def classify(
    values: pl.DataFrame, limits: pl.DataFrame, params: pl.DataFrame, as_of: dt.date
) -> pl.DataFrame:
    """Add `state`, `limit`, `future_state`, `future_limit` to rows of (parameter, values).

    `values` needs: parameter, qualifier, normalized_value, normalized_reporting_limit.
    The future columns are set only where a different limit is already announced.
    """
    current, future = _limits_for(limits, params, as_of)
    cur = current.rename({c: f"cur_{c}" for c in current.columns if c != "code"})
    fut = future.rename({c: f"fut_{c}" for c in future.columns if c != "code"})
    joined = values.join(cur, left_on="parameter", right_on="code", how="left").join(
        fut, left_on="parameter", right_on="code", how="left"
    )
    has_future = pl.col("fut_kind").is_not_null()
    return joined.with_columns(
        _classify("cur_").alias("state"),
        _limit_struct("cur_").alias("limit"),
        pl.when(has_future).then(_classify("fut_")).alias("future_state"),
        _limit_struct("fut_").alias("future_limit"),
    ).drop([c for c in joined.columns if c.startswith(("cur_", "fut_"))])


def _normalized(measurements: pl.DataFrame) -> pl.DataFrame:
    return measurements.with_columns(
        _round(pl.col("value_std")).alias("normalized_value"),
        _round(pl.col("reporting_limit_std")).alias("normalized_reporting_limit"),
    )


def current_values(data: SourceData, measurements: pl.DataFrame, as_of: dt.date) -> pl.DataFrame:
    """Return the latest sample per zone and parameter, classified, with provenance.

    `measurements` is the sorted series of `measurement_rows`, so the last row of each
    (zone, parameter) group up to `as_of` is the latest sample.
    """
    latest = (
        measurements.filter(pl.col("sampled_at") <= as_of)
        .group_by(["zone_id", "parameter"], maintain_order=True)
        .last()
    )
    key = pl.DataFrame({"parameter": list(KEY_PARAMETERS)}).join(
        data.parameters.select(pl.col("code").alias("parameter")), on="parameter", how="semi"
    )
    missing = (
        data.zones.select("zone_id")
        .join(key, how="cross")
        .join(latest.select("zone_id", "parameter"), on=["zone_id", "parameter"], how="anti")
    )
    values = pl.concat([latest.drop("normalized_unit"), missing], how="diagonal_relaxed")
    values = classify(values, data.limits, data.parameters, as_of)
    values = values.with_columns(
        pl.when(pl.col("value_text").is_null())
        .then(pl.lit("not_measured"))
        .otherwise(pl.col("state"))
        .alias("state"),
        pl.when(pl.col("value_text").is_null())
        .then(None)
        .otherwise(pl.col("future_state"))
        .alias("future_state"),
    )
    docs = data.documents.select("document_id", document(resources.DOCUMENT).alias("provenance"))
    names = data.parameters.select(
        pl.col("code").alias("parameter"),
        "name_de",
        "name_en",
        pl.col("unit").alias("normalized_unit"),
        "group",
    )
    return (
        values.join(docs, on="document_id", how="left")
        .join(names, on="parameter", how="left")
        .with_columns(
            routes.url_expr(
                "zone_measurements", zone_id=pl.col("zone_id"), parameter=pl.col("parameter")
            ).alias("measurements_url")
        )
        .sort("zone_id", "parameter")
    )


def measurement_rows(data: SourceData) -> pl.DataFrame:
    """Return every data point, sorted by zone, parameter, date (the verbatim series)."""
    # The loader already sorted the table; adding columns does not copy the others.
    units_by_code = data.parameters.select("code", "unit")
    return _normalized(data.measurements).with_columns(
        pl.col("parameter")
        .replace_strict(units_by_code["code"], units_by_code["unit"], default=None)
        .alias("normalized_unit")
    )


def zones(data: SourceData) -> pl.DataFrame:
    """Return one row per zone with its supplier and the PLZs it serves."""
    plz = data.plz_zones.sort("plz").group_by("zone_id").agg(pl.col("plz"))
    return (
        data.zones.join(
            data.suppliers.select("supplier_id", pl.col("name").alias("supplier_name")),
            on="supplier_id",
        )
        .join(plz, on="zone_id", how="left")
        .with_columns(
            pl.col("plz").fill_null(pl.lit([], dtype=pl.List(pl.String))),
            document(
                resources.ZONE_SUPPLIER,
                name=pl.col("supplier_name"),
                url=routes.url_expr("supplier", supplier_id=pl.col("supplier_id")),
            ).alias("supplier"),
            routes.url_expr("zone_measurements", zone_id=pl.col("zone_id")).alias(
                "measurements_url"
            ),
        )
        .sort("zone_id")
    )


def suppliers(data: SourceData) -> pl.DataFrame:
    """Return one row per supplier with its zones and documents."""
    plz_count = data.plz_zones.group_by("zone_id").len("plz_count")
    zone_list = (
        data.zones.join(plz_count, on="zone_id", how="left")
        .with_columns(pl.col("plz_count").fill_null(0))
        .sort("zone_id")
        .group_by("supplier_id")
        .agg(
            document(
                resources.SUPPLIER_ZONE,
                zone_url=routes.url_expr("zone", zone_id=pl.col("zone_id")),
            ).alias("zones")
        )
    )
    doc_list = (
        data.documents.sort("edition_date", "document_id")
        .group_by("supplier_id")
        .agg(document(resources.DOCUMENT).alias("documents"))
    )
    return (
        data.suppliers.join(zone_list, on="supplier_id", how="left")
        .join(doc_list, on="supplier_id", how="left")
        .with_columns(pl.col("zones", "documents").fill_null([]))
        .sort("supplier_id")
    )


def parameters(data: SourceData) -> pl.DataFrame:
    """Return the register with a flag telling whether a limit exists."""
    with_limit = data.limits.select(pl.col("code").unique())
    return data.parameters.with_columns(
        pl.col("code").is_in(with_limit["code"].implode()).alias("has_limit"),
        routes.url_expr("parameter_limits", code=pl.col("code")).alias("limits_url"),
    ).sort("code")


# ---------------------------------------------------------------------------- published values


def measurement_values(measurements: pl.DataFrame, parameters: pl.DataFrame) -> pl.DataFrame:
    """Add what `value_text` states, as published and in the register unit of the parameter.

    `value`, `qualifier`, `reporting_limit` come from `generator.values.parse_values`;
    `value_std` and `reporting_limit_std` are the same numbers times the unit factor. The
    loader has checked that every unit converts, so a factor is never missing here.
    """
    # Suppliers repeat the same few thousand spellings across millions of rows: parse each
    # distinct text once. Joins below touch only their key columns and the result is
    # stacked beside the table, so the 10-million-row frame is never copied whole.
    parsed = parse_values(measurements.select(pl.col("value_text").unique()))
    derived = measurements.select("value_text").join(
        parsed, on="value_text", how="left", nulls_equal=True, maintain_order="left"
    )
    pairs = measurements.select("unit", "parameter").unique()
    pairs = pairs.join(
        parameters.select(pl.col("code").alias("parameter"), pl.col("unit").alias("_to")),
        on="parameter",
        how="inner",
    )
    pairs = units.factor_frame(pairs, "unit", "_to")
    factor = (
        measurements.select("unit", "parameter")
        .join(pairs, on=["unit", "parameter"], how="left", maintain_order="left")
        .get_column("factor")
    )
    return measurements.hstack(derived.drop("value_text")).with_columns(
        (pl.col("value") * factor).alias("value_std"),
        (pl.col("reporting_limit") * factor).alias("reporting_limit_std"),
    )


def with_values(data: SourceData) -> SourceData:
    """Return `data` with the published values of measurements and limits read."""
    return dataclasses.replace(
        data,
        measurements=measurement_values(data.measurements, data.parameters),
        limits=parse_limit_values(data.limits),
    )


def derive(data: SourceData, as_of: dt.date) -> Derived:
    """Run every derivation."""
    data = with_values(data)
    export = export_rows(data)
    street_rows = streets(data)
    series = measurement_rows(data)
    return Derived(
        lookups=lookups(export, street_rows),
        zones=zones(data),
        current_values=current_values(data, series, as_of),
        measurements=series,
        suppliers=suppliers(data),
        limits=data.limits.sort("code", "valid_from"),
        parameters=parameters(data),
        export=export,
        documents=data.documents.sort("document_id"),
        streets=street_rows,
        sources=map_sources(data),
    )
