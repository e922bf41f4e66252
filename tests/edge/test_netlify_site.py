"""The human site as netlify.toml configures it, through the emulator's CDN stand-in."""

from __future__ import annotations

import pytest

from generator.api import http

pytestmark = pytest.mark.edge


def test_search_runs_its_own_function_and_nothing_else_does(edge):
    """The search's answers are the conformance suite's; here: what serves them."""
    answer = edge.get("/suche?plz=Magdeburg")
    assert answer.status_code == 302
    assert answer.headers["location"] == "/orte/m/#ort-magdeburg"
    assert answer.headers["x-nf-edge-functions"] == "search"
    # Other methods go on to the CDN, as the Python gate serves them (no page there).
    assert edge.post("/suche?plz=76437").status_code != 302


def test_static_assets_are_cached_for_long(edge, edge_server):
    assets = sorted((edge_server.project / "build" / "static").glob("*.css"))
    assert assets, "the build has no stylesheet"
    answer = edge.get(f"/static/{assets[0].name}")
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.content == assets[0].read_bytes()


def test_pages_carry_the_security_headers(edge):
    answer = edge.get("/")
    assert answer.status_code == 200
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert answer.headers["content-security-policy"] == http.CONTENT_SECURITY_POLICY
    assert "x-nf-edge-functions" not in answer.headers  # the site is not gated


def test_feeds_robots_and_sitemap_are_served_by_the_cdn(edge, edge_server):
    build = edge_server.project / "build"
    for path, kind in (
        ("/feeds/neuigkeiten.atom", "application/atom+xml"),
        ("/robots.txt", "text/plain"),
        ("/sitemap.xml", "xml"),
    ):
        answer = edge.get(path)
        assert answer.status_code == 200, path
        assert kind in answer.headers["content-type"], (path, answer.headers["content-type"])
        assert answer.content == (build / path.lstrip("/")).read_bytes()
        assert "x-nf-edge-functions" not in answer.headers  # not gated
