"""The rules a data directory can break: a stable name and how to fix it.

The names are part of the documented contract (`docs/data-contract.md`, the `rule` of every
problem): scripts filter on them, so a rule is never renamed. Constraints refer to these
objects; the order here is the order of the rules table in the docs.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.api import routes


@dataclass(frozen=True)
class Rule:
    name: str
    fix: str
    """One sentence telling a data provider how to repair the problem."""


# Files and their structure.
MISSING_DIRECTORY = Rule(
    "missing_directory", "Give the folder that holds the tables (NAME.csv or NAME.parquet each)."
)
MISSING_TABLE = Rule("missing_table", "Add NAME.csv or NAME.parquet to the data directory.")
AMBIGUOUS_TABLE = Rule("ambiguous_table", "Keep only one of NAME.csv and NAME.parquet.")
UNREADABLE_FILE = Rule(
    "unreadable_file", "Save the table as UTF-8 CSV (comma or semicolon) or as Parquet."
)
INVALID_ENCODING = Rule(
    "invalid_encoding",
    "Save the file as UTF-8 (Excel: 'CSV UTF-8'; LibreOffice: character set 'Unicode (UTF-8)').",
)
UNTERMINATED_QUOTE = Rule(
    "unterminated_quote",
    'Close the quoted cell with a second " (a quote inside a cell is written "").',
)
STRAY_QUOTE = Rule(
    "stray_quote",
    'Quote the whole cell ("5"" Rohr") or remove the quote; text may not follow a closing quote.',
)
FIELD_COUNT = Rule(
    "field_count",
    "Give every row as many cells as the header has columns; quote cells containing the delimiter.",
)
EMPTY_TABLE = Rule("empty_table", "The table needs at least one data row.")
MISSING_COLUMN = Rule("missing_column", "Add the column to the header (names are case-sensitive).")
UNKNOWN_COLUMN = Rule(
    "unknown_column", "Remove the column or fix its name (see docs/data-contract.md)."
)
CONTROL_CHARACTER = Rule(
    "control_character",
    "Remove the control character (a line break, NUL, a Unicode noncharacter such as U+FFFE or "
    "other invisible code; tabs are allowed).",
)

# Cells.
EMPTY_REQUIRED = Rule("empty_required", "Fill in the value; this column is required.")
WRONG_TYPE = Rule(
    "wrong_type",
    "Write a value of the column's type (integers without decimals, numbers with a decimal point).",
)
INVALID_DATE = Rule("invalid_date", "Write a real calendar date as YYYY-MM-DD.")
MALFORMED_PLZ = Rule(
    "malformed_plz", "Write the PLZ as exactly five digits, keeping leading zeros (01067)."
)
MALFORMED_ID = Rule("malformed_id", "Use letters, digits, '_', '.', '-' (at most 64 characters).")
MALFORMED_CODE = Rule("malformed_code", "Use ASCII lower_snake_case (e.g. pfas_summe_20).")
MALFORMED_URL = Rule("malformed_url", "Write a full http:// or https:// address.")
MALFORMED_SOURCES = Rule(
    "malformed_sources",
    "Give each source as its title and its http(s) address, separated by a vertical bar; "
    "separate two sources by ` ;; `.",
)
MALFORMED_SHAPE = Rule(
    "malformed_shape",
    "Write an area as rings of `lon lat` pairs in decimal degrees, pairs separated by commas, "
    "rings by semicolons, as `trinkwasser mapping` writes plz_shapes.csv.",
)
NOT_POSITIVE = Rule("not_positive", "Ids are whole numbers greater than 0.")
NEGATIVE = Rule("negative", "The value cannot be negative.")
OUT_OF_RANGE = Rule("out_of_range", "Keep the value inside the range the contract gives.")

# Rows and tables together.
DUPLICATE_KEY = Rule("duplicate_key", "Remove the duplicate or change its key.")
DANGLING_REFERENCE = Rule(
    "dangling_reference", "Add the referenced row to the other table or fix the id."
)
SHARE_SUM_EXCEEDS_ONE = Rule(
    "share_sum_exceeds_one",
    "Lower the shares; together they cover at most the whole PLZ (or the whole street).",
)
DATE_ORDER = Rule("date_order", "Check the two dates; one of them is impossible as written.")
OVERLAPPING_VALIDITY = Rule(
    "overlapping_validity", "Let each validity period end the day before the next starts."
)
UNKNOWN_PARAMETER = Rule(
    "unknown_parameter", f"Use a code from the parameter register ({routes.url('parameters')})."
)
UNKNOWN_UNIT = Rule("unknown_unit", "Use a unit spelling listed in docs/data-contract.md.")
UNIT_NOT_CONVERTIBLE = Rule(
    "unit_not_convertible", "Use a unit of the same kind as the parameter's unit."
)
INVALID_CHOICE = Rule("invalid_choice", "Use one of the listed values.")
MISSING_REASON = Rule(
    "missing_reason",
    "Give the spelling its register code, or say in the note why it is no register parameter.",
)
MALFORMED_ADDRESSES = Rule(
    "malformed_addresses",
    "List the http(s) addresses of the publications that print the spelling, separated by spaces.",
)
INVALID_LIMIT_VALUE = Rule(
    "invalid_limit_value", "Write a number, a range as min..max, or the requirement text."
)

# The mapping's provenance file.
INVALID_PROVENANCE = Rule(
    "invalid_provenance",
    "Run `trinkwasser mapping` again to rewrite mapping.json, or remove the file (the build "
    "then credits the map data without dates).",
)

WARNINGS: frozenset[str] = frozenset({UNIT_NOT_CONVERTIBLE.name})
"""Rules whose breaches are warnings, not errors: the row is kept and the build goes on.

A unit that does not convert for its parameter (Karbonathärte in mmol/l, conductivity at
20 °C) is a value the build cannot compare, not a broken row: it is kept in the series as
published, without a verdict (`normalized_value` null), and listed like an error."""

ALL: tuple[Rule, ...] = tuple(v for v in list(globals().values()) if isinstance(v, Rule))
BY_NAME: dict[str, Rule] = {r.name: r for r in ALL}
assert len(BY_NAME) == len(ALL), "two rules share a name"
