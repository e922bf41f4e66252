"""Classification: values against the value valid on the reference date, and the next one.

Each row is joined to the limits in force and announced (`_limits_for`; nitrite at the works
outlet to its own, `AT_OUTLET`), what it proves is computed by the rules of
`generator.ordinance.evidence`, and `assess` turns each sample point's rows into its state.
The kind of the value decides what crossing means (generator/api/verdicts.py): a Grenzwert
gives `exceeds_limit`, the value of an indicator parameter `exceeds_indicator`, a parameter,
reference or guidance value `exceeds_guidance`, and the technical action value, which the
ordinance counts as crossed when it is "erreicht", `reaches_action_value` at or above it.
Computed sums bring columns (`ASSESS`, see generator/ordinance/sums.py) that keep a verdict
from claiming compliance the members do not show. Everything is polars expressions.
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from generator.api import resources, verdicts
from generator.ordinance import evidence
from generator.output.encode import document
from generator.values import units
from generator.values.units import SIG_FIGS

ASSESS: dict[str, type[pl.DataType]] = {
    "assess_value": pl.Float64,
    "assess_qualifier": pl.String,
    "assess_upper": pl.Float64,
    "assess_blocking_rl": pl.Float64,
    "assess_incomplete": pl.Boolean,
}
"""Optional columns of a row to classify. Where set, `assess_value`/`assess_qualifier` replace
the published number (a sum whose members add up to more); compliance cannot be shown when
`assess_upper` or `assess_blocking_rl` is above the value, or `assess_incomplete` is true."""


def _round(expr: pl.Expr) -> pl.Expr:
    return expr.round_sig_figs(SIG_FIGS)


def _limits_for(
    limits: pl.DataFrame, params: pl.DataFrame, as_of: dt.date
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return (current, future) limits per code, converted to the register unit."""
    pairs = (
        limits.select("unit")
        .unique()
        .join(params.select(pl.col("unit").alias("parameter_unit")).unique(), how="cross")
    )
    pairs = units.factor_frame(pairs, "unit", "parameter_unit")
    conv = (
        limits.join(params.select("code", pl.col("unit").alias("parameter_unit")), on="code")
        .join(pairs, on=["unit", "parameter_unit"], how="left")
        .select(
            "code",
            "kind",
            "valid_from",
            "valid_until",
            "legal_basis",
            "requirement",
            pl.col("factor").is_null().alias("unit_mismatch"),
            _round(pl.col("value") * pl.col("factor")).alias("value"),
            _round(pl.col("value_min") * pl.col("factor")).alias("value_min"),
            _round(pl.col("value_max") * pl.col("factor")).alias("value_max"),
            pl.col("parameter_unit").alias("unit"),
        )
    )
    in_force = (pl.col("valid_from") <= as_of) & (
        pl.col("valid_until").is_null() | (pl.col("valid_until") >= as_of)
    )
    current = conv.filter(in_force).sort("code", "valid_from").unique("code", keep="last")
    future = (
        conv.filter(pl.col("valid_from") > as_of)
        .sort("code", "valid_from")
        .unique("code", keep="first")
    )
    return current, future


AT_OUTLET = {"nitrit": "nitrit_wasserwerksausgang"}
"""Parameters whose value at the works outlet is compared with a value of its own: nitrite
"am Ausgang des Wasserwerks" 0,10 mg/l (TrinkwV 2023, Anlage 2 Teil II), the register's row
`nitrit_wasserwerksausgang`."""
OUTLET = r"(?i)ausgang|reinwasser"
"""A sample point that names itself the works outlet: `Wasserwerk Nord, Ausgang`,
`WW-Ausgang`, `Reinwasser` (the treated water leaving the works)."""
ABSENT_TEXT = r"(?i)^\s*(?:negativ|neg\.?)\s*$"
"""A count published as a word that says nothing was found."""


def _limit_code() -> pl.Expr:
    """Return the register code whose limits a row is compared with (`AT_OUTLET`)."""
    outlet = pl.col("sample_point").cast(pl.String).str.contains(OUTLET).fill_null(False)
    parameter = pl.col("parameter").cast(pl.String)
    return (
        pl.when(parameter.is_in(list(AT_OUTLET)) & outlet)
        .then(parameter.replace_strict(AT_OUTLET, default=None, return_dtype=pl.String))
        .otherwise(parameter)
    )


