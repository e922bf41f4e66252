"""Read published measurement values without losing what the supplier wrote.

Suppliers publish values as text: ``0,018``, ``< 0,001``, ``n.n.``, ``0,001 - 0,004``,
``farblos``, ``0,05¹)`` and many more. The text is evidence: ``< 0,001`` (below a
reporting limit of 0.001) is a different statement from ``0`` or ``n.n.``, and a footnote
mark may point to a caveat in the source document. So the column ``value_text`` is kept
exactly as published and is never modified; :func:`parse_values` only *adds* three derived
columns beside it:

``value`` (Float64 or null)
    The number to compare with limits, or null when the text does not state one.
``qualifier`` (String, never null)
    What kind of statement the text is; one of the keys of :data:`QUALIFIERS`.
``reporting_limit`` (Float64 or null)
    The limit ``x`` of ``< x``; null when no limit is given (``< BG``).

Rules
-----
Before matching, whitespace of any kind (tab, no-break space U+00A0, thin space U+2009,
...) is collapsed and trimmed, zero-width characters are dropped and the minus sign U+2212
is read as ``-``. Footnote marks at the end are ignored: ``*``, ``**``, superscript digits
(``¹``, ``²)``), ``(a)``, ``a)``, ``(1)`` and ``1)`` -- the last only after whitespace,
because ``0,051)`` could be ``0,05`` with footnote 1 or ``0,051``: such text stays
``text``. A unit after the number (``12,6 °C``, ``0,05 mg/l``, ``0/100 ml``) is ignored;
the unit column carries the unit.

Numbers: optional sign, digits, and at most one decimal separator, optionally followed by
an exponent (``1,2E-3``, ``1.2e-3``). The decimal comma is the German default.

Thousands separator rule: a ``.`` is a thousands separator only in a strictly grouped
number without exponent whose integer part starts with a non-zero digit and has 1-3
digits before the first dot, and every later group has exactly three digits:

* with a decimal comma: ``1.234,5`` -> 1234.5, ``12.345.678,9`` -> 12345678.9;
* without a comma: ``1.234`` -> 1234, ``1.234.567`` -> 1234567;
* everything else reads the dot as a decimal point: ``0.018`` -> 0.018 (integer part
  zero), ``1.23`` -> 1.23 and ``1.2345`` -> 1.2345 (not three digits), ``1234.567`` ->
  1234.567 (integer part longer than three digits), ``1.234e3`` -> 1234.0 (exponent);
* anything else with several separators is ``text``: ``1,234.5``, ``0.234.567``, ``1,2,3``.

Qualifiers, checked in this order:

* null input, empty text, ``-``, ``--``, ``–``, ``—``, ``n.b.``, ``n. b.``, ``nicht
  bestimmt``, ``nicht untersucht`` -> ``not_determined``, value null;
* ``n.n.``, ``n. n.``, ``nn``, ``nicht nachweisbar``, ``nicht nachgewiesen`` ->
  ``not_detected``, value null;
* ``< x``, ``<= x``, ``≤ x``, ``unter x`` -> ``below_reporting_limit``, value null,
  reporting_limit x; with ``BG``, ``NG``, ``NWG``, ``BSG``, ``Bestimmungsgrenze`` or
  ``Nachweisgrenze`` instead of x the reporting limit is null;
* ``> x``, ``>= x``, ``≥ x``, ``über x`` -> ``above``, value x;
* ``a - b``, ``a – b``, ``a — b``, ``a bis b`` (the lower bound may also be ``< a`` or
  ``n.n.``; a unit may follow either bound) -> ``range``, value = the larger bound, the
  conservative choice when comparing with a limit;
* a number, possibly followed by a unit -> ``number``; but when the text after the number
  holds a second bound the range rule could not read (``5 mg/l (Sommer) bis 7``) it is
  ``text``, because the first number alone would understate the value;
* anything else (``farblos``, ``o.B.``, ``ohne Befund``, ``negativ``, ``1 234``), and
  numbers too large for Float64 (``1E999``) -> ``text``, value null.

Everything is a vectorised polars expression: the parser runs on millions of rows and
never raises on any text.
"""

from __future__ import annotations

from typing import TypeVar

import polars as pl

from generator.api.qualifiers import (
    ABOVE,
    BELOW_REPORTING_LIMIT,
    NOT_DETECTED,
    NOT_DETERMINED,
    NUMBER,
    QUALIFIERS,
    RANGE,
    TEXT,
)
from generator.api.verdicts import LIMIT_KINDS, NUMERIC_LIMIT_KINDS

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)

