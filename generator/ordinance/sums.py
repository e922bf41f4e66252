"""Sums the ordinance defines over other parameters, computed from their published members.

A supplier may publish PFOA, PFOS and PFHxS but not "Summe PFAS-20"; the ordinance's limit
is on the sum, so the sum is computed from the members of the same sample (same zone, date,
sample point and document) and classified like a published value, marked `computed`, with
its members and their provenance. Where the sum is published too, the members cross-check
it: when they add up to more than the published sum beyond `TOLERANCE`, the two are
inconsistent and the larger value is the one assessed.

How members count is the ordinance's rule for each sum (Anlage 2): "Messwerte für die
Einzelsubstanz, die unterhalb der Bestimmungsgrenze des jeweiligen Untersuchungsverfahrens
liegen, werden bei der Summenbildung nicht berücksichtigt." Two cautions on top of it keep a
verdict from claiming more than the members show (`incomplete`): a sum that needs all its
members cannot be shown to comply while some are not published, and a member below a
reporting limit that is itself above the sum's limit leaves compliance open. Pesticides
total is the sum of what was analysed (the ordinance asks only for pesticides likely in the
catchment), so it needs no fixed set; non-relevant metabolites are left out as the
ordinance says, and metabolites whose relevance is open are kept apart (`value_max`).

The nitrate rule, nitrate/50 + nitrite/3 <= 1, is no parameter of the register: it is a
check of the zone (`CHECKS`), computed the same way; the ordinance gives no rule for values
below the reporting limit there, so `< x` counts as anything between 0 and x.

Computed values appear in the zone resource only (current values and checks), never in the
published measurement series. Everything is polars over the whole measurement table.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import polars as pl

from generator.api import resources
from generator.frames.compact import as_text, like
from generator.ordinance import evidence, sum_notes
from generator.output.encode import document
from generator.values.german import number_expr

TOLERANCE = 0.1
"""Members may exceed a published sum by 10 % (rounding of members and sum) before the two
count as inconsistent."""

NOT_ADDED = "not_added"
INTERVAL = "interval"

SAMPLE = ["zone_id", "sampled_at", "sample_point", "statistic", "document_id"]
"""What one sample is: members of a sum are taken from one of these only."""

ANLAGE_2 = "https://www.gesetze-im-internet.de/trinkwv_2023/anlage_2.html"
_NOT_ADDED_RULE = (
    "Sum of the quantified members; results below the limit of quantification are not added "
    "(TrinkwV 2023, Anlage 2)."
)

PESTICIDE_MEMBERS = ("active_substance", "active_substance_strict", "relevant_metabolite")
"""Decisions (reference/pesticides.csv) whose substances make up 'Pestizide-gesamt'."""
PESTICIDE_OPEN = ("unclear",)
"""Decisions of metabolites whose place in the total is open: kept apart in `value_max`."""


@dataclass(frozen=True)
class SumRule:
    code: str
    """Register code of the sum, or the id of a check."""
    members: tuple[str, ...]
    """Register codes; empty: the pesticides of reference/pesticides.csv."""
    legal_basis: str
    rule: str
    weights: tuple[float, ...] = ()
    """Factor of each member (empty: 1 each)."""
    below_reporting_limit: str = NOT_ADDED
    needs_all: bool = True
    """Whether every member must be published to show compliance."""


PFAS_20 = (
    "pfba", "pfpea", "pfhxa", "pfhpa", "pfoa", "pfna", "pfda", "pfunda", "pfdoda", "pftrda",
    "pfbs", "pfpes", "pfhxs", "pfhps", "pfos", "pfns", "pfds", "pfunds", "pfdods", "pftrds",
)  # fmt: skip

SUMS: tuple[SumRule, ...] = (
    SumRule("pfas_summe_20", PFAS_20, "TrinkwV 2023, Anlage 2 Teil I", _NOT_ADDED_RULE),
    SumRule(
        "pfas_summe_4",
        ("pfoa", "pfna", "pfhxs", "pfos"),
        "TrinkwV 2023, Anlage 2 Teil I",
        _NOT_ADDED_RULE,
    ),
    SumRule(
        "tetrachlorethen_trichlorethen",
        ("tetrachlorethen", "trichlorethen"),
        "TrinkwV 2023, Anlage 2 Teil I",
        _NOT_ADDED_RULE,
    ),
    SumRule(
        "pestizide_gesamt",
        (),
        "TrinkwV 2023, Anlage 2 Teil I",
        "Sum of the quantified pesticides of the sample; results below the limit of "
        "quantification and non-relevant metabolites are not added (TrinkwV 2023, Anlage 2); "
        "metabolites whose relevance is open are counted only in value_max.",
        needs_all=False,
    ),
    SumRule(
        "thm",
        ("trichlormethan", "bromdichlormethan", "dibromchlormethan", "tribrommethan"),
        "TrinkwV 2023, Anlage 2 Teil II",
        _NOT_ADDED_RULE,
    ),
    SumRule(
        "haa5",
        (
            "monochloressigsaeure",
            "dichloressigsaeure",
            "trichloressigsaeure",
            "monobromessigsaeure",
            "dibromessigsaeure",
        ),
        "TrinkwV 2023, Anlage 2 Teil II",
        _NOT_ADDED_RULE,
    ),
    SumRule(
        "pak",
        (
            "benzo_b_fluoranthen",
            "benzo_k_fluoranthen",
            "benzo_ghi_perylen",
            "indeno_1_2_3_cd_pyren",
        ),
        "TrinkwV 2023, Anlage 2 Teil II",
        _NOT_ADDED_RULE,
    ),
)


@dataclass(frozen=True)
class CheckRule(SumRule):
    name_de: str = ""
    name_en: str = ""
    limit: float = 1.0
    limit_of: str = ""
    """Register code whose limit row gives the check's validity (valid_from)."""


