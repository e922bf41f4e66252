"""The declarations: every source table, its columns, their types and constraints.

This is the single definition of the contract. The loader checks it (one generic checker,
`generator.contract.check`), and `docs/data-contract.md` is generated from it
(`python -m generator.contract.docs`); a test keeps the committed file equal to the output.
"""

from __future__ import annotations

from generator import values
from generator.api import resources, routes
from generator.api.verdicts import PESTICIDE_DECISIONS
from generator.contract import rules
from generator.contract.constraints import (
    Choices,
    InRegister,
    LimitValue,
    NonNegative,
    NotBefore,
    Pattern,
    Positive,
    Range,
    References,
    Unit,
    UnitConvertible,
)
from generator.contract.model import DATE, EMPTY, FLOAT, INT, PACKAGED, STR, Column, Table
from generator.contract.table_rules import NonOverlapping, NotAfterReferenced, ShareSum

PLZ_PATTERN = r"^\d{5}$"
DOCUMENT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$"
URL_PATTERN = r"^https?://[^\s/$.?#][^\s]*$"
CODE_PATTERN = r"^[a-z][a-z0-9_]*$"

PLZ = Pattern(PLZ_PATTERN, rules.MALFORMED_PLZ, "exactly five digits")
DOCUMENT_ID = Pattern(
    DOCUMENT_ID_PATTERN,
    rules.MALFORMED_ID,
    "letters, digits, '_', '.', '-' (at most 64 characters)",
)
URL = Pattern(URL_PATTERN, rules.MALFORMED_URL, "an http(s) URL")
CODE = Pattern(CODE_PATTERN, rules.MALFORMED_CODE, "ASCII lower_snake_case")
# `title | url`, several joined by ` ;; ` (a title holds no `|`, a URL no space).
SOURCES_PATTERN = r"^[^|]+ \| https?://\S+( ;; [^|]+ \| https?://\S+)*$"
SOURCES = Pattern(SOURCES_PATTERN, rules.MALFORMED_SOURCES, "`title | URL` pairs joined by ` ;; `")
EXPLAINED_FIELDS = ("what", "origin", "limit_protects", "what_to_do")

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

PLZ_ZONES = Table(
    name="plz_zones",
    meaning=(
        "Which zones serve which postal code (PLZ), derived from OpenStreetMap boundaries "
        "(ODbL). A PLZ served by several zones has one row per zone."
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
            "How sure the assignment is (1 = boundary published by the supplier).",
            "0.9",
            (Range(0, 1),),
        ),
    ),
    key=("plz", "zone_id"),
    rules=(ShareSum("area_share", per="plz", at_most=1.0, tolerance=0.001),),
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

TABLES: tuple[Table, ...] = (SUPPLIERS, ZONES, PLZ_ZONES, DOCUMENTS, MEASUREMENTS, PLACES)

# Reference tables shipped with the package (generator/reference/); a data directory
# may override them with its own `parameters` / `limits` table of the same shape.
PARAMETERS = Table(
    name="parameters",
    meaning="The parameter register.",
    columns=(
        Column("code", STR, True, "ASCII lower_snake_case id.", "pfas_summe_20", (CODE,)),
        Column("name_de", STR, True, "German name.", "Summe PFAS-20"),
        Column("name_en", STR, True, "English name.", "Sum of PFAS (20 substances)"),
        Column(
            "unit", STR, False, "Unit values are reported and compared in.", "µg/l", (Unit(),), ""
        ),
        Column("group", STR, True, "Group of the parameter.", "pfas"),
        Column("cas_number", STR, False, "CAS registry number, where one exists.", "335-67-1"),
        Column("annex", STR, False, "Annex of the TrinkwV 2023 listing it.", "Anlage 2 Teil I"),
    ),
    key=("code",),
    if_absent=PACKAGED,
)

LIMITS = Table(
    name="limits",
    meaning="Versioned limit values of the TrinkwV 2023.",
    columns=(
        Column("code", STR, True, "Parameter code.", "pfas_summe_20", (InRegister(),)),
        Column(
            "kind",
            STR,
            True,
            "What kind of value the ordinance sets.",
            "grenzwert",
            (Choices(values.LIMIT_KINDS),),
        ),
        Column(
            "limit_value",
            STR,
            True,
            "Number, `min..max` range or requirement text.",
            "0.1",
            (LimitValue("kind"),),
        ),
        Column("unit", STR, False, "Unit of the value.", "µg/l", (Unit(),), default=""),
        Column("valid_from", DATE, True, "First day the value applies (inclusive).", "2026-01-12"),
        Column(
            "valid_until",
            DATE,
            False,
            "Last day (inclusive); empty = open-ended.",
            "",
            (NotBefore("valid_from"),),
        ),
        Column("legal_basis", STR, True, "Where the value is set.", "TrinkwV 2023, Anlage 2"),
        Column("note", STR, False, "Conditions attached to the value (English).", ""),
        Column("note_de", STR, False, "The same conditions in German.", ""),
        Column("source_url", STR, False, "Text of the annex (or of the guidance value).", ""),
    ),
    key=("code", "valid_from"),
    rules=(NonOverlapping("code", start="valid_from", end="valid_until"),),
    if_absent=PACKAGED,
)

