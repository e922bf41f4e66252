"""The real edge function in Netlify's emulator: what the conformance suite does not cover.

The conformance suite (tests/conformance, gate "edge") holds both gates to the same answers.
These tests prove the function itself ran, that no spelling of a hidden path reaches a hidden
file, how HEAD and the state in Netlify Blobs look, and the operator's loop end to end.
"""

from __future__ import annotations

import hashlib
import json

import httpx
import pytest
from click.testing import CliRunner

from generator.api.settings import GateSettings
from generator.cli import cli
from generator.gate import keys as key_tools
from generator.gate.netlify_blobs import STORES

pytestmark = pytest.mark.edge

HIDDEN = "_data/v1/lookup/76437.json"


@pytest.fixture(scope="module")
def key(edge_server) -> str:
    """Issue a fresh active key into the emulator's Blobs sandbox."""
    prefix = GateSettings().key_prefix
    return key_tools.issue(edge_server.state(), "tests@example.org", prefix).key


def test_the_function_runs_and_refuses_a_request_without_key(edge):
    # The emulator serves files ungated when the function fails to load: a 401 proves it ran.
    answer = edge.get("/v1/lookup?plz=76437")
    assert answer.status_code == 401
    assert answer.headers["x-nf-edge-functions"] == "gate"
    assert answer.headers["www-authenticate"] == 'ApiKey header="X-Api-Key"'


def test_a_hidden_file_is_served_with_a_key(edge, edge_server, key):
    answer = edge.get("/v1/lookup?plz=76437", headers={"X-Api-Key": key})
    assert answer.status_code == 200
    data = (edge_server.project / "build" / HIDDEN).read_bytes()
    assert answer.content == data
    assert answer.headers["etag"] == '"' + hashlib.sha256(data).hexdigest()[:32] + '"'
    assert answer.headers["content-type"] == "application/json; charset=utf-8"
    assert answer.headers["cache-control"] == "private, max-age=300"
    assert (
        answer.headers["link"] == '<https://opendatacommons.org/licenses/odbl/1-0/>; rel="license"'
    )


@pytest.mark.parametrize(
    "target",
    [
        "/" + HIDDEN,
        "//" + HIDDEN,
        "///" + HIDDEN,
        "/x/..//" + HIDDEN,
        "/.//" + HIDDEN,
        "/%2F" + HIDDEN,
        "/%5Fdata/v1/lookup/76437.json",
        "/%5fdata/v1/lookup/76437.json",
        "/_DATA/v1/lookup/76437.json",
        "/_Data/v1/lookup/76437.json",
        "/_dat%61/v1/lookup/76437.json",
        "/_data%2Fv1/lookup/76437.json",
        "/_data",
        "/_data/",
        "/v1/../" + HIDDEN,
        "/v1/%2e%2e/" + HIDDEN,
    ],
)
@pytest.mark.parametrize("with_key", [False, True], ids=["no-key", "key"])
def test_no_spelling_of_a_hidden_path_reaches_the_file(edge_server, key, target, with_key):
    # Sent as written (no client-side normalisation), with and without a valid key.
    headers = {"X-Api-Key": key} if with_key else {}
    with httpx.Client(base_url=edge_server.url) as client:
        request = client.build_request("GET", "/", headers=headers)
        request.url = request.url.copy_with(raw_path=target.encode())
        answer = client.send(request)
    hidden = (edge_server.project / "build" / HIDDEN).read_bytes()
    assert answer.status_code == 404, (target, answer.status_code)
    assert answer.content != hidden


def test_head_is_get_without_body_except_the_length(edge, key):
    for path in ("/v1/zones/11", "/v1/parameters", "/v1/export/plz-zonen?format=csv"):
        got = edge.get(path, headers={"X-Api-Key": key})
        head = edge.head(path, headers={"X-Api-Key": key})
        assert (head.status_code, head.content) == (got.status_code, b"")
        # Netlify's edge runtime drops Content-Length from function answers (see
        # tests/conformance/conftest.py); every other header is the GET's.
        ignore = {"date", "x-ratelimit-remaining", "content-length", "x-nf-fetch-timing"}
        assert {k: v for k, v in head.headers.items() if k not in ignore} == {
            k: v for k, v in got.headers.items() if k not in ignore
        }


