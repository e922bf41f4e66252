"""The patterns the contract's columns share (source and reference tables alike)."""

from __future__ import annotations

from generator.contract import rules
from generator.contract.constraints import Pattern

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
_PAIR = r"-?\d+(\.\d+)? -?\d+(\.\d+)?"
_RING = rf"{_PAIR}(,{_PAIR}){{2,}}"
SHAPE_PATTERN = rf"^{_RING}(;{_RING})*$"
SHAPE = Pattern(SHAPE_PATTERN, rules.MALFORMED_SHAPE, "rings of `lon lat` pairs (`,` and `;`)")
EXPLAINED_FIELDS = ("what", "origin", "limit_protects", "what_to_do")
