"""The human site: every page is valid HTML5, accessible, light, local-only and correct.

The golden input is rendered once per session; pages are parsed with html5lib (the strict
parser) and inspected as trees, never as substrings.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import polars as pl
import pytest

from generator.api import resources, routes
from generator.api.license_resources import odbl_attribution
from generator.config import Config
from generator.site import assets, pages, static_assets, text, urls
from tests.helpers import AS_OF
from tests.site_helpers import NS, SVG, by_id, find, html_files, page, parse, text_of, value_rows

MAX_PAGE_BYTES = 150_000
CONTROLS = ("input", "select", "textarea")


# ---------------------------------------------------------------------------- every page


def test_every_page_is_strict_html5_in_german(golden_site):
    files = html_files(golden_site)
    assert len(files) > 290  # 282 parameter pages and the rest
    for path in files:
        tree = parse(path)  # raises on the first parse error
        root = tree.getroot() if hasattr(tree, "getroot") else tree
        assert root.get("lang") == "de", path
        assert find(tree, "title") and text_of(find(tree, "title")[0]), path
        assert len(find(tree, "h1")) == 1, path


def test_every_form_control_has_a_label(golden_site):
    for path in html_files(golden_site):
        tree = parse(path)
        labelled = {e.get("for") for e in find(tree, "label")}
        for tag in CONTROLS:
            for control in find(tree, tag):
                if control.get("type") in ("hidden", "submit", "button"):
                    continue
                ident = control.get("id")
                assert (
                    ident in labelled or control.get("aria-label") or control.get("aria-labelledby")
                ), f"{path}: <{tag} name={control.get('name')}> has no label"


def test_every_image_and_chart_has_a_text_alternative(golden_site):
    charts = 0
    for path in html_files(golden_site):
        tree = parse(path)
        for img in find(tree, "img"):
            assert img.get("alt") is not None, f"{path}: <img src={img.get('src')}> without alt"
        for svg in tree.iter(SVG + "svg"):
            if svg.get("aria-hidden") == "true":
                continue
            assert svg.get("role") == "img", path
            ids = (svg.get("aria-labelledby") or "").split()
            assert ids, f"{path}: chart without aria-labelledby"
            for ident in ids:
                target = by_id(tree, ident)
                assert target is not None and text_of(target), f"{path}: empty #{ident}"
            charts += 1
    assert charts >= 5


def test_every_page_has_a_title_description_and_open_graph_tags(golden_site):
    base = Config().base_url
    seen_urls = set()
    for path in html_files(golden_site):
        tree = parse(path)
        meta = {m.get("name") or m.get("property"): m.get("content") for m in find(tree, "meta")}
        title = text_of(find(tree, "title")[0])
        assert title.endswith(" – Trinkwasserdaten") and "{" not in title, path
        assert meta["og:title"] == title.removesuffix(" – Trinkwasserdaten"), path
        assert len(meta["description"]) > 30 and meta["og:description"] == meta["description"]
        assert meta["og:type"] == "website" and meta["og:locale"] == "de_DE", path
        rel = path.relative_to(golden_site).as_posix()
        expected = "/" + rel.removesuffix("index.html") if rel != urls.NOT_FOUND_PAGE else None
        assert meta["og:url"] == base + (expected or "/" + urls.NOT_FOUND_PAGE), path
        seen_urls.add(meta["og:url"])
    assert len(seen_urls) == len(html_files(golden_site))  # shells fill in each page's own


CSS_COLOUR = re.compile(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})")


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_links_and_muted_text_keep_4_5_to_1_on_every_background():
    css = (assets.static_dir() / "site.css").read_text(encoding="utf-8")
    colours = dict(CSS_COLOUR.findall(css))
    backgrounds = [colours["bg"], colours["soft"]] + [
        value for name, value in colours.items() if name.endswith("-bg")
    ]
    # Row tints of the value tables are literal colours in the stylesheet.
    backgrounds += re.findall(r"\.row-\w+ \{ background: (#[0-9a-f]{6})", css)
    assert len(backgrounds) >= 8
    assert contrast("#1479b8", "#f3f6f8") < 4.5  # the old link colour: the check can fail
    for fg in ("accent", "muted", "ink", "ok", "bad", "warn", "none"):
        for bg in backgrounds:
            assert contrast(colours[fg], bg) >= 4.5, f"--{fg} on {bg}"
    assert contrast("#ffffff", colours["accent"]) >= 4.5  # button text


def local_assets(tree) -> list[str]:
    """Return the URLs of everything a page loads (not what it links to)."""
    found = [e.get("href") for e in find(tree, "link") if e.get("rel") in ("stylesheet", "icon")]
    found += [e.get("src") for e in find(tree, "script") + find(tree, "img") if e.get("src")]
    return found


def test_nothing_is_loaded_from_another_host(golden_site):
    for path in html_files(golden_site):
        for ref in local_assets(parse(path)):
            parts = urlsplit(ref)
            assert not parts.scheme and not parts.netloc, f"{path} loads {ref}"
            assert ref.startswith("/static/"), f"{path} loads {ref}"


def test_pages_weigh_at_most_150_kb_with_their_assets(golden_site, sample_build):
    for root in (golden_site, sample_build):
        for path in html_files(root):
            weight = path.stat().st_size
            for ref in local_assets(parse(path)):
                weight += (root / urlsplit(ref).path.lstrip("/")).stat().st_size
            assert weight <= MAX_PAGE_BYTES, f"{path.relative_to(root)} weighs {weight} bytes"


def test_internal_links_and_assets_resolve(golden_site):
    skipped = ("/v1/", "/suche", "mailto:")
    for path in html_files(golden_site):
        tree = parse(path)
        refs = [a.get("href") for a in find(tree, "a") if a.get("href")] + local_assets(tree)
        for ref in refs:
            parts = urlsplit(ref)
            if parts.scheme or parts.netloc or ref.startswith(skipped) or ref.startswith("#"):
                continue
            target = golden_site / urls.file_path_for_url(parts.path)
            assert target.is_file(), f"{path.relative_to(golden_site)} links to missing {ref}"
    # Open API files the downloads page links to are part of the tree.
    for a in find(page(golden_site, "/downloads/"), "a"):
        href = a.get("href") or ""
        if href.startswith("/v1/export/") and "?" not in href:
            assert (golden_site / href.lstrip("/")).is_file(), href


def test_site_rendering_is_deterministic(golden_derived):
    as_of = AS_OF
    d = golden_derived
    first = dict(pages.site_files(d, as_of, Config()))
    second = dict(pages.site_files(d, as_of, Config()))
    assert first == second
    assert all(path.count("/") < 4 for path in first if path.endswith(".html"))


def test_the_national_pieces_made_on_threads_are_those_made_in_turn(golden_derived, monkeypatch):
    """A daily update makes the map, the national feed and the sitemap's dates on threads."""
    monkeypatch.setenv("TRINKWASSER_THREADS", "2")
    d, config = golden_derived, Config()
    begun = pages.begin(d, AS_OF, config, ahead=True)
    ahead = list(pages.site_files(d, AS_OF, config, begun=begun))
    assert ahead == list(pages.site_files(d, AS_OF, config))
    paths = [path for path, _ in ahead]
    assert {"karte/index.html", "feeds/neuigkeiten.atom", "sitemap.xml"} <= set(paths)


