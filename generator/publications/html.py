"""The tables of a saved web page, cell by cell, as the page shows them.

A supplier's page holds its analysis as HTML tables, often one per waterworks in
accordions or tabs, between the site's navigation, layout and footer tables. Every
`<table>` is read into a grid of text: `colspan` and `rowspan` repeat a cell's text into
the columns and rows it spans (so a two-row header names every column), `<br>` and line
breaks are spaces, soft hyphens are dropped, and nothing else of the text is changed.

Each table gets the heading a reader sees for it: its `<caption>`, else the nearest
heading before it (`<h1>`..`<h6>` or an element with `role="heading"`); a table inside an
accordion (`<details>`) is named by its `<summary>`, one in a tab panel by the tab that
labels the panel (`aria-labelledby`). Tables inside `<nav>`, `<header>`,
`<footer>` or `<aside>`, and tables that hold other tables (layout tables), are kept apart
with the reason; which of the rest hold data is decided by `generator.publications.documents`.

lxml (the `import` extra) parses the page; only this module imports it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import install_hint
from generator.publications import caps
from generator.publications.read import TableReadError

SOFT_HYPHEN = "\u00ad"
_SPACE = re.compile(r"\s+")
_FURNITURE = ("nav", "header", "footer", "aside")
_HEADINGS = "h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6"


@dataclass(frozen=True)
class PageTable:
    """One `<table>` of the page: its heading, its grid of text, and why it is no data table."""

    heading: str
    rows: list[list[str | None]]
    header_rows: int
    """How many leading rows are header cells (`<th>` only, or `<thead>`)."""
    ignored: str | None = None


def _lxml() -> Any:
    try:
        import lxml.html
    except ModuleNotFoundError:
        raise TableReadError(
            "reading web pages needs lxml, which is not installed. Install the import extra: "
            + install_hint("import")
        ) from None
    return lxml.html


def clean_text(text: str) -> str:
    """Return a cell's text as a reader sees it: soft hyphens gone, whitespace one space."""
    text = text.replace(SOFT_HYPHEN, "").replace("\u200b", "")
    return _SPACE.sub(" ", text).strip()


def _cell_text(cell: Any) -> str:
    for br in cell.iter("br"):
        br.tail = " " + (br.tail or "")
    for hidden in list(cell.iter("script", "style")):
        hidden.drop_tree()
    return clean_text(cell.text_content())


def _span(cell: Any, name: str) -> int:
    try:
        return max(1, min(int(cell.get(name, "1")), 1000))
    except ValueError:
        return 1


def _own_rows(table: Any) -> list[Any]:
    """Return the table's rows, not those of tables nested in it."""
    return [tr for tr in table.iter("tr") if _owner(tr) is table]


def _owner(element: Any) -> Any:
    parent = element.getparent()
    while parent is not None and parent.tag != "table":
        parent = parent.getparent()
    return parent


def grid(table: Any, name: str = "the table") -> tuple[list[list[str | None]], int]:
    """Return the table as rows of text (spans repeated) and its number of header rows.

    The cells a span makes are counted before they are made: a table of more than
    MAX_TABLE_CELLS is refused (TableReadError), however few bytes it took to write.
    """
    rows: list[list[str | None]] = []
    pending: dict[tuple[int, int], str] = {}  # (row, column) -> text of a rowspan above
    header_rows = 0
    counting_header = True
    cells_made = 0
    own_rows = _own_rows(table)
    for r, tr in enumerate(own_rows):
        row: list[str | None] = []
        cells = [c for c in tr if isinstance(c.tag, str) and c.tag in ("td", "th")]
        in_head = tr.getparent() is not None and tr.getparent().tag == "thead"
        if counting_header and cells and (in_head or all(c.tag == "th" for c in cells)):
            header_rows += 1
        else:
            counting_header = False
        col = 0
        for cell in cells:
            while (r, col) in pending:
                row.append(pending.pop((r, col)))
                col += 1
            width, height = _span(cell, "colspan"), _span(cell, "rowspan")
            # A rowspan reaches no further than the table's last row (as browsers draw it).
            cells_made += width * min(height, len(own_rows) - r)
            _check_cells(name, cells_made)
            text = _cell_text(cell)
            for c in range(col, col + width):
                row.append(text or None)
                for below in range(r + 1, r + height):
                    pending[(below, c)] = text
            col += width
        while (r, col) in pending:
            row.append(pending.pop((r, col)))
            col += 1
        rows.append(row)
    width = max((len(r) for r in rows), default=0)
    _check_cells(name, width * len(rows))  # the rows are filled up to the widest
    return [r + [None] * (width - len(r)) for r in rows], header_rows


def _check_cells(name: str, cells: int) -> None:
    if cells > caps.MAX_TABLE_CELLS:
        raise TableReadError(
            f"{name} has at least {cells:,} cells (rowspan and colspan counted), more than "
            f"the cap of {caps.MAX_TABLE_CELLS:,} cells per table; nothing was read"
        )


def _heading(table: Any, root: Any) -> str:
    caption = table.find("caption")
    if caption is not None and clean_text(caption.text_content()):
        return clean_text(caption.text_content())
    # A tab panel names itself by the tab that shows it.
    for panel in table.iterancestors():
        label = panel.get("aria-labelledby")
        if label:
            found = root.xpath("//*[@id=$id]", id=label.split()[0])
            if found and clean_text(found[0].text_content()):
                return clean_text(found[0].text_content())
    # An accordion's summary names the tables inside its <details> only.
    for details in table.iterancestors("details"):
        summary = details.find("summary")
        if summary is not None and clean_text(summary.text_content()):
            return clean_text(summary.text_content())
    before = table.xpath(f"preceding::*[self::{_HEADINGS} or @role='heading'][1]")
    return clean_text(before[0].text_content()) if before else ""


def _furniture(table: Any) -> str | None:
    for ancestor in table.iterancestors():
        if ancestor.tag in _FURNITURE or ancestor.get("role") in ("navigation", "contentinfo"):
            return f"page furniture (inside <{ancestor.tag}>)"
    if table.get("role") in ("presentation", "none"):
        return "a layout table (role=presentation)"
    if any(_owner(inner) is table for inner in table.iterdescendants("table")):
        return "a layout table (it holds other tables)"
    return None


def read_page(path: Path, encoding: str | None = None) -> list[PageTable]:
    """Return every `<table>` of the saved page, in page order."""
    html = _lxml()
    data = path.read_bytes()
    try:
        parser = html.HTMLParser(encoding=encoding) if encoding else html.HTMLParser()
        root = html.document_fromstring(data, parser=parser)
    except (ValueError, LookupError) as exc:
        raise TableReadError(f"{path}: cannot read the page: {exc}") from None
    except Exception as exc:  # lxml's ParserError for an empty or broken document
        raise TableReadError(f"{path}: cannot read the page: {exc}") from None
    found = list(itertools.islice(root.iter("table"), caps.MAX_PAGE_TABLES + 1))
    if len(found) > caps.MAX_PAGE_TABLES:
        raise TableReadError(
            f"{path}: the page has more than {caps.MAX_PAGE_TABLES:,} tables, the cap per "
            "page; nothing was read"
        )
    tables = []
    for number, table in enumerate(found, 1):
        rows, header_rows = grid(table, f"{path}: table {number}")
        tables.append(PageTable(_heading(table, root), rows, header_rows, _furniture(table)))
    return tables
