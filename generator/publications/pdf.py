"""The tables of a PDF report, from its text layer, as they are printed.

A laboratory's or utility's report prints its analysis as tables that run over several
pages (the header row repeated on each), with headers and names wrapped onto two lines.
pdfplumber (on pdfminer.six; the `import` extra, imported only here) gives the words and
ruling lines of every page:

- **ruled tables**: where lines are drawn, pdfplumber's cells are the table's cells; a
  cell printed on two lines is one cell;
- **tables without lines**: the words of a page are grouped into lines, each line into
  cells where the gap between words is wider than a few spaces; a table starts at a line
  with a name header (`Parameter`, `Kenngröße`, ...) and the header's cells give the
  columns (every later cell goes to the column its middle lies under); it ends at a gap
  of more than two lines, at the next header or at the end of the page;
- a table on the next page with the same columns whose first row repeats the header
  continues the table before it, the repeated header dropped; a ruled table also goes on
  without a repeated header (a table without lines needs it: without a header its columns
  are unknown);
- a line ending in a hyphen is joined to the next without the hyphen when the next starts
  in lower case (`Bestimmungs-` `grenze`), else kept with it (`1,2-` `Dichlorethan`); soft
  hyphens are dropped;
- text is read in the order the page draws it: a name and a unit printed over each other
  (a name column too narrow for its names) stay whole, each placed under its own column,
  where position order interleaves their letters (`Oxidierbarkeit (KmMgn/lO O42)`).

A table's heading is the nearest text line above it on its page. A PDF without a text
layer (a scan), an encrypted PDF and a damaged one are refused: nothing is recognised from
images here.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import install_hint
from generator.publications import caps
from generator.publications.read import TableReadError

SOFT_HYPHEN = "\u00ad"
LINE_TOLERANCE = 3.0
"""Words whose tops differ by at most this (points) are on one line."""
CELL_GAP = 7.0
"""A gap between words wider than this (points, about two spaces) separates two cells."""
TABLE_GAP = 2.2
"""A gap of more than this many line pitches ends a table without lines."""


@dataclass
class PdfTable:
    """One table of the report: heading, rows of text, where it is printed."""

    heading: str
    rows: list[list[str | None]]
    pages: list[int]
    header: int | None
    """Index of the header row (the first row with a name header), if one was found."""
    ruled: bool
    continued: list[int] = field(default_factory=list)
    """Pages whose part of the table was appended here (their repeated header dropped)."""


def join_lines(first: str, second: str) -> str:
    """Join two printed lines of one cell (see the module doc for hyphens)."""
    first, second = first.replace(SOFT_HYPHEN, "\x00"), second.strip()
    if first.endswith("\x00"):
        return first[:-1].replace("\x00", "") + second
    first = first.replace("\x00", "").rstrip()
    if not first:
        return second
    if not second:
        return first
    if first.endswith("-") and second[:1].islower() and first[-2:-1].isalpha():
        return first[:-1] + second
    if first.endswith("-"):
        return first + second
    return first + " " + second


def _cell(text: str | None) -> str | None:
    if text is None:
        return None
    lines = text.split("\n")
    out = lines[0]
    for line in lines[1:]:
        out = join_lines(out, line)
    out = re.sub(r"\s+", " ", out.replace(SOFT_HYPHEN, "")).strip()
    return out or None


def _pdfplumber() -> Any:
    try:
        import pdfplumber
    except ModuleNotFoundError:
        raise TableReadError(
            "reading PDF reports needs pdfplumber, which is not installed. Install the import "
            f"extra: {install_hint('import')}"
        ) from None
    return pdfplumber


def _open(path: Path) -> Any:
    pdfplumber = _pdfplumber()
    try:
        pdf = pdfplumber.open(path)
        _check_pages(path, pdf)
        pages = pdf.pages  # parses the page tree: a damaged file fails here
        if getattr(pdf.doc, "encryption", None):
            pdf.close()
            raise TableReadError(
                f"{path}: the PDF is encrypted; save an unprotected copy (or the supplier's "
                "web page) and import that"
            )
        if not pages:
            raise TableReadError(f"{path}: the PDF has no pages")
        if len(pages) > caps.MAX_PDF_PAGES:  # the tree held more than its count said
            pdf.close()
            raise _too_many_pages(path, len(pages))
        return pdf
    except TableReadError:
        raise
    except Exception as exc:  # pdfminer raises many kinds for damaged or protected files
        inner = exc.args[0] if exc.args else exc
        kind = type(inner).__name__
        if "Password" in kind or "Encrypt" in kind or "password" in str(inner).lower():
            raise TableReadError(
                f"{path}: the PDF is encrypted (password protected); save an unprotected copy "
                "and import that"
            ) from None
        raise TableReadError(
            f"{path}: the PDF is damaged or not a PDF ({kind}: {inner}); download it again"
        ) from None


def _too_many_pages(path: Path, pages: int) -> TableReadError:
    return TableReadError(
        f"{path}: the PDF has {pages:,} pages, more than the cap of {caps.MAX_PDF_PAGES:,} "
        "pages per report; nothing was read"
    )


def _check_pages(path: Path, pdf: Any) -> None:
    """Refuse a PDF whose page tree says it has more pages than the cap, before reading it."""
    from pdfminer.pdftypes import resolve1

    try:
        count = resolve1(resolve1(pdf.doc.catalog["Pages"])["Count"])
    except Exception:  # noqa: BLE001 - no count to trust: the pages themselves are counted
        return
    if isinstance(count, int) and count > caps.MAX_PDF_PAGES:
        pdf.close()
        raise _too_many_pages(path, count)


# ---------------------------------------------------------------------------- words


@dataclass
class _Cell:
    text: str
    x0: float
    x1: float

    @property
    def middle(self) -> float:
        return (self.x0 + self.x1) / 2


@dataclass
class _Line:
    top: float
    bottom: float
    cells: list[_Cell]

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.cells)


OVERLAP = 0.5
"""Words that overlap by more than this (points) are printed over each other."""


def _lines(words: list[dict[str, Any]]) -> list[_Line]:
    """Group words into lines (by their top) and each line into cells (by the gaps).

    `words` come in the order the PDF draws them (reading order), each a run of characters
    that do not interleave with another's: a name printed so long that its unit, drawn
    after it, starts inside it (`Oxidierbarkeit (KMnO4)` over `mg/l O2`) stays a name and
    a unit. Words drawn one after the other and left to right with small gaps are one run;
    runs that overlap stay apart (two cells, each placed under its own column), other runs
    are joined by the gaps between them as before.
    """
    lines: list[list[list[dict[str, Any]]]] = []  # lines of runs of words
    previous: dict[str, Any] | None = None
    for word in words:
        line = next(
            (g for g in reversed(lines) if abs(g[0][0]["top"] - word["top"]) <= LINE_TOLERANCE),
            None,
        )
        if line is None:
            lines.append([[word]])
        else:
            run = line[-1]
            gap = word["x0"] - run[-1]["x1"]
            if run[-1] is previous and -OVERLAP <= gap <= CELL_GAP:
                run.append(word)
            else:
                line.append([word])
        previous = word
    lines.sort(key=lambda g: min(r[0]["top"] for r in g))
    return [_line(group) for group in lines]


def _line(runs: list[list[dict[str, Any]]]) -> _Line:
    """One line from its runs of words: runs that do not overlap join by their gaps."""
    cells: list[_Cell] = []
    for run in sorted(runs, key=lambda r: r[0]["x0"]):
        text = run[0]["text"]
        for word in run[1:]:
            text = join_lines(text, word["text"])
        x0, x1 = run[0]["x0"], max(w["x1"] for w in run)
        if cells and -OVERLAP <= x0 - cells[-1].x1 <= CELL_GAP:
            cells[-1].text = join_lines(cells[-1].text, text)
            cells[-1].x1 = max(cells[-1].x1, x1)
        else:
            cells.append(_Cell(text, x0, x1))
    for cell in cells:
        cell.text = cell.text.replace(SOFT_HYPHEN, "")
    words = [w for run in runs for w in run]
    return _Line(min(w["top"] for w in words), max(w["bottom"] for w in words), cells)


def _heading_above(lines: list[_Line], top: float) -> str:
    above = [line for line in lines if line.bottom <= top + 0.5]
    return above[-1].text.strip() if above else ""


# ---------------------------------------------------------------------------- without lines


def _columns(header: _Line) -> list[float]:
    """Boundaries between the header's cells: the middle of each gap."""
    cells = header.cells
    return [(a.x1 + b.x0) / 2 for a, b in zip(cells, cells[1:], strict=False)]


