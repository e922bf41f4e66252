"""The site in a real browser: Debian's Chromium driven by Playwright, served by the gate.

The bundled sample is built once and served by `trinkwasser serve` on loopback. Every test
runs in a fresh context that aborts (and records) any request leaving loopback and collects
console errors; a failing test leaves a screenshot under test-artifacts/.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from generator.api import routes
from generator.site import urls

pytestmark = pytest.mark.browser

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


def _context(browser, watch: Watch, request, **options):
    context = browser.new_context(
        viewport={"width": 1200, "height": 900}, locale="de-DE", **options
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
    yield from _context(browser, watch, request)


@pytest.fixture
def page_without_js(browser, watch, request):
    yield from _context(browser, watch, request, java_script_enabled=False)


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


# ---------------------------------------------------------------------------- tests


def test_search_leads_to_plz_and_zone_page_with_chart(page, watch, server, sample_build):
    base, _ = server
    plz, zone = plz_with_pfas_chart(sample_build)
    page.goto(base + "/")
    page.get_by_label("Postleitzahl").fill(plz)
    page.get_by_role("button", name="Suchen").click()
    page.wait_for_url(base + urls.url("plz", plz=plz))
    assert page.get_by_role("heading", level=1).inner_text() == f"Postleitzahl {plz}"
    page.locator(f'a[href="{urls.url("zone", zone_id=zone)}"]').first.click()
    page.wait_for_url(base + urls.url("zone", zone_id=zone))
    chart = page.locator("#verlauf-pfas_summe_20 svg.chart")
    chart.scroll_into_view_if_needed()
    assert chart.is_visible()
    limit = chart.locator("path.limit")
    box = limit.bounding_box()
    assert box is not None and box["width"] > 20  # the limit line is drawn, not just present
    assert chart.locator("polyline").count() >= 1
    assert page.get_by_role("img", name=re.compile("Verlauf Summe PFAS-20")).count() == 1
    page.locator("#verlauf-pfas_summe_20 summary").click()
    assert page.locator("#verlauf-pfas_summe_20 table tbody tr").first.is_visible()
    no_console_errors(watch)


def test_ambiguous_plz_shows_every_zone(page, watch, server, sample_build):
    base, _ = server
    doc = next(d for d in lookups(sample_build) if d["ambiguous"] and len(d["zones"]) > 1)
    page.goto(base + urls.url("plz", plz=doc["plz"]))
    cards = page.locator("li.zone-card h2")
    assert cards.all_inner_texts() == [z["zone_name"] for z in doc["zones"]]
    assert page.get_by_role("note").filter(has_text="Nicht eindeutig").is_visible()
    no_console_errors(watch)


def test_unknown_and_malformed_plz_get_a_helpful_page(page, watch, server):
    base, _ = server
    response = page.goto(base + "/suche?plz=99999")
    assert response.status == 404 and page.url == base + "/plz/99999/"
    assert page.get_by_role("heading", level=1).inner_text() == "PLZ nicht gefunden"
    assert page.get_by_label("Postleitzahl").input_value() == "99999"
    page.goto(base + "/suche?plz=abc")
    assert page.get_by_role("heading", level=1).inner_text() == "Keine gültige Postleitzahl"
    # The document's own 404 status is the only error the console may show.
    no_console_errors(watch, allow=r"status of 404")


def test_search_works_without_javascript(page_without_js, watch, server, sample_build):
    base, _ = server
    plz, zone = plz_with_pfas_chart(sample_build)
    page = page_without_js
    page.goto(base + "/")
    page.get_by_label("Postleitzahl").fill(plz)
    page.get_by_role("button", name="Suchen").click()
    page.wait_for_url(base + urls.url("plz", plz=plz))
    page.goto(base + urls.url("zone", zone_id=zone))
    # A horizontal line has no height, so Playwright never calls it "visible": measure it.
    box = page.locator("#verlauf-pfas_summe_20 svg.chart path.limit").bounding_box()
    assert box is not None and box["width"] > 20


def test_access_request_shows_field_errors_then_the_request_id(page, watch, server):
    base, state = server
    page.goto(base + urls.url("access"))
    page.get_by_label("E-Mail-Adresse").fill("keine-adresse")
    page.get_by_label("Wofür möchten Sie die Daten nutzen?").fill("kurz")
    page.get_by_role("button", name="Antrag senden").click()
    email_error, zweck_error = page.locator("#email-error"), page.locator("#zweck-error")
    email_error.wait_for()
    assert "gültige E-Mail-Adresse" in email_error.inner_text()
    assert "mindestens 10 Zeichen" in zweck_error.inner_text()
    assert page.get_by_label("E-Mail-Adresse").get_attribute("aria-invalid") == "true"

    page.get_by_label("E-Mail-Adresse").fill("ada@example.org")
    page.get_by_label("Wofür möchten Sie die Daten nutzen?").fill(
        "Anzeige der PFAS-Werte in unserer Stadt-App"
    )
    page.get_by_role("button", name="Antrag senden").click()
    request_id = page.locator("#antrag-id")
    request_id.wait_for()
    assert request_id.inner_text()
    assert email_error.is_hidden() and zweck_error.is_hidden()
    listed = subprocess.run(
        [sys.executable, "-m", "generator", "keys", "requests", "--state", str(state)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert request_id.inner_text() in listed and "ada@example.org" in listed
    no_console_errors(watch, allow=r"status of 422")


def test_api_reference_lists_every_operation(page, watch, server):
    base, _ = server
    page.goto(base + urls.url("api"))
    blocks = page.locator("#swagger-ui .opblock")
    blocks.first.wait_for()
    shown = {
        (
            b.locator(".opblock-summary-method").inner_text().strip(),
            b.locator(".opblock-summary-path").get_attribute("data-path"),
        )
        for b in blocks.all()
    }
    assert shown == {(r.method, r.path) for r in routes.ROUTES}
    no_console_errors(watch)


def test_pages_log_no_errors_and_the_register_filters(page, watch, server, sample_build):
    base, _ = server
    plz, zone = plz_with_pfas_chart(sample_build)
    for url in (
        urls.url("home"),
        urls.url("plz", plz=plz),
        urls.url("zone", zone_id=zone),
        urls.url("supplier", supplier_id=1),
        urls.url("parameter", code="blei"),
        urls.url("downloads"),
        urls.url("license"),
        urls.url("access"),
    ):
        response = page.goto(base + url)
        assert response.status == 200, url
    page.goto(base + urls.url("parameters"))
    rows = page.locator("#register tbody tr")
    page.get_by_label("Name oder Kürzel enthält").fill("pfas")
    visible = rows.filter(visible=True)
    assert 0 < visible.count() < rows.count()
    assert all("pfas" in t.lower() or "perfluor" in t.lower() for t in visible.all_inner_texts())
    page.get_by_label("nur mit Grenzwert").check()
    assert "von 282 Stoffen" in page.locator("#filter-count").inner_text()
    no_console_errors(watch)


def shared_plz_with_streets(build: Path) -> tuple[str, dict]:
    """A PLZ whose lookup lists streets, and a street that runs through two of its zones."""
    for doc in lookups(build):
        per_zone = [set(z["streets"]) for z in doc["zones"] if z["streets"]]
        both = set.intersection(*per_zone) if len(per_zone) > 1 else set()
        if both:
            return doc["plz"], {"doc": doc, "both": sorted(both)[0]}
    raise AssertionError("the sample has no street that runs through two zones")


def street_key(name: str) -> str:
    """How the filter compares names: lower case, "ss" for "ß" (static/site.js)."""
    return name.lower().replace("ß", "ss")


def test_the_street_filter_finds_a_street_in_its_zones(page, watch, server, sample_build):
    base, _ = server
    plz, found = shared_plz_with_streets(sample_build)
    doc, street = found["doc"], found["both"]
    page.goto(base + urls.url("plz", plz=plz))
    items = page.locator(".street-list li")
    total = sum(len(z["streets"]) for z in doc["zones"])
    assert items.filter(visible=True).count() == total  # everything listed before a search
    search = page.get_by_role("searchbox", name="Straße suchen")
    # The start of the name as a person types it: "parkstr" finds "Parkstraße".
    typed = street_key(street)[:7]
    search.fill(typed.capitalize())
    matching = {
        (z["zone_name"], s) for z in doc["zones"] for s in z["streets"] if typed in street_key(s)
    }
    shown = [t.split(" (")[0] for t in items.filter(visible=True).all_inner_texts()]
    assert sorted(shown) == sorted(s for _, s in matching) and street in shown
    zones = page.locator(".street-zone").filter(visible=True).locator("h3").all_inner_texts()
    assert {h.split(" (")[0] for h in zones} == {name for name, _ in matching}
    status = page.locator("#street-count")
    names, in_zones = len({s for _, s in matching}), len(zones)
    assert status.inner_text() == (
        f"{names} Straße{'n' * (names > 1)} in {in_zones} Versorgungsgebiet{'en' * (in_zones > 1)}"
    )
    search.fill("Gibt es nicht")
    assert items.filter(visible=True).count() == 0
    assert page.locator(".street-zone").filter(visible=True).count() == 0
    assert status.inner_text().startswith("Keine Straße gefunden")
    search.fill("")
    assert items.filter(visible=True).count() == total and status.inner_text() == ""
    no_console_errors(watch)


def test_the_street_lists_work_without_javascript(page_without_js, watch, server, sample_build):
    base, _ = server
    plz, found = shared_plz_with_streets(sample_build)
    page = page_without_js
    page.goto(base + urls.url("plz", plz=plz))
    # No filter without JavaScript: the form stays hidden, every zone lists all its streets.
    assert not page.locator("#street-filter").is_visible()
    assert page.get_by_role("searchbox").filter(visible=True).count() == 0
    headings = page.locator(".street-zone h3").all_inner_texts()
    with_streets = [z for z in found["doc"]["zones"] if z["streets"]]
    assert [h.split(" (")[0] for h in headings] == [z["zone_name"] for z in with_streets]
    for i, zone in enumerate(with_streets):
        listed = page.locator(".street-zone").nth(i).locator("li").all_inner_texts()
        assert [t.split(" (")[0] for t in listed] == zone["streets"]
        assert all(page.locator(".street-zone").nth(i).locator("li").nth(j).is_visible()
                   for j in range(len(listed)))  # fmt: skip
    page.get_by_role("link", name="Straße nachsehen").click()
    assert page.url.endswith("#strassen")


def test_playwright_is_never_asked_to_download_a_browser():
    # The suite uses Debian's Chromium; scripts/test.sh installs it with apt when missing.
    script = (Path(__file__).parents[1] / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert "apt-get install -y chromium" in script and "playwright install" not in script
    assert shutil.which("chromium") or Path(CHROMIUM).is_file()