def test_conditional_and_range_headers_do_not_reach_the_cdn(edge, key):
    # The gate computes its ETag from the whole file: a Range or a CDN 304 would break it.
    answer = edge.get(
        "/v1/zones/11",
        headers={"X-Api-Key": key, "Range": "bytes=0-9", "If-Modified-Since": "Sun, 1 Jan 2090"},
    )
    assert answer.status_code == 200
    assert json.loads(answer.content)["zone_id"] == 11


def test_state_in_blobs_matches_the_answers(edge, edge_server, key):
    state = edge_server.state()
    key_id = state.key_by_hash(key_tools.hash_key(key)).id
    before = state.used(key_id)
    answer = edge.get("/v1/zones/12", headers={"X-Api-Key": key})
    assert int(answer.headers["x-ratelimit-remaining"]) == 1000 - (before + 1)
    assert state.used(key_id) == before + 1

    body = {"email": "Blob@Example.org", "zweck": "Prüfen, wie der Antrag gespeichert wird"}
    accepted = edge.post("/v1/keys/antrag", json=body)
    assert accepted.status_code == 202
    stored = state.get_request(accepted.json()["request_id"])
    assert (stored.email, stored.zweck, stored.status) == (body["email"], body["zweck"], "pending")
    record = json.loads(edge_server.blobs.get(STORES["requests"], stored.id).data)
    assert set(record) == {"id", "email", "zweck", "status", "created_at"}


def test_operator_loop_with_the_cli(edge, edge_server):
    """Request in production -> `keys requests --from netlify` -> approve -> works -> revoke."""
    runner = CliRunner()

    def keys(*args: str) -> str:
        result = runner.invoke(cli, ["keys", *args, "--from", "netlify"], env=edge_server.env())
        assert result.exit_code == 0, result.output
        return result.output

    body = {"email": "betrieb@example.org", "zweck": "Ende-zu-Ende-Test des Betreibers"}
    request_id = edge.post("/v1/keys/antrag", json=body).json()["request_id"]
    assert request_id in keys("requests")

    approved = keys("approve", request_id)
    key = next(line.split()[-1] for line in approved.splitlines() if "shown only now" in line)
    assert key.startswith("twd_")
    # Only the hash reached Blobs: the key itself is nowhere in the store.
    stored = [
        edge_server.blobs.get(STORES["keys"], k).data for k in edge_server.blobs.keys("api-keys")
    ]
    assert not any(key.encode() in blob for blob in stored)

    works = edge.get("/v1/suppliers/1", headers={"X-Api-Key": key})
    assert works.status_code == 200
    assert works.headers["x-ratelimit-remaining"] == "999"
    listing = keys("list")
    line = next(line for line in listing.splitlines() if "betrieb@example.org" in line)
    assert "active" in line and "today 1/1000" in line
    assert "approved" in keys("requests", "--status", "all")

    keys("revoke", line.split()[0])
    refused = edge.get("/v1/suppliers/1", headers={"X-Api-Key": key})
    assert refused.status_code == 403
    assert refused.json() == {"detail": "This API key has been revoked."}


def test_operator_cannot_decide_a_request_twice(edge, edge_server):
    runner = CliRunner()
    body = {"email": "zweimal@example.org", "zweck": "Zweimal entscheiden geht nicht"}
    request_id = edge.post("/v1/keys/antrag", json=body).json()["request_id"]
    args = ["keys", "reject", request_id, "--reason", "Test", "--from", "netlify"]
    assert runner.invoke(cli, args, env=edge_server.env()).exit_code == 0
    again = runner.invoke(
        cli, ["keys", "approve", request_id, "--from", "netlify"], env=edge_server.env()
    )
    assert again.exit_code == 1
    assert "already rejected" in again.output
    # No key was left behind by the refused approval.
    keys = edge_server.state().list_keys()
    assert not [k for k in keys if k.request_id == request_id]


def test_from_netlify_without_credentials_says_what_is_missing(edge_server):
    result = CliRunner().invoke(
        cli,
        ["keys", "requests", "--from", "netlify"],
        env={"NETLIFY_SITE_ID": "", "NETLIFY_AUTH_TOKEN": ""},
    )
    assert result.exit_code == 1
    assert "NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN" in result.output
