"""A zone's verdict: its checks over several parameters, and the summary of all its values.

The summary is what the site's headline says and what the API's `summary` object holds, so
both say the same: "all values comply" only when at least one value was compared and none
is above its value; a zone with nothing comparable gets a neutral verdict that says why;
values above an indicator, action, parameter, reference or guidance value are named as what
they are, never counted as limit exceedances. The words come from generator/api/verdicts.py.
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from generator.api import resources, verdicts
from generator.api.templates import template_expr
from generator.ordinance import evidence, sums
from generator.ordinance.classify import worst_order
from generator.output.encode import document
from generator.values import wording
from generator.values.german import number_expr

_LIST = pl.List(pl.String)


def checks(
    computed: pl.DataFrame, limits: pl.DataFrame, documents: pl.DataFrame, as_of: dt.date
) -> pl.DataFrame:
    """Return the latest check per zone and rule (`sums.CHECKS`), classified, as `Check` rows."""
    rules = pl.DataFrame(
        {
            "sum_code": [r.code for r in sums.CHECKS],
            "name_de": [r.name_de for r in sums.CHECKS],
            "name_en": [r.name_en for r in sums.CHECKS],
            "_limit": [r.limit for r in sums.CHECKS],
            "_limit_of": [r.limit_of for r in sums.CHECKS],
        }
    )
    # The rule is in force as long as the limit of its parameter is (nitrate's, since 2023).
    since = (
        limits.filter(pl.col("valid_until").is_null())
        .group_by("code")
        .agg(pl.col("valid_from").min())
        .select(pl.col("code").alias("_limit_of"), pl.col("valid_from"))
    )
    # Each sample point's newest date; the worst point stands (as for values).
    latest = (
        evidence.newest(
            computed.filter(pl.col("sum_code").is_in(sums.CHECK_CODES)),
            [*_CHECK_KEYS, "sample_point"],
        )
        .join(rules, on="sum_code")
        .join(since, on="_limit_of", how="left")
    )
    docs = documents.select("document_id", document(resources.DOCUMENT).alias("provenance"))
    # A mean or minimum within the rule does not show that every sample kept it.
    weak = pl.col("statistic").is_in(["min", "mean"])
    state = _check_state(as_of)
    judged = latest.with_columns(
        pl.when(weak & (state == "below_limit"))
        .then(pl.lit("not_assessable"))
        .otherwise(state)
        .alias("state"),
        pl.col("proven").alias("normalized_value"),
    )
    # A point's values of one date prove together: an exceedance if any shows one, else
    # compliance if any shows it (a maximum within the rule beside a mean that shows nothing).
    point = [*_CHECK_KEYS, "sample_point"]
    proof = pl.col("state").replace_strict(
        {"exceeds_limit": 2, "below_limit": 1}, default=0, return_dtype=pl.Int8
    )
    per_point = (
        judged.with_columns(pl.lit(None, pl.Float64).alias("normalized_reporting_limit"))
        .sort([*point, -proof, -pl.col("normalized_value").fill_null(float("-inf"))])
        .group_by(point, maintain_order=True)
        .first()
    )
    worst = (
        per_point.sort(worst_order(_CHECK_KEYS, future=False), nulls_last=False)
        .group_by(_CHECK_KEYS, maintain_order=True)
        .first()
    )
    return (
        worst.with_columns(
            pl.col("sum_code").alias("code"),
            **_check_words(),
        )
        .join(docs, on="document_id", how="left")
        .sort("zone_id", "code")
    )


def _check_state(as_of: dt.date) -> pl.Expr:
    """Return a check's state by its rule: the limit in force, and what the sum proves."""
    lim = pl.col("_limit")
    return (
        pl.when(pl.col("valid_from").is_null() | (pl.col("valid_from") > as_of))
        .then(pl.lit("no_limit"))
        # `proven`: for maxima of different samples only the largest member proves anything.
        .when(pl.col("proven") > lim)
        .then(pl.lit("exceeds_limit"))
        .when(pl.col("incomplete") | pl.col("value_max").is_null() | (pl.col("value_max") > lim))
        .then(pl.lit("not_assessable"))
        .otherwise(pl.lit("below_limit"))
    )


