"""Stage 2: derive the resource frames (pure: frames in, frames out).

Each function returns a frame whose columns are the fields of one resource, so the
render stage only has to encode rows. Nothing here builds a Python object per
measurement: every step is a polars expression over whole columns.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl

from generator import compare
from generator.api import resources, routes, verdicts
from generator.contract import provenance
from generator.contract.provenance import MapSource
from generator.frames.compact import as_text, compact
from generator.frames.slices import rows_of, side_by_side
from generator.frames.zone_values import Run, ZoneValues
from generator.load import SourceData
from generator.ordinance import staleness, summary, sums
from generator.ordinance.classify import assess
from generator.ordinance.current import (
    newest_rows,
    notes_de,
    standing,
    worst_point,
)
from generator.output.encode import document
from generator.values import published
from generator.values.parse import parse_limit_values
from generator.values.published import with_numbers
from generator.values.units import SIG_FIGS

__all__ = [
    "KEY_PARAMETERS",
    "MATERIAL_SHARE",
    "Derived",
    "assess",
    "derive",
    "standing",
    "with_links",
    "with_numbers",
    "with_values",
]

# Ambiguity rule (documented in docs/api.md): a lookup is ambiguous when more than one
# zone covers a material share of the PLZ (of its inhabitants, where the population shares
# are known, else of its area), or when the best assignment is uncertain.
MATERIAL_SHARE = 0.10
LOW_CONFIDENCE = 0.5

# Shown on every zone even when never measured there, so "no data" is visible.
KEY_PARAMETERS = ("pfas_summe_20", "pfas_summe_4", "nitrat", "blei")
ZONES = 2000
"""Zones per batch when the current values are classified."""


@dataclass(frozen=True)
class Derived:
    lookups: pl.DataFrame
    zones: pl.DataFrame
    """With `summary` (the verdict) and `checks` (rules over several parameters)."""
    current_values: ZoneValues
    """Without `provenance` and `measurements_url`: `with_links` adds them to a batch.

    In a daily update most zones' rows are the previous build's, read when asked for.
    """
    measurements: pl.DataFrame
    """The series; its text columns are Enums (`generator.frames.compact`): read it with `as_text`.

    Its numbers are the `readings` of its `reading` column: read them with `with_numbers`.
    Left unread (the rows as loaded, no `reading`) when derive took most zones' current
    values from the previous build: `series_of` reads the rows of the zones rendered.
    """
    readings: pl.DataFrame
    """The numbers of each reading (`generator.values.published`); none till the series is read."""
    zone_documents: pl.DataFrame
    """Per zone and document its samples up to the build date (`staleness.zone_documents`)."""
    suppliers: pl.DataFrame
    limits: pl.DataFrame
    parameters: pl.DataFrame
    export: pl.DataFrame
    documents: pl.DataFrame
    streets: pl.DataFrame
    """plz, street, zone_id, length_share: the streets of PLZ served by several zones."""
    places: pl.DataFrame
    """Names and coordinates per PLZ (no rows without a places table)."""
    explanations: pl.DataFrame
    """One row per register code with an explanation; `sources` as (title, url) structs."""
    hardness_ranges: pl.DataFrame
    sources: tuple[MapSource, ...] = ()
    """The map data the mapping comes from, with credits (mapping.json, else the defaults)."""
    plz_shapes: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(
            schema={"plz": pl.String, "land": pl.String, "shape": pl.String}
        )
    )
    """The PLZ areas for the national map (no rows without a plz_shapes table)."""
    standings: pl.DataFrame = field(default_factory=compare.empty)
    """Where each zone's compared values stand among all zones' (`generator.compare`)."""
    distributions: pl.DataFrame = field(default_factory=compare.empty_distributions)
    """The national distribution of each compared parameter (`generator.compare`)."""
    cadence_months: int = staleness.DEFAULT_CADENCE_MONTHS
    """The operator's publication cadence the verdicts were derived with (`old` points)."""


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