CHECKS: tuple[CheckRule, ...] = (
    CheckRule(
        "nitrat_nitrit",
        ("nitrat", "nitrit"),
        "TrinkwV 2023, Anlage 2 Teil I (Bemerkung zu Nitrat) und Teil II (Nitrit)",
        "Nitrate in mg/l divided by 50 plus nitrite in mg/l divided by 3 must not exceed 1 "
        "(TrinkwV 2023, Anlage 2); the ordinance sets no rule for results below the limit of "
        "quantification here, so `< x` counts as anything between 0 and x.",
        weights=(1 / 50, 1 / 3),
        below_reporting_limit=INTERVAL,
        name_de="Nitrat/50 + Nitrit/3",
        name_en="Nitrate/50 + nitrite/3",
        limit=1.0,
        limit_of="nitrat",
    ),
)

_RULES = (*SUMS, *CHECKS)
SUM_CODES = tuple(r.code for r in SUMS)
CHECK_CODES = tuple(r.code for r in CHECKS)


def members(pesticides: pl.DataFrame, parameters: pl.DataFrame) -> pl.DataFrame:
    """Return one row per (sum, member): weight and whether the member's place is open."""
    rows: list[dict[str, object]] = []
    for rule in _RULES:
        weights = rule.weights or (1.0,) * len(rule.members)
        for code, weight in zip(rule.members, weights, strict=True):
            rows.append({"sum_code": rule.code, "parameter": code, "weight": weight, "open": False})
    for decision in pesticides.select("code", "decision").iter_rows(named=True):
        if decision["decision"] in PESTICIDE_MEMBERS + PESTICIDE_OPEN:
            rows.append(
                {
                    "sum_code": "pestizide_gesamt",
                    "parameter": decision["code"],
                    "weight": 1.0,
                    "open": decision["decision"] in PESTICIDE_OPEN,
                }
            )
    table = pl.DataFrame(
        rows,
        schema={
            "sum_code": pl.String,
            "parameter": pl.String,
            "weight": pl.Float64,
            "open": pl.Boolean,
        },
    )
    # Members with the German name; a member missing from an overridden register is dropped.
    return table.join(
        parameters.select(pl.col("code").alias("parameter"), pl.col("name_de")),
        on="parameter",
        how="inner",
    )


def rules_frame() -> pl.DataFrame:
    """Return the declarations as a frame: how members count, and every member a sum needs."""
    return pl.DataFrame(
        {
            "sum_code": [r.code for r in _RULES],
            "_interval": [r.below_reporting_limit == INTERVAL for r in _RULES],
            "_needs_all": [r.needs_all for r in _RULES],
            "_needed": [list(r.members) if r.needs_all else [] for r in _RULES],
            "_check": [r.code in CHECK_CODES for r in _RULES],
            "rule": [r.rule for r in _RULES],
            "legal_basis": [r.legal_basis for r in _RULES],
        },
        schema={
            "sum_code": pl.String,
            "_interval": pl.Boolean,
            "_needs_all": pl.Boolean,
            "_needed": pl.List(pl.String),
            "_check": pl.Boolean,
            "rule": pl.String,
            "legal_basis": pl.String,
        },
    )