def test_the_national_rows_are_all_the_national_pieces_read(golden_derived, monkeypatch):
    """The map, the national feed and the sitemap read `national()`: as from every row."""
    from generator.frames import zone_values
    from generator.site import feeds, maps, seo

    d = golden_derived

    def pieces() -> list[object]:
        return [
            maps.zone_classes(d),
            feeds.national_entries(d, AS_OF),
            seo.zone_dates(d, AS_OF),
            dict(maps.map_pages(d, pages.begin(d, AS_OF, Config()).env)),
            feeds.national_feed(d, AS_OF, Config()),
        ]

    few = pieces()
    national = d.current_values.national().collect()
    assert 0 < national.height < d.current_values.all().height
    # The golden data has every kind of row they read: an exceedance, hardness, the layers.
    classes = few[0]
    assert {"b", "o"} <= set(classes["p"]) and set(classes["h"]) - {"n"}
    assert few[1]["key"].str.starts_with("ueberschreitung-").any()
    monkeypatch.setattr(zone_values, "NATIONAL_ROWS", pl.lit(True))
    assert d.current_values.national().collect().height == d.current_values.all().height
    every = pieces()
    for one, other in zip(few, every, strict=True):
        assert one.equals(other) if isinstance(one, pl.DataFrame) else one == other