# QUALIFIERS and the limit kinds are re-exported: the parser and its vocabulary are read together.
__all__ = [
    "ABOVE",
    "BELOW_REPORTING_LIMIT",
    "LIMIT_KINDS",
    "NUMERIC_LIMIT_KINDS",
    "NOT_DETECTED",
    "NOT_DETERMINED",
    "NUMBER",
    "QUALIFIERS",
    "RANGE",
    "TEXT",
    "parse_limit_values",
    "parse_value",
    "parse_values",
    "unreadable_limit_value",
]


OUTPUT_COLUMNS = ("value", "qualifier", "reporting_limit")

# A number as published. Two shapes, because a grouped number (`1.234,5`) must not carry an
# exponent and a plain one may have only one separator; anything else is not a number, so
# the conversion below can never fail on a matched token. `[0-9]`, not `\d`: the regex
# engine's `\d` also matches digits of other scripts, which the float cast cannot read.
_PLAIN = r"(?:[0-9]+(?:[.,][0-9]+)?|[.,][0-9]+)(?:[eE][+-]?[0-9]+)?"
_GROUPED = r"[1-9][0-9]{0,2}(?:\.[0-9]{3})+(?:,[0-9]+)?"
_NUM = rf"[+-]?(?:{_PLAIN}|{_GROUPED})"
_GROUPED_FULL = rf"^[+-]?{_GROUPED}$"

# A unit may start with a letter, but `1,2 E-3` must not become 1.2 with unit `E-3`: an
# `e` directly followed by a digit, sign or dash cannot start a unit.
_UNIT_START = r"(?:[°%‰/]|[\p{L}&&[^eE]]|[eE](?:[^0-9+\-–—]|$))"
_UNIT = rf"(?:\s*{_UNIT_START}[^<>=≤≥]*)?"
# A unit between the bounds of a range (`1 mg/l - 2 mg/l`): one word, no digits, and again
# not an exponent marker, or `1,2E-3` would read as the range 1.2 to 3.
_WORD_UNIT = r"(?:\s*(?:[°%‰/]|[\p{L}&&[^eE]]|[eE]\p{L})[°%‰/\p{L}²³]*)?"

_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
_FOOTNOTES = rf"(?:\s*(?:\*+|[{_SUPERSCRIPTS}]+\)?|\([A-Za-z0-9]\)|[a-z]\))|\s+[0-9]\))+$"

_NOT_DETERMINED_RE = r"(?i)^(?:|[-–—]+|n\.?\s*b\.?|nicht bestimmt|nicht untersucht)$"
_NOT_DETECTED_RE = r"(?i)^(?:n\.?\s*n\.?|nicht nachweisbar|nicht nachgewiesen)$"
_BELOW_PREFIX_RE = r"^(?:<|≤|(?i:unter)\s)"
_ABOVE_PREFIX_RE = r"^(?:>|≥|(?i:über)\s)"
# The comparison prefix is cut off once, so the number rules below run on one column for
# `0,5`, `< 0,5` and `> 0,5` alike instead of three times.
_PREFIX_RE = r"^(?:<=?|≤|>=?|≥|(?i:unter|über)\s)\s*"
_LIMIT_WORD_RE = r"(?i)^(?:BG|NG|NWG|BSG|Bestimmungsgrenze|Nachweisgrenze)$"
_NUMBER_RE = rf"^{_NUM}{_UNIT}$"
# The unit tail of a number is free text; if it holds a second bound the text is a range we
# could not read, and taking the first number would understate it.
# A dash right after `e` is an exponent sign, not a range (`1,2E-3 mg/l`).
_HIDDEN_RANGE_RE = r"(?i)^[+-]?[0-9.,]+.*(?:[^eE][-–—]\s*[+\-]?[0-9.,]|[^\p{L}]bis\b)"
# Where `_NUMBER_RE` matches, this simpler pattern yields the same number: a unit cannot
# start with a digit, separator or exponent, so the greedy match stops where the unit begins.
_LEADING_NUMBER_RE = r"^([+-]?[0-9.,]+(?:[eE][+-]?[0-9]+)?)"
_RANGE_LOW = rf"(?:(?:[<≤]\s*)?(?<low>{_NUM}){_WORD_UNIT}|(?i:n\.\s*n\.))"
_RANGE_RE = rf"^{_RANGE_LOW}\s*(?:-|–|—|(?i:bis))\s*(?<high>{_NUM}){_UNIT}$"