PESTICIDES = Table(
    name="pesticides",
    meaning="How the ordinance's values for pesticides apply to each pesticide and metabolite "
    "of the register, with the sources of each decision.",
    columns=(
        # No register check: a data directory that brings its own register keeps the packaged
        # decisions, and codes its register lacks are ignored.
        Column(
            "code",
            STR,
            True,
            "Parameter code (ignored where the register has no such code).",
            "desphenylchloridazon",
            (CODE,),
        ),
        Column(
            "decision",
            STR,
            True,
            "active_substance, active_substance_strict, relevant_metabolite, "
            "non_relevant_metabolite, non_relevant_metabolite_gow, unclear or aggregate.",
            "non_relevant_metabolite",
            (Choices(tuple(PESTICIDE_DECISIONS)),),
        ),
        Column("legal_basis", STR, True, "Where the decision rests.", "TrinkwV 2023, Anlage 2"),
        Column("note_de", STR, True, "The decision in a German sentence.", "Kein Grenzwert."),
        Column("source_title", STR, False, "Title of the main source.", ""),
        Column("source_url", STR, False, "Address of the main source.", "", (URL,)),
        Column("source_date", STR, False, "Date of the main source, as known.", "2019"),
        Column("confidence", STR, False, "two_sources, one_source or assumed.", "one_source"),
        Column("second_source_url", STR, False, "Address of a second source.", "", (URL,)),
        Column("quote", STR, False, "The passages the decision rests on.", ""),
    ),
    key=("code",),
    if_absent=PACKAGED,
)

EXPLANATIONS = Table(
    name="explanations",
    meaning="Plain German explanations of parameters for the site: what a substance is, "
    "where it comes from, what its limit protects and what a person can do, with sources.",
    columns=(
        Column(
            "topic",
            STR,
            True,
            "Id of the explanation: a parameter code, or a name for a group of parameters.",
            "nitrat",
            (CODE,),
        ),
        Column("title_de", STR, True, "What the explanation is about.", "Nitrat"),
        Column("what", STR, True, "What it is.", "Nitrat ist eine Stickstoffverbindung."),
        Column("origin", STR, True, "Where it comes from.", "Aus Dünger und Boden."),
        Column(
            "limit_protects",
            STR,
            True,
            "What the limit (or other value) protects, and its legal weight.",
            "Das ist ein verbindlicher Grenzwert.",
        ),
        Column(
            "what_to_do",
            STR,
            True,
            "What a person can do.",
            "Fragen Sie Ihren Wasserversorger.",
        ),
        Column(
            "sources",
            STR,
            True,
            "The public sources the sentences rest on, each as `title | URL`.",
            "TrinkwV 2023, Anlage 2 | https://www.gesetze-im-internet.de/trinkwv_2023/anlage_2.html",
            (SOURCES,),
        ),
        Column("source_quote", STR, False, "The passages relied on, quoted.", ""),
        Column(
            "unsourced",
            STR,
            False,
            "Fields whose sentences are general knowledge, not taken from a source (the site "
            "says so): names from " + ", ".join(EXPLAINED_FIELDS) + ", separated by spaces.",
            "origin",
            (
                Pattern(
                    r"^("
                    + "|".join(EXPLAINED_FIELDS)
                    + r")( ("
                    + "|".join(EXPLAINED_FIELDS)
                    + r"))*$",
                    rules.INVALID_CHOICE,
                    "field names from " + ", ".join(EXPLAINED_FIELDS),
                ),
            ),
        ),
    ),
    key=("topic",),
    if_absent=PACKAGED,
)

EXPLAINED_PARAMETERS = Table(
    name="explained_parameters",
    meaning="Which explanation the site shows for a parameter.",
    columns=(
        # No register check, as for `pesticides`: codes a replaced register lacks are ignored.
        Column(
            "code",
            STR,
            True,
            "Parameter code (ignored where the register has no such code).",
            "nitrat",
            (CODE,),
        ),
        Column(
            "topic",
            STR,
            True,
            "The explanation.",
            "nitrat",
            (References("explanations", "topic"),),
        ),
    ),
    key=("code",),
    if_absent=PACKAGED,
)

HARDNESS_RANGES = Table(
    name="hardness_ranges",
    meaning="The hardness ranges of § 9 WRMG (weich, mittel, hart) with dosing advice.",
    columns=(
        Column(
            "range",
            STR,
            True,
            "Name of the range.",
            "mittel",
            (Choices(("weich", "mittel", "hart")),),
        ),
        Column(
            "min_mmol_l",
            FLOAT,
            True,
            "Lowest value of the range, in millimoles of calcium carbonate per litre. A value on "
            "a bound two ranges share belongs to the narrower one (§ 9 WRMG: weich 'weniger "
            "als 1,5', mittel '1,5 bis 2,5', hart 'mehr als 2,5').",
            "1.5",
            (NonNegative(),),
        ),
        Column(
            "max_mmol_l",
            FLOAT,
            False,
            "Highest value of the range; empty = no upper end.",
            "2.5",
            (NonNegative(),),
        ),
        Column("advice_de", STR, True, "The range and dosing advice in German.", ""),
        Column(
            "source_url",
            STR,
            True,
            "Where the range is set.",
            "https://www.gesetze-im-internet.de/wrmg/__9.html",
            (URL,),
        ),
    ),
    key=("range",),
    if_absent=PACKAGED,
)

REFERENCE_TABLES: tuple[Table, ...] = (
    PARAMETERS,
    LIMITS,
    PESTICIDES,
    EXPLANATIONS,
    EXPLAINED_PARAMETERS,
    HARDNESS_RANGES,
)
ALL_TABLES: tuple[Table, ...] = TABLES + REFERENCE_TABLES
