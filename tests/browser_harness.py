"""What the browser tests share: the sample served by the real gate, Debian's Chromium, pages.

The bundled sample is built once and served by `trinkwasser serve` on loopback. Every page
opens in a fresh context that aborts (and records) any request leaving loopback and collects
console errors; a failing test leaves a screenshot under test-artifacts/. Test modules import
the fixtures they use from here.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from generator.api import routes

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parents[1] / "test-artifacts"
LOOPBACK = ("127.0.0.1", "localhost", "[::1]", "::1")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, proc: subprocess.Popen, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    proc.kill()
    out, err = proc.communicate(timeout=5)
    pytest.fail(f"server did not start at {url}:\n{out.decode()}\n{err.decode()}")


@pytest.fixture(scope="module")
def server(sample_build, tmp_path_factory):
    """Serve the sample through the real gate; yield (base URL, state directory)."""
    state = tmp_path_factory.mktemp("gate-state")
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "serve",
            "--build-dir",
            str(sample_build),
            "--state",
            str(state),
            "--port",
            str(port),
            "--no-access-log",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    wait_for(base + "/", proc)
    yield base, state
    proc.terminate()
    proc.wait(timeout=10)


# Module scope, not session: Playwright's sync API keeps an event loop running in this
# thread while it is open, which would break later tests that start their own loop.
@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test.sh installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class Watch:
    """What a page did that it should not: errors on the console, requests off loopback."""

    def __init__(self):
        self.console: list[str] = []
        self.foreign: list[str] = []

    def route(self, route):
        host = urlsplit(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:")) or host in LOOPBACK:
            route.continue_()
        else:
            self.foreign.append(route.request.url)
            route.abort()


@pytest.fixture
def watch():
    return Watch()


def open_page(browser, watch: Watch, request, width=1200, locale="de-DE", **options):
    """Yield a page in a fresh context `width` pixels wide; check it on the way out."""
    context = browser.new_context(
        viewport={"width": width, "height": 900}, locale=locale, **options
    )
    context.route("**/*", watch.route)
    page = context.new_page()
    page.on(
        "console", lambda m: m.type == "error" and watch.console.append(f"{page.url}: {m.text}")
    )
    page.on("pageerror", lambda e: watch.console.append(f"{page.url}: {e}"))
    page.set_default_timeout(10_000)
    failed_before = request.session.testsfailed
    yield page
    # The call phase is reported before fixtures are torn down: keep evidence of a failure.
    if request.session.testsfailed > failed_before:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    context.close()
    assert not watch.foreign, f"requests left loopback: {watch.foreign}"


@pytest.fixture
def page(browser, watch, request):
    yield from open_page(browser, watch, request)


@pytest.fixture
def page_without_js(browser, watch, request):
    yield from open_page(browser, watch, request, java_script_enabled=False)


def lookups(build: Path) -> list[dict]:
    return [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((build / "_data" / "v1" / "lookup").glob("*.json"))
    ]


def plz_with_pfas_chart(build: Path) -> tuple[str, int]:
    for doc in lookups(build):
        zone = doc["zones"][0]["zone_id"]
        if (
            build / routes.file_path("zone_measurements", zone_id=zone, parameter="pfas_summe_20")
        ).is_file():
            return doc["plz"], zone
    raise AssertionError("the sample has no zone with PFAS-20 values")


def no_console_errors(watch: Watch, allow: str | None = None) -> None:
    errors = [e for e in watch.console if not (allow and re.search(allow, e))]
    assert not errors, errors
