"""Journeys of people, not experts, in Debian's Chromium.

At 1280 px and 390 px, with and without JavaScript, against the bundled sample served by
`trinkwasser serve` on loopback.

Someone types a PLZ, `4103`, a town, a zone or a supplier; finds a place in the A-Z index;
reads the answer on the PLZ page; switches the national map between its views.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.api import routes
from generator.site import urls
from tests.browser_harness import browser, no_console_errors, open_page, server, watch

__all__ = ["browser", "server", "watch"]  # fixtures of tests/browser_harness.py
pytestmark = pytest.mark.browser

WIDTHS = (1280, 390)
SHARE = re.compile(r"^(?:unter |bis |über )?(?:\d{1,3}(?:\.\d{3})*|unter 1) % des \w")
GERMAN = re.compile(r"^(?:[^\d]*?)(-?\d+(?:,\d+)?)(?: [^\d]*)?$")


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def with_js(browser, watch, request):
    yield from open_page(browser, watch, request, width=request.param)


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def without_js(browser, watch, request):
    yield from open_page(browser, watch, request, width=request.param, java_script_enabled=False)


def index(build: Path) -> dict:
    return json.loads((build / urls.file_path("search_index")).read_text(encoding="utf-8"))


def zone_summary(build: Path, zone_id: int) -> dict:
    doc = json.loads((build / routes.file_path("zone", zone_id=zone_id)).read_text("utf-8"))
    return doc["summary"]


def fits(page) -> None:
    """Nothing makes the page wider than the window (tables scroll inside their box)."""
    overflow = page.evaluate(
        "() => document.scrollingElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{page.url} is {overflow}px wider than the window"


def search(page, base: str, typed: str):
    page.goto(base + urls.url("home"))
    field = page.get_by_role("combobox", name="Postleitzahl oder Ort")
    field.fill(typed)
    return field


def answer_reads_german(page, build: Path, plz: str) -> None:
    """Check the PLZ page: each zone's verdict as derived, key values German, shares in words."""
    cards = page.locator("li.zone-card")
    lookup = json.loads((build / routes.file_path("lookup", plz=plz)).read_text("utf-8"))
    assert cards.count() == len(lookup["zones"])
    for i, zone in enumerate(lookup["zones"]):
        verdict = cards.nth(i).locator(".verdict")
        assert verdict.is_visible()
        assert zone_summary(build, zone["zone_id"])["title_de"] in verdict.inner_text()
    for value in page.locator(".key-values b").all_inner_texts():
        assert "." not in re.sub(r"\d{1,3}(?:\.\d{3})+ %", "", value), value  # decimal commas
        assert not re.search(r"<|\bBG\b|n\. ?n\.", value), value
    shares = page.locator(".key-values .share-of").all_inner_texts()
    assert shares and all(SHARE.match(s) for s in shares), shares
    fits(page)


# ---------------------------------------------------------------------------- with JavaScript


def test_a_plz_leads_to_the_answer(with_js, watch, server, sample_build):
    base, _ = server
    page = with_js
    plz = index(sample_build)["plz"][0]
    search(page, base, plz).press("Enter")
    page.wait_for_url(base + urls.url("plz", plz=plz))
    answer_reads_german(page, sample_build, plz)
    no_console_errors(watch)


def test_4103_suggests_04103(with_js, watch, server, sample_build):
    base, _ = server
    page = with_js
    field = search(page, base, "4103")
    first = page.get_by_role("option").first
    first.wait_for()
    assert first.inner_text().startswith("04103")
    assert field.get_attribute("aria-expanded") == "true"
    field.press("Enter")
    page.wait_for_url(base + urls.url("plz", plz="04103"))
    answer_reads_german(page, sample_build, "04103")
    no_console_errors(watch)


def test_a_town_leads_to_its_postcodes(with_js, watch, server, sample_build):
    base, _ = server
    page = with_js
    field = search(page, base, "Leip")
    option = page.get_by_role("option", name=re.compile("^Leipzig"))
    option.wait_for()
    assert "Postleitzahlen" in option.inner_text()
    field.press("ArrowDown")
    assert field.get_attribute("aria-activedescendant") == option.get_attribute("id")
    field.press("Enter")
    page.wait_for_url(re.compile(r"/orte/l/#ort-leipzig$"))
    place = page.locator("#ort-leipzig")
    assert place.is_visible()
    place.get_by_role("link", name="04103").click()
    page.wait_for_url(base + urls.url("plz", plz="04103"))
    no_console_errors(watch)


