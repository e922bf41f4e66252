"""Verdicts from evidence: what each published value proves, per sample point, in polars.

The rules are declared once in `generator.api.evidence` (and shown in docs/api.md): a value
proves a crossing when the bounds its text puts on its statistic lie beyond the limit, and
compliance only when its statistic speaks for every sample at that end. Here they become
three columns per row and limit (`proofs`), and a sample point's state is what its values of
its newest date prove together (`points`): a crossing if any proves one, compliance if they
prove both ends (for a range) or the upper end, else `not_assessable`. Each sample point of a
zone stands on its own newest date, so no value at one point is hidden by a newer or
differently aggregated value at another (`newest`); the worst point stands for the zone
(`generator.ordinance.current.worst_point`).
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from generator.api import evidence, verdicts
from generator.api.qualifiers import ABOVE, BELOW_REPORTING_LIMIT, NOT_DETECTED, NUMBER, RANGE
from generator.ordinance.staleness import cutoff

POINT = ["zone_id", "parameter", "sample_point"]
"""What one sample point of a zone's parameter is; a point without a name is one point."""

_UPPER = [s for s, ends in evidence.SPEAKS_FOR.items() if evidence.UPPER in ends]
_LOWER = [s for s, ends in evidence.SPEAKS_FOR.items() if evidence.LOWER in ends]
EXCEEDED = {kind: v.exceeded for kind, v in verdicts.KINDS.items() if v.exceeded}
COMPLIANT = tuple(verdicts.states_in(verdicts.COMPLIES))
"""The states that say the limit was kept (the vocabulary's category `complies`)."""
_BEST_PROOF = ("below_limit", "below_reporting_limit", "not_detected")
"""Which compliance state a point gets when several of its values prove it: a number says
most. (A range's is always `within_range`: every row of a point has its parameter's kind.)"""
_NOT_COMPARED = ("no_limit", "unit_mismatch", "requirement")
"""Row states where nothing was compared: no value in force, no conversion, a requirement."""


def newest(frame: pl.DataFrame, keys: list[str] | None = None) -> pl.DataFrame:
    """Return each sample point's rows of its newest date: every statistic published for it.

    `keys` name a sample point (`POINT` by default; a sum or check names itself otherwise).
    """
    keys = keys or POINT
    return frame.filter(pl.col("sampled_at") == pl.col("sampled_at").max().over(keys))


def old_expr(as_of: dt.date, cadence_months: int) -> pl.Expr:
    """Return true where a point's newest value is older than the publication cadence."""
    return pl.col("sampled_at") < pl.lit(cutoff(as_of, cadence_months))


def _bounds() -> dict[str, pl.Expr]:
    """Return the bounds a row's text puts on its statistic, from `evidence.BOUNDS`.

    Columns read: `_v` (the number; a range's upper end; `> x`'s x), `_lo` (a range's lower
    end when published as a number), `_rl` (the reporting limit of `< x` and `n.n.`: the
    larger of the cell's and the printed column's), `_q` (qualifier), `statistic`.
    """
    q, v, rl = pl.col("_q"), pl.col("_v"), pl.col("_rl")
    statistic = pl.col("statistic")
    nd_alone = (q == NOT_DETECTED) & rl.is_null()
    return {
        # Some sample is at least this (open: above it).
        "up": pl.when(q.is_in([NUMBER, RANGE, ABOVE])).then(v),
        "up_open": q == ABOVE,
        # Some sample is at most this (open: below it).
        "down": pl.when(q == NUMBER)
        .then(v)
        .when(q == RANGE)
        .then(pl.col("_lo"))
        .when(q == BELOW_REPORTING_LIMIT)
        .then(rl),
        "down_open": q == BELOW_REPORTING_LIMIT,
        # Every sample is at most this (open: below it).
        "all_below": pl.when(statistic.is_in(_UPPER) | (q == RANGE)).then(
            pl.when(q.is_in([NUMBER, RANGE]))
            .then(v)
            .when(q.is_in([BELOW_REPORTING_LIMIT, NOT_DETECTED]))
            .then(pl.when(nd_alone).then(pl.lit(0.0)).otherwise(rl))
        ),
        "all_below_open": q.is_in([BELOW_REPORTING_LIMIT, NOT_DETECTED]) & ~nd_alone,
        # Every sample is at least this.
        "all_above": pl.when((statistic.is_in(_LOWER) & (q == NUMBER)) | (q == RANGE)).then(
            pl.when(q == RANGE).then(pl.col("_lo")).otherwise(v)
        ),
        "range_ok": q != NOT_DETECTED,
    }


