"""The open datasets described for open-data portals: DCAT-AP.de (Turtle) and schema.org.

GovData harvests DCAT-AP.de catalogues; Google Dataset Search reads schema.org `Dataset`
markup. Both describe the same three open datasets of the tree: the PLZ-to-zone mapping
(JSON, CSV, Parquet and its Frictionless description), the street table, and the parameter
register. Measured values are not open (see `/lizenz/`) and are not in the catalogue.

Every date comes from the data (the mapping's source dates, the register's validity
periods), never from the clock. The Turtle is written here, not through an RDF library, so
the build needs none; the tests parse it with rdflib.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from generator import __version__
from generator.api import routes
from generator.api.license_resources import odbl_attribution
from generator.config import Config
from generator.contract import provenance
from generator.derive import Derived
from generator.site import urls as site_urls

LICENSES = "http://dcat-ap.de/def/licenses/"
"""The DCAT-AP.de licence vocabulary: a licence's IRI is this and its identifier."""
ODBL = "odbl"
"""The licence of the datasets derived from OpenStreetMap (its share-alike, ODbL 4.4)."""
LICENSE_PAGES = {
    "odbl": "https://opendatacommons.org/licenses/odbl/1-0/",
    "odby": "https://opendatacommons.org/licenses/by/1-0/",
    "odcpddl": "https://opendatacommons.org/licenses/pddl/1-0/",
    "cc-zero": "https://creativecommons.org/publicdomain/zero/1.0/",
    "cc-by/4.0": "https://creativecommons.org/licenses/by/4.0/",
    "cc-by-sa/4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
    "dl-zero-de/2.0": "https://www.govdata.de/dl-de/zero-2-0",
    "dl-by-de/2.0": "https://www.govdata.de/dl-de/by-2-0",
}
"""The licence texts (schema.org `license`) of the licences `register_license` may name."""
FILE_TYPES = {
    "json": ("http://publications.europa.eu/resource/authority/file-type/JSON", "application/json"),
    "csv": ("http://publications.europa.eu/resource/authority/file-type/CSV", "text/csv"),
    "parquet": (
        "http://publications.europa.eu/resource/authority/file-type/PARQUET",
        "application/vnd.apache.parquet",
    ),
}
THEME = "http://publications.europa.eu/resource/authority/data-theme/"
GERMANY = "http://publications.europa.eu/resource/authority/country/DEU"
GERMAN = "http://publications.europa.eu/resource/authority/language/DEU"
FEDERAL = "http://dcat-ap.de/def/politicalGeocoding/Level/federal"
REGISTER_RIGHTS = (
    "Zusammenstellung des Betreibers. Werte, Namen und Anlagen stammen aus der "
    "Trinkwasserverordnung 2023, einem amtlichen Werk ohne urheberrechtlichen Schutz "
    "(§ 5 Abs. 1 UrhG); die Lizenz gilt für die Zusammenstellung."
)

