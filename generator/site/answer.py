"""The answer a person wants first: the verdict and the key values of a zone, in plain words.

The PLZ page shows, for each zone of the PLZ, the zone's verdict (its `summary`, as derived),
the values people ask about (PFAS-20 and PFAS-4 with their announced limits, nitrate, lead,
hardness with its range of § 9 WRMG), each as `generator.values.wording` writes it, and a
link to what the value means. Everything here is a polars expression over all zones at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from generator import compare
from generator.api import verdicts
from generator.derive import Derived
from generator.site import comparison, fragments, notices, shares, text, urls
from generator.site.value_table import limit_words
from generator.values import units, wording
from generator.values.german import number

QUESTIONS: tuple[tuple[str, str], ...] = (
    ("what", "Was ist das?"),
    ("origin", "Woher kommt es?"),
    ("limit_protects", "Was schützt der Wert?"),
    ("what_to_do", "Was können Sie tun?"),
)
"""The fields of an explanation and the question each one answers on the site."""

HARDNESS_CODES = ("gesamthaerte", "haertebereich", "summe_erdalkalien")
"""Parameters whose page shows the hardness ranges."""

KEY_VALUES = ("pfas_summe_20", "pfas_summe_4", "nitrat", "blei")
"""The values of the PLZ page's answer, in this order, hardness after them."""

MMOL = "mmol/l"
# 1 mmol/l of calcium carbonate is 5.6 °dH: the factor every hardness conversion here uses.
DH_PER_MMOL = units.factor(MMOL, "°dH", "gesamthaerte") or 5.6


# ---------------------------------------------------------------------------- hardness ranges


def _bounds(ranges: list[dict[str, Any]]) -> list[tuple[bool, bool]]:
    """Whether each range includes its lower and its upper bound.

    A value on a bound two ranges share belongs to the narrower one (§ 9 WRMG: weich
    "weniger als 1,5", mittel "1,5 bis 2,5", hart "mehr als 2,5").
    """

    def width(r: dict[str, Any]) -> float:
        return float("inf") if r["max_mmol_l"] is None else r["max_mmol_l"] - r["min_mmol_l"]

    out = []
    for r in ranges:
        below = next((o for o in ranges if o["max_mmol_l"] == r["min_mmol_l"]), None)
        above = next(
            (
                o
                for o in ranges
                if r["max_mmol_l"] is not None and o["min_mmol_l"] == r["max_mmol_l"]
            ),
            None,
        )
        out.append(
            (below is None or width(r) < width(below), above is None or width(r) < width(above))
        )
    return out


def hardness_rows(ranges: pl.DataFrame) -> list[dict[str, Any]]:
    """Return the ranges in words for the parameter pages: `weniger als 1,5 Millimol` ..."""
    rows = ranges.sort("min_mmol_l").to_dicts()

    def words(low: float, high: float | None, has_low: bool, has_high: bool, scale: float) -> str:
        lo, hi = number(round(low * scale, 1)), number(round((high or 0) * scale, 1))
        if high is None:
            return f"{'ab' if has_low else 'mehr als'} {lo}"
        if low == 0:
            return f"{'bis' if has_high else 'weniger als'} {hi}"
        return f"{lo} bis {hi}" if has_low and has_high else f"über {lo} bis {hi}"

    for r, (has_low, has_high) in zip(rows, _bounds(rows), strict=True):
        args = (r["min_mmol_l"], r["max_mmol_l"], has_low, has_high)
        r["bounds"] = words(*args, 1.0) + " Millimol"
        r["bounds_dh"] = words(*args, DH_PER_MMOL) + " °dH"
    return rows