def current_samples(
    measurements: pl.DataFrame, member_table: pl.DataFrame, as_of: dt.date
) -> pl.DataFrame:
    """Return the rows of `measurements` that the current values and checks need from `computed`.

    A sample point's current value of a sum rests on two dates at most: the newest with
    members (a computed sum newer than any published one, and the latest check) and the date
    of the newest published sum (cross-checked against its members). Every row of a point
    taken on one of those dates is kept; the older history is not summed (at national scale that
    was 427,000 sums with their member lists, most of the build's peak of memory).
    """
    # Three columns, not the whole series: a filter copies every column it keeps.
    point = ["zone_id", "sample_point"]
    upto = measurements.select(*point, "sampled_at", "parameter").filter(
        pl.col("sampled_at") <= as_of
    )
    pairs = member_table.select("parameter", "sum_code").unique()
    newest_members = (
        upto.join(like(pairs, upto), on="parameter")
        .group_by(*point, "sum_code")
        .agg(pl.col("sampled_at").max())
    )
    newest_published = (
        upto.filter(pl.col("parameter").is_in(pairs["sum_code"].unique().implode()))
        .group_by(*point, "parameter")
        .agg(pl.col("sampled_at").max())
    )
    dates = pl.concat(
        [
            newest_members.select(*point, "sampled_at"),
            newest_published.select(*point, "sampled_at"),
        ]
    ).unique()
    del upto
    # `dates` holds only dates up to `as_of`: the semi join gathers just the rows it keeps.
    return measurements.join(
        dates, on=[*point, "sampled_at"], how="semi", maintain_order="left", nulls_equal=True
    )


def computed(
    measurements: pl.DataFrame, member_table: pl.DataFrame, as_of: dt.date
) -> pl.DataFrame:
    """Return one row per sample and sum (or check) that can be computed from its members.

    `measurements` is the normalised series (`normalized_value`, `qualifier`, ...). Columns:
    the sample, `sum_code`, `value`, `value_max`, `n_quantified`, `incomplete`,
    `blocking_rl` (the largest reporting limit of a member that is not added), `missing`,
    `rule`, `legal_basis`, and `members` (a list of SumMember structs).
    """
    rows = _member_rows(measurements, member_table, as_of)
    grouped = _per_sample(rows.with_columns(_counted().alias("counted")))
    missing = pl.col("_needed").list.set_difference(pl.col("_stated")).list.sort()
    grouped = grouped.with_columns(missing.alias("missing"))
    has_missing = pl.col("missing").list.len() > 0
    # A sum of nothing but missing or unquantified members says nothing: not computed; nor
    # is a pesticide total of open metabolites alone. A check needs all its members:
    # nitrate alone is judged by its own limit.
    keep = ((pl.col("n_added") > 0) & ~(pl.col("_check") & has_missing)) | (
        ~has_missing & (pl.col("_stated_certain") > 0)
    )
    return grouped.filter(keep).select(
        *SAMPLE,
        "sum_code",
        pl.col("value").round_sig_figs(12),
        pl.when(pl.col("_unbounded") == 0)
        .then(pl.col("_high").round_sig_figs(12))
        .alias("value_max"),
        "n_quantified",
        "n_added",
        # Compliance cannot be shown where a member is "< BG" without a number: that
        # reporting limit may lie above the sum's limit (like `blocking_rl`, unknown).
        (pl.col("_lower_bound") | has_missing | (pl.col("rl_unknown") > 0)).alias("incomplete"),
        "rl_unknown",
        # What the members prove about one sample's sum. Of a sample or of means: the sum.
        # Of maxima of different samples: only the largest member (some sample had at least
        # that much); their sum is an upper bound (`value_max`). Of minima: their sum is a
        # lower bound of every sample's sum.
        pl.when(pl.col("statistic") == "max")
        .then(pl.col("_max_member").fill_null(0.0).round_sig_figs(12))
        .otherwise(pl.col("value").round_sig_figs(12))
        .alias("proven"),
        "blocking_rl",
        "missing",
        pl.col("_needed").list.len().alias("n_needed"),
        "_lower_bound",
        "added_text",
        "rule",
        "legal_basis",
        "members",
    )


