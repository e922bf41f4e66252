"""The suppliers' pages: one per supplier, filled by polars from one rendered shell."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import jinja2
import polars as pl

from generator.derive import Derived
from generator.output.sections import chosen_rows, in_order
from generator.site import assets, fragments, text, urls


def pages(
    d: Derived, env: jinja2.Environment, as_of: dt.date, chosen: frozenset[int] | None = None
) -> Iterator[tuple[str, bytes | None]]:
    """Yield every supplier page, (path, None) for those not `chosen` (kept; all when None).

    The chosen are filled by one polars expression. The footer names the newest of the
    documents the page lists, published by `as_of`.
    """
    mask = chosen_rows(d.suppliers, "supplier_id", chosen)
    suppliers = d.suppliers.filter(mask)
    templates = assets.templates_dir()
    count = pl.col("plz_count")
    zone = fragments.compile_fragment(
        fragments.load(templates, "supplier_zone.html"),
        {
            "zone_url": urls.url_expr("zone", zone_id=pl.col("zone_id")),
            "name": pl.col("name"),
            "plz_count": pl.format(
                "{} {}",
                count,
                pl.when(count == 1)
                .then(pl.lit("Postleitzahl"))
                .otherwise(pl.lit("Postleitzahlen")),
            ),
        },
    )
    document = fragments.compile_fragment(
        fragments.load(templates, "document_row.html"),
        {
            "url": pl.col("url"),
            "title": pl.col("title"),
            "edition": text.date_expr(pl.col("edition_date")),
            "retrieved": text.date_expr(pl.col("retrieved_date")),
            "gone": text.date_expr(pl.col("link_gone_since")),
        },
    )

    def listed(column: str, fragment: pl.Expr) -> pl.DataFrame:
        return (
            suppliers.select("supplier_id", column)
            .explode(column)
            .drop_nulls(column)
            .unnest(column)
            .group_by("supplier_id", maintain_order=True)
            .agg(fragment.str.join("").alias(column))
        )

    shell = fragments.squeeze(env.get_template("supplier.html").render())
    edition = pl.element().struct.field("edition_date")
    newest = pl.col("documents").list.eval(edition.filter(edition <= as_of)).list.max()
    frame = (
        suppliers.with_columns(newest.alias("newest"))
        .drop("zones", "documents")
        .join(listed("zones", zone), on="supplier_id", how="left", maintain_order="left")
        .join(listed("documents", document), on="supplier_id", how="left", maintain_order="left")
        .select(
            "supplier_id",
            fragments.fill(
                shell,
                {
                    "supplier_id": pl.col("supplier_id"),
                    "newest": text.date_expr(pl.col("newest")),
                    "name": pl.col("name"),
                    "city": pl.col("city"),
                    "website": pl.col("website"),
                    "zones": pl.col("zones"),
                    "no_zones": pl.col("zones").is_null(),
                    "documents": pl.col("documents"),
                    "no_documents": pl.col("documents").is_null(),
                },
            ).alias("html"),
        )
    )
    rendered = ((urls.file_path("supplier", supplier_id=i), html) for i, html in frame.iter_rows())
    paths = [urls.file_path("supplier", supplier_id=i) for i in d.suppliers["supplier_id"]]
    yield from in_order(paths, mask.to_list(), rendered)
