"""The one place that maps each page of the human site to its URL and its file.

Pages live at directory URLs (`/plz/76437/`) backed by `index.html` files, so every
static host serves them without rewrite rules. Templates, tests and the Python server
call these functions; nothing else joins page paths.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote, unquote

import polars as pl

# The search and the 404 page are part of the service contract: the gates apply them too.
from generator.api.site_rules import (  # noqa: F401  (re-exported)
    DEMO_KEY_PATH,
    NOT_FOUND_PAGE,
    SEARCH_FIELD,
    SEARCH_PATH,
)
from generator.api.templates import template_expr
from generator.output.encode import file_digest
from generator.site import assets

PAGES: dict[str, str] = {
    "home": "/",
    "plz": "/plz/{plz}/",
    "zone": "/gebiete/{zone_id}/",
    "supplier": "/versorger/{supplier_id}/",
    "parameters": "/parameter/",
    "parameter": "/parameter/{code}/",
    "access": "/zugang/",
    "downloads": "/downloads/",
    "api": "/api/",
    "demo_key": DEMO_KEY_PATH,
    "license": "/lizenz/",
    "places": "/orte/",
    "places_letter": "/orte/{letter}/",
    "map": "/karte/",
    "map_layer": "/karte/{layer}/",
    "map_land": "/karte/land/{land}/",
    "search_index": "/suchindex.json",
    "feed": "/feeds/neuigkeiten.atom",
    "zone_feed": "/feeds/gebiete/{zone_id}.atom",
    "sitemap": "/sitemap.xml",
    "robots": "/robots.txt",
    "not_found": "/404.html",
}

STATIC_PREFIX = "static"


def url(page: str, **values: object) -> str:
    """Return the URL path of one page (`"zone"` with `zone_id=101` gives `/gebiete/101/`)."""
    return PAGES[page].format(**{k: quote(str(v), safe="") for k, v in values.items()})


def url_pattern(page: str) -> str:
    """Return a page's URL with `{name}` placeholders, as a shell of templates/ fills them."""
    return PAGES[page]


def url_expr(page: str, **columns: pl.Expr) -> pl.Expr:
    """Return page URLs for every row (`"parameter"` with `code=pl.col("parameter")`, say).

    Only for values that need no percent-encoding (ids, codes, PLZ).
    """
    return template_expr(PAGES[page], columns)


def url_slot(page: str) -> str:
    """Return a page's URL with `{}` for its one value, e.g. "/plz/{}/" (for the search script)."""
    return re.sub(r"\{\w+\}", "{}", PAGES[page])


def file_path(page: str, **values: object) -> str:
    """Return the file that backs one page, relative to the build directory."""
    return file_path_for_url(url(page, **values))


def file_path_for_url(path: str) -> str:
    """Return the file behind a site URL path: directory URLs are served by index.html."""
    rel = unquote(path).lstrip("/")
    return rel + "index.html" if rel.endswith("/") or not rel else rel


def static_files() -> list[tuple[str, Path]]:
    """Return (name relative to static/, source file) for every asset, sorted."""
    root = assets.static_dir()
    return sorted(
        (p.relative_to(root).as_posix(), p)
        for p in root.rglob("*")
        if p.is_file() and not p.name.startswith(".")
    )


def static_file(name: str) -> str:
    """Return the build path of a static asset, e.g. static/site.css."""
    return f"{STATIC_PREFIX}/{name}"


def static_url(name: str, version: str | None = None) -> str:
    """Return the URL of a static asset; a content version keeps caches from going stale."""
    return f"/{static_file(name)}" + (f"?v={version}" if version else "")


def asset_version(data: bytes) -> str:
    """Return a short content hash of an asset."""
    return file_digest(data)[:10]
