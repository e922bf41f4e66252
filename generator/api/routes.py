"""The one route table: every API route, its parameters, access and backing file.

From this table come the Python gate, the `routes.json` the edge gate reads, the
OpenAPI document and the conformance tests; the render stage asks it for file paths.
Validation rules are data here, so both gates apply the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from email.errors import HeaderParseError
from email.headerregistry import Address
from email.utils import getaddresses
from typing import TYPE_CHECKING, Any

from generator.api.http import KEY_HEADER, is_file_segment
from generator.api.messages import MESSAGES, fill, placeholders
from generator.api.patterns import PLZ_PATTERN

if TYPE_CHECKING:
    import polars as pl

_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
EMAIL_PATTERN = rf"^(?!.*=\?){_ATOM}(?:\.{_ATOM})*@{_LABEL}(?:\.{_LABEL})*$"
"""What `email=True` checks: exactly one address, `name@domain` as RFC 5322 writes a plain
one (a dot-atom before the `@`, host name labels after it), in ASCII. So no display name,
comment or quoted part, no list separator (`,` `;`), no space or control character, and no
encoded word (`=?utf-8?b?...?=`, which a mail program would decode into more recipients or
header lines). A domain with umlauts is written in its ASCII form (`xn--...`)."""
EMAIL_MESSAGE = "not an e-mail address (expected name@domain)"
"""Reason of the `value_error` (FastAPI shows it as "Value error, <reason>")."""


def is_one_address(value: str) -> bool:
    """Whether `value` is exactly one e-mail address, by the pattern and by the stdlib.

    The pattern is what both gates apply (the edge gate has no Python); the standard
    library's own parsers must read the same text as one address, and nothing else, too.
    """
    if not re.fullmatch(EMAIL_PATTERN, value):
        return False
    try:
        parsed = Address(addr_spec=value)
    except (ValueError, IndexError, HeaderParseError):
        return False
    return parsed.addr_spec == value and getaddresses([value]) == [("", value)]


GATE_PARAM_FIELDS = (
    "name",
    "location",
    "type",
    "required",
    "min_length",
    "max_length",
    "pattern",
    "email",
    "default",
)
GATE_ROUTE_FIELDS = (
    "operation_id",
    "method",
    "path",
    "access",
    "file",
    "not_found",
    "filter",
    "license",
    "status",
)
"""What `routes.json` carries of each parameter and route: what the edge gate reads."""


@dataclass(frozen=True)
class Param:
    name: str
    location: str  # path | query | header | body
    type: str = "string"  # string | integer
    required: bool = True
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    email: bool = False
    default: str | None = None
    description: str = ""
    example: str | int | None = None
    description_de: str = ""
    """The German words of the API reference page (and the access form's field)."""

    @property
    def can_fail(self) -> bool:
        """Whether some request makes this parameter a 422 (from a URL; bodies always can)."""
        constrained = (self.min_length, self.max_length, self.pattern) != (None, None, None)
        return (
            self.location == "body"
            or self.type == "integer"
            or constrained
            or self.email
            or (self.required and self.location != "path")
        )


@dataclass(frozen=True)
class RowFilter:
    """`?{param}=CODE` answers the route's series file with only the rows of that parameter.

    The gates pick the rows from the one file (`generator.api.series`); there is no file per
    filter. CODE must be a code of the parameter register (the open `parameters` file of
    the tree), else the answer is a 404 with `unknown`; a known code without rows in this
    zone is an empty series (count 0), not an error.
    """

    param: str
    unknown: str
    """`detail` of the 404 for a value that is no code of the register."""

    def to_json(self) -> dict[str, str]:
        return {"param": self.param, "unknown": self.unknown}


@dataclass(frozen=True)
class Download:
    """Another representation of a route's document, a file of rows (`?format=csv`)."""

    suffix: str
    """The file's suffix, e.g. `.csv` (its media type: `generator.api.http.MEDIA_TYPES`)."""
    rows: str
    """The resource each row of the file is (`generator.api.resources`), e.g. `ExportRow`."""


@dataclass(frozen=True)
class Route:
    operation_id: str
    method: str
    path: str
    summary: str
    access: str  # key | open
    params: tuple[Param, ...] = ()
    response: str = ""
    """The resource (`generator.api.resources`) or gate schema of the success body."""
    tag: str = "Data"
    """The OpenAPI tag: `Data` for precomputed resources, `Keys` for access to them."""
    summary_de: str = ""
    description_de: str = ""
    """The German words of the API reference page."""
    downloads: tuple[Download, ...] = ()
    file: str | None = None
    """Template of the backing file, e.g. `_data/v1/zones/{zone_id}.json`."""
    not_found: str = MESSAGES["not_found"].detail
    """`detail` of the 404 when the backing file does not exist."""
    filter: RowFilter | None = None
    license: str | None = None  # "odbl" for the PLZ-zone mapping
    status: int = 200
    description: str = ""

    def _values(self, values: Mapping[str, object]) -> dict[str, object]:
        # `is None`, not `or`: a zone id 0 is a value, not a missing one.
        return {
            p.name: p.default if values.get(p.name) is None else values.get(p.name)
            for p in self.params
        }

    def file_for(self, values: Mapping[str, object]) -> str | None:
        """Return the backing file for validated parameter values, or None if there is none.

        None when a value is not one harmless path segment (`../x`, `a/b`, a NUL, 5000
        characters): such a resource cannot exist, and the value never reaches a path.
        """
        filled = self._values(values)
        template = self.file or ""
        used = {name: filled[name] for name in placeholders(template)}
        if not all(is_file_segment(str(v)) for v in used.values()):
            return None
        return fill(template, used)

    def detail_for(self, values: Mapping[str, object]) -> str:
        """Return the `detail` of the 404 when the backing file is missing."""
        return fill(self.not_found, self._values(values))

    def unknown_detail(self, values: Mapping[str, object]) -> str:
        """Return the `detail` of the 404 for a filter value that is no code."""
        if self.filter is None:
            raise ValueError(f"{self.operation_id} has no filter")
        return fill(self.filter.unknown, self._values(values))

    def param(self, name: str) -> Param:
        """Return the parameter called `name`."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"{self.operation_id} has no parameter {name}")

    def match(self, segments: list[str]) -> dict[str, str] | None:
        """Return the path parameters if the decoded path segments are this route's path."""
        template = self.path.strip("/").split("/")
        if len(segments) != len(template):
            return None
        params = {}
        for part, segment in zip(template, segments, strict=True):
            if part.startswith("{"):
                if not segment:
                    return None
                params[part[1:-1]] = segment
            elif part != segment:
                return None
        return params

    def to_json(self) -> dict[str, Any]:
        """Return what the edge gate needs of this route (routes.json)."""
        route = {name: getattr(self, name) for name in GATE_ROUTE_FIELDS}
        route["filter"] = None if self.filter is None else self.filter.to_json()
        route["params"] = [{n: getattr(p, n) for n in GATE_PARAM_FIELDS} for p in self.params]
        return route


API_KEY = Param(
    KEY_HEADER.lower(),
    "header",
    required=False,
    description="Your API key: required (without it the answer is 401). Header names are "
    "case-insensitive.",
    description_de="Ihr API-Schlüssel. Ohne ihn ist die Antwort 401. Groß- und "
    "Kleinschreibung des Header-Namens spielen keine Rolle.",
)
"""Declared on every keyed route, as the seed's interface description does."""

PLZ = Param(
    "plz",
    "query",
    min_length=5,
    max_length=5,
    pattern=PLZ_PATTERN,
    description="German postal code (five digits).",
    example="76437",
    description_de="Postleitzahl, fünf Ziffern.",
)
ZONE_ID = Param(
    "zone_id",
    "path",
    type="integer",
    description="Id of the supply zone.",
    example=101,
    description_de="Nummer des Versorgungsgebiets.",
)

ROUTES: tuple[Route, ...] = (
    Route(
        "lookup",
        "GET",
        "/v1/lookup",
        "Supply zones serving a postal code",
        "key",
        (PLZ, API_KEY),
        file="_data/v1/lookup/{plz}.json",
        not_found="No supply zone is known for PLZ {plz}",
        license="odbl",
        description="Zones sorted by area share, with supplier, confidence and whether the "
        "answer is ambiguous. The zone assignment is ODbL-licensed (attribution included).",
        response="Lookup",
        summary_de="Versorgungsgebiete einer Postleitzahl",
        description_de="Die Versorgungsgebiete nach Flächenanteil, mit Wasserversorger, "
        "Sicherheit der Zuordnung und ob die Antwort eindeutig ist. Die Gebietszuordnung steht "
        "unter ODbL; die Namensnennung ist Teil der Antwort.",
    ),
    Route(
        "zone",
        "GET",
        "/v1/zones/{zone_id}",
        "A supply zone with current classified values",
        "key",
        (ZONE_ID, API_KEY),
        file="_data/v1/zones/{zone_id}.json",
        not_found="No zone with id {zone_id}",
        description="Latest value per parameter, classified against the limit valid on the "
        "build's reference date and any announced stricter limit, with provenance.",
        response="Zone",
        summary_de="Ein Versorgungsgebiet mit seinen aktuellen, bewerteten Werten",
        description_de="Der jüngste Wert je Parameter, bewertet nach dem am Stichtag der Daten "
        "geltenden Wert und einem schon angekündigten strengeren, jeweils mit Quelle.",
    ),
    Route(
        "zone_measurements",
        "GET",
        "/v1/zones/{zone_id}/measurements",
        "Every published data point of a zone",
        "key",
        (
            ZONE_ID,
            Param(
                "parameter",
                "query",
                required=False,
                description="Only the data points of this parameter code: an unknown code is "
                "a 404, a code without data points in this zone an empty series.",
                example="pfas_summe_20",
                description_de="Nur dieser Parameter (Kürzel aus dem Register; ein unbekanntes "
                "ergibt 404).",
            ),
            API_KEY,
        ),
        file="_data/v1/zones/{zone_id}/measurements.json.gz",
        not_found="No zone with id {zone_id}",
        filter=RowFilter("parameter", unknown="No parameter with code '{parameter}'"),
        description="Verbatim time series, sorted by parameter then date, with each "
        "parameter's register unit once (`normalized_units`). With `parameter`, only that "
        "parameter's data points, the documents they come from and its unit.",
        response="Measurements",
        summary_de="Alle veröffentlichten Messwerte eines Versorgungsgebiets",
        description_de="Die Zeitreihen, wie veröffentlicht, sortiert nach Parameter und Datum.",
    ),
    Route(
        "supplier",
        "GET",
        "/v1/suppliers/{supplier_id}",
        "A water supplier and its zones",
        "key",
        (
            Param(
                "supplier_id",
                "path",
                type="integer",
                description="Id of the supplier.",
                example=1,
                description_de="Nummer des Wasserversorgers.",
            ),
            API_KEY,
        ),
        file="_data/v1/suppliers/{supplier_id}.json",
        not_found="No supplier with id {supplier_id}",
        response="Supplier",
        summary_de="Ein Wasserversorger und seine Versorgungsgebiete",
        description_de="Name, Sitz, Website, Versorgungsgebiete und veröffentlichte Dokumente.",
    ),
    Route(
        "parameters",
        "GET",
        "/v1/parameters",
        "The parameter register",
        "open",
        file="v1/parameters.json",
        response="ParameterRegister",
        summary_de="Das Parameterregister",
        description_de="Alle Parameter mit Einheit, Gruppe und Grenzwerten; offen nutzbar.",
    ),
    Route(
        "parameter_limits",
        "GET",
        "/v1/parameters/{code}/limits",
        "Versioned limit values of one parameter",
        "key",
        (
            Param(
                "code",
                "path",
                description="Parameter code from the register (an unknown code is a 404).",
                example="pfas_summe_20",
                description_de="Kürzel eines Parameters aus dem Register; ein unbekanntes "
                "Kürzel ergibt 404.",
            ),
            API_KEY,
        ),
        file="_data/v1/parameters/{code}/limits.json",
        not_found="No parameter with code '{code}'",
        response="ParameterLimits",
        summary_de="Grenzwerte eines Parameters mit Geltungszeitraum",
        description_de="Alle Fassungen der Grenzwerte und anderen Werte eines Parameters, "
        "jeweils mit Geltungszeitraum und Rechtsgrundlage.",
    ),
    Route(
        "export",
        "GET",
        "/v1/export/plz-zonen",
        "The complete PLZ-to-zone mapping (ODbL)",
        "open",
        (
            Param(
                "format",
                "query",
                required=False,
                pattern=r"^(json|csv)$",
                default="json",
                description="json or csv.",
                example="csv",
                description_de="`json` oder `csv`.",
            ),
        ),
        file="v1/export/plz-zonen.{format}",
        license="odbl",
        description="Every PLZ-zone pair with area share and confidence; never measured "
        "values. Also as Parquet, with a Frictionless datapackage.json, and described for "
        "open-data portals in the DCAT-AP.de catalogue /v1/export/katalog.ttl.",
        response="Export",
        summary_de="Die vollständige Zuordnung Postleitzahl → Versorgungsgebiet (ODbL)",
        description_de="Jedes Paar aus Postleitzahl und Versorgungsgebiet mit Flächenanteil und "
        "Sicherheit, ohne Messwerte. Auch als Parquet und mit einer datapackage.json "
        "(Frictionless); offen nutzbar.",
        downloads=(Download(".csv", rows="ExportRow"),),
    ),
    Route(
        "access_request",
        "POST",
        "/v1/keys/antrag",
        "Request an API key",
        "open",
        (
            Param(
                "email",
                "body",
                max_length=254,
                email=True,
                description="Contact address.",
                example="ada@example.org",
                description_de="Ihre E-Mail-Adresse, genau eine: name@domain, ohne "
                "Leerzeichen und Kommas, eine Domain mit Umlauten in ihrer xn--Form.",
            ),
            Param(
                "zweck",
                "body",
                min_length=10,
                max_length=1000,
                description="What the key will be used for.",
                example="Anzeige der PFAS-Werte in unserer Stadt-App",
                description_de="Wofür Sie den Schlüssel nutzen möchten.",
            ),
        ),
        status=202,
        description="Stored before the answer; the answer carries a request id and status "
        "`pending`, never a key. An operator reviews requests and sends keys by e-mail.",
        response="AccessRequestAccepted",
        tag="Keys",
        summary_de="Einen API-Schlüssel beantragen",
        description_de="Der Antrag wird gespeichert, bevor die Antwort kommt. Die Antwort "
        "enthält eine Antragsnummer und den Status `pending`, nie einen Schlüssel: Wir prüfen "
        "Anträge von Hand und schicken Schlüssel per E-Mail.",
    ),
)

TAGS = {"Data": "Precomputed resources.", "Keys": "Access to the keyed resources."}
"""The OpenAPI tags of the routes, in the document's order."""

ROUTES_BY_ID = {r.operation_id: r for r in ROUTES}


def route(operation_id: str) -> Route:
    return ROUTES_BY_ID[operation_id]


def file_path(operation_id: str, **values: object) -> str:
    """Return the file that backs one resource (`"zone"` with `zone_id=101`, say)."""
    path = route(operation_id).file_for(values)
    if path is None:
        raise ValueError(f"{operation_id}: {values} name no file (a value is no path segment)")
    return path


def file_paths(operation_id: str, keys: pl.Series) -> list[str]:
    """Return `file_path` for each of `keys`: whole numbers, named as the route's parameter.

    One path is made with a stand-in key and polars puts each key in its place: the paths
    of 6,000 suppliers one by one took a twelfth of a second of a daily update.
    """
    import polars as pl  # here, not at the top: the gates read this table without polars

    from generator.api.templates import template_expr  # polars too

    if not keys.dtype.is_integer():
        raise TypeError(f"{keys.name}: whole numbers only, not {keys.dtype}")
    stand_in = "918273645"
    template = file_path(operation_id, **{keys.name: stand_in})
    if template.count(stand_in) != 1 or "{" in template or "}" in template:
        raise ValueError(f"{operation_id}: {template} does not hold its key once")
    slot = "{" + keys.name + "}"
    placed = template_expr(template.replace(stand_in, slot), {keys.name: pl.col(keys.name)})
    return keys.to_frame().select(placed).to_series().to_list()


def url(operation_id: str, **values: object) -> str:
    """Return the public URL of one resource (path and query)."""
    r = route(operation_id)
    path = r.path
    query = []
    for p in r.params:
        value = values.get(p.name)
        if value is None:
            continue
        if p.location == "path":
            path = path.replace("{" + p.name + "}", str(value))
        elif p.location == "query":
            query.append(f"{p.name}={value}")
    return path + ("?" + "&".join(query) if query else "")


def url_expr(operation_id: str, **columns: pl.Expr) -> pl.Expr:
    """Return the public URL of one resource for every row of a frame (a polars expression).

    `url_expr("zone_measurements", zone_id=pl.col("zone_id"), parameter=pl.col("parameter"))`
    gives `/v1/zones/11/measurements?parameter=blei`, as `url` does for one value. Like
    `url`, values are not percent-encoded: ids, codes and PLZs never need it.
    """
    # Here, not at the top: the gates read this table without polars.
    from generator.api.templates import template_expr

    r = route(operation_id)
    unknown = set(columns) - {p.name for p in r.params}
    if unknown:
        raise KeyError(f"{operation_id} has no parameter {', '.join(sorted(unknown))}")
    query = [
        f"{p.name}={{{p.name}}}" for p in r.params if p.location == "query" and p.name in columns
    ]
    return template_expr(r.path + ("?" + "&".join(query) if query else ""), columns)


OPEN_FILES: dict[str, str] = {
    "openapi": "v1/openapi.json",
    "export_parquet": "v1/export/plz-zonen.parquet",
    "export_streets": "v1/export/strassen.csv",
    "datapackage": "v1/export/datapackage.json",
    "catalog": "v1/export/katalog.ttl",
}
"""Open files of the tree that back no route: served as they are, at `/` + their path."""


ODBL_OPEN_FILES = ("export_parquet", "export_streets", "datapackage")
"""Open files that carry (or describe) the ODbL mapping: they are answered with its license."""


def open_file(name: str) -> str:
    """Return the build path of an open file that is no route (`"openapi"`, say)."""
    return OPEN_FILES[name]


def odbl_files() -> list[str]:
    """Return `fnmatch` globs of the files answered with the ODbL license link.

    The files of ODbL routes (`plz-zonen.{format}` becomes `plz-zonen.*`, which covers the
    Parquet export too) and the open files of `ODBL_OPEN_FILES`, such as the data package.
    """
    globs = {re.sub(r"\{\w+\}", "*", r.file) for r in ROUTES if r.license == "odbl" and r.file}
    return sorted(globs | {OPEN_FILES[name] for name in ODBL_OPEN_FILES})


def api_dirs() -> tuple[str, ...]:
    """Return the top directories of the tree that hold the API: its routes' and open files."""
    files = [*OPEN_FILES.values()]
    for r in ROUTES:
        files.append(r.file or "")
    return tuple(sorted({f.split("/")[0] + "/" for f in files if f}))


def file_url(path: str) -> str:
    """Return the URL of an open file of the tree (files under `_data/` have none)."""
    if path.startswith("_data/"):
        raise ValueError(f"{path} is hidden: it is served only through its route")
    return "/" + path


def to_json() -> list[dict[str, Any]]:
    """Return the table as plain data for the edge gate (the routes of routes.json)."""
    return [r.to_json() for r in ROUTES]
