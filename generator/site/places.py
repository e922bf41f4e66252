"""Finding your water by place: the search index and the A-Z index of places.

People type `Leipzig`, `4103` or the name of their supplier, not only a five-digit PLZ. The
search on every page loads one small JSON file the first time it is used (`/suchindex.json`:
every PLZ, place, zone and supplier by name, about 1 MB for all of Germany before
compression) and suggests matches as one types. Without JavaScript the form still leads a
PLZ or a place to its page or entry (`/suche`, from the places the build writes beside the
tree out of this index: `site_rules.search_document`), and the A-Z index of places
(`/orte/a/` ...) lists every place with links to its PLZ.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jinja2
import polars as pl

from generator.derive import Derived
from generator.site import urls

LETTERS = "abcdefghijklmnopqrstuvwxyz"
OTHER = "andere"
"""The page for names that do not start with a letter A-Z (after folding umlauts)."""


def fold_expr(name: pl.Expr) -> pl.Expr:
    """Fold a name as search and sorting compare it: lower case, no accents, `ß` as `ss`.

    `static/site.js` folds what people type the same way (`fold`).
    """
    return (
        name.str.normalize("NFKD")
        .str.replace_all(r"\p{M}", "")
        .str.to_lowercase()
        .str.replace_all("ß", "ss", literal=True)
    )


def place_groups(places: pl.DataFrame) -> pl.DataFrame:
    """One row per place name: name, key, letter, slug (an anchor id) and its PLZ, sorted."""
    key = fold_expr(pl.col("name"))
    first = key.str.slice(0, 1)
    slug = pl.concat_str(
        pl.lit("ort-"), key.str.replace_all(r"[^a-z0-9]+", "-").str.strip_chars("-")
    )
    grouped = (
        places.group_by("name")
        .agg(pl.col("plz").unique().sort())
        .with_columns(
            key.alias("key"),
            pl.when(first.is_in(list(LETTERS)))
            .then(first)
            .otherwise(pl.lit(OTHER))
            .alias("letter"),
            slug.alias("slug"),
        )
        .sort("key", "name")
    )
    # Two names that fold alike ("Au", "Aü") share a slug: number the later ones.
    n = pl.col("slug").cum_count().over("slug")
    return grouped.with_columns(
        pl.when(n > 1).then(pl.format("{}-{}", pl.col("slug"), n)).otherwise(pl.col("slug"))
    )


def place_url(letter: str, slug: str) -> str:
    return urls.url("places_letter", letter=letter) + "#" + slug


# ---------------------------------------------------------------------------- search index


def search_index(d: Derived, groups: pl.DataFrame) -> bytes:
    """Return the JSON the search loads: compact arrays, a place's PLZ as indexes into `plz`.

    `urls` gives the page of each kind with `{}` for the id, so the script builds no URL of
    its own.
    """
    plz = d.lookups["plz"].sort().to_list()
    position = {p: i for i, p in enumerate(plz)}
    suppliers = d.suppliers.sort("supplier_id")
    supplier_pos = {s: i for i, s in enumerate(suppliers["supplier_id"])}
    places = [
        [name, [position[p] for p in codes if p in position], place_url(letter, slug)]
        for name, codes, letter, slug in groups.select("name", "plz", "letter", "slug").iter_rows()
    ]
    doc: dict[str, Any] = {
        "plz": plz,
        "orte": places,
        "gebiete": [
            [zone_id, name, supplier_pos[supplier_id]]
            for zone_id, name, supplier_id in d.zones.select("zone_id", "name", "supplier_id")
            .sort("zone_id")
            .iter_rows()
        ],
        "versorger": [list(r) for r in suppliers.select("supplier_id", "name").iter_rows()],
        "urls": {
            "plz": urls.url_slot("plz"),
            "gebiet": urls.url_slot("zone"),
            "versorger": urls.url_slot("supplier"),
        },
    }
    return (json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


# ---------------------------------------------------------------------------- A-Z pages


def place_pages(groups: pl.DataFrame, env: jinja2.Environment) -> Iterator[tuple[str, bytes]]:
    """Yield the A-Z overview and one page per letter that has places."""
    by_letter: dict[str, list[dict[str, Any]]] = {}
    for name, codes, letter, slug in groups.select("name", "plz", "letter", "slug").iter_rows():
        by_letter.setdefault(letter, []).append(
            {
                "name": name,
                "slug": slug,
                "plz": [(p, urls.url("plz", plz=p)) for p in codes],
            }
        )
    order = [c for c in (*LETTERS, OTHER) if c in by_letter]
    letters = [
        {
            "letter": c,
            "label": "andere" if c == OTHER else c.upper(),
            "url": urls.url("places_letter", letter=c),
            "count": len(by_letter[c]),
        }
        for c in order
    ]
    template = env.get_template("places.html")
    yield (
        urls.file_path("places"),
        template.render(letters=letters, current=None, entries=[]).encode(),
    )
    for item in letters:
        yield (
            urls.file_path("places_letter", letter=item["letter"]),
            template.render(
                letters=letters, current=item, entries=by_letter[item["letter"]]
            ).encode(),
        )
