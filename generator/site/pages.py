"""Render the human site from the same derived frames as the JSON tree.

Pages that exist once (home, register, downloads ...) and the 282 parameter pages are
rendered by Jinja from small contexts. Pages that exist per PLZ, zone and supplier are
rendered differently: Jinja renders their template once as a shell, and polars fills its
placeholders for all of them at once (see `fragments`), values, badges and charts
included. Zone pages go in batches of zones so memory stays bounded at national scale.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, cast

import jinja2
import polars as pl

from generator import API_VERSION, __version__, compare
from generator.api import odbl, openapi, routes, verdicts
from generator.api.license_resources import odbl_attribution
from generator.api.settings import GateSettings
from generator.config import Config
from generator.derive import Derived, with_links, with_numbers, with_plz
from generator.frames import parallel
from generator.frames.compact import as_text
from generator.output.sections import Sections
from generator.site import (
    answer,
    api_reference,
    catalog,
    charts,
    comparison,
    compiled,
    feeds,
    fragments,
    maps,
    notices,
    places,
    seo,
    supplier_pages,
    text,
    urls,
)
from generator.site import assets as site_assets
from generator.site.plz import plz_pages
from generator.site.value_table import check_items, limit_words, value_rows

ZONE_BATCH = 125  # zones per batch: bounds the memory of chart strings


def environment(
    as_of: dt.date, config: Config, versions: dict[str, str], search_index: str = ""
) -> jinja2.Environment:
    """Return the template environment with the site-wide globals.

    `search_index` is the versioned URL of the search index (`places.search_index`).
    """
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(site_assets.templates_dir()),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=compiled.TEMPLATES,
    )
    env.globals.update(
        url=urls.url,
        url_pattern=urls.url_pattern,
        static=lambda name: urls.static_url(name, versions[name]),
        api_url=routes.url,
        search_index=search_index,
        badges=text.BADGES,
        kinds=text.KINDS,
        groups=text.GROUPS,
        site={
            "operator": config.operator,
            "contact": config.contact,
            "base_url": config.base_url,
            "attribution": odbl_attribution(config.operator, config.license_url),
            "as_of": text.date(as_of),
            "as_of_iso": as_of.isoformat(),
            "api_version": API_VERSION,
            "version": __version__,
        },
    )
    env.filters.update(
        number=text.number,
        thousands=text.thousands,
        date=text.date,
        unit=text.unit,
    )
    # Badges repeat on every zone page: render each once, not once per use.
    # A template module's macros are attributes made at run time: look them up by name.
    badge = vars(env.get_template("macros.html").module)["badge"]
    env.globals["badge_html"] = {state: badge(state) for state in text.BADGES}
    return env


def _html(html: str) -> bytes:
    return fragments.squeeze(html).encode()


# ---------------------------------------------------------------------------- static


def minify_css(css: str) -> str:
    """Drop comments and layout whitespace from our own stylesheet (a page budget is tight)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"\s+", " ", css)
    css = re.sub(r"\s*([{};,>])\s*", r"\1", css)
    return css.replace(": ", ":").strip() + "\n"  # our selectors never hold ": "


def static_files() -> tuple[list[tuple[str, bytes]], dict[str, str]]:
    """Return every asset as (build path, bytes), and the content version of each."""
    files, versions = [], {}
    for name, path in urls.static_files():
        data = path.read_bytes()
        if name.endswith(".css") and not name.startswith("vendor/"):
            data = minify_css(data.decode("utf-8")).encode()
        files.append((urls.static_file(name), data))
        versions[name] = urls.asset_version(data)
    return files, versions


# ---------------------------------------------------------------------------- zones
# (the PLZ pages are generator/site/plz.py)


