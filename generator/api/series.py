"""A zone's series file: its line layout, and how a gate answers `?parameter=CODE` from it.

The tree holds one series file per zone, never one per filter (a national tree of
per-parameter copies had a million files). The file is a valid document of
`resources.MEASUREMENTS`, written one item per line, so a gate picks the rows of one
parameter without parsing the whole document:

    {"count":6,"documents":[
    {"document_id":"zs-2026",...},
    {"document_id":"zs-2027",...}
    ],"measurements":[
    {"document_id":"zs-2026",...,"parameter":"chrom",...},
    {"document_id":"zs-2026",...,"parameter":"nitrat",...}
    ],"normalized_units":{"chrom":"µg/l","nitrat":"mg/l"},"parameter":null,"zone_id":21}

The frame lines (`HEAD`, `MIDDLE`, `TAIL`) follow from the resource's fields, keys sorted as
everywhere. A row has no `normalized_unit`: it is its parameter's register unit, the same for
every row of the parameter, so the tail states it once per parameter (`UNITS`). A filtered
answer is the compact one-line document of the matching rows, of the documents they cite and
of the code's unit, byte for byte what a per-parameter file would hold. The edge gate
(`netlify/gate/series.ts`) ports `filter_series`; both read the layout from here (the edge
gate through `routes.json`).

Picking rows needs no parser: in a JSON text a `"` inside a string is always escaped, so
`"parameter":"nitrat"` with `{` or `,` before it and `,` or `}` after it can only be that
member of the row object itself; one `bytes.find` scan finds them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from generator.api import resources
from generator.api.messages import fill

LISTS = ("documents", "measurements")
"""The list members of a series, in key order: their items stand one per line."""
ROW_FIELD = "parameter"
"""The field of a row (and the member of the series) the filter compares."""
CITES = "document_id"
"""The field of a row that names a document of the series, and the document's own id."""
COUNT = "count"
UNITS = "normalized_units"
"""The member that gives each parameter of the rows its register unit (`{"blei":"µg/l"}`):
stated once per parameter, not in every row. A filtered answer keeps the asked code's."""


def _frame() -> tuple[str, str, str]:
    """Return the head, middle and tail lines: the members around the two lists."""
    parts, text = [], "{"
    for i, name in enumerate(sorted(resources.MEASUREMENTS.names)):
        text += ("," if i else "") + json.dumps(name) + ":"
        if name in LISTS:
            parts.append(text + "[")
            text = "]"
        else:
            text += "{" + name + "}"
    head, middle = parts
    return head, middle, text + "}"


HEAD, MIDDLE, TAIL = _frame()
"""`{"count":{count},"documents":[`, `],"measurements":[`,
`],"normalized_units":{normalized_units},"parameter":{parameter},"zone_id":{zone_id}}`:
templates of `messages.fill`."""


def layout() -> dict[str, str]:
    """Return what the edge gate needs of the layout (the `series` member of routes.json)."""
    return {
        "head": HEAD,
        "middle": MIDDLE,
        "tail": TAIL,
        "count": COUNT,
        "units": UNITS,
        "field": ROW_FIELD,
        "cites": CITES,
    }


@dataclass(frozen=True)
class Parts:
    """The items of a series file, each the bytes of one JSON object."""

    documents: list[bytes]
    rows: list[bytes]


def split(body: bytes) -> Parts:
    """Return the documents and rows of a series file; ValueError if it is not one."""
    lines = body.split(b"\n")
    if len(lines) < 4 or lines[-1] != b"":
        raise ValueError("not a series file: no frame lines")
    middle = MIDDLE.encode()
    try:
        at = lines.index(middle, 1)
    except ValueError:
        raise ValueError("not a series file: no middle line") from None
    return Parts(_items(lines[1:at]), _items(lines[at + 1 : -2]))


def _items(lines: list[bytes]) -> list[bytes]:
    return [line[:-1] if line.endswith(b",") else line for line in lines]


def _member(code: str) -> bytes:
    return (json.dumps(ROW_FIELD) + ":" + json.dumps(code, ensure_ascii=False)).encode()