# ---------------------------------------------------------------------------- pages


def test_landing_page_search_form_works_without_javascript(golden_site):
    tree = page(golden_site, "/")
    form = find(tree, "form", role="search")[0]
    assert form.get("action") == urls.SEARCH_PATH and form.get("method") == "get"
    field = find(form, "input", name=urls.SEARCH_FIELD)[0]
    # A place is as welcome as a PLZ (no five-digit pattern); without JavaScript the A-Z
    # index of places beside the field finds it.
    assert field.get("pattern") is None and field.get("required") is not None
    assert urls.url("places") in {a.get("href") for a in find(form, "a")}


def test_plz_page_lists_every_zone_with_supplier_share_and_confidence(golden_site):
    tree = page(golden_site, urls.url("plz", plz="76437"))
    cards = [li for li in find(tree, "li") if li.get("class") == "zone-card"]
    names = [text_of(find(card, "h2")[0]) for card in cards]
    # 60 % of the area lies in Mitte, 75 % of the people live in Höhe: Höhe leads.
    assert names == ["Kleinstadt Höhe", "Kleinstadt Mitte"]
    first = text_of(cards[0])
    assert "Wasserwerke Kleinstadt (Testdaten)" in first
    pairs = {
        text_of(find(div, "dt")[0]): text_of(find(div, "dd")[0]) for div in find(cards[0], "div")
    }
    assert pairs["Anteil der Einwohner"] == "75 %"
    assert pairs["Anteil an der PLZ-Fläche"] == "40 %"
    assert pairs["Sicherheit der Zuordnung"] == "hoch (0,9), Grenze nach der Karte des Versorgers"
    lead = [p for p in find(tree, "p") if p.get("class") == "lead"][0]
    assert "Die meisten Einwohner (75 %) leben im Gebiet Kleinstadt Höhe" in text_of(lead)
    links = {a.get("href") for a in find(tree, "a")}
    assert {
        urls.url("zone", zone_id=11),
        urls.url("zone", zone_id=12),
        urls.url("supplier", supplier_id=1),
    } <= links
    notice = [d for d in find(tree, "div") if d.get("class") == "notice"][0]
    assert "Nicht eindeutig" in text_of(notice) and "2 Versorgungsgebieten" in text_of(notice)
    assert [a.get("href") for a in find(notice, "a")] == ["#strassen"]


def test_plz_page_lists_the_streets_of_each_zone(golden_site):
    tree = page(golden_site, urls.url("plz", plz="76437"))
    zones = [d for d in find(tree, "div") if d.get("class") == "street-zone"]
    listed = {
        text_of(find(z, "h3")[0]): [(li.get("data-street"), text_of(li)) for li in find(z, "li")]
        for z in zones
    }
    assert listed == {
        "Kleinstadt Höhe (2 Straßen)": [
            ("am bach", "Am Bach"),
            ("hauptstrasse", "Hauptstraße (60 % der Länge)"),
        ],
        "Kleinstadt Mitte (2 Straßen)": [
            ("hauptstrasse", "Hauptstraße (40 % der Länge)"),
            ("ringstrasse", "Ringstraße"),
        ],
    }
    # The filter needs JavaScript: without it the form stays hidden and the lists remain.
    form = by_id(tree, "street-filter")
    assert form.get("hidden") is not None and form.get("role") == "search"
    label = [lab for lab in find(form, "label") if lab.get("for") == "street-query"]
    assert label and by_id(tree, "street-query").get("type") == "search"
    credits = [text_of(p) for p in find(tree, "p") if p.get("class") == "small"]
    assert any(
        c.startswith("Zuordnung und Straßennamen: ") and "OpenStreetMap" in c for c in credits
    )
    grid = [c for c in credits if c.startswith("Einwohneranteile: ")]
    assert grid == [
        "Einwohneranteile: Statistische Ämter des Bundes und der Länder, Zensus 2022, "
        "Datenlizenz Deutschland – Namensnennung – Version 2.0."
    ]


