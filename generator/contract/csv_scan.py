"""Find where a CSV file is broken when the fast reader refuses it.

polars reads a good file in parallel but says little about a bad one ("invalid utf-8
sequence", or a wrong offset). Only then this module walks the raw bytes, record by record,
to name the byte offset, row and column of each fault: bytes that are not UTF-8, a quote
that is never closed, a quote inside an unquoted cell or text after a closing quote, and
rows with more cells than the header. It works on a memory map with one compiled regex
match per record, so even a national file is diagnosed in seconds; good files never pay.
"""

from __future__ import annotations

import mmap
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.contract import rules
from generator.contract.rules import Rule

BOM = b"\xef\xbb\xbf"

Buffer = bytes | mmap.mmap
"""A whole file's bytes: read into memory, or mapped."""
CHUNK = 1 << 24

# How a record ends.
COMPLETE = "complete"
UNCLOSED = "unclosed"  # a quote opens a cell and nothing closes it
QUOTE_INSIDE = "quote_inside"  # a quote in the middle of an unquoted cell
AFTER_QUOTE = "after_quote"  # text between a closing quote and the next delimiter


@dataclass(frozen=True)
class Fault:
    rule: Rule
    message: str
    row: int | None
    """1-based data row; None for the header or the file as a whole."""
    column: str | None


@dataclass(frozen=True)
class _Record:
    index: int
    """0 is the header, then the data rows (a blank line counts, as polars counts it)."""
    start: int
    end: int
    """End of the well-formed part: the fault, or the end of a complete record."""
    kind: str
    next: int
    """Where the next record starts."""


def _patterns(sep: bytes) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    s = re.escape(sep)
    # Possessive quantifiers: an unclosed quote fails in one pass instead of backtracking
    # through the rest of the file.
    quoted = rb'"(?:[^"]++|"")*+"'
    plain = rb'[^"' + s + rb"\n]*+"
    cell = rb"(?:" + quoted + rb"|" + plain + rb")"
    return re.compile(cell + rb"(?:" + s + cell + rb")*+"), re.compile(quoted)


def _line_after(buf: Buffer, offset: int) -> int:
    newline = buf.find(b"\n", offset)
    return len(buf) if newline < 0 else newline + 1


def _records(buf: Buffer, sep: bytes) -> Iterator[_Record]:
    record, quoted = _patterns(sep)
    n = len(buf)
    pos = len(BOM) if buf[: len(BOM)] == BOM else 0
    index = 0
    while pos < n:
        match = record.match(buf, pos)
        assert match is not None  # every part of the pattern may match the empty string
        end = match.end()
        if end >= n or buf[end] == 0x0A:
            rec = _Record(index, pos, end, COMPLETE, end + 1)
        elif buf[end] == 0x22 and (end == pos or buf[end - 1 : end] == sep):
            # Nothing closes this quote: the rest of the file is one cell, not rows.
            yield _Record(index, pos, end, UNCLOSED, n)
            return
        elif buf[end] == 0x22:
            rec = _Record(index, pos, end, QUOTE_INSIDE, _line_after(buf, end))
        else:
            rec = _Record(index, pos, end, AFTER_QUOTE, _line_after(buf, end))
            cells = list(quoted.finditer(buf, pos, end))
            if cells and b"\n" in cells[-1].group():
                # A quoted cell ran over line ends until some later quote "closed" it: the
                # quote that opened it was never closed on its own line. Resume on the next
                # line, so the rows after it keep their numbers.
                opening = cells[-1].start()
                rec = _Record(index, pos, opening, UNCLOSED, _line_after(buf, opening))
        yield rec
        pos = rec.next
        index += 1


def _cells_before(segment: bytes, sep: bytes, quoted: re.Pattern[bytes]) -> int:
    """Count the delimiters outside quoted cells in a well-formed start of a record."""
    count = segment.count(sep)
    if b'"' in segment:
        count -= sum(m.group().count(sep) for m in quoted.finditer(segment))
    return count


def first_invalid_utf8(buf: Buffer) -> tuple[int, int] | None:
    """Return (offset of the first byte that is not UTF-8, number of such bytes), or None."""
    lone = re.compile("[\udc80-\udcff]")
    n = len(buf)
    pos, first, count = 0, None, 0
    while pos < n:
        end = min(pos + CHUNK, n)
        # Never cut a chunk inside a character: back off over continuation bytes.
        while pos + 1 < end < n and (buf[end] & 0xC0) == 0x80:
            end -= 1
        text = bytes(buf[pos:end]).decode("utf-8", errors="surrogateescape")
        found = lone.search(text)
        if found is not None:
            if first is None:
                prefix = text[: found.start()]
                first = pos + len(prefix.encode("utf-8", errors="surrogateescape"))
            count += len(lone.findall(text))
        pos = end
    return None if first is None else (first, count)


def _encoding_message(buf: Buffer, offset: int, count: int) -> str:
    if buf[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "the file is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8"
    byte = buf[offset]
    guess = bytes([byte]).decode("cp1252", errors="replace")
    hint = f" (in Windows-1252 it would be {guess!r})" if guess.isprintable() else ""
    more = f"; {count - 1} more such byte(s) in the file" if count > 1 else ""
    return f"byte 0x{byte:02X} at offset {offset} is not valid UTF-8{hint}{more}"


def diagnose(path: Path, sep: str, header: list[str]) -> list[Fault]:
    """Return every fault found in the bytes of `path`, in file order."""
    if path.stat().st_size == 0:
        return []
    sepb = sep.encode()
    _, quoted = _patterns(sepb)
    faults: list[Fault] = []
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        invalid = first_invalid_utf8(buf)

        def column_at(rec: _Record, offset: int) -> str | None:
            if rec.index == 0:
                return None
            cells = _cells_before(bytes(buf[rec.start : min(offset, rec.end)]), sepb, quoted)
            return header[cells] if cells < len(header) else None

        for rec in _records(buf, sepb):
            row = rec.index or None
            if invalid is not None and rec.start <= invalid[0] < rec.next:
                message = _encoding_message(buf, *invalid)
                faults.append(
                    Fault(rules.INVALID_ENCODING, message, row, column_at(rec, invalid[0]))
                )
            if rec.kind == COMPLETE:
                cells = _cells_before(bytes(buf[rec.start : rec.end]), sepb, quoted) + 1
                if rec.index and cells > len(header):
                    message = f"the row has {cells} cells, the header {len(header)}"
                    faults.append(Fault(rules.FIELD_COUNT, message, row, None))
                continue
            if rec.kind == UNCLOSED:
                rule, what = rules.UNTERMINATED_QUOTE, "opens a cell that is not closed on its line"
            elif rec.kind == QUOTE_INSIDE:
                rule, what = rules.STRAY_QUOTE, "stands inside an unquoted cell"
            else:
                rule, what = rules.STRAY_QUOTE, "is followed by text before the next delimiter"
            message = f"the quote at offset {_quote_offset(buf, rec)} {what}"
            faults.append(Fault(rule, message, row, column_at(rec, rec.end)))
    return faults


def _quote_offset(buf: Buffer, rec: _Record) -> int:
    """Offset of the quote a fault is about: the one at `end`, or the one that closed a cell."""
    if rec.kind == AFTER_QUOTE:
        return rec.end - 1
    return rec.end
