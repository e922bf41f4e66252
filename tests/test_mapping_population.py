"""Population-weighted shares from a Zensus-layout grid, with known answers."""

from __future__ import annotations

import json

import pytest

from generator.contract import provenance
from generator.contract.problems import Problems
from tests.helpers import GOLDEN_INPUT
from tests.mapping_helpers import mapping, rows, shares, sq, write_grid, write_layer

KM = 1000.0


@pytest.fixture
def areas(tmp_path):
    plz = [
        ("34117", sq(0, 0, KM, KM)),  # 80 % in zone 1, but most people live in zone 2
        ("34119", sq(2 * KM, 0, 3 * KM, KM)),  # only a secret cell
        ("34121", sq(4 * KM, 0, 5 * KM, KM)),  # nobody
        ("34123", sq(6 * KM, 0, 7 * KM, KM)),  # a cell centre on the line between zones
        ("34125", sq(8 * KM, 0, 9 * KM, KM)),  # nobody lives in zone 8
    ]
    zones = [
        (1, sq(0, 0, 800, KM)), (2, sq(800, 0, KM, KM)), (3, sq(2 * KM, 0, 3 * KM, KM)),
        (4, sq(4 * KM, 0, 5 * KM, KM)), (5, sq(6 * KM, 0, 6.5 * KM, KM)),
        (6, sq(6.5 * KM, 0, 7 * KM, KM)), (7, sq(8 * KM, 0, 8.5 * KM, KM)),
        (8, sq(8.5 * KM, 0, 9 * KM, KM)),
    ]  # fmt: skip
    plz_path = write_layer(tmp_path / "plz.gpkg", [g for _, g in plz], plz=[p for p, _ in plz])
    zone_path = write_layer(
        tmp_path / "zones.gpkg", [g for _, g in zones], zone_id=[z for z, _ in zones]
    )
    return plz_path, zone_path


CELLS = [
    (150, 150, "10"), (250, 550, "10"), (650, 450, "-"),  # zone 1: 20 known, one secret
    (850, 550, "30"), (950, 950, "\u2013"), (850, 50, "30"),  # zone 2: 60 known, one secret
    (2450, 450, "\u2013"),  # 34119: secret only
    (6250, 500, "10"), (6500, 500, "10"),  # 34123: one in zone 5, one on the line 5 | 6
    (8250, 250, "7"),  # 34125: zone 7 only
    (20050, 50, "99"),  # outside every PLZ
]  # fmt: skip


def run(tmp_path, areas, grid, *options):
    out = tmp_path / "out" / "plz_zones.csv"
    return mapping(*areas, "--population", grid, "--out", out, *options), out


def test_population_shares_with_secret_cells_and_empty_plz(tmp_path, areas):
    grid = write_grid(
        tmp_path / "Zensus2022_Bevoelkerungszahl_100m-Gitter.csv", CELLS, encoding="utf-8-sig"
    )  # with a byte-order mark, as Excel saves it
    result, out = run(tmp_path, areas, grid)
    assert result.exit_code == 0, result.output
    area, people = shares(out), shares(out, "population_share")
    assert area[("34117", 1)] == 0.8 and area[("34117", 2)] == 0.2
    assert people[("34117", 1)] == 0.25 and people[("34117", 2)] == 0.75
    assert people[("34119", 3)] is None  # a secret cell is unknown, not zero
    assert people[("34121", 4)] is None  # no inhabited cell: no invented share
    assert people[("34123", 5)] == 0.75 and people[("34123", 6)] == 0.25
    assert people[("34125", 7)] == 1.0 and people[("34125", 8)] == 0.0
    unknown = {r["plz"]: r["detail"] for r in rows(out.with_name("mapping-report.csv"))
               if r["kind"] == "population_unknown"}  # fmt: skip
    assert unknown == {"34119": "1 inhabited cell(s), all secret", "34121": "no inhabited cell"}
    meta = json.loads(out.with_name("mapping.json").read_text(encoding="utf-8"))
    grid_info = meta["inputs"]["population"]
    assert grid_info["file"] == grid.name
    assert (grid_info["cells"], grid_info["secret_cells"], grid_info["cells_in_plz"]) == (11, 3, 10)
    assert (grid_info["edition"], grid_info["resolution"]) == ("Zensus 2022", "100m")
    [source] = [s for s in meta["sources"] if s["file"] == grid.name]
    assert source["license"] == "dl-de/by-2-0"
    assert "Zensus 2022" in source["credit"]
    # Every source names its input, where the build finds its date and edition.
    assert source["input"] == "population"
    assert all(s["input"] in meta["inputs"] for s in meta["sources"])
    problems = Problems()
    read = provenance.read(out.parent, problems)
    assert problems.frame([provenance.TABLE]).height == 0 and read is not None
    [grid_source] = [s for s in read.sources if s.license == "dl-de/by-2-0"]
    assert (grid_source.edition, grid_source.file) == ("Zensus 2022", grid.name)
    assert grid_source.date == grid_info["modified"]


