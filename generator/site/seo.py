"""What search engines read: the sitemap, robots.txt, page descriptions and page dates.

The sitemap lists every page the site renders (the HTML files `site_files` yields, except
the 404 page), each at its canonical address (`base_url` + the page's URL), in files of at
most `SITEMAP_LIMIT` addresses behind one sitemap index at `/sitemap.xml`. A page's
`lastmod` comes from the data it shows (document editions, sample dates, the dates limits
came into force), never from the clock, so the same input gives the same bytes; a page that
shows no dated data (the API reference, the access form, the license page) has none.

`robots.txt` keeps crawlers out of `/_data/` and of every keyed route of the route table
(they answer 401 without a key), and names the sitemap; built from the bundled sample it
disallows everything.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from xml.sax.saxutils import escape

import polars as pl

from generator.api import http, routes, site_rules
from generator.config import Config
from generator.derive import Derived
from generator.site import answer, urls
from generator.values import wording

SITEMAP_LIMIT = 50_000
"""Addresses per sitemap file: the limit of the sitemaps protocol."""
SITEMAP_INDEX = urls.file_path("sitemap")
SITEMAP_FILE = "sitemaps/seiten-{n}.xml"
DESCRIPTION_MAX = 300
"""Characters of a meta description; longer ones are cut at a word (search engines show
about 160, the rest still describes the page)."""

UNDATED_PAGES = ("access", "api", "license")
"""Pages that show no dated data: listed without `lastmod`."""

_SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


# ---------------------------------------------------------------------------- dates


def zone_dates(d: Derived, as_of: dt.date) -> pl.DataFrame:
    """`zone_id`, `lastmod`: the latest date a zone's page changed with its data.

    The latest of: its samples up to `as_of`, the editions of the documents they come from,
    and the dates limits of its parameters came into force (a verdict can change then).
    """
    pairs = d.zone_documents
    sampled = pairs.group_by("zone_id").agg(pl.col("last_sampled").max().alias("_s"))
    edited = (
        pairs.filter(pl.col("samples") > 0)
        .join(d.documents.select("document_id", "edition_date"), on="document_id")
        .group_by("zone_id")
        .agg(pl.col("edition_date").max().alias("_e"))
    )
    in_force = (
        d.current_values.lazy()
        .select("zone_id", "parameter", "value_text")
        .filter(pl.col("value_text").is_not_null())
        .select("zone_id", "parameter")
        .join(
            d.limits.lazy()
            .filter(pl.col("valid_from") <= as_of)
            .select(pl.col("code").alias("parameter"), "valid_from"),
            on="parameter",
        )
        .group_by("zone_id")
        .agg(pl.col("valid_from").max().alias("_l"))
        .collect()
    )
    return (
        d.zones.select("zone_id")
        .join(sampled, on="zone_id", how="left")
        .join(edited, on="zone_id", how="left")
        .join(in_force, on="zone_id", how="left")
        .select("zone_id", pl.max_horizontal("_s", "_e", "_l").alias("lastmod"))
    )


def page_dates(d: Derived, as_of: dt.date) -> dict[str, dt.date]:
    """Return the `lastmod` of every dated page, by URL path."""
    zones = zone_dates(d, as_of)
    dated = zones.drop_nulls("lastmod")
    # Tens of thousands of pages: their URLs made by polars (ids and PLZ need no quoting).
    out: dict[str, dt.date] = dict(
        dated.select(urls.url_expr("zone", zone_id=pl.col("zone_id")), "lastmod").iter_rows()
    )
    plz = (
        d.lookups.select("plz", pl.col("zones").list.eval(pl.element().struct.field("zone_id")))
        .explode("zones")
        .join(dated, left_on="zones", right_on="zone_id")
        .group_by("plz")
        .agg(pl.col("lastmod").max())
    )
    out.update(plz.select(urls.url_expr("plz", plz=pl.col("plz")), "lastmod").iter_rows())
    documents = d.documents.group_by("supplier_id").agg(pl.col("edition_date").max().alias("_d"))
    suppliers = (
        d.suppliers.select(
            "supplier_id", pl.col("zones").list.eval(pl.element().struct.field("zone_id"))
        )
        .explode("zones")
        .join(dated, left_on="zones", right_on="zone_id", how="left")
        .group_by("supplier_id")
        .agg(pl.col("lastmod").max())
        .join(documents, on="supplier_id", how="left")
        .select("supplier_id", pl.max_horizontal("lastmod", "_d").alias("lastmod"))
        .drop_nulls("lastmod")
    )
    for supplier_id, day in suppliers.iter_rows():
        out[urls.url("supplier", supplier_id=supplier_id)] = day
    limits = (
        d.limits.filter(pl.col("valid_from") <= as_of)
        .group_by("code")
        .agg(pl.col("valid_from").max())
    )
    for code, day in limits.iter_rows():
        out[urls.url("parameter", code=code)] = day
    latest = [day for day in (dated["lastmod"].max(), limits["valid_from"].max()) if day]
    if latest:
        newest = max(latest)
        assert isinstance(newest, dt.date)
        out[""] = newest  # every other page that shows the data as a whole
    return out


def lastmod(url: str, dates: dict[str, dt.date]) -> dt.date | None:
    """Return the `lastmod` of one page: its own, else the data's latest, none if undated."""
    if url in dates:
        return dates[url]
    if url in _UNDATED:
        return None
    return dates.get("")