PREFIXES = {
    "dcat": "http://www.w3.org/ns/dcat#",
    "dct": "http://purl.org/dc/terms/",
    "dcatde": "http://dcat-ap.de/def/dcatde/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "vcard": "http://www.w3.org/2006/vcard/ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}


@dataclass(frozen=True)
class Distribution:
    key: str
    title: str
    path: str
    """Build path of the file (its URL is `/` + path)."""
    fmt: str
    api_url: str | None = None
    """The route that answers the same file, if any."""


@dataclass(frozen=True)
class Dataset:
    key: str
    title: str
    description: str
    keywords: tuple[str, ...]
    themes: tuple[str, ...]
    license: str
    attribution: str | None
    distributions: tuple[Distribution, ...]
    start: dt.date | None
    end: dt.date | None
    modified: dt.date | None
    rights: str | None = None


def _day(value: object) -> dt.date | None:
    return value if isinstance(value, dt.date) else None


def _source_dates(d: Derived) -> list[dt.date]:
    return sorted(dt.date.fromisoformat(s.date[:10]) for s in d.sources if s.date)


def datasets(d: Derived, config: Config, as_of: dt.date) -> list[Dataset]:
    """Return the open datasets of the tree, with their dates from the data."""
    mapped = _source_dates(d)
    credit = odbl_attribution(config.operator, config.license_url)["credit"]
    zensus = any(s.license == provenance.ZENSUS_LICENSE for s in d.sources)
    credits = credit + (
        "; Einwohneranteile: Zensus 2022, Statistische Ämter des Bundes und der Länder "
        "(dl-de/by-2-0)"
        if zensus
        else ""
    )
    limits = d.limits["valid_from"]
    until = d.limits["valid_until"].drop_nulls()
    first = _day(limits.min())
    ends = [v for v in (_day(limits.max()), _day(until.max())) if v is not None]
    register_end = max(ends) if ends else None
    return [
        Dataset(
            "plz-zonen",
            "Zuordnung Postleitzahl zu Trinkwasser-Versorgungsgebiet",
            f"Alle {d.export.height} Paare aus Postleitzahl und Versorgungsgebiet in "
            "Deutschland mit Wasserversorger, Flächenanteil, Einwohneranteil und "
            "Zuverlässigkeit der Zuordnung. Abgeleitet aus OpenStreetMap-Daten; enthält "
            "keine Messwerte.",
            ("Trinkwasser", "Postleitzahl", "Versorgungsgebiet", "Wasserversorger"),
            ("HEAL", "REGI"),
            ODBL,
            credits,
            (
                Distribution(
                    "json",
                    "PLZ-Versorgungsgebiete als JSON",
                    routes.file_path("export", format="json"),
                    "json",
                    routes.url("export", format="json"),
                ),
                Distribution(
                    "csv",
                    "PLZ-Versorgungsgebiete als CSV",
                    routes.file_path("export", format="csv"),
                    "csv",
                    routes.url("export", format="csv"),
                ),
                Distribution(
                    "parquet",
                    "PLZ-Versorgungsgebiete als Parquet",
                    routes.open_file("export_parquet"),
                    "parquet",
                ),
                Distribution(
                    "datapackage",
                    "Beschreibung als Frictionless Data Package (Schema, Prüfsummen)",
                    routes.open_file("datapackage"),
                    "json",
                ),
            ),
            mapped[0] if mapped else None,
            mapped[-1] if mapped else None,
            mapped[-1] if mapped else None,
        ),
        Dataset(
            "strassen",
            "Straßen der Postleitzahlen mit mehreren Versorgungsgebieten",
            f"{d.streets.height} Zeilen: für jede Postleitzahl, die von mehreren "
            "Versorgungsgebieten beliefert wird, in welchem Gebiet jede benannte Straße "
            "liegt, mit dem Anteil ihrer Länge. Straßennamen aus OpenStreetMap.",
            ("Trinkwasser", "Postleitzahl", "Straße", "Versorgungsgebiet"),
            ("HEAL", "REGI"),
            ODBL,
            credit,
            (
                Distribution(
                    "csv", "Straßentabelle als CSV", routes.open_file("export_streets"), "csv"
                ),
            ),
            mapped[0] if mapped else None,
            mapped[-1] if mapped else None,
            mapped[-1] if mapped else None,
        ),
        Dataset(
            "stoffregister",
            "Stoffregister der Trinkwasserverordnung",
            f"Die {d.parameters.height} Parameter mit Anlage der Trinkwasserverordnung 2023, "
            "Einheit, CAS-Nummer und Gruppe; die Grenzwerte mit ihren Geltungszeiträumen "
            "stehen auf der Website bei jedem Stoff.",
            ("Trinkwasser", "Trinkwasserverordnung", "Grenzwert", "Parameter"),
            ("HEAL", "GOVE"),
            config.register_license,
            None,
            (
                Distribution(
                    "json",
                    "Stoffregister als JSON",
                    routes.file_path("parameters"),
                    "json",
                    routes.url("parameters"),
                ),
            ),
            first,
            register_end,
            # The register as published changes when a limit comes into force.
            _day(limits.filter(limits <= as_of).max()),
            REGISTER_RIGHTS,
        ),
    ]


# ---------------------------------------------------------------------------- Turtle


def _lit(text: str) -> str:
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )
    return f'"{escaped}"'


def _iri(iri: str) -> str:
    for bad in '<>"{}|^`\\ ':
        if bad in iri:
            raise ValueError(f"not an IRI for Turtle: {iri!r}")
    return f"<{iri}>"


def _date(day: dt.date) -> str:
    return f'"{day.isoformat()}"^^xsd:date'


def _block(subject: str, pairs: list[tuple[str, str]]) -> str:
    body = " ;\n".join(f"    {p} {o}" for p, o in pairs)
    return f"{subject}\n{body} .\n"


def publisher(config: Config) -> str:
    """Return who publishes the open datasets: the `publisher` setting, else the operator."""
    return config.publisher or config.operator


def govdata_gaps(config: Config) -> list[str]:
    """Return what the settings leave out of the catalogue that GovData requires.

    GovData harvests a dataset only with the contributor ID it assigned the operator
    (DCAT-AP.de conventions K12/K13), and its conventions want `dct:issued` on a dataset;
    without them the catalogue is valid DCAT-AP but not harvested.
    """
    gaps = []
    if not config.contributor_id:
        gaps.append("contributor_id (dcatde:contributorID, assigned by GovData)")
    if not config.published_since:
        gaps.append("published_since (dct:issued, the day the datasets were first published)")
    return gaps


