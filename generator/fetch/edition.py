"""The edition date a document states: `Stand: 16.07.2021`, `Stand 31.12.2026`, ...

Only a date printed after "Stand" (or "Stand vom", "gültig ab" is not one) counts, in
German day.month.year order or ISO form; a document without one leaves the edition date to
the operator. When several are printed, the latest is the edition.
"""

from __future__ import annotations

import datetime as dt
import re

_STAND = re.compile(
    r"\bStand(?:\s+vom)?\s*[:.]?\s*"
    r"(?:(?P<d>\d{1,2})\.\s?(?P<m>\d{1,2})\.\s?(?P<y>\d{4})|(?P<iso>\d{4}-\d{2}-\d{2}))",
    re.IGNORECASE,
)


def edition_date(text: str) -> dt.date | None:
    """Return the latest date printed after `Stand` in `text`, or None."""
    found: list[dt.date] = []
    for m in _STAND.finditer(text):
        try:
            if m["iso"]:
                found.append(dt.date.fromisoformat(m["iso"]))
            else:
                found.append(dt.date(int(m["y"]), int(m["m"]), int(m["d"])))
        except ValueError:
            continue
    return max(found) if found else None


def document_text(body: bytes, encoding: str = "utf-8") -> str:
    """Decode a document for the search of its edition date (CSV, HTML, plain text)."""
    for name in (encoding, "utf-8", "cp1252"):
        try:
            return body.decode(name)
        except (UnicodeDecodeError, LookupError):
            continue
    return body.decode("utf-8", errors="replace")
