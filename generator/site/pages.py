"""The human site from the same derived frames as the JSON tree: every page and asset.

Pages that exist once (home, register, downloads ...) and the 282 parameter pages are
rendered by Jinja from small contexts (`single_pages`, `parameter_pages`). Pages that exist
per PLZ, zone and supplier are rendered differently: Jinja renders their template once as
a shell, and polars fills its placeholders for all of them at once (see `fragments`),
values, badges and charts included (`plz`, `zone_pages`, `supplier_pages`). This module
puts them in order, with the assets (`static_assets`) and the pieces that summarise every
zone (map, national feed, sitemap), begun ahead when a build asks (`begin`).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import jinja2
import polars as pl

from generator.config import Config
from generator.derive import Derived, newest_publication, with_plz
from generator.frames import parallel
from generator.output.sections import Sections
from generator.site import feeds, maps, places, seo, supplier_pages, urls
from generator.site.environment import badges, environment
from generator.site.parameter_pages import parameter_pages
from generator.site.plz import plz_pages
from generator.site.single_pages import simple_pages
from generator.site.static_assets import static_files
from generator.site.zone_pages import zone_pages


@dataclass(frozen=True)
class Begun:
    """The site's assets and environment, and its national pieces begun (`begin`)."""

    assets: list[tuple[str, bytes]]
    groups: Callable[[], pl.DataFrame]
    """The places by PLZ (`places.place_groups`), made when first asked for: a daily update
    that keeps the places' pages and has the search index asks for none."""
    searched: bytes
    """The search index."""
    env: jinja2.Environment
    map_files: Callable[[], list[tuple[str, bytes]]]
    dates: Callable[[], dict[str, dt.date]]
    """Each page's date for the sitemap (`seo.page_dates`)."""
    national: Callable[[], tuple[str, bytes]]
    """The national feed (`feeds.national_feed`)."""


def begin(
    d: Derived, as_of: dt.date, config: Config, index: bytes | None = None, ahead: bool = False
) -> Begun:
    """Make the site's environment; begin the pieces that summarise every zone.

    `ahead`: the map, the national feed and the sitemap's dates are made one after the
    other on a thread of their own (`parallel.in_turn`) while the caller renders other
    files: each is polars work over every zone, and a daily update's few pages leave the
    other CPU idle. A build asks so (`render.render_all`); otherwise each is made when
    asked for. They come out as made alone. `index`: the search index, when the caller
    made it.
    """
    assets, versions = static_files()
    groups = functools.cache(functools.partial(places.place_groups, d.places))
    searched = places.search_index(d, groups()) if index is None else index
    # Versioned like an asset: a changed index has a new URL, so no cache serves a stale one.
    env = environment(
        as_of,
        config,
        versions,
        f"{urls.url('search_index')}?v={urls.asset_version(searched)}",
        newest_publication(d),
    )
    # In the order they are asked for: the map first.
    tasks: list[Callable[[], Any]] = [
        lambda: list(maps.map_pages(d, env)),
        functools.partial(feeds.national_feed, d, as_of, config),
        functools.partial(seo.page_dates, d, as_of),
    ]
    map_files, national, dates = (
        parallel.in_turn(tasks) if ahead else [functools.cache(t) for t in tasks]
    )
    return Begun(assets, groups, searched, env, map_files, dates, national)