def zone_hardness(values: pl.LazyFrame | pl.DataFrame, ranges: pl.DataFrame) -> pl.DataFrame:
    """Return `zone_id`, `hardness_range`, `hardness_note`, `hardness_disputed` per zone.

    The range the supplier publishes (`haertebereich`: weich, mittel or hart) comes first;
    otherwise it is computed from the latest total hardness, in mmol/l (`summe_erdalkalien`)
    or in °dH (`gesamthaerte`), as § 9 WRMG bounds it. Where both exist and differ, the
    note names both ("laut Versorger hart; 14 °dH entspricht mittel") and
    `hardness_disputed` is true.
    """
    # Lazy, so a filter gathers only the columns read here, not the nested limits of a
    # million current values.
    lazy = values.lazy()
    published = (
        lazy.filter(pl.col("parameter") == "haertebereich")
        .select(
            "zone_id",
            pl.col("value_text")
            .str.to_lowercase()
            .str.extract(r"(?:^|[^a-zäöü])(weich|mittel|hart)(?:$|[^a-zäöü])")
            .alias("hardness_range"),
        )
        .drop_nulls("hardness_range")
        .with_columns(pl.lit("vom Versorger angegeben").alias("hardness_note"))
    )
    number_ok = (pl.col("qualifier") == "number") & pl.col("normalized_value").is_not_null()
    measured = (
        wording.with_readings(
            lazy.filter(
                pl.col("parameter").is_in(["summe_erdalkalien", "gesamthaerte"]) & number_ok
            )
        )
        # mmol/l first: it is the quantity the law names.
        .sort("zone_id", pl.col("parameter") != "summe_erdalkalien")
        .group_by("zone_id", maintain_order=True)
        .first()
        .select(
            "zone_id",
            pl.when(pl.col("parameter") == "gesamthaerte")
            .then(pl.col("normalized_value") / DH_PER_MMOL)
            .otherwise(pl.col("normalized_value"))
            .alias("mmol"),
            pl.format("berechnet aus {} {}", pl.col("name_de"), pl.col(wording.SHOWN)).alias(
                "hardness_note"
            ),
            pl.col(wording.SHOWN).alias("_shown"),
        )
    )
    width = (pl.col("max_mmol_l") - pl.col("min_mmol_l")).fill_null(float("inf"))
    computed = (
        measured.join(ranges.lazy().select("range", "min_mmol_l", "max_mmol_l"), how="cross")
        .filter(
            (pl.col("mmol") >= pl.col("min_mmol_l"))
            & (pl.col("max_mmol_l").is_null() | (pl.col("mmol") <= pl.col("max_mmol_l")))
        )
        # On a shared bound the narrower range wins (see `_bounds`); of two as wide, the
        # lower (the cross join's rows come in no fixed order when lazy).
        .sort("zone_id", width, "min_mmol_l")
        .group_by("zone_id", maintain_order=True)
        .first()
        .select("zone_id", pl.col("range").alias("hardness_range"), "hardness_note", "_shown")
    )
    # A supplier's range that its own total hardness does not bear out is shown with both
    # (§ 9 WRMG bounds the ranges by the amount of alkaline earths), and without advice.
    both = published.join(computed, on="zone_id", how="inner", suffix="_m").filter(
        pl.col("hardness_range") != pl.col("hardness_range_m")
    )
    disagree = both.select(
        "zone_id",
        "hardness_range",
        pl.format(
            "laut Versorger {}; {} entspricht {}",
            pl.col("hardness_range"),
            pl.col("_shown"),
            pl.col("hardness_range_m"),
        ).alias("hardness_note"),
        pl.lit(True).alias("hardness_disputed"),
    )
    agreed = published.join(disagree.select("zone_id"), on="zone_id", how="anti")
    only_measured = computed.drop("_shown").join(
        published.select("zone_id"), on="zone_id", how="anti"
    )
    return (
        pl.concat([disagree, agreed, only_measured], how="diagonal_relaxed")
        .with_columns(pl.col("hardness_disputed").fill_null(False))
        .sort("zone_id")
        .collect()
    )


# ---------------------------------------------------------------------------- explanation links


def explain_link(code: pl.Expr, explained: list[str]) -> pl.Expr:
    """Return the URL of a parameter's explanation, null for a parameter without one."""
    return pl.when(code.is_in(explained)).then(
        pl.concat_str(urls.url_expr("parameter", code=code), pl.lit("#erklaerung"))
    )


# ---------------------------------------------------------------------------- the answer per zone


SUMMARY_ICONS = {
    "exceeds_limit": "✕",
    "exceeds_other": "△",
    "complies": "✓",
    "key_values_missing": "–",
    "not_assessable": "?",
    "no_data": "–",
}


