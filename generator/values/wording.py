"""How a published value reads in German: in the unit of its limit, words for signs.

Suppliers publish `15.3 ug/l`, `< BG`, `n.n.` or `5,3 ng/l` next to a limit of `0,1 µg/l`.
People compare better when a value is written in the unit its limit uses (the register
unit, in which every limit and `normalized_value` already are), with a decimal comma; words
replace signs and abbreviations (`unter der Bestimmungsgrenze von 0,005 µg/l`, `nicht
nachweisbar`), and a word never gets a unit. The published text stays available beside it.

Shared by the zone summaries (`generator/ordinance/summary.py`) and the site
(`generator/site/`), so a
value reads the same in the API's German sentences and on every page. Polars expressions
over whole frames: current values and series of millions of rows alike.
"""

from __future__ import annotations

from typing import TypeVar

import polars as pl

from generator.api import qualifiers as q
from generator.values.german import number_expr, unit_expr

TEXT_WORDS: dict[str, str] = {
    "o.B.": "ohne Befund",
    "o. B.": "ohne Befund",
    "oB": "ohne Befund",
}
"""Verbal findings printed as abbreviations, spelled out (the published text stays beside)."""

RL_WORDS = "unter der Bestimmungsgrenze"

# The columns a frame of values carries (current values and measurements alike).
VALUE = pl.col("normalized_value")
REPORTING_LIMIT = pl.col("normalized_reporting_limit")
QUALIFIER = pl.col("qualifier")
TEXT = pl.col("value_text")
PUBLISHED_UNIT = pl.col("unit")
UNIT = pl.col("normalized_unit")

# Helper columns: each number is written once, then the texts refer to it (a polars plan
# that repeats the German number writer inside every branch takes long to optimise).
_VALUE_DE, _RL_DE, _UNIT_DE = "_value_de", "_reporting_limit_de", "_unit_de"
SHOWN, PUBLISHED_TEXT = "shown", "published_text"

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)


def with_readings(frame: FrameT) -> FrameT:
    """Add `shown` and `published_text` to a frame of values (current values or a series).

    `shown` is the value as the site writes it: `0,0053 µg/l`, `bis 4 µg/l`, `unter der
    Bestimmungsgrenze von 0,005 µg/l`, `nicht nachweisbar`; null where nothing is published.
    A number without a converted value (a unit that does not convert) shows the published
    text. `published_text` is the published text with its published unit (`15.3 ug/l`); a
    unit follows only a text with a digit that does not print it already, so a word such as
    `nicht nachweisbar` gets none.
    """
    helpers = frame.with_columns(
        number_expr(VALUE).alias(_VALUE_DE),
        number_expr(REPORTING_LIMIT).alias(_RL_DE),
        unit_expr(UNIT).alias(_UNIT_DE),
    )
    return helpers.with_columns(
        _shown().alias(SHOWN), _published_text().alias(PUBLISHED_TEXT)
    ).drop(_VALUE_DE, _RL_DE, _UNIT_DE)


def _with_unit(number: pl.Expr) -> pl.Expr:
    symbol = pl.col(_UNIT_DE)
    return pl.when(symbol != "").then(pl.format("{} {}", number, symbol)).otherwise(number)


def _shown() -> pl.Expr:
    amount = _with_unit(pl.col(_VALUE_DE))
    return (
        pl.when(TEXT.is_null())
        .then(pl.lit(None, dtype=pl.String))
        .when(QUALIFIER.is_in([q.NUMBER, q.RANGE, q.ABOVE]) & VALUE.is_null())
        .then(TEXT)
        .when(QUALIFIER == q.NUMBER)
        .then(amount)
        # A range counts with its upper bound (the conservative value): say so.
        .when(QUALIFIER == q.RANGE)
        .then(pl.concat_str(pl.lit("bis "), amount))
        .when(QUALIFIER == q.ABOVE)
        .then(pl.concat_str(pl.lit("über "), amount))
        .when((QUALIFIER == q.BELOW_REPORTING_LIMIT) & REPORTING_LIMIT.is_not_null())
        .then(pl.concat_str(pl.lit(RL_WORDS + " von "), _with_unit(pl.col(_RL_DE))))
        .when(QUALIFIER == q.BELOW_REPORTING_LIMIT)
        .then(pl.lit(RL_WORDS))
        .when(QUALIFIER == q.NOT_DETECTED)
        .then(pl.lit("nicht nachweisbar"))
        .when(QUALIFIER == q.NOT_DETERMINED)
        .then(pl.lit("nicht bestimmt"))
        .otherwise(TEXT.str.strip_chars().replace(TEXT_WORDS))
    )


def _published_text() -> pl.Expr:
    unit = PUBLISHED_UNIT.fill_null("")
    needs_unit = (unit != "") & TEXT.str.contains(r"\d") & ~TEXT.str.contains(unit, literal=True)
    return pl.when(needs_unit).then(pl.format("{} {}", TEXT, unit)).otherwise(TEXT)


def published_expr() -> pl.Expr:
    """Return the published text beside `shown` (of `with_readings`), null where it reads alike."""
    return pl.when(pl.col(PUBLISHED_TEXT) != pl.col(SHOWN)).then(pl.col(PUBLISHED_TEXT))
