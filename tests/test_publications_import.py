"""`trinkwasser import`: supplier tables in every layout, imported and built end to end."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from generator.build import build
from generator.cli import cli
from generator.config import Config
from generator.load import check
from generator.publications.importer import Target, plan
from tests.helpers import AS_OF, GOLDEN_INPUT, series_path, tree_json
from tests.publications_corpus import TABLES, Table, write


def _args(table: Table, path: Path, data: Path, *extra: str) -> list[str]:
    args = ["import", str(path), "--data", str(data), "--zone", str(table.zone_id)]
    args += ["--document", table.document_id]
    if table.sampled_at:
        args += ["--sampled-at", table.sampled_at.isoformat()]
    if table.sample_point:
        args += ["--sample-point", table.sample_point]
    if table.encoding != "utf-8":
        args += ["--encoding", table.encoding]
    return [*args, *extra]


def _import_into_zone_12(table: Path, data: Path):
    """Import `table` by hand into zone 12, document wk-2026, sampled on 2026-06-01."""
    return CliRunner().invoke(
        cli,
        ["import", str(table), "--data", str(data), "--zone", "12"]
        + ["--document", "wk-2026", "--sampled-at", "2026-06-01"],
    )


def _target(table: Table, data: Path) -> Target:
    return Target(data, table.zone_id, table.document_id, table.sampled_at, table.sample_point)


@pytest.fixture
def data(tmp_path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    return target


@pytest.fixture
def tables(tmp_path) -> dict[str, Path]:
    folder = tmp_path / "published"
    folder.mkdir()
    return {t.file: write(t, folder) for t in TABLES}


def _outcomes(table: Table, path: Path, data: Path) -> dict[tuple[str, str], str]:
    result = plan(path, _target(table, data), encoding=table.encoding)
    got = {}
    for m in result.matches.iter_rows(named=True):
        stat = m["name_statistic"]
        ok = m["status"] == "matched"
        got[(m["name"], m["unit"])] = (
            m["code"] + (f":{stat}" if stat != "sample" else "") if ok else "!" + m["status"]
        )
    return got


@pytest.mark.parametrize("table", TABLES, ids=[t.file for t in TABLES])
def test_each_layout_reads_every_name_as_expected(table, data, tables):
    got = _outcomes(table, tables[table.file], data)
    expected = {(r[0], r[1]): e for r, e in zip(table.rows, table.expect, strict=True)}
    assert got == expected


def test_all_tables_import_validate_and_build_end_to_end(data, tables, tmp_path):
    runner = CliRunner()
    before = (data / "measurements.csv").read_bytes()
    reports = {}
    for table in TABLES:
        result = runner.invoke(cli, _args(table, tables[table.file], data))
        assert result.exit_code == 0, result.output
        reports[table.file] = result.stdout
    # Existing rows keep their bytes: only the header gained the reporting-limit column (the
    # golden input has a statistic column already).
    after = (data / "measurements.csv").read_bytes()
    old_header, _, old_rows = before.partition(b"\n")
    new_header, _, new_rows = after.partition(b"\n")
    assert old_header.endswith(b",statistic")
    assert new_header == old_header + b",reporting_limit"
    assert new_rows.startswith(old_rows)
    loaded, problems = check(data)
    assert problems.height == 0 and loaded is not None

    a = reports["stadtwerke-nord-analyse-2026.csv"]
    assert "header in row 4, one value column" in a
    assert "Ignored columns: 'Grenzwert TrinkwV' (a limit); 'Bemerkung' (a remark)." in a
    assert "'Ionenbilanz' [%]: not_in_register: an ion balance" in a
    assert "'Nitrat-N' [mg/l]: different_quantity: the value is given as N" in a
    b = reports["wasserverband-sued-jahreswerte-2026.csv"]
    assert "one column per statistic" in b and "'Anzahl' (a count of samples)" in b
    assert "'Magnesuim' [mg/l]: no_match" in b and "Perhaps: magnesium?" in b
    c = reports["seeland-spurenstoffe-2026.xlsx"]
    assert "one column per sampling point" in c
    assert "reporting limit(s) in column 'BG' are kept with their values" in c
    d = reports["gemeindewerke-west-netz-2026.csv"]
    assert "one column per date" in d
    assert "'Chlorid' [µS/cm]: unit_error: the unit µS/cm does not fit chlorid" in d

    rows = loaded.measurements
    expected = sum(
        _value_cells(t, r)
        for t in TABLES
        for r, e in zip(t.rows, t.expect, strict=True)
        if not e.startswith("!")
    )
    assert rows.height == pl.read_csv(GOLDEN_INPUT / "measurements.csv").height + expected

    # Every value exactly as printed in the table.
    a_rows = rows.filter(pl.col("document_id") == "wk-2026", pl.col("zone_id") == 11)
    heide = a_rows.filter(pl.col("sample_point") == "Wasserwerk Heide, Ausgang")
    by_code = dict(zip(heide["parameter"], heide["value_text"], strict=True))
    assert by_code["blei"] == "< 0,001" and by_code["pak"] == "n.n."
    assert by_code["calcitloesekapazitaet"] == "-3,1" and by_code["geruch"] == "ohne"
    assert heide.filter(pl.col("parameter") == "doc")["unit"].to_list() == ["mg C/l"]
    south = rows.filter(
        pl.col("zone_id") == 12, pl.col("parameter") == "nitrat", pl.col("statistic") != "sample"
    )
    assert dict(zip(south["statistic"], south["value_text"], strict=True)) == {
        "min": "18,2",
        "mean": "24,6",
        "max": "53,1",
    }
    lake = rows.filter(pl.col("zone_id") == 21, pl.col("parameter") == "metazachlor_esa")
    assert sorted(zip(lake["sample_point"], lake["value_text"], strict=True)) == [
        ("Hochbehälter Nord", "0,07"),
        ("Wasserwerk See, Reinwasser", "0,08"),
    ]
    # The reporting limit as printed: from the BG column, else from the name.
    limits = rows.filter(pl.col("zone_id") == 21).select(
        "parameter", "sample_point", "reporting_limit"
    )
    assert limits.filter(pl.col("parameter") == "pfbs")["reporting_limit"].to_list() == ["1", "1"]
    assert limits.filter(pl.col("parameter") == "quecksilber")["reporting_limit"].to_list() == [
        "0,0001",
        "0,0001",
    ]
    assert limits.filter(pl.col("parameter") == "thm")["reporting_limit"].null_count() == 2
    west = rows.filter(pl.col("sample_point") == "Netz, Rathaus", pl.col("parameter") == "nitrat")
    assert sorted(zip(west["sampled_at"], west["statistic"], west["value_text"], strict=True)) == [
        (dt.date(2026, 2, 10), "mean", "22,5"),
        (dt.date(2026, 2, 10), "sample", "22"),
        (dt.date(2026, 5, 12), "mean", "22,5"),
        (dt.date(2026, 5, 12), "sample", "23"),
    ]

    out = tmp_path / "build"
    build(data, out, AS_OF, Config(), force=True)
    zone12 = json.loads((out / "_data/v1/zones/12.json").read_text(encoding="utf-8"))
    current = {v["parameter"]: v for v in zone12["current_values"]}
    # Only aggregates: the maximum stands for the parameter, and the verdict says so.
    assert (current["nitrat"]["statistic"], current["nitrat"]["value_text"]) == ("max", "53,1")
    assert current["nitrat"]["state"] == "exceeds_limit"
    assert (current["blei"]["statistic"], current["blei"]["state"]) == ("max", "below_limit")
    # A pH range needs both ends: the minimum (7,45) and maximum (7,71) of one date show them.
    assert current["ph_wert"]["state"] == "within_range"
    series = tree_json(series_path(out, 12))["measurements"]
    nitrat = {m["statistic"] for m in series if m["parameter"] == "nitrat"}
    assert nitrat == {"sample", "min", "mean", "max"}
    page = next((out / "gebiete").glob("12*/index.html")).read_text(encoding="utf-8")
    assert '<b>53,1 mg/l</b> <span class="statistic">Maximum</span>' in page
    assert "Ein Maximum unter dem Grenzwert zeigt, dass jede Probe darunter lag" in page
    zone11 = json.loads((out / "_data/v1/zones/11.json").read_text(encoding="utf-8"))
    nitrat = {v["parameter"]: v for v in zone11["current_values"]}["nitrat"]
    # Each sample point stands on its own newest date, and the worst stands for the zone:
    # table A's later sample (21,4) is listed beside it, not hiding it.
    assert (nitrat["statistic"], nitrat["value_text"]) == ("sample", "24,6")
    assert ("sample", "21,4") in [(p["statistic"], p["value_text"]) for p in nitrat["other_points"]]


def _value_cells(table: Table, row: tuple[str, ...]) -> int:
    """How many value cells of a row become measurements (the layout's value columns)."""
    roles = {
        "stadtwerke-nord-analyse-2026.csv": [2],
        "wasserverband-sued-jahreswerte-2026.csv": [3, 4, 5],
        "seeland-spurenstoffe-2026.xlsx": [3, 4],
        "gemeindewerke-west-netz-2026.csv": [2, 3],
    }[table.file]
    return sum(1 for i in roles if row[i])


def test_importing_again_adds_nothing_and_a_changed_value_is_a_conflict(data, tables):
    table = TABLES[1]
    path = tables[table.file]
    runner = CliRunner()
    assert runner.invoke(cli, _args(table, path, data)).exit_code == 0
    first = (data / "measurements.csv").read_bytes()
    again = runner.invoke(cli, _args(table, path, data))
    assert again.exit_code == 0
    assert "Appended 0 row(s); 120 already present; 0 conflict(s)" in again.stdout
    assert (data / "measurements.csv").read_bytes() == first

    path.write_text(path.read_text(encoding="utf-8").replace("53,1", "53,2"), encoding="utf-8")
    changed = runner.invoke(cli, _args(table, path, data))
    assert changed.exit_code == 0
    assert "row 12: nitrat 2026-06-30 max: '53,2': the data directory has 53,1 mg/l" in (
        changed.stdout
    )
    assert "Appended 0 row(s); 119 already present; 1 conflict(s)" in changed.stdout
    assert (data / "measurements.csv").read_bytes() == first


def test_dry_run_and_strict_write_nothing(data, tables):
    table = TABLES[0]
    before = (data / "measurements.csv").read_bytes()
    runner = CliRunner()
    dry = runner.invoke(cli, _args(table, tables[table.file], data, "--dry-run"))
    assert dry.exit_code == 0
    assert "Would append 83 row(s)" in dry.stdout and "Dry run: nothing was written." in dry.stdout
    strict = runner.invoke(cli, _args(table, tables[table.file], data, "--strict"))
    assert strict.exit_code == 1
    assert "value(s) could not be imported (--strict); nothing was written" in strict.stderr
    assert (data / "measurements.csv").read_bytes() == before


def test_two_cells_with_one_key_and_different_values_are_held_back(data, tmp_path):
    table = tmp_path / "doppelt.csv"
    table.write_text(
        "Parameter;Einheit;Wert\npH-Wert (vor Ort);;7,6\npH-Wert (Labor);;7,8\n"
        "Nitrat;mg/l;12\nNitrat (NO3-);mg/l;12\n",
        encoding="utf-8",
    )
    target = Target(data, 11, "wk-2026", dt.date(2026, 6, 1))
    result = plan(table, target)
    assert result.new["parameter"].to_list() == ["nitrat"]
    assert sorted(result.conflicts["value_text"]) == ["7,6", "7,8"]
    assert set(result.conflicts["why"]) == {
        "another cell of the table has the same key and another value"
    }


def test_excel_numbers_and_date_cells(data, tmp_path):
    xlsxwriter = pytest.importorskip("xlsxwriter")
    path = tmp_path / "werte.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Werte")
    dates = book.add_format({"num_format": "dd.mm.yyyy"})
    sheet.write_row(0, 0, ["Parameter", "Einheit"])
    sheet.write_datetime(0, 2, dt.datetime(2026, 3, 2), dates)
    sheet.write_datetime(0, 3, dt.datetime(2026, 4, 6), dates)
    sheet.write_row(1, 0, ["Nitrat", "mg/l", 12.5, "< 1"])
    sheet.write_row(2, 0, ["Calcium", "mg/l", 91, 90.25])
    # Numbers as Excel stores them: binary floating point, shown by the sheet as 0,3.
    sheet.write_row(3, 0, ["Eisen", "mg/l", 0.1 + 0.2, 0.30000000000000004])
    sheet.write_row(4, 0, ["Mangan", "mg/l", 0.00001, 2 / 3])
    sheet.write_row(5, 0, ["Natrium", "mg/l", 1234567.891, -0.0])
    # A cell stored as text keeps its text, dot and all.
    sheet.write_string(6, 0, "Kalium")
    sheet.write_string(6, 1, "mg/l")
    sheet.write_string(6, 2, "0.30000000000000004")
    sheet.write_string(6, 3, "2.5")
    book.close()
    result = plan(path, Target(data, 12, "wk-2026", None))
    rows = result.new.select("parameter", "sampled_at", "value_text").rows()
    march, april = dt.date(2026, 3, 2), dt.date(2026, 4, 6)
    assert rows == [
        ("nitrat", march, "12,5"),
        ("nitrat", april, "< 1"),
        ("calcium", march, "91"),
        ("calcium", april, "90,25"),
        ("eisen", march, "0,3"),
        ("eisen", april, "0,3"),
        ("mangan", march, "0,00001"),
        ("mangan", april, "0,666666666666667"),
        ("natrium", march, "1234567,891"),
        ("natrium", april, "0"),
        ("kalium", march, "0.30000000000000004"),
        ("kalium", april, "2.5"),
    ]