def govdata_warning(config: Config) -> str | None:
    """Return the warning a build of the operator's data prints when GovData would refuse."""
    gaps = govdata_gaps(config)
    if not gaps:
        return None
    return (
        "warning: the catalogue (v1/export/katalog.ttl) lacks what GovData requires to "
        "harvest it: set " + " and ".join(gaps) + " in the [site] table of the settings "
        "(README.md, section Using it). Ignore this if the catalogue is not delivered to GovData."
    )


def _agent(config: Config) -> str:
    return (
        "[ a foaf:Organization, foaf:Agent ; foaf:name "
        + _lit(publisher(config))
        + " ; foaf:mbox "
        + _iri(f"mailto:{config.contact}")
        + " ]"
    )


def _rights(text: str) -> str:
    return f"[ a dct:RightsStatement ; rdfs:label {_lit(text)}@de ]"


def _contact(config: Config) -> str:
    return (
        "[ a vcard:Organization, vcard:Kind ; vcard:fn "
        + _lit(config.operator)
        + " ; vcard:hasEmail "
        + _iri(f"mailto:{config.contact}")
        + " ]"
    )


def _ranges(typed: dict[str, str]) -> str:
    """Return the class of each resource the catalogue links to, as DCAT-AP 3 states it.

    SEMIC's DCAT-AP 3.0.0 shapes check each link's range with `sh:class`, which a validator
    without RDFS reasoning and without the vocabularies decides from the catalogue's own
    triples only; stating the class keeps the catalogue valid wherever it is checked. Two
    kinds of link are left out. The data themes are concepts of the EU vocabulary, which a
    validator loads (GovData's does) and which gives them their labels. The licences are not
    typed `dct:LicenseDocument`: GovData's validator loads the DCAT-AP.de licence list, whose
    entries give `dct:type` as a literal, so typing them would subject the list's own entries
    to DCAT-AP's licence shape; GovData's shapes deactivate that range check instead
    (docs/api.md, Catalogue).
    """
    return "".join(f"{_iri(iri)} a {cls} .\n" for iri, cls in sorted(typed.items()))


def catalog_url(config: Config) -> str:
    return config.base_url + routes.file_url(routes.open_file("catalog"))