_UNDATED = frozenset(urls.url(p) for p in UNDATED_PAGES)


# ---------------------------------------------------------------------------- sitemap, robots


def page_url(path: str) -> str | None:
    """Return the URL of a page of the site given its build path; None for what is no page."""
    if not path.endswith(".html") or path == urls.file_path("not_found"):
        return None
    url = "/" + path
    return url[: -len("index.html")] if url.endswith("/index.html") else url


def sitemap_files(
    pages: Iterable[str], dates: dict[str, dt.date], config: Config
) -> list[tuple[str, bytes]]:
    """Return the sitemap index and its files for the pages' URL paths (in that order)."""
    entries = []
    for url in pages:
        day = lastmod(url, dates)
        loc = f"<loc>{escape(config.base_url + url)}</loc>"
        entries.append(
            (f"<url>{loc}<lastmod>{day.isoformat()}</lastmod></url>", day)
            if day
            else (f"<url>{loc}</url>", None)
        )
    files: list[tuple[str, bytes]] = []
    index = []
    for n, start in enumerate(range(0, max(len(entries), 1), SITEMAP_LIMIT), start=1):
        chunk = entries[start : start + SITEMAP_LIMIT]
        path = SITEMAP_FILE.format(n=n)
        body = "\n".join(e for e, _ in chunk)
        files.append(
            (
                path,
                (
                    f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{_SITEMAP_NS}">\n'
                    f"{body}\n</urlset>\n"
                ).encode(),
            )
        )
        days = [day for _, day in chunk if day is not None]
        mod = f"<lastmod>{max(days).isoformat()}</lastmod>" if days else ""
        index.append(f"<sitemap><loc>{escape(config.base_url)}/{path}</loc>{mod}</sitemap>")
    listed = "\n".join(index)
    head = f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{_SITEMAP_NS}">\n'
    return [(SITEMAP_INDEX, f"{head}{listed}\n</sitemapindex>\n".encode()), *files]


def disallowed() -> list[str]:
    """Path prefixes crawlers stay out of: the hidden files and every keyed route."""
    prefixes = {f"/{http.HIDDEN_DIR}/"}
    for r in routes.ROUTES:
        if r.access == "key" or r.method != "GET":
            # Up to the first placeholder: /v1/zones/{zone_id} -> /v1/zones/
            prefixes.add(re.sub(r"\{.*$", "", r.path))
    prefixes.add(site_rules.SEARCH_PATH)  # a redirect, no page of its own
    return sorted(prefixes)


SAMPLE_ROBOTS = (
    b"# Beispieldaten: erfundene Werte auf echten Postleitzahlen\nUser-agent: *\nDisallow: /\n"
)