def _member_rows(
    measurements: pl.DataFrame, member_table: pl.DataFrame, as_of: dt.date
) -> pl.DataFrame:
    """Return the members' values up to `as_of`, each with its sum's (or check's) rule."""
    members = member_table["parameter"].unique().implode()
    value = ["value_text", "unit", "qualifier", "normalized_value", "normalized_reporting_limit"]
    return (
        as_text(
            measurements.filter(
                (pl.col("sampled_at") <= as_of) & pl.col("parameter").is_in(members)
            ).select(*SAMPLE, "parameter", *value)
        )
        .join(member_table, on="parameter", how="inner")
        .join(rules_frame(), on="sum_code", how="left")
    )


def _counted() -> pl.Expr:
    """Return how a member counts in its sum.

    Added, a lower bound, uncertain (a metabolite whose relevance is open), below the
    reporting limit, not detected, or no number.
    """
    q = pl.col("qualifier")
    quantified = q.is_in(["number", "range"])
    return (
        pl.when(pl.col("open") & (quantified | (q == "above")))
        .then(pl.lit("uncertain"))
        .when(quantified)
        .then(pl.lit("added"))
        .when(q == "above")
        .then(pl.lit("lower_bound"))
        .when(q == "below_reporting_limit")
        .then(pl.lit("below_reporting_limit"))
        .when(q == "not_detected")
        .then(pl.lit("not_detected"))
        .otherwise(pl.lit("no_number"))
    )


def _per_sample(rows: pl.DataFrame) -> pl.DataFrame:
    """Return per sample and sum what its members add up to, bound and leave out."""
    v = pl.col("normalized_value") * pl.col("weight")
    rl = pl.col("normalized_reporting_limit") * pl.col("weight")
    c = pl.col("counted")
    low = pl.when(c.is_in(["added", "lower_bound"])).then(v).otherwise(0.0)
    # The largest the member can be: null where it has no upper bound.
    high = (
        pl.when(c.is_in(["added", "uncertain"]))
        .then(v)
        .when(c == "lower_bound")
        .then(None)
        .when((c == "below_reporting_limit") & pl.col("_interval"))
        .then(rl)
        .otherwise(0.0)
    )
    # Under the ordinance's rule a value below the reporting limit is not added; when that
    # limit is above the sum's limit, compliance cannot be shown (compared in derive).
    blocking = pl.when(
        (c == "below_reporting_limit") & ~pl.col("_interval") & ~pl.col("open")
    ).then(rl)
    member_doc = document(resources.SUM_MEMBER).alias("members")
    return (
        rows.sort("parameter")
        .group_by([*SAMPLE, "sum_code"], maintain_order=True)
        .agg(
            low.sum().alias("value"),
            high.sum().alias("_high"),
            high.null_count().alias("_unbounded"),
            c.is_in(["added", "lower_bound", "uncertain"]).sum().alias("n_quantified"),
            c.is_in(["added", "lower_bound"]).sum().alias("n_added"),
            (
                (c == "below_reporting_limit")
                & pl.col("normalized_reporting_limit").is_null()
                & ~pl.col("open")
            )
            .sum()
            .alias("rl_unknown"),
            pl.when(c.is_in(["added", "lower_bound"])).then(v).max().alias("_max_member"),
            blocking.max().alias("blocking_rl"),
            (c == "lower_bound").any().alias("_lower_bound"),
            pl.col("parameter").filter(c != "no_number").alias("_stated"),
            ((c != "no_number") & ~pl.col("open")).sum().alias("_stated_certain"),
            pl.concat_str(
                pl.col("name_de"),
                pl.lit(" "),
                pl.col("value_text"),
                pl.when(
                    ~pl.col("value_text").str.contains(pl.col("unit").fill_null(""), literal=True)
                )
                .then(pl.concat_str(pl.lit(" "), pl.col("unit")))
                .otherwise(pl.lit("")),
            )
            .filter(c.is_in(["added", "lower_bound"]))
            .str.join(", ")
            .alias("added_text"),
            pl.col("_interval").first(),
            pl.col("_needs_all").first(),
            pl.col("_needed").first(),
            pl.col("_check").first(),
            pl.col("rule").first(),
            pl.col("legal_basis").first(),
            member_doc,
        )
    )


# ---------------------------------------------------------------------------- current values


