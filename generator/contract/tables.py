"""The declarations: every source table, its columns, their types and constraints.

This is the single definition of the contract. The loader checks it (one generic checker,
`generator.contract.check`), and `docs/data-contract.md` is generated from it
(`python -m generator.contract.docs`); a test keeps the committed file equal to the output.
"""

from __future__ import annotations

from generator.api import resources, routes
from generator.contract.constraints import (
    Choices,
    FilledWithout,
    InRegister,
    NonNegative,
    NotBefore,
    Positive,
    Range,
    References,
    Unit,
    UnitConvertible,
)
from generator.contract.formats import (
    ADDRESSES,
    DOCUMENT_ID,
    PLZ,
    SHAPE,
    URL,
)
from generator.contract.model import DATE, EMPTY, FLOAT, INT, STR, Column, Table
from generator.contract.reference_tables import REFERENCE_TABLES
from generator.contract.table_rules import NotAfterReferenced, RowOf, ShareSum

SUPPLIERS = Table(
    name="suppliers",
    meaning="Water suppliers (Wasserversorger) that operate supply zones.",
    columns=(
        Column("supplier_id", INT, True, "Stable numeric id of the supplier.", "3", (Positive(),)),
        Column("name", STR, True, "Name as the supplier writes it.", "Stadtwerke Musterstadt GmbH"),
        Column("city", STR, False, "Seat of the supplier.", "Musterstadt"),
        Column(
            "website",
            STR,
            False,
            "Home page of the supplier.",
            "https://www.stadtwerke-musterstadt.example",
            (URL,),
        ),
    ),
    key=("supplier_id",),
)

ZONES = Table(
    name="zones",
    meaning="Supply zones (Versorgungsgebiete): areas that receive water of one quality.",
    columns=(
        Column("zone_id", INT, True, "Stable numeric id of the zone.", "101", (Positive(),)),
        Column(
            "supplier_id",
            INT,
            True,
            "Supplier that operates the zone.",
            "3",
            (Positive(), References("suppliers", "supplier_id")),
        ),
        Column("name", STR, True, "Name of the zone.", "Musterstadt Nord"),
        Column(
            "water_source",
            STR,
            False,
            "Where the water comes from, in words.",
            "Grundwasser, Wasserwerk Nordheide",
        ),
        Column("population", INT, False, "People served, as published.", "48000", (NonNegative(),)),
    ),
    key=("zone_id",),
)

BOUNDARY_SOURCES = ("supplier", "municipalities", "operator")
"""Where a zone's boundary comes from (`trinkwasser mapping`, docs/mapping.md)."""

PLZ_ZONES = Table(
    name="plz_zones",
    meaning=(
        "Which zones serve which postal code (PLZ), derived from OpenStreetMap boundaries "
        "(ODbL); `trinkwasser mapping` computes it from map data (docs/mapping.md). A PLZ "
        "served by several zones has one row per zone."
    ),
    columns=(
        Column("plz", STR, True, "German postal code, five digits.", "04109", (PLZ,)),
        Column(
            "zone_id",
            INT,
            True,
            "Zone that serves (part of) the PLZ.",
            "101",
            (Positive(), References("zones", "zone_id")),
        ),
        Column(
            "area_share",
            FLOAT,
            True,
            "Share of the PLZ area that lies in the zone.",
            "0.75",
            (Range(0, 1, lo_open=True),),
        ),
        Column(
            "confidence",
            FLOAT,
            True,
            "How well the zone's boundary is known: 0.9 for a supplier polygon, 0.7 for a zone "
            "assembled from municipalities, 0.5 for a polygon the operator drew, or the value "
            "given for the zone in the input; below 4× the minimum share it is lowered "
            "linearly, to half at the minimum.",
            "0.9",
            (Range(0, 1),),
        ),
        Column(
            "population_share",
            FLOAT,
            False,
            "Share of the PLZ's inhabitants (Zensus 2022 grid; a cell counts where its centre "
            "lies; secret cells count nowhere) living in the zone; empty when no grid was used "
            "or the PLZ has no known inhabitant.",
            "0.8",
            (Range(0, 1),),
        ),
        Column(
            "boundary_source",
            STR,
            False,
            "Where the zone's boundary comes from.",
            "supplier",
            (Choices(BOUNDARY_SOURCES),),
        ),
    ),
    key=("plz", "zone_id"),
    rules=(
        ShareSum("area_share", per="plz", at_most=1.0, tolerance=0.001),
        ShareSum("population_share", per="plz", at_most=1.0, tolerance=0.001),
    ),
)