def _pick(body: bytes, start: int, end: int, code: str) -> list[bytes]:
    """Return the rows between `start` and `end` whose parameter member is `code`.

    A scan for the member (bytes.find, no line by line work): a hit counts only with `{` or
    `,` before it and `,` or `}` after it, which a string value can never provide.
    """
    member = _member(code)
    rows: list[bytes] = []
    at = body.find(member, start, end)
    while at != -1:
        after = at + len(member)
        if body[at - 1 : at] in (b"{", b",") and body[after : after + 1] in (b",", b"}"):
            line_start = max(body.rfind(b"\n", start, at) + 1, start)
            line_end = body.find(b"\n", after, end)
            line_end = end if line_end == -1 else line_end
            line = body[line_start:line_end]
            rows.append(line[:-1] if line.endswith(b",") else line)
            at = body.find(member, line_end, end)
        else:
            at = body.find(member, at + 1, end)
    return rows


_CITES = re.compile(rb"[{,]" + json.dumps(CITES).encode() + rb':("(?:[^"\\]|\\.)*")')
"""The document id member of an item, found as the parameter is (see the module's note)."""


def _cited(item: bytes) -> object:
    found = _CITES.search(item)
    return None if found is None else json.loads(found.group(1))


def filter_series(body: bytes, code: str, values: dict[str, str]) -> bytes:
    """Return the series of only the rows whose parameter is `code`, as one compact line.

    `values` fills the tail's other members (the zone id, as validated). The documents are
    those the picked rows cite, in the file's order (sorted by id, as the build writes them).
    """
    middle = b"\n" + MIDDLE.encode() + b"\n"
    at = body.find(middle)
    tail = body.rfind(b"\n", 0, len(body) - 1)
    head_end = body.find(b"\n")
    if at == -1 or head_end == -1 or tail < at + len(middle) - 1 or not body.endswith(b"\n"):
        raise ValueError("not a series file: no frame lines")
    rows = _pick(body, at + len(middle), tail, code)
    cited = {_cited(row) for row in rows}
    documents = []
    if cited:
        lines = body[head_end + 1 : at].split(b"\n") if at > head_end else []
        documents = [doc for doc in _items(lines) if _cited(doc) in cited]
    units = {code: tail_units(body[tail + 1 : -1])[code]} if rows else {}
    members = {**values, ROW_FIELD: json.dumps(code, ensure_ascii=False), UNITS: units_text(units)}
    return compact(documents, rows, members)


def tail_units(line: bytes) -> dict[str, object]:
    """Return the `normalized_units` of a series file's tail line (`],"normalized_units":...}`)."""
    if not line.startswith(b"],"):
        raise ValueError("not a series file: no tail line")
    units = json.loads(b"{" + line[2:]).get(UNITS)
    if not isinstance(units, dict):
        raise ValueError("not a series file: no units in the tail line")
    return units


def units_text(units: dict[str, object]) -> str:
    """Return the `normalized_units` member as JSON (codes in order, as every key is sorted)."""
    return json.dumps(dict(sorted(units.items())), ensure_ascii=False, separators=(",", ":"))


def compact(documents: list[bytes], rows: list[bytes], members: dict[str, str]) -> bytes:
    """Return a series as one line (a filtered answer); `members` fills the tail."""
    filled = {**members, COUNT: str(len(rows))}
    return b"".join(
        (
            fill(HEAD, filled).encode(),
            b",".join(documents),
            MIDDLE.encode(),
            b",".join(rows),
            fill(TAIL, filled).encode(),
            b"\n",
        )
    )


def lines(documents: list[bytes], rows: list[bytes], members: dict[str, str]) -> bytes:
    """Return a series in the file layout, one item per line (what the build writes)."""
    filled = {**members, COUNT: str(len(rows))}
    return b"".join(
        (
            fill(HEAD, filled).encode() + b"\n",
            b"".join(item + b",\n" for item in documents[:-1]),
            documents[-1] + b"\n" if documents else b"",
            MIDDLE.encode() + b"\n",
            b"".join(item + b",\n" for item in rows[:-1]),
            rows[-1] + b"\n" if rows else b"",
            fill(TAIL, filled).encode() + b"\n",
        )
    )


def register_codes(register: bytes) -> list[str]:
    """Return the codes of the parameter register file (`v1/parameters.json`), sorted.

    The filter's known values: both gates read them from the register the build published
    (the edge gate through routes.json), so they always match the tree being served.
    """
    document = json.loads(register)
    return sorted(str(p["code"]) for p in document["parameters"])
