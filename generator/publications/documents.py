"""A publication as it is published: which file it is, which tables it holds, which one to read.

The format is recognised from the file's first bytes, not from its name: `%PDF-` is a PDF,
a ZIP or OLE container an Excel workbook (`.xlsx`, `.xlsm`, `.ods`, `.xls`), markup with
`<html`, `<!DOCTYPE html`, `<table` or `<body` a web page, anything else a CSV table. A
file whose name promises one format and whose content is another is named as such.

Every table of the document is listed with its number (from 1, in document order), its
heading, its size and its layout, or the reason it is no data table: page furniture
(navigation, header, footer), a layout table, a table without a parameter column or
without data rows. `choose` picks the table to import: by number, by a case-insensitive
part of its heading, or the only data table there is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from generator.errors import TrinkwasserError
from generator.publications import layouts
from generator.publications.names import key
from generator.publications.read import (
    EXCEL_SUFFIXES,
    ROW,
    RawTable,
    TableReadError,
    blank_to_null,
    excel_sheets,
    read_csv,
    read_excel,
)

MAX_PAGE_BYTES = 20 * 1024 * 1024
"""A saved supplier page is a few hundred kilobytes; a bigger "page" is no analysis page."""
MAX_PDF_BYTES = 100 * 1024 * 1024

PDF, HTML, EXCEL, CSV = "PDF", "web page", "Excel workbook", "CSV table"
_HTML_SUFFIXES = (".html", ".htm", ".xhtml")


class NoTableChosen(TrinkwasserError):
    """The document has several data tables and none was chosen (exit status 2)."""

    exit_code = 2

    def __init__(self, message: str, listing: str) -> None:
        super().__init__(message)
        self.listing = listing


def sniff(path: Path) -> str:
    """Return the format of the file from its content (see the module doc)."""
    with path.open("rb") as fh:
        head = fh.read(4096)
    if b"%PDF-" in head[:1024]:
        return PDF
    if head.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")):
        return EXCEL
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    for encoded in (text, head.decode("utf-16", "ignore").lower().encode()):
        if encoded.startswith((b"<!doctype html", b"<html", b"<?xml")) or any(
            tag in encoded for tag in (b"<table", b"<body", b"<html")
        ):
            return HTML
    return CSV


def _expected(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return PDF
    if suffix in _HTML_SUFFIXES:
        return HTML
    if suffix in EXCEL_SUFFIXES:
        return EXCEL
    return None


@dataclass(frozen=True)
class FoundTable:
    """One table of a document, and what it is."""

    number: int
    heading: str
    table: RawTable
    rows: int
    columns: int
    layout: layouts.Layout | None
    ignored: str | None
    """Why it is no data table; None for a data table."""
    where: str = ""
    """Page(s) of a PDF, sheet of a workbook."""

    @property
    def is_data(self) -> bool:
        return self.ignored is None


@dataclass(frozen=True)
class Document:
    path: Path
    format: str
    tables: tuple[FoundTable, ...]

    @property
    def data_tables(self) -> list[FoundTable]:
        return [t for t in self.tables if t.is_data]


def _frame(rows: list[list[str | None]]) -> pl.DataFrame:
    width = max((len(r) for r in rows), default=0)
    columns: dict[str, list[str | None]] = {
        f"c{i}": [r[i] if i < len(r) else None for r in rows] for i in range(width)
    }
    # The row numbers come first: a table of rows without cells (`<tr></tr>`) has a height
    # but no columns, which a frame of the columns alone cannot hold.
    frame = pl.DataFrame({ROW: pl.Series(ROW, range(1, len(rows) + 1), dtype=pl.Int64)})
    frame = frame.with_columns(pl.Series(c, v, dtype=pl.String) for c, v in columns.items())
    return blank_to_null(frame.select(*columns, ROW))


def is_header(cells: list[str]) -> bool:
    """Whether a row of cell texts is a table header: it holds a name header."""
    return any(c and layouts.is_name_header(c) for c in cells)


def _classify(raw: RawTable) -> tuple[layouts.Layout | None, str | None]:
    if raw.frame.height == 0 or len(raw.cells) < 2:
        return None, "fewer than two columns or no rows"
    try:
        lay = layouts.layout(raw)
    except TableReadError as exc:
        reason = str(exc).split(": ", 1)[-1]
        if "no header row with a name column" in reason:
            return None, "no parameter column (no header such as Parameter, Kenngröße, ...)"
        return None, reason
    body = raw.frame.height - lay.header_row - lay.header_height
    if body <= 0:
        return None, "no data rows below the header"
    return lay, None


def _found(number: int, heading: str, raw: RawTable, where: str, ignored: str | None) -> FoundTable:
    lay, reason = (None, ignored) if ignored else _classify(raw)
    return FoundTable(
        number=number,
        heading=heading,
        table=raw,
        rows=raw.frame.height,
        columns=len(raw.cells),
        layout=lay,
        ignored=reason,
        where=where,
    )


def _html(path: Path, encoding: str | None) -> list[FoundTable]:
    from generator.publications.html import read_page

    out = []
    for n, table in enumerate(read_page(path, encoding), 1):
        rows = layouts.merge_header_rows(table.rows, table.header_rows)
        raw = RawTable(path, _frame(rows), f"table {n} of a web page")
        out.append(_found(n, table.heading, raw, "", table.ignored))
    return out


def _pdf(path: Path) -> list[FoundTable]:
    from generator.publications.pdf import read_report

    out = []
    for n, table in enumerate(read_report(path, is_header), 1):
        pages = table.pages
        where = f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}-{pages[-1]}"
        raw = RawTable(path, _frame(table.rows), f"table {n} of a PDF ({where})")
        out.append(_found(n, table.heading, raw, where, None))
    return out


def read_document(path: Path, sheet: str | None = None, encoding: str | None = None) -> Document:
    """Read the file and list its tables (see the module doc)."""
    path = Path(path)
    if not path.is_file():
        raise TableReadError(f"{path}: no such file")
    found = sniff(path)
    expected = _expected(path)
    if expected == PDF and found != PDF:
        raise TableReadError(f"{path}: is not a PDF (it does not start with %PDF-)")
    if expected == EXCEL and found != EXCEL:
        raise TableReadError(f"{path}: is not an Excel workbook (no workbook container)")
    size = path.stat().st_size
    if found == HTML and size > MAX_PAGE_BYTES:
        raise TableReadError(
            f"{path}: the page has {size / 1e6:.0f} MB, more than the "
            f"{MAX_PAGE_BYTES // 2**20} MiB a saved supplier page can have; save only the page "
            "with the analysis (not a whole site or a page with embedded files)"
        )
    if found == PDF and size > MAX_PDF_BYTES:
        raise TableReadError(
            f"{path}: the PDF has {size / 1e6:.0f} MB, more than {MAX_PDF_BYTES // 2**20} MiB"
        )
    if sheet is not None and found != EXCEL:
        raise TableReadError(f"{path}: --sheet applies to Excel workbooks only")
    if found == HTML:
        tables = _html(path, encoding)
        if not tables:
            raise TableReadError(f"{path}: the web page holds no table (no <table> element)")
    elif found == PDF:
        tables = _pdf(path)
        if not tables:
            raise TableReadError(
                f"{path}: no table found in the PDF (no header row with a parameter column "
                "such as Parameter or Kenngröße)"
            )
    elif found == EXCEL:
        names = [sheet] if sheet is not None else excel_sheets(path)
        tables = [
            _found(n, name, read_excel(path, name), f"sheet {name!r}", None)
            for n, name in enumerate(names, 1)
        ]
    else:
        raw = read_csv(path, encoding or "utf-8")
        tables = [_found(1, "", raw, "", None)]
    return Document(path, found, tuple(tables))


def listing(doc: Document) -> str:
    """List the tables of the document, one per line: numbers, headings, sizes, layouts."""
    lines = [f"{doc.path} ({doc.format}): {len(doc.data_tables)} data table(s)"]
    for t in doc.tables:
        heading = repr(t.heading) if t.heading else "(no heading)"
        where = f", {t.where}" if t.where else ""
        size = f"{t.rows} rows x {t.columns} columns"
        if t.is_data:
            assert t.layout is not None
            lines.append(f"  {t.number}  {heading}{where}: {size}, {t.layout.kind}")
    ignored = [t for t in doc.tables if not t.is_data]
    if ignored:
        lines.append("Ignored:")
        for t in ignored:
            heading = repr(t.heading) if t.heading else "(no heading)"
            where = f", {t.where}" if t.where else ""
            lines.append(
                f"  {t.number}  {heading}{where}: {t.rows} rows x {t.columns} columns: {t.ignored}"
            )
    return "\n".join(lines)


def choose(doc: Document, table: str | None) -> FoundTable:
    """Choose the table to import: `table` is a number or part of a heading (module doc)."""
    data = doc.data_tables
    if table is None:
        if len(data) == 1:
            return data[0]
        if not data:
            if len(doc.tables) == 1 and doc.tables[0].table.frame.height:
                layouts.layout(doc.tables[0].table)  # raises the reason, with its row
            reasons = "; ".join(f"table {t.number}: {t.ignored}" for t in doc.tables)
            raise TableReadError(f"{doc.path}: no data table ({reasons})")
        raise NoTableChosen(
            f"{doc.path} holds {len(data)} data tables: choose one with --table N or "
            "--table TEXT (a part of its heading)",
            listing(doc),
        )
    text = table.strip()
    if text.isdigit():
        number = int(text)
        match = [t for t in doc.tables if t.number == number]
        if not match:
            raise TableReadError(
                f"{doc.path}: there is no table {number} (the document has {len(doc.tables)})"
            )
        if not match[0].is_data:
            raise TableReadError(f"{doc.path}: table {number} is no data table: {match[0].ignored}")
        return match[0]
    wanted = text.casefold()
    hits = [t for t in data if wanted in t.heading.casefold()]
    if not hits:
        # Umlauts written out or lost (`Wasserwerk Sud`) find the heading too.
        hits = [t for t in data if key(text) and key(text) in key(t.heading)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise NoTableChosen(f"{doc.path}: no data table's heading contains {table!r}", listing(doc))
    numbers = ", ".join(str(t.number) for t in hits)
    raise NoTableChosen(
        f"{doc.path}: {len(hits)} data tables' headings contain {table!r} (tables {numbers}); "
        "choose one by its number",
        listing(doc),
    )
