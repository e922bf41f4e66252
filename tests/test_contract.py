"""The declared contract: generated docs, and what one declaration buys.

Optional tables, optional columns with defaults, each shown on a throwaway declaration.
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import polars as pl
import pytest

from generator.api import routes
from generator.contract import docs, rules
from generator.contract.check import check_tables
from generator.contract.constraints import NotBefore
from generator.contract.model import DATE, FLOAT, ROW, STR, Column, RowConstraint, Table
from generator.contract.tables import ALL_TABLES, MEASUREMENTS, PLZ_ZONES, TABLES
from generator.load import SourceData, check, reference_dir
from tests.helpers import edit, read_rows, write_rows

DOC = Path(__file__).parents[1] / "docs" / "data-contract.md"


def test_committed_docs_equal_the_generated_text():
    assert DOC.read_text(encoding="utf-8") == docs.render(), (
        "docs/data-contract.md is out of date: "
        "run `python -m generator.contract.docs > docs/data-contract.md`"
    )


def test_docs_describe_every_column_constraint_and_rule():
    text = docs.render()
    for table in ALL_TABLES:
        section = text.split(f"### `{table.name}`\n")[1].split("\n#")[0]
        for column in table.columns:
            row = next(
                line for line in section.splitlines() if line.startswith(f"| `{column.name}` |")
            )
            for constraint in column.rules:
                assert constraint.describe() in row.replace("\\|", "|")
        for rule in table.rules:
            assert rule.describe() in " ".join(section.split())
    for rule in rules.ALL:
        assert f"| `{rule.name}` | {rule.fix} |" in text


def test_documented_example_rows_satisfy_the_contract(tmp_path):
    for table in TABLES:
        with (tmp_path / f"{table.name}.csv").open("w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(table.names)
            writer.writerow([c.example for c in table.columns])
    data, problems = check(tmp_path)
    assert problems.height == 0, problems.to_dicts()
    assert data.measurements.height == 1


def test_source_data_has_a_field_per_declared_table():
    tables = [f.name for f in dataclasses.fields(SourceData) if f.name != "mapping"]
    assert tables == [t.name for t in ALL_TABLES]


def test_defaults_satisfy_their_own_constraints():
    for table in ALL_TABLES:
        for column in table.columns:
            if column.default is None:
                continue
            frame = pl.DataFrame({column.name: [column.default]})
            for constraint in column.rules:
                if isinstance(constraint, RowConstraint):
                    broken = frame.select(constraint.mask(column.name, frame)).item()
                    assert not broken, (table.name, column.name, constraint)


def test_declarations_are_checked_when_made():
    with pytest.raises(ValueError, match="unknown columns"):
        Table("t", "", (Column("a", STR, True, "", ""),), key=("b",))
    with pytest.raises(ValueError, match="cannot have a default"):
        Column("a", STR, True, "", "", default="x")
    with pytest.raises(ValueError, match="declared twice"):
        Table("t", "", (Column("a", STR, True, "", ""),) * 2, key=("a",))
    with pytest.raises(ValueError, match="is not float"):
        Column("a", FLOAT, False, "", "", default="0.5")
    with pytest.raises(ValueError, match=r"unknown columns \['b'\]"):
        Table("t", "", (Column("a", DATE, True, "", "", (NotBefore("b"),)),), key=("a",))


def test_unit_validity_stays_a_load_rule_and_values_are_read_in_derive(tiny_data):
    """The loader hands on typed source tables; `value`, `qualifier`... come from derive."""
    from generator.derive import with_values

    data, _ = check(tiny_data)
    assert data.measurements.columns == MEASUREMENTS.names
    assert "value" not in data.limits.columns
    read = with_values(data)
    m = read.measurements.filter(pl.col("zone_id") == 21, pl.col("parameter") == "pfas_summe_20")
    # 40 ng/l is 0.04 µg/l, the register unit; `< BG` states no number.
    assert m.select("value_text", "value", "qualifier", "normalized_value").rows() == [
        ("40", 40.0, "number", pytest.approx(0.04)),
        ("< BG", None, "below_reporting_limit", None),
    ]
    # Reading adds columns and changes nothing else; the published reporting-limit text
    # keeps its place as `reporting_limit_text` beside the number read from `< x`.
    added = [
        "value",
        "qualifier",
        "reporting_limit",
        "normalized_value",
        "normalized_reporting_limit",
        "normalized_low",
    ]
    source = ["reporting_limit_text" if c == "reporting_limit" else c for c in MEASUREMENTS.names]
    assert read.measurements.columns == [*source, *added]
    renamed = read.measurements.drop(added).rename({"reporting_limit_text": "reporting_limit"})
    assert renamed.equals(data.measurements)
    limit = (
        read.limits.filter(pl.col("code") == "pfas_summe_20").sort("valid_from").row(0, named=True)
    )
    assert limit["value"] == pytest.approx(0.1) and limit["requirement"] is None


# ---------------------------------------------------------------------------- optional tables

# `places` is the real optional table (one declaration with `if_absent=EMPTY`).


def _check_with(data_dir: Path, *tables: Table):
    return check_tables(data_dir, (*tables,), reference_dir())


def test_an_optional_table_may_be_absent(tiny_data):
    (tiny_data / "places.csv").unlink()
    result = _check_with(tiny_data, *ALL_TABLES)
    assert result.problems.height == 0
    assert result.complete(ALL_TABLES)
    places = result.tables["places"]
    assert places.height == 0
    assert places.schema == pl.Schema(
        {ROW: pl.UInt32, "plz": pl.String, "name": pl.String, "lat": pl.Float64, "lon": pl.Float64}
    )


def test_an_optional_table_that_is_present_is_checked(tiny_data):
    (tiny_data / "places.csv").write_text(
        "plz,name,lat,lon\n"
        "01067,Dresden,51.06,13.72\n"
        "99999,Nirgendwo,51.0,10.0\n"
        "0106,Dresden,51.06,13.72\n"
        "01067,Dresden,51.06,13.72\n"
        "01067,Paris,48.86,2.35\n",
        encoding="utf-8",
    )
    result = _check_with(tiny_data, *ALL_TABLES)
    found = {(p["row"], p["column"], p["rule"]) for p in result.problems.to_dicts()}
    assert found == {
        (2, "plz", "dangling_reference"),
        (3, "plz", "malformed_plz"),
        (3, "plz", "dangling_reference"),
        (4, "plz", "duplicate_key"),
        (5, "lon", "out_of_range"),
    }
    assert set(result.problems["table"]) == {"places"}
    # An optional table may also be present with a header only.
    (tiny_data / "places.csv").write_text("plz,name,lat,lon\n", encoding="utf-8")
    assert _check_with(tiny_data, *ALL_TABLES).problems.height == 0


def test_explanations_name_their_sources_in_the_declared_form(tiny_data):
    """A data directory may replace the packaged explanations; a broken source is an error."""
    packaged = read_rows(reference_dir() / "explanations.csv")
    rows = [dict(packaged[0]), dict(packaged[1])]
    rows[0]["sources"] = "Umweltbundesamt https://www.umweltbundesamt.de"
    rows[1]["unsourced"] = "origin woher"
    write_rows(tiny_data / "explanations.csv", rows, list(packaged[0]))
    result = _check_with(tiny_data, *ALL_TABLES)
    found = {(p["table"], p["row"], p["column"], p["rule"]) for p in result.problems.to_dicts()}
    # The packaged links to topics this replacement lacks dangle: reported, not ignored.
    assert ("explanations", 1, "sources", "malformed_sources") in found
    assert ("explanations", 2, "unsourced", "invalid_choice") in found
    assert {f[0] for f in found} == {"explanations", "explained_parameters"}
    assert {f[3] for f in found if f[0] == "explained_parameters"} == {"dangling_reference"}


# ---------------------------------------------------------------------------- optional columns

# `statistic` is a real optional column with a default and choices (one declaration).
STATISTIC = MEASUREMENTS.column("statistic")
MEASUREMENTS_WITH_STATISTIC = MEASUREMENTS
# The real optional column `plz_zones.population_share` (the golden input has it).
PLZ_ZONES_WITH_POPULATION = PLZ_ZONES


def _declared_with(*replacements: Table) -> tuple[Table, ...]:
    by_name = {t.name: t for t in replacements}
    return tuple(by_name.get(t.name, t) for t in ALL_TABLES)


def _without_statistic(data_dir) -> None:
    """Leave the optional column `statistic` out of the measurements (the golden input has it)."""
    rows = read_rows(data_dir / "measurements.csv")
    for r in rows:
        del r["statistic"]
    write_rows(data_dir / "measurements.csv", rows)


def test_an_absent_optional_column_reads_its_default(tiny_data):
    _without_statistic(tiny_data)
    rows = read_rows(tiny_data / "plz_zones.csv")
    for r in rows:
        del r["population_share"], r["boundary_source"]
    write_rows(tiny_data / "plz_zones.csv", rows)
    declared = _declared_with(MEASUREMENTS_WITH_STATISTIC, PLZ_ZONES_WITH_POPULATION)
    result = _check_with(tiny_data, *declared)
    assert result.problems.height == 0
    assert set(result.tables["measurements"]["statistic"]) == {"sample"}
    for column, dtype in (("population_share", pl.Float64), ("boundary_source", pl.String)):
        values = result.tables["plz_zones"][column]
        assert values.dtype == dtype and values.null_count() == values.len()


def test_a_present_optional_column_is_checked_and_empty_cells_read_the_default(tiny_data):
    rows = read_rows(tiny_data / "measurements.csv")
    for i, r in enumerate(rows, start=1):
        r["statistic"] = {2: "mean", 3: "", 5: "median"}.get(i, "sample")
    write_rows(tiny_data / "measurements.csv", rows)
    edit(tiny_data, "plz_zones", 1, area_share="1.0")
    rows = read_rows(tiny_data / "plz_zones.csv")
    for i, r in enumerate(rows, start=1):
        r["population_share"] = "1.5" if i == 2 else ""
    write_rows(tiny_data / "plz_zones.csv", rows)
    declared = _declared_with(MEASUREMENTS_WITH_STATISTIC, PLZ_ZONES_WITH_POPULATION)
    result = _check_with(tiny_data, *declared)
    found = result.problems.select("table", "row", "column", "rule", "value").rows()
    assert found == [
        ("plz_zones", 2, "population_share", "out_of_range", "1.5"),
        ("plz_zones", 2, "population_share", "share_sum_exceeds_one", "1.5"),
        ("measurements", 5, "statistic", "invalid_choice", "median"),
    ]
    statistic = result.tables["measurements"].sort(ROW)["statistic"].to_list()
    assert statistic[1:3] == ["mean", "sample"]


def test_an_absent_optional_column_that_rows_need_is_one_problem(tiny_data):
    # A default its own rule refuses: with the column left out, every row breaks the rule.
    _without_statistic(tiny_data)
    needs_it = dataclasses.replace(STATISTIC, default="median")
    columns = tuple(needs_it if c.name == "statistic" else c for c in MEASUREMENTS.columns)
    declared = _declared_with(dataclasses.replace(MEASUREMENTS, columns=columns))
    problems = _check_with(tiny_data, *declared).problems.to_dicts()
    assert len(problems) == 1
    p = problems[0]
    where = (p["table"], p["row"], p["column"], p["rule"])
    assert where == ("measurements", None, "statistic", "missing_column")
    assert "every row reads 'median'" in p["message"] and "84 row(s)" in p["message"]


def test_the_api_describes_every_boundary_source_of_the_contract():
    from generator.api import resources
    from generator.contract.tables import BOUNDARY_SOURCES

    assert tuple(resources.BOUNDARY_SOURCES) == BOUNDARY_SOURCES


def test_the_plz_and_code_patterns_are_declared_once():
    """`generator/api/patterns.py` is the only module that spells them out."""
    from generator.api import patterns

    root = Path(__file__).resolve().parents[1] / "generator"
    for pattern in (patterns.PLZ_PATTERN, patterns.CODE_PATTERN):
        spelled = sorted(
            p.relative_to(root).as_posix()
            for p in root.rglob("*.py")
            if pattern in p.read_text(encoding="utf-8")
        )
        assert spelled == ["api/patterns.py"], pattern
    assert routes.route("lookup").param("plz").pattern == patterns.PLZ_PATTERN


def test_source_data_holds_exactly_the_declared_tables(monkeypatch):
    from generator import load

    assert {f.name for f in dataclasses.fields(SourceData)} - {"mapping"} == {
        t.name for t in ALL_TABLES
    }
    extra = Table("unlisted", "A table SourceData has no field for.", PLZ_ZONES.columns, ())
    monkeypatch.setattr(load, "ALL_TABLES", (*ALL_TABLES, extra))
    with pytest.raises(TypeError, match=r"not held \['unlisted'\]"):
        load._check_fields()