def _check_words() -> dict[str, pl.Expr]:
    """Return a check's `limit`, `computed` and `note_de` columns: what the pages show of it."""
    lim = pl.col("_limit")
    limit = document(
        resources.LIMIT,
        kind=pl.lit("grenzwert"),
        value=lim,
        value_min=pl.lit(None, pl.Float64),
        value_max=pl.lit(None, pl.Float64),
        requirement=pl.lit(None, pl.String),
        unit=pl.lit(None, pl.String),
        valid_until=pl.lit(None, pl.Date),
    )
    computed_struct = document(
        resources.COMPUTED_SUM,
        unit=pl.lit(None, pl.String),
        reported_value=pl.lit(None, pl.Float64),
        consistent=pl.lit(None, pl.Boolean),
        tolerance=pl.lit(sums.TOLERANCE),
    )
    bounds = (
        pl.when(pl.col("value_max").is_null())
        .then(pl.lit(" (oder mehr: ein Wert ist nur als „> x“ angegeben)"))
        .when(pl.col("value_max") > pl.col("value"))
        .then(
            pl.format(
                " bis {}, weil ein Wert unter der Bestimmungsgrenze liegt und hier zwischen 0 "
                "und der Grenze zählt",
                number_expr(pl.col("value_max").round_sig_figs(3)),
            )
        )
        .otherwise(pl.lit(""))
    )
    shown = pl.col("value").round_sig_figs(3)
    note = pl.format(
        "{} {} {}{}; die Verordnung erlaubt höchstens {}.{}",
        pl.col("name_de"),
        pl.when(shown == pl.col("value")).then(pl.lit("=")).otherwise(pl.lit("≈")),
        number_expr(shown),
        bounds,
        number_expr(lim),
        pl.when(pl.col("statistic") == "max")
        .then(
            pl.lit(
                " Berechnet aus Höchstwerten verschiedener Proben: Liegt das Ergebnis nicht "
                "über 1, lag keine Probe darüber; liegt es darüber, zeigt es keine "
                "Überschreitung."
            )
        )
        .otherwise(pl.lit("")),
    )
    return {"limit": limit, "computed": computed_struct, "note_de": note}


_CHECK_KEYS = ["zone_id", "sum_code"]


def _names(category: str) -> pl.Expr:
    return pl.col("_text").filter(pl.col("_category") == category).str.join(", ")


def _codes(category: str) -> pl.Expr:
    return pl.col("code").filter(pl.col("_category") == category).alias(category)


UNASSIGNED_DE = "nicht alle veröffentlichten Werte zugeordnet"
"""Said of a zone's missing key values while some of its published values wait for the
operator's decision (the `undecided` table): they may be among those values."""


