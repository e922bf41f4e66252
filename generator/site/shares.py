"""How a value's share of its limit reads on the site: `53 % des Grenzwerts`.

Values themselves read as `generator.values.wording` writes them; the share
names the kind of value it is a share of, with the verdict words declined.
"""

from __future__ import annotations

import polars as pl

from generator.api import qualifiers as q
from generator.api.verdicts import NUMERIC_LIMIT_KINDS, STATES
from generator.site.text import date_expr, esc, statistic_label, thousands_expr
from generator.values.published import READING
from generator.values.wording import (
    PUBLISHED_TEXT,
    QUALIFIER,
    REPORTING_LIMIT,
    SHOWN,
    VALUE,
    published_expr,
    with_readings,
)

SHARE_OF: dict[str, str] = {
    "grenzwert": "des Grenzwerts",
    "indicator": "des Grenzwerts für Indikatorparameter",
    "massnahmenwert": "des technischen Maßnahmenwerts",
    "parameterwert": "des Parameterwerts",
    "referenzwert": "des Referenzwerts",
    "orientierungswert": "des gesundheitlichen Orientierungswerts (UBA)",
    "leitwert": "des Trinkwasserleitwerts (UBA)",
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
    one assessed (`generator/ordinance/sums.py`); its share must be that sum's, or a value marked
    "überschritten" would read as below its limit.
    """
    return (~pl.col("computed").struct.field("consistent")).fill_null(False)


def current_share_expr(limit: pl.Expr, until: pl.Expr | None = None) -> pl.Expr:
    """`share_expr` for a current value (a row of `current_values`): of the assessed number.

    A computed sum that cannot be assessed shows no share: a sum of members below an
    unknown reporting limit, or of maxima of different samples, is no sample's sum.
    """
    members = pl.col("computed").struct.field("value")
    assessed = _members_assessed()
    share = share_expr(limit, until, pl.when(assessed).then(members).otherwise(VALUE))
    unfounded = (pl.col("origin") == "computed") & (pl.col("state") == "not_assessable")
    why = pl.when(assessed).then(pl.lit(" (Summe der Einzelstoffe)")).otherwise(pl.lit(""))
    return pl.when(unfounded).then(pl.lit(None, pl.String)).otherwise(pl.concat_str(share, why))


PIPE_METALS = ("blei", "kupfer", "nickel")
"""Parameters whose value at the tap depends on the pipes of the house (Anlage 2 Teil II)."""

PIPE_METALS_DE = (
    "Blei, Kupfer und Nickel können aus den Leitungen im Haus stammen. Ein Wert aus dem "
    "Wasserwerk oder dem Verteilungsnetz sagt über die Leitungen in Ihrem Haus nichts; dafür "
    "werden Proben am Wasserhahn genommen (TrinkwV Anlage 2 Teil II, § 42 Abs. 3)."
)
"""Said beside these values wherever they are shown, with the point they were sampled at."""


def pipe_metal_note() -> pl.Expr:
    """Where a lead, copper or nickel value was sampled, and what it cannot say; else null."""
    sample_point = pl.col("sample_point")
    where = pl.when(sample_point.is_not_null()).then(
        pl.format("Probenahmestelle: {}. ", sample_point)
    )
    return pl.when(pl.col("parameter").is_in(PIPE_METALS)).then(
        pl.concat_str(where.fill_null(""), pl.lit(PIPE_METALS_DE))
    )


def other_points(values: pl.DataFrame) -> pl.DataFrame:
    """Return `zone_id`, `parameter`, `other_points_de`: the other sample points of a value.

    `values` are rows of `current_values`; each of its `other_points` reads as its value
    does, with its date and statistic (`Wasserwerk Nord (03.09.2026): 3 µg/l, eingehalten`;
    an old point says `veraltet`), joined with "; ".
    """
    labels = {s: v.label_de for s, v in STATES.items()}
    points = (
        values.select("zone_id", "parameter", "normalized_unit", "other_points")
        .explode("other_points")
        .drop_nulls("other_points")
        .unnest("other_points")
    )
    return (
        with_readings(points)
        .with_columns(
            pl.format(
                "{} ({}): {}, {}",
                pl.col("sample_point").fill_null("ohne Angabe der Messstelle"),
                pl.concat_str(
                    date_expr(pl.col("sampled_at")),
                    statistic_label(pl.col("statistic")),
                    pl.when(pl.col("old")).then(pl.lit("veraltet")),
                    separator=", ",
                    ignore_nulls=True,
                ),
                pl.col(SHOWN),
                pl.col("state").replace_strict(labels, default=""),
            ).alias("_point")
        )
        .group_by("zone_id", "parameter", maintain_order=True)
        .agg(pl.col("_point").str.join("; ").alias("other_points_de"))
    )


def share_expr(limit: pl.Expr, until: pl.Expr | None = None, value: pl.Expr = VALUE) -> pl.Expr:
    """Return the value as a share of the value in `limit` (a struct): `53 % des Grenzwerts`.

    Null where no share says anything: no numeric limit (or a limit of 0, as for E. coli),
    nothing detected, a reporting limit above the limit, a text, a value of 0 (a computed sum
    of members all below their reporting limits is 0 by the ordinance's rule, whatever those
    limits add up to: its note says so, a share of 0 % would not). `until` follows the words
    (` ab 12.01.2028` for an announced limit).
    """
    kind = limit.struct.field("kind")
    given = limit.struct.field("value")
    # Null unless positive: every branch is evaluated, and none may divide by zero.
    level = pl.when(given > 0).then(given)
    of = kind.replace_strict(SHARE_OF, default=None, return_dtype=pl.String)
    usable = of.is_not_null() & level.is_not_null() & (value != 0).fill_null(True)
    sign = (value - level).sign()
    measured = _percent(value / level, sign)
    # `< x` says the value is below x: below x's share (rounded up, never below the truth).
    rl_share = REPORTING_LIMIT / level * 100
    below = pl.format("unter {} %", thousands_expr(rl_share.ceil().cast(pl.Int64)))
    # The share written once (long to plan), behind the word its qualifier asks for.
    before = (
        pl.when(QUALIFIER == q.RANGE)
        .then(pl.lit("bis "))
        .when(QUALIFIER == q.ABOVE)
        .then(pl.lit("über "))
        .otherwise(pl.lit(""))
    )
    words = (
        pl.when((QUALIFIER == q.NUMBER) | (QUALIFIER == q.RANGE) | (QUALIFIER == q.ABOVE))
        .then(pl.concat_str(before, measured))
        .when((QUALIFIER == q.BELOW_REPORTING_LIMIT) & (level >= REPORTING_LIMIT))
        .then(below)
    )
    return pl.when(usable).then(
        pl.concat_str(words, pl.lit(" "), of, pl.lit("") if until is None else until)
    )


def reading_values() -> dict[str, pl.Expr]:
    """Return what a fragment shows of a current value's reading, by placeholder.

    The value as read and as published, when and where it was sampled and whether it is a
    statistic of several samples: the zone page's value rows and the PLZ page's key values
    show a value alike (a frame of `with_readings` and `other_points`).
    """
    measured = pl.col("value_text").is_not_null()
    return {
        "measured": measured,
        "missing": ~measured,
        "shown": pl.col(SHOWN),
        "published": published_expr(),
        "date": date_expr(pl.col("sampled_at")),
        "statistic": statistic_label(pl.col("statistic")),
        "sample": measured & (pl.col("statistic") == "sample"),
        "sample_point": pl.col("sample_point"),
        "others": pl.col("other_points_de"),
        "pipes": pipe_metal_note(),
    }


SHOWN_HTML, PUBLISHED_HTML = "shown_html", "published_html"
HTML_TEXTS = (SHOWN_HTML, PUBLISHED_HTML)
"""`SHOWN` and `PUBLISHED_TEXT` escaped for HTML, once per reading (`with_html_texts`)."""


def with_html_texts(rows: pl.LazyFrame) -> pl.LazyFrame:
    """`with_readings`, and both texts escaped for HTML (`HTML_TEXTS`), of rows of the series.

    Once per `reading` where the rows carry it (`with_numbers(..., keep=True)`): the German
    numbers are written a few thousand times per batch instead of once per data point.
    That holds because every column `with_readings` reads is the reading's (its texts and
    numbers, and `normalized_unit` of its parameter), so any row of a reading reads as
    every other; a column of the row's own read there would break it.
    """
    if READING not in rows.collect_schema():
        return _texts(rows)
    texts = _texts(rows.unique(READING, keep="any")).select(
        READING, SHOWN, PUBLISHED_TEXT, *HTML_TEXTS
    )
    return rows.join(texts, on=READING, how="left", maintain_order="left")


def _texts(rows: pl.LazyFrame) -> pl.LazyFrame:
    return with_readings(rows).with_columns(
        esc(pl.col(SHOWN)).alias(SHOWN_HTML),
        esc(pl.col(PUBLISHED_TEXT)).alias(PUBLISHED_HTML),
    )
