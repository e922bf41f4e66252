"""Pages that fold, measured in a real browser at a phone's width (390 px) and a desktop's.

A zone page answers first: its table holds the key values and whatever is not plainly within
a limit; the rest folds into lines that open (`generator/site/value_table.py`), as do the
charts. The API reference's overview stacks on a phone without breaking a word.
"""

from __future__ import annotations

import pytest

from generator.site import urls
from tests.browser_harness import no_console_errors, open_page

pytestmark = pytest.mark.browser
pytest_plugins = ["tests.browser_harness"]

PHONE = 390
MAX_ZONE_PAGE_PX = 6000

# A word whose text runs onto two lines has two client rects; each word of each cell is
# measured on its own (`Me/tho/de` was the fault).
BROKEN_WORDS = """(root) => {
  const broken = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const style = getComputedStyle(node.parentElement);
    if (style.display === "none" || style.visibility === "hidden") continue;
    for (const m of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


@pytest.fixture
def phone(browser, watch, request):
    yield from open_page(browser, watch, request, width=PHONE)


def zone_ids(build) -> list[int]:
    return sorted(int(p.name) for p in (build / "gebiete").iterdir() if p.is_dir())


def height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def test_every_sample_zone_page_is_under_6000_px_on_a_phone(phone, watch, server, sample_build):
    base, _ = server
    heights = {}
    for zone in zone_ids(sample_build):
        phone.goto(base + urls.url("zone", zone_id=zone))
        heights[zone] = height(phone)
        # Nothing sticks out sideways either.
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE, zone
    assert len(heights) >= 20
    too_tall = {z: h for z, h in heights.items() if h >= MAX_ZONE_PAGE_PX}
    assert not too_tall, f"zone pages of {MAX_ZONE_PAGE_PX} px or more at {PHONE} px: {too_tall}"
    no_console_errors(watch)


def test_the_folds_open_to_the_values_they_count(phone, watch, server, sample_build):
    """Zone 201: the single PFAS below a reporting limit are one line that opens."""
    base, _ = server
    phone.goto(base + urls.url("zone", zone_id=201))
    unseen = phone.locator("details#ohne-befund")
    summary = unseen.locator("summary").inner_text()
    rows = unseen.locator("tbody tr")
    count = rows.count()
    assert count >= 10
    assert summary == f"{count} weitere Stoffe ohne Grenzwert unter der Bestimmungsgrenze"
    assert not rows.first.is_visible()
    closed = height(phone)
    unseen.locator("summary").click()
    assert rows.first.is_visible() and rows.nth(count - 1).is_visible()
    assert height(phone) > closed + count * 40
    for row in rows.all():
        text = row.inner_text()
        assert "kein Grenzwert" in text and "unter der Bestimmungsgrenze" in text
    # The table above holds no such row, and keeps the key values.
    shown = phone.locator("section[aria-labelledby=werte] > .table-scroll table.values tbody th")
    names = shown.all_inner_texts()
    assert {"Summe PFAS-20", "Nitrat", "Blei"} <= set(names)
    assert not any(n.startswith("Perfluor") for n in names)
    # A row cites its source by number; the sources are listed once, under the folds.
    ref = rows.first.locator("td a[href^='#quelle-']").get_attribute("href")
    assert ref and phone.locator(f".sources-box li{ref}").count() == 1
    # The charts are one more line; opened, every chart is drawn.
    charts = phone.locator("details#diagramme")
    assert not charts.locator("svg.chart").first.is_visible()
    charts.locator("summary").first.click()
    drawn = charts.locator("figure.chart-box svg.chart")
    assert drawn.count() >= 4 and drawn.first.is_visible()
    assert charts.locator("summary").first.inner_text().startswith(f"{drawn.count()} Diagramme")
    no_console_errors(watch)


@pytest.mark.parametrize("width", [PHONE, 1280])
def test_the_api_overview_breaks_no_word(browser, watch, request, server, width):
    base, _ = server
    for page in open_page(browser, watch, request, width=width):
        page.goto(base + urls.url("api"))
        table = page.locator("#operations")
        assert table.locator("tbody tr").count() >= 5
        assert table.evaluate(BROKEN_WORDS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if width == PHONE:  # stacked: each cell names its column
            first = table.locator("tbody tr").first.locator("td").first
            label = first.evaluate("e => getComputedStyle(e, '::before').content")
            assert label == '"Methode:\u00a0"'
        no_console_errors(watch)


@pytest.mark.parametrize("width", [PHONE, 1280])
def test_screenshots_of_the_map_a_compared_plz_and_a_folded_zone(
    browser, watch, request, server, sample_build, tmp_path, width
):
    """Whole-page screenshots to look at (under the test's tmp dir), with what they must show."""
    base, _ = server
    plz = next(
        p.name
        for p in sorted((sample_build / "plz").iterdir())
        if "Versorgungsgebiete in Deutschland" in (p / "index.html").read_text(encoding="utf-8")
    )
    pages = {
        "karte": urls.url("map"),
        f"plz-{plz}": urls.url("plz", plz=plz),
        "gebiet-201": urls.url("zone", zone_id=201),
    }
    for page in open_page(browser, watch, request, width=width):
        for name, url in pages.items():
            page.goto(base + url)
            shot = tmp_path / f"{name}-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
            # A PNG of the whole page, as wide as the viewport.
            head = shot.read_bytes()[:24]
            assert head[:8] == b"\x89PNG\r\n\x1a\n"
            assert int.from_bytes(head[16:20], "big") == width
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.goto(base + pages[f"plz-{plz}"])
        assert page.locator(".compare svg.strip").first.is_visible()
        page.goto(base + pages["karte"])
        assert page.locator("svg.map a").count() > 10
        no_console_errors(watch)


# Every text of every chart, measured where the browser drew it (user units of the viewBox).
LABELS_OUTSIDE = """(svgs) => {
  const outside = [];
  let count = 0;
  for (const svg of svgs) {
    const box = svg.viewBox.baseVal;
    for (const t of svg.querySelectorAll("text")) {
      const b = t.getBBox();
      count += 1;
      if (b.x < box.x || b.y < box.y || b.x + b.width > box.x + box.width ||
          b.y + b.height > box.y + box.height) {
        outside.push([t.textContent, Math.round(b.x), Math.round(b.x + b.width)]);
      }
    }
  }
  return {count, outside};
}"""


@pytest.mark.parametrize("width", [PHONE, 1280])
def test_chart_labels_lie_inside_the_chart(browser, watch, request, server, sample_build, width):
    """The limit labels (`Grenzwert (Indikator) ab …`), years and numbers of every chart."""
    base, _ = server
    for page in open_page(browser, watch, request, width=width):
        labels, tips = 0, set()
        for zone in zone_ids(sample_build):
            page.goto(base + urls.url("zone", zone_id=zone))
            folds = page.locator("details#diagramme > summary")
            if not folds.count():
                continue
            folds.first.click()  # drawn only when open: a closed <details> has no boxes
            found = page.locator("svg.chart").evaluate_all(LABELS_OUTSIDE)
            assert not found["outside"], (zone, found["outside"])
            labels += found["count"]
            tips |= {
                (t.evaluate("e => e.lastChild.textContent"), t.locator("title").text_content())
                for t in page.locator("svg.chart text.ll:has(title)").all()
            }
        assert labels > 500
        # A shortened label carries the ordinance's whole term as its tooltip.
        assert (
            "Grenzwert (Indikator) ab 24.06.2023",
            "Grenzwert für Indikatorparameter ab 24.06.2023",
        ) in tips
        no_console_errors(watch)