def current_values(
    data: SourceData,
    measurements: pl.DataFrame,
    readings: pl.DataFrame,
    as_of: dt.date,
    computed: pl.DataFrame,
    cadence_months: int = staleness.DEFAULT_CADENCE_MONTHS,
) -> pl.DataFrame:
    """Return the value that stands per zone and parameter, classified (`with_links` adds links).

    `measurements` is the sorted series of `published.read_series`, so the last row of each
    (zone, parameter) group up to `as_of` is the latest sample. `computed` holds the sums
    computed from their members (`sums.computed`): they cross-check published sums, and
    where a zone publishes only the members, the computed sum is the current value.
    """
    chosen = newest_rows(measurements, as_of)
    latest = measurements.select(pl.all().gather(chosen)).drop("normalized_unit")
    latest = as_text(with_numbers(latest, readings))
    del chosen
    key = pl.DataFrame({"parameter": list(KEY_PARAMETERS)}).join(
        data.parameters.select(pl.col("code").alias("parameter")), on="parameter", how="semi"
    )

    def rows_of(latest: pl.DataFrame, zones: pl.Series) -> pl.DataFrame:
        """Return the rows that stand for these zones' parameters, with sums and key ones."""
        chosen = pl.col("zone_id").is_in(zones.implode())
        rows = sums.with_sums(latest.filter(chosen), computed.filter(chosen), data.parameters)
        missing = (
            data.zones.select("zone_id")
            .filter(chosen)
            .join(key, how="cross")
            .join(rows.select("zone_id", "parameter"), on=["zone_id", "parameter"], how="anti")
        )
        return pl.concat([rows, missing], how="diagonal_relaxed")

    # Summed and classified in batches of whole zones (a verdict looks at one zone's rows
    # only): the sums' and verdicts' structs of every zone at once were the peak of derive.
    ids = pl.concat([data.zones.get_column("zone_id"), latest.get_column("zone_id")])
    ids = ids.unique().sort()
    parts = [
        _classified(data, rows_of(latest, ids.slice(i, ZONES)), as_of, cadence_months)
        for i in range(0, max(ids.len(), 1), ZONES)
    ]
    del latest
    # The batches are disjoint runs of zones in order, each sorted: put side by side, they
    # are sorted as a whole without a sorted copy of everything.
    return side_by_side(parts)


def _classified(
    data: SourceData, values: pl.DataFrame, as_of: dt.date, cadence_months: int
) -> pl.DataFrame:
    """Assess each sample point of some zones' parameters, keep the worst; add notes."""
    points = assess(values, data.limits, data.parameters, as_of)
    values = worst_point(points, as_of, cadence_months)
    decisions = data.pesticides.select(
        pl.col("code").alias("parameter"), pl.col("decision").alias("_decision")
    )
    unmeasured = pl.col("value_text").is_null()
    unclear = pl.col("_decision") == "unclear"
    values = (
        values.join(decisions, on="parameter", how="left")
        .with_columns(
            pl.when(unmeasured)
            .then(pl.lit("not_measured"))
            .when(unclear)
            .then(pl.lit("relevance_unclear"))
            .otherwise(pl.col("state"))
            .alias("state"),
            pl.when(unmeasured | unclear)
            .then(None)
            .otherwise(pl.col("future_state"))
            .alias("future_state"),
            pl.col("origin").fill_null("published"),
        )
        .with_columns(notes_de(data.pesticides, data.limits).alias("note_de"))
        .drop("_decision", "reason", "sum_note", "sum_blocking_rl")
    )
    names = data.parameters.select(
        pl.col("code").alias("parameter"),
        "name_de",
        "name_en",
        pl.col("unit").alias("normalized_unit"),
        "group",
    )
    return values.join(names, on="parameter", how="left").sort("zone_id", "parameter")


