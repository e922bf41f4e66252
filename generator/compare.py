"""Where a zone's newest value stands among every zone's: "niedriger als in 80 % ...".

For the parameters people compare (`COMPARED`), every zone's current value (the newest, as
derive chose it) is compared with the current values of all other zones that have a
comparable one: a number, or a value below a reporting limit ("not detected" included).
Values below a reporting limit are counted in a band of their own, never as zero, and a
comparison claims only what is certain:

- a measured value v is lower than every measured value above v, and higher than every
  measured value below v and every value below a reporting limit at most v;
- a value below a reporting limit L is lower than every measured value of at least L;
  nothing is certainly lower than it.

A share is the count over all comparable zones, rounded down to a whole percent, so it
never says more than the data do. Fewer than `MIN_ZONES` comparable zones give no
comparison. Everything is vectorised: one sort and two as-of joins per build.

The shares follow from every zone's values, so a change in one zone can move another's:
the zones' fingerprints include their standings (`generator.incremental`), and a zone
whose share moved is rendered again.
"""

from __future__ import annotations

import polars as pl

from generator.api import qualifiers

COMPARED = ("pfas_summe_20", "pfas_summe_4", "nitrat", "blei", "uran", "gesamthaerte")
"""The parameters compared across zones: the key values, the map's and uranium."""
MIN_ZONES = 5
"""Fewer comparable zones than this make no comparison."""
BINS = 20
"""Bars of a distribution, from zero to its axis' end."""
MEASURED = (qualifiers.NUMBER, qualifiers.RANGE, qualifiers.ABOVE)
BELOW = (qualifiers.BELOW_REPORTING_LIMIT, qualifiers.NOT_DETECTED)

SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "zone_id": pl.Int64,
    "parameter": pl.String,
    "zones": pl.Int64,
    "lower_than_percent": pl.Int64,
    "higher_than_percent": pl.Int64,
    "below_reporting_limit_percent": pl.Int64,
}
"""The columns of `standings`."""


DISTRIBUTION: dict[str, pl.DataType | type[pl.DataType]] = {
    "parameter": pl.String,
    "zones": pl.Int64,
    "below": pl.Int64,
    "top": pl.Float64,
    "bins": pl.List(pl.Int64),
}
"""The columns of `distributions`."""


def empty() -> pl.DataFrame:
    return pl.DataFrame(schema=SCHEMA)


def empty_distributions() -> pl.DataFrame:
    return pl.DataFrame(schema=DISTRIBUTION)