def _place(line: _Line, bounds: list[float]) -> list[str | None]:
    row: list[str | None] = [None] * (len(bounds) + 1)
    for cell in line.cells:
        column = sum(cell.middle > b for b in bounds)
        row[column] = cell.text if row[column] is None else f"{row[column]} {cell.text}"
    return row


def _unruled(
    lines: list[_Line], is_header: Callable[[list[str]], bool], page: int
) -> list[PdfTable]:
    tables: list[PdfTable] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not is_header([c.text for c in line.cells]) or len(line.cells) < 2:
            i += 1
            continue
        bounds = _columns(line)
        rows: list[list[str | None]] = [[c.text for c in line.cells]]
        heading = _heading_above(lines[:i], line.top)
        pitches = [
            b.top - a.top for a, b in zip(lines[i : i + 6], lines[i + 1 : i + 7], strict=False)
        ]
        pitch = statistics.median(pitches) if pitches else 12.0
        last = line
        j = i + 1
        while j < len(lines):
            nxt = lines[j]
            if nxt.top - last.top > TABLE_GAP * pitch or is_header([c.text for c in nxt.cells]):
                break
            rows.append(_place(nxt, bounds))
            last = nxt
            j += 1
        tables.append(PdfTable(heading, _rejoin(rows), [page], 0, ruled=False))
        i = j
    return tables