def _key_values(
    rows: pl.DataFrame, fragment: str, badges: dict[str, str], explained: list[str]
) -> pl.DataFrame:
    """Render each key value (a row of `current_values`) as the PLZ page shows it: `html`."""
    return fragments.with_fragment(
        rows,
        fragment,
        {
            **shares.reading_values(),
            "name": pl.col("name_de").fill_null(pl.col("parameter")),
            "explain_url": explain_link(pl.col("parameter"), explained).fill_null(
                urls.url_expr("parameter", code=pl.col("parameter"))
            ),
            "badge": pl.col("state").replace_strict(badges),
            "share": shares.current_share_expr(pl.col("limit")),
            "limit": text.limit_expr(pl.col("limit")),
            "future_limit": text.limit_expr(pl.col("future_limit")),
            "future_from": text.date_expr(pl.col("future_limit").struct.field("valid_from")),
            "future_share": shares.current_share_expr(pl.col("future_limit")),
            "compare": pl.col("_compare"),
        },
        "html",
    )


def zone_answers(d: Derived, templates: Path, badges: dict[str, str]) -> pl.DataFrame:
    """Return `zone_id` and `answer_html`: the verdict, its notices, the key values of each zone.

    The notices are the zone page's (`notices`): the same fragment from the same columns.
    """
    explained = d.explanations["code"].to_list()
    order = {code: i for i, code in enumerate(KEY_VALUES)}
    keys = d.current_values.lazy().filter(pl.col("parameter").is_in(list(KEY_VALUES))).collect()
    keys = comparison.with_comparison_html(compare.with_comparison(keys, d.standings))
    rows = (
        wording.with_readings(keys)
        .join(
            shares.other_points(keys),
            on=["zone_id", "parameter"],
            how="left",
            maintain_order="left",
        )
        .with_columns(pl.col("parameter").replace_strict(order, return_dtype=pl.Int32).alias("_o"))
        .sort("zone_id", "_o")
    )
    values = (
        _key_values(rows, fragments.load(templates, "key_value.html"), badges, explained)
        .group_by("zone_id", maintain_order=True)
        .agg(pl.col("html").str.join("").alias("values"))
    )
    hardness_value = wording.with_readings(
        d.current_values.lazy()
        .filter((pl.col("parameter") == "gesamthaerte") & pl.col("value_text").is_not_null())
        .collect()
    ).select("zone_id", wording.SHOWN)
    ranges = d.hardness_ranges.select(pl.col("range").alias("hardness_range"), "advice_de")
    hardness = (
        d.zones.select("zone_id")
        .join(hardness_value, on="zone_id", how="left")
        .join(zone_hardness(d.current_values.lazy(), d.hardness_ranges), on="zone_id", how="left")
        .join(ranges, on="hardness_range", how="left")
        .select(
            "zone_id",
            fragments.compile_fragment(
                fragments.load(templates, "key_hardness.html"),
                {
                    "explain_url": pl.lit(
                        urls.url("parameter", code="gesamthaerte") + "#erklaerung"
                    ),
                    "range": pl.col("hardness_range"),
                    "no_range": pl.col("hardness_range").is_null(),
                    "shown": pl.col("shown"),
                    "note": pl.col("hardness_note"),
                    "advice": pl.when(~pl.col("hardness_disputed").fill_null(False)).then(
                        pl.col("advice_de")
                    ),
                },
            ).alias("hardness"),
        )
    )
    status = pl.col("summary").struct.field("status")
    announced = (
        d.current_values.lazy()
        .filter(pl.col("future_limit").is_not_null())
        .select(
            "zone_id", "parameter", "name_de", "future_state", "future_limit", "announced_elsewhere"
        )
        .collect()
    )
    return (
        d.zones.select(
            "zone_id",
            "summary",
            "publication_stale",
            "newest_publication",
            "key_values_old_since",
        )
        .join(values, on="zone_id", how="left")
        .join(hardness, on="zone_id", how="left")
        .join(
            notices.announced(announced, limit_words()),
            on="zone_id",
            how="left",
            maintain_order="left",
        )
        .select(
            "zone_id",
            fragments.compile_fragment(
                fragments.load(templates, "zone_answer.html"),
                {
                    "tone": status.replace_strict(verdicts.SUMMARY_TONES),
                    "icon": status.replace_strict(SUMMARY_ICONS),
                    "summary_title": pl.col("summary").struct.field("title_de"),
                    "summary_text": pl.col("summary").struct.field("text_de"),
                    "notices": notices.notices_expr(templates),
                    "values": pl.col("values"),
                    "hardness": pl.col("hardness"),
                },
            ).alias("answer_html"),
        )
    )
