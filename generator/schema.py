"""The source-data contract (kept for existing imports; it lives in `generator.contract`)."""

from __future__ import annotations

from generator.contract.model import DATE, FLOAT, INT, STR, Column, Table
from generator.contract.tables import (
    ALL_TABLES,
    DOCUMENT_ID_PATTERN,
    DOCUMENTS,
    LIMITS,
    MEASUREMENTS,
    PARAMETERS,
    PLZ_PATTERN,
    PLZ_ZONES,
    REFERENCE_TABLES,
    SUPPLIERS,
    TABLES,
    TABLES_BY_NAME,
    URL_PATTERN,
    ZONES,
)

__all__ = [
    "ALL_TABLES",
    "DATE",
    "DOCUMENTS",
    "DOCUMENT_ID_PATTERN",
    "FLOAT",
    "INT",
    "LIMITS",
    "MEASUREMENTS",
    "PARAMETERS",
    "PLZ_PATTERN",
    "PLZ_ZONES",
    "REFERENCE_TABLES",
    "STR",
    "SUPPLIERS",
    "TABLES",
    "TABLES_BY_NAME",
    "URL_PATTERN",
    "ZONES",
    "Column",
    "Table",
]
