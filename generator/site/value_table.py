"""The zone page's table of current values and its list of checks, for all zones at once."""

from __future__ import annotations

import polars as pl

from generator.api import qualifiers as q
from generator.api import verdicts
from generator.derive import KEY_PARAMETERS
from generator.site import fragments, shares, text, urls
from generator.site.expressions import PerValue
from generator.values import wording

ROW_TONES = {state: v.category for state, v in verdicts.STATES.items()}
UNSEEN = (q.BELOW_REPORTING_LIMIT, q.NOT_DETECTED)
"""Qualifiers of a value that was looked for and not found (or not above what a lab can tell)."""


FOLDS = ("within", "unlimited", "unseen")
"""The lines a zone page folds current values into, in page order (`fold_group`): values
within their limits, values found without a limit, values not found without a limit."""


def fold_group() -> pl.Expr:
    """Tell where a row of current values goes on a zone page: null (the table) or a fold.

    A zone page answers first: its table holds the key values, whatever a comparison or a
    note explains, and every value that is not plainly within its limit (above one, above an
    announced one, not assessable). The rest folds into lines that open, as people know it
    from other water-quality sites ("other detected contaminants"): values within their
    limits, values without a limit that were found, and those without a limit that were not
    found or lay below a reporting limit (twenty single PFAS "unter der Bestimmungsgrenze –
    kein Grenzwert" took a phone's screen each).
    """
    category = pl.col("state").replace_strict(ROW_TONES, default=None)
    future = pl.col("future_state").replace_strict(ROW_TONES, default=None)
    foldable = (
        ~pl.col("parameter").is_in(list(KEY_PARAMETERS))
        & pl.col("_compare").is_null()
        & pl.col("note_de").is_null()
    ).fill_null(False)
    within = (category == verdicts.COMPLIES) & (
        pl.col("future_state").is_null() | (future == verdicts.COMPLIES)
    )
    unlimited = (pl.col("state") == "no_limit") & pl.col("future_limit").is_null()
    unseen = pl.col("qualifier").is_in(list(UNSEEN))
    return (
        pl.when(foldable & within.fill_null(False))
        .then(pl.lit("within"))
        .when(foldable & unlimited.fill_null(False) & unseen.fill_null(False))
        .then(pl.lit("unseen"))
        .when(foldable & unlimited.fill_null(False))
        .then(pl.lit("unlimited"))
    )


def _fold_summaries(group: pl.Expr, below: pl.Expr) -> dict[str, pl.Expr]:
    """Return the line each fold reads as, aggregated per zone (null where a fold is empty).

    "10 weitere Stoffe innerhalb ihrer Grenz- und Richtwerte", "3 weitere Stoffe ohne
    Grenzwert mit Messwert", "16 weitere Stoffe ohne Grenzwert unter der Bestimmungsgrenze"
    (or "nicht nachgewiesen", or both).
    """

    def stoffe(count: pl.Expr, one: str, many: str) -> pl.Expr:
        return pl.when(count == 1).then(pl.lit(one)).otherwise(pl.format(many, count))

    counts = {fold: (group == fold).sum() for fold in FOLDS}
    unseen = group == "unseen"
    found = (
        pl.when((unseen & below).any() & (unseen & ~below).any())
        .then(pl.lit("unter der Bestimmungsgrenze oder nicht nachgewiesen"))
        .when((unseen & below).any())
        .then(pl.lit("unter der Bestimmungsgrenze"))
        .otherwise(pl.lit("nicht nachgewiesen"))
    )
    lines = {
        "within": stoffe(
            counts["within"],
            "1 weiterer Stoff innerhalb seines Grenz- oder Richtwerts",
            "{} weitere Stoffe innerhalb ihrer Grenz- und Richtwerte",
        ),
        "unlimited": stoffe(
            counts["unlimited"],
            "1 weiterer Stoff ohne Grenzwert mit Messwert",
            "{} weitere Stoffe ohne Grenzwert mit Messwert",
        ),
        "unseen": pl.concat_str(
            stoffe(counts["unseen"], "1 weiterer Stoff", "{} weitere Stoffe"),
            pl.lit(" ohne Grenzwert "),
            found,
        ),
    }
    return {fold: pl.when(counts[fold] > 0).then(line) for fold, line in lines.items()}