def test_a_zone_and_a_supplier_are_found_by_name(with_js, watch, server, sample_build):
    base, _ = server
    page = with_js
    idx = index(sample_build)
    zone_id, zone_name, supplier = next(z for z in idx["gebiete"] if z[1] == "Musterau Nord")
    search(page, base, "musterau nord")  # any case
    option = page.get_by_role("option", name=re.compile("^Musterau Nord Versorgungsgebiet"))
    option.click()
    page.wait_for_url(base + urls.url("zone", zone_id=zone_id))
    assert page.get_by_role("heading", level=1).inner_text() == zone_name
    supplier_id, supplier_name = idx["versorger"][supplier]
    field = search(page, base, "Wasserversorgung Muster")
    page.get_by_role("option", name=re.compile("Wasserversorger")).first.wait_for()
    field.press("Enter")
    page.wait_for_url(base + urls.url("supplier", supplier_id=supplier_id))
    assert page.get_by_role("heading", level=1).inner_text() == supplier_name
    # Nothing found: said next to the field, and the page stays.
    field = search(page, base, "Xyzzyhausen")
    field.press("Enter")
    # (said once the index has answered: wait for it, as a person would)
    page.locator(".search-empty").get_by_text("Nichts gefunden").wait_for()
    assert page.url == base + urls.url("home")
    no_console_errors(watch)


def test_map_switches_views_in_place(with_js, watch, server, sample_build):
    base, _ = server
    page = with_js
    page.goto(base + urls.url("map"))
    page.evaluate("window.__same = true")  # gone if the page were loaded again
    link = page.locator("svg.map a:not(.land)").first  # a PLZ area, not a Land
    pfas_fill = link.evaluate("a => getComputedStyle(a).fill")
    page.get_by_role("link", name="Härtebereich").click()
    assert page.url == base + urls.url("map_layer", layer="haerte")
    assert page.evaluate("window.__same") is True
    assert page.locator("#karte").get_attribute("data-layer") == "haerte"
    assert link.evaluate("a => getComputedStyle(a).fill") != pfas_fill
    assert page.get_by_role("heading", name="Härtebereich in Zahlen").is_visible()
    assert not page.get_by_role("heading", name="PFAS-20 in Zahlen").is_visible()
    assert page.get_by_role("link", name="Härtebereich").get_attribute("aria-current") == "page"
    fits(page)
    # A dot leads to its zone.
    href = link.get_attribute("href")
    link.dispatch_event("click")
    page.wait_for_url(base + href)
    no_console_errors(watch)


# ---------------------------------------------------------------------------- without JavaScript


def test_without_javascript_a_plz_and_the_place_index_work(without_js, watch, server, sample_build):
    base, _ = server
    page = without_js
    page.goto(base + urls.url("home"))
    page.get_by_label("Postleitzahl oder Ort").fill("84503")
    page.get_by_role("button", name="Suchen").click()
    page.wait_for_url(base + urls.url("plz", plz="84503"))
    answer_reads_german(page, sample_build, "84503")
    # The A-Z index finds a town too.
    page.goto(base + urls.url("home"))
    page.get_by_role("link", name="Verzeichnis von A bis Z").click()
    page.wait_for_url(base + urls.url("places"))
    letters = page.get_by_role("navigation", name="Anfangsbuchstaben")
    letters.get_by_role("link", name=re.compile(r"^L\b")).click()
    page.wait_for_url(base + urls.url("places_letter", letter="l"))
    page.locator("#ort-leipzig").get_by_role("link", name="04105").click()
    page.wait_for_url(base + urls.url("plz", plz="04105"))
    answer_reads_german(page, sample_build, "04105")
    # A town typed into the form lands on its entry in the index, with its PLZ.
    page.goto(base + urls.url("home"))
    page.get_by_label("Postleitzahl oder Ort").fill("Leipzig")
    page.get_by_role("button", name="Suchen").click()
    page.wait_for_url(base + urls.url("places_letter", letter="l") + "#ort-leipzig")
    assert page.locator("#ort-leipzig").get_by_role("link", name="04105").is_visible()


def test_without_javascript_the_map_views_are_pages(without_js, watch, server, sample_build):
    base, _ = server
    page = without_js
    page.goto(base + urls.url("map"))
    assert page.get_by_role("heading", name="PFAS-20 in Zahlen").is_visible()
    page.get_by_role("link", name="Nitrat", exact=True).click()
    page.wait_for_url(base + urls.url("map_layer", layer="nitrat"))
    assert page.get_by_role("heading", name="Nitrat in Zahlen").is_visible()
    assert not page.get_by_role("heading", name="PFAS-20 in Zahlen").is_visible()
    fits(page)
    for url in (
        urls.url("places_letter", letter="l"),
        urls.url("parameter", code="gesamthaerte"),
        urls.url("parameter", code="nitrat"),
    ):
        page.goto(base + url)
        fits(page)
    assert page.locator("#erklaerung").is_visible()
