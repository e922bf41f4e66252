"""A bounded look at a workbook before it is read: no gigabytes for a sheet of a few cells.

The Excel reader (calamine, under fastexcel) builds a dense grid from the first to the last
cell of a sheet. A workbook of two cells, `A1` and `XFD1048576`, is a few kilobytes on disk
and 17 billion cells in memory; a zip entry of a few kilobytes may unpack to gigabytes.
Before the reader sees a workbook, its zip entries' unpacked sizes are checked, and for
`.xlsx`/`.xlsm` the extent of the sheet to be read is found by streaming its XML (nothing is
built from it). What is beyond the limits is refused with one clear line.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path, PurePosixPath

from generator.errors import TrinkwasserError

MAX_CELLS = 2_000_000
"""Cells (rows x columns of the extent) a sheet may span: a supplier's table has thousands."""
MAX_UNPACKED = 256 * 1024 * 1024
"""Bytes one zip entry of a workbook may unpack to."""
_CHUNK = 1 << 20
_CELL = re.compile(rb'<(?:\w+:)?c\b[^>]*?\br="([A-Z]{1,3})([0-9]{1,7})"')
_ROW = re.compile(rb'<(?:\w+:)?row\b[^>]*?\br="([0-9]{1,7})"')
_SHEET = re.compile(rb"<(?:\w+:)?sheet\b[^>]*?/?>")
_ATTR = re.compile(rb'([\w:]+)="([^"]*)"')
_REL = re.compile(rb"<(?:\w+:)?Relationship\b[^>]*?/?>")


class WorkbookTooLarge(TrinkwasserError):
    """Reading the workbook would need far more memory than its table can hold."""


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


def _column_letters(number: int) -> str:
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _sheet_entry(book: zipfile.ZipFile, sheet: str | None) -> tuple[str, str] | None:
    """(zip entry, sheet name) of the named sheet, or of the first one; None if not found."""
    try:
        workbook = book.read("xl/workbook.xml")
        rels = book.read("xl/_rels/workbook.xml.rels")
    except KeyError:
        return None
    targets = {}
    for rel in _REL.findall(rels):
        attrs = dict(_ATTR.findall(rel))
        if b"Id" in attrs and b"Target" in attrs:
            targets[attrs[b"Id"]] = attrs[b"Target"].decode("utf-8", "replace")
    for element in _SHEET.findall(workbook):
        attrs = {k.split(b":")[-1]: v for k, v in _ATTR.findall(element)}
        name = attrs.get(b"name", b"").decode("utf-8", "replace")
        if sheet is not None and name != sheet:
            continue
        target = targets.get(attrs.get(b"id", b""))
        if target is None:
            return None
        entry = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
        return str(PurePosixPath(entry)), name
    return None


def _extent(book: zipfile.ZipFile, entry: str) -> tuple[int, int]:
    """(last row, last column) of a sheet's cells, streamed from its XML."""
    rows = columns = 0
    tail = b""
    with book.open(entry) as fh:
        while chunk := fh.read(_CHUNK):
            text = tail + chunk
            for letters, row in _CELL.findall(text):
                columns = max(columns, _column_number(letters))
                rows = max(rows, int(row))
            for row in _ROW.findall(text):
                rows = max(rows, int(row))
            tail = text[-256:]  # a tag cut in two is found whole in the next round
    return rows, columns


def check_workbook_size(path: Path, sheet: str | None = None) -> None:
    """Refuse a workbook whose reading would take gigabytes.

    A workbook that is no zip file (`.xls`) is left to the reader.
    """
    try:
        book = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        return
    with book:
        for info in book.infolist():
            if info.file_size > MAX_UNPACKED:
                raise WorkbookTooLarge(
                    f"{path}: the part {info.filename} unpacks to {info.file_size:,} bytes "
                    f"(at most {MAX_UNPACKED:,} are read); save the table on its own"
                )
        found = _sheet_entry(book, sheet)
        if found is None:
            return
        entry, name = found
        if entry not in book.namelist():
            return
        rows, columns = _extent(book, entry)
    if rows * columns > MAX_CELLS:
        raise WorkbookTooLarge(
            f"{path}: sheet {name!r} spans A1:{_column_letters(columns)}{rows} "
            f"({rows * columns:,} cells; at most {MAX_CELLS:,} are read): reading it would need "
            "gigabytes. Delete the stray cells far from the table, or copy the table into a "
            "new workbook"
        )