_CONNECTORS = ("und", "and", "oder", "bzw.", "bei", "als", "an", "für", ",", "-", "/", "(")


def _continues(previous: str, line: str) -> bool:
    """Whether `line` (alone in the name column) continues the name above it."""
    if line[:1].islower() or line[:1] in "([" or previous.endswith(SOFT_HYPHEN):
        return True
    if previous.count("(") > previous.count(")"):
        return True
    return previous.endswith(_CONNECTORS) or previous.rsplit(" ", 1)[-1] in _CONNECTORS


def _rejoin(rows: list[list[str | None]]) -> list[list[str | None]]:
    """Join a line that only continues the name above it (a name wrapped onto two lines)."""
    out: list[list[str | None]] = []
    for row in rows:
        name, above = row[0], (out[-1][0] if out else None)
        if name and above and _continues(above, name):
            if not any(row[1:]) and any(out[-1][1:]):  # values beside the first line
                out[-1][0] = join_lines(above, name)
                continue
            if any(row[1:]) and not any(out[-1][1:]):  # values beside the last line
                out[-1] = [join_lines(above, name), *row[1:]]
                continue
        out.append(row)
    return out


# ---------------------------------------------------------------------------- the document


def _same(a: list[str | None], b: list[str | None]) -> bool:
    def norm(row: list[str | None]) -> list[str]:
        return [re.sub(r"\W+", "", (c or "").casefold()) for c in row]

    return norm(a) == norm(b)


def _continue(tables: list[PdfTable], is_header: Callable[[list[str]], bool]) -> list[PdfTable]:
    """Append each table that continues the one on the page before (see the module doc)."""
    out: list[PdfTable] = []
    first_on_page: set[int] = set()
    for n, table in enumerate(tables):
        if n == 0 or tables[n - 1].pages[-1] != table.pages[0]:
            first_on_page.add(n)
    for n, table in enumerate(tables):
        if out and n in first_on_page:
            prev = out[-1]
            width = len(prev.rows[0]) if prev.rows else 0
            follows = prev.pages[-1] == table.pages[0] - 1
            if follows and table.rows and len(table.rows[0]) == width and prev.header is not None:
                header = prev.rows[prev.header]
                rows = table.rows
                if _same(rows[0], header):
                    rows = rows[1:]
                elif any(is_header([c or ""]) for c in rows[0]):
                    out.append(table)
                    continue
                prev.rows.extend(rows)
                prev.pages.append(table.pages[0])
                prev.continued.append(table.pages[0])
                continue
        out.append(table)
    return out


def read_report(path: Path, is_header: Callable[[list[str]], bool]) -> list[PdfTable]:
    """Return every table of the PDF, continued tables joined (see the module doc).

    `is_header` says whether a row of cell texts is a table header (holds a name header).
    """
    pdf = _open(path)
    tables: list[PdfTable] = []
    chars = 0
    try:
        for number, page in enumerate(pdf.pages, 1):
            chars += len(page.chars)
            # In the order the page draws its text: characters of a name and a unit printed
            # over each other do not interleave (`(mKgM/nl`), each stays whole.
            words = page.extract_words(
                x_tolerance=1.5, y_tolerance=2, keep_blank_chars=False, use_text_flow=True
            )
            lines = _lines(words)
            found = page.find_tables({"vertical_strategy": "lines", "horizontal_strategy": "lines"})
            ruled = [t for t in found if len(t.columns) >= 2 and len(t.rows) >= 2]
            if ruled:
                for table in sorted(ruled, key=lambda t: t.bbox[1]):
                    rows = [[_cell(c) for c in row] for row in table.extract(use_text_flow=True)]
                    header = next(
                        (i for i, r in enumerate(rows[:30]) if is_header([c or "" for c in r])),
                        None,
                    )
                    heading = _heading_above(lines, table.bbox[1])
                    tables.append(PdfTable(heading, rows, [number], header, ruled=True))
            else:
                tables.extend(_unruled(lines, is_header, number))
    except TableReadError:
        raise
    except Exception as exc:
        raise TableReadError(f"{path}: the PDF is damaged ({type(exc).__name__}: {exc})") from None
    finally:
        pdf.close()
    if chars == 0:
        raise TableReadError(
            f"{path}: the PDF has no text layer (a scanned document?); text in images is not "
            "recognised here: ask the supplier for the report as text, or use its web page"
        )
    return _continue(tables, is_header)


def text(path: Path) -> str:
    """Return the text layer of every page, in reading order ("" for a scan)."""
    pdf = _open(path)
    try:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)
    except Exception as exc:
        raise TableReadError(f"{path}: the PDF is damaged ({type(exc).__name__}: {exc})") from None
    finally:
        pdf.close()