def _guidance(d: Derived, kind: str) -> list[dict[str, str]]:
    """Return the Umweltbundesamt's values of one kind, with the parameter's name and source."""
    return [
        {"code": r["code"], "name": r["name_de"], "source_url": r["source_url"]}
        for r in d.limits.filter(pl.col("kind") == kind)
        .join(d.parameters.select("code", "name_de"), on="code")
        .unique("code")
        .sort("code")
        .iter_rows(named=True)
    ]


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
        "notices": notices.notices_expr(site_assets.templates_dir()),
        "checks_html": pl.col("checks_html"),
        "values_html": pl.col("values_html"),
        "sources_html": pl.col("sources_html"),
        "no_values": pl.col("values_html").is_null(),
        "aggregates": pl.col("aggregates").fill_null(False),
        "charts_html": pl.col("charts_html"),
        "zone_api_url": routes.url_expr("zone", zone_id=pl.col("zone_id")),
        "measurements_api_url": routes.url_expr("zone_measurements", zone_id=pl.col("zone_id")),
        "measurement_count": pl.col("measurement_count"),
        "description": pl.col("description"),
        "feed_url": urls.url_expr("zone_feed", zone_id=pl.col("zone_id")),
    }


def _badges(env: jinja2.Environment) -> dict[str, str]:
    # `environment` rendered them: a dict of Markup by state (the globals are untyped).
    rendered = cast(dict[str, object], env.globals["badge_html"])
    return {state: str(html) for state, html in rendered.items()}


def zone_pages(d: Derived, env: jinja2.Environment, as_of: dt.date) -> Iterator[tuple[str, bytes]]:
    """Yield every zone page, filled in polars for a batch of zones at a time."""
    templates = site_assets.templates_dir()
    inputs = charts.ChartInputs.prepare(d.limits, d.parameters)
    row_fragment = fragments.load(templates, "value_row.html")
    source_fragment = fragments.load(templates, "source_item.html")
    badges = _badges(env)
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
            .agg(pl.col("html").str.join("").alias("charts_html"))
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


# ---------------------------------------------------------------------------- others


def _limit_rows(d: Derived) -> dict[str, list[dict[str, Any]]]:
    by_code: dict[str, list[dict[str, Any]]] = {}
    for r in d.limits.iter_rows(named=True):
        r["words"] = text.limit(
            r["kind"], r["value"], r["value_min"], r["value_max"], r["requirement"], r["unit"]
        )
        by_code.setdefault(r["code"], []).append(r)
    return by_code


def parameter_pages(
    d: Derived, env: jinja2.Environment, as_of: dt.date, compared: bool = False
) -> Iterator[tuple[str, bytes]]:
    """Yield the register's page and the parameters' pages, or the compared ones alone.

    With `compared`, the pages of the parameters compared across zones
    (`compare.COMPARED`): those show the national distribution of the zones' values,
    which follows from the series, so they are rendered every time, not kept with the
    register's section.
    """
    params = d.parameters.sort("group", "name_de").to_dicts()
    names = dict(zip(d.parameters["code"], d.parameters["name_de"], strict=True))
    limits = _limit_rows(d)
    explained = {r["code"]: r for r in d.explanations.iter_rows(named=True)}
    ranges = answer.hardness_rows(d.hardness_ranges)
    groups = sorted({p["group"] for p in params}, key=lambda g: text.GROUPS.get(g, g))
    if not compared:
        yield (
            urls.file_path("parameters"),
            _html(
                env.get_template("parameters.html").render(parameters=params, group_codes=groups)
            ),
        )
    template = env.get_template("parameter.html")
    for p in params:
        if (p["code"] in compare.COMPARED) != compared:
            continue
        rows = limits.get(p["code"], [])
        for r in rows:
            until = r["valid_until"]
            r["status"] = (
                "angekündigt"
                if r["valid_from"] > as_of
                else "abgelaufen"
                if until is not None and until < as_of
                else "gilt"
            )
        status = p["pesticide_status"]
        decision = verdicts.PESTICIDE_DECISIONS_DE[status["decision"]] if status else None
        member_of = [{"code": c, "name": names.get(c, c)} for c in p["sums"]]
        yield (
            urls.file_path("parameter", code=p["code"]),
            _html(
                template.render(
                    parameter=p,
                    limits=rows,
                    status=status,
                    decision=decision,
                    member_of=member_of,
                    explanation=explained.get(p["code"]),
                    explain_questions=answer.QUESTIONS,
                    hardness_ranges=ranges if p["code"] in answer.HARDNESS_CODES else [],
                    distribution=comparison.distribution_chart(
                        d.distributions, d.limits, p["code"], text.unit(p["unit"])
                    )
                    if compared
                    else None,
                )
            ),
        )


def _download(path: str, api_url: str | None, what: str) -> dict[str, str | None]:
    """One file of the downloads page: its name, the file's URL and, if any, the route's."""
    return {
        "name": path.rsplit("/", 1)[1],
        "url": api_url,
        "file": routes.file_url(path),
        "what": what,
    }


