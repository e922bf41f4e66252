"""The zone pages: filled in polars for a batch of zones at a time.

Jinja renders the page's template once as a shell, and polars fills its placeholders for
every zone of a batch at once (`fragments`), value table, checks and charts included. Zone
pages go in batches of zones so memory stays bounded at national scale.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterator

import jinja2
import polars as pl

from generator import compare
from generator.api import routes, verdicts
from generator.derive import Derived, with_links, with_numbers
from generator.frames import parallel
from generator.frames.compact import as_text
from generator.site import (
    answer,
    assets,
    charts,
    comparison,
    fragments,
    notices,
    seo,
    text,
    urls,
)
from generator.site.environment import badges as rendered_badges
from generator.site.value_table import FOLDS, check_items, limit_words, value_rows

ZONE_BATCH = 125  # zones per batch: bounds the memory of chart strings


def _zone_page_values() -> dict[str, pl.Expr]:
    """Return the placeholder values of templates/zone.html, for a frame of whole zones."""
    verdict = pl.col("summary").struct.field
    status = verdict("status")
    plz_link = pl.format(
        '<a href="{}">{}</a>', urls.url_expr("plz", plz=pl.element()), pl.element()
    )
    plz_links = pl.col("plz").list.eval(plz_link).list.join(", ")
    return {
        "zone_id": pl.col("zone_id"),
        "newest": text.date_expr(pl.col("newest_publication")),
        "name": pl.col("name"),
        "supplier_name": pl.col("supplier_name"),
        "supplier_url": urls.url_expr("supplier", supplier_id=pl.col("supplier_id")),
        "water_source": pl.col("water_source"),
        "population": text.thousands_expr(pl.col("population")),
        "plz_links": pl.when(plz_links != "").then(plz_links).otherwise(pl.lit("keine bekannt")),
        "summary_class": pl.concat_str(
            pl.lit("summary-"), status.replace_strict(verdicts.SUMMARY_TONES)
        ),
        "summary_icon": status.replace_strict(answer.SUMMARY_ICONS),
        "summary_title": verdict("title_de"),
        "summary_text": verdict("text_de"),
        "notices": notices.notices_expr(assets.templates_dir()),
        "checks_html": pl.col("checks_html"),
        "values_html": pl.col("values_html"),
        "sources_html": pl.col("sources_html"),
        **{
            f"{fold}_{part}": pl.col(f"{fold}_{part}")
            for fold in FOLDS
            for part in ("html", "summary")
        },
        "no_values": pl.all_horizontal(
            pl.col(c).is_null() for c in ("values_html", *(f"{fold}_html" for fold in FOLDS))
        ),
        "aggregates": pl.col("aggregates").fill_null(False),
        "charts_html": pl.col("charts_html"),
        "charts_summary": pl.when(pl.col("charts") == 1)
        .then(pl.lit("Ein Diagramm: alle veröffentlichten Werte über die Zeit"))
        .otherwise(
            pl.format("{} Diagramme: alle veröffentlichten Werte über die Zeit", pl.col("charts"))
        ),
        "zone_api_url": routes.url_expr("zone", zone_id=pl.col("zone_id")),
        "measurements_api_url": routes.url_expr("zone_measurements", zone_id=pl.col("zone_id")),
        "measurement_count": pl.col("measurement_count"),
        "description": pl.col("description"),
        "feed_url": urls.url_expr("zone_feed", zone_id=pl.col("zone_id")),
    }


def zone_pages(d: Derived, env: jinja2.Environment, as_of: dt.date) -> Iterator[tuple[str, bytes]]:
    """Yield every zone page, filled in polars for a batch of zones at a time."""
    templates = assets.templates_dir()
    inputs = charts.ChartInputs.prepare(d.limits, d.parameters)
    row_fragment = fragments.load(templates, "value_row.html")
    source_fragment = fragments.load(templates, "source_item.html")
    badges = rendered_badges(env)
    # Jinja renders the site-wide shell once; polars fills in each zone.
    shell = fragments.squeeze(env.get_template("zone.html").render())
    page = fragments.fill(shell, _zone_page_values())
    m = d.measurements
    counts = m.group_by("zone_id", maintain_order=True).agg(pl.len().alias("measurement_count"))
    per_zone = dict(zip(counts["zone_id"], counts["measurement_count"], strict=True))
    # measurements are sorted by zone, so each zone's rows are one contiguous slice
    starts, offset = {}, 0
    for zone_id, n in per_zone.items():
        starts[zone_id] = offset
        offset += n
    order = {code: i for i, code in enumerate(charts.ALWAYS)}
    descriptions = seo.zone_descriptions(d)
    limits = limit_words()

    def render(batch: list[int]) -> list[tuple[str, bytes]]:
        present = [z for z in batch if z in per_zone]
        if present:
            lo = min(starts[z] for z in present)
            hi = max(starts[z] + per_zone[z] for z in present)
            part = m.slice(lo, hi - lo).filter(pl.col("zone_id").is_in(present))
        else:
            part = m.clear()
        part = as_text(with_numbers(part, d.readings, keep=True))
        figures = (
            charts.chart_frame(part, inputs, as_of)
            .with_columns(
                pl.col("parameter")
                .replace_strict(order, default=len(order), return_dtype=pl.Int32)
                .alias("_o")
            )
            .sort("zone_id", "_o", "name_de")
            .group_by("zone_id", maintain_order=True)
            .agg(pl.col("html").str.join("").alias("charts_html"), pl.len().alias("charts"))
        )
        cv = with_links(d.current_values.of(pl.Series(batch)), d.documents)
        values = value_rows(
            comparison.with_comparison_html(compare.with_comparison(cv, d.standings)),
            row_fragment,
            badges,
            source_fragment,
            limits,
        )
        zones = d.zones.filter(pl.col("zone_id").is_in(batch))
        filled = (
            zones.join(values, on="zone_id", how="left")
            .join(check_items(zones, badges), on="zone_id", how="left")
            .join(notices.announced(cv, limits), on="zone_id", how="left")
            .join(figures, on="zone_id", how="left")
            .join(counts, on="zone_id", how="left")
            .join(descriptions, on="zone_id", how="left")
            .with_columns(pl.col("measurement_count").fill_null(0))
            .select("zone_id", page.alias("html"))
        )
        return [
            (urls.file_path("zone", zone_id=zone_id), html) for zone_id, html in filled.iter_rows()
        ]

    ids = d.zones["zone_id"].to_list()
    batches = (ids[first : first + ZONE_BATCH] for first in range(0, len(ids), ZONE_BATCH))
    for files in parallel.ordered(functools.partial(render, batch) for batch in batches):
        yield from files
