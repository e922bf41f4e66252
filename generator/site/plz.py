"""The page of every PLZ.

Its zones, largest first, and for a PLZ served by several zones the streets of each zone (a
filter with JavaScript, a plain list per zone without).

Jinja renders `templates/plz.html` once as a shell; polars fills it for every PLZ at once,
the zone cards and street lists from `templates/fragments/`.
"""

from __future__ import annotations

from collections.abc import Iterator

import jinja2
import polars as pl

from generator.contract import provenance
from generator.derive import MATERIAL_SHARE, Derived
from generator.site import answer, assets, feeds, fragments, seo, text, urls

BOUNDARY_WORDS = {
    "supplier": "Grenze nach der Karte des Versorgers",
    "municipalities": "Gebiet aus ganzen Gemeinden zusammengesetzt",
    "operator": "Grenze von uns aus indirekten Quellen gezeichnet",
}
"""How the PLZ page says where a zone's boundary comes from (`boundary_source`)."""


def _street_lists(d: Derived) -> pl.DataFrame:
    """Return per PLZ the markup of its streets, one list per zone in the order of its zones."""
    templates = assets.templates_dir()
    # A share that rounds to 100 % is the whole street.
    partly = pl.col("length_share") < 0.995
    item = fragments.compile_fragment(
        fragments.load(templates, "street_item.html"),
        {
            # What the filter compares with (static/site.js): lower case, ß as ss.
            "key": pl.col("street").str.to_lowercase().str.replace_all("ß", "ss"),
            "street": pl.col("street"),
            "partly": pl.when(partly).then(text.percent_expr(pl.col("length_share"))),
        },
    )
    count = pl.col("n")
    zone = fragments.compile_fragment(
        fragments.load(templates, "street_zone.html"),
        {
            "zone_name": pl.col("zone_name"),
            "n_streets": pl.when(count == 1)
            .then(pl.lit("1 Straße"))
            .otherwise(pl.format("{} Straßen", count)),
            "items": pl.col("items"),
        },
    )
    order = (
        d.lookups.select("plz", "zones")
        .explode("zones")
        .select("plz", pl.col("zones").struct.field("zone_id", "zone_name"))
        .with_row_index("_rank")
    )
    return (
        d.streets.join(order, on=["plz", "zone_id"])
        .sort("_rank", "street")
        .group_by("_rank", maintain_order=True)
        .agg(
            pl.col("plz", "zone_name").first(),
            item.str.join("").alias("items"),
            pl.len().alias("n"),
        )
        .group_by("plz", maintain_order=True)
        .agg(zone.str.join("").alias("street_lists"))
    )


def plz_pages(
    d: Derived,
    env: jinja2.Environment,
    badges: dict[str, str],
    descriptions: pl.DataFrame | None = None,
) -> Iterator[tuple[str, bytes]]:
    """Yield every PLZ page, all filled by one polars expression.

    Each zone's card leads with the answer (`answer.zone_answers`); `badges` are the
    rendered verdict badges by state; `descriptions` the meta description per PLZ
    (`seo.plz_descriptions`).
    """
    if descriptions is None:
        descriptions = seo.plz_descriptions(d)
    templates = assets.templates_dir()
    share = pl.col("area_share")
    population = pl.col("population_share")
    card = fragments.compile_fragment(
        fragments.load(templates, "zone_card.html"),
        {
            "zone_url": urls.url_expr("zone", zone_id=pl.col("zone_id")),
            "zone_name": pl.col("zone_name"),
            "supplier_url": urls.url_expr("supplier", supplier_id=pl.col("supplier_id")),
            "supplier_name": pl.col("supplier_name"),
            "population_width": (population * 100).round(0).cast(pl.Int64),
            "population": text.percent_expr(population),
            "share_width": (share * 100).round(0).cast(pl.Int64),
            "share": text.percent_expr(share),
            "confidence": text.confidence_expr(pl.col("confidence")),
            "boundary": pl.col("boundary_source").replace_strict(
                BOUNDARY_WORDS, default=None, return_dtype=pl.String
            ),
            "answer": pl.col("answer_html"),
        },
    )
    # The zones of a PLZ are already ranked (by population share where known).
    weight = pl.when(pl.col("_by_population")).then(population).otherwise(share)
    cards = (
        d.lookups.select("plz", "zones", pl.col("ranked_by") == "population_share")
        .rename({"ranked_by": "_by_population"})
        .explode("zones")
        .unnest("zones")
        .join(
            answer.zone_answers(d, templates, badges),
            on="zone_id",
            how="left",
            maintain_order="left",
        )
        .join(
            d.zones.select("zone_id", pl.col("newest_publication").alias("_newest")),
            on="zone_id",
            how="left",
            maintain_order="left",
        )
        .group_by("plz", maintain_order=True)
        .agg(
            card.str.join("").alias("cards"),
            pl.col("_newest").max().alias("newest"),
            pl.len().alias("n_zones"),
            pl.col("zone_name").first().alias("first_zone"),
            text.percent_expr(population.first()).alias("first_population"),
            pl.col("_by_population").first().alias("by_population"),
            (weight >= MATERIAL_SHARE).sum().alias("material"),
        )
    )
    reasons = pl.col("ambiguity_reasons")
    split = reasons.list.contains("split")
    low = reasons.list.contains("low_confidence")
    uncovered = pl.col("covered_share") < 0.995
    grid = next((s for s in d.sources if s.license == provenance.ZENSUS_LICENSE), None)
    shell = fragments.squeeze(env.get_template("plz.html").render(grid=grid))
    names = d.places.group_by("plz").agg(pl.col("name").unique().sort().str.join(", "))
    frame = (
        d.lookups.join(cards, on="plz", maintain_order="left")
        .join(_street_lists(d), on="plz", how="left", maintain_order="left")
        .join(names.rename({"name": "places"}), on="plz", how="left", maintain_order="left")
        .join(descriptions, on="plz", how="left", maintain_order="left")
        .join(feeds.plz_feed_links(d), on="plz", how="left", maintain_order="left")
        .select(
            "plz",
            fragments.fill(
                shell,
                {
                    "plz": pl.col("plz"),
                    "newest": text.date_expr(pl.col("newest")),
                    "places": pl.col("places"),
                    "description": pl.col("description"),
                    "feed_heads": pl.col("feed_heads"),
                    "feed_list": pl.col("feed_list"),
                    "single": pl.col("n_zones") == 1,
                    "several": pl.col("n_zones") > 1,
                    "by_population": pl.col("by_population"),
                    "first_zone": pl.col("first_zone"),
                    "first_population": pl.col("first_population"),
                    "n_zones": pl.col("n_zones"),
                    "explanation": split | low | uncovered,
                    "notice_title": pl.when(pl.col("ambiguous"))
                    .then(pl.lit("Nicht eindeutig"))
                    .otherwise(pl.lit("Hinweis")),
                    "split": split,
                    "material": pl.col("material"),
                    "low": low,
                    "uncovered": pl.when(uncovered).then(
                        text.percent_expr(1 - pl.col("covered_share"))
                    ),
                    "cards": pl.col("cards"),
                    "has_streets": pl.col("street_lists").is_not_null(),
                    "street_lists": pl.col("street_lists"),
                    "population": pl.col("by_population"),
                },
            ).alias("html"),
        )
    )
    for plz, html in frame.iter_rows():
        yield urls.file_path("plz", plz=plz), html
