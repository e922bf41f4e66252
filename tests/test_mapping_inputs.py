"""Bad input to `trinkwasser mapping`: an error naming the feature and value, exit 1, no output."""

from __future__ import annotations

import subprocess
import sys

import pytest
from shapely.geometry import LineString

from tests.mapping_helpers import mapping, sq, to_crs, write_geojson, write_layer

KM = 1000.0


@pytest.fixture
def zones(tmp_path):
    return write_layer(tmp_path / "zones.gpkg", [sq(0, 0, KM, KM)], zone_id=[1])


def assert_refused(result, tmp_path, *expected: str) -> None:
    assert result.exit_code == 1, result.output
    assert "Error: " in result.output
    for text in expected:
        assert text in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists(), "nothing may be written"


def out(tmp_path):
    return tmp_path / "out" / "plz_zones.csv"


def lonlat(geometry):
    """Return a test square (EPSG:3035 metres) in WGS84 degrees, as GeoJSON holds it."""
    return to_crs(geometry, "EPSG:4326")


def test_a_feature_without_plz(tmp_path, zones):
    plz = write_geojson(
        tmp_path / "plz.geojson",
        [({"plz": "34117"}, lonlat(sq(0, 0, 1, 1))), ({"name": "Wald"}, lonlat(sq(1, 1, 2, 2)))],
    )
    result = mapping(plz, zones, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "plz.geojson: feature #2 has no 'plz'")


@pytest.mark.parametrize("value", ["1234", "341170", "34 17", "D-34117"])
def test_a_plz_that_is_not_five_digits(tmp_path, zones, value):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=[value])
    result = mapping(plz, zones, "--out", out(tmp_path))
    assert_refused(result, tmp_path, f"plz.gpkg: feature #1: plz '{value}' is not five digits")


def test_a_plz_stored_as_a_number_gets_a_hint(tmp_path, zones):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=[1067])
    result = mapping(plz, zones, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "plz 1067 is not five digits", "store the PLZ as text")


@pytest.mark.parametrize(
    ("value", "shown"), [("abc", "'abc'"), (1.5, "1.5"), (0, "0"), (None, "nothing")]
)
def test_a_zone_id_that_is_not_a_whole_number(tmp_path, value, shown):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    zone_path = write_geojson(
        tmp_path / "zones.geojson",
        [({"zone_id": 1}, lonlat(sq(0, 0, 1, 1))), ({"zone_id": value}, lonlat(sq(0, 0, 1, 1)))],
    )
    result = mapping(plz, zone_path, "--out", out(tmp_path))
    assert_refused(
        result,
        tmp_path,
        f"zones.geojson: feature #2: zone_id is {shown}, not a whole number above 0",
    )


def test_a_file_without_a_crs(tmp_path, zones):
    with pytest.warns(UserWarning, match="'crs' was not provided"):
        plz = write_layer(tmp_path / "plz.shp", [sq(0, 0, KM, KM)], crs=None, plz=["34117"])
    assert not (tmp_path / "plz.prj").exists()
    result = mapping(plz, zones, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "plz.shp: the file declares no coordinate reference system")


@pytest.mark.parametrize("content", [b"{not json", b"\x00\x01\x02 binary", b""])
def test_an_unreadable_file(tmp_path, zones, content):
    plz = tmp_path / "plz.geojson"
    plz.write_bytes(content)
    result = mapping(plz, zones, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "plz.geojson: cannot read it as a vector file")


def test_a_missing_file(tmp_path, zones):
    result = mapping(tmp_path / "nope.gpkg", zones, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "nope.gpkg: no such file")


def test_a_missing_property_lists_the_ones_there_are(tmp_path, zones):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], postleitzahl=["34117"])
    result = mapping(plz, zones, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "plz.gpkg: no property 'plz'; the features have: postleitzahl")


def test_a_line_is_not_an_area(tmp_path, zones):
    plz = write_geojson(
        tmp_path / "plz.geojson", [({"plz": "34117"}, LineString([(9, 51), (9.1, 51)]))]
    )
    result = mapping(plz, zones, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "feature #1 is a LineString, not an area")


def test_a_feature_without_geometry(tmp_path, zones):
    plz = write_geojson(tmp_path / "plz.geojson", [({"plz": "34117"}, None)])
    result = mapping(plz, zones, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "plz.geojson: feature #1 has no geometry")


def test_every_problem_of_a_file_at_once(tmp_path, zones):
    plz = write_geojson(
        tmp_path / "plz.geojson",
        [({"plz": v}, lonlat(sq(0, 0, 1, 1))) for v in ("1", "34117", "x", None)],
    )
    result = mapping(plz, zones, "--out", out(tmp_path))
    assert_refused(
        result,
        tmp_path,
        "3 problem(s) in the input",
        "feature #1: plz '1'",
        "feature #3: plz 'x'",
        "feature #4 has no 'plz'",
    )


def test_a_confidence_outside_zero_to_one(tmp_path):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    zone_path = write_layer(
        tmp_path / "zones.gpkg", [sq(0, 0, KM, KM)], zone_id=[1], confidence=[1.5]
    )
    result = mapping(plz, zone_path, "--out", out(tmp_path))
    assert_refused(
        result, tmp_path, "zones.gpkg: feature #1: confidence 1.5 is not a number in [0, 1]"
    )


