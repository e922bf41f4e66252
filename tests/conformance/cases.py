"""The conformance cases: one HTTP request and what any gate must answer, as data.

The same cases run against every gate (`gate` fixture: the Python server now, the Netlify
edge function later). Cases marked `fastapi=True` are also sent to a real FastAPI app built
from the route table: a 400/422 there must come back byte for byte from the gate, and any
other answer there means the gate must not refuse the parameters either.

Keys are named, not written: `key="valid"` etc. is replaced by a key the gate fixture made.
Targets are sent as written (already percent-encoded). `raw=True` cases go through a client
that does not normalise the path (`..`, `%2e`), to prove the gate refuses them itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PRESENT = object()
"""Expected header value: the header must be there, with any value."""


@dataclass(frozen=True)
class Contains:
    """Expected header value: a comma-separated list that includes `item`."""

    item: str


LICENSE = '<https://opendatacommons.org/licenses/odbl/1-0/>; rel="license"'
JSON = "application/json; charset=utf-8"
KEYED_OK = {
    "content-type": JSON,
    "cache-control": "private, max-age=300",
    "etag": PRESENT,
    "x-ratelimit-limit": "1000",
    "x-ratelimit-remaining": PRESENT,
    "x-ratelimit-reset": PRESENT,
    "access-control-allow-origin": "*",
}
OPEN_OK = {
    "content-type": JSON,
    "cache-control": "public, max-age=300",
    "etag": PRESENT,
    "access-control-allow-origin": "*",
}
NO_STORE = {"content-type": JSON, "cache-control": "no-store", "access-control-allow-origin": "*"}
VALID_BODY = b'{"email":"ada@example.org","zweck":"Anzeige der PFAS-Werte in der Stadt-App"}'


@dataclass(frozen=True)
class Case:
    id: str
    method: str
    target: str
    status: int
    key: str | None = None
    """Which key to send in X-Api-Key: valid, revoked, unknown, exhausted, empty."""
    key_header: str = "X-Api-Key"
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    content_type: str | None = None
    fastapi: bool = False
    detail: str | None = None
    """Expected `detail` of a JSON error body."""
    json: dict[str, Any] | None = None
    """Expected members of the JSON body (a subset: each key must be there, equal)."""
    expect_headers: dict[str, Any] = field(default_factory=dict)
    absent_headers: tuple[str, ...] = ()
    raw: bool = False
    empty_body: bool = False


def post(id: str, body: bytes | None, status: int = 422, **kw: Any) -> Case:
    kw.setdefault("content_type", "application/json")
    kw.setdefault("fastapi", True)
    return Case(id, "POST", "/v1/keys/antrag", status, body=body, **kw)


def get422(id: str, target: str) -> Case:
    return Case(id, "GET", target, 422, fastapi=True, expect_headers=NO_STORE)


def measurements404(id: str, given: str, shown: str) -> Case:
    """`?parameter=<given>` (as sent) is no code of the register; the detail names it decoded."""
    return Case(
        id,
        "GET",
        f"/v1/zones/11/measurements?parameter={given}",
        404,
        key="valid",
        fastapi=True,
        detail=f"No parameter with code '{shown}'",
        expect_headers={**NO_STORE, "x-ratelimit-remaining": PRESENT},
    )


def limits404(id: str, given: str, shown: str) -> Case:
    """`/v1/parameters/<given>/limits` (as sent) has no file; the detail names the code."""
    return Case(
        id,
        "GET",
        f"/v1/parameters/{given}/limits",
        404,
        key="valid",
        fastapi=True,
        detail=f"No parameter with code '{shown}'",
        expect_headers=NO_STORE,
    )


CASES: list[Case] = [
    # ------------------------------------------------------------------ lookup
    Case(
        "lookup-ok",
        "GET",
        "/v1/lookup?plz=76437",
        200,
        key="valid",
        fastapi=True,
        json={"plz": "76437", "ambiguous": True},
        expect_headers={**KEYED_OK, "link": LICENSE},
    ),
    Case(
        "lookup-head",
        "HEAD",
        "/v1/lookup?plz=76437",
        200,
        key="valid",
        empty_body=True,
        expect_headers={**KEYED_OK, "link": LICENSE, "content-length": PRESENT},
    ),
    Case(
        "lookup-key-header-any-case",
        "GET",
        "/v1/lookup?plz=01067",
        200,
        key="valid",
        key_header="x-API-key",
        json={"plz": "01067"},
    ),
    get422("lookup-plz-missing", "/v1/lookup"),
    get422("lookup-plz-name-is-case-sensitive", "/v1/lookup?PLZ=76437"),
    get422("lookup-plz-empty", "/v1/lookup?plz="),
    get422("lookup-plz-blank-no-equals", "/v1/lookup?plz"),
    get422("lookup-plz-too-short", "/v1/lookup?plz=abc"),
    get422("lookup-plz-letters", "/v1/lookup?plz=abcde"),
    get422("lookup-plz-too-long", "/v1/lookup?plz=123456"),
    get422("lookup-plz-trailing-space-plus", "/v1/lookup?plz=1234+"),
    get422("lookup-plz-trailing-space-encoded", "/v1/lookup?plz=1234%20"),
    get422("lookup-plz-trailing-newline", "/v1/lookup?plz=76437%0A"),
    # `$` matches only at the very end, as in Pydantic's engine: five characters, no PLZ.
    get422("lookup-plz-four-digits-and-newline", "/v1/lookup?plz=7643%0A"),
    get422("lookup-plz-repeated-last-wins-bad", "/v1/lookup?plz=76437&plz=abc"),
    Case(
        "lookup-plz-repeated-last-wins-good",
        "GET",
        "/v1/lookup?plz=abc&plz=76437",
        200,
        key="valid",
        fastapi=True,
        json={"plz": "76437"},
    ),
    # `\d` is Unicode in Pydantic's regex engine, so FastAPI accepts full-width digits; the
    # gate does the same and then finds no such PLZ.
    Case(
        "lookup-plz-full-width-digits",
        "GET",
        "/v1/lookup?plz=%EF%BC%91%EF%BC%92%EF%BC%93%EF%BC%94%EF%BC%95",
        404,
        key="valid",
        fastapi=True,
        detail="No supply zone is known for PLZ １２３４５",
    ),
    Case(
        "lookup-plz-unknown",
        "GET",
        "/v1/lookup?plz=99999",
        404,
        key="valid",
        detail="No supply zone is known for PLZ 99999",
        expect_headers={**NO_STORE, "x-ratelimit-limit": "1000"},
        absent_headers=("link", "etag"),
    ),
    Case(
        "lookup-validation-before-key",
        "GET",
        "/v1/lookup?plz=abc",
        422,
        fastapi=True,
        absent_headers=("x-ratelimit-remaining",),
    ),
    Case(
        "lookup-no-key",
        "GET",
        "/v1/lookup?plz=76437",
        401,
        detail="Missing API key: send it in the X-Api-Key header. "
        "Request a key with POST /v1/keys/antrag.",
        expect_headers={**NO_STORE, "www-authenticate": 'ApiKey header="X-Api-Key"'},
        absent_headers=("x-ratelimit-remaining",),
    ),
    Case("lookup-empty-key", "GET", "/v1/lookup?plz=76437", 401, key="empty"),
    Case(
        "lookup-unknown-key",
        "GET",
        "/v1/lookup?plz=76437",
        403,
        key="unknown",
        detail="Invalid API key.",
        expect_headers=NO_STORE,
        absent_headers=("x-ratelimit-remaining",),
    ),
    Case(
        "lookup-revoked-key",
        "GET",
        "/v1/lookup?plz=76437",
        403,
        key="revoked",
        detail="This API key has been revoked.",
        expect_headers=NO_STORE,
    ),
    Case(
        "lookup-quota-used-up",
        "GET",
        "/v1/lookup?plz=76437",
        429,
        key="exhausted",
        expect_headers={
            **NO_STORE,
            "retry-after": PRESENT,
            "x-ratelimit-limit": "1000",
            "x-ratelimit-remaining": "0",
            "x-ratelimit-reset": PRESENT,
        },
    ),
    Case(
        "lookup-post-not-allowed",
        "POST",
        "/v1/lookup?plz=76437",
        405,
        detail="Method Not Allowed",
        expect_headers={**NO_STORE, "allow": "GET, HEAD, OPTIONS"},
    ),
    Case(
        "lookup-delete-not-allowed",
        "DELETE",
        "/v1/lookup",
        405,
        detail="Method Not Allowed",
    ),
    Case(
        "lookup-preflight",
        "OPTIONS",
        "/v1/lookup?plz=76437",
        204,
        headers={
            "Origin": "https://app.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "x-api-key",
        },
        empty_body=True,
        expect_headers={
            "access-control-allow-origin": "*",
            "access-control-allow-methods": "GET, HEAD, OPTIONS",
            "access-control-allow-headers": "X-Api-Key, Content-Type, If-None-Match",
            "access-control-max-age": "86400",
        },
    ),
    Case(
        "lookup-cors-exposes-quota-headers",
        "GET",
        "/v1/lookup?plz=04109",
        200,
        key="valid",
        headers={"Origin": "https://app.example"},
        expect_headers={
            "access-control-allow-origin": "*",
            "access-control-expose-headers": Contains("X-RateLimit-Remaining"),
        },
    ),
    # ------------------------------------------------------------------ zones
    Case(
        "zone-ok",
        "GET",
        "/v1/zones/11",
        200,
        key="valid",
        fastapi=True,
        json={"zone_id": 11, "as_of": "2026-11-23"},
        expect_headers=KEYED_OK,
        absent_headers=("link",),
    ),
    Case("zone-leading-zeros", "GET", "/v1/zones/011", 200, key="valid", fastapi=True),
    Case("zone-decimal-zero", "GET", "/v1/zones/11.0", 200, key="valid", fastapi=True),
    Case("zone-underscore", "GET", "/v1/zones/1_1", 200, key="valid", fastapi=True),
    Case(
        "zone-leading-space",
        "GET",
        "/v1/zones/%201",
        404,
        key="valid",
        fastapi=True,
        detail="No zone with id 1",
    ),
    Case(
        "zone-30-digits",
        "GET",
        "/v1/zones/123456789012345678901234567890",
        404,
        key="valid",
        fastapi=True,
        detail="No zone with id 123456789012345678901234567890",
    ),
    Case("zone-zero", "GET", "/v1/zones/0", 404, key="valid", detail="No zone with id 0"),
    # Pydantic strips leading zeros before the sign: FastAPI reads "0-11" as -11.
    Case(
        "zone-zero-minus",
        "GET",
        "/v1/zones/0-11",
        404,
        key="valid",
        fastapi=True,
        detail="No zone with id -11",
    ),
    Case("zone-unknown", "GET", "/v1/zones/99", 404, key="valid", detail="No zone with id 99"),
    get422("zone-letters", "/v1/zones/abc"),
    get422("zone-fraction", "/v1/zones/1.5"),
    get422("zone-dash", "/v1/zones/-"),
    get422("zone-exponent", "/v1/zones/1e3"),
    get422("zone-hex", "/v1/zones/0x10"),
    get422("zone-full-width", "/v1/zones/%EF%BC%91%EF%BC%91"),
    get422("zone-file-separator-not-space", "/v1/zones/%1C11"),
    get422("zone-over-4300-digits", "/v1/zones/" + "1" * 4301),
    Case("zone-no-key", "GET", "/v1/zones/11", 401),
    # ------------------------------------------------------------------ measurements
    Case(
        "measurements-ok",
        "GET",
        "/v1/zones/11/measurements",
        200,
        key="valid",
        fastapi=True,
        json={"zone_id": 11, "parameter": None},
        expect_headers=KEYED_OK,
    ),
    Case(
        "measurements-one-parameter",
        "GET",
        "/v1/zones/12/measurements?parameter=arsen",
        200,
        key="valid",
        fastapi=True,
        json={"zone_id": 12, "parameter": "arsen", "count": 1},
    ),
    Case(
        "measurements-one-parameter-headers",
        "GET",
        "/v1/zones/21/measurements?parameter=pfas_summe_20",
        200,
        key="valid",
        json={"zone_id": 21, "parameter": "pfas_summe_20", "count": 2},
        expect_headers=KEYED_OK,
    ),
    # A code of the register without data points in this zone: an empty series, not a 404.
    Case(
        "measurements-parameter-not-measured",
        "GET",
        "/v1/zones/11/measurements?parameter=arsen",
        200,
        key="valid",
        json={"count": 0, "documents": [], "measurements": [], "parameter": "arsen", "zone_id": 11},
        expect_headers=KEYED_OK,
    ),
    # The zone comes first: an unknown zone is its 404 whatever the code.
    Case(
        "measurements-zone-unknown-with-code",
        "GET",
        "/v1/zones/99/measurements?parameter=nitrat",
        404,
        key="valid",
        detail="No zone with id 99",
    ),
    Case(
        "measurements-zone-unknown-unknown-code",
        "GET",
        "/v1/zones/99/measurements?parameter=unbekannt",
        404,
        key="valid",
        detail="No zone with id 99",
    ),
    Case(
        "measurements-zone-canonical-in-answer",
        "GET",
        "/v1/zones/011/measurements?parameter=nitrat",
        200,
        key="valid",
        json={"zone_id": 11, "parameter": "nitrat"},
    ),
    Case(
        "measurements-zone-unknown",
        "GET",
        "/v1/zones/99/measurements",
        404,
        key="valid",
        detail="No zone with id 99",
    ),
    get422("measurements-zone-letters", "/v1/zones/abc/measurements?parameter=ABC"),
    # A parameter code is a plain string (docs/architecture.md, "Codes are plain strings"):
    # whatever it looks like, FastAPI takes it, and the gate answers 404 for a code the
    # register does not know. The filter never names a file: `..`, a slash, a NUL or 5000
    # characters are just unknown codes.
    *(
        measurements404(f"measurements-parameter-{name}", given, shown)
        for name, given, shown in (
            ("capital", "Blei", "Blei"),
            ("empty", "", ""),
            ("newline", "nitrat%0A", "nitrat\n"),
            ("umlaut", "%C3%A4", "ä"),
            ("emoji", "%F0%9F%98%80", "\U0001f600"),
            ("65-chars", "a" * 65, "a" * 65),
            ("5000-chars", "a" * 5000, "a" * 5000),
            ("dot-dot", "..", ".."),
            ("dot-file", ".hidden", ".hidden"),
            ("nul", "%00", "\x00"),
            ("slash", "a%2Fb", "a/b"),
            ("backslash", "a%5Cb", "a\\b"),
            # Out of the folder to another keyed file, and out of _data/ to an open file:
            # both exist, neither may be served for this route.
            ("up-to-a-lookup", "../../../lookup/76437", "../../../lookup/76437"),
            (
                "up-to-an-open-file",
                "..%2F..%2F..%2F..%2F..%2Fv1%2Fparameters",
                "../" * 5 + "v1/parameters",
            ),
        )
    ),
    # ------------------------------------------------------------------ suppliers
    Case(
        "supplier-ok",
        "GET",
        "/v1/suppliers/1",
        200,
        key="valid",
        fastapi=True,
        json={"supplier_id": 1},
        expect_headers=KEYED_OK,
    ),
    Case(
        "supplier-unknown",
        "GET",
        "/v1/suppliers/9",
        404,
        key="valid",
        detail="No supplier with id 9",
    ),
    get422("supplier-letters", "/v1/suppliers/eins"),
    Case("supplier-revoked-key", "GET", "/v1/suppliers/1", 403, key="revoked"),
    # ------------------------------------------------------------------ parameters
    Case(
        "parameters-open",
        "GET",
        "/v1/parameters",
        200,
        fastapi=True,
        json={"count": 282},
        expect_headers=OPEN_OK,
        absent_headers=("x-ratelimit-limit", "link"),
    ),
    Case(
        "parameters-key-ignored",
        "GET",
        "/v1/parameters",
        200,
        key="unknown",
        absent_headers=("x-ratelimit-limit",),
    ),
    Case(
        "parameters-head",
        "HEAD",
        "/v1/parameters",
        200,
        empty_body=True,
        expect_headers=OPEN_OK,
    ),
    Case(
        "parameters-put-not-allowed",
        "PUT",
        "/v1/parameters",
        405,
        body=b"{}",
        detail="Method Not Allowed",
    ),
    Case(
        "limits-ok",
        "GET",
        "/v1/parameters/blei/limits",
        200,
        key="valid",
        fastapi=True,
        json={"code": "blei"},
        expect_headers=KEYED_OK,
    ),
    Case(
        "limits-unknown-code",
        "GET",
        "/v1/parameters/unbekannt/limits",
        404,
        key="valid",
        detail="No parameter with code 'unbekannt'",
    ),
    *(
        limits404(f"limits-code-{name}", given, shown)
        for name, given, shown in (
            ("capital", "Blei", "Blei"),
            ("umlaut", "%C3%A4", "ä"),
            ("65-chars", "a" * 65, "a" * 65),
            ("5000-chars", "a" * 5000, "a" * 5000),
            ("dots-inside", "a..b", "a..b"),
            ("percent", "%25", "%"),
            ("question-mark", "%3F", "?"),
        )
    ),
    # Path values that are no segment are refused with the path, before validation.
    Case(
        "limits-code-dot-dot",
        "GET",
        "/v1/parameters/%2E%2E/limits",
        404,
        raw=True,
        key="valid",
        detail="Not Found",
    ),
    Case(
        "limits-code-encoded-slash",
        "GET",
        "/v1/parameters/a%2Fb/limits",
        404,
        raw=True,
        key="valid",
        detail="Not Found",
    ),
    Case(
        "limits-code-dot-file",
        "GET",
        "/v1/parameters/.x/limits",
        404,
        key="valid",
        detail="Not Found",
    ),
    Case(
        "limits-code-nul",
        "GET",
        "/v1/parameters/%00/limits",
        404,
        raw=True,
        key="valid",
        detail="Not Found",
    ),
    Case("limits-no-key", "GET", "/v1/parameters/blei/limits", 401),
    # ------------------------------------------------------------------ export
    Case(
        "export-json",
        "GET",
        "/v1/export/plz-zonen",
        200,
        fastapi=True,
        json={"count": 8},
        expect_headers={**OPEN_OK, "link": LICENSE},
    ),
    Case(
        "export-csv",
        "GET",
        "/v1/export/plz-zonen?format=csv",
        200,
        fastapi=True,
        expect_headers={
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": 'attachment; filename="plz-zonen.csv"',
            "cache-control": "public, max-age=300",
            "link": LICENSE,
        },
    ),
    get422("export-format-xml", "/v1/export/plz-zonen?format=xml"),
    get422("export-format-empty", "/v1/export/plz-zonen?format="),
    get422("export-format-upper", "/v1/export/plz-zonen?format=CSV"),
    # ------------------------------------------------------------------ open files under /v1
    Case(
        "file-openapi",
        "GET",
        "/v1/openapi.json",
        200,
        json={"openapi": "3.1.0"},
        expect_headers=OPEN_OK,
    ),
    Case(
        "file-parquet-export",
        "GET",
        "/v1/export/plz-zonen.parquet",
        200,
        expect_headers={"content-type": "application/vnd.apache.parquet", "link": LICENSE},
    ),
    Case(
        "file-datapackage",
        "GET",
        "/v1/export/datapackage.json",
        200,
        json={"name": "trinkwasser-plz-zonen"},
        expect_headers={"content-type": JSON, "link": LICENSE},
    ),
    Case(
        "file-dcat-catalogue",
        "GET",
        "/v1/export/katalog.ttl",
        200,
        expect_headers={
            **OPEN_OK,
            "content-type": "text/turtle; charset=utf-8",
        },
        absent_headers=("link",),
    ),
    Case(
        "file-csv-export",
        "GET",
        "/v1/export/plz-zonen.csv",
        200,
        expect_headers={
            "content-disposition": 'attachment; filename="plz-zonen.csv"',
            "link": LICENSE,
        },
    ),
    Case("file-post-not-allowed", "POST", "/v1/openapi.json", 405, detail="Method Not Allowed"),
    # ------------------------------------------------------------------ not found, hidden
    Case("api-unknown-path", "GET", "/v1/nope", 404, detail="Not Found", expect_headers=NO_STORE),
    Case("api-trailing-slash", "GET", "/v1/lookup/?plz=76437", 404, detail="Not Found"),
    Case("hidden-data-direct", "GET", "/_data/v1/lookup/76437.json", 404, detail="Not Found"),
    Case(
        "hidden-data-direct-with-key",
        "GET",
        "/_data/v1/zones/11.json",
        404,
        key="valid",
        detail="Not Found",
    ),
    Case("hidden-data-encoded", "GET", "/%5Fdata/v1/lookup/76437.json", 404, detail="Not Found"),
    Case(
        "traversal-dot-dot",
        "GET",
        "/v1/../_data/v1/lookup/76437.json",
        404,
        raw=True,
        detail="Not Found",
    ),
    Case(
        "traversal-encoded-dots",
        "GET",
        "/v1/%2e%2e/_data/v1/zones/11.json",
        404,
        raw=True,
        detail="Not Found",
    ),
    Case(
        "traversal-encoded-slash",
        "GET",
        "/v1/zones/11%2Fmeasurements",
        404,
        key="valid",
        raw=True,
        detail="Not Found",
    ),
    Case(
        "traversal-encoded-backslash",
        "GET",
        "/v1/zones/11%5Cmeasurements",
        404,
        raw=True,
        detail="Not Found",
    ),
    Case("traversal-double-slash", "GET", "//etc/passwd", 404, raw=True, detail="Not Found"),
    Case(
        "traversal-absolute-form",
        "GET",
        "http://evil.example/etc/passwd",
        404,
        raw=True,
    ),
    # An absolute-form target is read as its path (RFC 9112): the hidden folder stays hidden.
    Case(
        "traversal-absolute-form-hidden",
        "GET",
        "http://evil.example/_data/v1/lookup/76437.json",
        404,
        key="valid",
        raw=True,
        detail="Not Found",
    ),
    Case("traversal-nul", "GET", "/v1/zones/%00", 404, raw=True, detail="Not Found"),
    Case("traversal-up-from-root", "GET", "/../../etc/passwd", 404, raw=True),
    # ------------------------------------------------------------------ site
    Case(
        "site-index",
        "GET",
        "/",
        200,
        expect_headers={
            "content-type": "text/html; charset=utf-8",
            "cache-control": "public, max-age=0, must-revalidate",
            "etag": PRESENT,
        },
    ),
    Case(
        "site-unknown-page",
        "GET",
        "/gibt-es-nicht/",
        404,
        expect_headers={"cache-control": "no-store"},
    ),
    # ------------------------------------------------------------------ access requests
    post(
        "antrag-ok",
        b'{"email":"ada@example.org","zweck":"Anzeige der PFAS-Werte in der Stadt-App"}',
        202,
        json={"status": "pending"},
        expect_headers={**NO_STORE},
    ),
    post(
        "antrag-json-subtype",
        b'{"email":"grace@example.org","zweck":"Forschung zu Nitrat im Grundwasser"}',
        202,
        content_type="application/vnd.api+json; charset=utf-8",
    ),
    post(
        "antrag-extra-fields-ignored",
        b'{"email":"alan@example.org","zweck":"Ein Dashboard fuer Stadtwerke","x":1}',
        202,
    ),
    post("antrag-empty-object", b"{}"),
    post("antrag-zweck-too-short", b'{"email":"a@b.de","zweck":"kurz"}'),
    post("antrag-email-not-a-string", b'{"email":5,"zweck":"kurz"}'),
    post("antrag-null-fields", b'{"email":null,"zweck":true}'),
    post("antrag-email-no-at", b'{"email":"ab.de","zweck":"Ein hinreichend langer Zweck"}'),
    post("antrag-email-nothing-before-at", b'{"email":"@b.de","zweck":"Ein langer Zweck hier"}'),
    post("antrag-email-two-ats", b'{"email":"a@b@c","zweck":"Ein langer Zweck hier"}'),
    # Exactly one recipient: no list, no encoded word, no display name, no line break.
    post(
        "antrag-email-list-and-encoded-word",
        b'{"email":"a@example.org,=?utf-8?b?YkBleGFtcGxlLm9yZw==?=","zweck":"Ein langer Zweck"}',
    ),
    post(
        "antrag-email-encoded-word",
        b'{"email":"=?utf-8?q?a=0D=0ABcc=3A_b=40x.de?=@example.org","zweck":"Ein langer Zweck"}',
    ),
    post("antrag-email-semicolon", b'{"email":"a@x.de;b@y.de","zweck":"Ein langer Zweck hier"}'),
    post(
        "antrag-email-display-name",
        b'{"email":"Ada <a@x.de>","zweck":"Ein langer Zweck hier"}',
    ),
    post(
        "antrag-email-crlf",
        b'{"email":"a@x.de\\r\\nBcc: b@y.de","zweck":"Ein langer Zweck hier"}',
    ),
    post("antrag-email-umlaut", '{"email":"müller@x.de","zweck":"Ein langer Zweck"}'.encode()),
    post(
        "antrag-email-plus-and-punycode",
        b'{"email":"ada.l+api@xn--mller-kva.de","zweck":"Ein langer Zweck hier"}',
        202,
    ),
    post(
        "antrag-email-too-long",
        b'{"email":"' + b"a" * 250 + b'@b.de","zweck":"Ein langer Zweck hier"}',
    ),
    post("antrag-zweck-too-long", b'{"email":"a@b.de","zweck":"' + b"z" * 1001 + b'"}'),
    post("antrag-body-list", b"[1]"),
    post("antrag-body-string", b'"abc"'),
    post("antrag-body-number", b"1"),
    post("antrag-body-null", b"null"),
    post("antrag-body-empty", b""),
    post("antrag-not-json", b"nope"),
    post("antrag-truncated-json", b'{"email":"a@b.de",'),
    post("antrag-wrong-content-type", VALID_BODY, content_type="text/plain"),
    post("antrag-form-content-type", VALID_BODY, content_type="application/x-www-form-urlencoded"),
    post("antrag-no-content-type", VALID_BODY, content_type=None),
    post("antrag-not-utf8", b'{"email":"\xff"}', 400, detail="There was an error parsing the body"),
    post(
        "antrag-too-large",
        b'{"email":"a@b.de","zweck":"' + b"z" * (64 * 1024) + b'"}',
        413,
        fastapi=False,
        detail="Request body too large: at most 65536 bytes.",
    ),
    Case(
        "antrag-get-not-allowed",
        "GET",
        "/v1/keys/antrag",
        405,
        detail="Method Not Allowed",
        expect_headers={"allow": "OPTIONS, POST"},
    ),
    Case(
        "antrag-preflight",
        "OPTIONS",
        "/v1/keys/antrag",
        204,
        headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"},
        expect_headers={"access-control-allow-methods": "OPTIONS, POST"},
    ),
]

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "case ids must be unique"