def test_plz_page_without_population_or_streets_says_nothing_of_them(golden_site):
    tree = page(golden_site, urls.url("plz", plz="04109"))
    html = (golden_site / "plz" / "04109" / "index.html").read_text(encoding="utf-8")
    assert "Anteil der Einwohner" not in html and "Einwohneranteile" not in html
    assert "strassen" not in html and "Straßennamen" not in html
    cards = [li for li in find(tree, "li") if li.get("class") == "zone-card"]
    assert [text_of(find(card, "h2")[0]) for card in cards] == ["Seeland Nord", "Kleinstadt Höhe"]


def test_plz_page_explains_low_confidence(golden_site):
    notice = [
        d for d in find(page(golden_site, "/plz/84503/"), "div") if d.get("class") == "notice"
    ][0]
    assert "unsicher" in text_of(notice)
    assert "5 %" in text_of(notice)  # 95 % covered: the rest has no known zone


COLUMNS = ("Wert", "Grenzwert", "Bewertung", "Quelle")  # after the parameter's <th>


def td(row, column: str):
    return find(row, "td")[COLUMNS.index(column)]


def cell(row, column: str) -> str:
    return text_of(td(row, column))


DOC_2026 = "https://wasser-kleinstadt.example/analyse-2026-1.pdf"


def test_every_value_row_cites_the_document_of_its_value(golden_site):
    """Each document is described once under the table, and every row still names its own."""
    zones = sorted(p for p in (golden_site / "_data/v1/zones").iterdir() if p.is_dir())
    cited = 0
    for folder in zones:
        zone = int(folder.name)
        doc = json.loads((golden_site / routes.file_path("zone", zone_id=zone)).read_bytes())
        tree = page(golden_site, urls.url("zone", zone_id=zone))
        rows = value_rows(tree) if doc["current_values"] else {}
        table = [t for t in find(tree, "table") if t.get("class") == "values"]
        items = find(table[0], "li") if table else []
        assert len({text_of(li) for li in items}) == len(items)  # each document once
        for value in doc["current_values"]:
            row = rows[value["name_de"] or value["parameter"]]
            prov = value["provenance"]
            if prov is None:
                assert cell(row, "Quelle") == "–"
                continue
            ref = find(td(row, "Quelle"), "a")[0].get("href")
            described = by_id(tree, ref.removeprefix("#"))
            assert find(described, "a")[0].get("href") == prov["url"]
            assert text_of(find(described, "a")[0]) == prov["title"]
            edition, retrieved = (
                dt.date.fromisoformat(prov[k]).strftime("%d.%m.%Y")
                for k in ("edition_date", "retrieved_date")
            )
            assert f"Stand {edition}, abgerufen {retrieved}" in text_of(described)
            cited += 1
    assert cited >= 20


def test_zone_page_values_badges_and_provenance(golden_site):
    tree = page(golden_site, urls.url("zone", zone_id=11))
    rows = value_rows(tree)
    assert list(rows)[:4] == ["Summe PFAS-20", "Summe PFAS-4", "Nitrat", "Blei"]
    pfas = rows["Summe PFAS-20"]
    assert cell(pfas, "Wert").startswith("0,14 µg/l")
    assert cell(pfas, "Grenzwert") == "Grenzwert 0,1 µg/l"
    badge = find(pfas, "span", **{"class": "badge bad"})[0]
    # A shape and words, not colour alone; and which value it is above.
    assert text_of(badge) == "✕ Grenzwert überschritten"
    # The row cites its document; the table's foot describes it once.
    source = find(pfas, "a")[-1]
    assert (source.get("href"), cell(pfas, "Quelle")) == ("#quelle-1", "Quelle 1")
    described = by_id(tree, "quelle-1")
    assert find(described, "a")[0].get("href") == DOC_2026
    assert "Stand 30.06.2026, abgerufen 02.07.2026" in text_of(described)
    # Announced stricter limits: PFAS-4 from 2028, lead 2028.
    assert "Ab 12.01.2028: Grenzwert 0,02 µg/l" in cell(rows["Summe PFAS-4"], "Grenzwert")
    lead = td(rows["Blei"], "Bewertung")
    badges = [text_of(b) for b in find(lead, "span") if "badge" in (b.get("class") or "").split()]
    assert badges == ["✓ eingehalten", "✕ Grenzwert überschritten"]
    assert "ab 12.01.2028:" in text_of(lead)
    summary = by_id(tree, "fazit")
    assert text_of(summary) == "✕ 1 Wert über dem Grenzwert"


