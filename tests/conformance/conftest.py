"""The `gate` fixture: a running gate on loopback, with keys of every kind.

Parametrised by gate: "python" is `trinkwasser serve` in a subprocess; "edge" is the Netlify
edge function in the local emulator (tests/edge/emulator.py, marker `edge`) with the same
interface, so every conformance case runs against both.
"""

from __future__ import annotations

import httpx
import pytest

from generator.gate import keys as key_tools
from generator.gate.sqlite_state import open_state
from tests.conformance.support import Server, start_server
from tests.edge.emulator import EdgeGate, edge_server  # noqa: F401  (fixture)

IDENTITY = {"Accept-Encoding": "identity"}
GATES = ["python", pytest.param("edge", marks=pytest.mark.edge)]


class PythonGate:
    """`trinkwasser serve` on a free port; keys are made through the state module."""

    name = "python"

    def __init__(self, server: Server, state_dir, build_dir):
        self.server = server
        self.base_url = server.base_url
        # One client for the session: a new httpx client per request costs ~50 ms (SSL setup).
        # Uncompressed, as the edge gate answers (the CDN compresses there): compression of
        # the Python gate has its own tests (tests/test_gate_http.py).
        self.client = httpx.Client(base_url=server.base_url, timeout=10, headers=IDENTITY)
        self.build_dir = build_dir
        self.state = open_state(state_dir)
        prefix = self.state.settings.key_prefix
        self._keys = {
            "valid": key_tools.issue(self.state, "valid@example.org", prefix).key,
            "exhausted": key_tools.issue(self.state, "busy@example.org", prefix).key,
            "unknown": key_tools.new_key(prefix),
            "empty": "",
        }
        revoked = key_tools.issue(self.state, "gone@example.org", prefix)
        self.state.revoke_key(revoked.api_key.id)
        self._keys["revoked"] = revoked.key

    def key(self, kind: str) -> str:
        """Return a key of the named kind; `exhausted` has used up today's quota right now."""
        key = self._keys[kind]
        if kind == "exhausted":
            self.use_up(key)
        return key

    def new_key(self, used: int = 0) -> str:
        """Return a fresh active key that has already made `used` requests today."""
        issued = key_tools.issue(self.state, "fresh@example.org", self.state.settings.key_prefix)
        for _ in range(used):
            assert self.state.consume(issued.api_key.id).allowed
        return issued.key

    def use_up(self, key: str) -> None:
        """Count requests of `key` until today's quota is used up."""
        api_key = self.state.key_by_hash(key_tools.hash_key(key))
        while self.state.consume(api_key.id).allowed:
            pass

    def revoke(self, key: str) -> None:
        self.state.revoke_key(self.state.key_by_hash(key_tools.hash_key(key)).id)

    def stored_request(self, request_id: str):
        """Return the stored access request (email, zweck, status)."""
        return self.state.get_request(request_id)

    def logs(self) -> str:
        return self.server.stderr()


@pytest.fixture(scope="session")
def gate_build(golden_site):
    """Return the golden build of the session (with its `-gate` directory beside it)."""
    return golden_site


@pytest.fixture(scope="session", params=GATES)
def gate(request, gate_build, tmp_path_factory):
    """Run a gate serving the sample build."""
    if request.param == "edge":
        edge_gate = EdgeGate(request.getfixturevalue("edge_server"))
        yield edge_gate
        edge_gate.client.close()
        return
    root = tmp_path_factory.mktemp(f"gate-{request.param}")
    server = start_server(gate_build, root / "state", root / "logs", "--no-access-log")
    try:
        python_gate = PythonGate(server, root / "state", gate_build)
        yield python_gate
        python_gate.client.close()
    finally:
        server.stop()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Attach the gate's stderr to the report of a failed test that used it."""
    report = yield
    gate = item.funcargs.get("gate") if hasattr(item, "funcargs") else None
    if report.failed and gate is not None:
        report.sections.append((f"{gate.name} gate stderr (last 4000 chars)", gate.logs()[-4000:]))
    return report


# On Netlify the CDN, not the gate, answers every path outside /v1/ and /_data/ but the
# search (its own edge function): the site and its 404 page. The local emulator's static
# server is not production's (no ETag, no 404.html), so these say nothing about the edge gate;
# tests/edge/test_netlify_site.py checks what netlify.toml configures instead.
SERVED_BY_THE_CDN = {
    "site-index",
    "site-unknown-page",
    "traversal-double-slash",
    "traversal-absolute-form",
    "traversal-absolute-form-hidden",
    "test_site_directories_redirect_to_their_slash",
    "test_site_static_assets_have_their_types",
    "test_unknown_site_page_answers_the_404_page",
}
# Netlify's edge runtime removes Content-Length from every function response (its bootstrap
# deletes the header), so a HEAD answer cannot carry the length of the GET body. Strict: if
# the runtime ever keeps it, these start passing and the suite says so.
EDGE_RUNTIME_LIMITS = {
    "lookup-head": "no Content-Length on HEAD from an edge function",
    "test_head_is_get_without_body": "no Content-Length on HEAD from an edge function",
}


def pytest_collection_modifyitems(items):
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if params.get("gate") != "edge":
            continue
        name = params["case"].id if "case" in params else item.originalname
        if name in SERVED_BY_THE_CDN:
            item.add_marker(pytest.mark.skip(reason="served by Netlify's CDN, not the gate"))
        elif name in EDGE_RUNTIME_LIMITS:
            item.add_marker(pytest.mark.xfail(strict=True, reason=EDGE_RUNTIME_LIMITS[name]))