STREETS = Table(
    name="streets",
    meaning=(
        "Which zone each named street of a PLZ served by several zones lies in: street names "
        "from OpenStreetMap (ODbL), written by `trinkwasser mapping --streets` "
        "(docs/mapping.md)."
    ),
    columns=(
        Column(
            "plz",
            STR,
            True,
            "German postal code, five digits.",
            "04109",
            (PLZ, References("plz_zones", "plz")),
        ),
        Column("street", STR, True, "Name of the street as OpenStreetMap has it.", "Hauptstraße"),
        Column(
            "zone_id",
            INT,
            True,
            "A zone the street lies in (in part).",
            "101",
            (Positive(), References("zones", "zone_id")),
        ),
        Column(
            "length_share",
            FLOAT,
            True,
            "Share of the street's length within the PLZ that lies in the zone.",
            "0.6",
            (Range(0, 1, lo_open=True),),
        ),
    ),
    key=("plz", "street", "zone_id"),
    rules=(
        RowOf(("plz", "zone_id"), "plz_zones"),
        ShareSum("length_share", per=("plz", "street"), at_most=1.0, tolerance=0.001),
    ),
    if_absent=EMPTY,
)

DOCUMENTS = Table(
    name="documents",
    meaning="Provenance: the published documents every measurement is taken from.",
    columns=(
        Column(
            "document_id",
            STR,
            True,
            "Stable id of the document.",
            "swm-analyse-2025",
            (DOCUMENT_ID,),
        ),
        Column(
            "supplier_id",
            INT,
            True,
            "Supplier that published it.",
            "3",
            (Positive(), References("suppliers", "supplier_id")),
        ),
        Column("title", STR, True, "Title of the document.", "Trinkwasseranalyse 2025"),
        Column(
            "url",
            STR,
            True,
            "Where the document can be read.",
            "https://www.stadtwerke-musterstadt.example/analyse-2025.pdf",
            (URL,),
        ),
        Column(
            "edition_date",
            DATE,
            True,
            "Date of the edition (Stand) printed on the document.",
            "2025-03-31",
        ),
        Column(
            "retrieved_date",
            DATE,
            True,
            "Date the document was downloaded.",
            "2025-04-02",
            (NotBefore("edition_date"),),
        ),
        Column(
            "link_gone_since",
            DATE,
            False,
            "Date since which the link no longer answers (written by `trinkwasser fetch`); "
            "empty while it answers or before it was checked.",
            "2026-05-04",
        ),
    ),
    key=("document_id",),
)

MEASUREMENTS = Table(
    name="measurements",
    meaning="Every published data point, verbatim.",
    columns=(
        Column(
            "zone_id",
            INT,
            True,
            "Zone the sample represents.",
            "101",
            (Positive(), References("zones", "zone_id")),
        ),
        Column(
            "parameter",
            STR,
            True,
            f"Parameter code from the register (`{routes.url('parameters')}`).",
            "pfas_summe_20",
            (InRegister(),),
        ),
        Column("sampled_at", DATE, True, "Date the sample was taken.", "2025-02-14"),
        Column(
            "value_text", STR, True, "The value exactly as published; never changed.", "< 0,001"
        ),
        Column(
            "unit",
            STR,
            False,
            "Unit as published.",
            "µg/l",
            (Unit(), UnitConvertible("parameter")),
            default="",
        ),
        Column(
            "document_id",
            STR,
            True,
            "Document the value is taken from.",
            "swm-analyse-2025",
            (References("documents", "document_id"),),
        ),
        Column(
            "sample_point",
            STR,
            False,
            "Where the sample was taken, if published.",
            "Wasserwerk Nordheide, Ausgang",
        ),
        Column(
            "statistic",
            STR,
            False,
            "What the value is: one sample, or the minimum, mean or maximum of the samples "
            "the supplier summarised (then `sampled_at` is the date the supplier gives for "
            "the summary, usually the end of its period).",
            "max",
            (Choices(tuple(resources.STATISTICS)),),
            default=resources.SAMPLE,
        ),
        Column(
            "reporting_limit",
            STR,
            False,
            "The reporting limit (`Bestimmungsgrenze`, `BG`) printed beside the value in a "
            "column of its own, verbatim, if the supplier printed one. A value printed as "
            "`< BG` is below this limit.",
            "0,001",
        ),
    ),
    # A supplier that publishes aggregates prints min, mean and max of one parameter, place
    # and period side by side: the statistic is part of what makes a row unique.
    key=("zone_id", "parameter", "sampled_at", "sample_point", "statistic"),
    rules=(
        NotAfterReferenced(
            "sampled_at",
            via="document_id",
            table="documents",
            other="edition_date",
            key="document_id",
        ),
    ),
    # Every later stage reads the measurements by zone, parameter and date: sorted once here,
    # they are worked on in slices instead of sorted copies of 10 million rows.
    # `statistic` before `sample_point`: on one date a sample ("sample") sorts after every
    # aggregate ("max" < "mean" < "min" < "sample"), so the last row is a sample if any.
    sorted_by=("zone_id", "parameter", "sampled_at", "statistic", "sample_point"),
    compact=True,
)