def site_files(
    d: Derived,
    as_of: dt.date,
    config: Config,
    zones: Derived | None = None,
    zone_feeds: feeds.ZoneFeeds | None = None,
    plz: frozenset[str] | None = None,
    sections: Sections | None = None,
    suppliers: frozenset[int] | None = None,
    begun: Begun | None = None,
    chosen: Derived | None = None,
) -> Iterator[tuple[str, bytes | None]]:
    """Yield (path, bytes) for every page and asset of the human site.

    Then its feeds, robots.txt and the sitemap of the pages. Zone pages are rendered for
    the zones of `zones` (`d` restricted, see `render_all`), zone feeds for those of
    `zone_feeds` (every zone's without it), PLZ pages for the PLZ of `plz` (all without
    it); the sitemap lists every zone's and PLZ's page. `sections` as for
    `render.render_all`; `begun`: the site as `begin` began it, when the caller did;
    `chosen`: `with_plz(d, plz)`, when the caller made it.
    """
    begun = begun or begin(d, as_of, config)
    pages: list[str] = []
    late: list[str] = []  # the map's pages, listed where `_MAP_AT` is
    marks: dict[str, int] = {}
    zone_at = None
    zone_page = urls.file_path("zone", zone_id=0).replace("/0/", "/{}/")
    plz_page = urls.file_path("plz", plz="0").replace("/0/", "/{}/")
    plz_rendered = set()
    sections = Sections() if sections is None else sections
    chosen = with_plz(d, plz) if chosen is None else chosen
    for item in _pages_and_assets(d, as_of, config, zones, chosen, sections, begun, suppliers):
        if isinstance(item, str):
            marks[item] = len(pages)
            continue
        path, data = item
        page = seo.page_url(path)
        if _is_page_of(path, zone_page):
            zone_at = len(pages) if zone_at is None else zone_at
        elif _is_page_of(path, plz_page):
            plz_rendered.add(path)
        elif page is not None:
            (late if _MAPS in marks else pages).append(page)
        yield path, data
    # Zone pages come as one run, in the order of d.zones: listed all, rendered or kept.
    every_zone = d.zones.select(urls.url_expr("zone", zone_id=pl.col("zone_id")))
    at = len(pages) if zone_at is None else zone_at
    pages[at:at] = every_zone.to_series().to_list()
    # So do PLZ pages, in the order of the lookups: those rendered and those kept (a PLZ
    # without a page is never kept: it has no file in the previous tree).
    every_plz = d.lookups.select("plz", urls.url_expr("plz", plz=pl.col("plz")).alias("url"))
    plz_at = marks.get(_PLZ_AT, 0)
    pages[plz_at:plz_at] = [
        url
        for p, url in every_plz.iter_rows()
        if urls.file_path_for_url(url) in plz_rendered or (plz is not None and p not in plz)
    ]
    map_at = marks.get(_MAP_AT, 0)  # before the PLZ and zone pages
    pages[map_at:map_at] = late
    yield from feeds.feed_files(d, as_of, config, zone_feeds, begun.national())
    yield urls.file_path("robots"), seo.robots_txt(config)
    yield from seo.sitemap_files(pages, begun.dates(), config)


def _is_page_of(path: str, pattern: str) -> bool:
    head, _, tail = pattern.partition("{}")
    middle = path[len(head) : len(path) - len(tail)]
    return path.startswith(head) and path.endswith(tail) and middle.isdigit()


_PLZ_AT, _MAP_AT, _MAPS = "the PLZ pages", "the map's pages", "the map's pages follow"
"""Marks among the files `_pages_and_assets` yields: where the sitemap lists those pages."""


def _pages_and_assets(
    d: Derived,
    as_of: dt.date,
    config: Config,
    zones: Derived | None,
    chosen: Derived,
    sections: Sections,
    begun: Begun,
    suppliers: frozenset[int] | None,
) -> Iterator[tuple[str, bytes | None] | str]:
    """Yield every page and asset, and marks where the sitemap lists some (`site_files`).

    `chosen`: `d` restricted to the PLZ whose pages are rendered (`with_plz`).

    The map's pages come last, though listed after the places': a daily update makes them
    on a thread of its own (`begin`), and renders its few PLZ, supplier and zone pages
    meanwhile rather than wait for them.
    """
    yield from begun.assets
    env = begun.env
    yield from sections.files(
        "places",
        lambda: [
            (urls.file_path("search_index"), begun.searched),
            *places.place_pages(begun.groups(), env),
        ],
    )
    yield _MAP_AT
    yield from simple_pages(d, env, config, sections, as_of)
    yield from sections.files("parameter_pages", lambda: parameter_pages(d, env, as_of))
    yield from parameter_pages(d, env, as_of, compared=True)
    yield _PLZ_AT
    yield from plz_pages(chosen, env, badges(env), seo.plz_descriptions(chosen))
    yield from supplier_pages.pages(d, env, as_of, suppliers)
    yield from zone_pages(d if zones is None else zones, env, as_of)
    yield _MAPS
    yield from begun.map_files()
