"""Charts and row fragments: which series get a chart, and how values and limits are drawn."""

from __future__ import annotations

import datetime as dt
import re

import html5lib
import polars as pl
import pytest

from generator import derive, load
from generator.frames.compact import as_text
from generator.site import charts, fragments
from tests.helpers import AS_OF, append


def chart_rows(data_dir, as_of: dt.date) -> dict[tuple[int, str], str]:
    return derived_chart_rows(derive.derive(load.load(data_dir), as_of), as_of)


def derived_chart_rows(d: derive.Derived, as_of: dt.date) -> dict[tuple[int, str], str]:
    inputs = charts.ChartInputs.prepare(d.limits, d.parameters)
    series = as_text(derive.with_numbers(d.measurements, d.readings))
    frame = charts.chart_frame(series, inputs, as_of)
    return {(z, p): html for z, p, html in frame.select("zone_id", "parameter", "html").rows()}


def measure(
    data_dir,
    parameter: str,
    *samples: tuple[str, str],
    zone: str = "11",
    unit: str = "µg/l",
    document: str = "wk-2029",
) -> None:
    for day, value in samples:
        append(
            data_dir,
            "measurements",
            zone_id=zone,
            parameter=parameter,
            sampled_at=day,
            value_text=value,
            unit=unit,
            document_id=document,
            sample_point="Netz",
        )


@pytest.fixture
def later_data(tiny_data):
    """Copy the golden input plus a document of 2029 to hang later samples on."""
    append(
        tiny_data,
        "documents",
        document_id="wk-2029",
        supplier_id="1",
        title="Trinkwasseranalyse 2029",
        url="https://wasser-kleinstadt.example/2029.pdf",
        edition_date="2029-12-31",
        retrieved_date="2030-01-05",
    )
    return tiny_data


def svg_elements(html: str, tag: str, cls: str | None = None) -> list:
    """Return the chart's SVG elements of one tag (and class), parsed: attribute order is free."""
    root = html5lib.parseFragment(html, treebuilder="etree", namespaceHTMLElements=False)
    return [
        e
        for e in root.iter()
        if isinstance(e.tag, str)
        and e.tag.rsplit("}", 1)[-1] == tag
        and (cls is None or e.get("class") == cls)
    ]


def polyline(html: str, cls: str) -> list[tuple[int, int]]:
    lines = svg_elements(html, "polyline", cls)
    return [tuple(map(int, p.split(","))) for p in lines[0].get("points").split()] if lines else []


def limit_path(html: str) -> str | None:
    """Return the `d` of the limit line, or None when the chart has none."""
    paths = svg_elements(html, "path", "limit")
    return paths[0].get("d") if paths else None


def test_which_series_get_a_chart(later_data):
    measure(
        later_data, "pfoa", ("2029-01-10", "0,01"), ("2029-02-10", "0,01"), ("2029-03-10", "0,02")
    )  # no limit: no chart however long
    measure(later_data, "nitrat", ("2029-01-10", "20"), unit="mg/l")  # 2 points: none
    measure(
        later_data,
        "arsen",
        ("2029-01-10", "1"),
        ("2029-02-10", "2"),
        ("2029-03-10", "< 1"),
        zone="12",
    )  # limit and 3 points (< x counts): chart
    found = chart_rows(later_data, dt.date(2029, 12, 31))
    assert set(found) == {
        (11, "pfas_summe_20"),
        (11, "pfas_summe_4"),  # PFAS: always, even with one value
        (12, "pfas_summe_20"),
        (12, "pfas_summe_4"),
        (12, "arsen"),
        (21, "pfas_summe_20"),
        (21, "pfas_summe_4"),
        (22, "pfas_summe_20"),
        (31, "pfas_summe_20"),  # two sample points of one date: PFAS all the same
        (32, "pfas_summe_20"),
    }


def test_limit_is_a_step_line_over_time(later_data):
    measure(later_data, "blei", ("2027-06-10", "8"), ("2028-06-10", "4"), ("2029-06-10", "3"))
    html = chart_rows(later_data, dt.date(2029, 12, 31))[(11, "blei")]
    d = limit_path(html)
    # 10 µg/l until 2028-01-11, then a vertical step down to 5 µg/l, one continuous path
    step = re.fullmatch(r"M\d+,(\d+)H(\d+)V(\d+)H\d+", d)
    assert step, d
    y10, x_step, y5 = (int(v) for v in step.groups())
    xs = [x for x, _ in polyline(html, "sv")]
    assert len(xs) == 4 and xs == sorted(xs)  # 2026 sample plus the three added
    assert xs[1] < x_step < xs[2]
    assert y5 > y10  # the lower limit sits lower on the chart (larger y)
    assert "Grenzwert ab 12.01.2028" in html