def proofs(prefix: str) -> dict[str, pl.Expr]:
    """Return what each row proves against the limit columns `{prefix}*`.

    `cross`: some sample crossed it; `keep_high`: every sample kept its upper end (the limit,
    or the range's top); `keep_low`: every sample kept a range's bottom (true for a limit
    that has none). Nulls count as not proven.
    """
    b = _bounds()
    kind = pl.col(f"{prefix}kind")
    lim, lo, hi = (pl.col(f"{prefix}value{s}") for s in ("", "_min", "_max"))
    reached = kind.is_in(verdicts.REACHED_KINDS)
    ranged = kind == "range"
    up, down, below = b["up"], b["down"], b["all_below"]

    def above(w: pl.Expr, open_: pl.Expr, at: pl.Expr, counts_at: pl.Expr) -> pl.Expr:
        return (w > at) | ((open_ | counts_at) & (w >= at))

    def under(w: pl.Expr, open_: pl.Expr, at: pl.Expr) -> pl.Expr:
        return (w < at) | (open_ & (w <= at))

    cross_limit = above(up, b["up_open"], lim, reached)
    keep_limit = pl.when(reached & ~b["all_below_open"]).then(below < lim).otherwise(below <= lim)
    cross_range = b["range_ok"] & (
        above(up, b["up_open"], hi, pl.lit(False)) | under(down, b["down_open"], lo)
    )
    return {
        "cross": pl.when(ranged).then(cross_range).otherwise(cross_limit).fill_null(False),
        "keep_high": pl.when(ranged)
        .then(b["range_ok"] & (below <= hi))
        .otherwise(keep_limit)
        .fill_null(False),
        "keep_low": pl.when(ranged)
        .then(b["range_ok"] & (b["all_above"] >= lo))
        .otherwise(pl.lit(True))
        .fill_null(False),
    }


def compliant_state(prefix: str) -> pl.Expr:
    """Return the state a row that proves compliance gets, by its kind and text."""
    q = pl.col("_q")
    return (
        pl.when(pl.col(f"{prefix}kind") == "range")
        .then(pl.lit("within_range"))
        .when(q == NOT_DETECTED)
        .then(pl.lit("not_detected"))
        .when(q == BELOW_REPORTING_LIMIT)
        .then(pl.lit("below_reporting_limit"))
        .otherwise(pl.lit("below_limit"))
    )


def crossed_state(prefix: str) -> pl.Expr:
    """Return the state of a crossing of the limit `{prefix}kind`."""
    return pl.col(f"{prefix}kind").replace_strict(EXCEEDED, default=None, return_dtype=pl.String)