def robots_txt(config: Config) -> bytes:
    """Return robots.txt: the hidden and keyed paths kept out, or everything for the sample.

    The bundled sample's values are invented on real postcodes: no search engine may list
    them as an answer for a real place.
    """
    if config.sample:
        return SAMPLE_ROBOTS
    lines = ["User-agent: *", *(f"Disallow: {p}" for p in disallowed()), "Allow: /", ""]
    lines.append(f"Sitemap: {config.base_url}/{SITEMAP_INDEX}")
    return ("\n".join(lines) + "\n").encode()


# ---------------------------------------------------------------------------- descriptions


def _cut(text: pl.Expr) -> pl.Expr:
    """At most DESCRIPTION_MAX characters, cut at a space with an ellipsis."""
    short = text.str.slice(0, DESCRIPTION_MAX - 1).str.replace(r"\s+\S*$", "") + pl.lit(" …")
    return pl.when(text.str.len_chars() > DESCRIPTION_MAX).then(short).otherwise(text)


def zone_facts(d: Derived) -> pl.DataFrame:
    """`zone_id`, `facts`: the zone's verdict and its nitrate and hardness in a few words."""
    nitrate = wording.with_readings(
        d.current_values.lazy()
        .filter((pl.col("parameter") == "nitrat") & pl.col("value_text").is_not_null())
        .collect()
    ).select("zone_id", pl.format("Nitrat {}", pl.col(wording.SHOWN)).alias("_n"))
    hardness = answer.zone_hardness(d.current_values.lazy(), d.hardness_ranges).select(
        "zone_id", pl.format("Härtebereich {}", pl.col("hardness_range")).alias("_h")
    )
    title = pl.col("summary").struct.field("title_de")
    return (
        d.zones.select("zone_id", "summary")
        .join(nitrate, on="zone_id", how="left")
        .join(hardness, on="zone_id", how="left")
        .select(
            "zone_id",
            pl.concat_str(
                [title, pl.col("_n"), pl.col("_h")], separator=", ", ignore_nulls=True
            ).alias("facts"),
        )
    )


def zone_descriptions(d: Derived) -> pl.DataFrame:
    """`zone_id`, `description`: `Trinkwasser im Versorgungsgebiet X (Versorger): …`."""
    facts = zone_facts(d)
    return (
        d.zones.select("zone_id", "name", "supplier_name")
        .join(facts, on="zone_id", how="left")
        .select(
            "zone_id",
            _cut(
                pl.format(
                    "Trinkwasser im Versorgungsgebiet {} ({}): {}.",
                    "name",
                    "supplier_name",
                    pl.col("facts"),
                )
            ).alias("description"),
        )
    )


def plz_descriptions(d: Derived) -> pl.DataFrame:
    """`plz`, `description`: `Trinkwasser in 04103 Leipzig: Versorgungsgebiet X, Nitrat …`."""
    facts = zone_facts(d)
    first = d.lookups.select(
        "plz",
        pl.col("zones").list.first().struct.field("zone_id").alias("zone_id"),
        pl.col("zones").list.first().struct.field("zone_name").alias("zone_name"),
        (pl.col("zones").list.len() - 1).alias("others"),
    )
    # The places of these PLZ only: a daily update describes a few of 8,000.
    places = d.places.join(first.select("plz"), on="plz", how="semi")
    names = places.group_by("plz").agg(
        pl.col("name").unique().sort().head(2).str.join(", ").alias("places")
    )
    zone = pl.format("Versorgungsgebiet {}", pl.col("zone_name"))
    more = (
        pl.when(pl.col("others") == 1)
        .then(pl.lit(" und ein weiteres"))
        .when(pl.col("others") > 1)
        .then(pl.format(" und {} weitere", pl.col("others")))
    )
    return (
        first.join(facts, on="zone_id", how="left")
        .join(names, on="plz", how="left")
        .select(
            "plz",
            _cut(
                pl.concat_str(
                    pl.lit("Trinkwasser in "),
                    pl.concat_str(["plz", "places"], separator=" ", ignore_nulls=True),
                    pl.lit(": "),
                    pl.concat_str([zone, more.fill_null("")]),
                    pl.when(pl.col("facts").is_not_null())
                    .then(pl.format(" ({})", pl.col("facts")))
                    .otherwise(pl.lit("")),
                    pl.lit("."),
                )
            ).alias("description"),
        )
    )