def with_links(values: pl.DataFrame, documents: pl.DataFrame) -> pl.DataFrame:
    """Add `provenance` (the cited document) and `measurements_url` to current values.

    Added to each batch as it is rendered, not held in `Derived.current_values`: a copy of
    the document in each of a million rows was a fifth of that frame.
    """
    docs = documents.select("document_id", document(resources.DOCUMENT).alias("provenance"))
    return values.join(docs, on="document_id", how="left", maintain_order="left").with_columns(
        # A computed sum has no series of its own: its members are in the zone's.
        pl.when(pl.col("origin") == "computed")
        .then(routes.url_expr("zone_measurements", zone_id=pl.col("zone_id")))
        .otherwise(
            routes.url_expr(
                "zone_measurements", zone_id=pl.col("zone_id"), parameter=pl.col("parameter")
            )
        )
        .alias("measurements_url")
    )


# Which published values stand for a (zone, parameter): every row of the latest date; on that
# date samples beat any aggregate, and among aggregates the maximum beats the mean beats the
# minimum (`sums.newest`). Of several sample points, the worst stands (documented in
# docs/api.md).
def is_read(d: Derived) -> bool:
    """Whether the series has its readings (`series_of` reads them).

    Derive leaves it unread when it took the current values of most zones from the
    previous build.
    """
    return published.READING in d.measurements.columns


def series_of(d: Derived, zones: pl.Series | None = None) -> Derived:
    """Return `d` with the series' rows of these zones only (all when None), read.

    A daily update reads only the rows of the zones whose files it renders: the others'
    were most of ten million rows, read for nothing. `zones` sorted and distinct.
    """
    rows = d.measurements if zones is None else rows_of(d.measurements, "zone_id", zones)
    if is_read(d):
        return dataclasses.replace(d, measurements=rows)
    series, readings = published.read_series(rows, d.parameters)
    return dataclasses.replace(d, measurements=compact(series), readings=readings)


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
    """Return the register: whether the ordinance sets a value, pesticide status, sums."""
    with_limit = data.limits.filter(pl.col("kind").is_in(verdicts.ORDINANCE_KINDS))
    status = data.pesticides.select(
        "code",
        document(
            resources.PESTICIDE_STATUS,
            source_title=pl.col("source_title"),
        ).alias("pesticide_status"),
    )
    member_of = (
        sums.members(data.pesticides, data.parameters)
        .filter(~pl.col("sum_code").is_in(sums.CHECK_CODES) & ~pl.col("open"))
        .sort("sum_code")
        .group_by("parameter")
        .agg(pl.col("sum_code").alias("sums"))
        .rename({"parameter": "code"})
    )
    return (
        data.parameters.with_columns(
            pl.col("code").is_in(with_limit["code"].unique().implode()).alias("has_limit"),
            routes.url_expr("parameter_limits", code=pl.col("code")).alias("limits_url"),
        )
        .join(status, on="code", how="left")
        .join(member_of, on="code", how="left")
        .with_columns(pl.col("sums").fill_null(pl.lit([], dtype=pl.List(pl.String))))
        .sort("code")
    )


def explanations(data: SourceData) -> pl.DataFrame:
    """Return the explanation of every register code that has one, its sources as a list."""
    source = pl.element().str.split_exact(" | ", 1).struct.rename_fields(["title", "url"])
    return (
        data.explained_parameters.join(data.parameters.select("code"), on="code", how="semi")
        .join(data.explanations, on="topic")
        .with_columns(
            pl.col("sources").str.split(" ;; ").list.eval(source),
            pl.col("unsourced")
            .fill_null("")
            .str.split(" ")
            .list.eval(pl.element().filter(pl.element() != "")),
        )
        .sort("code")
    )


def with_plz(d: Derived, plz: frozenset[str] | None) -> Derived:
    """Return `d` with only the lookups of the given PLZ and the zones serving them.

    For rendering the lookups and pages of some PLZ (all when None); the files of the
    others are kept.
    """
    if plz is None:
        return d
    chosen = pl.col("plz").is_in(pl.Series(sorted(plz), dtype=pl.String).implode())
    lookups = d.lookups.filter(chosen)
    served = lookups.select(pl.col("zones").list.eval(pl.element().struct.field("zone_id")))
    ids = served.to_series().explode().drop_nulls().unique().sort()
    return dataclasses.replace(
        d,
        lookups=lookups,
        zones=d.zones.filter(pl.col("zone_id").is_in(ids.implode())),
        current_values=ZoneValues(d.current_values.of(ids)),
    )