# Private working columns; the prefix keeps them apart from the caller's columns.
_CLEAN = "__values_clean"
_BODY = "__values_body"
_RANGE = "__values_range"
_QUALIFIER = "__values_qualifier"
_TOKEN = "__values_token"
_LOW = "__values_low"
_HIGH = "__values_high"
_WORK = (_CLEAN, _BODY, _RANGE, _QUALIFIER, _TOKEN, _LOW, _HIGH)


def _to_float(token: pl.Expr) -> pl.Expr:
    """Convert a token that matched ``_NUM`` into Float64."""
    # Only a strictly grouped token has thousands dots; in every other token a dot is the
    # decimal point and must survive.
    without_thousands = (
        pl.when(token.str.contains(_GROUPED_FULL))
        .then(token.str.replace_all(".", "", literal=True))
        .otherwise(token)
    )
    return without_thousands.str.replace(",", ".", literal=True).cast(pl.Float64, strict=False)


def _clean(text: pl.Expr) -> pl.Expr:
    collapsed = (
        text.str.replace_all("[\u200b\u200c\u200d\u2060\ufeff]", "")
        .str.replace_all("\u2212", "-", literal=True)
        .str.replace_all(r"\s+", " ")
        .str.strip_chars()
    )
    return collapsed.str.replace(_FOOTNOTES, "").str.strip_chars()


def parse_values(frame: FrameT, column: str = "value_text", with_low: bool = False) -> FrameT:
    """Add ``value``, ``qualifier`` and ``reporting_limit`` derived from ``column``.

    With ``with_low`` also ``low``: the lower end of a range published as a number of its
    own (``7,0 - 9,7`` -> 7.0; ``< 1 - 4`` and ``n.n. - 4`` -> null), null for other values.

    ``column`` itself is left untouched. A null in ``column`` means nothing was published:
    its qualifier is ``not_determined`` and value and reporting limit are null. Existing
    columns named like the outputs are replaced. Returns the same kind of frame it gets;
    a LazyFrame stays lazy.

    Raises ValueError only for a caller's mistake: ``column`` named like an output column,
    or a frame that already has one of the private ``__values_*`` working columns.
    """
    if column in OUTPUT_COLUMNS:
        raise ValueError(f"column {column!r} would be overwritten by parse_values")
    taken = set(_WORK).intersection(frame.collect_schema().names())
    if taken:
        raise ValueError(f"columns {sorted(taken)} are reserved for parse_values")

    clean = pl.col(_CLEAN)
    body = pl.col(_BODY)
    is_number = body.str.contains(_NUMBER_RE) & ~body.str.contains(_HIDDEN_RANGE_RE)
    qualifier = (
        pl.when(pl.col(column).is_null() | clean.str.contains(_NOT_DETERMINED_RE))
        .then(pl.lit(NOT_DETERMINED))
        .when(clean.str.contains(_NOT_DETECTED_RE))
        .then(pl.lit(NOT_DETECTED))
        .when(
            clean.str.contains(_BELOW_PREFIX_RE) & (is_number | body.str.contains(_LIMIT_WORD_RE))
        )
        .then(pl.lit(BELOW_REPORTING_LIMIT))
        .when(clean.str.contains(_ABOVE_PREFIX_RE) & is_number)
        .then(pl.lit(ABOVE))
        .when(pl.col(_RANGE).struct.field("high").is_not_null())
        .then(pl.lit(RANGE))
        .when(is_number & (clean == body))
        .then(pl.lit(NUMBER))
        .otherwise(pl.lit(TEXT))
    )

    q = pl.col(_QUALIFIER)
    # `_LOW` holds the token that gives the value (or the limit); `_HIGH` only the upper
    # bound of a range, so each token is converted once.
    low_token = (
        pl.when(q.is_in([BELOW_REPORTING_LIMIT, ABOVE, NUMBER]))
        .then(pl.col(_TOKEN))
        .when(q == RANGE)
        .then(pl.col(_RANGE).struct.field("low"))
    )
    high_token = pl.when(q == RANGE).then(pl.col(_RANGE).struct.field("high"))

    low = pl.col(_LOW)
    high = pl.col(_HIGH)
    # `1E999` or 400 digits overflow to infinity, which no limit comparison or JSON file
    # can use; such text is reported as unreadable instead of as a number.
    overflow = (low.is_infinite() | high.is_infinite()).fill_null(False)
    value = (
        pl.when(overflow)
        .then(pl.lit(None, dtype=pl.Float64))
        .when(q == RANGE)
        .then(pl.max_horizontal(low, high))
        .when(q.is_in([ABOVE, NUMBER]))
        .then(low)
    )
    reporting_limit = pl.when(~overflow & (q == BELOW_REPORTING_LIMIT)).then(low)
    # A range's lower end where it is a number of its own (not `< a` nor `n.n.`): what a
    # range proves against a permitted range (pH) needs both ends.
    plain_low = ~clean.str.contains(r"^(?:[<≤]|(?i:n\.\s*n\.))")
    range_low = pl.when(~overflow & (q == RANGE) & plain_low).then(pl.min_horizontal(low, high))
    final_qualifier = pl.when(overflow).then(pl.lit(TEXT)).otherwise(q)

    lazy = (
        frame.lazy()
        .with_columns(_clean(pl.col(column).cast(pl.String)).alias(_CLEAN))
        .with_columns(
            clean.str.replace(_PREFIX_RE, "").alias(_BODY),
            clean.str.extract_groups(_RANGE_RE).alias(_RANGE),
        )
        .with_columns(
            qualifier.alias(_QUALIFIER),
            body.str.extract(_LEADING_NUMBER_RE, 1).alias(_TOKEN),
        )
        .with_columns(_to_float(low_token).alias(_LOW), _to_float(high_token).alias(_HIGH))
        .with_columns(
            value.cast(pl.Float64).alias("value"),
            final_qualifier.cast(pl.String).alias("qualifier"),
            reporting_limit.cast(pl.Float64).alias("reporting_limit"),
            *([range_low.cast(pl.Float64).alias("low")] if with_low else []),
        )
        .drop(_WORK)
    )
    return lazy if isinstance(frame, pl.LazyFrame) else lazy.collect()