def points(values: pl.DataFrame, keys: list[str] | None = None) -> pl.DataFrame:
    """Return one row per sample point: the state its values prove together, per limit.

    `values` are classified rows (`generator.ordinance.classify.classify`) of each point's
    newest date, with the proof columns `{cur_,fut_}{cross,keep_high,keep_low}` and the state
    each row has alone (`_row_state`, `_row_future_state`). The row kept for a point is the
    one its verdict rests on: a crossing value (the largest), else a value that proves
    compliance, else the most telling of the rest (a maximum before a sample before a mean
    before a minimum, the larger first).
    """
    keys = keys or POINT
    # One pass: the rows sorted so each point's first is the row kept, then one group_by
    # that takes it with what all the point's rows prove together. The same as windows over
    # the point (`over(keys)`) beside each row, without a dozen hash partitions of the rows.
    rank = (
        pl.when(pl.col("cur_cross"))
        .then(3)
        .when(pl.col("cur_keep_high") | ((pl.col("cur_kind") == "range") & pl.col("cur_keep_low")))
        .then(2)
        .when(pl.col("_v").is_not_null())
        .then(1)
        .otherwise(0)
    )
    telling = pl.col("statistic").replace_strict(
        {"max": 3, "sample": 2, "mean": 1, "min": 0}, default=0, return_dtype=pl.Int8
    )
    value = pl.coalesce("_v", "_rl")
    ordered = values.with_columns(rank.alias("_rank"), telling.alias("_telling")).sort(
        [*keys, "_rank", "_telling", value, "document_id"],
        descending=[*(False for _ in keys), True, True, True, False],
        nulls_last=True,
    )
    together = [e for prefix, row in _ROW_STATES.items() for e in _together(prefix, row)]
    kept = (
        ordered.group_by(keys, maintain_order=True)
        .agg(pl.all().first(), *together)
        .drop("_rank", "_telling")
    )
    return kept.with_columns(
        _point_state("cur_", "_row_state").alias("state"),
        _point_state("fut_", "_row_future_state").alias("future_state"),
    ).drop(_together_names())


_ROW_STATES = {"cur_": "_row_state", "fut_": "_row_future_state"}
"""Per limit (in force, announced) the column with the state each row has alone."""


def _together(prefix: str, row_state: str) -> list[pl.Expr]:
    """Return what a point's rows prove together against the limit `{prefix}*` (aggregates)."""
    row = pl.col(row_state)
    # The best proof of compliance among the rows that prove both ends (a number before
    # `< x`), by the order of `_BEST_PROOF`; null where no row proves both.
    own = pl.when(pl.col(f"{prefix}keep_high") & pl.col(f"{prefix}keep_low")).then(
        compliant_state(prefix)
    )
    order = {state: i for i, state in enumerate(_BEST_PROOF)}
    best = own.replace_strict(order, default=None, return_dtype=pl.Int8).min()
    return [
        pl.col(f"{prefix}cross").any().alias(f"_{prefix}cross"),
        (
            pl.col(f"{prefix}keep_high").any()
            & pl.col(f"{prefix}keep_low").any()
            & ~pl.col(f"{prefix}blocked").any()
        ).alias(f"_{prefix}keep"),
        (~row.is_in(_NOT_COMPARED)).any().alias(f"_{prefix}comparable"),
        row.is_in(["unit_mismatch"]).any().alias(f"_{prefix}mismatch"),
        best.alias(f"_{prefix}best"),
    ]


def _together_names() -> list[str]:
    return [
        f"_{prefix}{name}"
        for prefix in _ROW_STATES
        for name in ("cross", "keep", "comparable", "mismatch", "best")
    ]


def _point_state(prefix: str, row_state: str) -> pl.Expr:
    """Return a point's state against the limit `{prefix}*` from its kept row and `_together`."""
    row = pl.col(row_state)
    best = pl.col(f"_{prefix}best").replace_strict(
        dict(enumerate(_BEST_PROOF)),
        default="below_limit",
        return_dtype=pl.String,
    )
    return (
        pl.when(row.is_null())
        .then(None)
        .when(~pl.col(f"_{prefix}comparable"))
        .then(row)
        .when(pl.col(f"_{prefix}cross"))
        .then(crossed_state(prefix))
        .when(pl.col(f"_{prefix}keep"))
        # Both ends of a range may come from two rows (a maximum and a minimum).
        .then(
            pl.when(pl.col(f"{prefix}kind") == "range").then(pl.lit("within_range")).otherwise(best)
        )
        .when(pl.col(f"_{prefix}mismatch"))
        .then(pl.lit("unit_mismatch"))
        .otherwise(pl.lit("not_assessable"))
    )
