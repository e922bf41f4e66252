"""The layouts suppliers print their tables in, turned into one row per published value.

The header row is the first row (of the first 30) with a name column (`Parameter`,
`Kenngröße`, `Untersuchungsparameter`, ...). Each column then gets a role from its header:

| role | headers (any case, umlauts or not) |
|---|---|
| name | Parameter, Parametername, Kenngröße, Messgröße, Untersuchungsparameter, Stoff, ... |
| unit | Einheit, Maßeinheit, Dimension |
| value | Wert, Messwert, Ergebnis, Befund, Analysenwert, Messergebnis, ... |
| statistic | Minimum/Min./Minimalwert, Mittelwert/Durchschnitt/MW, Maximum/Max./Maximalwert |
| date | a date: `15.03.2025`, `2025-03-15` (an Excel date cell too) |
| reporting limit | BG, Bestimmungsgrenze, Nachweisgrenze, NWG |
| ignored | Grenzwert..., Richtwert, Parameterwert, Anforderung, Anzahl, Methode, Verfahren, |
| | Norm, Bemerkung, Hinweis, Nr., CAS, Median, ... |
| sampling point | any other header, when the table has no value, statistic or date column |

So the layouts are: one value column; one column per statistic; one column per date; one
column per sampling point; each with or without a unit and a reporting-limit column. A
header may carry a unit (`Messwert [mg/l]`): it is the unit of the rows whose own unit
cell is empty. Every value cell becomes one row; an empty cell is no value.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

import polars as pl

from generator.publications.names import (
    STATISTIC_MARKERS,
    UNSUPPORTED_STATISTICS,
    _marker,
    key,
    parse,
)
from generator.publications.read import ROW, RawTable, TableReadError

HEADER_SEARCH_ROWS = 30

NAME_HEADERS = (
    "Parameter",
    "Parametername",
    "Parameterbezeichnung",
    "Kenngröße",
    "Messgröße",
    "Untersuchungsparameter",
    "Prüfparameter",
    "Analysenparameter",
    "Stoff",
    "Inhaltsstoff",
    "Bezeichnung",
    "Analyt",
    "Merkmal",
    "Kriterium",
    "Kenngrößen",
    "Parameter (Einheit)",
    "Parameter [Einheit]",
    "Physikalisch-chemische Kenngröße",
)
UNIT_HEADERS = ("Einheit", "Maßeinheit", "Dimension", "Einh.", "Unit")
VALUE_HEADERS = (
    "Wert",
    "Werte",
    "Messwert",
    "Messwerte",
    "Ergebnis",
    "Ergebnisse",
    "Befund",
    "Analysenwert",
    "Analysenergebnis",
    "Messergebnis",
    "Konzentration",
    "Gehalt",
    "Ist",
    "Istwert",
    "Ist-Wert",
    "tatsächlicher Wert",
    "Prüfergebnis",
    "Prüfergebnisse",
    "Untersuchungsergebnis",
    "Untersuchungsergebnisse",
    "Analyseergebnis",
    "Analyseergebnisse",
    "Analysenergebnisse",
    "Gemessener Wert",
    "Gemessene Werte",
    "Gemessene Konzentration",
    "Gemessene Konzentrationen",
    "Resultat",
    "Befunde",
)
LIMIT_HEADERS = (
    "BG",
    "Bestimmungsgrenze",
    "Nachweisgrenze",
    "NWG",
    "NG",
    "Bestimmungsgrenze (BG)",
)
IGNORED_HEADERS: dict[str, str] = {
    "Richtwert": "a limit",
    "Parameterwert": "a limit",
    "Anforderung": "a limit",
    "Anforderungen": "a limit",
    "Anzahl": "a count of samples",
    "Anzahl Proben": "a count of samples",
    "Anzahl der Proben": "a count of samples",
    "Anzahl Messungen": "a count of samples",
    "n": "a count of samples",
    "Methode": "the method",
    "Verfahren": "the method",
    "Analysenverfahren": "the method",
    "Prüfverfahren": "the method",
    "Norm": "the method",
    "Bemerkung": "a remark",
    "Bemerkungen": "a remark",
    "Hinweis": "a remark",
    "Hinweise": "a remark",
    "Nr.": "a row number",
    "lfd. Nr.": "a row number",
    "CAS": "the CAS number",
    "CAS-Nr.": "the CAS number",
    "CAS-Nummer": "the CAS number",
}
_LIMIT_PREFIXES = (
    "grenzwert",
    "zulasigerhochstwert",
    "hochstzulasig",
    "trinkwv",
    "richtwert",
    "richtgrenzwert",
    "parameterwert",
    "anforderung",
    "vorgabe",
    "leitwert",
    "orientierungswert",
    "gow",
    "masnahmenwert",
)

NAME, UNIT, VALUE, STATISTIC, DATE, REPORTING_LIMIT, IGNORED, POINT = (
    "name",
    "unit",
    "value",
    "statistic",
    "date",
    "reporting limit",
    "ignored",
    "sampling point",
)
_DATE_FORMATS = ("%d.%m.%Y", "%Y-%m-%d", "%d.%m.%y", "%Y-%m-%d %H:%M:%S")


def _keys(headers: tuple[str, ...]) -> set[str]:
    return {key(h) for h in headers}


_NAME_KEYS = _keys(NAME_HEADERS)
_UNIT_KEYS = _keys(UNIT_HEADERS)
_VALUE_KEYS = _keys(VALUE_HEADERS)
_LIMIT_KEYS = _keys(LIMIT_HEADERS)
_IGNORED_KEYS = {key(h): why for h, why in IGNORED_HEADERS.items()}
_STATISTIC_KEYS = {key(m): s for m, s in STATISTIC_MARKERS.items()}


@dataclass(frozen=True)
class Column:
    """One column of the table and what it holds."""

    cell: str
    """Column of the raw frame (`c3`)."""
    header: str
    role: str
    statistic: str = "sample"
    sampled_at: dt.date | None = None
    sample_point: str | None = None
    unit: str | None = None
    """A unit printed in the header."""
    why: str = ""
    """Why an ignored column is ignored."""


@dataclass(frozen=True)
class Layout:
    """The header row of a table, its columns and what kind of layout they make."""

    header_row: int
    """Index of the header in the raw frame."""
    header_line: int
    """Row of the header as a person sees it (line of the CSV file, row of the sheet)."""
    columns: tuple[Column, ...]
    kind: str
    notes: tuple[str, ...] = field(default=())
    header_height: int = 1
    """Rows the header is printed on (2 for a header on two lines)."""

    def of(self, role: str) -> list[Column]:
        return [c for c in self.columns if c.role == role]


def _date(text: str) -> dt.date | None:
    for fmt in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(text.strip(), fmt).date()
        except ValueError:
            continue
    return None


def _role(cell: str, header: str | None) -> Column:
    if header is None:
        return Column(cell, "", IGNORED, why="no header")
    k = key(header)
    parsed = parse(header)
    base = key(parsed.base) if parsed.base != header else k
    if k in _NAME_KEYS:
        return Column(cell, header, NAME)
    if k in _UNIT_KEYS:
        return Column(cell, header, UNIT)
    if k in _LIMIT_KEYS or base in _LIMIT_KEYS:
        return Column(cell, header, REPORTING_LIMIT)
    if k.startswith(_LIMIT_PREFIXES):
        return Column(cell, header, IGNORED, why="a limit")
    if k in _IGNORED_KEYS:
        return Column(cell, header, IGNORED, why=_IGNORED_KEYS[k])
    if (day := _date(header)) is not None:
        return Column(cell, header, DATE, sampled_at=day)
    if k in _STATISTIC_KEYS or base in _STATISTIC_KEYS:
        stat = _STATISTIC_KEYS.get(k) or _STATISTIC_KEYS[base]
        return Column(cell, header, STATISTIC, statistic=stat, unit=parsed.unit)
    if _marker(header) in STATISTIC_MARKERS:  # `Ø`, which has no letters for `key`
        return Column(cell, header, STATISTIC, statistic=STATISTIC_MARKERS[_marker(header)])
    if parsed.statistic and (not parsed.base or key(parsed.base) in _VALUE_KEYS | {k}):
        return Column(cell, header, STATISTIC, statistic=parsed.statistic, unit=parsed.unit)
    if k in _VALUE_KEYS or base in _VALUE_KEYS:
        return Column(cell, header, VALUE, unit=parsed.unit)
    # `Messwert, Februar 2017`, `Ergebnisse 2024`: a value column and when it was taken.
    first = re.split(r"[\s,;:(\[]+", header.strip(), maxsplit=1)[0]
    if key(first) in _VALUE_KEYS and first != header.strip():
        return Column(cell, header, VALUE, unit=parsed.unit)
    if key(header) in {key(s) for s in UNSUPPORTED_STATISTICS} or parsed.unsupported_statistic:
        return Column(cell, header, IGNORED, why="a statistic the contract has no value for")
    return Column(cell, header, POINT, sample_point=header.strip())


def is_name_header(text: str) -> bool:
    """Whether a header cell names the column of parameter names."""
    return key(text) in _NAME_KEYS


_VALUE_LIKE = re.compile(r"^[<>≤≥]?\s*[-+]?[0-9][0-9.,\s]*$")


def _second_header_line(
    row: tuple[str | None, ...], header: list[str | None], name_index: int
) -> bool:
    """Tell whether a row below the header only continues it (a header on two lines).

    It has no name and no values. A single text continues the header only below an empty
    header cell or one ending in a hyphen (`Bestimmungs-` over `grenze`): alone under a
    header of its own it is a section heading, not part of the header.
    """
    cells = [c for c in row if c is not None]
    if row[name_index] is not None or not cells:
        return False
    if any(_VALUE_LIKE.match(c) and _date(c) is None for c in cells):
        return False
    if len(cells) == 1:
        above = header[next(i for i, c in enumerate(row) if c is not None)]
        return above is None or above.rstrip().endswith(("-", "\u00ad"))
    return True


def _join_header(upper: str | None, lower: str | None) -> str | None:
    from generator.publications.pdf import join_lines

    if upper is None:
        return lower
    if lower is None or upper == lower:
        return upper
    return join_lines(upper, lower)


def merge_header_rows(rows: list[list[str | None]], count: int) -> list[list[str | None]]:
    """Merge the first `count` rows (a header printed over several rows) into one.

    A leading row whose cells all hold one text (a title spanning the table) is no part of
    the header and is kept as it is.
    """
    titles = 0
    while titles < count and len({c for c in rows[titles] if c is not None}) <= 1:
        titles += 1
    if count - titles < 2:
        return rows
    merged = list(rows[titles])
    for row in rows[titles + 1 : count]:
        merged = [_join_header(a, b) for a, b in zip(merged, row, strict=True)]
    return [*rows[:titles], merged, *rows[count:]]


def find_header(table: RawTable) -> int:
    """Return the index (0-based, in the frame) of the header row."""
    head = table.frame.head(HEADER_SEARCH_ROWS)
    for i, row in enumerate(head.select(table.cells).iter_rows()):
        if any(c is not None and is_name_header(c) for c in row):
            return i
    names = ", ".join(NAME_HEADERS[:6])
    raise TableReadError(
        f"{table.path}: no header row with a name column ({names}, ...) in the first "
        f"{HEADER_SEARCH_ROWS} rows"
    )


def layout(table: RawTable) -> Layout:
    """Find the header and give every column its role (see the module doc)."""
    index = find_header(table)
    header = table.frame.row(index, named=True)
    cells = table.cells
    name_index = next(
        i for i, c in enumerate(cells) if header[c] is not None and is_name_header(header[c])
    )
    height = 1
    # A header printed on two lines (`Bestimmungs-` over `grenze`, or `Messwert` over
    # `Min.`, `Mittel`, `Max.`): the second line names the columns with the first.
    if index + 1 < table.frame.height:
        below = table.frame.row(index + 1)
        below_cells = tuple(below[table.frame.columns.index(c)] for c in cells)
        upper = [header[c] for c in cells]
        if _second_header_line(below_cells, upper, name_index):
            # A cell spanning several columns is printed once, over the first of them.
            for i in range(1, len(upper)):
                if upper[i] is None and below_cells[i] is not None and below_cells[i - 1]:
                    upper[i] = upper[i - 1]
            header = {
                **header,
                **{
                    c: _join_header(u, b) for c, u, b in zip(cells, upper, below_cells, strict=True)
                },
            }
            height = 2
    columns = [_role(c, header[c]) for c in table.cells]
    names = [c for c in columns if c.role == NAME]
    if len(names) > 1:
        raise TableReadError(
            f"{table.path}, row {header[ROW]}: more than one name column "
            f"({', '.join(c.header for c in names)})"
        )
    if len([c for c in columns if c.role == UNIT]) > 1:
        raise TableReadError(f"{table.path}, row {header[ROW]}: more than one unit column")
    roles = {c.role for c in columns}
    notes = []
    if roles & {VALUE, STATISTIC, DATE}:
        points = [c for c in columns if c.role == POINT]
        columns = [
            Column(c.cell, c.header, IGNORED, why="not understood") if c.role == POINT else c
            for c in columns
        ]
        notes += [f"column {c.header!r} is not understood and was ignored" for c in points]
    kinds = {
        VALUE: "one value column",
        STATISTIC: "one column per statistic",
        DATE: "one column per date",
        POINT: "one column per sampling point",
    }
    present = [kinds[r] for r in kinds if any(c.role == r for c in columns)]
    if not present:
        raise TableReadError(f"{table.path}, row {header[ROW]}: no column holds values")
    if len([c for c in columns if c.role == VALUE]) > 1:
        raise TableReadError(
            f"{table.path}, row {header[ROW]}: more than one value column "
            f"({', '.join(c.header for c in columns if c.role == VALUE)}); name each by its "
            "statistic, date or sampling point"
        )
    return Layout(index, header[ROW], tuple(columns), " and ".join(present), tuple(notes), height)


VALUE_COLUMNS = (
    ROW,
    "name",
    "unit",
    "value_text",
    "statistic",
    "sampled_at",
    "sample_point",
    "reporting_limit",
    "column",
)


def values(table: RawTable, lay: Layout) -> pl.DataFrame:
    """Return one row per non-empty value cell (`VALUE_COLUMNS`), in table order."""
    body = table.frame.slice(lay.header_row + lay.header_height)
    name = lay.of(NAME)[0].cell if lay.of(NAME) else None
    if name is None:
        raise TableReadError(f"{table.path}: no name column")
    unit = lay.of(UNIT)[0].cell if lay.of(UNIT) else None
    limit = lay.of(REPORTING_LIMIT)[0].cell if lay.of(REPORTING_LIMIT) else None
    holding = [c for c in lay.columns if c.role in (VALUE, STATISTIC, DATE, POINT)]
    about = pl.DataFrame(
        {
            "column": [c.cell for c in holding],
            "statistic": [c.statistic for c in holding],
            "sampled_at": [c.sampled_at for c in holding],
            "sample_point": [c.sample_point for c in holding],
            "header_unit": [c.unit for c in holding],
            "_order": list(range(len(holding))),
        },
        schema={
            "column": pl.String,
            "statistic": pl.String,
            "sampled_at": pl.Date,
            "sample_point": pl.String,
            "header_unit": pl.String,
            "_order": pl.Int64,
        },
    )
    rows = body.select(
        ROW,
        pl.col(name).alias("name"),
        (pl.col(unit) if unit else pl.lit(None, dtype=pl.String)).alias("unit"),
        (pl.col(limit) if limit else pl.lit(None, dtype=pl.String)).alias("reporting_limit"),
        *[pl.col(c.cell) for c in holding],
    ).filter(pl.col("name").is_not_null())
    long = rows.unpivot(
        index=[ROW, "name", "unit", "reporting_limit"],
        on=[c.cell for c in holding],
        variable_name="column",
        value_name="value_text",
    )
    return (
        long.filter(pl.col("value_text").is_not_null())
        .join(about, on="column", how="left")
        .with_columns(pl.col("unit").fill_null(pl.col("header_unit")))
        .sort(ROW, "_order")
        .with_columns(
            pl.col("column").replace_strict(
                {c.cell: c.header for c in holding}, return_dtype=pl.String
            )
        )
        .select(VALUE_COLUMNS)
    )


def rows_without_values(table: RawTable, lay: Layout) -> pl.DataFrame:
    """Rows with a name but no value at all (section headings, footnotes): `_row`, `name`."""
    body = table.frame.slice(lay.header_row + lay.header_height)
    name = lay.of(NAME)[0].cell
    holding = [c.cell for c in lay.columns if c.role in (VALUE, STATISTIC, DATE, POINT)]
    empty = pl.all_horizontal(pl.col(c).is_null() for c in holding)
    return body.filter(pl.col(name).is_not_null() & empty).select(ROW, pl.col(name).alias("name"))
