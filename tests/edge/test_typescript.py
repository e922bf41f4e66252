"""The edge code type-checks (strict) and lints clean with the Deno the functions run on."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.edge.emulator import ROOT, tool, tool_env

pytestmark = pytest.mark.edge


def deno(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [tool("deno"), *args], cwd=cwd, env=tool_env(), capture_output=True, text=True
    )


def test_functions_type_check(edge_server):
    # In the built project: the functions import build-gate/routes.json, written by the build.
    functions = sorted(
        str(p) for p in (edge_server.project / "netlify" / "edge-functions").glob("*.ts")
    )
    done = deno("check", "--quiet", *functions, cwd=edge_server.project)
    assert done.returncode == 0, done.stdout + done.stderr


def test_edge_code_lints_clean():
    done = deno("lint", "--quiet", "netlify", "tests/edge", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


MAPS = {"content_types", "messages"}
"""Members of routes.json whose keys are data (suffixes, parameter names, message names)."""


def _code(*folders: str) -> str:
    """Return the TypeScript under the folders, comments removed."""
    files = sorted(p for folder in folders for p in (ROOT / folder).rglob("*.ts"))
    text = "\n".join(p.read_text(encoding="utf-8") for p in files)
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def _field_names(value, path: tuple[str, ...] = ()) -> set[str]:
    """Every member name of routes.json, except the keys of its lookup tables."""
    names: set[str] = set()
    if isinstance(value, list):
        for item in value:
            names |= _field_names(item, path)
    elif isinstance(value, dict):
        for name, item in value.items():
            if not path or path[-1] not in MAPS:
                names.add(name)
            names |= _field_names(item, (*path, name))
    return names


def test_the_edge_code_reads_every_member_of_routes_json():
    """routes.json carries only what the edge gate needs: each member is read somewhere."""
    from generator.api.settings import GateSettings, routes_document

    code = _code("netlify", "tests/edge")
    names = _field_names(routes_document(GateSettings()))
    unread = sorted(n for n in names if not re.search(rf"\.{n}\b|\[\"{n}\"\]", code))
    assert not unread, f"routes.json members no edge code reads: {unread}"


def test_netlify_holds_no_copied_message_or_table():
    """Messages, content types and header values come from routes.json, never typed twice."""
    from generator.api import http
    from generator.api.messages import MESSAGES, VALIDATION_MESSAGES
    from generator.api.settings import BLOB_STORES

    code = _code("netlify")
    words = [m.detail for m in MESSAGES.values()] + list(VALIDATION_MESSAGES.values())
    # The fixed part of each template (before its first placeholder), if it says something.
    fragments = {w.split("{")[0] for w in words} | set(http.CONTENT_TYPES.values())
    fragments |= {", ".join(http.EXPOSED_HEADERS), http.CACHE["site"], http.HIDDEN_DIR}
    fragments |= {name for name in BLOB_STORES.values() if "-" in name}  # "quota" is a word
    copied = sorted(f for f in fragments if len(f) > 4 and f in code)
    assert not copied, f"copied into netlify/ instead of read from routes.json: {copied}"


def test_handler_unit_tests():
    """tests/edge/handler_test.ts: busy state, CDN and Blobs failures, ids, DST, stored gzip."""
    from generator.api.settings import GateSettings, routes_document

    env = {**tool_env(), "ROUTES_JSON": json.dumps(routes_document(GateSettings()))}
    done = subprocess.run(
        [
            tool("deno"),
            "test",
            "--quiet",
            "--allow-env",
            "--allow-read",
            "tests/edge/handler_test.ts",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "8 passed" in done.stdout, done.stdout
