"""The format constraints the contract's columns share (source and reference tables alike).

Each is a pattern of `generator.api.patterns` with its rule and its words in the docs.
"""

from __future__ import annotations

from generator.api.patterns import (
    ADDRESSES_PATTERN,
    CODE_PATTERN,
    DOCUMENT_ID_PATTERN,
    PLZ_PATTERN,
    SHAPE_PATTERN,
    SOURCES_PATTERN,
    URL_PATTERN,
)
from generator.contract import rules
from generator.contract.constraints import Pattern

PLZ = Pattern(PLZ_PATTERN, rules.MALFORMED_PLZ, "exactly five digits")
DOCUMENT_ID = Pattern(
    DOCUMENT_ID_PATTERN,
    rules.MALFORMED_ID,
    "letters, digits, '_', '.', '-' (at most 64 characters)",
)
URL = Pattern(URL_PATTERN, rules.MALFORMED_URL, "an http(s) URL")
CODE = Pattern(CODE_PATTERN, rules.MALFORMED_CODE, "ASCII lower_snake_case")
SOURCES = Pattern(SOURCES_PATTERN, rules.MALFORMED_SOURCES, "`title | URL` pairs joined by ` ;; `")
ADDRESSES = Pattern(
    ADDRESSES_PATTERN, rules.MALFORMED_ADDRESSES, "http(s) addresses separated by spaces"
)
SHAPE = Pattern(SHAPE_PATTERN, rules.MALFORMED_SHAPE, "rings of `lon lat` pairs (`,` and `;`)")
EXPLAINED_FIELDS = ("what", "origin", "limit_protects", "what_to_do")
