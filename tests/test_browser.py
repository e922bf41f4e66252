"""The site in a real browser: journeys through Debian's Chromium, served by the gate.

The harness (server, browser, pages that watch their requests) is `tests/browser_harness.py`;
the accessibility checks over every page type are `tests/test_accessibility.py`.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from generator.api import routes, site_rules
from generator.api.settings import gate_dir
from generator.site import urls
from tests.browser_harness import (
    CHROMIUM,
    lookups,
    no_console_errors,
    open_page,
    plz_with_pfas_chart,
)

pytestmark = pytest.mark.browser
pytest_plugins = ["tests.browser_harness"]  # the fixtures: server, browser, watch, page ...

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
    page.locator("#diagramme > summary").click()  # the charts are folded into one line
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
    page.goto(base + "/suche?plz=123")
    assert page.url == base + "/plz/123/"
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
    page.locator("#diagramme > summary").click()  # <details> opens without a script
    # A horizontal line has no height, so Playwright never calls it "visible": measure it.
    box = page.locator("#verlauf-pfas_summe_20 svg.chart path.limit").bounding_box()
    assert box is not None and box["width"] > 20


@pytest.mark.parametrize("width", [390, 1280])
def test_a_place_is_found_without_javascript(
    browser, watch, request, server, sample_build, tmp_path, width
):
    """The form leads a place to its page or its entry in the A-Z index, umlauts and all."""
    base, _ = server
    known = json.loads((gate_dir(sample_build) / site_rules.SEARCH_FILE).read_text())["places"]
    assert known["leipzig"] == "/orte/l/#ort-leipzig" and known["altoetting"] == "/plz/84503/"
    for page in open_page(browser, watch, request, width=width, java_script_enabled=False):
        for typed, landing in (
            ("Leipzig", "/orte/l/#ort-leipzig"),
            ("ALTÖTTING", "/plz/84503/"),
            ("altoetting", "/plz/84503/"),
            ("Atlantis", "/orte/"),
        ):
            page.goto(base + "/")
            page.get_by_label("Postleitzahl oder Ort").fill(typed)
            page.get_by_role("button", name="Suchen").click()
            page.wait_for_url(base + landing)
            assert page.title() and "nicht gefunden" not in page.title(), typed
        page.goto(base + "/suche?plz=Leipzig")
        entry = page.locator("#ort-leipzig")
        # The place's entry is the target: highlighted, and its PLZ links lead on.
        assert entry.evaluate("e => e.matches(':target')")
        assert entry.locator("a[href^='/plz/']").count() >= 2
        page.screenshot(path=str(tmp_path / f"suche-leipzig-{width}.png"), full_page=True)
        no_console_errors(watch)


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


def test_api_reference_lists_every_operation_and_links_to_it(page, watch, server):
    base, _ = server
    page.goto(base + urls.url("api"))
    rows = page.locator("#operations tbody tr")
    shown = {tuple(r.locator("td").all_inner_texts()[:2]) for r in rows.all()}
    assert shown == {(r.method, r.path) for r in routes.ROUTES}
    page.locator("#operations").get_by_role("link", name="/v1/lookup", exact=True).click()
    section = page.locator("#op-lookup")
    assert page.url.endswith("#op-lookup") and section.is_visible()
    assert section.get_by_role("heading", level=3).inner_text() == "GET /v1/lookup"
    section.get_by_role("link", name="Lookup", exact=True).first.click()
    assert page.url.endswith("#schema-Lookup")
    assert page.locator("#schema-Lookup").get_by_text("covered_share").is_visible()
    no_console_errors(watch)


def test_without_javascript_nothing_is_offered_that_needs_it(page_without_js, server):
    base, _ = server
    page = page_without_js
    page.goto(base + urls.url("access"))
    # The form posts JSON from the script: without it the page offers e-mail instead.
    assert page.locator("#antrag").is_hidden()
    notice = page.locator("main .notice")
    assert notice.is_visible() and "E-Mail" in notice.inner_text()
    assert notice.get_by_role("link").get_attribute("href").startswith("mailto:")
    page.goto(base + urls.url("parameters"))
    assert page.locator("#filter").is_hidden()
    assert page.locator("#register tbody tr").first.is_visible()


def test_form_validation_speaks_german_in_an_english_browser(browser, watch, server, request):
    base, _ = server
    for page in open_page(browser, watch, request, locale="en-US"):
        page.goto(base + "/")
        field = page.locator("main form[role=search] input[required]").first
        page.locator("main form[role=search] button[type=submit]").click()
        assert page.url == base + "/"  # the browser kept the empty form
        message = field.evaluate("e => e.validationMessage")
        assert message.startswith("Bitte"), message
        if field.get_attribute("pattern"):
            field.fill("abc")
            page.locator("main form[role=search] button[type=submit]").click()
            message = field.evaluate("e => e.validationMessage")
            assert message == field.get_attribute("title"), message
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
    """Return a PLZ whose lookup lists streets, and a street that runs through two of its zones."""
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


def test_zone_page_cites_sources_and_spans_values_read_as_published(
    page, watch, server, sample_build
):
    """The folded layouts read right.

    A row's source link lands on its document, described once under the tables; a value that
    reads as published spans both value columns.
    """
    base, _ = server
    _, zone = plz_with_pfas_chart(sample_build)
    page.goto(base + urls.url("zone", zone_id=zone))
    source = page.locator("table.values tbody tr td:last-child a").first
    ref = source.get_attribute("href")
    assert ref is not None and re.fullmatch(r"#quelle-\d+", ref)
    source.click()
    described = page.locator(f".sources-box li{ref}")
    assert described.is_visible() and "abgerufen" in described.inner_text()
    assert described.locator("a").first.get_attribute("href").startswith("http")
    page.locator("#diagramme > summary").click()
    figure = page.locator("figure.chart-box").filter(has=page.locator("td[colspan='2']")).first
    figure.locator("summary").click()
    heads = figure.locator("thead th")
    value, published = (heads.nth(i).bounding_box() for i in (1, 2))
    cell = figure.locator("td[colspan='2']").first.bounding_box()
    assert value and published and cell
    assert abs(cell["x"] - value["x"]) < 2
    assert abs(cell["x"] + cell["width"] - (published["x"] + published["width"])) < 2
    no_console_errors(watch)


@pytest.fixture(scope="module")
def demo_server(sample_build, tmp_path_factory):
    """Serve the sample by `trinkwasser serve --demo-key`; yield (base URL, demo key)."""
    from tests.conformance.support import start_server

    root = tmp_path_factory.mktemp("demo-gate")
    server = start_server(sample_build, root / "state", root / "logs", "--demo-key")
    try:
        yield server.base_url, (root / "state" / "demo-key.txt").read_text().strip()
    finally:
        server.stop()


def _lookup_example(page) -> tuple[str, str, str]:
    """Return the header, key and URL path of the lookup's curl example as the page shows it."""
    line = page.locator("#op-lookup > pre code").inner_text()
    m = re.search(r'-H "([^:]+): ([^"]+)" "https?://[^/]+(/v1/lookup\?plz=\d{5})"', line)
    assert m, line
    return m.group(1), m.group(2), m.group(3)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_api_reference_shows_the_local_demo_key(
    browser, watch, request, demo_server, tmp_path, width
):
    base, key = demo_server
    for page in open_page(browser, watch, request, width=width):
        page.goto(base + urls.url("api"))
        demo = page.locator("#demoschluessel")
        demo.wait_for(state="visible")
        assert demo.locator("code.demo-key").inner_text() == key
        assert not page.locator("#beispielschluessel").is_visible()
        name, shown, path = _lookup_example(page)
        assert shown == key
        assert page.get_by_text("mit dem Demo-Schlüssel dieses Servers").count() >= 4
        # The example as a curl would send it, to this server: it answers with data.
        answer = httpx.get(base + path, headers={name: shown}, timeout=10)
        assert answer.status_code == 200 and answer.json()["plz"] == path[-5:]
        page.screenshot(path=str(tmp_path / f"api-demo-key-{width}.png"))
        no_console_errors(watch)


def test_the_api_reference_marks_its_example_key(page, watch, server):
    base, _ = server
    page.goto(base + urls.url("api"))
    note = page.locator("#beispielschluessel")
    assert note.is_visible() and "Beispielschlüssel – funktioniert nicht" in note.inner_text()
    assert not page.locator("#demoschluessel").is_visible()
    name, shown, path = _lookup_example(page)
    assert shown == note.get_attribute("data-example-key")
    said = page.locator("#op-lookup").inner_text()
    assert "Beispiel mit dem Beispielschlüssel (funktioniert nicht, Schlüssel beantragen):" in said
    assert httpx.get(base + path, headers={name: shown}, timeout=10).status_code == 403
    no_console_errors(watch)
