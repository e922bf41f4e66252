"""What a zone's verdict comes with: advice, stricter limits announced, data that may be old.

The zone page and every PLZ page the zone serves show these under the verdict, from one
fragment (`templates/fragments/zone_notices.html`) filled by one expression here, so the
page a search lands on cannot say less than the zone's own page (issue 51, point 4). A PLZ
served by several zones shows each zone's notices in that zone's card.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from generator.api import verdicts
from generator.derive import KEY_PARAMETERS
from generator.site import fragments, text
from generator.site.expressions import PerValue

ADVICE_STATES = (verdicts.EXCEEDS_LIMIT, verdicts.EXCEEDS_OTHER)
"""Zone verdicts (`summary.status`) under which the page says whom to ask."""

_FUTURE_BAD = [verdicts.EXCEEDS_LIMIT, verdicts.EXCEEDS_OTHER]


def announced(cv: pl.DataFrame, words: PerValue) -> pl.DataFrame:
    """Return `zone_id` and `future_text` for every zone with a value above an announced limit.

    `cv` holds current values (whole zones), with `announced_elsewhere` (a standing sample
    point other than the one shown is above its announced limit); `words` the limits in words
    (`value_table.limit_words`). The sentence names each such parameter in the order of the
    zone page's table ("Blei läge ab 12.01.2028 über dem neuen Wert (Grenzwert 5 µg/l)").
    """
    category = pl.col("future_state").replace_strict(
        {state: v.category for state, v in verdicts.STATES.items()}, default=None
    )
    # A value above its announced limit at the point shown, or at another standing point.
    above = cv.filter(
        category.is_in(_FUTURE_BAD).fill_null(False)
        | pl.col("announced_elsewhere").fill_null(False)
    )
    order = {code: i for i, code in enumerate(KEY_PARAMETERS)}
    name = pl.col("name_de").fill_null(pl.col("parameter"))
    above = above.with_columns(
        words.of_rows(above.get_column("future_limit")).alias("_future_limit_words")
    )
    # The sentence per row before the grouping: in `agg` it would be planned once per zone.
    return (
        above.with_columns(
            pl.col("parameter")
            .replace_strict(order, default=len(order), return_dtype=pl.Int32)
            .alias("_order"),
            pl.format(
                "{} läge ab {} über dem neuen Wert ({})",
                name,
                text.date_expr(pl.col("future_limit").struct.field("valid_from")),
                pl.col("_future_limit_words"),
            ).alias("_sentence"),
        )
        .sort("zone_id", "_order", "name_de", "parameter", maintain_order=True)
        .group_by("zone_id", maintain_order=True)
        .agg(pl.col("_sentence").str.join("; ").alias("future_text"))
    )


def notices_expr(templates: Path) -> pl.Expr:
    """Return the notices' markup for rows of zones joined with `announced` (empty if none).

    Reads the zone's `summary`, `publication_stale`, `newest_publication`,
    `key_values_old_since` and `future_text`.
    """
    return fragments.compile_fragment(
        fragments.load(templates, "zone_notices.html"),
        {
            "advice": pl.col("summary").struct.field("status").is_in(list(ADVICE_STATES)),
            "future_text": pl.col("future_text"),
            "stale_since": pl.when(pl.col("publication_stale")).then(
                text.date_expr(pl.col("newest_publication"))
            ),
            "samples_old_since": text.date_expr(pl.col("key_values_old_since")),
        },
    )
