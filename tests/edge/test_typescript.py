"""The edge code type-checks (strict) and lints clean with the Deno the functions run on."""

from __future__ import annotations

import json
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


def test_tables_copied_from_the_python_gate_are_the_same():
    from generator.gate import app

    script = (
        'import { CONTENT_TYPES, EXPOSED } from "./netlify/gate/handler.ts";'
        "console.log(JSON.stringify({ types: CONTENT_TYPES, exposed: EXPOSED }));"
    )
    done = deno("eval", "--quiet", script, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    tables = json.loads(done.stdout)
    assert tables == {"types": app.CONTENT_TYPES, "exposed": app.EXPOSED}


def test_handler_unit_tests():
    """tests/edge/handler_test.ts: busy state, CDN errors, id collisions, DST (fakes)."""
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
    assert "4 passed" in done.stdout, done.stdout