def read_values(data: SourceData) -> tuple[SourceData, pl.DataFrame]:
    """Return `data` with the limits' values read and a `reading` per data point; the readings.

    `generator.values.published` says what a reading is; `with_numbers` puts its numbers
    beside rows.
    """
    series, readings = published.read(data.measurements, data.parameters)
    limits = parse_limit_values(data.limits)
    return dataclasses.replace(data, measurements=series, limits=limits), readings


def with_values(data: SourceData) -> SourceData:
    """Return `data` with the published values of measurements and limits read, as columns."""
    data, readings = read_values(data)
    return dataclasses.replace(data, measurements=with_numbers(data.measurements, readings))


@dataclass(frozen=True)
class Kept:
    """Rows an earlier build derived for zones whose own data is unchanged.

    Taken by `generator.incremental.reuse`.
    """

    zone_ids: pl.Series
    """Sorted."""
    runs: tuple[Run, ...]
    """The previous build's files of current values: those zones' rows are read from them."""
    zone_rows: pl.LazyFrame
    """Those zones' `zone_id`, `summary` and `checks` of `Derived.zones`."""
    zone_documents: pl.LazyFrame
    """Those zones' rows of `Derived.zone_documents`."""
    national_rows: pl.LazyFrame
    """Every zone's rows of `ZoneValues.national` in that build: of those zones they count."""


