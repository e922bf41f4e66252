"""The pages that exist once: home, access, downloads, API, license, and the 404 page."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator

import jinja2
import polars as pl

from generator.api import odbl, openapi, routes, site_rules
from generator.api.settings import GateSettings
from generator.config import Config
from generator.contract.provenance import OSM_CREDIT
from generator.derive import Derived
from generator.output.sections import Sections
from generator.site import api_reference, catalog, text, urls
from generator.site.environment import html


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


def _download(path: str, api_url: str | None, what: str) -> dict[str, str | None]:
    """One file of the downloads page: its name, the file's URL and, if any, the route's."""
    return {
        "name": path.rsplit("/", 1)[1],
        "url": api_url,
        "file": routes.file_url(path),
        "what": what,
    }


CREDITS_DE = {OSM_CREDIT: "© OpenStreetMap-Mitwirkende"}
"""Credits as the German site words them (OSM's own German form); the data keep theirs."""


def _sources(d: Derived) -> list[dict[str, str | None]]:
    """Return the map data the mapping comes from, as the downloads page lists it."""
    return [
        {
            "title": s.title,
            "credit": CREDITS_DE.get(s.credit, s.credit) if s.credit else s.credit,
            "license": s.license,
            "license_url": s.license_url,
            "stand": text.date(dt.date.fromisoformat(s.date[:10])) if s.date else None,
        }
        for s in d.sources
    ]


def simple_pages(
    d: Derived, env: jinja2.Environment, config: Config, sections: Sections, as_of: dt.date
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
                    catalog.schema_org(d, config, as_of), ensure_ascii=False, sort_keys=True
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
            yield from sections.files(
                "api_page",
                lambda: [
                    api_page(env, config),
                    (urls.file_path("demo_key"), site_rules.demo_key_document(None)),
                ],
            )
        else:
            yield urls.file_path(page), html(env.get_template(name).render(**context))


def api_page(env: jinja2.Environment, config: Config) -> tuple[str, bytes]:
    """Return the API's reference page: it follows from the code and settings alone."""
    settings = GateSettings.from_config(config)
    context = {
        **api_reference.context(openapi.document(config)),
        "openapi_url": routes.file_url(routes.open_file("openapi")),
        "quota": settings.daily_quota,
        "example_key": openapi.example_key(settings),
    }
    return urls.file_path("api"), html(env.get_template("api.html").render(**context))