def test_limit_starts_where_it_came_into_force(golden_derived):
    found = derived_chart_rows(golden_derived, AS_OF)
    html = found[(11, "pfas_summe_20")]
    start = int(re.match(r"M(\d+),", limit_path(html)).group(1))
    xs = [x for x, _ in polyline(html, "sv")]
    assert xs[1] < start < xs[2]  # samples 2025-03, 2025-09, 2026-03; limit from 2026-01-12
    # no limit line at all where none is in force inside the window (PFAS-4 starts 2028)
    assert limit_path(found[(11, "pfas_summe_4")]) is None


def test_values_below_the_reporting_limit_are_drawn_apart(golden_derived):
    found = derived_chart_rows(golden_derived, AS_OF)
    pfas4 = found[(21, "pfas_summe_4")]  # '<0,02'
    assert polyline(pfas4, "sb") and not polyline(pfas4, "sv")
    pfas20 = found[(21, "pfas_summe_20")]  # 40 ng/l and '< BG'
    ((x_nd, y_nd),) = polyline(pfas20, "sn")
    ((x_v, y_v),) = polyline(pfas20, "sv")
    assert y_nd == charts.BOTTOM and y_v < y_nd  # not detected sits on the zero line
    # the 40 ng/l are converted: 0.04 µg/l, below the 0.1 limit line
    y_limit = int(re.match(r"M\d+,(\d+)", limit_path(pfas20)).group(1))
    assert y_v > y_limit
    # The table reads each value in the limit's unit, in words where the supplier printed
    # signs (no unit after a word), and shows the published text beside it.
    assert '<td>0,04 µg/l<td class="verbatim">40 ng/l' in pfas20
    assert '<td>unter der Bestimmungsgrenze<td class="verbatim">&lt; BG<' in pfas20


def test_axis_covers_values_and_limit(golden_derived):
    html = derived_chart_rows(golden_derived, AS_OF)[(11, "pfas_summe_20")]
    (labels,) = svg_elements(html, "g", "yt")
    texts = [(e.text or "").strip() for e in labels.iter()]
    ticks = [float(t.replace(",", ".")) for t in texts if re.fullmatch(r"[\d,]+", t)]
    assert ticks[0] == 0 and ticks == sorted(ticks) and 0.14 <= ticks[-1] <= 0.3
    assert 3 <= len(ticks) <= 5


def test_fragment_escapes_inserts_and_sections():
    frame = pl.DataFrame({"a": ["<b>", "x"], "raw": ["<i>1</i>", None], "on": [True, False]})
    expr = fragments.compile_fragment(
        "<p>{a}{?on} [{!raw}]{/on}</p>",
        {"a": pl.col("a"), "raw": pl.col("raw"), "on": pl.col("on")},
    )
    assert frame.select(expr).to_series().to_list() == ["<p>&lt;b&gt; [<i>1</i>]</p>", "<p>x</p>"]
    with pytest.raises(KeyError):
        fragments.compile_fragment("{missing}", {})
    with pytest.raises(ValueError):
        fragments.compile_fragment("{?a}open", {"a": pl.col("a")})


def _table_cells(figure: str) -> list[dict[str, str]]:
    """Read a chart's table as a reader does: each row's text under each column header.

    A cell spanning two columns (`colspan`) stands under both of their headers.
    """
    tree = html5lib.parse(figure, namespaceHTMLElements=False)
    headers = ["".join(th.itertext()) for th in tree.iter("th")]
    rows = []
    for tr in tree.find(".//tbody").iter("tr"):
        cells: list[str] = []
        for td in tr.iter("td"):
            cells += ["".join(td.itertext())] * int(td.get("colspan", "1"))
        assert len(cells) == len(headers), (headers, cells)
        rows.append(dict(zip(headers, cells, strict=True)))
    return rows


