"""How a value's share of its limit reads on the site: `53 % des Grenzwerts`.

Values themselves read as `generator.readings` writes them (re-exported here); the share
names the kind of value it is a share of, with the verdict words declined.
"""

from __future__ import annotations

import polars as pl

from generator.api import qualifiers as q
from generator.api.verdicts import NUMERIC_LIMIT_KINDS
from generator.readings import PUBLISHED_TEXT as PUBLISHED_TEXT
from generator.readings import QUALIFIER, REPORTING_LIMIT, VALUE
from generator.readings import SHOWN as SHOWN
from generator.readings import published_expr as published_expr
from generator.readings import with_readings as with_readings
from generator.site.text import thousands_expr

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


def _percent(share: pl.Expr, exact: pl.Expr) -> pl.Expr:
    """Round a percentage, never onto or across 100 % (`exact` compares v and L)."""
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
    """Tell where a current value's verdict rests on the sum of its published members.

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
    """Return the value as a share of the value in `limit` (a struct): `53 % des Grenzwerts`.

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