def test_zone_page_chart_draws_the_limit_as_it_came_into_force(golden_site):
    tree = page(golden_site, urls.url("zone", zone_id=11))
    figure = by_id(tree, "verlauf-pfas_summe_20")
    svg = next(figure.iter(SVG + "svg"))
    title = next(svg.iter(SVG + "title"))
    assert text_of(title) == "Verlauf Summe PFAS-20 in µg/l"
    desc = text_of(next(svg.iter(SVG + "desc")))
    assert "3 Werte vom 10.03.2025 bis 10.03.2026" in desc and "ab 12.01.2026" in desc
    limit = [p for p in svg.iter(SVG + "path") if p.get("class") == "limit"][0]
    start = int(re.match(r"M(\d+),", limit.get("d")).group(1))
    points = [p for p in svg.iter(SVG + "polyline") if p.get("class") == "sv"][0]
    xs = [int(pt.split(",")[0]) for pt in points.get("points").split()]
    assert xs == sorted(xs) and len(xs) == 3
    assert xs[1] < start < xs[2]  # between the 2025-09 and the 2026-03 sample
    table = find(figure, "details")[0]
    cells = [
        [(text_of(td), td.get("colspan")) for td in tr.iter(NS + "td")]
        for tr in table.iter(NS + "tr")
    ][1:]
    # the value in the limit's unit, then as published: one cell across both columns where
    # the two read the same; one sample point: in the caption
    assert cells[0] == [("10.03.2025", None), ("0,08 µg/l", "2")]
    assert text_of(find(table, "caption")[0]).endswith("Messstelle Netz")


def test_zone_page_marks_values_below_the_reporting_limit(golden_site):
    tree = page(golden_site, urls.url("zone", zone_id=21))
    svg = next(by_id(tree, "verlauf-pfas_summe_4").iter(SVG + "svg"))
    kinds = {p.get("class") for p in svg.iter(SVG + "polyline")}
    assert kinds == {"sb"}  # '<0,02' is drawn as a reporting limit, not as a value
    nd = next(by_id(tree, "verlauf-pfas_summe_20").iter(SVG + "svg"))
    assert {p.get("class") for p in nd.iter(SVG + "polyline")} == {"sv", "sn"}  # '< BG'


def test_supplier_page(golden_site):
    tree = page(golden_site, urls.url("supplier", supplier_id=1))
    assert text_of(find(tree, "h1")[0]) == "Wasserwerke Kleinstadt (Testdaten)"
    hrefs = {a.get("href") for a in find(tree, "a")}
    assert {urls.url("zone", zone_id=11), urls.url("zone", zone_id=12)} <= hrefs
    assert "https://wasser-kleinstadt.example/analyse-2025.pdf" in hrefs


def test_parameter_register_and_limits_with_validity(golden_site):
    tree = page(golden_site, urls.url("parameters"))
    rows = find(by_id(tree, "register"), "tbody")[0].findall(NS + "tr")
    assert len(rows) == 282
    assert {r.get("data-group") for r in rows} <= set(text.GROUPS)
    tree = page(golden_site, urls.url("parameter", code="blei"))
    table = find(tree, "table")[0]
    body = [
        [text_of(td) for td in tr.findall(NS + "td")]
        for tr in find(table, "tbody")[0].findall(NS + "tr")
        if tr.get("class") is None
    ]
    assert [r[:4] for r in body] == [
        ["Grenzwert 10 µg/l", "24.06.2023", "11.01.2028", "✓ gilt"],
        ["Grenzwert 5 µg/l", "12.01.2028", "unbefristet", "» angekündigt"],
    ]


def test_access_request_form(golden_site):
    tree = page(golden_site, urls.url("access"))
    form = by_id(tree, "antrag")
    assert form.get("action") == routes.url("access_request") and form.get("method") == "post"
    for name in ("email", "zweck"):
        control = [c for tag in CONTROLS for c in find(form, tag) if c.get("name") == name][0]
        error = by_id(tree, f"{name}-error")
        assert error is not None and f"{name}-error" in control.get("aria-describedby")
    assert by_id(tree, "antrag-status").get("role") == "status"