def _sources(d: Derived) -> list[dict[str, str | None]]:
    """Return the map data the mapping comes from, as the downloads page lists it."""
    return [
        {
            "title": s.title,
            "credit": s.credit,
            "license": s.license,
            "license_url": s.license_url,
            "stand": text.date(dt.date.fromisoformat(s.date[:10])) if s.date else None,
        }
        for s in d.sources
    ]


def simple_pages(
    d: Derived, env: jinja2.Environment, config: Config, sections: Sections
) -> Iterator[tuple[str, bytes | None]]:
    """Yield the home, access, downloads, API and license pages and the 404 page.

    The API's page follows from the code and settings alone: a section (`api_page`).
    """
    stats = {
        "plz": d.lookups.height,
        "zones": d.zones.height,
        "suppliers": d.suppliers.height,
        "measurements": d.measurements.height,
        "parameters": d.parameters.height,
        "pairs": d.export.height,
    }
    downloads = [
        _download(
            routes.file_path("export", format="json"),
            routes.url("export", format="json"),
            "JSON mit Namensnennung im Feld „attribution“",
        ),
        _download(
            routes.file_path("export", format="csv"),
            routes.url("export", format="csv"),
            "CSV (UTF-8, Komma als Trennzeichen)",
        ),
        _download(routes.open_file("export_parquet"), None, "Parquet (für Datenanalyse)"),
        _download(
            routes.open_file("export_streets"),
            None,
            f"Straßen der PLZ mit mehreren Versorgungsgebieten ({d.streets.height} Zeilen, CSV)",
        ),
        _download(
            routes.open_file("datapackage"),
            None,
            "Beschreibung als Frictionless Data Package mit Prüfsummen",
        ),
    ]
    pages: dict[str, tuple[str, dict[str, object] | None]] = {
        "home": ("index.html", {"stats": stats}),
        "access": (
            "zugang.html",
            {
                "quota": GateSettings.from_config(config).daily_quota,
                "request": routes.route("access_request"),
            },
        ),
        "downloads": (
            "downloads.html",
            {
                "downloads": downloads,
                "stats": stats,
                "sources": _sources(d),
                # `</` cannot end the script early: JSON may escape the slash.
                "json_ld": json.dumps(
                    catalog.schema_org(d, config), ensure_ascii=False, sort_keys=True
                ).replace("</", "<\\/"),
                "catalog_url": routes.file_url(routes.open_file("catalog")),
            },
        ),
        "api": ("api.html", None),  # a section of its own (`api_page`)
        "license": (
            "lizenz.html",
            {
                "obligations": odbl.OBLIGATIONS,
                "sources": d.sources,
                "annexes": sorted(d.parameters["annex"].drop_nulls().unique()),
                "guidance": _guidance(d, "orientierungswert"),
                "guide_values": _guidance(d, "leitwert"),
            },
        ),
        "not_found": ("404.html", {}),
    }
    for page, (name, context) in pages.items():
        if context is None:
            yield from sections.files("api_page", lambda: [api_page(env, config)])
        else:
            yield urls.file_path(page), _html(env.get_template(name).render(**context))


def api_page(env: jinja2.Environment, config: Config) -> tuple[str, bytes]:
    """Return the API's reference page: it follows from the code and settings alone."""
    context = {
        **api_reference.context(openapi.document(config)),
        "openapi_url": routes.file_url(routes.open_file("openapi")),
        "quota": GateSettings.from_config(config).daily_quota,
    }
    return urls.file_path("api"), _html(env.get_template("api.html").render(**context))


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
        as_of, config, versions, f"{urls.url('search_index')}?v={urls.asset_version(searched)}"
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
    yield from simple_pages(d, env, config, sections)
    yield from sections.files("parameter_pages", lambda: parameter_pages(d, env, as_of))
    yield from parameter_pages(d, env, as_of, compared=True)
    yield _PLZ_AT
    yield from plz_pages(chosen, env, _badges(env), seo.plz_descriptions(chosen))
    yield from supplier_pages.pages(d, env, suppliers)
    yield from zone_pages(d if zones is None else zones, env, as_of)
    yield _MAPS
    yield from begun.map_files()