def parse_value(text: str | None) -> tuple[float | None, str, float | None]:
    """Parse one published value; returns ``(value, qualifier, reporting_limit)``.

    >>> parse_value("< 0,001")
    (None, 'below_reporting_limit', 0.001)
    >>> parse_value("1.234,5")
    (1234.5, 'number', None)
    """
    frame = pl.DataFrame({"value_text": [text]}, schema={"value_text": pl.String})
    row = parse_values(frame).row(0, named=True)
    return row["value"], row["qualifier"], row["reporting_limit"]


# ---------------------------------------------------------------------------- limit values

# Limits are written by us (generator/reference/) or by a data provider who overrides them,
# in one plain notation: a number with a decimal point, or `min..max` for kind `range`.
_LIMIT_RANGE_RE = r"^(-?[0-9.]+)\.\.(-?[0-9.]+)$"


def _limit_parts(text: pl.Expr) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    text = text.str.strip_chars()
    bounds = text.str.extract_groups(_LIMIT_RANGE_RE)
    return (
        text.cast(pl.Float64, strict=False),
        bounds.struct.field("1").cast(pl.Float64, strict=False),
        bounds.struct.field("2").cast(pl.Float64, strict=False),
    )


def unreadable_limit_value(text: pl.Expr, kind: pl.Expr) -> pl.Expr:
    """Tell where `text` does not fit `kind` (no number, or no min..max for kind range)."""
    value, value_min, _ = _limit_parts(text)
    return (kind.is_in(NUMERIC_LIMIT_KINDS) & value.is_null()) | (
        (kind == "range") & value_min.is_null()
    )


def parse_limit_values(frame: FrameT, column: str = "limit_value") -> FrameT:
    """Add ``value``, ``value_min``, ``value_max`` and ``requirement`` read from ``column``.

    ``value`` is the number of a numeric kind, ``value_min``/``value_max`` the bounds of
    ``min..max``, ``requirement`` the text of kind ``requirement``; the rest is null.
    """
    value, value_min, value_max = _limit_parts(pl.col(column))
    return frame.with_columns(
        value.alias("value"),
        value_min.alias("value_min"),
        value_max.alias("value_max"),
        pl.when(pl.col("kind") == "requirement")
        .then(pl.col(column).str.strip_chars())
        .alias("requirement"),
    )
