"""How a value reads on the site: in the unit of its limit, the German way, with its share.

Suppliers publish `15.3 ug/l`, `< BG`, `n.n.` or `5,3 ng/l` next to a limit of `0,1 µg/l`.
People compare better when a value is written in the unit its limit uses (the register
unit, in which every limit and `normalized_value` already are), with a decimal comma and
with its share of the limit; the published text stays beside it, as evidence. Words replace
signs and abbreviations (`unter der Bestimmungsgrenze von 0,005 µg/l`, `nicht nachweisbar`),
and a word never gets a unit.

Everything here is a polars expression over whole frames of values: the current values of
the zone and PLZ pages and every row of the chart tables read the same.
"""

from __future__ import annotations

from typing import TypeVar

import polars as pl

from generator.api import qualifiers as q
from generator.api.verdicts import NUMERIC_LIMIT_KINDS
from generator.site.text import number_expr, thousands_expr, unit_expr

SHARE_OF: dict[str, str] = {
    "grenzwert": "des Grenzwerts",
    "indicator": "des Grenzwerts für Indikatorparameter",
    "massnahmenwert": "des technischen Maßnahmenwerts",
    "parameterwert": "des Parameterwerts",
    "referenzwert": "des Referenzwerts",
    "orientierungswert": "des gesundheitlichen Orientierungswerts (UBA)",
}
"""How a share names the kind of value it is a share of (the genitive of the verdict words)."""
assert set(SHARE_OF) == set(NUMERIC_LIMIT_KINDS), "every numeric kind needs its genitive"

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
    """The published text beside `shown` (of `with_readings`): null where it reads the same."""
    return pl.when(pl.col(PUBLISHED_TEXT) != pl.col(SHOWN)).then(pl.col(PUBLISHED_TEXT))


def _percent(share: pl.Expr, exact: pl.Expr) -> pl.Expr:
    """A percentage, rounded, never rounded onto or across 100 % (`exact` compares v and L)."""
    pct = share * 100
    rounded = (
        pl.when(exact < 0)
        .then(pct.round(0).clip(upper_bound=99))
        .when(exact > 0)
        .then(pct.round(0).clip(lower_bound=101))
        .otherwise(pl.lit(100.0))
        .cast(pl.Int64)
    )
    return (
        pl.when((pct > 0) & (pct < 1))
        .then(pl.lit("unter 1 %"))
        .otherwise(pl.format("{} %", thousands_expr(rounded)))
    )


def _members_assessed() -> pl.Expr:
    """True where a current value's verdict rests on the sum of its published members.

    Where the members of a sum add up to more than the published sum, the larger sum is the
    one assessed (`generator/sums.py`); its share must be that sum's, or a value marked
    "überschritten" would read as below its limit.
    """
    return (~pl.col("computed").struct.field("consistent")).fill_null(False)


def current_share_expr(limit: pl.Expr, until: pl.Expr | None = None) -> pl.Expr:
    """`share_expr` for a current value (a row of `current_values`): of the assessed number."""
    members = pl.col("computed").struct.field("value")
    assessed = _members_assessed()
    share = share_expr(limit, until, pl.when(assessed).then(members).otherwise(VALUE))
    return (
        pl.when(assessed)
        .then(pl.concat_str(share, pl.lit(" (Summe der Einzelstoffe)")))
        .otherwise(share)
    )


def share_expr(limit: pl.Expr, until: pl.Expr | None = None, value: pl.Expr = VALUE) -> pl.Expr:
    """The value as a share of the value in `limit` (a struct): `53 % des Grenzwerts`.

    Null where no share says anything: no numeric limit (or a limit of 0, as for E. coli),
    nothing detected, a reporting limit above the limit, a text. `until` follows the words
    (` ab 12.01.2028` for an announced limit).
    """
    kind = limit.struct.field("kind")
    given = limit.struct.field("value")
    # Null unless positive: every branch is evaluated, and none may divide by zero.
    level = pl.when(given > 0).then(given)
    of = kind.replace_strict(SHARE_OF, default=None, return_dtype=pl.String)
    usable = of.is_not_null() & level.is_not_null()
    sign = (value - level).sign()
    measured = _percent(value / level, sign)
    # `< x` says the value is below x: below x's share (rounded up, never below the truth).
    rl_share = REPORTING_LIMIT / level * 100
    below = pl.format("unter {} %", thousands_expr(rl_share.ceil().cast(pl.Int64)))
    words = (
        pl.when(QUALIFIER == q.NUMBER)
        .then(measured)
        .when(QUALIFIER == q.RANGE)
        .then(pl.concat_str(pl.lit("bis "), measured))
        .when(QUALIFIER == q.ABOVE)
        .then(pl.concat_str(pl.lit("über "), measured))
        .when((QUALIFIER == q.BELOW_REPORTING_LIMIT) & (level >= REPORTING_LIMIT))
        .then(below)
    )
    return pl.when(usable).then(
        pl.concat_str(words, pl.lit(" "), of, pl.lit("") if until is None else until)
    )
