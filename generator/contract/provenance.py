"""The mapping's provenance in a data directory: `mapping.json`, as `trinkwasser mapping` writes it.

The build carries its `sources` (what map data the mapping was computed from, each with its
credit and license) and the facts of their `inputs` (file, date, digest, the grid's edition,
the extract's timestamp) into the export's attribution and `datapackage.json`. The file is
optional: a `plz_zones` table made by hand has none, and the build then credits the map
data the contract names (`default_sources`). A file that is there is checked like a table;
each problem names the key.

The credits are declared here, the one module both the mapping (which writes them) and the
build (which reads them) import.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from generator.api.patterns import URL_PATTERN
from generator.contract import rules
from generator.contract.problems import Problems

FILE = "mapping.json"
TABLE = "mapping.json"
"""What problems name as their table."""

OSM_CREDIT = "© OpenStreetMap contributors"
OSM_LICENSE = "ODbL-1.0"
OSM_LICENSE_URL = "https://opendatacommons.org/licenses/odbl/1-0/"
OSM_COPYRIGHT = "https://www.openstreetmap.org/copyright"
ZENSUS_CREDIT = "Statistische Ämter des Bundes und der Länder, Zensus 2022"
ZENSUS_LICENSE = "dl-de/by-2-0"
ZENSUS_LICENSE_URL = "https://www.govdata.de/dl-de/by-2-0"

PLZ_AREAS_TITLE = "PLZ-Gebiete"
STREETS_TITLE = "Straßennamen"
GRID_TITLE = "Bevölkerungsgitter"

ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$")
_OLD_SPELLING = {"licence": "license", "licence_url": "license_url"}
"""Keys as `mapping.json` files written before one spelling of "license" name them."""
_TEXT_KEYS = ("title", "file", "credit", "license", "license_url", "timestamp", "input")


@dataclass(frozen=True)
class MapSource:
    """One input of the mapping as the build credits it."""

    title: str
    credit: str | None = None
    """The credit its license asks for; None where the operator knows the terms."""
    license: str | None = None
    license_url: str | None = None
    file: str | None = None
    date: str | None = None
    """When the data is from: the extract's timestamp, else the file's modification date."""
    edition: str | None = None
    """The population grid's edition."""
    sha256: str | None = None

    def attribution(self) -> dict[str, str | None]:
        """Return the members of an `AttributionSource` (generator/api/resources.py)."""
        return {
            "title": self.title,
            "credit": self.credit,
            "license": self.license,
            "license_url": self.license_url,
            "date": self.date,
            "edition": self.edition,
        }

    def datapackage(self) -> dict[str, str]:
        """Return a Frictionless `sources` entry: title and path, and the facts known of it."""
        entry = {"title": f"{self.title}: {self.credit}" if self.credit else self.title}
        if self.license == OSM_LICENSE:
            entry["path"] = OSM_COPYRIGHT
        for key, value in (
            ("license", self.license),
            ("license_url", self.license_url),
            ("file", self.file),
            ("date", self.date),
            ("edition", self.edition),
            ("sha256", self.sha256),
        ):
            if value is not None:
                entry[key] = value
        return entry


@dataclass(frozen=True)
class MappingProvenance:
    """What the build reads of `mapping.json`."""

    tool: str | None
    sources: tuple[MapSource, ...]


def plz_areas_source() -> MapSource:
    return MapSource(PLZ_AREAS_TITLE, OSM_CREDIT, OSM_LICENSE, OSM_LICENSE_URL)


def streets_source() -> MapSource:
    return MapSource(STREETS_TITLE, OSM_CREDIT, OSM_LICENSE, OSM_LICENSE_URL)


def grid_source(edition: str = "Zensus 2022") -> MapSource:
    return MapSource(
        f"{GRID_TITLE}, {edition}",
        ZENSUS_CREDIT,
        ZENSUS_LICENSE,
        ZENSUS_LICENSE_URL,
        edition=edition,
    )


def map_sources(
    mapping: MappingProvenance | None, plz_zones: pl.DataFrame, streets: pl.DataFrame
) -> tuple[MapSource, ...]:
    """Return the map data a data directory's mapping was computed from, with credits.

    From `mapping.json` where the data directory has it; otherwise what the contract says
    the tables come from. The census grid and the street names are credited wherever the
    tables hold population shares or streets.
    """
    population = bool(plz_zones["population_share"].is_not_null().any())
    has_streets = streets.height > 0
    if mapping is None:
        return default_sources(population, has_streets)
    return completed(mapping.sources, population, has_streets)


