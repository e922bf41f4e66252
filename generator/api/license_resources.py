"""The license documents of the mapping: the ODbL attribution, its duties and map sources.

Declared apart from `resources` (which re-exports them) because every copy of the mapping
carries them: lookups, zones, the export and the data package.
"""

from __future__ import annotations

from typing import Any

from generator.api import odbl
from generator.api.fields import Resource, many, string, uri

OBLIGATION = Resource(
    "Obligation",
    "A duty the ODbL places on whoever republishes the mapping, in the license's words.",
    (
        string("section", "Section of the ODbL.", "4.4"),
        string("title", "Title of the section.", "Share alike"),
        string(
            "text",
            "The license's words, shortened only where marked with '…'.",
            "Any Derivative Database that You Publicly Use must be only under the terms of: "
            "i. This License; …",
        ),
    ),
)

ATTRIBUTION_SOURCE = Resource(
    "AttributionSource",
    "Map data the PLZ mapping was computed from, with the credit its license asks for.",
    (
        string("title", "What the data is.", "Bevölkerungsgitter, Zensus 2022"),
        string(
            "credit",
            "The credit to show where data from it is used.",
            "Statistische Ämter des Bundes und der Länder, Zensus 2022",
        ),
        string("license", "Its license.", "dl-de/by-2-0"),
        uri("license_url", "Text of the license.", "https://www.govdata.de/dl-de/by-2-0"),
        string(
            "date",
            "When the data is from: an OpenStreetMap extract's timestamp, else the date of the "
            "file the mapping read; null when the mapping's provenance is not known.",
            None,
            nullable=True,
        ),
        string("edition", "Edition of the population grid.", "Zensus 2022", nullable=True),
    ),
)

ATTRIBUTION = Resource(
    "Attribution",
    "The ODbL credit that travels with every representation of the PLZ mapping.",
    (
        string("license", "SPDX identifier of the license.", "ODbL-1.0"),
        string(
            "license_name",
            "Name of the license.",
            "Open Data Commons Open Database License (ODbL) 1.0",
        ),
        uri(
            "license_url", "Text of the license.", "https://opendatacommons.org/licenses/odbl/1-0/"
        ),
        string(
            "credit",
            "The credit line to show wherever the mapping is used.",
            "© Trinkwasserdaten, Kartendaten © OpenStreetMap-Mitwirkende (ODbL)",
        ),
        string("operator", "Who publishes this API.", "Trinkwasserdaten"),
        string(
            "source",
            "Where the mapping comes from.",
            "OpenStreetMap contributors, https://www.openstreetmap.org/copyright",
        ),
        many(
            "obligations",
            "Obligation",
            "Share-alike and keep-open duties of the ODbL (sections 4.4, 4.6, 4.7).",
        ),
        many(
            "sources",
            "AttributionSource",
            "The map data the mapping was computed from, each with its credit: the PLZ areas, "
            "the street names (OpenStreetMap, ODbL) and the population grid (Zensus 2022, "
            "dl-de/by-2-0) where used. Show a source's credit where its data is shown "
            "(`population_share`: the grid's).",
        ),
    ),
)


def odbl_attribution(operator: str, license_url: str) -> dict[str, Any]:
    """Return the ODbL credit of `ATTRIBUTION` for an operator (without its map `sources`).

    It travels with every representation of the PLZ mapping; `license_url` is the
    operator's configured copy of the license text.
    """
    return {
        "obligations": [o.as_json() for o in odbl.OBLIGATIONS],
        "license": "ODbL-1.0",
        "license_name": "Open Data Commons Open Database License (ODbL) 1.0",
        "license_url": license_url,
        "credit": f"© {operator}, Kartendaten © OpenStreetMap-Mitwirkende (ODbL)",
        "operator": operator,
        "source": "OpenStreetMap contributors, https://www.openstreetmap.org/copyright",
    }