def summaries(
    zone_ids: pl.DataFrame,
    values: pl.DataFrame,
    zone_checks: pl.DataFrame,
    undecided: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Return `zone_id` and `summary` (a ZoneSummary struct) for every zone of `zone_ids`.

    `undecided`: published values waiting for a decision (`zone_id` at least); a zone with
    any does not call its missing key values unpublished. In steps: each value and check as
    one item with its category and words (`_items`), the items counted and listed per zone
    (`_per_zone`), the zone's status by the rule above (`_status`), then its title and text.
    """
    frame = _per_zone(zone_ids, _items(values, zone_checks), undecided)
    frame = frame.with_columns(_status().alias("status"))
    return frame.select(
        "zone_id",
        document(resources.ZONE_SUMMARY, title_de=_title(), text_de=_text()).alias("summary"),
    )


def _items(values: pl.DataFrame, zone_checks: pl.DataFrame) -> pl.DataFrame:
    """Return the zones' values and checks as one list: code, category and how it is named.

    `_category` is the verdict vocabulary's category of the state, `_announced` whether the
    item (or another standing point of it) is above a value already announced, and `_text`
    the item as the summary lists it where its category is listed.
    """
    state_category = {s: v.category for s, v in verdicts.STATES.items()}
    above = {k: v.above_de for k, v in verdicts.KINDS.items()}
    kind = pl.col("limit").struct.field("kind")
    # The value as people read it: German, in the limit's unit, words for signs.
    values = wording.with_readings(values)
    published = pl.col(wording.SHOWN)
    computed = pl.col("computed").struct.field
    # Say which number the verdict rests on where it is not the published one.
    shown = (
        pl.when(pl.col("origin") == "computed")
        .then(pl.concat_str(published, pl.lit(", berechnet")))
        .when(computed("consistent").not_())
        .then(
            pl.format(
                "{}; die Einzelstoffe ergeben {} {}",
                published,
                number_expr(computed("value")),
                computed("unit").fill_null(""),
            )
        )
        .otherwise(published)
    )
    items = pl.concat(
        [
            values.select(
                "zone_id",
                pl.col("parameter").alias("code"),
                pl.col("name_de").fill_null(pl.col("parameter")).alias("name"),
                "state",
                "future_state",
                kind.alias("kind"),
                shown.alias("shown"),
                "note_de",
                pl.col("announced_elsewhere").fill_null(False),
            ),
            zone_checks.select(
                "zone_id",
                "code",
                pl.col("name_de").alias("name"),
                "state",
                pl.lit(None, pl.String).alias("future_state"),
                pl.lit("grenzwert").alias("kind"),
                number_expr(pl.col("value").round_sig_figs(3)).alias("shown"),
                "note_de",
                pl.lit(False).alias("announced_elsewhere"),
            ),
        ],
        how="vertical_relaxed",
    ).with_columns(
        pl.col("state").replace_strict(state_category).alias("_category"),
        # Another standing sample point may be above the announced value where this is not.
        (
            pl.col("future_state")
            .replace_strict(state_category, default=None)
            .is_in([verdicts.EXCEEDS_LIMIT, verdicts.EXCEEDS_OTHER])
            .fill_null(False)
            | pl.col("announced_elsewhere")
        ).alias("_announced"),
    )
    reason = pl.coalesce(
        pl.col("note_de"),
        pl.col("state").replace_strict({s: v.label_de for s, v in verdicts.STATES.items()}),
    ).str.strip_chars_end(".")
    text = (
        pl.when(pl.col("_category") == verdicts.EXCEEDS_LIMIT)
        .then(pl.format("{} ({})", pl.col("name"), pl.col("shown")))
        .when(pl.col("_category") == verdicts.EXCEEDS_OTHER)
        .then(
            pl.format(
                "{} ({}, {})",
                pl.col("name"),
                pl.col("shown"),
                pl.col("kind").replace_strict(above, default=""),
            )
        )
        .when(pl.col("_category").is_in([verdicts.NOT_ASSESSABLE, verdicts.NO_COMPARISON]))
        .then(pl.format("{} ({}: {})", pl.col("name"), pl.col("shown"), reason))
    )
    return items.with_columns(text.alias("_text"))


def _per_zone(
    zone_ids: pl.DataFrame, items: pl.DataFrame, undecided: pl.DataFrame | None
) -> pl.DataFrame:
    """Return per zone of `zone_ids` its items counted and listed by category (none: empty).

    `_undecided`: whether some of the zone's published values wait for a decision.
    """
    per_zone = (
        items.sort("zone_id", "code")
        .group_by("zone_id", maintain_order=True)
        .agg(
            pl.col("_category").is_in(verdicts.ASSESSED_CATEGORIES).sum().alias("assessed"),
            (pl.col("_category") != verdicts.NOT_MEASURED).sum().alias("_published"),
            _codes(verdicts.EXCEEDS_LIMIT),
            _codes(verdicts.EXCEEDS_OTHER),
            _codes(verdicts.NOT_ASSESSABLE),
            pl.col("code").filter(pl.col("_announced")).alias("announced"),
            pl.col("code").filter(_key & ~_assessed).alias("key_unassessed"),
            _key_names(_key & (pl.col("_category") == verdicts.NOT_MEASURED)).alias("_k_unpub"),
            _key_names(_key & ~_assessed & (pl.col("_category") != verdicts.NOT_MEASURED)).alias(
                "_k_na"
            ),
            _key_names(_key & ~_assessed).alias("_k_all"),
            _names(verdicts.EXCEEDS_LIMIT).alias("_limit_text"),
            _names(verdicts.EXCEEDS_OTHER).alias("_other_text"),
            _names(verdicts.NOT_ASSESSABLE).alias("_na_text"),
            _names(verdicts.NO_COMPARISON).alias("_nc_text"),
        )
    )
    waiting = (
        pl.col("zone_id").is_in(undecided.get_column("zone_id").unique().implode())
        if undecided is not None and undecided.height
        else pl.lit(False)
    )
    return (
        zone_ids.select("zone_id")
        .join(per_zone, on="zone_id", how="left")
        .with_columns(waiting.alias("_undecided"))
        .with_columns(
            pl.col("assessed", "_published").fill_null(0),
            pl.col("_k_unpub", "_k_na", "_k_all").fill_null(""),
            *(
                pl.col(c).fill_null(pl.lit([], dtype=_LIST))
                for c in (
                    "exceeds_limit",
                    "exceeds_other",
                    "not_assessable",
                    "announced",
                    "key_unassessed",
                )
            ),
        )
    )


_n_limit = pl.col("exceeds_limit").list.len()
_n_other = pl.col("exceeds_other").list.len()
_n_na = pl.col("not_assessable").list.len()


def _status() -> pl.Expr:
    """Return the zone's status: the worst category first; "complies" only on assessed values."""
    return (
        pl.when(_n_limit > 0)
        .then(pl.lit("exceeds_limit"))
        .when(_n_other > 0)
        .then(pl.lit("exceeds_other"))
        # Microbiology alone is no answer to "is my water fine": without the key values the
        # verdict stays neutral and names them.
        .when((pl.col("assessed") > 0) & (pl.col("key_unassessed").list.len() > 0))
        .then(pl.lit("key_values_missing"))
        .when(pl.col("assessed") > 0)
        .then(pl.lit("complies"))
        .when(pl.col("_published") > 0)
        .then(pl.lit("not_assessable"))
        .otherwise(pl.lit("no_data"))
    )


def _count() -> pl.Expr:
    """Return the number a status' words count: exceedances, else the assessed values."""
    return (
        pl.when(pl.col("status") == "exceeds_limit")
        .then(_n_limit)
        .when(pl.col("status") == "exceeds_other")
        .then(_n_other)
        .otherwise(pl.col("assessed"))
    )


def _title() -> pl.Expr:
    """Return the headline: the status' title, with the key values missing or not assessable."""
    headline = pl.concat_str(
        pl.when((pl.col("_k_unpub") != "") & pl.col("_undecided"))
        .then(pl.concat_str(pl.col("_k_unpub"), pl.lit(f": {UNASSIGNED_DE}")))
        .when(pl.col("_k_unpub") != "")
        .then(pl.concat_str(pl.col("_k_unpub"), pl.lit(" nicht veröffentlicht"))),
        pl.when(pl.col("_k_na") != "").then(
            pl.concat_str(pl.col("_k_na"), pl.lit(" nicht bewertbar"))
        ),
        separator="; ",
        ignore_nulls=True,
    )
    return _worded({s: t for s, t in verdicts.SUMMARY_TITLES_DE.items()}, _count(), headline)


def _text() -> pl.Expr:
    """Return the text: what the status rests on, then other values above or not assessable."""
    listed = (
        pl.when(pl.col("status") == "key_values_missing")
        .then(pl.col("_k_all"))
        .when(pl.col("status") == "exceeds_limit")
        .then(pl.col("_limit_text"))
        .when(pl.col("status") == "exceeds_other")
        .then(pl.col("_other_text"))
        # Nothing assessable: say why for each value, whether it cannot be compared or
        # has nothing to be compared with.
        .otherwise(
            pl.concat_list(pl.col("_na_text"), pl.col("_nc_text"))
            .list.eval(pl.element().filter(pl.element() != ""))
            .list.join(", ")
        )
    )
    body = _worded({s: (t, t) for s, t in verdicts.SUMMARY_TEXTS_DE.items()}, _count(), listed)
    also_other = pl.when((pl.col("status") == "exceeds_limit") & (_n_other > 0)).then(
        _fill(verdicts.ALSO_OTHER_DE, list=pl.col("_other_text"))
    )
    assessed = pl.col("status").is_in(
        ["exceeds_limit", "exceeds_other", "complies", "key_values_missing"]
    )
    also_na = pl.when(assessed & (_n_na > 0)).then(
        _fill(verdicts.ALSO_NOT_ASSESSABLE_DE, list=pl.col("_na_text"))
    )
    return pl.concat_str([body, also_other.fill_null(""), also_na.fill_null("")])


_key = pl.col("code").is_in(list(verdicts.HEADLINE_PARAMETERS))
_assessed = pl.col("_category").is_in(verdicts.ASSESSED_CATEGORIES)


def _key_names(which: pl.Expr) -> pl.Expr:
    """Return the headline names of the key values `which` selects, as German lists them.

    'PFAS, Nitrat und Blei', in the order of the declaration.
    """
    order = {code: i for i, code in enumerate(verdicts.HEADLINE_PARAMETERS)}
    names = (
        pl.col("code")
        .filter(which)
        .sort_by(pl.col("code").filter(which).replace_strict(order, default=len(order)))
        .replace_strict(verdicts.HEADLINE_PARAMETERS, default="")
    )
    n = names.len()
    return (
        pl.when(n == 0)
        .then(pl.lit(""))
        .when(n == 1)
        .then(names.first())
        .otherwise(pl.concat_str(names.head(n - 1).str.join(", "), pl.lit(" und "), names.last()))
    )


def _fill(template: str, **parts: pl.Expr) -> pl.Expr:
    """Fill the `{name}` placeholders of a template row by row; a null part reads as ""."""
    return template_expr(template, {name: part.fill_null("") for name, part in parts.items()})


def _worded(templates: dict[str, tuple[str, str]], count: pl.Expr, listed: pl.Expr) -> pl.Expr:
    """Fill the template of each status: singular for a count of 1, else plural."""
    n = count.cast(pl.String)
    chosen = pl.lit(None, pl.String)
    for status, (one, many) in templates.items():
        chosen = (
            pl.when(pl.col("status") == status)
            .then(
                pl.when(count == 1)
                .then(_fill(one, n=n, list=listed))
                .otherwise(_fill(many, n=n, list=listed))
            )
            .otherwise(chosen)
        )
    return chosen
