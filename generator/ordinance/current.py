"""The value that stands for each zone and parameter, and why its state is what it is.

`derive.current_values` takes each sample point's newest values and has each point assessed
on what its values prove (`generator.ordinance.evidence`); here the worst point stands, the
others are listed, and a German note says why where the comparison alone does not.
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from generator.api import resources, verdicts
from generator.frames import batches
from generator.ordinance import evidence, staleness
from generator.ordinance.classify import assess, severity, worst_order
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


def standing(
    measurements: pl.DataFrame,
    limits: pl.DataFrame,
    parameters: pl.DataFrame,
    as_of: dt.date,
    cadence_months: int = staleness.DEFAULT_CADENCE_MONTHS,
) -> pl.DataFrame:
    """Return the classified row that stands for each (zone, parameter) of `measurements`.

    The same choice as the current values make (`derive.current_values`): each sample
    point's newest values, what they prove together, and the worst point standing.
    """
    points = assess(evidence.newest(measurements), limits, parameters, as_of)
    return worst_point(points, as_of, cadence_months, listed=False)


def worst_point(
    values: pl.DataFrame, as_of: dt.date, cadence_months: int, listed: bool = True
) -> pl.DataFrame:
    """Keep one row per (zone, parameter): the worst of its sample points, the others listed.

    `values` hold one row per sample point (`classify.assess`). A point whose newest value is
    older than the publication cadence (`old`) does not decide while a newer point stands
    beside it; it is listed with its date. `other_points` holds every other point (its
    statistic, date, value, state and announced state), so the zone resource and pages can
    name them; `announced_elsewhere` says whether a standing point other than the one shown
    is above a value already announced. Without `listed`, only the standing rows (a caller
    that compares states, such as the feeds, needs no list).
    """
    keys = ["zone_id", "parameter"]
    old = evidence.old_expr(as_of, cadence_months)
    marked = values.with_columns(old.alias("old")).with_columns(
        (~pl.col("old") | pl.col("old").all().over(keys)).alias("_standing")
    )
    ordered = marked.sort(
        [*(pl.col(k) for k in keys), ~pl.col("_standing"), *worst_order([])], nulls_last=False
    ).with_columns(pl.int_range(pl.len()).over(keys).alias("_point"))
    if not listed:
        return ordered.filter(pl.col("_point") == 0).drop("_point", "_standing")
    announced = severity(pl.col("future_state")).fill_null(0) >= _ANNOUNCED
    others = (
        ordered.filter(pl.col("_point") > 0)
        .group_by(keys, maintain_order=True)
        .agg(
            document(resources.OTHER_POINT).alias("other_points"),
            (announced & pl.col("_standing")).any().alias("announced_elsewhere"),
        )
    )
    return (
        ordered.filter(pl.col("_point") == 0)
        .drop("_point", "_standing")
        .join(others, on=keys, how="left", maintain_order="left")
        .with_columns(
            pl.col("other_points").fill_null([]),
            pl.col("announced_elsewhere").fill_null(False),
        )
    )


_ANNOUNCED = 3
"""`severity` from which an announced state counts: above a Grenzwert or another value."""


def newest_rows(series: pl.DataFrame, as_of: dt.date, earlier: bool = False) -> pl.Series:
    """Return the numbers of the rows `evidence.newest` chooses per sample point by `as_of`.

    With `earlier`, among each point's values before its newest date. The rows are chosen
    on the four columns that choose them, in runs of whole zones, and only they are gathered
    by the caller: a filter of the series copies all of it, and windows over all of it held
    half a gigabyte.
    """
    keys = evidence.POINT
    rows = series.select(*keys, "sampled_at").with_row_index("_i")

    def chosen(run: pl.DataFrame) -> pl.DataFrame:
        run = run.filter(pl.col("sampled_at") <= as_of)
        if earlier:
            run = run.filter(pl.col("sampled_at") < pl.col("sampled_at").max().over(keys))
        return evidence.newest(run, keys).select("_i")

    return batches.per_run(rows, chosen).get_column("_i")