def test_clear_errors(data, tables):
    runner = CliRunner()
    west = TABLES[3]
    args = _args(west, tables[west.file], data)
    no_encoding = [a for a in args if a not in ("--encoding", "cp1252")]
    result = runner.invoke(cli, no_encoding)
    assert result.exit_code == 1
    assert "is not utf-8; a table saved by Excel" in result.stderr and "--encoding cp1252" in (
        result.stderr
    )
    south = TABLES[1]
    args = _args(south, tables[south.file], data)
    args[args.index("--zone") + 1] = "99"
    result = runner.invoke(cli, args)
    assert result.exit_code == 1 and "zone 99 is not in the zones table" in result.stderr
    args = _args(south, tables[south.file], data)
    args[args.index("--sampled-at") + 1] = "2026-07-01"
    result = runner.invoke(cli, args)
    assert result.exit_code == 1
    assert "sample date 2026-07-01 is after the edition date 2026-06-30" in result.stderr
    args = [a for a in _args(south, tables[south.file], data) if a not in ("--sampled-at",)]
    args.remove("2026-06-30")
    result = runner.invoke(cli, args)
    assert result.exit_code == 1 and "give the sample date (--sampled-at)" in result.stderr


def test_a_new_data_directory_gets_a_measurements_table(data, tables):
    (data / "measurements.csv").unlink()
    table = TABLES[2]
    result = CliRunner().invoke(cli, _args(table, tables[table.file], data))
    assert result.exit_code == 0, result.output
    header = (data / "measurements.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == (
        "zone_id,parameter,sampled_at,value_text,unit,document_id,sample_point,statistic,"
        "reporting_limit"
    )
    assert check(data)[1].height == 0