def turtle(d: Derived, config: Config, as_of: dt.date) -> bytes:
    """Return the DCAT-AP.de catalogue of the open datasets, as Turtle."""
    base = config.base_url
    homepage = base + site_urls.url("downloads")
    sets = datasets(d, config, as_of)
    issued = dt.date.fromisoformat(config.published_since) if config.published_since else None
    blocks = ["".join(f"@prefix {p}: <{iri}> .\n" for p, iri in PREFIXES.items())]
    modified = [s.modified for s in sets if s.modified]
    typed = {
        base + site_urls.url("home"): "foaf:Document",
        homepage: "foaf:Document",
        GERMAN: "dct:LinguisticSystem",
        GERMANY: "dct:Location",
    }
    catalog: list[tuple[str, str]] = [
        ("a", "dcat:Catalog"),
        ("dct:title", _lit("Trinkwasserdaten: offene Daten") + "@de"),
        (
            "dct:description",
            _lit(
                "Offene Datensätze von Trinkwasserdaten: die Zuordnung der Postleitzahlen zu "
                "Trinkwasser-Versorgungsgebieten, die Straßen geteilter Postleitzahlen und das "
                "Stoffregister der Trinkwasserverordnung."
            )
            + "@de",
        ),
        ("dct:publisher", _agent(config)),
        ("foaf:homepage", _iri(base + site_urls.url("home"))),
        ("dct:language", _iri(GERMAN)),
        ("dct:spatial", _iri(GERMANY)),
    ]
    if issued is not None:
        catalog.append(("dct:issued", _date(issued)))
    if modified:
        catalog.append(("dct:modified", _date(max(modified))))
    catalog.append(("dcat:dataset", ", ".join(_iri(f"{homepage}#{s.key}") for s in sets)))
    blocks.append(_block(_iri(catalog_url(config)), catalog))
    for s in sets:
        pairs: list[tuple[str, str]] = [
            ("a", "dcat:Dataset"),
            ("dct:title", _lit(s.title) + "@de"),
            ("dct:description", _lit(s.description) + "@de"),
            ("dct:identifier", _lit(f"{homepage}#{s.key}")),
            ("dct:publisher", _agent(config)),
            ("dcat:contactPoint", _contact(config)),
            ("dcat:landingPage", _iri(homepage)),
            ("dcat:keyword", ", ".join(_lit(k) + "@de" for k in s.keywords)),
            ("dcat:theme", ", ".join(_iri(THEME + t) for t in s.themes)),
            ("dct:spatial", _iri(GERMANY)),
            ("dcatde:politicalGeocodingLevelURI", _iri(FEDERAL)),
            ("dct:language", _iri(GERMAN)),
            ("dct:license", _iri(LICENSES + s.license)),
            ("dcat:version", _lit(__version__)),
        ]
        if config.contributor_id:
            pairs.append(("dcatde:contributorID", _iri(config.contributor_id)))
        if issued is not None:
            pairs.append(("dct:issued", _date(issued)))
        if s.start is not None:
            period = "[ a dct:PeriodOfTime ; dcat:startDate " + _date(s.start)
            if s.end is not None and s.end != s.start:
                period += " ; dcat:endDate " + _date(s.end)
            pairs.append(("dct:temporal", period + " ]"))
        if s.modified is not None:
            pairs.append(("dct:modified", _date(s.modified)))
        pairs.append(
            (
                "dcat:distribution",
                ", ".join(_iri(f"{homepage}#{s.key}-{x.key}") for x in s.distributions),
            )
        )
        blocks.append(_block(_iri(f"{homepage}#{s.key}"), pairs))
        for x in s.distributions:
            file_type, media = FILE_TYPES[x.fmt]
            url = base + routes.file_url(x.path)
            media_type = f"https://www.iana.org/assignments/media-types/{media}"
            access = base + x.api_url if x.api_url else url
            typed.update(
                {
                    access: "rdfs:Resource",
                    url: "rdfs:Resource",
                    file_type: "dct:MediaTypeOrExtent",
                    media_type: "dct:MediaType",
                }
            )
            dist: list[tuple[str, str]] = [
                ("a", "dcat:Distribution"),
                ("dct:title", _lit(x.title) + "@de"),
                ("dcat:accessURL", _iri(access)),
                ("dcat:downloadURL", _iri(url)),
                ("dct:format", _iri(file_type)),
                ("dcat:mediaType", _iri(media_type)),
                ("dct:license", _iri(LICENSES + s.license)),
            ]
            if s.attribution:
                dist.append(("dcatde:licenseAttributionByText", _lit(s.attribution) + "@de"))
            if s.rights:
                dist.append(("dct:rights", _rights(s.rights)))
            if s.modified is not None:
                dist.append(("dct:modified", _date(s.modified)))
            blocks.append(_block(_iri(f"{homepage}#{s.key}-{x.key}"), dist))
    blocks.append(_ranges(typed))
    return "\n".join(blocks).encode()


# ---------------------------------------------------------------------------- schema.org


def schema_org(d: Derived, config: Config, as_of: dt.date) -> list[dict[str, Any]]:
    """Return schema.org `Dataset` objects for the downloads page (Google Dataset Search)."""
    base = config.base_url
    homepage = base + site_urls.url("downloads")
    license_urls = {**LICENSE_PAGES, ODBL: config.license_url}
    out = []
    for s in datasets(d, config, as_of):
        item: dict[str, Any] = {
            "@context": "https://schema.org",
            "@type": "Dataset",
            "@id": f"{homepage}#{s.key}",
            "name": s.title,
            "description": s.description,
            "url": homepage,
            "keywords": list(s.keywords),
            "inLanguage": "de",
            "isAccessibleForFree": True,
            "license": license_urls[s.license],
            "creator": {"@type": "Organization", "name": config.operator, "email": config.contact},
            "publisher": {
                "@type": "Organization",
                "name": publisher(config),
                "email": config.contact,
            },
            "spatialCoverage": {"@type": "Country", "name": "Deutschland"},
            "includedInDataCatalog": {
                "@type": "DataCatalog",
                "name": "Trinkwasserdaten: offene Daten",
                "url": catalog_url(config),
            },
            "distribution": [
                {
                    "@type": "DataDownload",
                    "name": x.title,
                    "encodingFormat": FILE_TYPES[x.fmt][1],
                    "contentUrl": base + routes.file_url(x.path),
                }
                for x in s.distributions
            ],
        }
        if s.start is not None:
            item["temporalCoverage"] = s.start.isoformat() + (
                f"/{s.end.isoformat()}" if s.end is not None and s.end != s.start else "/.."
            )
        if s.modified is not None:
            item["dateModified"] = s.modified.isoformat()
        if s.attribution:
            item["creditText"] = s.attribution
        out.append(item)
    return out
