"""The patterns of the data: the one place a PLZ, a parameter code or an id is defined.

A leaf: plain regular expressions, imported by the contract's column checks
(`generator.contract.formats`), by the API's schemas and routes (`generator.api`) and by
the mapping, so a PLZ looks the same in a source table, a request and a document.
"""

from __future__ import annotations

PLZ_PATTERN = r"^\d{5}$"
"""A German postal code: exactly five digits."""
DOCUMENT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$"
URL_PATTERN = r"^https?://[^\s/$.?#][^\s]*$"
CODE_PATTERN = r"^[a-z][a-z0-9_]*$"
"""How the register's parameter codes look. The API does not check it: an unknown code is
a 404 (docs/architecture.md, "Codes are plain strings"), whatever it looks like."""
SOURCES_PATTERN = r"^[^|]+ \| https?://\S+( ;; [^|]+ \| https?://\S+)*$"
"""`title | url`, several joined by ` ;; ` (a title holds no `|`, a URL no space)."""
ADDRESSES_PATTERN = r"^https?://\S+(\s+https?://\S+)*$"
"""http(s) addresses separated by whitespace (the `source` of an alias)."""
_PAIR = r"-?\d+(\.\d+)? -?\d+(\.\d+)?"
_RING = rf"{_PAIR}(,{_PAIR}){{2,}}"
SHAPE_PATTERN = rf"^{_RING}(;{_RING})*$"
"""A map shape: rings of `lon lat` pairs, points joined by `,`, rings by `;`."""