def _reported() -> pl.Expr:
    """Read the published sum as a number to cross-check with: `< x` counts as x, `n.n.` as 0."""
    q = pl.col("qualifier")
    return (
        pl.when(q.is_in(["number", "range"]))
        .then(pl.col("normalized_value"))
        .when(q == "below_reporting_limit")
        .then(pl.col("normalized_reporting_limit"))
        .when(q == "not_detected")
        .then(pl.lit(0.0))
    )


def _struct(reported: pl.Expr, consistent: pl.Expr) -> pl.Expr:
    return document(
        resources.COMPUTED_SUM,
        unit=pl.col("sum_unit"),
        reported_value=reported,
        consistent=consistent,
        tolerance=pl.lit(TOLERANCE),
    )


def _with_unit(sums: pl.DataFrame, parameters: pl.DataFrame) -> pl.DataFrame:
    units = parameters.select(pl.col("code").alias("sum_code"), pl.col("unit").alias("sum_unit"))
    return sums.filter(pl.col("sum_code").is_in(SUM_CODES)).join(units, on="sum_code", how="left")


def with_sums(latest: pl.DataFrame, sums: pl.DataFrame, parameters: pl.DataFrame) -> pl.DataFrame:
    """Cross-check the latest published sums; add computed sums newer than any published.

    `latest` holds the rows that stand for each zone and parameter (`newest`); `sums` is
    `computed`'s frame. Adds `origin`, `computed`, `sum_note` (German) and the
    `classify.ASSESS` columns.
    """
    s = _with_unit(sums, parameters)
    newer = _newer_sums(latest, s)
    published = _checked(latest, s).join(
        newer.select("zone_id", pl.col("sum_code").alias("parameter"), "sample_point").unique(),
        on=["zone_id", "parameter", "sample_point"],
        how="anti",
        nulls_equal=True,
    )
    return pl.concat([published, _computed_rows(newer)], how="diagonal_relaxed")


def _checked(latest: pl.DataFrame, s: pl.DataFrame) -> pl.DataFrame:
    """Return the published rows, each sum checked against its members' computed sum.

    A sum the members prove too small is assessed at what they prove; metabolites whose
    relevance is open lift its upper bound; `computed` and `sum_note` say what was found.
    """
    struct_cols = ["value", "value_max", "missing", "rule", "legal_basis", "members"]
    facts = s.select(
        *SAMPLE,
        pl.col("sum_code").alias("parameter"),
        "sum_unit",
        pl.col("value").alias("_s_value"),
        pl.col("proven").alias("_s_proven"),
        pl.col("value_max").alias("_s_max"),
        pl.col("blocking_rl").alias("_s_blocking"),
        pl.col("incomplete").alias("_s_incomplete"),
        *(pl.col(c).alias(f"_c_{c}") for c in struct_cols),
    )
    # Only the fields of the computed struct come along; the published row keeps its own.
    pub = latest.join(facts, on=[*SAMPLE, "parameter"], how="left", nulls_equal=True)
    reported = _reported()
    # For maxima, the members' sum may exceed the published maximum of the sums without any
    # contradiction; only what the members prove about one sample (`proven`) can.
    inconsistent = pl.col("_s_proven") > reported * (1 + TOLERANCE)
    has_sum = pl.col("_s_value").is_not_null()
    consistent = pl.when(has_sum & reported.is_not_null()).then(~inconsistent)
    # Metabolites whose relevance is open may lift even a sum that agrees with its members.
    open_part = (pl.col("_s_max") - pl.col("_s_value")).clip(lower_bound=0.0)
    upper_with_open = pl.when(has_sum & (open_part > 0)).then(
        (pl.max_horizontal(reported, pl.col("_s_value")) + open_part).round_sig_figs(12)
    )
    maxima = pl.col("statistic") == "max"
    pub = pub.with_columns(
        pl.lit("published").alias("origin"),
        pl.when(has_sum)
        .then(
            document(
                resources.COMPUTED_SUM,
                prefix="_c_",
                unit=pl.col("sum_unit"),
                reported_value=reported,
                consistent=consistent,
                tolerance=pl.lit(TOLERANCE),
            )
        )
        .alias("computed"),
        pl.when(inconsistent).then(pl.col("_s_proven")).alias("assess_value"),
        pl.when(inconsistent).then(pl.lit("number")).alias("assess_qualifier"),
        pl.when(inconsistent)
        .then(pl.col("_s_max"))
        .otherwise(upper_with_open)
        .alias("assess_upper"),
        pl.when(inconsistent).then(pl.col("_s_blocking")).alias("assess_blocking_rl"),
        pl.when(inconsistent).then(pl.col("_s_incomplete")).alias("assess_incomplete"),
        pl.concat_str(
            pl.when(has_sum & inconsistent.fill_null(False))
            .then(
                pl.format(
                    "Die veröffentlichten Einzelstoffe {} ergeben zusammen {} {}, mehr als die "
                    "veröffentlichte Summe (über {} % Abweichung): Die Angaben passen nicht "
                    "zusammen; bewertet ist der höhere Wert.",
                    sum_notes.of_members(),
                    number_expr(pl.when(maxima).then("_s_proven").otherwise("_s_value")),
                    pl.col("sum_unit"),
                    pl.lit(int(TOLERANCE * 100)),
                )
            )
            .when(has_sum & consistent.fill_null(False))
            .then(
                pl.format(
                    "Die veröffentlichten Einzelstoffe {} ergeben zusammen {} {}; das "
                    "widerspricht der veröffentlichten Summe nicht.",
                    sum_notes.of_members(),
                    number_expr(pl.col("_s_value")),
                    pl.col("sum_unit"),
                )
            ),
            pl.when(has_sum & (open_part > 0)).then(
                pl.format(
                    " Abbaustoffe, deren Einstufung offen ist, sind nicht eingerechnet; mit ihnen "
                    "ergäbe sich bis zu {} {}.",
                    number_expr(upper_with_open),
                    pl.col("sum_unit"),
                )
            ),
            ignore_nulls=True,
        ).alias("sum_note"),
        pl.when(inconsistent).then(pl.col("_s_blocking")).alias("sum_blocking_rl"),
    )
    pub = pub.with_columns(
        pl.when(pl.col("sum_note") != "").then(pl.col("sum_note")).alias("sum_note")
    ).drop([c for c in pub.columns if c.startswith(("_s_", "_c_"))] + ["sum_unit"])

    return pub


