"""Hostile and careless inputs of the command-line tools, each written by the test.

One clear error, exit status 1, nothing written, never a traceback; bounded work on hostile
sizes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import shapely
from click.testing import CliRunner

from generator.cli import cli
from generator.errors import terminal_safe
from tests.helpers import GOLDEN_INPUT

IMPORT = ["--zone", "11", "--document", "wk-2026", "--sampled-at", "2026-06-01"]


def invoke(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_one_clear_error(result, *words: str) -> None:
    assert result.exit_code == 1, result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    assert "Traceback" not in result.output
    errors = result.stderr[result.stderr.find("Error: ") :]
    assert result.stderr.count("Error: ") == 1 and errors, result.stderr
    for word in words:
        assert word in errors, result.stderr


@pytest.fixture
def data(tmp_path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    return target


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# ------------------------------------------------------------------ import


def test_import_refuses_formula_cells_and_names_them(data, tmp_path):
    table = tmp_path / "analyse.csv"
    table.write_text(
        "Parameter;Einheit;Wasserwerk Nord;=cmd|' /C calc'!A0\n"  # a column per sampling point
        'Nitrat;mg/l;=HYPERLINK("http://evil.example");\n'
        "Calcium;@SUM(1);91;\n"
        "Natrium;mg/l;-23;12\n"
        "Kalium;mg/l;+0,24;\n"
        "Magnesium;mg/l;+cmd|' /C calc'!A0;\n"
        "Sulfat;-;-2+3+cmd|' /C calc'!A0;-/-\n",
        encoding="utf-8",
    )
    before = _snapshot(data)
    result = invoke("import", table, "--data", data, *IMPORT)
    assert_one_clear_error(result, "6 cell(s) start with =, @, + or - as a spreadsheet formula")
    assert "row 2, value in column 'Wasserwerk Nord': '=HYPERLINK(" in result.stderr
    assert "row 3, unit: '@SUM(1)'" in result.stderr
    assert "row 4, sample point: \"=cmd|' /C calc'!A0\"" in result.stderr
    assert "row 6, value in column 'Wasserwerk Nord': \"+cmd|' /C calc'!A0\"" in result.stderr
    assert "row 7, value in column 'Wasserwerk Nord': \"-2+3+cmd|' /C calc'!A0\"" in (result.stderr)
    # Signed values are values, not formulas; dashes say "no value" or "no unit".
    assert "'-23'" not in result.stderr and "+0,24" not in result.stderr
    assert "'-'" not in result.stderr and "'-/-'" not in result.stderr
    assert _snapshot(data) == before


def test_import_refuses_a_workbooks_cached_formula_text(data, tmp_path):
    xlsxwriter = pytest.importorskip("xlsxwriter")
    path = tmp_path / "werte.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Werte")
    sheet.write_row(0, 0, ["Parameter", "Einheit", "Wert"])
    sheet.write_row(1, 0, ["Nitrat", "mg/l"])
    # A formula whose cached result is text that a spreadsheet would run again.
    sheet.write_formula(1, 2, '="="&"1+1"', None, "=1+1")
    book.close()
    before = _snapshot(data)
    result = invoke("import", path, "--data", data, *IMPORT)
    assert_one_clear_error(result, "row 2, value in column 'Wert': '=1+1'")
    assert _snapshot(data) == before


def test_a_workbook_that_would_need_gigabytes_is_refused_before_reading(data, tmp_path):
    xlsxwriter = pytest.importorskip("xlsxwriter")
    path = tmp_path / "gross.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Werte")
    sheet.write_row(0, 0, ["Parameter", "Einheit", "Wert"])
    sheet.write_row(1, 0, ["Nitrat", "mg/l", "12"])
    sheet.write(1_048_575, 16_383, "x")  # the last cell of a sheet: 17 billion in the grid
    book.close()
    assert path.stat().st_size < 20_000
    before = _snapshot(data)
    result = invoke("import", path, "--data", data, *IMPORT)
    assert_one_clear_error(result, "sheet 'Werte' spans A1:XFD1048576", "would need gigabytes")
    assert _snapshot(data) == before


def test_a_panic_of_the_excel_reader_is_an_error_not_a_crash(data, tmp_path, monkeypatch):
    pytest.importorskip("xlsxwriter")
    import xlsxwriter

    from generator.publications import read

    path = tmp_path / "werte.xlsx"
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet("Werte").write_row(0, 0, ["Parameter", "Einheit", "Wert"])
    book.close()

    class PanicException(BaseException):  # what pyo3 raises for a panic of Rust code
        pass

    def panicking(*args, **kwargs):
        raise PanicException("index out of bounds: the len is 3 but the index is 7")

    class Reader:  # python-calamine's module, its workbook panicking as it opens the file
        class CalamineWorkbook:
            from_path = staticmethod(panicking)

    monkeypatch.setattr(read, "_calamine", lambda: Reader)
    result = invoke("import", path, "--data", data, *IMPORT)
    assert_one_clear_error(result, "cannot read the workbook: index out of bounds")


def test_an_interrupted_import_leaves_no_staging_folder_behind(data, tmp_path):
    # A process killed between staging and renaming: its folder names a process that is gone.
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = data / f".trinkwasser-import-{gone.pid}-x1y2z3"
    stale.mkdir()
    (stale / "measurements.csv").write_text("half a file", encoding="utf-8")
    running = data / f".trinkwasser-import-{os.getpid()}-abcdef"  # a live import's folder
    running.mkdir()
    table = tmp_path / "analyse.csv"
    table.write_text("Parameter;Einheit;Wert\nNitrat;mg/l;12\n", encoding="utf-8")
    result = invoke("import", table, "--data", data, *IMPORT)
    assert result.exit_code == 0, result.output
    assert not stale.exists() and running.exists()
    assert f"Removed {stale}, left behind by an interrupted import." in result.stderr
    leftovers = [p.name for p in data.iterdir() if p.name.startswith(".trinkwasser-import")]
    assert leftovers == [running.name]


def test_a_killed_import_process_leaves_its_folder_for_the_next_one(data, tmp_path):
    table = tmp_path / "analyse.csv"
    table.write_text("Parameter;Einheit;Wert\nNitrat;mg/l;12\n", encoding="utf-8")
    script = (
        "import os, sys, generator.publications.importer as imp\n"
        "data = imp.Path(sys.argv[1])\n"
        "real = imp.check_tables\n"
        "def stop(*a, **k):\n"
        "    os._exit(9)  # killed while the staging folder exists\n"
        "imp.check_tables = lambda d, *a, **k: real(d, *a, **k) if d == data"
        " else stop()\n"
        "from generator.cli import main\n"
        "sys.argv = ['trinkwasser', 'import', sys.argv[2], '--data', sys.argv[1], *sys.argv[3:]]\n"
        "main()\n"
    )
    killed = subprocess.run(
        [sys.executable, "-c", script, str(data), str(table), *IMPORT], capture_output=True
    )
    assert killed.returncode == 9, killed.stderr.decode()
    left = [p for p in data.iterdir() if p.name.startswith(".trinkwasser-import")]
    assert len(left) == 1
    result = invoke("import", table, "--data", data, *IMPORT)
    assert result.exit_code == 0, result.output
    assert f"Removed {left[0]}" in result.stderr
    assert not any(p.name.startswith(".trinkwasser-import") for p in data.iterdir())


def test_notes_about_ignored_columns_are_capped(data, tmp_path):
    table = tmp_path / "breit.csv"
    header = ["Parameter", "Einheit", "Wert", *[f"Spalte {i}" for i in range(3000)]]
    row = ["Nitrat", "mg/l", "12", *["" for _ in range(3000)]]
    table.write_text(";".join(header) + "\n" + ";".join(row) + "\n", encoding="utf-8")
    result = invoke("import", table, "--data", data, *IMPORT, "--dry-run")
    assert result.exit_code == 0, result.output
    assert len(result.stdout) < 5_000, len(result.stdout)
    assert "more" in result.stdout


def test_control_characters_and_bidi_overrides_are_escaped_in_reports(data, tmp_path):
    table = tmp_path / "analyse.csv"
    table.write_text(
        "Parameter;Einheit;Wert\nNitr\x1b[2Jat;mg/l;12\nBlei\u202e lm/gm;µg/l;3\n",
        encoding="utf-8",
    )
    result = invoke("import", table, "--data", data, *IMPORT, "--dry-run")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output
    assert "\\x1b[2J" in result.output and "\\u202e" in result.output
    names = tmp_path / "names.csv"
    names.write_text("name,unit\n\x1b]0;pwned\x07Nitrat,mg/l\nA\u202eB,\n", encoding="utf-8")
    matched = invoke("parameters", "match", names)
    assert matched.exit_code == 0, matched.output
    assert "\x1b" not in matched.stderr and "\u202e" not in matched.stderr
    assert "\\x1b]0;pwned\\x07" in matched.stderr


def test_terminal_safe_keeps_lines_and_plain_text():
    assert terminal_safe("a\nb ä €") == "a\nb ä €"
    assert terminal_safe("x\x1b[31my\u202ez\tw") == "x\\x1b[31my\\u202ez\\tw"


# ------------------------------------------------------------------ parameters match


def test_an_empty_names_file_is_a_clear_error(tmp_path):
    names = tmp_path / "names.csv"
    names.write_text("", encoding="utf-8")
    result = invoke("parameters", "match", names)
    assert_one_clear_error(result, "the file is empty; its first row must be the header name,unit")
    assert result.stdout == ""


def test_parameters_match_takes_the_encoding_its_error_recommends(tmp_path):
    names = tmp_path / "names.csv"
    names.write_bytes("name;unit\nNatrium;mg/l\nWärme;°C\n".encode("cp1252"))
    refused = invoke("parameters", "match", names)
    assert_one_clear_error(refused, "--encoding cp1252")
    result = invoke("parameters", "match", names, "--encoding", "cp1252")
    assert result.exit_code == 0, result.output
    assert "Wärme" in result.stdout and "°C" in result.stdout


def test_matching_many_distinct_unknown_names_is_bounded(monkeypatch):
    import difflib

    from generator.publications import match as match_module
    from generator.publications.commands import _register
    from generator.publications.match import CANDIDATES, SUGGESTIONS, match_one

    index = _register(None)  # the packaged register and aliases
    known = len([k for k, e in index.entries.items() if e.code])
    compared: list[int] = []
    real = difflib.get_close_matches

    def counting(word, possibilities, *args, **kwargs):
        compared.append(len(possibilities))
        return real(word, possibilities, *args, **kwargs)

    monkeypatch.setattr(match_module.difflib, "get_close_matches", counting)
    rng = np.random.default_rng(7)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyzäöü"))
    names = ["".join(rng.choice(letters, 12)) for _ in range(500)]
    matches = [match_one(name, "", index) for name in names]
    assert all(m.status == "no_match" and len(m.suggestions) <= SUGGESTIONS for m in matches)
    # Each unknown name is compared in full with at most CANDIDATES spellings (from the
    # trigram index), not with every one of the register's spellings as before.
    assert known > 10 * CANDIDATES
    assert compared and max(compared) <= CANDIDATES
    assert match_one("Nikel", "µg/l", index).suggestions[0] == "nickel"


def test_parameters_match_lists_at_most_fifty_unknown_names(tmp_path):
    names = tmp_path / "names.csv"
    names.write_text(
        "name,unit\n" + "".join(f"Unbekannt{i},mg/l\n" for i in range(120)), encoding="utf-8"
    )
    result = invoke("parameters", "match", names)
    assert result.exit_code == 0, result.output
    assert result.stderr.count("no sure match") == 50
    assert "... and 70 more without a sure match (see the CSV)" in result.stderr
    assert result.stdout.count("\n") == 121


# ------------------------------------------------------------------ mapping

geo = pytest.importorskip("pyogrio")


from tests.mapping_helpers import (  # noqa: E402
    KM,
    X0,
    Y0,
    sq,
    two_plz_three_zones,
    write_geojson,
    write_grid,
    write_layer,
)


@pytest.fixture
def areas(tmp_path):
    return two_plz_three_zones(tmp_path)


def mapping(tmp_path, *args: object):
    out = tmp_path / "out" / "plz_zones.csv"
    return invoke("mapping", *args, "--out", out), out.parent


def test_a_geojson_in_metres_names_the_likely_crs_problem(tmp_path, areas):
    metres = write_geojson(tmp_path / "plz.geojson", [({"plz": "34117"}, sq(0, 0, KM, KM))])
    result, out = mapping(tmp_path, metres, areas[1])
    assert_one_clear_error(
        result, "beyond longitude/latitude", "probably metres of a projected CRS", "#1"
    )
    assert not out.exists()


@pytest.mark.parametrize(
    "crs",
    [
        'LOCAL_CS["Werksplan",UNIT["metre",1]]',
        'ENGCRS["Werksplan",EDATUM["x"],CS[Cartesian,2],AXIS["x",east,LENGTHUNIT["metre",1]],'
        'AXIS["y",north,LENGTHUNIT["metre",1]]]',
    ],
)
def test_a_crs_that_cannot_be_transformed_is_a_clear_error(tmp_path, areas, crs):
    local = write_layer(tmp_path / "plz-local.gpkg", [sq(0, 0, KM, KM)], crs=crs, plz=["34117"])
    result, out = mapping(tmp_path, local, areas[1])
    assert_one_clear_error(result, "cannot be transformed to EPSG:3035")
    assert not out.exists()


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 1e300], ids=["nan", "inf", "absurd"])
def test_nan_inf_or_absurd_coordinates_name_the_feature(tmp_path, areas, bad):
    broken = shapely.Polygon([(X0, Y0), (X0 + KM, Y0), (bad, Y0 + KM), (X0, Y0)])
    layer = write_layer(
        tmp_path / "plz-bad.gpkg", [sq(2 * KM, 0, 3 * KM, KM), broken], plz=["34119", "34117"]
    )
    result, out = mapping(tmp_path, layer, areas[1])
    assert_one_clear_error(result, "feature(s) #2")
    assert not out.exists()


@pytest.mark.parametrize("bad", ["nan", "inf", "-1e308", "99999999999"])
def test_nan_inf_or_absurd_grid_cells_name_the_line(tmp_path, areas, bad):
    grid = write_grid(tmp_path / "grid.csv", [(50, 50, "10"), (150, 150, "7"), (250, 250, "5")])
    lines = grid.read_text(encoding="utf-8").splitlines()
    cells = lines[3].split(";")
    cells[1] = bad
    lines[3] = ";".join(cells)
    grid.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result, out = mapping(tmp_path, *areas, "--population", grid)
    assert_one_clear_error(result, "line 4: the cell centre", "no point of EPSG:3035")
    assert not out.exists()


def test_an_osm_node_with_lat_nan_is_a_clear_error(tmp_path, areas):
    from pyproj import Transformer

    to = Transformer.from_crs("EPSG:3035", "EPSG:4326", always_xy=True)
    (lon1, lat1), (lon2, _) = (
        to.transform(X0 + 200, Y0 + 500),
        to.transform(X0 + 600, Y0 + 500),
    )
    osm = tmp_path / "streets.osm"
    osm.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="test">\n'
        f'<node id="1" version="1" lat="{lat1:.7f}" lon="{lon1:.7f}"/>\n'
        f'<node id="2" version="1" lat="nan" lon="{lon2:.7f}"/>\n'
        '<way id="10" version="1"><nd ref="1"/><nd ref="2"/>'
        '<tag k="highway" v="residential"/><tag k="name" v="Hauptstraße"/></way>\n</osm>\n',
        encoding="utf-8",
    )
    streets = tmp_path / "out" / "streets.csv"
    result, out = mapping(tmp_path, *areas, "--streets", osm, "--streets-out", streets)
    assert_one_clear_error(result, "streets.osm: cannot read it as an OSM extract", "nan")
    assert not out.exists()


@pytest.mark.parametrize("option", ["--report", "--streets-out"])
def test_an_output_equal_to_out_is_refused_before_anything_is_read(tmp_path, areas, option):
    out = tmp_path / "out" / "plz_zones.csv"
    extra = ["--streets", areas[0]] if option == "--streets-out" else []
    result = invoke("mapping", *areas, "--out", out, option, out, *extra)
    assert_one_clear_error(result, f"{option} and --out name the same file")
    assert not out.parent.exists()


def test_an_output_over_an_input_is_refused(tmp_path, areas):
    result = invoke("mapping", *areas, "--out", tmp_path / "o.csv", "--report", areas[0])
    assert_one_clear_error(result, "is an input and would be overwritten by --report")


def test_a_file_name_with_a_semicolon_is_a_clear_error(tmp_path, areas):
    odd = tmp_path / "plz;2026.gpkg"
    shutil.copy(areas[0], odd)
    result, out = mapping(tmp_path, odd, areas[1])
    assert_one_clear_error(result, "GDAL reads this file name as another path", "rename the file")
    assert not out.exists()


def test_a_semicolon_in_a_supplier_table_name_is_harmless(data, tmp_path):
    table = tmp_path / "analyse;2026.csv"
    table.write_text("Parameter;Einheit;Wert\nNitrat;mg/l;12\n", encoding="utf-8")
    result = invoke("import", table, "--data", data, *IMPORT, "--dry-run")
    assert result.exit_code == 0, result.output
    assert "Would append 1 row(s)" in result.stdout


def _star(vertices: int, at: float = 0.0):
    """Return a ring that crosses itself about vertices²/4 times (a star polygon)."""
    step = vertices // 2
    angle = 2 * np.pi * ((np.arange(vertices) * step) % vertices) / vertices
    centre = (X0 + at + 500, Y0 + 500)
    return shapely.Polygon(
        np.column_stack([centre[0] + 400 * np.cos(angle), centre[1] + 400 * np.sin(angle)])
    )


def test_a_pathological_self_intersecting_ring_is_refused_in_bounded_time(
    tmp_path, areas, monkeypatch
):
    from generator.mapping.areas import crossings

    tangle = _star(20_001)  # repairing it would take hours; counting stops at the bound
    assert crossings(tangle, 10_000) > 10_000
    layer = write_layer(
        tmp_path / "plz-tangle.gpkg", [tangle, sq(2 * KM, 0, 3 * KM, KM)], plz=["34117", "34119"]
    )
    import generator.mapping.areas as areas_module

    def never(*args, **kwargs):
        raise AssertionError("the tangle reached make_valid (hours of work)")

    monkeypatch.setattr(areas_module.shapely, "make_valid", never)
    result, out = mapping(tmp_path, layer, areas[1])
    assert_one_clear_error(result, "plz 34117: feature #1 crosses itself more than 10,000")
    assert "--max-crossings" in result.stderr
    assert not out.exists()


def test_a_small_bow_tie_is_still_repaired_and_the_bound_is_an_option(tmp_path, areas):
    from generator.mapping.areas import crossings

    bow_tie = shapely.Polygon(
        [(X0, Y0), (X0 + KM, Y0 + KM), (X0 + KM, Y0), (X0, Y0 + KM), (X0, Y0)]
    )
    assert crossings(bow_tie, 10) == 1
    assert crossings(sq(0, 0, KM, KM), 10) == 0
    layer = write_layer(tmp_path / "plz-bow.gpkg", [bow_tie], plz=["34117"])
    result, out = mapping(tmp_path, layer, areas[1])
    assert result.exit_code == 0, result.output
    star = write_layer(tmp_path / "plz-star.gpkg", [_star(101)], plz=["34117"])
    assert crossings(_star(101), 10**6) > 100
    refused, _ = mapping(tmp_path, star, areas[1], "--max-crossings", "100")
    assert_one_clear_error(refused, "crosses itself more than 100 times")


# ------------------------------------------------------------------ keys


def test_an_access_request_cannot_write_to_the_operators_terminal(tmp_path, monkeypatch):
    from generator.gate.sqlite_state import open_state

    monkeypatch.chdir(tmp_path)
    state = open_state(tmp_path / "state")
    state.submit_request("ada@example.org", "Eine App\x1b[2J\x1b]0;gehackt\x07 \u202eredaer")
    listed = invoke("keys", "requests", "--state", tmp_path / "state")
    assert listed.exit_code == 0, listed.output
    assert "\x1b" not in listed.output and "\u202e" not in listed.output
    assert "Eine App\\x1b[2J\\x1b]0;gehackt\\x07 \\u202eredaer" in listed.output
