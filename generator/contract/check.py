"""The generic checker: walk the declarations, build polars masks, collect every problem.

Nothing here knows a particular table. For each declared table it finds the file (or the
packaged copy, or an empty table when the table may be absent), reads it, checks the header,
types every cell and then runs the declared constraints: row constraints as masks computed in
one pass over the table, join constraints and table rules as joins and group-bys over whole
columns. All checks run, all problems are returned at once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from generator.contract import memo, order, read, rules, table_rules
from generator.contract.memo import Memo
from generator.contract.model import (
    DATE,
    DTYPES,
    EMPTY,
    FLOAT,
    INT,
    PACKAGED,
    ROW,
    STR,
    Column,
    Context,
    JoinConstraint,
    RowConstraint,
    Table,
)
from generator.contract.problems import PROBLEM_SCHEMA, Problems
from generator.contract.rules import Rule
from generator.frames import parallel
from generator.frames.compact import any_row, as_text, compact, distinct, per_row, per_text, texts

# Control characters: C0 except tab, DEL and C1. Line breaks are among them: a cell with a
# line break spans lines, so "row N is line N+1" would no longer hold, and no column of the
# contract holds more than one line of text. With them go Unicode's noncharacters (U+FDD0..
# U+FDEF and the last two code points of every plane, U+FFFE, U+FFFF, U+1FFFE, ...): never
# text, and U+FFFE/U+FFFF are not even allowed in XML, so one in a name would make every
# Atom feed that shows it malformed. (A lone surrogate cannot get this far: it is no UTF-8,
# and the table is refused when it is read.)
NONCHARACTERS = [
    *range(0xFDD0, 0xFDF0),
    *(p + c for p in range(0, 0x110000, 0x10000) for c in (0xFFFE, 0xFFFF)),
]
CONTROL = "[\x00-\x08\x0a-\x1f\x7f-\x9f" + "".join(map(chr, NONCHARACTERS)) + "]"
_CONTROL_NAMES = {
    0x00: "NUL", 0x0A: "line feed", 0x0D: "carriage return", 0x0B: "vertical tab",
    0x0C: "form feed", 0x1B: "escape", 0x7F: "DEL", 0x85: "next line",
}  # fmt: skip
CONTROL_NAMES = {
    chr(i): f"U+{i:04X}" + (f" ({_CONTROL_NAMES[i]})" if i in _CONTROL_NAMES else "")
    for i in [*range(0x00, 0x09), *range(0x0A, 0x20), *range(0x7F, 0xA0)]
} | {chr(i): f"U+{i:04X} (a noncharacter)" for i in NONCHARACTERS}


@dataclass
class Loaded:
    """One table as read: the typed frame and what the header lacked."""

    table: Table
    frame: pl.DataFrame
    source: str
    """The file name messages mention (or `NAME (absent)`)."""
    absent: set[str] = field(default_factory=set)
    """Declared columns the file does not have."""


@dataclass
class Result:
    tables: dict[str, pl.DataFrame]
    """Typed frames, with `ROW`, of every table that could be read."""
    problems: pl.DataFrame
    """The errors: any one of them stops a build."""
    warnings: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=PROBLEM_SCHEMA))
    """Breaches of the rules in `rules.WARNINGS`, in the problems' form: the rows are kept."""

    def complete(self, declared: tuple[Table, ...]) -> bool:
        return self.problems.height == 0 and all(t.name in self.tables for t in declared)