def test_units_in_headers_and_a_parquet_measurements_table(data, tmp_path):
    frame = pl.read_csv(data / "measurements.csv", infer_schema=False)
    frame.write_parquet(data / "measurements.parquet")
    (data / "measurements.csv").unlink()
    table = tmp_path / "kopfzeile.csv"
    table.write_text(
        'Stoff,Minimum [mg/l],Mittelwert [mg/l],Maximum [mg/l]\nNitrat,10,"12,5",15\nSulfat,,80,\n',
        encoding="utf-8",
    )
    result = _import_into_zone_12(table, data)
    assert result.exit_code == 0, result.output
    assert "Appended 4 row(s)" in result.stdout
    stored = pl.read_parquet(data / "measurements.parquet")
    assert stored.height == frame.height + 4
    new = stored.filter(pl.col("sampled_at").cast(pl.String) == "2026-06-01")
    assert sorted(new.select("parameter", "statistic", "value_text", "unit").rows()) == [
        ("nitrat", "max", "15", "mg/l"),
        ("nitrat", "mean", "12,5", "mg/l"),
        ("nitrat", "min", "10", "mg/l"),
        ("sulfat", "mean", "80", "mg/l"),
    ]
    assert check(data)[1].height == 0


def test_a_unit_with_its_substance_and_sampling_places_import_and_validate(data, tmp_path):
    table = tmp_path / "netzprobe.csv"
    table.write_text(
        "Parameter;Einheit;Wert\n"
        "Nitrat (Netzprobe);mg/l NO3;12\n"
        "Ammonium;mg/l N;0,05\n"
        "Nitrit (Ausgang Wasserwerk);mg/l;0,01\n"
        "Nitrit (Reinwasser);mg/l;0,02\n"
        "Temperatur (Labor);°C;11,9\n"
        "Wassertemperatur (vor Ort);°C;6,9\n",
        encoding="utf-8",
    )
    result = _import_into_zone_12(table, data)
    assert result.exit_code == 0, result.output
    stored = pl.read_csv(data / "measurements.csv", infer_schema=False)
    new = stored.filter(pl.col("sampled_at") == "2026-06-01")
    # `mg/l NO3` is nitrate's own mg/l and is stored as mg/l, which the contract knows.
    assert sorted(new.select("parameter", "value_text", "unit").rows()) == [
        ("nitrat", "12", "mg/l"),
        ("nitrit_wasserwerksausgang", "0,01", "mg/l"),
        ("temperatur", "6,9", "°C"),
    ]
    assert check(data)[1].height == 0
    # Ammonium as nitrogen, nitrite taken in the works, the laboratory's temperature: listed.
    for name in ("Ammonium", "Nitrit (Reinwasser)", "Temperatur (Labor)"):
        assert name in result.stdout
