"""Conformance of a running gate over real HTTP: every case of `cases.py`, plus the sequences.

Expected 400/422 bodies are not written down: they come from a real FastAPI app declared
from the same route table (`reference.py`), and the gate's bytes must be identical.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import http.client
import json
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import httpx
import pytest

from tests.conformance.cases import CASES, CASES_BY_ID, PRESENT, VALID_BODY, Case, Contains
from tests.conformance.reference import reference_app
from tests.conformance.support import event_loop_thread


@pytest.fixture(scope="session")
def portal():
    with event_loop_thread() as portal:
        yield portal


@pytest.fixture(scope="session")
def reference(portal):
    """Send a case to the FastAPI reference app in-process and return its response."""
    transport = httpx.ASGITransport(app=reference_app())
    client = httpx.AsyncClient(transport=transport, base_url="http://reference")

    def ask(case: Case) -> httpx.Response:
        request = functools.partial(
            client.request, case.method, case.target, headers=_headers(case, None)
        )
        return portal.call(functools.partial(request, content=case.body))

    yield ask
    portal.call(client.aclose)


def _headers(case: Case, gate) -> dict[str, str]:
    headers = dict(case.headers)
    if case.content_type is not None:
        headers["Content-Type"] = case.content_type
    if case.key is not None and gate is not None:
        headers[case.key_header] = gate.key(case.key)
    return headers


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


def send(gate, case: Case) -> Answer:
    """Send a case to the gate over loopback; `raw` cases bypass URL normalisation."""
    headers = _headers(case, gate)
    if case.raw:
        parts = urlsplit(gate.base_url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        try:
            conn.request(case.method, case.target, body=case.body, headers=headers)
            response = conn.getresponse()
            body = response.read()
            got = {k.lower(): v for k, v in response.getheaders()}
            return Answer(response.status, got, body)
        finally:
            conn.close()
    response = gate.client.request(case.method, case.target, headers=headers, content=case.body)
    return Answer(response.status_code, dict(response.headers), response.content)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(gate, reference, case: Case):
    answer = send(gate, case)
    context = f"{case.method} {case.target} -> {answer.status} {answer.body[:300]!r}"
    if case.fastapi:
        expected = reference(case)
        if expected.status_code in (400, 422):
            assert (answer.status, answer.body) == (expected.status_code, expected.content), (
                f"not identical to FastAPI: {context}\nFastAPI: {expected.content!r}"
            )
        else:
            assert answer.status not in (400, 422), f"FastAPI accepts this request: {context}"
    assert answer.status == case.status, context
    if case.detail is not None:
        assert answer.json() == {"detail": case.detail}, context
    if case.json is not None:
        body = answer.json()
        assert {k: body.get(k) for k in case.json} == case.json, context
    for name, value in case.expect_headers.items():
        got = answer.headers.get(name)
        if value is PRESENT:
            assert got, f"header {name} missing: {context}"
        elif isinstance(value, Contains):
            assert value.item in [v.strip() for v in (got or "").split(",")], (name, got)
        else:
            assert got == value, f"header {name}: {got!r} != {value!r} ({context})"
    for name in case.absent_headers:
        assert name not in answer.headers, f"header {name} must be absent: {context}"
    if case.empty_body or case.method == "HEAD":
        assert answer.body == b"", context


def operation_of(case: Case) -> str | None:
    """Route a case through the table as a gate does: the operation its request reaches.

    None when the request reaches no operation: a refused path, a static file, another method
    than the route's (405) or a preflight.
    """
    from generator.api.routes import ROUTES
    from generator.gate.responses import split_path

    target = case.target if case.target.startswith("/") else "/"
    segments = split_path(target.split("?", 1)[0].encode("ascii"))
    if segments is None or any(s.startswith(".") for s in segments):
        return None
    method = "GET" if case.method == "HEAD" else case.method
    found = [r for r in ROUTES if r.method == method and r.match(segments) is not None]
    return found[0].operation_id if found else None


def test_every_operation_and_status_is_exercised():
    """Guard the suite itself: every operation of the table, and every status, has cases."""
    from generator.api.routes import ROUTES

    reached: dict[str, set[int]] = {}
    for case in CASES:
        operation = operation_of(case)
        if operation is not None:
            reached.setdefault(operation, set()).add(case.status)
    uncovered = [r.operation_id for r in ROUTES if r.operation_id not in reached]
    assert not uncovered, f"no conformance case reaches these operations: {uncovered}"
    # Each operation also succeeds at least once, and each fallible one is refused once.
    never_ok = [r.operation_id for r in ROUTES if r.status not in reached[r.operation_id]]
    assert not never_ok, f"no case gets a success from: {never_ok}"
    never_422 = [
        r.operation_id
        for r in ROUTES
        if any(p.can_fail for p in r.params) and 422 not in reached[r.operation_id]
    ]
    assert not never_422, f"no case gets a 422 from: {never_422}"
    statuses = {c.status for c in CASES}
    assert {200, 202, 204, 400, 401, 403, 404, 405, 413, 422, 429} <= statuses


def test_the_guard_routes_like_a_gate():
    """operation_of must not count a case that a gate refuses before any route."""
    case = CASES_BY_ID
    assert operation_of(case["lookup-ok"]) == "lookup"
    assert operation_of(case["lookup-head"]) == "lookup"
    assert operation_of(case["antrag-ok"]) == "access_request"
    assert operation_of(case["lookup-post-not-allowed"]) is None
    assert operation_of(case["traversal-encoded-slash"]) is None
    assert operation_of(case["limits-code-dot-file"]) is None
    assert operation_of(case["file-openapi"]) is None


# ---------------------------------------------------------------------------- sequences


def _get(gate, path: str, key: str | None = None, **headers: str) -> httpx.Response:
    if key is not None:
        headers["X-Api-Key"] = key
    return gate.client.get(path, headers=headers)


def test_etag_and_if_none_match(gate):
    key = gate.new_key()
    first = _get(gate, "/v1/zones/11", key)
    etag = first.headers["etag"]
    assert first.status_code == 200 and etag.startswith('"')
    again = _get(gate, "/v1/zones/11", key, **{"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    assert again.headers["cache-control"] == "private, max-age=300"
    # A 304 is an answered keyed request: it counts.
    assert int(again.headers["x-ratelimit-remaining"]) == 998
    weak_in_list = _get(gate, "/v1/zones/11", key, **{"If-None-Match": f'"x", W/{etag}'})
    assert weak_in_list.status_code == 304
    stale = _get(gate, "/v1/zones/11", key, **{"If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.content == first.content
    other = _get(gate, "/v1/zones/12", key)
    assert other.headers["etag"] != etag
    # Open files: the same rules, public caching.
    export = _get(gate, "/v1/export/plz-zonen?format=csv")
    cached = _get(
        gate, "/v1/export/plz-zonen?format=csv", **{"If-None-Match": export.headers["etag"]}
    )
    assert cached.status_code == 304 and cached.headers["cache-control"] == "public, max-age=300"


def test_head_is_get_without_body(gate):
    key = gate.new_key()
    for path in ("/v1/lookup?plz=76437", "/v1/parameters", "/v1/export/plz-zonen?format=csv", "/"):
        got = _get(gate, path, key)
        head = gate.client.head(path, headers={"X-Api-Key": key})
        assert head.status_code == got.status_code == 200
        assert head.content == b""
        assert int(head.headers["content-length"]) == len(got.content)
        ignore = {"date", "x-ratelimit-remaining"}
        assert {k: v for k, v in head.headers.items() if k not in ignore} == {
            k: v for k, v in got.headers.items() if k not in ignore
        }


def test_head_goes_through_the_gate(gate):
    assert gate.client.head("/v1/lookup?plz=76437").status_code == 401
    assert gate.client.head("/v1/lookup?plz=abc").status_code == 422
    assert gate.client.head("/_data/v1/lookup/76437.json").status_code == 404


def test_quota_headers_count_down_and_reset_at_berlin_midnight(gate):
    key = gate.new_key()
    first = _get(gate, "/v1/lookup?plz=76437", key)
    second = _get(gate, "/v1/zones/12", key)
    assert first.headers["x-ratelimit-limit"] == "1000"
    assert first.headers["x-ratelimit-remaining"] == "999"
    assert second.headers["x-ratelimit-remaining"] == "998"
    reset = dt.datetime.fromtimestamp(
        int(first.headers["x-ratelimit-reset"]), ZoneInfo("Europe/Berlin")
    )
    now = dt.datetime.now(ZoneInfo("Europe/Berlin"))
    assert (reset.hour, reset.minute, reset.second) == (0, 0, 0)
    assert dt.timedelta(0) < reset - now <= dt.timedelta(hours=25)


def test_thousandth_request_passes_and_the_next_is_refused(gate):
    key = gate.new_key(used=998)
    assert _get(gate, "/v1/zones/11", key).headers["x-ratelimit-remaining"] == "1"
    last = _get(gate, "/v1/zones/11", key)
    assert last.status_code == 200 and last.headers["x-ratelimit-remaining"] == "0"
    refused = _get(gate, "/v1/zones/11", key)
    assert refused.status_code == 429
    retry_after = int(refused.headers["retry-after"])
    assert 0 < retry_after <= 25 * 3600
    assert "resets at midnight Europe/Berlin" in refused.json()["detail"]
    # The open resources are not counted and stay available.
    assert _get(gate, "/v1/parameters", key).status_code == 200


def test_fifty_concurrent_requests_with_twenty_left(gate, portal):
    """Exactly 20 of 50 requests at once are counted, however fast the machine is.

    A gate whose quota counter is contended may answer 503 with `Retry-After` (the edge
    gate's compare-and-swap gives up after a bounded number of tries, and how often two
    requests collide depends on the machine's speed): that answer counted nothing, so the
    client tries again as asked, as a real client would. What must hold is the count.
    """
    key = gate.new_key(used=980)

    async def one(client: httpx.AsyncClient) -> list[int]:
        statuses: list[int] = []
        for _ in range(20):  # bounded: a gate that only ever says 503 fails the test
            answer = await client.get("/v1/lookup?plz=76437", headers={"X-Api-Key": key})
            statuses.append(answer.status_code)
            if answer.status_code != 503:
                break
            await asyncio.sleep(float(answer.headers["retry-after"]))
        return statuses

    async def burst() -> list[list[int]]:
        limits = httpx.Limits(max_connections=50)
        # A guard against a hang, not a time limit: a busy machine may take long.
        async with httpx.AsyncClient(base_url=gate.base_url, limits=limits, timeout=300) as client:
            return await asyncio.gather(*(one(client) for _ in range(50)))

    tries = portal.call(burst)
    final = [statuses[-1] for statuses in tries]
    assert final.count(200) == 20, tries
    assert final.count(429) == 30, tries
    assert all(status == 503 for statuses in tries for status in statuses[:-1]), tries


def test_revocation_applies_to_the_next_request(gate):
    key = gate.new_key()
    assert _get(gate, "/v1/suppliers/1", key).status_code == 200
    gate.revoke(key)
    refused = _get(gate, "/v1/suppliers/1", key)
    assert refused.status_code == 403
    assert refused.json() == {"detail": "This API key has been revoked."}


def test_access_request_is_stored_before_the_answer(gate):
    body = {"email": "lise@example.org", "zweck": "Wasserhärte für die Kaffeemaschine"}
    answer = gate.client.post("/v1/keys/antrag", json=body)
    assert answer.status_code == 202
    data = answer.json()
    assert set(data) == {"detail", "request_id", "status"}
    assert data["status"] == "pending"
    assert "twd_" not in answer.text and "key" not in {k.lower() for k in data}
    stored = gate.stored_request(data["request_id"])
    assert (stored.email, stored.zweck, stored.status) == (body["email"], body["zweck"], "pending")


def test_access_request_burst_limit_per_address(gate):
    url = "/v1/keys/antrag"
    body = {"email": "flood@example.org", "zweck": "Sehr viele Anfragen hintereinander"}
    answers = [gate.client.post(url, json=body) for _ in range(4)]
    assert [a.status_code for a in answers] == [202, 202, 202, 429]
    assert int(answers[3].headers["retry-after"]) > 0
    assert "Too many access requests for this address" in answers[3].json()["detail"]
    # Another address is not affected, and neither is the same address in other letters' case.
    other = gate.client.post(url, json=dict(body, email="calm@example.org"))
    assert other.status_code == 202
    shouted = gate.client.post(url, json=dict(body, email="FLOOD@example.org"))
    assert shouted.status_code == 429


def test_chunked_body_over_the_limit_is_refused(gate):
    def chunks():
        yield b'{"email":"a@b.de","zweck":"'
        for _ in range(20):
            yield b"z" * 4096
        yield b'"}'

    answer = gate.client.post(
        "/v1/keys/antrag",
        content=chunks(),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 413
    assert answer.json() == {"detail": "Request body too large: at most 65536 bytes."}


def test_body_at_the_limit_is_read(gate):
    zweck = "z" * (64 * 1024 - len(b'{"email":"max@b.de","zweck":""}'))
    body = json.dumps({"email": "max@b.de", "zweck": zweck}, separators=(",", ":")).encode()
    assert len(body) == 64 * 1024
    answer = gate.client.post(
        "/v1/keys/antrag",
        content=body,
        headers={"Content-Type": "application/json"},
    )
    # Read in full, then refused for the length of `zweck`, not for the size of the body.
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["type"] == "string_too_long"


def test_site_directories_redirect_to_their_slash(gate):
    pages = sorted(
        p.parent.relative_to(gate.build_dir).as_posix()
        for p in gate.build_dir.glob("*/index.html")
        if p.parent.name not in ("v1", "_data")
    )
    if not pages:
        pytest.skip("the build has no site pages")
    page = pages[0]
    moved = gate.client.get(f"/{page}")
    assert moved.status_code == 301 and moved.headers["location"] == f"/{page}/"
    shown = gate.client.get(f"/{page}/")
    assert shown.status_code == 200
    assert shown.headers["content-type"] == "text/html; charset=utf-8"
    assert shown.content == (gate.build_dir / page / "index.html").read_bytes()


def test_site_static_assets_have_their_types(gate):
    expected = {
        ".css": "text/css; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".svg": "image/svg+xml; charset=utf-8",
    }
    assets = [p for p in sorted((gate.build_dir / "static").rglob("*")) if p.suffix in expected]
    if not assets:
        pytest.skip("the build has no static assets")
    for asset in assets:
        rel = asset.relative_to(gate.build_dir).as_posix()
        answer = gate.client.get(f"/{rel}")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == expected[asset.suffix]
        assert answer.content == asset.read_bytes()


def test_unknown_site_page_answers_the_404_page(gate):
    answer = gate.client.get("/nirgends/")
    assert answer.status_code == 404
    page = gate.build_dir / "404.html"
    if page.exists():
        assert answer.content == page.read_bytes()
        assert answer.headers["content-type"] == "text/html; charset=utf-8"
    else:
        assert answer.json() == {"detail": "Not Found"}


SEARCHES = {
    "76437": "/plz/76437/",
    " 04109 Leipzig": "/plz/04109/",
    "4109": "/plz/04109/",
    "Altötting": "/plz/84503/",
    "altoetting": "/plz/84503/",
    "ALTÖTTING": "/plz/84503/",
    "Altotting": "/plz/84503/",
    "Magdeburg": "/orte/m/#ort-magdeburg",
    "mAgDeBuRg ": "/orte/m/#ort-magdeburg",
    "Atlantis": "/orte/",
    "": "/orte/",
}
"""What the golden build's search leads to: a PLZ, a place with one PLZ (its page), one with
two (its entry in the A-Z index), anything else (the index)."""


def test_search_form_leads_to_a_plz_a_place_or_the_index(gate):
    for typed, target in SEARCHES.items():
        answer = gate.client.get("/suche", params={"plz": typed})
        assert answer.status_code == 302, typed
        assert answer.headers["location"] == target, typed
        assert answer.headers["cache-control"] == "no-store"
        page = gate.client.get(target.split("#")[0])
        assert page.status_code == 200, target
        if "#" in target:
            assert f'id="{target.split("#")[1]}"' in page.text
    for query in ("", "?x=1", "?plz=Leipzig&plz=76437"):
        answer = gate.client.get("/suche" + query)
        want = "/plz/04109/" if "Leipzig" in query else "/orte/"
        assert (answer.status_code, answer.headers["location"]) == (302, want), query
    head = gate.client.head("/suche?plz=76437")
    assert (head.status_code, head.headers["location"]) == (302, "/plz/76437/")


def test_valid_body_constant_is_accepted_by_fastapi(reference):
    """The shared body of the content-type cases is itself valid (so only the type fails)."""
    case = Case(
        "x", "POST", "/v1/keys/antrag", 202, body=VALID_BODY, content_type="application/json"
    )
    assert reference(case).status_code == 202