def test_every_charted_value_reads_with_its_published_text(golden_derived):
    """Folding a value that reads as published into one cell loses nothing of the table."""
    from generator.site import text
    from generator.values import wording

    found = derived_chart_rows(golden_derived, AS_OF)
    series = derive.with_numbers(golden_derived.measurements, golden_derived.readings)
    points = wording.with_readings(as_text(series)).select(
        "zone_id",
        "parameter",
        text.date_expr(pl.col("sampled_at")).alias("date"),
        pl.concat_str(
            wording.SHOWN,
            pl.format(" ({})", text.statistic_label(pl.col("statistic"))).fill_null(""),
        ).alias("shown"),
        pl.col(wording.PUBLISHED_TEXT).alias("published"),
        "sample_point",
    )
    folded = apart = 0
    for (zone, code), figure in found.items():
        expected = points.filter(zone_id=zone, parameter=code)
        rows = _table_cells(figure)
        assert len(rows) == expected.height > 0
        for row, want in zip(rows, expected.iter_rows(named=True), strict=True):
            assert (row["Probe vom"], row["Wert"], row["wie veröffentlicht"]) == (
                want["date"],
                want["shown"],
                want["published"],
            )
            if "Messstelle" in row:
                assert row["Messstelle"] == want["sample_point"]
        cells = figure.count('<td class="verbatim">')
        folded += figure.count("colspan=2")
        apart += cells
        assert figure.count("colspan=2") + cells == len(rows)
    assert folded and apart  # both kinds of rows occur in the golden input


def _estimated_extent(e, weight: str) -> tuple[str, float, float]:
    """Return the words, left and right edge of a `<text>` as a phone draws it, estimated."""
    words = "".join(t for t in e.itertext() if t is not None)
    title = next((c for c in e if c.tag.rsplit("}", 1)[-1] == "title"), None)
    if title is not None:  # a tooltip is no part of the drawn text
        words = words.replace(title.text or "", "", 1)
    if e.get("textLength"):
        width = float(e.get("textLength"))
    else:
        width = pl.select(charts.label_width(pl.lit(words), weight)).item()
    x = float(e.get("x"))
    anchor = e.get("text-anchor") or ("end" if e.get("_in_yt") else "start")
    return (words, x - width, x) if anchor == "end" else (words, x, x + width)


def chart_labels(html: str) -> list[tuple[str, float, float]]:
    """Return every label of every chart of a page: its words, left and right edge."""
    found = []
    for svg in svg_elements(html, "svg", "chart"):
        for group in svg.iter():
            if group.tag.rsplit("}", 1)[-1] == "g" and group.get("class") == "yt":
                for e in group:
                    e.set("_in_yt", "1")
        for e in svg.iter():
            if e.tag.rsplit("}", 1)[-1] != "text":
                continue
            weight = "bold" if e.get("class") == "ll" else "regular"
            found.append(_estimated_extent(e, weight))
    return found


def test_every_label_lies_inside_the_chart(sample_build):
    """Limit labels, years and numbers: inside the viewBox at a phone's font size."""
    assert charts.PHONE_FONT == 17
    css = (sample_build / "static").glob("site*.css")
    assert any("svg.chart text{font-size:17px}" in p.read_text() for p in css)
    labels, shortened = [], 0
    for page in sorted((sample_build / "gebiete").glob("*/index.html")):
        html = page.read_text(encoding="utf-8")
        labels += chart_labels(html)
        shortened += html.count("<title>Grenzwert für Indikatorparameter")
    limit_words = {w for w, *_ in labels if w.startswith(("Grenzwert", "zulässiger"))}
    assert "Grenzwert ab 24.06.2023" in limit_words and len(labels) > 500
    outside = [(w, a, b) for w, a, b in labels if a < 0 or b > charts.WIDTH]
    assert not outside, outside[:10]
    # The ordinance's long term is shortened on the chart and kept whole as its tooltip.
    assert shortened > 0
    assert not any(w.startswith("Grenzwert für Indikatorparameter") for w in limit_words)


def test_a_number_wider_than_the_axis_room_is_squeezed_into_it():
    """`0,0005` is wider than the room left of the axis on a phone: drawn at that width."""
    axis = charts._y_axis(
        pl.LazyFrame({"step": [0.0005, 5.0], "steps": [3, 3], "top": [0.0015, 15.0]})
    )
    small, large = axis.collect()["y_labels"].to_list()
    squeezed = [e for e in svg_elements(f"<svg>{small}</svg>", "text") if e.get("textLength")]
    assert [e.text for e in squeezed] == ["0,0005", "0,0015"]
    assert all(float(e.get("textLength")) == charts.Y_ROOM for e in squeezed)
    assert "textLength" not in large  # "10" and "15" fit
    for _, left, right in chart_labels(f'<svg class="chart"><g class="yt">{small}</g></svg>'):
        assert left >= 0 and right <= charts.LEFT