def test_downloads_page_shows_the_odbl_credit(golden_site):
    tree = page(golden_site, urls.url("downloads"))
    credit = [p for p in find(tree, "p") if p.get("class") == "credit-line"][0]
    assert text_of(credit) == odbl_attribution(Config().operator, Config().license_url)["credit"]
    hrefs = {a.get("href") for a in find(tree, "a")}
    assert {
        "/v1/export/plz-zonen.json",
        "/v1/export/plz-zonen.csv",
        "/v1/export/plz-zonen.parquet",
        "/v1/export/datapackage.json",
        Config().license_url,
    } <= hrefs
    # The sources of the map data credit OSM in German, the data keep OSM's own words.
    page_text = text_of(tree.find(f".//{NS}main"))
    assert "PLZ-Gebiete: © OpenStreetMap-Mitwirkende (ODbL-1.0)" in page_text
    assert "contributors" not in page_text
    mapping = json.loads((golden_site / "v1" / "export" / "datapackage.json").read_text())
    assert "© OpenStreetMap contributors" in json.dumps(mapping, ensure_ascii=False)


def test_api_reference_is_rendered_from_the_openapi_document(golden_site):
    tree = page(golden_site, urls.url("api"))
    spec = json.loads((golden_site / "v1" / "openapi.json").read_text(encoding="utf-8"))
    # Plain HTML: no script but its own small one (a local demo key, tests/test_browser.py).
    scripts = [s.get("src", "") for s in find(tree, "script")]
    assert len(scripts) == 1 and scripts[0].startswith("/static/api.js?v=")
    overview = {
        tuple(text_of(td) for td in tr.findall(NS + "td"))[:2]
        for tr in find(by_id(tree, "operations"), "tbody")[0].findall(NS + "tr")
    }
    assert overview == {(r.method, r.path) for r in routes.ROUTES}
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            section = by_id(tree, f"op-{op['operationId']}")
            assert text_of(find(section, "h3")[0]) == f"{method.upper()} {path}"
            words = text_of(section)
            for p in op.get("parameters", []):
                assert p["name"] in words
            for status in op["responses"]:
                assert any(text_of(dt) == status for dt in find(section, "dt"))
            # Every example of the document is shown, as the document has it.
            shown = [text_of(pre) for pre in find(section, "pre")]
            for response in op["responses"].values():
                for media in response.get("content", {}).values():
                    if "example" in media and not isinstance(media["example"], str):
                        example = json.dumps(media["example"], ensure_ascii=False, indent=2)
                        assert " ".join(example.split()) in shown
    for name, schema in spec["components"]["schemas"].items():
        section = by_id(tree, f"schema-{name}")
        fields = [text_of(find(dt, "code")[0]) for dt in find(section, "dt")]
        # A vocabulary lists its values (test_the_api_reference_explains_each_vocabulary_once).
        assert fields == sorted(schema.get("properties", schema.get("enum", {})))
        for field, about in schema.get("properties", {}).items():
            if about.get("description"):
                dd = next(d for d in find(section, "div") if text_of(find(d, "code")[0]) == field)
                assert text_of(find(dd, "span", lang="en")[0]).startswith(
                    about["description"].replace("`", "")[:40]
                )
    # Every schema a field or response points to has its section.
    for a in find(tree, "a"):
        href = a.get("href") or ""
        if href.startswith("#"):
            assert by_id(tree, href[1:]) is not None, href


def test_api_reference_needs_german_words_for_every_name(golden_site):
    from generator.api import openapi
    from generator.site import api_reference

    document = openapi.document(Config())
    document["paths"]["/v1/lookup"]["get"]["operationId"] = "new_operation"
    with pytest.raises(KeyError, match="new_operation"):
        api_reference.context(document)