PLACES = Table(
    name="places",
    meaning=(
        "Names and coordinates of the places a PLZ covers, for the search by place name, the "
        "A-Z index of places and the national map. A PLZ may have several names (a town and "
        "the villages that share its PLZ); a name may have several PLZ (a city)."
    ),
    columns=(
        Column(
            "plz",
            STR,
            True,
            "German postal code, five digits; a PLZ of `plz_zones`.",
            "04109",
            (PLZ, References("plz_zones", "plz")),
        ),
        Column("name", STR, True, "Name of the place, as people write it.", "Leipzig"),
        Column(
            "lat",
            FLOAT,
            True,
            "Latitude of the place (WGS84, decimal degrees); inside Germany.",
            "51.3397",
            (Range(47.0, 55.5),),
        ),
        Column(
            "lon",
            FLOAT,
            True,
            "Longitude of the place (WGS84, decimal degrees); inside Germany.",
            "12.3731",
            (Range(5.5, 15.5),),
        ),
    ),
    key=("plz", "name"),
    if_absent=EMPTY,
)

PLZ_SHAPES = Table(
    name="plz_shapes",
    meaning=(
        "The PLZ areas simplified for the national map, as `trinkwasser mapping` writes them "
        "(`plz_shapes.csv`; neighbours share their simplified edges). Without it the map "
        "draws each PLZ as a dot at its places' coordinates."
    ),
    columns=(
        Column("plz", STR, True, "German postal code, five digits.", "04103", (PLZ,)),
        Column(
            "land",
            STR,
            False,
            "The Land (state) of the PLZ where the PLZ areas name it; the map draws the "
            "outlines of the Länder from it.",
            "Sachsen",
        ),
        Column(
            "shape",
            STR,
            True,
            "The area in WGS84: rings of `lon lat` pairs (decimal degrees) separated by "
            "commas, rings by semicolons, each ring without its closing point; holes are "
            "rings too (the map fills even-odd).",
            "12.3731 51.3397,12.3812 51.3401,12.3790 51.3350",
            (SHAPE,),
        ),
    ),
    key=("plz",),
    if_absent=EMPTY,
)