def _sources(cv: pl.DataFrame, fragment: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return the documents each zone's current values come from, numbered newest first.

    That is (zone_id, document_id, `ref`) and, per zone, the list items of its sources: the
    table cites a document by its number and describes it once, under the table, not in
    every row that comes from it (most of a zone's rows come from one or two documents).
    """
    prov = pl.col("provenance").struct.field
    docs = (
        cv.select("zone_id", "provenance")
        .filter(prov("url").is_not_null())
        .unique(maintain_order=True)
        .unnest("provenance")
        .sort("zone_id", "edition_date", "document_id", descending=[False, True, False])
        .with_columns(pl.int_range(1, pl.len() + 1).over("zone_id").cast(pl.String).alias("ref"))
    )
    item = fragments.compile_fragment(
        fragment,
        {
            "ref": pl.col("ref"),
            "url": pl.col("url"),
            "title": pl.col("title"),
            "edition": text.date_expr(pl.col("edition_date")),
            "retrieved": text.date_expr(pl.col("retrieved_date")),
            "gone": text.date_expr(pl.col("link_gone_since")),
        },
    )
    lists = docs.group_by("zone_id", maintain_order=True).agg(
        item.str.join("").alias("sources_html")
    )
    return docs.select("zone_id", "document_id", "ref"), lists


def limit_words() -> PerValue:
    """Limits in words (`text.limit_expr`) for `value_rows`: each limit once, not per batch.

    A limit is the same for every zone, and the expression long to plan.
    """
    return PerValue(text.limit_expr)


def value_rows(
    cv: pl.DataFrame,
    row_fragment: str,
    badges: dict[str, str],
    source_fragment: str,
    words: PerValue,
) -> pl.DataFrame:
    """Return one row per zone: its current values as rows, and their sources.

    `values_html` holds the rows of the table; `{fold}_html` those of each of `FOLDS`
    (`fold_group()`), with `{fold}_summary`, the line that opens it (all null where a zone
    has no such rows).
    The announcements of stricter limits are `notices.announced`.

    `words`: the limits in words, of `limit_words()`, shared by the batches of a build.
    """
    order = {code: i for i, code in enumerate(KEY_PARAMETERS)}
    if "_compare" not in cv.columns:
        # Rows without a comparison (`comparison.with_comparison_html` adds it) show none.
        cv = cv.with_columns(pl.lit(None, pl.String).alias("_compare"))
    prov = pl.col("provenance").struct.field
    refs, sources = _sources(cv, source_fragment)
    cv = cv.with_columns(prov("document_id").alias("_document_id")).join(
        refs.rename({"document_id": "_document_id"}),
        on=["zone_id", "_document_id"],
        how="left",
        maintain_order="left",
    )
    cv = cv.with_columns(
        words.of_rows(cv.get_column("limit")).alias("_limit_words"),
        words.of_rows(cv.get_column("future_limit")).alias("_future_limit_words"),
    )
    future_from = text.date_expr(pl.col("future_limit").struct.field("valid_from"))
    name = pl.col("name_de").fill_null(pl.col("parameter"))
    category = pl.col("state").replace_strict(ROW_TONES)
    html = {
        **shares.reading_values(),
        "bad": category == verdicts.EXCEEDS_LIMIT,
        "warn": category == verdicts.EXCEEDS_OTHER,
        "param_url": urls.url_expr("parameter", code=pl.col("parameter")),
        "name": name,
        "computed": pl.col("origin") == "computed",
        "share": shares.current_share_expr(pl.col("limit")),
        "future_share": shares.current_share_expr(
            pl.col("future_limit"), pl.concat_str(pl.lit(" ab "), future_from)
        ),
        "limit": pl.col("_limit_words").fill_null("–"),
        # A phone's stacked row leaves out a limit cell that says only "–" (the badge says it).
        "no_limit": pl.col("_limit_words").is_null() & pl.col("_future_limit_words").is_null(),
        "future_limit": pl.col("_future_limit_words"),
        "future_from": future_from,
        "badge": pl.col("state").replace_strict(badges),
        "future_badge": pl.col("future_state").replace_strict(badges, default=None),
        "note": pl.col("note_de"),
        "compare": pl.col("_compare"),
        "doc_ref": pl.col("ref"),
        "no_doc": pl.col("ref").is_null(),
    }
    # Every row's pieces first, in one vectorised pass; the grouping only joins and counts
    # (the same expressions inside `agg` ran once per zone: minutes at national scale).
    rows = (
        wording.with_readings(cv)
        .join(
            shares.other_points(cv),
            on=["zone_id", "parameter"],
            how="left",
            maintain_order="left",
        )
        .with_columns(
            pl.col("parameter")
            .replace_strict(order, default=len(order), return_dtype=pl.Int32)
            .alias("_order")
        )
        .sort("zone_id", "_order", "name_de", "parameter")
    )
    rows = fragments.with_fragment(rows, row_fragment, html, "_html").select(
        "zone_id",
        "_html",
        text.statistic_label(pl.col("statistic")).is_not_null().alias("_aggregate"),
        fold_group().alias("_group"),
        (pl.col("qualifier") == q.BELOW_REPORTING_LIMIT).fill_null(False).alias("_below"),
    )
    group, row_html = pl.col("_group"), pl.col("_html")
    summaries = _fold_summaries(group, pl.col("_below"))
    return (
        rows.group_by("zone_id", maintain_order=True)
        .agg(
            row_html.filter(group.is_null()).str.join("").alias("values_html"),
            *(row_html.filter(group == fold).str.join("").alias(f"{fold}_html") for fold in FOLDS),
            *(line.alias(f"{fold}_summary") for fold, line in summaries.items()),
            pl.col("_aggregate").any().alias("aggregates"),
        )
        .with_columns(
            pl.when(pl.col(c) != "").then(pl.col(c)).alias(c)
            for c in ("values_html", *(f"{fold}_html" for fold in FOLDS))
        )
        .join(sources, on="zone_id", how="left", maintain_order="left")
    )


def check_items(zones: pl.DataFrame, badges: dict[str, str]) -> pl.DataFrame:
    """Return `zone_id` and `checks_html`: a zone's checks as list items (zones with any)."""
    item = pl.format(
        "<li>{} {} <small>Probe vom {}</small></li>",
        pl.col("state").replace_strict(badges),
        text.esc(pl.col("note_de")),
        text.date_expr(pl.col("sampled_at")),
    )
    return (
        zones.select("zone_id", "checks")
        .explode("checks")
        .drop_nulls("checks")
        .unnest("checks")
        .group_by("zone_id", maintain_order=True)
        .agg(item.str.join("").alias("checks_html"))
    )