def test_population_shares_of_a_plz_add_up_to_at_most_one(tmp_path, areas):
    grid = write_grid(tmp_path / "grid.csv", CELLS)
    result, out = run(tmp_path, areas, grid)
    assert result.exit_code == 0
    totals: dict[str, float] = {}
    for (plz, _), value in shares(out, "population_share").items():
        totals[plz] = totals.get(plz, 0) + (value or 0)
    assert all(v <= 1 for v in totals.values())


def test_without_a_grid_the_column_is_empty(tmp_path, areas):
    out = tmp_path / "plz_zones.csv"
    assert mapping(*areas, "--out", out).exit_code == 0
    assert {r["population_share"] for r in rows(out)} == {""}


def test_the_1km_grid_and_a_windows_1252_file(tmp_path, areas):
    grid = write_grid(
        tmp_path / "grid_1km.csv",
        [(500, 500, "40"), (2500, 500, "\u2013")],
        resolution="1km",
        encoding="cp1252",
    )
    result, out = run(tmp_path, areas, grid, "--population-edition", "Zensus 2022, 1 km")
    assert result.exit_code == 0, result.output
    people = shares(out, "population_share")
    assert people[("34117", 1)] == 1.0 and people[("34119", 3)] is None
    meta = json.loads(out.with_name("mapping.json").read_text(encoding="utf-8"))
    assert meta["inputs"]["population"]["resolution"] == "1km"
    assert meta["inputs"]["population"]["edition"] == "Zensus 2022, 1 km"


@pytest.mark.parametrize(("cell", "message"), [
    ((150, 150, "zehn"), "line 2: Einwohner 'zehn' is neither a whole number nor a dash"),
    ((150, 150, "-3"), "line 2: Einwohner '-3' is neither a whole number nor a dash"),
])  # fmt: skip
def test_a_bad_grid_value_is_an_error(tmp_path, areas, cell, message):
    grid = write_grid(tmp_path / "grid.csv", [cell])
    result, out = run(tmp_path, areas, grid)
    assert result.exit_code == 1
    assert message in result.output
    assert not out.parent.exists()


def test_a_grid_with_other_columns_is_an_error(tmp_path, areas):
    grid = tmp_path / "grid.csv"
    grid.write_text("id;x;y;pop\n1;2;3;4\n", encoding="utf-8")
    result, _ = run(tmp_path, areas, grid)
    assert result.exit_code == 1
    assert "expected the Zensus grid columns GITTER_ID_100m;x_mp_100m;y_mp_100m;Einwohner" in (
        result.output
    )


def test_mapping_json_of_the_old_spelling_reads_the_same(tmp_path):
    """`mapping.json` files written before "license" had one spelling still read."""
    golden = json.loads((GOLDEN_INPUT / "mapping.json").read_text(encoding="utf-8"))
    old = json.loads(
        json.dumps(golden)
        .replace('"license"', '"licence"')
        .replace('"license_url"', '"licence_url"')
    )
    assert old != golden
    read = {}
    for name, meta in (("new", golden), ("old", old)):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "mapping.json").write_text(json.dumps(meta), encoding="utf-8")
        problems = Problems()
        read[name] = provenance.read(folder, problems)
        assert problems.frame([provenance.TABLE]).height == 0
    assert read["old"] is not None and read["old"] == read["new"]
    assert any(s.license for s in read["new"].sources)