SOURCES = Table(
    name="sources",
    meaning=(
        "The register of publications `trinkwasser fetch` watches: one row per published "
        "table a zone's values come from, with the recipe that imports it again "
        "(docs/operations.md). The columns after `url` are passed to `trinkwasser import`."
    ),
    columns=(
        Column(
            "source_id",
            STR,
            True,
            "Stable id of the publication; names its archive and its documents.",
            "swm-nord-analyse",
            (DOCUMENT_ID,),
        ),
        Column(
            "supplier_id",
            INT,
            True,
            "Supplier that publishes it.",
            "3",
            (Positive(), References("suppliers", "supplier_id")),
        ),
        Column(
            "zone_id",
            INT,
            True,
            "Zone whose values it holds.",
            "101",
            (Positive(), References("zones", "zone_id")),
        ),
        Column(
            "url",
            STR,
            True,
            "Where the supplier publishes it (fetched as it is).",
            "https://www.stadtwerke-musterstadt.example/trinkwasser/analyse.csv",
            (URL,),
        ),
        Column(
            "title",
            STR,
            False,
            "Title of the documents made from it (default: the source id).",
            "Trinkwasseranalyse Musterstadt Nord",
        ),
        Column(
            "table",
            STR,
            False,
            "Which table of the document: its number or heading (`import --table`).",
            "2",
        ),
        Column(
            "sheet",
            STR,
            False,
            "Sheet of a workbook (`import --sheet`; default: the first).",
            "Analyse",
        ),
        Column(
            "encoding",
            STR,
            False,
            "Encoding of a CSV table or web page (`import --encoding`; default: UTF-8 for a "
            "CSV table).",
            "cp1252",
        ),
        Column(
            "sample_point",
            STR,
            False,
            "Sampling point of every value (`import --sample-point`).",
            "Wasserwerk Nordheide, Ausgang",
        ),
    ),
    key=("source_id",),
    rules=(RowOf(("zone_id", "supplier_id"), "zones"),),
    if_absent=EMPTY,
)

ALIASES = Table(
    name="aliases",
    meaning=(
        "The operator's decisions on published parameter names: one row per spelling, the "
        "columns of the packaged alias register (`generator/reference/aliases.csv`). For "
        "this data directory a row wins over the packaged register's row for the same "
        "spelling (compared as `trinkwasser import` compares names: case, umlauts, spaces "
        "and punctuation aside). `trinkwasser parameters decide NAME UNIT CODE --data DIR` "
        "adds a row (docs/import.md)."
    ),
    columns=(
        Column("alias", STR, True, "The name as a supplier prints it.", "PFAS-Summe"),
        Column(
            "code",
            STR,
            False,
            "The register parameter it is; empty: it is none (say why in `note`).",
            "pfas_summe_20",
            (InRegister(),),
        ),
        Column(
            "note",
            STR,
            False,
            "Why, in a few words; required when `code` is empty.",
            "Summe der 20 PFAS nach Anlage 2 Teil I, wie im Bericht erklärt",
            (FilledWithout("code"),),
        ),
        Column(
            "source",
            STR,
            False,
            "Addresses of the publications that print the spelling, separated by spaces.",
            "https://www.stadtwerke-musterstadt.example/analyse.pdf",
            (ADDRESSES,),
        ),
    ),
    key=("alias",),
    if_absent=EMPTY,
)

UNDECIDED = Table(
    name="undecided",
    meaning=(
        "Published values that wait for the operator's decision: their name matched no "
        "register parameter for sure (`no_match`, `ambiguous`). `trinkwasser import` (and "
        "`fetch --import`) writes one row per zone, document, name and unit, replacing the "
        "rows of the zone and document it imports; a decision (`trinkwasser parameters "
        "decide`) and the next import take them out. The site says of such a zone that not "
        "all published values are assigned, instead of calling a key value unpublished."
    ),
    columns=(
        Column(
            "zone_id",
            INT,
            True,
            "Zone the values are for.",
            "101",
            (Positive(), References("zones", "zone_id")),
        ),
        Column(
            "document_id",
            STR,
            True,
            "Document that publishes them.",
            "swm-analyse-2025",
            (DOCUMENT_ID, References("documents", "document_id")),
        ),
        Column("name", STR, True, "The name as published.", "PFAS-Summe"),
        Column("unit", STR, False, "The unit as published.", "µg/l"),
        Column("values", INT, True, "How many values carry it.", "1", (Positive(),)),
    ),
    key=("zone_id", "document_id", "name", "unit"),
    if_absent=EMPTY,
)

TABLES: tuple[Table, ...] = (
    SUPPLIERS,
    ZONES,
    PLZ_ZONES,
    STREETS,
    DOCUMENTS,
    MEASUREMENTS,
    PLACES,
    PLZ_SHAPES,
    SOURCES,
    ALIASES,
    UNDECIDED,
)

ALL_TABLES: tuple[Table, ...] = TABLES + REFERENCE_TABLES