def default_sources(population: bool, streets: bool) -> tuple[MapSource, ...]:
    """Return a mapping's credits without `mapping.json`: what the contract says it is from.

    The PLZ areas are OpenStreetMap data (the contract's `plz_zones`); population shares
    come from the Zensus grid and street names from OpenStreetMap, each credited only when
    the tables hold any.
    """
    out = [plz_areas_source()]
    if streets:
        out.append(streets_source())
    if population:
        out.append(grid_source())
    return tuple(out)


def completed(
    sources: tuple[MapSource, ...], population: bool, streets: bool
) -> tuple[MapSource, ...]:
    """Add the credit of the grid or the street names where the tables use data none names.

    A `plz_zones` table with population shares from a run whose `mapping.json` names no grid
    (edited by hand, or from another run) still credits the Zensus, as the contract defines
    the column; likewise street names and OpenStreetMap.
    """
    out = list(sources)
    if population and not any(s.license == ZENSUS_LICENSE for s in out):
        out.append(grid_source())
    if streets and not any(s.title == STREETS_TITLE for s in out):
        out.append(streets_source())
    return tuple(out)


def read(data_dir: Path, problems: Problems) -> MappingProvenance | None:
    """Read and check `mapping.json` of a data directory; None when there is none (or bad)."""
    path = Path(data_dir) / FILE
    if not path.is_file():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        problems.add(TABLE, rules.INVALID_PROVENANCE, f"{FILE} is not UTF-8 JSON: {exc}")
        return None
    if not isinstance(raw, dict):
        problems.add(TABLE, rules.INVALID_PROVENANCE, f"{FILE} must hold a JSON object")
        return None
    bad: list[tuple[str, str]] = []
    inputs = raw.get("inputs", {})
    if not isinstance(inputs, dict) or not all(isinstance(v, dict) for v in inputs.values()):
        bad.append(("inputs", "must be an object of objects, one per input file"))
        inputs = {}
    listed = raw.get("sources")
    if not isinstance(listed, list):
        bad.append(("sources", "must be a list of objects with a title"))
        listed = []
    sources = []
    for i, entry in enumerate(listed):
        where = f"sources[{i}]"
        source = _source(entry, inputs, where, bad)
        if source is not None:
            sources.append(source)
    tool = raw.get("tool")
    if tool is not None and not isinstance(tool, str):
        bad.append(("tool", "must be text"))
    for key, message in bad:
        problems.add(TABLE, rules.INVALID_PROVENANCE, f"{FILE}: {key} {message}", column=key)
    if bad:
        return None
    return MappingProvenance(tool if isinstance(tool, str) else None, tuple(sources))


def _is_date(text: str) -> bool:
    if not ISO_DATE.match(text):
        return False
    try:
        dt.date.fromisoformat(text[:10])
    except ValueError:
        return False
    return True


def _source(
    entry: object, inputs: dict[str, dict[str, Any]], where: str, bad: list[tuple[str, str]]
) -> MapSource | None:
    if not isinstance(entry, dict):
        bad.append((where, "must be an object"))
        return None
    entry = {_OLD_SPELLING.get(k, k): v for k, v in entry.items()}
    wrong = [k for k in _TEXT_KEYS if k in entry and not isinstance(entry[k], str | None)]
    for name in wrong:
        bad.append((f"{where}.{name}", "must be text"))
    title = entry.get("title")
    if "title" not in wrong and not (isinstance(title, str) and title.strip()):
        bad.append((f"{where}.title", "is missing"))
        return None
    if wrong:
        return None
    link = entry.get("license_url")
    if link is not None and not re.match(URL_PATTERN, link):
        # Shown as a link on the license page: only http(s), never `javascript:`.
        bad.append((f"{where}.license_url", f"is {link!r}, not an http(s) URL"))
        return None
    facts: dict[str, Any] = {}
    key: str | None = entry.get("input")
    if key is not None:
        if key not in inputs:
            known = ", ".join(sorted(inputs)) or "none"
            bad.append((f"{where}.input", f"names {key!r}, which is not in inputs ({known})"))
            return None
        facts = inputs[key]
    date = entry.get("timestamp") or facts.get("osm_timestamp") or facts.get("modified")
    if date is not None and not (isinstance(date, str) and _is_date(date)):
        bad.append((f"{where}", f"has the date {date!r}, not one as YYYY-MM-DD[Thh:mm:ssZ]"))
        return None
    edition = facts.get("edition")
    return MapSource(
        title=entry["title"],
        credit=entry.get("credit"),
        license=entry.get("license"),
        license_url=entry.get("license_url"),
        file=entry.get("file") or facts.get("file"),
        date=date if isinstance(date, str) else None,
        edition=edition if isinstance(edition, str) else None,
        sha256=facts["sha256"] if isinstance(facts.get("sha256"), str) else None,
    )
