"""Streets of shared PLZ from OpenStreetMap extracts (.osm XML and .osm.pbf), known answers."""

from __future__ import annotations

import json

import pytest
from shapely.geometry import box

from tests.mapping_helpers import (
    KM,
    mapping,
    rows,
    sq,
    two_plz_three_zones,
    write_geojson,
    write_layer,
    write_osm_pbf,
    write_osm_xml,
)


@pytest.fixture
def areas(tmp_path):
    return two_plz_three_zones(tmp_path)


def run(tmp_path, areas, osm):
    out = tmp_path / "out" / "plz_zones.csv"
    streets = tmp_path / "out" / "streets.csv"
    result = mapping(*areas, "--streets", osm, "--streets-out", streets, "--out", out)
    return result, streets


EXPECTED = {
    ("34117", "Hauptstraße", 1): 0.75,  # 300 of its 400 m lie in zone 1
    ("34117", "Hauptstraße", 2): 0.25,
    ("34117", "Ringstraße", 2): 1.0,  # only the 200 m inside the PLZ count
    ("34117", "Schulstraße", 1): 1.0,  # two ways, one street
}


def street_shares(path) -> dict:
    return {(r["plz"], r["street"], int(r["zone_id"])): float(r["length_share"])
            for r in rows(path)}  # fmt: skip


@pytest.mark.parametrize("kind", ["xml", "pbf"])
def test_streets_of_a_shared_plz(tmp_path, areas, kind):
    osm = (write_osm_xml(tmp_path / "hessen.osm") if kind == "xml"
           else write_osm_pbf(tmp_path / "hessen-latest.osm.pbf"))  # fmt: skip
    result, streets = run(tmp_path, areas, osm)
    assert result.exit_code == 0, result.output
    assert list(rows(streets)[0]) == ["plz", "street", "zone_id", "length_share"]
    got = street_shares(streets)
    assert set(got) == set(EXPECTED)  # nothing for the unshared PLZ, the river, the service way
    for key, value in EXPECTED.items():
        assert got[key] == pytest.approx(value, abs=1e-4), key
    meta = json.loads(streets.with_name("mapping.json").read_text(encoding="utf-8"))
    info = meta["inputs"]["streets"]
    assert info["file"] == osm.name and info["named_ways"] == 5
    if kind == "pbf":
        assert info["osm_timestamp"] == "2026-11-20T21:21:02Z"
        assert info["osm_timestamp_source"] == "replication timestamp of the extract"
    else:  # no header timestamp: the newest edit among the streets read
        assert info["osm_timestamp"] == "2026-10-07T08:00:00Z"
    assert meta["outputs"]["streets"] == {"file": "streets.csv", "rows": 4}
    assert {"file": osm.name, "license": "ODbL-1.0"}.items() <= next(
        s for s in meta["sources"] if s["file"] == osm.name
    ).items()
    assert "streets: 4 rows" in result.output


def test_a_way_with_a_missing_node_is_skipped_and_counted(tmp_path, areas):
    result, streets = run(tmp_path, areas, write_osm_xml(tmp_path / "x.osm", broken=True))
    assert result.exit_code == 0, result.output
    assert "Randweg" not in {r["street"] for r in rows(streets)}
    meta = json.loads(streets.with_name("mapping.json").read_text(encoding="utf-8"))
    assert meta["inputs"]["streets"]["ways_without_locations"] == 1


def test_a_street_partly_outside_every_zone_is_reported(tmp_path, areas):
    plz, _ = areas
    zones = write_layer(
        tmp_path / "half.gpkg", [sq(0, 0, 400, KM), sq(400, 0, 800, KM)], zone_id=[1, 2]
    )
    osm = write_osm_xml(
        tmp_path / "x.osm", [(1, {"highway": "primary", "name": "Allee"}, [(300, 500), (900, 500)])]
    )
    result, streets = run(tmp_path, (plz, zones), osm)
    assert result.exit_code == 0, result.output
    got = street_shares(streets)
    assert got[("34117", "Allee", 1)] == pytest.approx(1 / 6, abs=1e-4)
    assert got[("34117", "Allee", 2)] == pytest.approx(4 / 6, abs=1e-4)
    [lost] = [
        r for r in rows(streets.with_name("mapping-report.csv")) if r["kind"] == "street_unassigned"
    ]
    assert lost["plz"] == "34117" and float(lost["share"]) == pytest.approx(1 / 6, abs=1e-4)
    assert lost["detail"].startswith("street Allee")


def test_a_file_that_is_not_osm(tmp_path, areas):
    bad = tmp_path / "x.osm.pbf"
    bad.write_bytes(b"not a pbf at all")
    result, streets = run(tmp_path, areas, bad)
    assert result.exit_code == 1
    assert "x.osm.pbf: cannot read it as an OSM extract" in result.output
    assert not streets.parent.exists()


def test_a_street_along_the_line_between_two_zones_counts_half_for_each(tmp_path):
    # Areas and street in the same lon/lat values, so the street lies exactly on the line.
    plz = write_geojson(tmp_path / "plz.geojson", [({"plz": "34117"}, box(9.0, 51.0, 9.02, 51.01))])
    zones = write_geojson(
        tmp_path / "zones.geojson",
        [
            ({"zone_id": 1}, box(9.0, 51.0, 9.01, 51.01)),
            ({"zone_id": 2}, box(9.01, 51.0, 9.02, 51.01)),
        ],
    )
    osm = tmp_path / "x.osm"
    osm.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="hand">'
        '<node id="1" version="1" lat="51.0" lon="9.01"/>'
        '<node id="2" version="1" lat="51.01" lon="9.01"/>'
        '<way id="1" version="1"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/>'
        '<tag k="name" v="Grenzweg"/></way></osm>',
        encoding="utf-8",
    )
    result, streets = run(tmp_path, (plz, zones), osm)
    assert result.exit_code == 0, result.output
    assert street_shares(streets) == {("34117", "Grenzweg", 1): 0.5, ("34117", "Grenzweg", 2): 0.5}
