"""`trinkwasser import` of publications as published: web pages, PDF reports, workbooks."""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.load import check
from generator.publications import documents
from generator.publications.importer import Target, import_publication
from tests import publications_documents as docs
from tests.helpers import AS_OF, GOLDEN_INPUT, series_path, tree_json

pytest.importorskip("lxml")
pytest.importorskip("pdfplumber")
pytest.importorskip("reportlab")

SAMPLED = "2026-06-01"


@pytest.fixture
def data(tmp_path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    return target


@pytest.fixture
def folder(tmp_path) -> Path:
    out = tmp_path / "published"
    out.mkdir()
    return out


def _import(source: Path, data: Path, *extra: str) -> object:
    args = ["import", str(source), "--data", str(data), "--zone", "12", "--document", "wk-2026"]
    return CliRunner().invoke(cli, [*args, "--sampled-at", SAMPLED, *extra])


def _new_rows(data: Path) -> pl.DataFrame:
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    return rows.filter(pl.col("sampled_at") == SAMPLED, pl.col("zone_id") == "12")


def _fingerprint(directory: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.iterdir())
        if p.is_file()
    } | {"entries": ",".join(sorted(p.name for p in directory.iterdir()))}


# ---------------------------------------------------------------------------- web pages


def test_list_tables_of_a_web_page(folder):
    page = docs.web_page(folder)
    result = CliRunner().invoke(cli, ["import", str(page), "--list-tables"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{page} (web page): 2 data table(s)"
    assert lines[1] == "  5  'Wasserwerk Nord': 5 rows x 7 columns, one column per statistic"
    assert lines[2] == "  6  'Wasserwerk Süd': 5 rows x 4 columns, one value column"
    assert lines[3] == "Ignored:"
    assert lines[4:] == [
        "  1  (no heading): 1 rows x 3 columns: page furniture (inside <header>)",
        "  2  (no heading): 1 rows x 2 columns: page furniture (inside <nav>)",
        "  3  (no heading): 1 rows x 1 columns: a layout table (it holds other tables)",
        "  4  'Trinkwasseranalyse 2026': 1 rows x 2 columns: no parameter column (no header "
        "such as Parameter, Kenngröße, ...)",
        "  7  'Ansprechpartner': 2 rows x 2 columns: no parameter column (no header such as "
        "Parameter, Kenngröße, ...)",
        "  8  'Ansprechpartner': 1 rows x 2 columns: page furniture (inside <footer>)",
    ]


def test_several_tables_and_none_chosen_is_exit_2_with_the_list(folder, data):
    page = docs.web_page(folder)
    before = _fingerprint(data)
    result = _import(page, data)
    assert result.exit_code == 2
    assert "holds 2 data tables: choose one with --table N or --table TEXT" in result.stderr
    assert "  5  'Wasserwerk Nord'" in result.stdout
    result = _import(page, data, "--table", "Wasserwerk")
    assert result.exit_code == 2
    assert "2 data tables' headings contain 'Wasserwerk' (tables 5, 6)" in result.stderr
    result = _import(page, data, "--table", "Ost")
    assert result.exit_code == 2 and "no data table's heading contains 'Ost'" in result.stderr
    result = _import(page, data, "--table", "7")
    assert result.exit_code == 1 and "table 7 is no data table: no parameter column" in (
        result.stderr
    )
    assert _fingerprint(data) == before


def test_a_web_page_table_chosen_by_heading_imports_every_value_verbatim(folder, data):
    page = docs.web_page(folder)
    result = _import(page, data, "--table", "nord", "--sample-point", "Wasserwerk Nord")
    assert result.exit_code == 0, result.output
    assert "(table 5 of a web page, 'Wasserwerk Nord')" in result.stdout
    assert "Ignored columns: 'Grenzwert TrinkwV' (a limit)." in result.stdout
    assert "'Ionenbilanz' [%]: not_in_register" in result.stdout
    rows = _new_rows(data)
    got = sorted(
        rows.select("parameter", "unit", "statistic", "value_text", "reporting_limit").rows()
    )
    codes = {"Nitrat (NO3-)": "nitrat", "Calcium": "calcium", "Blei": "blei"}
    expected = sorted(
        (codes[name], unit, stat, value, bg)
        for name, unit, bg, *values, _ in docs.NORD
        if name in codes
        for stat, value in zip(("min", "mean", "max"), values, strict=True)
    )
    assert got == expected
    assert set(rows["sample_point"]) == {"Wasserwerk Nord"}
    # By number, the other table of the page: one value column.
    result = _import(page, data, "--table", "6", "--sample-point", "Wasserwerk Süd")
    assert result.exit_code == 0, result.output
    sued = _new_rows(data).filter(pl.col("sample_point") == "Wasserwerk Süd")
    assert sorted(sued.select("parameter", "unit", "statistic", "value_text").rows()) == sorted(
        [
            ("ph_wert", None, "sample", "7,61"),
            ("elektrische_leitfaehigkeit", "µS/cm", "sample", "612"),
            ("sulfat", "mg/l", "sample", "84"),
            ("gesamthaerte", "°dH", "sample", "16,3"),
        ]
    )
    assert check(data)[1].height == 0


def test_the_reporting_limit_reaches_the_series_and_gives_less_than_bg_its_number(
    folder, data, tmp_path
):
    from generator.build import build
    from generator.config import Config

    page = docs.web_page(folder)
    result = _import(page, data, "--table", "Nord", "--sample-point", "Wasserwerk Nord")
    assert result.exit_code == 0, result.output
    out = tmp_path / "build"
    build(data, out, AS_OF, Config(), force=True)
    series = tree_json(series_path(out, 12))
    lead = [
        m for m in series["measurements"] if m["parameter"] == "blei" and m["sampled_at"] == SAMPLED
    ]
    by_stat = {m["statistic"]: m for m in lead}
    # `< BG` with BG 0,001 mg/l: below 0.001 mg/l, i.e. 1 µg/l in the register unit.
    assert by_stat["min"]["value_text"] == "< BG"
    assert by_stat["min"]["reporting_limit_text"] == "0,001"
    assert by_stat["min"]["reporting_limit"] == 0.001
    assert by_stat["min"]["normalized_reporting_limit"] == 1.0
    # A number is a number; its reporting limit is printed beside it, nothing more.
    assert by_stat["max"]["value_text"] == "0,0012"
    assert by_stat["max"]["reporting_limit"] is None
    assert by_stat["max"]["reporting_limit_text"] == "0,001"
    older = [m for m in series["measurements"] if m["sampled_at"] != SAMPLED]
    assert older and all(m["reporting_limit_text"] is None for m in older)


def test_the_library_call_takes_the_recipe_of_a_fetch(folder, data):
    page = docs.web_page(folder)
    target = Target(data, 12, "wk-2026", dt.date(2026, 6, 1), "Wasserwerk Süd")
    result = import_publication(page, target, table="süd", encoding="utf-8", dry_run=True)
    assert result.new.height == 4 and result.written is None
    assert set(result.new["sample_point"]) == {"Wasserwerk Süd"}
    with pytest.raises(documents.NoTableChosen):
        import_publication(page, target, dry_run=True)
    written = import_publication(page, target, table="6")
    assert written.written == data / "measurements.csv"


# ---------------------------------------------------------------------------- PDF reports


def test_a_ruled_pdf_table_over_two_pages(folder, data):
    report = docs.ruled_report(folder)
    listing = CliRunner().invoke(cli, ["import", str(report), "--list-tables"])
    assert listing.exit_code == 0, listing.output
    assert (
        "  1  'Trinkwasser Wasserwerk Nord, Jahreswerte 2026', pages 1-2: 38 rows x 5 columns, "
        "one column per statistic" in listing.stdout
    )
    result = _import(report, data)
    assert result.exit_code == 0, result.output
    assert "Ignored columns: 'Grenzwert' (a limit)." in result.stdout
    assert f"Matched {len(docs.RULED)} of {len(docs.RULED)}" in result.stdout
    rows = _new_rows(data)
    got = {
        (r["parameter"], r["unit"], r["statistic"], r["value_text"], r["reporting_limit"])
        for r in rows.iter_rows(named=True)
    }
    expected = {
        (
            docs.RULED_CODES.get(docs.printed(name), docs.printed(name).lower()),
            unit or None,
            "mean",
            mean,
            bg or None,
        )
        for name, unit, bg, mean, _ in docs.RULED
    }
    expected = {(code.replace("ä", "ae").replace("ü", "ue"), *rest) for code, *rest in expected}
    assert got == expected
    assert rows.height == len(docs.RULED)  # the repeated header is no row
    assert check(data)[1].height == 0


def test_a_pdf_whose_names_run_into_the_unit_column_is_read_in_page_order(folder, data):
    """A name and its unit printed over each other are read whole, not interleaved."""
    report = docs.overlapping_report(folder)
    found = documents.read_document(report).tables
    assert len(found) == 1
    frame = found[0].table.frame.drop("_row", strict=False)
    rows = [tuple(r) for r in frame.rows()]
    # Header, then each row as printed: the name whole, the unit whole, in its column.
    assert rows[0] == ("Parameter", "Einheit", "Messwert")
    assert rows[1:] == [(n, u, v) for n, u, v in docs.OVERLAPPING]
    result = _import(report, data)
    assert result.exit_code == 0, result.output
    got = sorted(_new_rows(data).select("parameter", "unit", "value_text").rows())
    assert got == sorted((docs.OVERLAPPING_CODES[n], u, v) for n, u, v in docs.OVERLAPPING)
    assert check(data)[1].height == 0


def test_a_pdf_table_without_ruling_lines(folder, data):
    report = docs.unruled_report(folder)
    result = _import(report, data)
    assert result.exit_code == 0, result.output
    assert "(table 1 of a PDF (page 1), 'Versorgungsgebiet Seeland, Ortsnetz')" in result.stdout
    rows = _new_rows(data)
    got = sorted(rows.select("parameter", "unit", "statistic", "value_text").rows())
    codes = {
        "Nitrat": "nitrat",
        "Sulfat": "sulfat",
        "Calcitlösekapazität": "calcitloesekapazitaet",
        "Säurekapazität bis pH 4,3": "saeurekapazitaet_ks43",
        "Calcium (Ca2+)": "calcium",
        "Chlorid": "chlorid",
        "Natrium": "natrium",
        "Trübung": "truebung",
    }
    expected = sorted(
        (codes[docs.printed(name)], unit, stat, value)
        for name, unit, *values in docs.UNRULED
        for stat, value in zip(("min", "mean", "max"), values, strict=True)
    )
    assert got == expected
    assert "Seite 1" not in result.stdout


# ---------------------------------------------------------------------------- bad input


def _refused(source: Path, data: Path, message: str, *extra: str) -> None:
    before = _fingerprint(data)
    result = _import(source, data, *extra)
    assert result.exit_code == 1, result.output
    # Progress lines go to stderr too; the error is one line that names the file.
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and errors[0].startswith(f"Error: {source}")
    assert errors[0][len(f"Error: {source}")] in ":,"  # then the problem (and its row)
    assert message in errors[0]
    assert _fingerprint(data) == before


def test_bad_publications_are_refused_naming_the_file(folder, data, monkeypatch):
    _refused(docs.scanned_report(folder), data, "the PDF has no text layer (a scanned document?)")
    _refused(docs.encrypted_report(folder), data, "the PDF is encrypted")
    _refused(docs.damaged_report(folder), data, "the PDF is damaged or not a PDF")
    fake = folder / "bericht.pdf"
    fake.write_text("Parameter;Einheit;Messwert\nNitrat;mg/l;21\n", encoding="utf-8")
    _refused(fake, data, "is not a PDF (it does not start with %PDF-)")
    empty = folder / "seite.html"
    empty.write_text("<html><body><h1>Trinkwasser</h1><p>Bald mehr.</p></body></html>", "utf-8")
    _refused(empty, data, "the web page holds no table")
    # The content decides: a saved page without its suffix is read as a page.
    nameless = folder / "seite"
    nameless.write_text(empty.read_text("utf-8"), "utf-8")
    _refused(nameless, data, "the web page holds no table")
    twins = folder / "zwillinge.htm"
    twins.write_text(
        "<table><tr><th>Parameter</th><th>Messwert</th><th>Messwert</th></tr>"
        "<tr><td>Nitrat</td><td>21</td><td>22</td></tr></table>",
        "utf-8",
    )
    _refused(twins, data, "more than one value column (Messwert, Messwert)")
    monkeypatch.setattr(documents, "MAX_PAGE_BYTES", 2000)
    big = docs.web_page(folder, "gross.html")
    _refused(big, data, "more than the 0 MiB a saved supplier page can have")


def test_a_workbook_lists_its_sheets_as_tables(folder, data):
    xlsxwriter = pytest.importorskip("xlsxwriter")
    path = folder / "analysen.xlsx"
    book = xlsxwriter.Workbook(str(path))
    for name, value in (("Nord", 21.5), ("Süd", 18.25)):
        sheet = book.add_worksheet(name)
        sheet.write_row(0, 0, ["Parameter", "Einheit", "Messwert"])
        sheet.write_row(1, 0, ["Nitrat", "mg/l", value])
    book.add_worksheet("Hinweise").write(0, 0, "Alle Werte ohne Gewähr")
    book.close()
    result = CliRunner().invoke(cli, ["import", str(path), "--list-tables"])
    assert result.exit_code == 0, result.output
    assert "  1  'Nord', sheet 'Nord': 2 rows x 3 columns, one value column" in result.stdout
    assert "  3  'Hinweise', sheet 'Hinweise': 1 rows x 1 columns: fewer than two" in (
        result.stdout
    )
    result = _import(path, data, "--table", "süd")
    assert result.exit_code == 0, result.output
    assert _new_rows(data).select("parameter", "value_text").rows() == [("nitrat", "18,25")]


def test_the_build_never_imports_the_readers_of_publications(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys, datetime\n"
        "from pathlib import Path\n"
        "from generator.build import build\n"
        "from generator.config import Config\n"
        f"build(Path({str(GOLDEN_INPUT)!r}), Path({str(tmp_path / 'out')!r}), "
        "datetime.date(2026, 11, 23), Config(), force=True)\n"
        "readers = {'lxml', 'pdfplumber', 'pdfminer', 'python_calamine', 'fastexcel'}\n"
        "loaded = readers & set(sys.modules)\n"
        "print(sorted(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("header", "rows", "expected"),
    [
        (
            "Parameter;Einheit;BG;Min.;Ø;Max.;Grenzwert",
            ["Nitrat;mg/l;0,5;18,2;21,4;24,9;50", "Blei;mg/l;0,001;< BG;< BG;0,0012;0,01"],
            [
                ("nitrat", "mg/l", "min", "18,2", "0,5"),
                ("nitrat", "mg/l", "mean", "21,4", "0,5"),
                ("nitrat", "mg/l", "max", "24,9", "0,5"),
                ("blei", "mg/l", "min", "< BG", "0,001"),
                ("blei", "mg/l", "mean", "< BG", "0,001"),
                ("blei", "mg/l", "max", "0,0012", "0,001"),
            ],
        ),
        (
            "Kenngröße;Ist;Richtwert",
            ["Sulfat (mg/l);84;250", "Calcium [mg/l];96,4;"],
            [
                ("sulfat", "mg/l", "sample", "84", None),
                ("calcium", "mg/l", "sample", "96,4", None),
            ],
        ),
        (
            "Parameter;Durchschnittswert [mg/l];Minimalwert [mg/l];Maximalwert [mg/l]",
            ["Chlorid;31;28;35"],
            [
                ("chlorid", "mg/l", "mean", "31", None),
                ("chlorid", "mg/l", "min", "28", None),
                ("chlorid", "mg/l", "max", "35", None),
            ],
        ),
        (
            "Untersuchungsparameter;Einheit;Bestimmungsgrenze;Befund;Parameterwert",
            ["Nitrit;mg/l;0,01;< 0,01;0,5", "Fluorid;mg/l;0,1;0,12;1,5"],
            [
                ("nitrit", "mg/l", "sample", "< 0,01", "0,01"),
                ("fluorid", "mg/l", "sample", "0,12", "0,1"),
            ],
        ),
        (
            # A section heading below the header is no second header line.
            "Parameter;Einheit;Messwert",
            [";Anionen;", "Nitrat;mg/l;21"],
            [("nitrat", "mg/l", "sample", "21", None)],
        ),
        (
            # A header cell on two lines: `Bestimmungs-` over `grenze`.
            "Parameter;Einheit;Bestimmungs-;Messwert",
            [";;grenze;", "Nitrit;mg/l;0,01;< 0,01"],
            [("nitrit", "mg/l", "sample", "< 0,01", "0,01")],
        ),
        (
            "Parameter;Einheit;Jahresmittelwert;Messwert, Februar 2017",
            ["Sulfat;mg/l;80;84"],
            # The yearly mean beside one sample's value (its column names when it was taken).
            [("sulfat", "mg/l", "mean", "80", None), ("sulfat", "mg/l", "sample", "84", None)],
        ),
    ],
)
def test_column_headers_as_suppliers_spell_them(tmp_path, data, header, rows, expected):
    table = tmp_path / "tabelle.csv"
    table.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    target = Target(data, 12, "wk-2026", dt.date(2026, 6, 1))
    result = import_publication(table, target, dry_run=True)
    got = result.new.select("parameter", "unit", "statistic", "value_text", "reporting_limit")
    assert got.rows() == expected


def test_the_content_decides_the_format_and_a_single_table_names_its_problem(folder, data):
    report = docs.unruled_report(folder)
    nameless = folder / "bericht-ohne-endung"
    nameless.write_bytes(report.read_bytes())
    result = CliRunner().invoke(cli, ["import", str(nameless), "--list-tables"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{nameless} (PDF): 1 data table(s)")
    page = folder / "analyse.txt"
    page.write_text(docs.WEB_PAGE, encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(page), "--list-tables"])
    assert result.stdout.startswith(f"{page} (web page): 2 data table(s)")
    table = folder / "ohne-kopf.csv"
    table.write_text("Nitrat;mg/l;21\nSulfat;mg/l;84\n", encoding="utf-8")
    before = _fingerprint(data)
    result = _import(table, data)
    assert result.exit_code == 1
    assert f"Error: {table}: no header row with a name column (Parameter," in result.stderr
    assert _fingerprint(data) == before