def _counted_absent() -> list[pl.Expr]:
    """Read "< 1" and "negativ" of a count whose limit is 0 per volume as not detected.

    A Grenzwert of 0/100 ml (E. coli, enterococci, coliform bacteria) means none may be found
    in the volume examined; "< 1" in that volume and "negativ" say none was found. A "< 1"
    in a smaller volume (more than 1 per 100 ml once converted) says less, and stays below a
    reporting limit above the limit.
    """
    counted = pl.col("cur_unit").str.starts_with("count/").fill_null(False) & (
        pl.col("cur_value") == 0
    ).fill_null(False)
    q, rl = pl.col("_q"), pl.col("_rl")
    absent = counted & (
        ((q == "below_reporting_limit") & (rl <= 1).fill_null(False))
        | ((q == "text") & pl.col("value_text").str.contains(ABSENT_TEXT).fill_null(False))
    )
    return [
        pl.when(absent).then(pl.lit("not_detected")).otherwise(q).alias("_q"),
        pl.when(absent).then(None).otherwise(rl).alias("_rl"),
    ]


def _blocked(lim: pl.Expr) -> pl.Expr:
    """Where a sum's members keep it from showing compliance with `lim`, whatever its text.

    A sum is shown to comply only when nothing about its members could lift it above: every
    member it needs was published, none is below a reporting limit above `lim`, and its
    largest possible value (`assess_upper`, open metabolites included) is known and within.
    """
    return (
        pl.col("assess_incomplete").fill_null(False)
        | (pl.col("assess_upper") > lim).fill_null(False)
        | (pl.col("assess_upper").is_null() & pl.col("assess_value").is_not_null())
        | (pl.col("assess_blocking_rl") > lim).fill_null(False)
    )


def _row_state(prefix: str) -> pl.Expr:
    """Return the state a row would have alone: what it proves against `{prefix}*`."""
    kind = pl.col(f"{prefix}kind")
    keeps = pl.col(f"{prefix}keep_high") & pl.col(f"{prefix}keep_low")
    unconverted = pl.col("value").is_not_null() & pl.col("_v").is_null()
    return (
        pl.when(kind.is_null())
        .then(pl.lit("no_limit"))
        .when(pl.col(f"{prefix}unit_mismatch") | unconverted)
        .then(pl.lit("unit_mismatch"))
        .when(kind == "requirement")
        .then(pl.lit("requirement"))
        .when(pl.col(f"{prefix}cross"))
        .then(evidence.crossed_state(prefix))
        .when(keeps & ~pl.col(f"{prefix}blocked"))
        .then(evidence.compliant_state(prefix))
        .otherwise(pl.lit("not_assessable"))
    )


def _reason(prefix: str, state: str) -> pl.Expr:
    """Return the key of `verdicts.NOTES_DE` explaining `state` where the value alone cannot."""
    q = pl.col("_q")
    s = pl.col(state)
    lim = pl.col(f"{prefix}value")
    rl = pl.col("_rl")
    kind = pl.col(f"{prefix}kind")
    return (
        pl.when(s.is_in(verdicts.states_in(verdicts.EXCEEDS_LIMIT, verdicts.EXCEEDS_OTHER)))
        .then(pl.when(q == "range").then(pl.lit("range_above")))
        .when(s == "not_assessable")
        .then(
            pl.when((kind == "range") & (q == "range"))
            .then(pl.lit("range_in_range"))
            .when(kind == "range")
            .then(pl.lit("range_one_end"))
            .when(q.is_in(["below_reporting_limit", "not_detected"]) & (rl > lim))
            .then(pl.lit("rl_above"))
            .when((q == "below_reporting_limit") & rl.is_null())
            .then(pl.lit("rl_missing"))
            .when(q == "above")
            .then(pl.lit("above_below"))
            .when(q.is_in(["number", "range"]) & pl.col("statistic").is_in(["min", "mean"]))
            .then(pl.lit("statistic_weak"))
            .when(~q.is_in(["number", "range", "below_reporting_limit", "not_detected"]))
            .then(pl.lit("no_number"))
        )
    )


def _limit_struct(prefix: str) -> pl.Expr:
    return pl.when(pl.col(f"{prefix}kind").is_not_null()).then(
        document(resources.LIMIT, prefix=prefix)
    )


