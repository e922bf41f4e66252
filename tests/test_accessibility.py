"""Every page type in Chromium, at desktop and phone widths.

axe-core finds nothing serious, no table cell overflows, and print shows what matters.

axe-core is the npm package pinned in package.json (installed by `npm ci` in scripts/test.sh),
injected into each page and run with the WCAG 2.0, 2.1 and 2.2 rules of levels A and AA; a
`serious` or `critical` violation fails. A new page type is one more `PageType` in
`PAGE_TYPES`: every check below then covers it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.site import urls
from tests.browser_harness import open_page, plz_with_pfas_chart

pytestmark = pytest.mark.browser
pytest_plugins = ["tests.browser_harness"]  # the fixtures: server, browser, watch, page ...

AXE = Path(__file__).parents[1] / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
FAILING_IMPACTS = ("serious", "critical")
DESKTOP, MOBILE = 1280, 390


def largest_zone(build: Path) -> int:
    """Return the zone with the most data (the longest value table, the most charts)."""
    files = (build / "_data" / "v1" / "zones").glob("*.json")
    return int(max(files, key=lambda p: (p.stat().st_size, p.name)).stem)


@dataclass(frozen=True)
class PageType:
    name: str
    url: Callable[[Path], str]
    """The URL of one page of this type in the sample build."""
    status: int = 200


PAGE_TYPES = (
    PageType("home", lambda b: urls.url("home")),
    PageType("plz", lambda b: urls.url("plz", plz=plz_with_pfas_chart(b)[0])),
    PageType("zone", lambda b: urls.url("zone", zone_id=largest_zone(b))),
    PageType("zone-pfas", lambda b: urls.url("zone", zone_id=plz_with_pfas_chart(b)[1])),
    PageType("supplier", lambda b: urls.url("supplier", supplier_id=1)),
    PageType("register", lambda b: urls.url("parameters")),
    PageType("parameter", lambda b: urls.url("parameter", code="blei")),
    PageType("parameter-hardness", lambda b: urls.url("parameter", code="gesamthaerte")),
    PageType("places", lambda b: urls.url("places")),
    PageType("places-letter", lambda b: urls.url("places_letter", letter="l")),
    PageType("map", lambda b: urls.url("map")),
    PageType("map-hardness", lambda b: urls.url("map_layer", layer="haerte")),
    PageType("map-land", lambda b: urls.url("map_land", land="sn")),
    PageType("access", lambda b: urls.url("access")),
    PageType("downloads", lambda b: urls.url("downloads")),
    PageType("api", lambda b: urls.url("api")),
    PageType("license", lambda b: urls.url("license")),
    PageType("not-found", lambda b: urls.url("plz", plz="99999"), status=404),
)

VARIANTS = {
    "desktop": (DESKTOP, True),
    "mobile": (MOBILE, True),
    "mobile-without-script": (MOBILE, False),
}
"""Width and whether the site's script runs. (axe itself needs JavaScript, so "without"
blocks the site's script rather than all of JavaScript; the no-JS journeys are in
test_browser.py.)"""


def axe_report(violations: list[dict]) -> str:
    """Violations as lines a person can act on: rule, impact, help, each element and why."""
    lines = []
    for v in violations:
        lines.append(f"{v['impact']}: {v['id']}: {v['help']} ({v['helpUrl']})")
        for node in v["nodes"][:10]:
            why = " ".join(node.get("failureSummary", "").split())
            lines.append(f"    {' '.join(map(str, node['target']))}: {why}")
        if len(v["nodes"]) > 10:
            lines.append(f"    ... and {len(v['nodes']) - 10} more")
    return "\n".join(lines)


def run_axe(page) -> list[dict]:
    # Through the DevTools protocol, not a <script> element: the pages' Content-Security-Policy
    # forbids inline scripts, and an inserted one would not run (test_csp_stops_inline_script).
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    result = page.evaluate(
        """tags => axe.run(document, {
            runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]})""",
        WCAG_TAGS,
    )
    return [v for v in result["violations"] if v["impact"] in FAILING_IMPACTS]


OVERFLOWING_CELLS = """() => {
  const found = [];
  for (const cell of document.querySelectorAll("td, th")) {
    if (cell.getClientRects().length === 0) continue;  // not rendered
    if (cell.scrollWidth > cell.clientWidth + 1) {
      const table = cell.closest("table");
      const name = table.id || table.className || "table";
      const text = cell.innerText.trim().slice(0, 60);
      found.push(`${name}: "${text}" needs ${cell.scrollWidth}px of ${cell.clientWidth}px`);
    }
  }
  // A table wider than its scrolling box makes the reader scroll sideways: that counts too.
  for (const box of document.querySelectorAll(".table-scroll")) {
    if (box.getClientRects().length === 0) continue;
    if (box.scrollWidth > box.clientWidth + 1) {
      const table = box.querySelector("table");
      const name = table.id || table.className || "table";
      found.push(`${name}: ${box.scrollWidth}px wide in a box of ${box.clientWidth}px`);
    }
  }
  return found;
}"""


def open_all_details(page) -> None:
    """Open every <details> so the tables behind charts are checked too."""
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("page_type", PAGE_TYPES, ids=[p.name for p in PAGE_TYPES])
def test_page_passes_axe_and_nothing_overflows(
    page_type, variant, browser, watch, server, sample_build, request
):
    base, _ = server
    width, script = VARIANTS[variant]
    for page in open_page(browser, watch, request, width=width):
        if not script:
            page.route("**/static/site.js*", lambda route: route.abort())
        response = page.goto(base + page_type.url(sample_build))
        assert response.status == page_type.status
        open_all_details(page)
        serious = run_axe(page)
        assert not serious, f"axe-core at {width}px:\n{axe_report(serious)}"
        overflowing = page.evaluate(OVERFLOWING_CELLS)
        assert not overflowing, f"at {width}px:\n" + "\n".join(overflowing)
        scroll = page.evaluate("() => document.documentElement.scrollWidth")
        assert scroll <= width, f"the page is {scroll}px wide at {width}px"


def test_csp_stops_inline_script_and_script_links(browser, watch, server, request):
    # The policy is in force on the served pages: an injected inline script and a
    # `javascript:` link do not run, while the site's own script does.
    base, _ = server
    for page in open_page(browser, watch, request):
        page.goto(base + urls.url("parameters"))
        assert page.locator("#filter").is_visible()  # site.js ran: it shows the filter
        page.evaluate(
            """() => { window.ran = false;
                       const s = document.createElement("script");
                       s.textContent = "window.ran = true";
                       document.body.append(s);
                       const a = document.createElement("a");
                       a.href = "javascript:window.ran = true"; a.id = "evil"; a.textContent = "x";
                       document.querySelector("main").append(a); }"""
        )
        page.click("#evil")
        page.wait_for_timeout(200)
        assert page.evaluate("() => window.ran") is False
    # The browser reports both refusals on the console: expected here, nowhere else.
    assert watch.console and all("Content Security Policy" in line for line in watch.console)
    watch.console.clear()


def test_axe_reports_what_it_finds(browser, watch, server, request):
    # The check itself can fail: a page with a control without a name is reported.
    base, _ = server
    for page in open_page(browser, watch, request):
        page.goto(base + urls.url("home"))
        page.evaluate(
            """() => { const s = document.createElement("select");
                       document.querySelector("main").append(s); }"""
        )
        found = run_axe(page)
        assert [v["id"] for v in found] == ["select-name"]
        assert "select-name" in axe_report(found) and "Fix" in axe_report(found)


def test_the_overflow_check_finds_a_badge_that_does_not_wrap(
    browser, watch, server, sample_build, request
):
    base, _ = server
    for page in open_page(browser, watch, request, width=DESKTOP):
        page.goto(base + urls.url("zone", zone_id=largest_zone(sample_build)))
        assert page.evaluate(OVERFLOWING_CELLS) == []
        # Through the CSSOM: the pages' Content-Security-Policy refuses a <style> element.
        page.evaluate(
            """() => document.querySelectorAll(".badge").forEach(
                       b => { b.style.whiteSpace = "nowrap"; })"""
        )
        page.evaluate(
            """() => { document.querySelector("table.values .badge").lastChild.textContent =
                       " unter der Bestimmungsgrenze des Labors"; }"""
        )
        assert any("needs" in cell for cell in page.evaluate(OVERFLOWING_CELLS))


def test_axe_is_the_pinned_npm_package():
    package = json.loads((Path(__file__).parents[1] / "package.json").read_text("utf-8"))
    pinned = package["devDependencies"]["axe-core"]
    installed = json.loads((AXE.parent / "package.json").read_text("utf-8"))["version"]
    assert pinned == installed and pinned[0].isdigit()  # an exact version, no range


# ---------------------------------------------------------------------------- print


def print_checks(page) -> dict:
    return page.evaluate(
        """() => {
          const shown = el => el !== null && el.getClientRects().length > 0;
          const external = document.querySelector('main a[href^="http"]');
          return {
            nav: shown(document.querySelector(".top nav")),
            search: shown(document.querySelector("form.search")),
            buttons: [...document.querySelectorAll("main .button, main button")].some(shown),
            tables: [...document.querySelectorAll("details table")].every(shown),
            details: document.querySelectorAll("details table").length,
            external_after: external && getComputedStyle(external, "::after").content,
            external_href: external && external.getAttribute("href"),
          };
        }"""
    )


@pytest.mark.parametrize("page_type", ["plz", "zone-pfas"])
def test_print_shows_content_without_controls(
    page_type, browser, watch, server, sample_build, request
):
    base, _ = server
    kind = next(p for p in PAGE_TYPES if p.name == page_type)
    for page in open_page(browser, watch, request):
        page.goto(base + kind.url(sample_build))
        screen = print_checks(page)
        assert screen["nav"]
        page.emulate_media(media="print")
        printed = print_checks(page)
        assert not printed["nav"] and not printed["search"] and not printed["buttons"]
        assert printed["tables"]  # the value tables behind the charts are printed open
        if page_type == "zone-pfas":
            assert printed["details"] > 0
            # Where a link leads off the site, the paper says where.
            assert printed["external_href"] in printed["external_after"]


@pytest.fixture(scope="module")
def areas_server(golden_site, tmp_path_factory):
    """Serve the golden build, whose data has PLZ areas (`plz_shapes`), through the gate."""
    import subprocess
    import sys

    from tests.browser_harness import free_port, wait_for

    state = tmp_path_factory.mktemp("gate-state-areas")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--build-dir", str(golden_site),
         "--state", str(state), "--port", str(port), "--no-access-log"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    wait_for(base + "/", proc)
    yield base
    proc.terminate()
    proc.wait(timeout=10)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("layer", ["", "haerte"])
def test_the_map_of_areas_passes_axe(layer, variant, browser, watch, areas_server, request):
    width, script = VARIANTS[variant]
    path = urls.url("map_layer", layer=layer) if layer else urls.url("map")
    for page in open_page(browser, watch, request, width=width):
        if not script:
            page.route("**/static/site.js*", lambda route: route.abort())
        assert page.goto(areas_server + path).status == 200
        assert (
            page.locator('svg.map-areas a[href^="/plz/"]').count() == 4
        )  # the golden PLZ with a page
        serious = run_axe(page)
        assert not serious, f"axe-core at {width}px:\n{axe_report(serious)}"
        scroll = page.evaluate("() => document.documentElement.scrollWidth")
        assert scroll <= width, f"the page is {scroll}px wide at {width}px"
