"""`trinkwasser serve`: the newcomer path (demo key + curl line) and start-up errors."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import signal
import socket
import subprocess

import httpx
import pytest
from click.testing import CliRunner

from generator.cli import cli
from tests.conformance.support import start_server

CURL = re.compile(r"^\s*(curl .*)$", re.MULTILINE)


@pytest.fixture(scope="module")
def sample(golden_site):
    return golden_site


def run_curl(line: str) -> tuple[int, str]:
    """Run the printed curl line (with real curl when installed); return status and body."""
    argv = shlex.split(line)
    if shutil.which("curl"):
        done = subprocess.run(
            [*argv[:1], "-s", "-w", "\n%{http_code}", *argv[1:]],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        body, _, status = done.stdout.rpartition("\n")
        return int(status), body
    header = argv[argv.index("-H") + 1]
    name, _, value = header.partition(": ")
    answer = httpx.get(argv[-1], headers={name: value}, timeout=10)
    return answer.status_code, answer.text


def test_demo_key_and_curl_line_give_a_real_lookup(sample, tmp_path):
    server = start_server(sample, tmp_path / "state", tmp_path / "logs", "--demo-key")
    try:
        out = server.stdout()
        key = re.search(r"demo key: (twd_[0-9A-Za-z]{32})", out).group(1)
        [line] = CURL.findall(out)
        assert key in line and server.base_url in line
        first_plz = (sample / "v1" / "export" / "plz-zonen.csv").read_text().splitlines()[1][:5]
        assert f"plz={first_plz}" in line
        status, body = run_curl(line)
        assert status == 200, body
        assert httpx.Response(200, content=body).json()["plz"] == first_plz
        assert (tmp_path / "state" / "demo-key.txt").read_text().strip() == key
    finally:
        server.stop()
    # A second start reuses the key instead of issuing another one.
    again = start_server(sample, tmp_path / "state", tmp_path / "logs2", "--demo-key")
    try:
        assert f"Existing local demo key: {key}" in again.stdout()
    finally:
        again.stop()


def test_serve_stops_cleanly_on_sigterm(sample, tmp_path):
    server = start_server(sample, tmp_path / "state", tmp_path / "logs")
    server.process.terminate()
    # Uvicorn shuts down gracefully, then re-raises the signal it caught.
    assert server.process.wait(timeout=10) in (0, -signal.SIGTERM)
    assert "Application shutdown complete" in server.stderr()


def test_serve_without_a_build_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(cli, ["serve", "--build-dir", str(tmp_path / "nothing")])
    assert result.exit_code == 1
    assert "holds no built API tree; run `trinkwasser build" in result.output


def test_serve_on_a_taken_port_is_a_clear_error(sample, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            cli,
            ["serve", "--build-dir", str(sample), "--state", str(tmp_path), "--port", str(port)],
        )
    assert result.exit_code == 1
    assert f"Error: cannot listen on 127.0.0.1:{port}" in result.output
    assert "--port" in result.output


def test_start_script_serves_with_a_demo_key():
    """scripts/start.sh ends in `serve --demo-key` on the fresh build (and passes options on)."""
    from pathlib import Path

    script = (Path(__file__).parent.parent / "scripts" / "start.sh").read_text()
    assert "trinkwasser build" in script
    assert re.search(r"exec \S*trinkwasser serve --demo-key \"\$@\"", script)


def test_the_api_reference_shows_the_demo_key_only_when_served_with_one(sample, tmp_path):
    """The built file says null; `serve --demo-key` answers its key there; build/ never holds it."""
    from generator.api import openapi, site_rules
    from generator.api.settings import KEY_HEADER, GateSettings

    address = site_rules.DEMO_KEY_PATH
    built = (sample / address.lstrip("/")).read_bytes()
    assert json.loads(built) == {"demo_key": None}
    page = (sample / "api" / "index.html").read_bytes()
    example = openapi.example_key(GateSettings())
    assert "Beispielschlüssel – funktioniert nicht".encode() in page and example.encode() in page
    plain = start_server(sample, tmp_path / "plain", tmp_path / "logs-plain")
    try:
        answer = httpx.get(plain.base_url + address)
        assert answer.status_code == 200 and answer.content == built
        # The example key the reference shows is refused, as it says.
        lookup = httpx.get(plain.base_url + "/v1/lookup?plz=76437", headers={KEY_HEADER: example})
        assert lookup.status_code == 403
    finally:
        plain.stop()
    demo = start_server(sample, tmp_path / "demo", tmp_path / "logs-demo", "--demo-key")
    try:
        key = re.search(r"demo key: (twd_[0-9A-Za-z]{32})", demo.stdout()).group(1)
        answer = httpx.get(demo.base_url + address)
        assert answer.status_code == 200
        assert answer.json() == {"demo_key": key}
        assert answer.headers["cache-control"] == "no-store"
        assert httpx.head(demo.base_url + address).status_code == 200
        # The page itself is the built one: the script puts the key in (tests/test_browser.py).
        assert httpx.get(demo.base_url + "/api/").content == page
    finally:
        demo.stop()
    assert not [p for p in sample.rglob("*") if p.is_file() and key.encode() in p.read_bytes()]