def _split(problems: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return the errors and the warnings (`rules.WARNINGS`) of a frame of problems."""
    warning = pl.col("rule").is_in(sorted(rules.WARNINGS))
    return problems.filter(~warning), problems.filter(warning)


def check_tables(
    data_dir: Path,
    declared: tuple[Table, ...],
    packaged_dir: Path,
    tick: Callable[[], None] | None = None,
    as_declared: bool = False,
    kept: Memo | None = None,
) -> Result:
    """Load every declared table from `data_dir` and check it; return frames and problems.

    `tick` is called after each table is read and after each is checked (progress).
    A table declared `compact` is read and checked with its text as `Enum`s. The frames
    are handed on as text, in the order of the file; `as_declared`, as the build takes
    them: a compact table's text as `Enum`s, each table sorted by its `sorted_by`
    (before the checks, which then find a duplicate key among neighbours). `kept`: where a
    compact table's Parquet row groups read by the last build are kept (`memo`).
    """
    tick = tick or (lambda: None)
    problems = Problems()
    data_dir = Path(data_dir)
    names = [t.name for t in declared]
    if not data_dir.is_dir():
        # No table is at fault: the problem is of the directory (`table` left empty).
        message = f"{data_dir} does not exist or is not a folder"
        problems.add("", rules.MISSING_DIRECTORY, message)
        return Result({}, problems.frame(names))
    loaded: dict[str, Loaded] = {}
    ties: dict[str, pl.Series | None] = {}
    try:
        for table in declared:
            one = _load(data_dir, table, packaged_dir, problems, kept)
            if one is not None:
                if as_declared:
                    frame = compact(one.frame) if table.compact else one.frame
                    one.frame, ties[table.name] = order.declared(frame, table.sorted_by)
                loaded[table.name] = one
            tick()
        ctx = Context({name: one.frame for name, one in loaded.items()}, ties)
        for one in loaded.values():
            _check_constraints(one, ctx, problems)
            tick()
    finally:
        memo.settled()  # the memos written meanwhile (`memo.read`)
    tables = {name: frame if as_declared else as_text(frame) for name, frame in ctx.tables.items()}
    return Result(tables, *_split(problems.frame(names)))


# ---------------------------------------------------------------------------- files


def _load(
    data_dir: Path, table: Table, packaged_dir: Path, problems: Problems, kept: Memo | None
) -> Loaded | None:
    files = read.candidates(data_dir, table.name)
    if len(files) > 1:
        names = " and ".join(p.name for p in files)
        problems.add(table.name, rules.AMBIGUOUS_TABLE, f"both {names} exist")
        return None
    if not files and table.if_absent == PACKAGED:
        files = read.candidates(packaged_dir, table.name)
    if not files:
        if table.if_absent == EMPTY:
            empty = pl.DataFrame(schema={ROW: pl.UInt32, **table.dtypes})
            return Loaded(table, empty, f"{table.name} (absent)")
        csv, parquet = (f"{table.name}.{ext}" for ext in read.FORMATS)
        problems.add(table.name, rules.MISSING_TABLE, f"neither {csv} nor {parquet} found")
        return None
    path = files[0]
    raw = read.read(path, table.name, problems, table.compact, kept)
    if raw is None:
        return None
    absent = {c.name for c in table.columns if c.name not in raw.columns}
    for name in sorted(absent, key=table.names.index):
        if table.column(name).required:
            message = f"{path.name} has no column {name!r}"
            problems.add(table.name, rules.MISSING_COLUMN, message, column=name)
    for name in raw.columns:
        if name != ROW and name not in table.names:
            message = (
                f"{path.name} has a column {name!r} the contract does not define; "
                f"expected: {', '.join(table.names)}"
            )
            problems.add(table.name, rules.UNKNOWN_COLUMN, message, column=name)
    if raw.height == 0 and table.if_absent != EMPTY:
        problems.add(table.name, rules.EMPTY_TABLE, f"{path.name} has a header but no data rows")
    return Loaded(table, _typed(raw, table, problems), path.name, absent)


# ---------------------------------------------------------------------------- cells


def _is_blank(raw: pl.Expr) -> pl.Expr:
    return raw.is_null() | (raw.cast(pl.String).str.strip_chars() == "")


def typed(raw: pl.Series, table: Table, name: str) -> pl.Series:
    """Return column `name` of a file's cells (`raw`) typed as the checks type it."""
    return raw.to_frame().select(_cast(pl.col(raw.name), raw.dtype, table.column(name))).to_series()


def _cast(raw: pl.Expr, dtype: pl.DataType, column: Column) -> pl.Expr:
    if column.type == STR:
        return raw.cast(pl.String)
    if column.type == INT:
        if dtype.is_integer():
            return raw.cast(pl.Int64)
        return raw.cast(pl.String).str.strip_chars().cast(pl.Int64, strict=False)
    if column.type == FLOAT:
        if dtype.is_numeric():
            return raw.cast(pl.Float64)
        text = raw.cast(pl.String).str.strip_chars()
        # A decimal comma (German spreadsheets) is accepted when there is no decimal point.
        text = (
            pl.when(text.str.contains(".", literal=True))
            .then(text)
            .otherwise(text.str.replace(",", ".", literal=True))
        )
        return text.cast(pl.Float64, strict=False)
    if dtype in (pl.Date, pl.Datetime):
        return raw.cast(pl.Date)
    text = raw.cast(pl.String).str.strip_chars()
    return (
        pl.when(text.str.contains(r"^\d{4}-\d{2}-\d{2}$"))
        .then(text.str.strptime(pl.Date, "%Y-%m-%d", strict=False))
        .otherwise(None)
    )


_TYPE_RULES: dict[str, tuple[Rule, str]] = {
    INT: (rules.WRONG_TYPE, "a whole number"),
    FLOAT: (rules.WRONG_TYPE, "a number"),
    DATE: (rules.INVALID_DATE, "a date YYYY-MM-DD"),
}


@dataclass(frozen=True)
class _Mask:
    expr: pl.Expr
    column: str
    rule: Rule
    message: str | pl.Expr
    value: pl.Expr


def _typed(raw: pl.DataFrame, table: Table, problems: Problems) -> pl.DataFrame:
    """Cast every column to its type and fill defaults; report cells that do not fit.

    One pass over the raw table computes the typed columns and, per cell, whether it is
    blank or holds a control character (in any text column, declared or not); the masks
    of the rules are cheap boolean combinations of those, and rows are only gathered for
    masks that hit. Of an `Enum` column each distinct text is typed and tested once.
    """
    # Asked once: a frame's schema builds each `Enum` type anew, checking its texts.
    schema = raw.schema
    text = [n for n, dtype in schema.items() if n != ROW and _is_text(dtype)]
    present = [c for c in table.columns if c.name in raw.columns]

    def cell(name: str, expr: Callable[[pl.Expr], pl.Expr]) -> pl.Expr:
        if isinstance(schema[name], pl.Enum):
            return pl.lit(per_text(raw, name, expr))
        return expr(pl.col(name))

    def mask(name: str, expr: Callable[[pl.Expr], pl.Expr]) -> pl.Expr:
        # Where no text of an `Enum` column hits (clean data), no row does: nothing is
        # spread to ten million rows.
        if isinstance(schema[name], pl.Enum) and not any_row(raw, name, expr):
            return pl.lit(False)
        return cell(name, expr)

    def _blank(name: str) -> pl.Expr:
        if _is_text(schema[name]):
            return mask(name, _is_blank)
        return pl.col(name).is_null()  # a number or a date has no blank text

    def typed_cell(column: Column) -> pl.Expr:
        dtype = schema[column.name]
        if isinstance(dtype, pl.Enum):
            if column.type == STR:
                return pl.col(column.name)  # the text as it is, still shared
            dtype = pl.String()
        return cell(column.name, lambda c: _cast(c, dtype, column))

    out = raw.select(
        pl.col(ROW),
        *(typed_cell(c).alias(c.name) for c in present),
        *(_blank(c.name).alias(f"_blank {c.name}") for c in present),
        *(mask(n, lambda c: c.str.contains(CONTROL)).alias(f"_control {n}") for n in text),
    )
    masks: list[_Mask] = []
    for name in text:
        found = pl.col(name).cast(pl.String).str.extract(f"({CONTROL})", 1)
        message: str | pl.Expr = pl.format(
            "{} contains the control character {}",
            pl.lit(name),
            found.replace_strict(CONTROL_NAMES, default="?"),
        )
        masks.append(
            _Mask(pl.col(f"_control {name}"), name, rules.CONTROL_CHARACTER, message, pl.col(name))
        )
    for column in present:
        blank = pl.col(f"_blank {column.name}")
        if column.required:
            message = f"{column.name} is required but empty"
            masks.append(
                _Mask(blank, column.name, rules.EMPTY_REQUIRED, message, pl.col(column.name))
            )
        if column.type != STR:
            rule, what = _TYPE_RULES[column.type]
            unreadable = pl.col(column.name).is_null() & ~blank
            if column.name in text:  # a control character is the problem, not the type
                unreadable = unreadable & ~pl.col(f"_control {column.name}")
            message = f"{column.name} must be {what}"
            masks.append(_Mask(unreadable, column.name, rule, message, pl.col(column.name)))
    _report_masks(raw, out.select(_mask_columns(masks)), table.name, masks, problems)
    typed = []
    for column in table.columns:
        dtype: pl.DataType = DTYPES[column.type]()
        if table.compact and column.type == STR:
            dtype = pl.Enum([] if column.default is None else [str(column.default)])
        default = pl.lit(column.default, dtype=dtype)
        if column.name not in raw.columns:
            typed.append(default.alias(column.name))
        elif column.default is not None:
            typed.append(_filled(out.get_column(column.name), column.default))
        else:
            typed.append(pl.col(column.name))
    return out.select(pl.col(ROW), *typed)


def _is_text(dtype: pl.DataType) -> bool:
    return dtype == pl.String or isinstance(dtype, pl.Enum)


def _filled(column: pl.Series, default: str | int | float) -> pl.Expr:
    """Return `column` with its empty cells as `default` (an `Enum` gains it as a text)."""
    dtype = column.dtype
    if not column.has_nulls():
        return pl.col(column.name)
    if isinstance(dtype, pl.Enum) and default not in dtype.categories:
        dtype = pl.Enum(pl.concat([dtype.categories, pl.Series([default])]).sort())
    return pl.col(column.name).cast(dtype).fill_null(pl.lit(default, dtype=dtype))


def _mask_columns(masks: list[_Mask]) -> list[pl.Expr]:
    return [m.expr.fill_null(False).alias(f"_m{i}") for i, m in enumerate(masks)]


def _report_masks(
    frame: pl.DataFrame,
    hits: pl.DataFrame,
    table: str,
    masks: list[_Mask],
    problems: Problems,
    absent: _Absent | None = None,
) -> None:
    """Gather the rows of `frame` where a mask column of `hits` is true (only those)."""
    for i, m in enumerate(masks):
        hit = hits.get_column(f"_m{i}")
        if not hit.any():
            continue
        message = pl.lit(m.message) if isinstance(m.message, str) else m.message
        rows = frame.filter(hit).select(ROW, m.value.alias("value"), message.alias("message"))
        if absent is not None and m.column in absent:
            absent.collapse(m.column, m.rule, rows)
        else:
            problems.hits(table, m.column, m.rule, rows)


# ---------------------------------------------------------------------------- constraints


class _Absent:
    """Hits in a column the file lacks: one table-level problem, not one per row."""

    def __init__(self, one: Loaded, problems: Problems):
        self.one = one
        self.problems = problems
        self.columns = one.absent

    def __contains__(self, column: str) -> bool:
        return column in self.columns

    def collapse(self, column: str, rule: Rule, rows: pl.DataFrame) -> None:
        col = self.one.table.column(column)
        if col.required:
            return  # `missing_column` is reported already
        first = rows.sort(ROW).row(0, named=True)
        reads = "empty" if col.default in (None, "") else repr(col.default)
        message = (
            f"{self.one.source} has no column {column!r}: every row reads {reads}, and "
            f"{rows.height} row(s) then break {rule.name} (first: row {first[ROW]}: "
            f"{first['message']})"
        )
        self.problems.add(self.one.table.name, rules.MISSING_COLUMN, message, column=column)


def _row_mask(constraint: RowConstraint, name: str, frame: pl.DataFrame) -> pl.Expr:
    """Return the constraint's mask; over `Enum` columns, computed on their texts.

    A constraint of one column is decided once per distinct text; one that reads other
    columns too, once per distinct combination, and, when one of them breaks it, on every
    row with all columns as text. Where none breaks it (clean data), no row does: nothing
    is spread to ten million rows.
    """
    read = [name, *constraint.columns()]
    dtypes = [frame.get_column(c).dtype for c in read]  # not the schema: see `_typed`
    if not any(isinstance(dtype, pl.Enum) for dtype in dtypes):
        return constraint.mask(name, frame)
    if read == [name]:
        dtype = dtypes[0]
        assert isinstance(dtype, pl.Enum)
        each = texts(dtype, name)
        per_text = each.select(constraint.mask(name, each))
        if not per_text.to_series().any():
            return pl.lit(False)
        return pl.lit(per_row(frame.get_column(name), per_text))
    combinations = distinct(frame, read)
    if not combinations.select(constraint.mask(name, combinations)).to_series().any():
        return pl.lit(False)
    rows = as_text(frame.select(read))
    return pl.lit(rows.select(constraint.mask(name, rows)).to_series())


SIDE_BY_SIDE = 100_000
"""A table of at least so many rows has its searches run on threads side by side; for a
smaller one, a pool of threads costs more than it saves."""


def _check_constraints(one: Loaded, ctx: Context, problems: Problems) -> None:
    table, frame = one.table, one.frame
    absent = _Absent(one, problems)
    masks: list[_Mask] = []
    joins: list[tuple[Column, JoinConstraint]] = []
    for column in table.columns:
        for constraint in column.rules:
            if isinstance(constraint, RowConstraint):
                masks.append(
                    _Mask(
                        _row_mask(constraint, column.name, frame),
                        column.name,
                        constraint.rule,
                        constraint.message(column.name),
                        pl.col(column.name).cast(pl.String),
                    )
                )
            elif isinstance(constraint, JoinConstraint):
                joins.append((column, constraint))
            else:
                raise TypeError(f"{table.name}.{column.name}: {constraint!r} is no constraint")
    checked = [
        rule
        for rule in table_rules.all_rules(table)
        if not any(c in absent and table.column(c).required for c in rule.columns())
    ]  # a required column is missing: `missing_column` says all there is
    # The searches over the whole table are polars work that leaves the GIL: over the
    # series they run side by side, and report in the order they are declared.
    searches: list[Callable[[], pl.DataFrame | None]] = [
        *([functools.partial(frame.select, _mask_columns(masks))] if masks else []),
        *(functools.partial(c.find, column.name, frame, ctx) for column, c in joins),
        *(functools.partial(rule.find, frame, ctx) for rule in checked),
    ]
    found = iter(list(parallel.ordered(searches, None if frame.height >= SIDE_BY_SIDE else 1)))
    if masks:
        hits = next(found)
        assert hits is not None
        _report_masks(frame, hits, table.name, masks, problems, absent)
    for column, constraint in joins:
        rows = next(found)
        if rows is None or rows.height == 0:
            continue
        if column.name in absent:
            absent.collapse(column.name, constraint.rule, rows)
        else:
            problems.hits(table.name, column.name, constraint.rule, rows)
    for rule in checked:
        rows = next(found)
        if rows is not None:
            problems.hits(table.name, rule.column, rule.rule, rows)