def test_an_unknown_boundary_source(tmp_path):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    zone_path = write_layer(
        tmp_path / "zones.gpkg", [sq(0, 0, KM, KM)], zone_id=[1], boundary_source=["guess"]
    )
    result = mapping(plz, zone_path, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "boundary_source 'guess' is neither 'supplier' nor 'operator'")


def test_an_area_key_the_admin_areas_do_not_have(tmp_path):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    admin = write_layer(tmp_path / "gemeinden.gpkg", [sq(0, 0, KM, KM)], AGS=["06611000"])
    lists = tmp_path / "lists.csv"
    lists.write_text("zone_id,area_key\n5,06611000\n5,6611000\n", encoding="utf-8")
    result = mapping(plz, "--zone-admin", lists, "--admin-areas", admin, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "lists.csv: row 2: area_key '6611000' is not among the AGS")


def test_a_bad_zone_list(tmp_path):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    admin = write_layer(tmp_path / "gemeinden.gpkg", [sq(0, 0, KM, KM)], AGS=["06611000"])
    lists = tmp_path / "lists.csv"
    lists.write_text("zone,area_key\n5,06611000\n", encoding="utf-8")
    result = mapping(plz, "--zone-admin", lists, "--admin-areas", admin, "--out", out(tmp_path))
    assert_refused(
        result, tmp_path, "lists.csv: missing column 'zone_id'", "lists.csv: unknown column 'zone'"
    )
    lists.write_text("zone_id,area_key\nfive,06611000\n", encoding="utf-8")
    result = mapping(plz, "--zone-admin", lists, "--admin-areas", admin, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "lists.csv: row 1: zone_id is 'five'")


def test_a_zone_given_twice(tmp_path, zones):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    admin = write_layer(tmp_path / "gemeinden.gpkg", [sq(0, 0, KM, KM)], AGS=["06611000"])
    lists = tmp_path / "lists.csv"
    lists.write_text("zone_id,area_key\n1,06611000\n", encoding="utf-8")
    result = mapping(
        plz, zones, "--zone-admin", lists, "--admin-areas", admin, "--out", out(tmp_path)
    )
    assert_refused(result, tmp_path, "zone 1 is given both as an area")


def test_features_of_one_zone_must_agree(tmp_path):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    zone_path = write_layer(
        tmp_path / "zones.gpkg",
        [sq(0, 0, 500, KM), sq(500, 0, KM, KM)],
        zone_id=[1, 1],
        boundary_source=["supplier", "operator"],
    )
    result = mapping(plz, zone_path, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "the features of zone 1 disagree on boundary_source")


def test_options_that_go_together(tmp_path, zones):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    result = mapping(plz, zones, "--streets", plz, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "--streets and --streets-out go together")
    result = mapping(plz, "--out", out(tmp_path))
    assert_refused(result, tmp_path, "give zone areas (ZONE_AREAS)")


def test_a_failed_run_leaves_an_earlier_mapping_untouched(tmp_path, zones):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    target = out(tmp_path)
    assert mapping(plz, zones, "--out", target).exit_code == 0
    before = {p.name: p.read_bytes() for p in target.parent.iterdir()}
    bad = write_layer(tmp_path / "bad.gpkg", [sq(0, 0, KM, KM)], plz=["3411"])
    assert mapping(bad, zones, "--out", target).exit_code == 1
    assert {p.name: p.read_bytes() for p in target.parent.iterdir()} == before


def test_verbose_shows_the_traceback(tmp_path, zones):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["3411"])
    result = mapping(plz, zones, "--out", out(tmp_path), "-v")
    assert result.exit_code == 1 and "Traceback" in result.output


WITHOUT_GEO_EXTRA = "import sys; sys.modules.update(shapely=None, osmium=None)\n"


def test_without_the_geo_extra_the_command_says_how_to_install_it(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            WITHOUT_GEO_EXTRA + "from generator.cli import main; main()",
            "mapping",
            "a.geojson",
            "b.gpkg",
            "--out",
            "o.csv",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("Error: `trinkwasser mapping` needs shapely, osmium")
    assert "pip install '.[geo]' in a checkout" in result.stderr
    assert not (tmp_path / "o.csv").exists()


def test_demo_geometries_without_the_geo_extra_write_nothing(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            WITHOUT_GEO_EXTRA + "from generator.cli import main; main()",
            "demo-data",
            "--out",
            "d",
            "--geometries",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 1, result.stderr
    assert "`trinkwasser demo-data --geometries` needs shapely, osmium" in result.stderr
    assert not (tmp_path / "d").exists()


def test_only_the_mapping_and_the_demo_map_files_import_the_geo_extra(tmp_path):
    code = (
        "import sys; sys.modules.update(shapely=None, pyproj=None, pyogrio=None, osmium=None)\n"
        "import importlib, pkgutil, generator\n"
        "for m in pkgutil.walk_packages(generator.__path__, 'generator.'):\n"
        "    if m.name == 'generator.__main__' or m.name.startswith('generator.mapping'):\n"
        "        continue\n"
        "    if m.name in ('generator.demo.geometry', 'generator.demo.mapfiles'):\n"
        "        continue\n"
        "    importlib.import_module(m.name)\n"
        "    print(m.name)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    imported = set(result.stdout.split())
    assert {"generator.cli", "generator.build", "generator.demo.write"} <= imported