def zone_verdicts(
    data: SourceData,
    series: pl.DataFrame,
    readings: pl.DataFrame,
    zones: pl.DataFrame,
    as_of: dt.date,
    cadence_months: int = staleness.DEFAULT_CADENCE_MONTHS,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return the zones' current values, and per zone its `summary` and `checks`.

    The ordinance's rules in order: the values published by `as_of` (`published_by`), the
    sums computed from their members, each sample
    point's newest values assessed on what they prove (`current_values`), the checks over
    several parameters, and each zone's verdict over all of them. `series` is the read
    series of these zones (`published.read_series`), `zones` the rows of `zones()`.
    """
    series = published_by(series, data.documents, as_of)
    member_table = sums.members(data.pesticides, data.parameters)
    samples = with_numbers(sums.current_samples(series, member_table, as_of), readings)
    computed = sums.computed(samples, member_table, as_of)
    del samples
    values = current_values(data, series, readings, as_of, computed, cadence_months)
    zone_checks = summary.checks(computed, data.limits, data.documents, as_of)
    check_lists = zone_checks.group_by("zone_id").agg(document(resources.CHECK).alias("checks"))
    rows = (
        summary.summaries(zones, values, zone_checks, data.undecided)
        .join(check_lists, on="zone_id", how="left")
        .join(key_values_age(values), on="zone_id", how="left")
    )
    return values, rows


def published_by(series: pl.DataFrame, documents: pl.DataFrame, as_of: dt.date) -> pl.DataFrame:
    """Return the rows of `series` from documents published by `as_of`.

    A build as of a date knows what was published by then: a document whose edition lies
    after it counts neither for the values nor for the publication dates (the staleness
    counts only editions up to `as_of`). Usually no document does, and nothing is copied.
    """
    later = documents.filter(pl.col("edition_date") > as_of).get_column("document_id")
    if later.is_empty():
        return series
    return series.filter(~pl.col("document_id").cast(pl.String).is_in(later.implode()))


def newest_publication(d: Derived) -> dt.date | None:
    """Return the edition date of the newest document the build used (None without one).

    The newest of the zones' `newest_publication`: documents their values cite, published by
    the build date. The footer of the pages about the data as a whole names it (the home
    page, the map, the downloads: pages every build renders).
    """
    newest = d.zones.get_column("newest_publication").max()
    assert newest is None or isinstance(newest, dt.date)
    return newest


def key_values_age(values: pl.DataFrame) -> pl.DataFrame:
    """Return per zone the oldest sample date its key values rest on, where it is old.

    A key value (`KEY_PARAMETERS`) whose every sample point is older than the publication
    cadence stands on old samples (`old`): a new edition that reprints them is no newer
    evidence. `key_values_old_since` is the oldest such date; zones without one are absent.
    """
    old = pl.col("parameter").is_in(list(KEY_PARAMETERS)) & pl.col("old").fill_null(False)
    return (
        values.filter(old)
        .group_by("zone_id")
        .agg(pl.col("sampled_at").min().alias("key_values_old_since"))
    )


def derive(
    data: SourceData,
    as_of: dt.date,
    cadence_months: int = staleness.DEFAULT_CADENCE_MONTHS,
    kept: Kept | Callable[[], Kept | None] | None = None,
) -> Derived:
    """Run every derivation; `cadence_months` is the operator's publication cadence.

    With `kept`, the current values, summaries and checks of those zones are taken, not
    derived: the same rows, as a test compares. A function gives them when asked, after
    what does not depend on them is derived (the caller may be hashing the zones
    meanwhile). Then the series is left unread but for those zones' rows: `series_of`
    reads the rows of the zones rendered.
    """
    data = dataclasses.replace(data, limits=parse_limit_values(data.limits))
    export = export_rows(data)
    street_rows = streets(data)
    zone_frame = zones(data)
    register = parameters(data)
    # What no zone's own rows change, made before the kept rows are asked for: meanwhile
    # the caller is hashing the zones.
    lookup_frame = lookups(export, street_rows)
    supplier_frame = suppliers(data)
    limits = data.limits.sort("code", "valid_from")
    documents = data.documents.sort("document_id")
    places = data.places.sort("plz", "name")
    plz_shapes = data.plz_shapes.sort("plz")
    explained = explanations(data)
    hardness_ranges = data.hardness_ranges.sort("min_mmol_l")
    sources = provenance.map_sources(data.mapping, data.plz_zones, data.streets)
    if callable(kept):
        kept = kept()
    if kept is None:
        series, readings = published.read_series(data.measurements, data.parameters)
        own, own_data = series, data
    else:
        fresh = pl.col("zone_id").is_in(kept.zone_ids.implode()).not_()
        own_data = dataclasses.replace(data, zones=data.zones.filter(fresh))
        chosen = own_data.zones.get_column("zone_id").unique().sort()
        own = rows_of(data.measurements, "zone_id", chosen)
        own, readings = published.read_series(own, data.parameters)
        # The other zones' rows are read when their files are rendered (`series_of`).
        series = data.measurements
    own_zones = zone_frame.filter(fresh) if kept is not None else zone_frame
    values, rows = zone_verdicts(own_data, own, readings, own_zones, as_of, cadence_months)
    zone_documents = staleness.zone_documents(own, as_of)
    del own
    current = ZoneValues(values)
    if kept is not None:
        current = ZoneValues(values, kept.runs, kept.zone_ids, kept.national_rows)
        # One chunk: a join gathers from two chunks of nested columns a hundred times slower.
        rows = pl.concat([kept.zone_rows.collect(), rows], how="diagonal_relaxed", rechunk=True)
        zone_documents = pl.concat([kept.zone_documents.collect(), zone_documents]).sort(
            "zone_id", "document_id"
        )
    zone_frame = (
        zone_frame.join(rows, on="zone_id", how="left")
        .join(
            staleness.newest_publications(
                zone_documents, data.documents, data.zones, as_of, cadence_months
            ),
            on="zone_id",
            how="left",
        )
        .with_columns(pl.col("checks").fill_null([]))
        .sort("zone_id")
    )
    return Derived(
        zones=zone_frame,
        current_values=current,
        # The series outlives everything else derived here: from now on in its compact form.
        measurements=compact(series),
        readings=readings if kept is None else readings.clear(),
        zone_documents=zone_documents,
        lookups=lookup_frame,
        suppliers=supplier_frame,
        limits=limits,
        parameters=register,
        export=export,
        documents=documents,
        places=places,
        plz_shapes=plz_shapes,
        explanations=explained,
        hardness_ranges=hardness_ranges,
        streets=street_rows,
        sources=sources,
        standings=compare.standings(current.national()),
        distributions=compare.distributions(current.national(), limits),
        cadence_months=cadence_months,
    )