def test_api_reference_takes_its_german_words_from_the_route_table(monkeypatch):
    from generator.api import openapi
    from generator.site import api_reference

    document = openapi.document(Config())
    operation = next(o for o in api_reference.operations(document) if o["id"] == "op-zone")
    assert operation["summary"] == routes.route("zone").summary_de
    zone_id = next(p for p in operation["params"] if p["name"] == "zone_id")
    assert zone_id["description"] == routes.route("zone").param("zone_id").description_de
    untranslated = dataclasses.replace(routes.route("zone"), description_de="")
    monkeypatch.setitem(routes.ROUTES_BY_ID, "zone", untranslated)
    with pytest.raises(KeyError, match="operation zone"):
        api_reference.context(document)


def test_license_page_names_both_licenses_beta_and_sources(golden_site):
    body = text_of(find(page(golden_site, urls.url("license")), "main")[0])
    for words in (
        "ODbL",
        "nicht frei lizenziert",
        "Beta",
        "OpenStreetMap",
        "Trinkwasserverordnung",
        Config().contact,
    ):
        assert words in body


def test_not_found_page_helps_with_the_plz(golden_site):
    tree = parse(golden_site / urls.NOT_FOUND_PAGE)
    assert "fünf Ziffern" in text_of(find(tree, "main")[0])
    assert find(tree, "form", role="search")


# ---------------------------------------------------------------------------- units


def test_urls_and_files_are_one_mapping():
    assert urls.url("plz", plz="76437") == "/plz/76437/"
    assert urls.file_path("plz", plz="76437") == "plz/76437/index.html"
    assert urls.file_path("zone", zone_id=101) == "gebiete/101/index.html"
    assert urls.file_path("home") == "index.html"
    assert urls.file_path("not_found") == urls.NOT_FOUND_PAGE
    assert urls.file_path_for_url("/parameter/blei/") == "parameter/blei/index.html"
    for page_name, template in urls.PAGES.items():
        values = {name: "x" for name in re.findall(r"\{(\w+)\}", template)}
        assert urls.file_path_for_url(urls.url(page_name, **values)) == urls.file_path(
            page_name, **values
        )


def test_the_search_without_javascript_leads_to_a_plz_a_place_or_the_index():
    from generator.api import site_rules

    index = json.dumps(
        {
            "plz": ["04109", "50667", "50668"],
            "orte": [
                ["Köln", [1, 2], "/orte/k/#ort-koln"],
                ["Leipzig", [0], "/orte/l/#ort-leipzig"],
                ["Ölbronn-Dürrn", [], "/orte/o/#ort-olbronn-durrn"],
            ],
        }
    ).encode()
    places = site_rules.search_document(index)["places"]
    target = functools.partial(site_rules.search_target, places=places)
    for typed in ("Köln", "koeln", "KÖLN", "Koln", " köln ", "KOELN"):
        assert target(typed) == "/orte/k/#ort-koln", typed  # several PLZ: its entry
    assert target("leipzig") == target("LEIPZIG") == "/plz/04109/"  # one PLZ: its page
    assert target("Oelbronn Duerrn") == target("ölbronn-dürrn") == "/orte/o/#ort-olbronn-durrn"
    assert target("76437") == target(" 76437 ") == target("76437 Rastatt") == "/plz/76437/"
    assert target("4103") == "/plz/04103/"  # written without its leading zero
    assert target("123") == "/plz/123/"  # the page that explains a malformed PLZ
    for unknown in ("", "   ", "Atlantis", "../x", "<script>", "köln x"):
        assert target(unknown) == "/orte/", unknown
    # Netlify runs the edge function for the path; no redirect rule of its own.
    netlify = tomllib.loads((Path(__file__).parents[1] / "netlify.toml").read_text("utf-8"))
    assert "redirects" not in netlify
    assert {"function": "search", "path": urls.SEARCH_PATH} in netlify["edge_functions"]


def test_every_state_has_a_german_badge_with_a_shape():
    assert set(text.BADGES) == set(resources.STATES)
    assert len({b.icon for b in text.BADGES.values() if b.tone in ("ok", "bad")}) >= 3


def test_own_stylesheet_is_minified_but_keeps_every_rule():
    source = (assets.static_dir() / "site.css").read_text(encoding="utf-8")
    small = static_assets.minify_css(source)
    assert "/*" not in small and len(small) < len(source)
    assert small.count("{") == small.count("}") == source.count("{")
    assert 'content:" · "' in small and "@media (max-width:44rem){" in small