def _newer_sums(latest: pl.DataFrame, s: pl.DataFrame) -> pl.DataFrame:
    """Return per sample point the computed sum from members newer than the sum it published."""
    point = ["zone_id", "sum_code", "sample_point"]
    latest_sums = evidence.newest(s, point)
    published_at = latest.select(
        "zone_id",
        pl.col("parameter").alias("sum_code"),
        "sample_point",
        pl.col("sampled_at").alias("_pub_at"),
    ).unique(point)
    return latest_sums.join(published_at, on=point, how="left", nulls_equal=True).filter(
        pl.col("_pub_at").is_null() | (pl.col("sampled_at") > pl.col("_pub_at"))
    )


def _computed_rows(newer: pl.DataFrame) -> pl.DataFrame:
    """Return the computed sums as rows of the series (`origin` computed)."""
    # A sum whose members are all "< BG" without a number is itself below an unknown
    # reporting limit: not 0, and nothing that can show compliance.
    nothing = (pl.col("n_added") == 0) & (pl.col("rl_unknown") > 0)
    return newer.select(
        *SAMPLE,
        pl.col("sum_code").alias("parameter"),
        pl.when(nothing)
        .then(pl.lit("< BG"))
        .otherwise(number_expr(pl.col("value")))
        .alias("value_text"),
        pl.col("sum_unit").alias("unit"),
        pl.when(~nothing).then(pl.col("value")).alias("value"),
        pl.when(nothing)
        .then(pl.lit("below_reporting_limit"))
        .otherwise(pl.lit("number"))
        .alias("qualifier"),
        pl.when(~nothing).then(pl.col("value")).alias("normalized_value"),
        pl.lit(None, pl.Float64).alias("normalized_reporting_limit"),
        pl.lit("computed").alias("origin"),
        _struct(pl.lit(None, pl.Float64), pl.lit(None, pl.Boolean)).alias("computed"),
        pl.when(~nothing).then(pl.col("proven")).alias("assess_value"),
        pl.col("value_max").alias("assess_upper"),
        pl.col("blocking_rl").alias("assess_blocking_rl"),
        pl.col("incomplete").alias("assess_incomplete"),
        sum_notes.computed_note().alias("sum_note"),
        pl.col("blocking_rl").alias("sum_blocking_rl"),
    )
