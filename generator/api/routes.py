"""The one route table: every API route, its parameters, access and backing file.

From this table come the Python gate, the `routes.json` the edge gate reads, the
OpenAPI document and the conformance tests; the render stage asks it for file paths.
Validation rules are data here, so both gates apply the same rules.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

CODE_PATTERN = r"^[a-z][a-z0-9_]*$"
EMAIL_PATTERN = r"^[^@\s]+@[^@\s]+$"
"""What `email=True` checks: one `@` with text on both sides, no spaces."""
EMAIL_MESSAGE = "not an e-mail address (expected name@domain)"
"""Reason of the `value_error` (FastAPI shows it as "Value error, <reason>")."""


@dataclass(frozen=True)
class Param:
    name: str
    location: str  # path | query | body
    type: str = "string"  # string | integer
    required: bool = True
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    email: bool = False
    default: str | None = None
    description: str = ""
    example: str | int | None = None


@dataclass(frozen=True)
class Route:
    operation_id: str
    method: str
    path: str
    summary: str
    access: str  # key | open
    params: tuple[Param, ...] = ()
    file: str | None = None
    """Template of the backing file, e.g. `_data/v1/zones/{zone_id}.json`."""
    file_when: dict[str, str] = field(default_factory=dict)
    """Alternative templates used when the named optional parameter is given."""
    not_found: str = "Not Found"
    """`detail` of the 404 when the backing file does not exist."""
    not_found_when: dict[str, str] = field(default_factory=dict)
    license: str | None = None  # "odbl" for the PLZ-zone mapping
    status: int = 200
    description: str = ""

    def _fill(self, template: str, alternatives: dict[str, str], values: dict) -> str:
        for name, alternative in alternatives.items():
            if values.get(name) is not None:
                template = alternative
        # `is None`, not `or`: a zone id 0 is a value, not a missing one.
        filled = {
            p.name: p.default if values.get(p.name) is None else values.get(p.name)
            for p in self.params
        }
        return template.format(**filled)

    def file_for(self, values: dict[str, object]) -> str:
        """Return the backing file for validated parameter values."""
        return self._fill(self.file or "", self.file_when, values)

    def detail_for(self, values: dict[str, object]) -> str:
        """Return the `detail` of the 404 when the backing file is missing."""
        return self._fill(self.not_found, self.not_found_when, values)


PLZ = Param(
    "plz",
    "query",
    min_length=5,
    max_length=5,
    pattern=r"^\d{5}$",
    description="German postal code (five digits).",
    example="76437",
)
ZONE_ID = Param(
    "zone_id", "path", type="integer", description="Id of the supply zone.", example=101
)

ROUTES: tuple[Route, ...] = (
    Route(
        "lookup",
        "GET",
        "/v1/lookup",
        "Supply zones serving a postal code",
        "key",
        (PLZ,),
        file="_data/v1/lookup/{plz}.json",
        not_found="No supply zone is known for PLZ {plz}",
        license="odbl",
        description="Zones sorted by area share, with supplier, confidence and whether the "
        "answer is ambiguous. The zone assignment is ODbL-licensed (attribution included).",
    ),
    Route(
        "zone",
        "GET",
        "/v1/zones/{zone_id}",
        "A supply zone with current classified values",
        "key",
        (ZONE_ID,),
        file="_data/v1/zones/{zone_id}.json",
        not_found="No zone with id {zone_id}",
        description="Latest value per parameter, classified against the limit valid on the "
        "build's reference date and any announced stricter limit, with provenance.",
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
                max_length=64,
                pattern=CODE_PATTERN,
                description="Only this parameter code.",
                example="pfas_summe_20",
            ),
        ),
        file="_data/v1/zones/{zone_id}/measurements.json",
        file_when={"parameter": "_data/v1/zones/{zone_id}/measurements/{parameter}.json"},
        not_found="No zone with id {zone_id}",
        not_found_when={
            "parameter": "No measurements of parameter '{parameter}' for zone {zone_id}"
        },
        description="Verbatim time series, sorted by parameter then date.",
    ),
    Route(
        "supplier",
        "GET",
        "/v1/suppliers/{supplier_id}",
        "A water supplier and its zones",
        "key",
        (
            Param(
                "supplier_id", "path", type="integer", description="Id of the supplier.", example=1
            ),
        ),
        file="_data/v1/suppliers/{supplier_id}.json",
        not_found="No supplier with id {supplier_id}",
    ),
    Route(
        "parameters",
        "GET",
        "/v1/parameters",
        "The parameter register",
        "open",
        file="v1/parameters.json",
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
                max_length=64,
                pattern=CODE_PATTERN,
                description="Parameter code from the register.",
                example="pfas_summe_20",
            ),
        ),
        file="_data/v1/parameters/{code}/limits.json",
        not_found="No parameter with code '{code}'",
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
            ),
        ),
        file="v1/export/plz-zonen.{format}",
        license="odbl",
        description="Every PLZ-zone pair with area share and confidence; never measured "
        "values. Also as Parquet and with a Frictionless datapackage.json.",
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
            ),
            Param(
                "zweck",
                "body",
                min_length=10,
                max_length=1000,
                description="What the key will be used for.",
                example="Anzeige der PFAS-Werte in unserer Stadt-App",
            ),
        ),
        status=202,
        description="Stored before the answer; the answer carries a request id and status "
        "`pending`, never a key. An operator reviews requests and sends keys by e-mail.",
    ),
)

ROUTES_BY_ID = {r.operation_id: r for r in ROUTES}


def route(operation_id: str) -> Route:
    return ROUTES_BY_ID[operation_id]


def file_path(operation_id: str, **values: object) -> str:
    """Return the file that backs one resource, e.g. file_path("zone", zone_id=101)."""
    return route(operation_id).file_for(values)


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


def url_expr(operation_id: str, **columns: object):
    """Return the public URL of one resource for every row of a frame (a polars expression).

    `url_expr("zone_measurements", zone_id=pl.col("zone_id"), parameter=pl.col("parameter"))`
    gives `/v1/zones/11/measurements?parameter=blei`, as `url` does for one value. Like
    `url`, values are not percent-encoded: ids, codes and PLZs never need it.
    """
    import polars as pl  # here, not at the top: the gates read this table without polars

    r = route(operation_id)
    unknown = set(columns) - {p.name for p in r.params}
    if unknown:
        raise KeyError(f"{operation_id} has no parameter {', '.join(sorted(unknown))}")
    template, values, query = r.path, [], []
    for name in re.findall(r"\{(\w+)\}", r.path):
        values.append(columns[name])
    template = re.sub(r"\{\w+\}", "{}", template)
    for p in r.params:
        if p.location == "query" and p.name in columns:
            query.append(f"{p.name}={{}}")
            values.append(columns[p.name])
    return pl.format(template + ("?" + "&".join(query) if query else ""), *values)


OPEN_FILES: dict[str, str] = {
    "openapi": "v1/openapi.json",
    "export_parquet": "v1/export/plz-zonen.parquet",
    "datapackage": "v1/export/datapackage.json",
}
"""Open files of the tree that back no route: served as they are, at `/` + their path."""


def open_file(name: str) -> str:
    """Return the build path of an open file that is no route, e.g. open_file("openapi")."""
    return OPEN_FILES[name]


def file_url(path: str) -> str:
    """Return the URL of an open file of the tree (files under `_data/` have none)."""
    if path.startswith("_data/"):
        raise ValueError(f"{path} is hidden: it is served only through its route")
    return "/" + path


def path_regex(path: str) -> str:
    """Turn `/v1/zones/{zone_id}` into an anchored regex with named groups."""
    return "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(path)) + "$"


def to_json() -> dict:
    """Return the table as plain data for the edge gate (routes.json)."""
    return {
        "email": {"pattern": EMAIL_PATTERN, "message": EMAIL_MESSAGE},
        "routes": [dict(asdict(r), regex=path_regex(r.path).replace("?P<", "?<")) for r in ROUTES],
    }
