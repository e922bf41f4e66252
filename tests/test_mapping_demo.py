"""The synthetic map data of `demo-data --geometries`, and the mapping run on it end to end."""

from __future__ import annotations

import csv
import filecmp
import shutil

import geopandas as gpd
import pandas as pd
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.demo.write import WRITTEN
from tests.mapping_helpers import mapping, rows, shares


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """Make the small demo dataset with its map data, and the mapping of it."""
    root = tmp_path_factory.mktemp("demo")
    result = CliRunner().invoke(cli, ["demo-data", "--out", str(root / "data"), "--geometries"])
    assert result.exit_code == 0, result.output
    geo = root / "data" / "geo"
    out = root / "mapping" / "plz_zones.csv"
    result = mapping(
        geo / "plz_areas.geojson", geo / "zone_areas.gpkg", "--zone-admin", geo / "zone_admin.csv",
        "--admin-areas", geo / "admin_areas.gpkg", "--population", geo / "zensus_100m.csv",
        "--streets", geo / "streets.osm.pbf", "--streets-out", root / "mapping" / "streets.csv",
        "--out", out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return root, out, result.output


def test_the_tables_stay_byte_identical_with_geometries(demo, tmp_path):
    root, _, _ = demo
    plain = tmp_path / "plain"
    assert CliRunner().invoke(cli, ["demo-data", "--out", str(plain)]).exit_code == 0
    names = sorted(p.name for p in plain.iterdir())
    match, mismatch, errors = filecmp.cmpfiles(plain, root / "data", names, shallow=False)
    assert (mismatch, errors) == ([], []) and len(match) == len(WRITTEN)


def test_the_map_files_are_deterministic(demo, tmp_path):
    root, _, _ = demo
    again = tmp_path / "again"
    assert (
        CliRunner().invoke(cli, ["demo-data", "--out", str(again), "--geometries"]).exit_code == 0
    )
    names = sorted(p.name for p in (root / "data" / "geo").iterdir())
    assert names == ["admin_areas.gpkg", "plz_areas.geojson", "streets.osm.pbf",
                     "zensus_100m.csv", "zone_admin.csv", "zone_areas.gpkg"]  # fmt: skip
    match, mismatch, errors = filecmp.cmpfiles(root / "data" / "geo", again / "geo", names,
                                               shallow=False)  # fmt: skip
    assert (mismatch, errors) == ([], [])


def test_the_grid_has_the_zensus_layout(demo):
    root, _, _ = demo
    with (root / "data" / "geo" / "zensus_100m.csv").open(encoding="utf-8") as fh:
        grid = list(csv.reader(fh, delimiter=";"))
    assert grid[0] == ["GITTER_ID_100m", "x_mp_100m", "y_mp_100m", "Einwohner"]
    cell_id, x, y, people = grid[1]
    assert cell_id == f"CRS3035RES100mN{int(y) - 50}E{int(x) - 50}"
    assert {row[3] for row in grid[1:] if not row[3].isdigit()} == {"\u2013"}


def test_the_mapping_gives_back_the_demo_table(demo):
    root, out, _ = demo
    demo_rows = rows(root / "data" / "plz_zones.csv")
    expected = {(r["plz"], int(r["zone_id"])): float(r["area_share"]) for r in demo_rows}
    got = shares(out)
    # The zone boundaries were bent by up to 3 m against the PLZ boundaries: shares move by
    # a few thousandths, and not a single row may be missing or extra.
    assert set(got) == set(expected)
    assert max(abs(got[k] - expected[k]) for k in got) < 5e-3


def test_the_shares_agree_with_geopandas_overlay(demo):
    root, out, _ = demo
    geo = root / "data" / "geo"
    plz = gpd.read_file(geo / "plz_areas.geojson").dissolve("plz").reset_index().to_crs(3035)
    zones = gpd.read_file(geo / "zone_areas.gpkg")[["zone_id", "geometry"]]
    admin = gpd.read_file(geo / "admin_areas.gpkg")
    lists = pd.read_csv(geo / "zone_admin.csv", dtype={"area_key": str})
    assembled = admin.merge(lists, left_on="AGS", right_on="area_key")[["zone_id", "geometry"]]
    zones = pd.concat([zones, assembled.dissolve("zone_id").reset_index()]).to_crs(3035)
    # repaired the way the mapping repairs (overlay's own repair punches overlapping parts out)
    zones["geometry"] = zones.make_valid(method="structure", keep_collapsed=False)
    pieces = gpd.overlay(plz, zones, how="intersection")
    pieces["share"] = pieces.area / pieces["plz"].map(plz.set_index("plz").area)
    reference = pieces.groupby(["plz", "zone_id"])["share"].sum()
    reference = {k: v for k, v in reference.items() if v >= 0.005}
    got = shares(out)
    assert set(got) == set(reference)
    overlapping = {r["detail"].removeprefix("in PLZ ") for r in rows(out.with_name(
        "mapping-report.csv")) if r["kind"] == "zone_overlap"}  # fmt: skip
    for key, value in reference.items():
        # where zones overlap, the mapping splits the overlap; the overlay counts it twice
        tolerance = 1e-4 if key[0] in overlapping else 1e-6
        assert got[key] == pytest.approx(value, abs=tolerance), key


def test_every_zone_id_is_a_demo_zone_and_the_table_validates(demo, tmp_path):
    root, out, _ = demo
    data = tmp_path / "data"
    shutil.copytree(root / "data", data, ignore=shutil.ignore_patterns("geo"))
    for name in ("plz_zones.csv", "streets.csv", "mapping.json"):
        shutil.copy(out.with_name(name), data / name)
    check = CliRunner().invoke(cli, ["validate", str(data)])
    assert check.exit_code == 0, check.output


def test_population_and_streets_on_the_demo(demo):
    root, out, output = demo
    table = rows(out)
    assert all(r["population_share"] != "" for r in table)  # every demo PLZ has inhabitants
    streets = rows(out.with_name("streets.csv"))
    shared = {r["plz"] for r in table if sum(1 for s in table if s["plz"] == r["plz"]) > 1}
    assert streets and {r["plz"] for r in streets} <= shared
    assert "streets:" in output and "To look at" in output
