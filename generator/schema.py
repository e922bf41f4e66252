"""The source-data contract: tables, columns, types, keys.

This module is the single definition of the contract; the loader enforces it and
`docs/data-contract.md` documents it (a test keeps the two in step).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Logical column types. Every source value is read as text first (CSV) or as its
# Parquet type, then cast to one of these; a failed cast is a `wrong_type` problem.
STR = "str"
INT = "int"
FLOAT = "float"
DATE = "date"

PLZ_PATTERN = r"^\d{5}$"
DOCUMENT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$"
URL_PATTERN = r"^https?://[^\s/$.?#][^\s]*$"


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    required: bool
    meaning: str
    example: str
    constraints: str = ""


@dataclass(frozen=True)
class Table:
    name: str
    meaning: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    references: tuple[tuple[str, str, str], ...] = field(default=())
    """(column, other table, other column) foreign keys."""

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]


SUPPLIERS = Table(
    name="suppliers",
    meaning="Water suppliers (Wasserversorger) that operate supply zones.",
    columns=(
        Column("supplier_id", INT, True, "Stable numeric id of the supplier.", "3", "> 0, unique"),
        Column("name", STR, True, "Name as the supplier writes it.", "Stadtwerke Musterstadt GmbH"),
        Column("city", STR, False, "Seat of the supplier.", "Musterstadt"),
        Column(
            "website",
            STR,
            False,
            "Home page of the supplier.",
            "https://www.stadtwerke-musterstadt.example",
            "http(s) URL",
        ),
    ),
    key=("supplier_id",),
)

ZONES = Table(
    name="zones",
    meaning="Supply zones (Versorgungsgebiete): areas that receive water of one quality.",
    columns=(
        Column("zone_id", INT, True, "Stable numeric id of the zone.", "101", "> 0, unique"),
        Column("supplier_id", INT, True, "Supplier that operates the zone.", "3", "-> suppliers"),
        Column("name", STR, True, "Name of the zone.", "Musterstadt Nord"),
        Column(
            "water_source",
            STR,
            False,
            "Where the water comes from, in words.",
            "Grundwasser, Wasserwerk Nordheide",
        ),
        Column("population", INT, False, "People served, as published.", "48000", ">= 0"),
    ),
    key=("zone_id",),
    references=(("supplier_id", "suppliers", "supplier_id"),),
)

PLZ_ZONES = Table(
    name="plz_zones",
    meaning=(
        "Which zones serve which postal code (PLZ), derived from OpenStreetMap boundaries "
        "(ODbL). A PLZ served by several zones has one row per zone."
    ),
    columns=(
        Column("plz", STR, True, "German postal code, five digits.", "04109", "^\\d{5}$"),
        Column("zone_id", INT, True, "Zone that serves (part of) the PLZ.", "101", "-> zones"),
        Column(
            "area_share",
            FLOAT,
            True,
            "Share of the PLZ area that lies in the zone.",
            "0.75",
            "in (0, 1]; the shares of one PLZ add up to at most 1 (tolerance 0.001)",
        ),
        Column(
            "confidence",
            FLOAT,
            True,
            "How sure the assignment is (1 = boundary published by the supplier).",
            "0.9",
            "in [0, 1]",
        ),
    ),
    key=("plz", "zone_id"),
    references=(("zone_id", "zones", "zone_id"),),
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
            "letters, digits, `_`, `.`, `-`; at most 64 characters; unique",
        ),
        Column("supplier_id", INT, True, "Supplier that published it.", "3", "-> suppliers"),
        Column("title", STR, True, "Title of the document.", "Trinkwasseranalyse 2025"),
        Column(
            "url",
            STR,
            True,
            "Where the document can be read.",
            "https://www.stadtwerke-musterstadt.example/analyse-2025.pdf",
            "http(s) URL",
        ),
        Column(
            "edition_date",
            DATE,
            True,
            "Date of the edition (Stand) printed on the document.",
            "2025-03-31",
            "ISO date YYYY-MM-DD",
        ),
        Column(
            "retrieved_date",
            DATE,
            True,
            "Date the document was downloaded.",
            "2025-04-02",
            "ISO date, not before edition_date",
        ),
    ),
    key=("document_id",),
    references=(("supplier_id", "suppliers", "supplier_id"),),
)

MEASUREMENTS = Table(
    name="measurements",
    meaning="Every published data point, verbatim.",
    columns=(
        Column("zone_id", INT, True, "Zone the sample represents.", "101", "-> zones"),
        Column(
            "parameter",
            STR,
            True,
            "Parameter code from the register (`/v1/parameters`).",
            "pfas_summe_20",
            "a register code",
        ),
        Column(
            "sampled_at",
            DATE,
            True,
            "Date the sample was taken.",
            "2025-02-14",
            "ISO date, not after the document's edition_date",
        ),
        Column(
            "value_text",
            STR,
            True,
            "The value exactly as published; never changed.",
            "< 0,001",
            "non-empty",
        ),
        Column(
            "unit",
            STR,
            False,
            "Unit as published.",
            "µg/l",
            "convertible to the parameter's unit (empty only for unitless parameters)",
        ),
        Column("document_id", STR, True, "Document the value is taken from.", "swm-analyse-2025"),
        Column(
            "sample_point",
            STR,
            False,
            "Where the sample was taken, if published.",
            "Wasserwerk Nordheide, Ausgang",
        ),
    ),
    key=("zone_id", "parameter", "sampled_at", "sample_point"),
    references=(
        ("zone_id", "zones", "zone_id"),
        ("document_id", "documents", "document_id"),
    ),
)

TABLES: tuple[Table, ...] = (SUPPLIERS, ZONES, PLZ_ZONES, DOCUMENTS, MEASUREMENTS)
TABLES_BY_NAME = {t.name: t for t in TABLES}

# Reference tables shipped with the package (generator/reference/); a data directory
# may override them with its own `parameters` / `limits` table of the same shape.
PARAMETERS = Table(
    name="parameters",
    meaning="The parameter register.",
    columns=(
        Column("code", STR, True, "ASCII lower_snake_case id.", "pfas_summe_20", "unique"),
        Column("name_de", STR, True, "German name.", "Summe PFAS-20"),
        Column("name_en", STR, True, "English name.", "Sum of PFAS (20 substances)"),
        Column("unit", STR, False, "Unit values are reported and compared in.", "µg/l"),
        Column("group", STR, True, "Group of the parameter.", "pfas"),
        Column("cas_number", STR, False, "CAS registry number, where one exists.", "335-67-1"),
        Column("annex", STR, False, "Annex of the TrinkwV 2023 listing it.", "Anlage 2 Teil I"),
    ),
    key=("code",),
)

LIMITS = Table(
    name="limits",
    meaning="Versioned limit values of the TrinkwV 2023.",
    columns=(
        Column("code", STR, True, "Parameter code.", "pfas_summe_20", "-> parameters"),
        Column("kind", STR, True, "grenzwert, indicator, range, requirement or richtwert.", ""),
        Column("limit_value", STR, True, "Number, `min..max` range or requirement text.", "0.1"),
        Column("unit", STR, False, "Unit of the value.", "µg/l"),
        Column("valid_from", DATE, True, "First day the value applies (inclusive).", "2026-01-12"),
        Column("valid_until", DATE, False, "Last day (inclusive); empty = open-ended.", ""),
        Column("legal_basis", STR, True, "Where the value is set.", "TrinkwV 2023, Anlage 2"),
        Column("note", STR, False, "Conditions attached to the value.", ""),
        Column("source_url", STR, False, "Text of the annex.", ""),
    ),
    key=("code", "valid_from"),
    references=(("code", "parameters", "code"),),
)

REFERENCE_TABLES: tuple[Table, ...] = (PARAMETERS, LIMITS)
