"""What Netlify deploys: the manifest computed from netlify.toml and the functions' inline config.

The manifest comes from Netlify's own code (tests/edge/manifest.mjs: @netlify/config reads
netlify.toml, @netlify/edge-bundler makes the manifest), so these checks hold for a deploy,
not just for the emulator: which paths run which function, that nothing bypasses the gate
(no `cache: "manual"`, no method filter, `onError` left at "fail"), the rate limit of the
access-request endpoint (which the emulator does not enforce), and the build settings.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.edge.emulator import ROOT, run_node

pytestmark = pytest.mark.edge


@pytest.fixture(scope="module")
def deployed(edge_server) -> dict:
    return json.loads(
        run_node(str(ROOT / "tests" / "edge" / "manifest.mjs"), str(edge_server.project))
    )


def functions_for(manifest: dict, path: str) -> list[str]:
    """Which functions run for a path, by the manifest's rules (as Netlify's router does)."""
    names = []
    for route in manifest["routes"] + manifest["post_cache_routes"]:
        excluded = route["excluded_patterns"] + manifest["function_config"].get(
            route["function"], {}
        ).get("excluded_patterns", [])
        if re.search(route["pattern"], path) and not any(re.search(p, path) for p in excluded):
            names.append(route["function"])
    return names


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/v1/lookup", ["gate"]),
        ("/v1/zones/11/measurements", ["gate"]),
        ("/v1/openapi.json", ["gate"]),
        ("/v1/export/plz-zonen.parquet", ["gate"]),
        ("/v1/keys/antrag", ["access-request"]),
        ("/v1/keys/antrag/", ["access-request"]),
        ("/_data/v1/lookup/76437.json", ["gate"]),
        ("/_data", ["gate"]),
        ("//_data/v1/zones/11.json", ["gate"]),
        ("/%5Fdata/v1/zones/11.json", ["gate"]),
        ("/_DATA/v1/zones/11.json", ["gate"]),
        ("/_data%2Fv1/zones/11.json", ["gate"]),
        ("/suche", ["search"]),
        ("/", []),
        ("/plz/76437/", []),
        ("/static/site.css", []),
        ("/database/", []),
    ],
)
def test_each_path_runs_the_right_function_once(deployed, path, expected):
    assert functions_for(deployed["manifest"], path) == expected


def test_nothing_lets_a_request_past_the_gate(deployed):
    manifest = deployed["manifest"]
    assert manifest["post_cache_routes"] == []  # cache = "manual" would put routes here
    assert all("methods" not in route for route in manifest["routes"])
    for name, config in manifest["function_config"].items():
        assert config.get("on_error", "fail") == "fail", name
    for name, inline in deployed["inline"].items():
        # Paths live in netlify.toml only: an inline path would silently replace them.
        assert not {"path", "pattern", "cache", "method", "onError"} & set(inline), name


def test_access_requests_have_a_per_address_rate_limit(deployed):
    rules = deployed["manifest"]["function_config"]["access-request"]["traffic_rules"]
    config = rules["action"]["config"]
    assert rules["action"]["type"] == "rate_limit"
    assert {"type": "ip"} in config["aggregate"]["keys"]
    assert config["rate_limit_config"]["window_limit"] <= 10
    # Keyed API traffic is only limited by the daily quota, never by this limiter.
    assert "traffic_rules" not in deployed["manifest"]["function_config"].get("gate", {})


def test_build_settings(deployed):
    build = deployed["build"]
    assert build["publish"].endswith("/build")
    assert "trinkwasser build --deploy --out build" in build["command"]
    assert "pip install" in build["command"]
    assert build["environment"]["PYTHON_VERSION"].startswith("3.1")


def test_function_source_never_fetches_its_own_site():
    # fetch() to the own site would run the gate again (and loop); files come from
    # context.next() on a rewritten request.
    sources = sorted((ROOT / "netlify").rglob("*.ts"))
    assert sources
    for source in sources:
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", source.read_text(encoding="utf-8"), flags=re.S)
        assert not re.search(r"\bfetch\(", code), source
    handler = (ROOT / "netlify" / "gate" / "handler.ts").read_text(encoding="utf-8")
    assert "context.next(new Request(new URL(" in handler