def comparable(national: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Return the current values that can be compared: zone, parameter, kind, `x`.

    `kind` is `m` for a measured value (`x` the value) or `b` below a reporting limit (`x`
    the limit, null where none was published). Sorted by parameter and zone.
    """
    q = pl.col("qualifier")
    return (
        national.lazy()
        .filter(pl.col("parameter").is_in(COMPARED))
        .select(
            pl.col("zone_id").cast(pl.Int64),
            pl.col("parameter").cast(pl.String),
            pl.when(q.is_in(MEASURED) & pl.col("normalized_value").is_not_null())
            .then(pl.lit("m"))
            .when(q.is_in(BELOW))
            .then(pl.lit("b"))
            .alias("kind"),
            pl.when(q.is_in(MEASURED))
            .then(pl.col("normalized_value"))
            .otherwise(pl.col("normalized_reporting_limit"))
            .cast(pl.Float64)
            .alias("x"),
        )
        .filter(pl.col("kind").is_not_null())
        .collect()
        .sort("parameter", "zone_id")
    )


def _counts(rows: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Per parameter and distinct `x` of one kind: how many rows have at most that `x`."""
    return (
        rows.filter((pl.col("kind") == kind) & pl.col("x").is_not_null())
        .group_by("parameter", "x")
        .len("n")
        .sort("parameter", "x")
        .select(
            "parameter",
            "x",
            pl.col("n").cum_sum().over("parameter").alias("at_most"),
            (pl.col("n").cum_sum().over("parameter") - pl.col("n")).alias("below"),
        )
        .sort("x")
    )


def _count_up_to(
    rows: pl.DataFrame, counts: pl.DataFrame, name: str, exact: bool = True
) -> pl.DataFrame:
    """Add `name`: per row, `counts`' `at_most` at the row's x (below it without `exact`)."""
    return rows.join_asof(
        counts.select("parameter", "x", pl.col("at_most").alias(name)),
        on="x",
        by="parameter",
        strategy="backward",
        allow_exact_matches=exact,
        check_sortedness=False,  # sorted by x; polars cannot check it within groups
    )


def standings(national: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Return per zone and compared parameter where its current value stands (`SCHEMA`)."""
    rows = comparable(national)
    if rows.is_empty():
        return empty()
    totals = rows.group_by("parameter").agg(
        pl.len().alias("zones"),
        (pl.col("kind") == "m").sum().alias("measured"),
        (pl.col("kind") == "b").sum().alias("below_total"),
    )
    measured, bounds = _counts(rows, "m"), _counts(rows, "b")
    by_x = rows.with_row_index("_i").sort("x")
    # Measured values up to x (and below x), and bounds up to x, for every row's x.
    with_b = (
        by_x.pipe(_count_up_to, measured, "m_le")
        .pipe(_count_up_to, measured, "m_lt", exact=False)
        .pipe(_count_up_to, bounds, "b_le")
    )
    joined = with_b.sort("_i").join(totals, on="parameter", how="left", maintain_order="left")
    m_le, m_lt, b_le = (pl.col(c).fill_null(0) for c in ("m_le", "m_lt", "b_le"))
    is_m = pl.col("kind") == "m"
    known = pl.col("x").is_not_null()
    higher = (
        pl.when(is_m).then(pl.col("measured") - m_le).when(known).then(pl.col("measured") - m_lt)
    )
    lower = pl.when(is_m).then(m_lt + b_le)

    def percent(count: pl.Expr) -> pl.Expr:
        return (count * 100 // pl.col("zones")).cast(pl.Int64)

    return (
        joined.filter(pl.col("zones") >= MIN_ZONES)
        .select(
            "zone_id",
            "parameter",
            pl.col("zones").cast(pl.Int64),
            percent(higher).alias("lower_than_percent"),
            percent(lower).alias("higher_than_percent"),
            percent(pl.col("below_total")).alias("below_reporting_limit_percent"),
        )
        .sort("zone_id", "parameter")
    )


def distributions(national: pl.LazyFrame | pl.DataFrame, limits: pl.DataFrame) -> pl.DataFrame:
    """Return per compared parameter the national distribution its strips and page draw.

    `zones`, `below` (the count below a reporting limit), `top` (the axis' end: the larger
    of the 95th percentile of measured values and the parameter's highest limit value,
    so an outlier does not squash the rest) and `bins`, the counts of measured values in
    `BINS` equal bars from zero to `top` (values above `top` in the last). Parameters
    with fewer than `MIN_ZONES` comparable zones are left out.
    """
    rows = comparable(national)
    if rows.is_empty():
        return empty_distributions()
    highest = (
        limits.filter(pl.col("code").is_in(COMPARED) & pl.col("value").is_not_null())
        .group_by(pl.col("code").alias("parameter"))
        .agg(pl.col("value").max().alias("limit_top"))
    )
    m = rows.filter(pl.col("kind") == "m")
    tops = (
        rows.group_by("parameter")
        .agg(
            pl.len().alias("zones"),
            (pl.col("kind") == "b").sum().alias("below"),
            pl.col("x").filter(pl.col("kind") == "m").quantile(0.95).alias("p95"),
        )
        .join(highest, on="parameter", how="left")
        .with_columns(
            pl.max_horizontal(pl.col("p95"), pl.col("limit_top")).fill_null(1.0).alias("top")
        )
        .filter(pl.col("zones") >= MIN_ZONES)
    )
    top = pl.when(pl.col("top") > 0).then(pl.col("top")).otherwise(1.0)
    bars = (
        m.join(tops.select("parameter", "top"), on="parameter")
        .select(
            "parameter",
            (pl.col("x") / top * BINS).floor().clip(0, BINS - 1).cast(pl.Int64).alias("bin"),
        )
        .group_by("parameter", "bin")
        .len("n")
    )
    grid = tops.select("parameter").join(
        pl.DataFrame({"bin": list(range(BINS))}, schema={"bin": pl.Int64}), how="cross"
    )
    counted = (
        grid.join(bars, on=["parameter", "bin"], how="left")
        .sort("parameter", "bin")
        .group_by("parameter", maintain_order=True)
        .agg(pl.col("n").fill_null(0).cast(pl.Int64).alias("bins"))
    )
    return (
        tops.join(counted, on="parameter", how="left")
        .select("parameter", pl.col("zones").cast(pl.Int64), pl.col("below").cast(pl.Int64),
                pl.col("top").cast(pl.Float64), "bins")
        .sort("parameter")
    )  # fmt: skip


def with_comparison(values: pl.DataFrame, standings: pl.DataFrame) -> pl.DataFrame:
    """Add `comparison` to current values: their standing as a struct, null where none."""
    fields = [c for c in SCHEMA if c not in ("zone_id", "parameter")]
    joined = values.join(standings, on=["zone_id", "parameter"], how="left", maintain_order="left")
    return joined.with_columns(
        pl.when(pl.col("zones").is_not_null()).then(pl.struct(fields)).alias("comparison")
    ).drop(fields)
