"""The `documents` table as files: append a row, set `link_gone_since`; bytes kept otherwise.

`trinkwasser fetch` writes the documents table in two ways only: it appends the row of a
new version (existing rows keep their bytes, like the import's appended measurements), and
it sets or clears `link_gone_since` of the rows whose link it checked. CSV (comma or
semicolon, the file's line ends) and Parquet are both kept in their format.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import polars as pl

from generator.contract.read import candidates, sniff_separator
from generator.contract.tables import DOCUMENTS
from generator.errors import TrinkwasserError

GONE = "link_gone_since"


def documents_file(data_dir: Path) -> Path:
    found = candidates(data_dir, DOCUMENTS.name)
    if len(found) != 1:
        raise TrinkwasserError(f"{data_dir}: expected one documents table, found {len(found)}")
    return found[0]


def _csv_layout(data: bytes) -> tuple[list[str], str, str, bytes]:
    first, _, rest = data.partition(b"\n")
    newline = "\r\n" if first.endswith(b"\r") else "\n"
    header_text = first.decode("utf-8-sig").strip()
    delimiter = sniff_separator(header_text)
    header = [h.strip() for h in next(csv.reader([header_text], delimiter=delimiter))]
    return header, delimiter, newline, rest


def _line(values: list[str], delimiter: str, newline: str) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter, lineterminator=newline).writerow(values)
    return buffer.getvalue().encode("utf-8")


def with_row(path: Path, row: dict[str, str]) -> bytes:
    """Return the bytes of `path` with `row` (column -> text) appended."""
    if path.suffix == ".parquet":
        old = pl.read_parquet(path)
        new = pl.DataFrame({k: [v] for k, v in row.items()}).cast(
            {c: t for c, t in old.schema.items() if c in row}, strict=False
        )
        buffer = io.BytesIO()
        pl.concat([old, new], how="diagonal_relaxed").write_parquet(buffer)
        return buffer.getvalue()
    data = path.read_bytes()
    header, delimiter, newline, _ = _csv_layout(data)
    missing = [c for c in row if c not in header and row[c]]
    if missing:
        first, _, rest = data.partition(b"\n")
        data = first.rstrip(b"\r") + (delimiter + delimiter.join(missing)).encode()
        data += newline.encode() + rest
        header += missing
    if data and not data.endswith(b"\n"):
        data += newline.encode()
    return data + _line([row.get(c, "") for c in header], delimiter, newline)


def with_gone(path: Path, gone: dict[str, str | None]) -> bytes | None:
    """Return the bytes of `path` with `link_gone_since` set per document id.

    None as a date clears it; None is returned when nothing changes.
    """
    if path.suffix == ".parquet":
        old = pl.read_parquet(path)
        current = old[GONE].cast(pl.String) if GONE in old.columns else None
        ids = old["document_id"].to_list()
        values = current.to_list() if current is not None else [None] * len(ids)
        updated = [gone.get(i, v) for i, v in zip(ids, values, strict=True)]
        if updated == values:
            return None
        frame = old.with_columns(pl.Series(GONE, updated, dtype=pl.String).str.to_date())
        buffer = io.BytesIO()
        frame.write_parquet(buffer)
        return buffer.getvalue()
    data = path.read_bytes()
    header, delimiter, newline, _ = _csv_layout(data)
    text = data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    body = [r for r in rows[1:] if r]
    if GONE not in header:
        if not any(v for v in gone.values()):
            return None
        header.append(GONE)
        body = [r + [""] for r in body]
    at = header.index(GONE)
    key = header.index("document_id")
    changed = False
    for r in body:
        if len(r) <= at:
            r.extend([""] * (at + 1 - len(r)))
        if r and r[key].strip() in gone:
            new = gone[r[key].strip()] or ""
            if r[at] != new:
                r[at] = new
                changed = True
    if not changed:
        return None
    out = _line(header, delimiter, newline)
    for r in body:
        out += _line(r, delimiter, newline)
    bom = "\ufeff".encode() if data.startswith("\ufeff".encode()) else b""
    return bom + out