def test_access_form_takes_its_limits_from_the_route_table(golden_site):
    """The form asks what the gates check: lengths, required fields, the example."""
    request = routes.route("access_request")
    tree = page(golden_site, urls.url("access"))
    form = by_id(tree, "antrag")
    assert form.get("action") == routes.url("access_request")
    assert form.get("method") == request.method.lower()
    for param in request.params:
        field = by_id(tree, param.name)
        assert field.get("name") == param.name
        assert field.get("minlength") == (
            None if param.min_length is None else str(param.min_length)
        )
        assert field.get("maxlength") == (
            None if param.max_length is None else str(param.max_length)
        )
        assert (field.get("required") is not None) == param.required
    zweck = request.param("zweck")
    assert zweck.min_length == 10 and zweck.max_length == 1000
    hint = text_of(by_id(tree, "zweck-hint"))
    assert f"Mindestens {zweck.min_length}, höchstens {zweck.max_length} Zeichen" in hint
    assert str(zweck.example) in hint


def test_the_api_reference_explains_each_vocabulary_once(golden_site):
    """`State` is a table of its own; the fields of that type link to it and repeat nothing."""
    tree = page(golden_site, urls.url("api"))
    for name, (_, vocabulary) in resources.ENUMS.items():
        section = by_id(tree, f"schema-{name}")
        assert section is not None, name
        terms = [text_of(dt) for dt in find(section, "dt")]
        assert terms == sorted(vocabulary), name
    html = (golden_site / urls.file_path("api")).read_text(encoding="utf-8")
    meaning = resources.STATES["exceeds_indicator"].split(" (")[0]
    assert html.count(meaning) == 1
    current = by_id(tree, "schema-CurrentValue")
    links = {
        text_of(dt).split()[0]: [a.get("href") for a in find(dt, "a")] for dt in find(current, "dt")
    }
    assert links["state"] == ["#schema-State"] and links["future_state"] == ["#schema-State"]


def _footer(html: str) -> str:
    (line,) = re.findall(r"<p>(Bewertet am [^<]*?) · Beta-Version", html)
    return line


def test_footer_names_the_build_date_and_the_newest_publication(sample_build):
    """The newest edition of the documents the page's values cite, published by the build date.

    A zone's page its own, a PLZ page its zones', a supplier's page its documents'; the pages
    about the data as a whole the newest of all; pages without published values none.
    """
    from generator.load import sample_data_dir

    docs = pl.read_csv(sample_data_dir() / "documents.csv", infer_schema=False)
    cited = pl.read_csv(sample_data_dir() / "measurements.csv", infer_schema=False)
    published = docs.filter(pl.col("edition_date") <= AS_OF.isoformat())

    def newest(zones: list[int]) -> str:
        ids = cited.filter(pl.col("zone_id").cast(pl.Int64).is_in(zones))["document_id"]
        day = published.filter(pl.col("document_id").is_in(ids.implode()))["edition_date"].max()
        assert isinstance(day, str)
        return dt.date.fromisoformat(day).strftime("%d.%m.%Y")

    every = cited["zone_id"].cast(pl.Int64).unique().to_list()
    assert newest(every) == "12.10.2026"
    said = "Bewertet am 23.11.2026 · neueste Veröffentlichung "
    for rel in ("index.html", "karte/index.html", "downloads/index.html"):
        assert _footer((sample_build / rel).read_text(encoding="utf-8")) == said + "12.10.2026"
    assert _footer((sample_build / "gebiete/201/index.html").read_text()) == said + newest([201])
    plz = json.loads((sample_build / "_data/v1/lookup/04109.json").read_text())
    zones = [z["zone_id"] for z in plz["zones"]]
    assert _footer((sample_build / "plz/04109/index.html").read_text()) == said + newest(zones)
    supplier = published.filter(pl.col("supplier_id") == "1")["edition_date"].max()
    assert isinstance(supplier, str)
    day = dt.date.fromisoformat(supplier).strftime("%d.%m.%Y")
    assert _footer((sample_build / "versorger/1/index.html").read_text()) == said + day
    for rel in ("api/index.html", "404.html", "orte/index.html", "parameter/nitrat/index.html"):
        assert _footer((sample_build / rel).read_text()) == "Bewertet am 23.11.2026", rel
