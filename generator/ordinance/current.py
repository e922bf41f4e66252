"""The value that stands for each zone and parameter, and why its state is what it is.

`derive.current_values` takes the newest date's rows; here every sample point of them is
classified, an aggregate claims no more than it shows, the worst point stands and the others
are listed, and a German note says why where the comparison alone does not.
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from generator.api import resources, verdicts
from generator.frames import batches
from generator.ordinance import sums
from generator.ordinance.classify import classify, worst_order
from generator.output.encode import document
from generator.values.german import number_expr


def notes_de(pesticides: pl.DataFrame, limits: pl.DataFrame) -> pl.Expr:
    """Why a state is what it is, in German, where the comparison alone does not say it."""
    guide = limits.filter(pl.col("kind") == "leitwert").unique("code", keep="last")
    reasons = verdicts.NOTES_DE
    decided = pesticides.select(pl.col("code"), pl.col("note_de"))
    decision_note = pl.col("parameter").replace_strict(
        decided["code"], decided["note_de"], default=None, return_dtype=pl.String
    )
    kind = pl.col("limit").struct.field("kind")
    decision = pl.col("_decision")
    # A decision explains itself where no Grenzwert of the ordinance speaks: open or
    # non-relevant metabolites, and the guidance value of one.
    explains = decision.is_in(["unclear", "non_relevant_metabolite"]) | (
        kind == "orientierungswert"
    )
    # A guide value for a substance the ordinance does not regulate explains itself: no
    # decision speaks for it, the source's note does.
    guide_note = pl.col("parameter").replace_strict(
        guide["code"], guide["note_de"], default=None, return_dtype=pl.String
    )
    blocking = pl.when(pl.col("sum_blocking_rl") > pl.col("limit").struct.field("value")).then(
        pl.format(
            " Ein Einzelstoff ist nur als „< {}“ angegeben, über dem Grenzwert: Eine Einhaltung "
            "lässt sich so nicht zeigen.",
            number_expr(pl.col("sum_blocking_rl")),
        )
    )
    sum_note = pl.concat_str(pl.col("sum_note"), blocking.fill_null(""))
    return (
        pl.when(pl.col("state") == "not_measured")
        .then(None)
        .when(pl.col("sum_note").is_not_null())
        .then(sum_note)
        .when(explains)
        .then(decision_note)
        .when(kind == "leitwert")
        .then(guide_note)
        .otherwise(
            pl.col("reason").replace_strict(
                list(reasons), list(reasons.values()), default=None, return_dtype=pl.String
            )
        )
    )


# A verdict an aggregate can support on its own: a maximum within a limit means every sample
# was; a minimum or mean within it does not, and no single aggregate shows a range was kept.
_GOOD_STATES = ("below_limit", "below_reporting_limit", "not_detected", "within_range")


def standing(
    measurements: pl.DataFrame, limits: pl.DataFrame, parameters: pl.DataFrame, as_of: dt.date
) -> pl.DataFrame:
    """Return the classified row that stands for each (zone, parameter) of `measurements`.

    The same choice as the current values make (`current_values`): the newest date's rows,
    each classified, the aggregate rule applied, and the worst sample point standing.
    """
    keys = ["zone_id", "parameter"]
    values = aggregate_verdicts(
        classify(sums.newest(measurements, keys), limits, parameters, as_of)
    )
    return (
        values.sort(worst_order(keys), nulls_last=False).group_by(keys, maintain_order=True).first()
    )


def worst_point(values: pl.DataFrame) -> pl.DataFrame:
    """Keep one row per (zone, parameter): the worst of its sample points, the others listed.

    `other_points` holds the other rows of the same date (sample point, value, state), so the
    zone resource and pages can name them.
    """
    keys = ["zone_id", "parameter"]
    ordered = values.sort(worst_order(keys), nulls_last=False).with_columns(
        pl.int_range(pl.len()).over(keys).alias("_point")
    )
    others = (
        ordered.filter(pl.col("_point") > 0)
        .group_by(keys, maintain_order=True)
        .agg(document(resources.OTHER_POINT).alias("other_points"))
    )
    return (
        ordered.filter(pl.col("_point") == 0)
        .drop("_point")
        .join(others, on=keys, how="left", maintain_order="left")
        .with_columns(pl.col("other_points").fill_null([]))
    )


def aggregate_verdicts(values: pl.DataFrame) -> pl.DataFrame:
    """Make a verdict on an aggregate claim no more than the aggregate shows."""
    statistic = pl.col("statistic")

    def weak(limit: str) -> pl.Expr:
        kind = pl.col(limit).struct.field("kind")
        return statistic.is_in(["min", "mean"]) | ((statistic == "max") & (kind == "range"))

    return values.with_columns(
        pl.when(weak("limit") & pl.col("state").is_in(_GOOD_STATES))
        .then(pl.lit("not_assessable"))
        .otherwise(pl.col("state"))
        .alias("state"),
        pl.when(weak("future_limit") & pl.col("future_state").is_in(_GOOD_STATES))
        .then(pl.lit("not_assessable"))
        .otherwise(pl.col("future_state"))
        .alias("future_state"),
    )


def newest_rows(series: pl.DataFrame, as_of: dt.date, earlier: bool = False) -> pl.Series:
    """Return the numbers of the rows `sums.newest` chooses per zone and parameter by `as_of`.

    With `earlier`, among each parameter's samples before its latest one. The rows are chosen
    on the four columns that choose them, in runs of whole zones, and only they are gathered
    by the caller: a filter of the series copies all of it, and windows over all of it held
    half a gigabyte.
    """
    keys = ["zone_id", "parameter"]
    rows = series.select(*keys, "sampled_at", "statistic").with_row_index("_i")

    def chosen(run: pl.DataFrame) -> pl.DataFrame:
        run = run.filter(pl.col("sampled_at") <= as_of)
        if earlier:
            run = run.filter(pl.col("sampled_at") < pl.col("sampled_at").max().over(keys))
        return sums.newest(run, keys).select("_i")

    return batches.per_run(rows, chosen).get_column("_i")
