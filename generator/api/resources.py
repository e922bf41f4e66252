"""The fields of every document the API returns, each declared once.

Render encodes exactly these fields from the derived frames (keys sorted), the OpenAPI
document describes them with these types, descriptions and examples, and the export's CSV
header and Data Package schema follow `EXPORT_ROW`. A test checks every file of a sample
build against them, both ways: no declared field missing, no undeclared one written.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from generator.api import routes, verdicts
from generator.api.fields import (
    Resource,
    boolean,
    date,
    example,
    integer,
    keyed,
    link,
    many,
    number,
    one,
    share,
    string,
    uri,
)
from generator.api.license_resources import ATTRIBUTION as ATTRIBUTION
from generator.api.license_resources import ATTRIBUTION_SOURCE as ATTRIBUTION_SOURCE
from generator.api.license_resources import OBLIGATION as OBLIGATION
from generator.api.patterns import CODE_PATTERN, PLZ_PATTERN
from generator.api.qualifiers import QUALIFIERS
from generator.api.qualifiers import SAMPLE as SAMPLE
from generator.api.qualifiers import STATISTICS as STATISTICS
from generator.api.verdict_resources import CHECK as CHECK
from generator.api.verdict_resources import COMPUTED_SUM as COMPUTED_SUM
from generator.api.verdict_resources import OTHER_POINT as OTHER_POINT
from generator.api.verdict_resources import PESTICIDE_STATUS as PESTICIDE_STATUS
from generator.api.verdict_resources import STATES as STATES
from generator.api.verdict_resources import SUM_COUNTED
from generator.api.verdict_resources import SUM_MEMBER as SUM_MEMBER
from generator.api.verdict_resources import ZONE_SUMMARY as ZONE_SUMMARY

AMBIGUITY_REASONS = {
    "split": "more than one zone covers a material share of the PLZ (of its inhabitants "
    "where known, else of its area)",
    "low_confidence": "the assignment of the largest zone is uncertain",
}

BOUNDARY_SOURCES = {
    "supplier": "the supplier's map of the zone",
    "municipalities": "the municipalities or districts the zone serves, as a whole",
    "operator": "drawn by the publisher of this API from indirect sources",
}
"""Where a zone's boundary comes from (the contract's `plz_zones.boundary_source`)."""

RANKINGS = {
    "population_share": "by the share of the PLZ's inhabitants (Zensus 2022 grid)",
    "area_share": "by the share of the PLZ's area (no population shares known)",
}

DOC_URL = "https://wasser-kleinstadt.example/analyse-2026-1.pdf"
SUPPLIER_NAME = "Wasserwerke Kleinstadt"
ZONE_NAME = "Kleinstadt Mitte"

DOCUMENT = Resource(
    "Document",
    "A published document values are taken from (provenance).",
    (
        string("document_id", "Id of the document.", "wk-2026"),
        string("title", "Title as published.", "Trinkwasseranalyse 1. Halbjahr 2026"),
        date("edition_date", "Date of the document's edition.", "2026-06-30"),
        date("retrieved_date", "Date the document was downloaded.", "2026-07-02"),
        uri("url", "Where the document is published.", DOC_URL),
        date(
            "link_gone_since",
            "Date since which `url` no longer answers (checked by the operator's daily fetch); "
            "null while it answers or before it was checked.",
            None,
            nullable=True,
        ),
    ),
)

LOOKUP_ZONE = Resource(
    "LookupZone",
    "One supply zone serving (part of) a PLZ.",
    (
        integer("zone_id", "Id of the supply zone.", 11),
        string("zone_name", "Name of the supply zone.", ZONE_NAME),
        link("zone_url", "The zone.", routes.url("zone", zone_id=11)),
        integer("supplier_id", "Id of the supplier operating the zone.", 1),
        string("supplier_name", "Name of the supplier.", SUPPLIER_NAME),
        link("supplier_url", "The supplier.", routes.url("supplier", supplier_id=1)),
        share("area_share", "Share of the PLZ area inside the zone.", 1.0),
        share(
            "population_share",
            "Share of the PLZ's inhabitants living in the zone (Zensus 2022 grid, "
            "dl-de/by-2-0: credit the grid's source); null when not known.",
            1.0,
            nullable=True,
        ),
        share("confidence", "How well the zone's boundary is known.", 0.9),
        string(
            "boundary_source",
            "Where the zone's boundary comes from; null when not known.",
            "supplier",
            nullable=True,
            enum=BOUNDARY_SOURCES,
        ),
        many(
            "streets",
            string("", "", None),
            "Named streets of the PLZ (OpenStreetMap, ODbL) that lie in this zone, wholly or "
            "in part, sorted; a street listed under two zones runs through both (the export "
            "`strassen.csv` has the share of its length in each). Empty for a PLZ served by "
            "one zone and where no streets were mapped.",
            [],
        ),
    ),
)

LOOKUP = Resource(
    "Lookup",
    "The supply zones serving a PLZ, largest first (ODbL).",
    (
        string("plz", "The postal code asked for.", "76437", pattern=PLZ_PATTERN),
        many(
            "zones",
            "LookupZone",
            "Zones by population share where known, else by area share; largest first.",
        ),
        string("ranked_by", "How the zones are ranked.", "population_share", enum=RANKINGS),
        boolean("ambiguous", "Whether the PLZ has no single clear zone.", False),
        many(
            "ambiguity_reasons",
            string("", "", None, enum=AMBIGUITY_REASONS),
            "Why the answer is ambiguous (empty when it is not).",
            [],
        ),
        string("ambiguity_note", "The reasons in a sentence, or null.", None, nullable=True),
        share(
            "covered_share",
            "Sum of the area shares; below 1 where part of the PLZ has no known zone.",
            1.0,
        ),
        one("attribution", "Attribution", "The credit to show with the zone assignment."),
    ),
)

LIMIT_KIND_MEANINGS = {kind: v.meaning for kind, v in verdicts.KINDS.items()}

_LIMIT_FIELDS = (
    string("kind", "What kind of value it is.", "grenzwert", enum=LIMIT_KIND_MEANINGS),
    number("value", "The limit, or null for a range or a requirement.", 10.0, nullable=True),
    number("value_min", "Lower end of a range.", None, nullable=True),
    number("value_max", "Upper end of a range.", None, nullable=True),
    string("requirement", "The requirement in words (kind requirement).", None, nullable=True),
    string("unit", "Unit of the values.", "µg/l", nullable=True),
    date("valid_from", "First day the limit applies (inclusive).", "2023-06-24"),
    date(
        "valid_until",
        "Last day the limit applies (inclusive); null: open-ended.",
        "2028-01-11",
        nullable=True,
    ),
    string("legal_basis", "Where the limit is set.", "TrinkwV 2023, Anlage 2 Teil II"),
)

LIMIT = Resource(
    "Limit",
    "One limit value with its period of validity, in the parameter's register unit.",
    _LIMIT_FIELDS,
)

LIMIT_VERSION = Resource(
    "LimitVersion",
    "One version of a limit as the ordinance sets it, in its own unit.",
    (
        *_LIMIT_FIELDS,
        string("limit_value", "The value as set: number, min..max range or text.", "10"),
        string("note", "Conditions attached to the value (English).", None, nullable=True),
        string("note_de", "The same conditions in German.", None, nullable=True),
        uri(
            "source_url",
            "Text of the annex (or of the guidance value).",
            "https://www.gesetze-im-internet.de/trinkwv_2023/anlage_2.html",
            nullable=True,
        ),
    ),
)

_QUALIFIER = "What kind of statement the published text is."
_MEASURED = (
    string("parameter", "Parameter code from the register.", "blei"),
    date("sampled_at", "Date the sample was taken.", "2026-03-10"),
    string("value_text", "The value exactly as published.", "7,1"),
    string("unit", "Unit as published.", "µg/l", nullable=True),
    number("value", "The number in the published unit, or null.", 7.1, nullable=True),
    string("qualifier", _QUALIFIER, "number", enum=QUALIFIERS),
    number(
        "reporting_limit",
        "x of a published `< x`; for `< BG`, the number of `reporting_limit_text`.",
        None,
        nullable=True,
    ),
    string("normalized_unit", "The parameter's register unit.", "µg/l", nullable=True),
    number("normalized_value", "`value` in the register unit.", 7.1, nullable=True),
    number(
        "normalized_reporting_limit", "`reporting_limit` in the register unit.", None, nullable=True
    ),
    string(
        "reporting_limit_text",
        "The reporting limit the supplier printed beside the value in a column of its own "
        "(`Bestimmungsgrenze`, `BG`), verbatim; null when none was printed. For `< BG` its "
        "number is `reporting_limit`.",
        None,
        nullable=True,
    ),
    string("sample_point", "Where the sample was taken, if published.", "Netz", nullable=True),
    string(
        "statistic",
        "What the value is: one sample, or an aggregate of the samples the supplier "
        "summarised for a period (then `sampled_at` is the date it gives for the summary).",
        SAMPLE,
        enum=STATISTICS,
    ),
)

# A point's register unit is the same for every point of its parameter: a series states it
# once per parameter (`normalized_units`), not in each of its 10 million points.
MEASUREMENT = Resource(
    "Measurement",
    "One published data point, verbatim. The unit of `normalized_value` and "
    "`normalized_reporting_limit` is the series' `normalized_units[parameter]`.",
    (
        *(f for f in _MEASURED if f.name != "normalized_unit"),
        string("document_id", "The document the value is taken from.", "wk-2026"),
    ),
)

_NOT_MEASURED = ("sampled_at", "value_text", "qualifier", "statistic")
"""Fields of a data point that a current value without any published value has as null."""

COMPARISON = Resource(
    "Comparison",
    "Where a current value stands among the current values of all zones with a comparable "
    "one: a published number, or a value below a reporting limit (counted as a band of "
    "its own, never as zero). A value below a reporting limit x is lower than every measured "
    "value of at least x; a measured value v is higher than every value below a reporting "
    "limit of at most v. A share counts only zones of which this is certain, over all "
    "comparable zones, rounded down to a whole percent. Given for PFAS-20, PFAS-4, nitrate, "
    "lead, uranium and total hardness, when at least 5 zones are comparable.",
    (
        integer("zones", "How many zones have a comparable current value.", 1234),
        integer(
            "lower_than_percent",
            "Percent of those zones whose value is certainly higher than this one (the value "
            "is lower than in this share of zones); null when nothing is certain.",
            80,
            nullable=True,
        ),
        integer(
            "higher_than_percent",
            "Percent of those zones whose value is certainly lower than this one; null for a "
            "value below a reporting limit.",
            12,
            nullable=True,
        ),
        integer(
            "below_reporting_limit_percent",
            "Percent of those zones whose value is below a reporting limit or not detected.",
            30,
        ),
    ),
)

ORIGINS = {
    "published": "the value was published by the supplier",
    "computed": "the value is a sum computed from its published members (see `computed`)",
}

CURRENT_VALUE = Resource(
    "CurrentValue",
    "The latest data point of a parameter up to `as_of`, classified against the limits.",
    (
        *(replace(f, nullable=True) if f.name in _NOT_MEASURED else f for f in _MEASURED[:-1]),
        replace(
            _MEASURED[-1],
            nullable=True,
            description="What the value is: one sample, or the minimum, mean or maximum of a "
            "period. `state` is what all values of the point's newest date prove together; "
            "this is the one it rests on.",
        ),
        string("name_de", "German name of the parameter.", "Blei"),
        string("name_en", "English name of the parameter.", "Lead"),
        string("group", "Group of the parameter.", "metals"),
        string("origin", "Where the value comes from.", "published", enum=ORIGINS),
        many(
            "other_points",
            "OtherPoint",
            "Every other sample point with its newest value. The worst point stands for the "
            "parameter (by `state`, then announced state, then value); an `old` point only "
            "where no newer one does.",
        ),
        boolean(
            "old",
            "Older than the publication cadence (so is every point); null if not measured.",
            False,
            nullable=True,
        ),
        string("state", "Classification against `limit`.", "below_limit", enum=STATES),
        one("limit", "Limit", "The limit valid on `as_of`, or null.", nullable=True),
        string(
            "future_state",
            "Classification against `future_limit`, or null.",
            "exceeds_limit",
            nullable=True,
            enum=STATES,
        ),
        one(
            "future_limit",
            "Limit",
            "A different limit already announced after `as_of`, or null.",
            nullable=True,
            example={
                **example(LIMIT, {}),
                "valid_from": "2028-01-12",
                "valid_until": None,
                "value": 5.0,
            },
        ),
        one("provenance", "Document", "The document the value is taken from.", nullable=True),
        one(
            "computed",
            "ComputedSum",
            "For a sum: how its members add up in the same sample (for a published sum, the "
            "cross-check); null otherwise.",
            nullable=True,
        ),
        string(
            "note_de",
            "Why the state is what it is, in German, where the comparison alone does not say "
            "it (sums, metabolites, values that cannot be assessed); null otherwise.",
            None,
            nullable=True,
        ),
        one(
            "comparison",
            "Comparison",
            "Where this value stands among all zones' current values; null for parameters "
            "not compared or too few comparable zones.",
            nullable=True,
        ),
        link(
            "measurements_url",
            "This parameter's series; for a computed sum the zone's series, which holds its "
            "members (series hold published values only).",
            routes.url("zone_measurements", zone_id=11, parameter="blei"),
        ),
    ),
)

ZONE_SUPPLIER = Resource(
    "ZoneSupplier",
    "The supplier operating a zone.",
    (
        integer("supplier_id", "Id of the supplier.", 1),
        string("name", "Name of the supplier.", SUPPLIER_NAME),
        link("url", "The supplier.", routes.url("supplier", supplier_id=1)),
    ),
)

ZONE = Resource(
    "Zone",
    "A supply zone with its latest value per parameter, classified on `as_of`.",
    (
        integer("zone_id", "Id of the supply zone.", 11),
        string("name", "Name of the zone.", ZONE_NAME),
        one("supplier", "ZoneSupplier", "Who operates the zone."),
        integer("population", "People supplied, if known.", 12000, nullable=True),
        string(
            "water_source", "Where the water comes from, if known.", "Grundwasser", nullable=True
        ),
        many(
            "plz",
            string("", "", None, pattern=PLZ_PATTERN),
            "The postal codes the zone serves (in part).",
            ["76437"],
        ),
        date("as_of", "The reference date of the classification (the build's).", "2026-11-23"),
        date(
            "newest_publication",
            "Edition date of the newest document the zone's values come from (up to `as_of`); "
            "null when there is none.",
            "2026-06-30",
            nullable=True,
        ),
        boolean(
            "publication_stale",
            "True when the newest publication is older than the operator's cadence (default "
            "12 months before `as_of`) or there is none: newer values may exist.",
            False,
        ),
        date(
            "key_values_old_since",
            "The oldest sample date a key value (PFAS-20, PFAS-4, nitrate, lead) rests on where "
            "all its points are older than the cadence; else null.",
            None,
            nullable=True,
        ),
        one("summary", "ZoneSummary", "The verdict over the current values and checks."),
        many(
            "current_values",
            "CurrentValue",
            "Per parameter the worst sample point's newest value.",
        ),
        many("checks", "Check", "Rules over several parameters, on the latest sample with both."),
        link("measurements_url", "Every data point.", routes.url("zone_measurements", zone_id=11)),
        one(
            "attribution",
            "Attribution",
            "The ODbL credit: the `plz` list republishes the PLZ-to-zone mapping.",
        ),
    ),
)

MEASUREMENTS = Resource(
    "Measurements",
    "Every published data point of a zone, sorted by parameter then date.",
    (
        integer("zone_id", "Id of the supply zone.", 11),
        string("parameter", "The parameter asked for, or null for all.", "blei", nullable=True),
        integer("count", "Number of data points.", 1),
        many("measurements", "Measurement", "The data points."),
        many("documents", "Document", "The documents the data points come from."),
        keyed(
            "normalized_units",
            string("", "", None, nullable=True),
            "By parameter code, the register unit of every parameter of `measurements`: the "
            "unit of its points' `normalized_value` and `normalized_reporting_limit` (null: "
            "the parameter has no unit).",
            {"blei": "µg/l"},
            pattern=CODE_PATTERN,
        ),
    ),
)

SUPPLIER_ZONE = Resource(
    "SupplierZone",
    "One zone a supplier operates.",
    (
        integer("zone_id", "Id of the supply zone.", 11),
        string("name", "Name of the zone.", ZONE_NAME),
        integer("plz_count", "Number of postal codes the zone serves.", 2),
        link("zone_url", "The zone.", routes.url("zone", zone_id=11)),
    ),
)

SUPPLIER = Resource(
    "Supplier",
    "A water supplier with its zones and published documents.",
    (
        integer("supplier_id", "Id of the supplier.", 1),
        string("name", "Name of the supplier.", SUPPLIER_NAME),
        string("city", "Seat of the supplier.", "Kleinstadt", nullable=True),
        uri("website", "Website.", "https://wasser-kleinstadt.example", nullable=True),
        many("zones", "SupplierZone", "The zones it operates."),
        many("documents", "Document", "Its published documents, oldest first."),
    ),
)

PARAMETER = Resource(
    "Parameter",
    "One parameter of the register.",
    (
        string("code", "Id of the parameter.", "blei", pattern=CODE_PATTERN),
        string("name_de", "German name.", "Blei"),
        string("name_en", "English name.", "Lead"),
        string(
            "unit", "Register unit: values are compared with limits in it.", "µg/l", nullable=True
        ),
        string("group", "Group of the parameter.", "metals"),
        string("cas_number", "CAS registry number, where one exists.", "7439-92-1", nullable=True),
        string("annex", "Annex of the TrinkwV 2023 listing it.", "Anlage 2 Teil II", nullable=True),
        boolean(
            "has_limit",
            "Whether the ordinance sets a value for it (a guidance value of the "
            "Umweltbundesamt does not count).",
            True,
        ),
        link("limits_url", "Its limits.", routes.url("parameter_limits", code="blei")),
    ),
)

PARAMETER_REGISTER = Resource(
    "ParameterRegister",
    "The register of parameters (TrinkwV 2023 and common extras).",
    (
        integer("count", "Number of parameters.", 1),
        many("parameters", "Parameter", "The parameters, sorted by code."),
    ),
)

PARAMETER_LIMITS = Resource(
    "ParameterLimits",
    "Every version of the limits of one parameter (valid_from / valid_until).",
    (
        string("code", "Id of the parameter.", "blei"),
        string("name_de", "German name.", "Blei"),
        string("name_en", "English name.", "Lead"),
        string("unit", "Register unit of the parameter.", "µg/l", nullable=True),
        many("limits", "LimitVersion", "Every version, oldest first."),
        one(
            "pesticide_status",
            "PesticideStatus",
            "For pesticides and their metabolites: how the ordinance applies; null otherwise.",
            nullable=True,
        ),
        many(
            "sums",
            string("", "", None),
            "Codes of the sums of the ordinance this parameter is a member of.",
            [],
        ),
    ),
)

EXPORT_ROW = Resource(
    "ExportRow",
    "One PLZ-zone pair of the export (also a row of the CSV and the Parquet file).",
    (
        string("plz", "German postal code (five digits).", "76437", pattern=PLZ_PATTERN),
        integer("zone_id", f"Id of the supply zone ({routes.route('zone').path}).", 11),
        string("zone_name", "Name of the supply zone.", ZONE_NAME),
        integer("supplier_id", "Id of the supplier operating the zone.", 1),
        string("supplier_name", "Name of the supplier.", SUPPLIER_NAME),
        share("area_share", "Share of the PLZ area inside the zone, in (0, 1].", 1.0),
        share("confidence", "How well the zone's boundary is known, in [0, 1].", 0.9),
        share(
            "population_share",
            "Share of the PLZ's inhabitants living in the zone (Zensus 2022 grid, "
            "dl-de/by-2-0); empty when not known.",
            1.0,
            nullable=True,
        ),
        string(
            "boundary_source",
            "Where the zone's boundary comes from; empty when not known.",
            "supplier",
            nullable=True,
            enum=BOUNDARY_SOURCES,
        ),
    ),
)

STREET_ROW = Resource(
    "StreetRow",
    "One street of a PLZ served by several zones, and its share in one zone (a row of "
    "strassen.csv; street names from OpenStreetMap, ODbL).",
    (
        string("plz", "German postal code (five digits).", "76437", pattern=PLZ_PATTERN),
        string("street", "Name of the street (OpenStreetMap).", "Hauptstraße"),
        integer("zone_id", f"Id of the supply zone ({routes.route('zone').path}).", 11),
        share(
            "length_share",
            "Share of the street's length within the PLZ that lies in the zone, in (0, 1].",
            1.0,
        ),
    ),
)

CSV_ATTRIBUTION = string(
    "attribution",
    "The ODbL credit and the license's address (the same on every row).",
    "© Trinkwasserdaten, Kartendaten © OpenStreetMap-Mitwirkende (ODbL), "
    "https://opendatacommons.org/licenses/odbl/1-0/",
)


def export_csv_row() -> Resource:
    """Return the row of the CSV export: `EXPORT_ROW`, then the ODbL credit.

    A column rather than a comment line, so that every copy of the file carries the credit
    and every CSV reader still reads the rows as they are.
    """
    return Resource(
        "ExportCsvRow",
        "One row of the CSV export, with the ODbL credit.",
        (*EXPORT_ROW.fields, CSV_ATTRIBUTION),
    )


def street_csv_row() -> Resource:
    """Return the row of `strassen.csv`: `STREET_ROW`, then the ODbL credit.

    The street names are OpenStreetMap data: the file carries the same credit column as
    the export of the mapping, on every row.
    """
    return Resource(
        "StreetCsvRow",
        "One row of strassen.csv, with the ODbL credit.",
        (*STREET_ROW.fields, CSV_ATTRIBUTION),
    )


EXPORT = Resource(
    "Export",
    "The complete PLZ-to-zone mapping (ODbL); never measured values.",
    (
        one("attribution", "Attribution", "The credit to show with the mapping."),
        integer("count", "Number of rows.", 1),
        many("rows", "ExportRow", "Every PLZ-zone pair, by PLZ then zone."),
    ),
)

RESOURCES: dict[str, Resource] = {
    r.name: r
    for r in (
        OBLIGATION,
        ATTRIBUTION_SOURCE,
        ATTRIBUTION,
        DOCUMENT,
        LOOKUP_ZONE,
        LOOKUP,
        LIMIT,
        LIMIT_VERSION,
        MEASUREMENT,
        SUM_MEMBER,
        COMPUTED_SUM,
        OTHER_POINT,
        COMPARISON,
        CURRENT_VALUE,
        CHECK,
        ZONE_SUMMARY,
        ZONE_SUPPLIER,
        ZONE,
        MEASUREMENTS,
        SUPPLIER_ZONE,
        SUPPLIER,
        PARAMETER,
        PARAMETER_REGISTER,
        PESTICIDE_STATUS,
        PARAMETER_LIMITS,
        EXPORT_ROW,
        STREET_ROW,
        EXPORT,
    )
}


ENUMS: dict[str, tuple[str, dict[str, str]]] = {
    "State": ("How a value compares with the limit it is assessed against.", STATES),
    "Qualifier": (_QUALIFIER, QUALIFIERS),
    "Statistic": ("What a published value is: one sample, or a summary of several.", STATISTICS),
    "LimitKind": ("What kind of value a limit is.", LIMIT_KIND_MEANINGS),
    "BoundarySource": ("Where a zone's boundary comes from.", BOUNDARY_SOURCES),
    "AmbiguityReason": ("Why the zone of a PLZ is not certain.", AMBIGUITY_REASONS),
    "Ranking": ("How the zones of a PLZ are ranked.", RANKINGS),
    "Origin": ("Where a current value comes from.", ORIGINS),
    "SumCounted": ("How a member of a computed sum counts.", SUM_COUNTED),
    "SummaryStatus": ("The verdict of a zone's summary.", verdicts.SUMMARY_STATUSES),
    "PesticideDecision": (
        "What the register decided about a pesticide or metabolite.",
        verdicts.PESTICIDE_DECISIONS,
    ),
}
"""The vocabularies of the documents, each one component schema (`fields.enum_schema`), so
a client generated from the OpenAPI document gets one class per vocabulary."""


def examples() -> dict[str, dict[str, Any]]:
    """Return the example document of every resource."""
    return {name: example(r, RESOURCES) for name, r in RESOURCES.items()}
