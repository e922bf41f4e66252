"""Bounded documents: refused small when over a cap; names kept fit for XML and terminals.

The caps of `generator.publications.caps` are checked against real documents built to hit
them (a web page whose spans make a million cells, a page of many tables, a PDF of many
pages, a CSV of very many columns): each is refused with a message that names the cap,
before the work grows (traced memory stays small). Unicode noncharacters in the source
tables are refused by the contract's character rule, so every Atom feed stays well-formed
XML whatever else the names hold.
"""

from __future__ import annotations

import datetime as dt
import shutil
import tracemalloc
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
import pytest
from click.testing import CliRunner

from generator.build import build
from generator.cli import cli
from generator.config import Config
from generator.load import check
from generator.publications import caps
from generator.publications.documents import read_document
from generator.publications.read import TableReadError
from tests.helpers import GOLDEN_INPUT


def _refused_small(path: Path, *words: str) -> None:
    """Check that reading `path` is refused, naming the cap, with little traced memory."""
    tracemalloc.start()
    try:
        with pytest.raises(TableReadError) as refused:
            read_document(path, None, None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    for word in words:
        assert word in str(refused.value), str(refused.value)
    assert peak < 64 * 1024 * 1024, peak


def test_spans_that_make_a_million_cells_are_refused(tmp_path):
    page = tmp_path / "spannen.html"
    page.write_text(
        "<html><body><h1>Analyse, Stand: 01.10.2026</h1><table>"
        '<tr><th>Parameter</th><th colspan="1000" rowspan="1000">Messwert</th></tr>'
        + "<tr><td>Nitrat</td></tr>" * 999
        + "</table></body></html>",
        encoding="utf-8",
    )
    _refused_small(
        page,
        "table 1 has at least ",
        "(rowspan and colspan counted), more than the cap of 250,000 cells per table",
    )
    # Through the command: one clear line, exit 1.
    result = CliRunner().invoke(cli, ["import", str(page), "--list-tables"])
    assert result.exit_code == 1 and "cap of 250,000 cells per table" in result.output


def test_a_page_of_too_many_tables_is_refused(tmp_path):
    page = tmp_path / "tabellen.html"
    table = (
        "<table><tr><th>Parameter</th><th>Wert</th></tr><tr><td>Nitrat</td><td>1</td></tr></table>"
    )
    page.write_text("<html><body>" + table * (caps.MAX_PAGE_TABLES + 1) + "</body></html>")
    _refused_small(page, "the page has more than 500 tables, the cap per page")
    # At the cap it is read.
    page.write_text("<html><body>" + table * caps.MAX_PAGE_TABLES + "</body></html>")
    assert len(read_document(page, None, None).tables) == caps.MAX_PAGE_TABLES


def test_a_pdf_of_too_many_pages_is_refused_before_its_pages_are_read(tmp_path):
    from reportlab.pdfgen import canvas

    path = tmp_path / "dick.pdf"
    pdf = canvas.Canvas(str(path))
    for number in range(caps.MAX_PDF_PAGES + 1):
        pdf.drawString(72, 720, f"Seite {number + 1}: Nitrat 5 mg/l")
        pdf.showPage()
    pdf.save()
    _refused_small(path, "the PDF has 301 pages, more than the cap of 300 pages per report")


@pytest.mark.parametrize("columns", [caps.MAX_CSV_COLUMNS + 1, 200_000])
def test_a_csv_of_too_many_columns_is_refused(tmp_path, columns):
    path = tmp_path / "breit.csv"
    header = "Parameter;Einheit;" + ";".join(f"Messstelle {i}" for i in range(columns - 2))
    path.write_text(header + "\n" + "Nitrat;mg/l;" + "1;" * (columns - 3) + "1\n" * 3)
    _refused_small(
        path, f"line 1: {columns:,} cells, more than the cap of 10,000 columns per CSV table"
    )


def test_a_csv_whose_ragged_lines_would_fill_to_millions_of_cells_is_refused(tmp_path):
    # One wide line, many short ones: filled up to the widest, 2,500,000 cells.
    path = tmp_path / "zackig.csv"
    wide = "Parameter;Einheit;" + ";".join(str(i) for i in range(4998))
    path.write_text(wide + "\n" + "Nitrat;mg/l;1\n" * 499)
    _refused_small(
        path,
        "500 lines of up to 5,000 cells make 2,500,000 cells, more than the cap of "
        "2,000,000 cells per CSV table",
    )


# ---------------------------------------------------------------------------- characters


@pytest.fixture
def data(tmp_path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    return target


def _rename(data: Path, table: str, old: str, new: str) -> None:
    path = data / f"{table}.csv"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    "char", ["\ufffe", "\uffff", "\ufdd0", "\ufdef", "\U0001fffe", "\U0010ffff"]
)
def test_noncharacters_are_refused_by_the_character_rule(data, char):
    _rename(data, "zones", "Kleinstadt Mitte", f"Kleinstadt{char}Mitte")
    problems = check(data)[1]
    assert problems.height == 1
    row = problems.row(0, named=True)
    assert (row["table"], row["column"], row["rule"]) == ("zones", "name", "control_character")
    assert f"U+{ord(char):04X} (a noncharacter)" in row["message"]


def test_a_lone_surrogate_never_reaches_the_data(data):
    # A surrogate is no UTF-8 (CESU-8 writes one as ED A0 80): the table is refused whole.
    path = data / "zones.csv"
    path.write_bytes(path.read_bytes().replace(b"Kleinstadt Mitte", b"Kleinstadt \xed\xa0\x80"))
    problems = check(data)[1]
    assert problems.height >= 1 and set(problems["table"]) == {"zones"}


def test_every_feed_is_well_formed_xml_whatever_the_names_hold(data, tmp_path):
    # Everything the rule lets through: markup, a CDATA end, line and paragraph separators,
    # private use, replacement characters, emoji, a right-to-left mark.
    odd = "<b>&amp;]]>\u2028\u2029\ue000\ufffd\U0001f4a7\u200f"
    _rename(data, "zones", "Kleinstadt Mitte", f"Kleinstadt {odd} Mitte")
    _rename(data, "suppliers", "Wasserwerke Kleinstadt (Testdaten)", f"Wasserwerke {odd}")
    assert check(data)[1].height == 0
    out = tmp_path / "build"
    build(data, out, dt.date(2026, 11, 23), Config(), force=True)
    feeds = sorted((out / "feeds").rglob("*.atom"))
    assert len(feeds) > 1
    for feed in feeds:
        ET.parse(feed)  # raises on anything that is no XML
        parsed = feedparser.parse(feed.read_bytes())
        assert not parsed.bozo, (feed, parsed.bozo_exception)
    zone = (out / "feeds/gebiete/11.atom").read_text(encoding="utf-8")
    assert "Kleinstadt &lt;b&gt;&amp;amp;]]&gt;" in zone


# ---------------------------------------------------------------------------- terminal


def test_parameters_match_writes_names_safely_for_the_terminal(tmp_path):
    names = tmp_path / "namen.csv"
    names.write_text(
        'name,unit\n"Nitrat\x1b[2J\x1b]0;owned\x07",mg/l\n"Blei\u202e",µg/l\n', encoding="utf-8"
    )
    result = CliRunner().invoke(cli, ["parameters", "match", str(names)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output
    assert "Nitrat\\x1b[2J\\x1b]0;owned\\x07" in result.stdout
    assert "Blei\\u202e" in result.stdout