def classify(
    values: pl.DataFrame, limits: pl.DataFrame, params: pl.DataFrame, as_of: dt.date
) -> pl.DataFrame:
    """Add what each row of values proves against the value valid on `as_of`, and the next one.

    `values` needs: parameter, statistic, qualifier, normalized_value,
    normalized_reporting_limit, and may carry `normalized_low` (a range's lower end) and the
    `ASSESS` columns. Adds the limits (`limit`, `future_limit`), the proofs of
    `generator.ordinance.evidence.proofs` per limit (`cur_*`, `fut_*`), and the state each row
    has alone (`_row_state`, `_row_future_state`, set only where a different limit is
    announced). `assess` turns them into one verdict per sample point; `finish` drops them.
    """
    current, future = _limits_for(limits, params, as_of)
    cur = current.rename({c: f"cur_{c}" for c in current.columns if c != "code"})
    fut = future.rename({c: f"fut_{c}" for c in future.columns if c != "code"})
    optional: dict[str, type[pl.DataType]] = {
        **ASSESS,
        "normalized_low": pl.Float64,
        "value": pl.Float64,
        "value_text": pl.String,
        "sample_point": pl.String,
    }
    absent = [
        pl.lit(None, dtype).alias(c) for c, dtype in optional.items() if c not in values.columns
    ]
    joined = (
        values.with_columns(absent)
        .with_columns(_limit_code().alias("_limit_code"))
        .join(cur, left_on="_limit_code", right_on="code", how="left")
        .join(fut, left_on="_limit_code", right_on="code", how="left")
        .with_columns(
            pl.coalesce("assess_value", "normalized_value").alias("_v"),
            pl.coalesce("assess_qualifier", "qualifier").cast(pl.String).alias("_q"),
            pl.when(pl.col("assess_qualifier").is_null())
            .then(pl.col("normalized_low"))
            .alias("_lo"),
            pl.when(pl.col("assess_qualifier").is_null())
            .then(pl.col("normalized_reporting_limit"))
            .alias("_rl"),
        )
        .with_columns(_counted_absent())
        .drop("_limit_code")
    )
    proven = []
    for prefix in ("cur_", "fut_"):
        proven += [e.alias(f"{prefix}{name}") for name, e in evidence.proofs(prefix).items()]
        proven.append(_blocked(pl.col(f"{prefix}value")).alias(f"{prefix}blocked"))
    return (
        joined.with_columns(proven)
        .with_columns(
            _row_state("cur_").alias("_row_state"),
            pl.when(pl.col("fut_kind").is_not_null())
            .then(_row_state("fut_"))
            .alias("_row_future_state"),
            _limit_struct("cur_").alias("limit"),
            _limit_struct("fut_").alias("future_limit"),
        )
        .drop(*ASSESS, "normalized_low")
        .drop([c for c in ("value_text", "sample_point") if c not in values.columns])
    )


def finish(values: pl.DataFrame) -> pl.DataFrame:
    """Add `reason` (a key of `verdicts.NOTES_DE` or null) and drop the working columns."""
    helpers = [c for c in values.columns if c.startswith(("cur_", "fut_"))]
    helpers += ["_v", "_q", "_lo", "_rl", "_row_state", "_row_future_state"]
    return values.with_columns(_reason("cur_", "state").alias("reason")).drop(helpers, strict=False)


def assess(
    values: pl.DataFrame,
    limits: pl.DataFrame,
    params: pl.DataFrame,
    as_of: dt.date,
    keys: list[str] | None = None,
) -> pl.DataFrame:
    """Return one row per sample point of `values`: the verdict its values prove together.

    `values` are each point's rows of its newest date (`evidence.newest`); the row kept is the
    one the verdict rests on, with `state` and `future_state` of the point
    (`evidence.points`).
    """
    return finish(evidence.points(classify(values, limits, params, as_of), keys))


_SEVERITY = {
    verdicts.EXCEEDS_LIMIT: 4,
    verdicts.EXCEEDS_OTHER: 3,
    verdicts.NOT_ASSESSABLE: 2,
    verdicts.COMPLIES: 1,
    verdicts.NO_COMPARISON: 0,
    verdicts.NOT_MEASURED: 0,
}


def severity(state: pl.Expr) -> pl.Expr:
    """How bad a state is: above a Grenzwert, above another value, not assessable, complies."""
    ranks = {s: _SEVERITY[v.category] for s, v in verdicts.STATES.items()}
    return state.replace_strict(ranks, default=0, return_dtype=pl.Int8)


def worst_order(keys: list[str], *, future: bool = True) -> list[pl.Expr]:
    """Sort keys that put, within each group of `keys`, the value that stands for it first.

    The worst state wins (an exceedance at one sample point is never hidden by a complying
    value at another); then the worst announced state (`future`), then the larger value,
    then the sample point and document by name, so the choice is deterministic.
    """
    value = pl.coalesce("normalized_value", "normalized_reporting_limit")
    announced = [-severity(pl.col("future_state")).fill_null(0)] if future else []
    return [
        *(pl.col(k) for k in keys),
        -severity(pl.col("state")),
        *announced,
        -value.fill_null(float("-inf")),
        pl.col("sample_point"),
        pl.col("document_id"),
    ]
