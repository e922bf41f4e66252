"""`trinkwasser mapping` on hand-made areas whose shares are known exactly."""

from __future__ import annotations

import json

import pytest
import shapely
from shapely.geometry import MultiPolygon, Polygon

from tests.mapping_helpers import (
    X0,
    Y0,
    mapping,
    rows,
    shares,
    sq,
    to_crs,
    write_geojson,
    write_layer,
)

KM = 1000.0


def run(
    tmp_path,
    plz: list[tuple[str, object]],
    zones: list[tuple[int, object]],
    *options,
    zone_props=None,
    name="zones.gpkg",
):
    """Write PLZ and zone layers (EPSG:3035), run the command, return its result and table."""
    plz_path = write_layer(tmp_path / "plz.gpkg", [g for _, g in plz], plz=[p for p, _ in plz])
    fields = {"zone_id": [z for z, _ in zones], **(zone_props or {})}
    zone_path = write_layer(tmp_path / name, [g for _, g in zones], **fields)
    out = tmp_path / "out" / "plz_zones.csv"
    result = mapping(plz_path, zone_path, "--out", out, *options)
    return result, out


def report(out) -> list[dict[str, str]]:
    return rows(out.with_name("mapping-report.csv"))


def test_a_split_plz_gets_its_shares_and_the_table_columns(tmp_path):
    result, out = run(
        tmp_path, [("34117", sq(0, 0, KM, KM))], [(1, sq(0, 0, 300, KM)), (2, sq(300, 0, KM, KM))]
    )
    assert result.exit_code == 0, result.output
    table = rows(out)
    assert list(table[0]) == [
        "plz",
        "zone_id",
        "area_share",
        "confidence",
        "population_share",
        "boundary_source",
    ]
    assert table == [
        {
            "plz": "34117",
            "zone_id": "2",
            "area_share": "0.7",
            "confidence": "0.9",
            "population_share": "",
            "boundary_source": "supplier",
        },
        {
            "plz": "34117",
            "zone_id": "1",
            "area_share": "0.3",
            "confidence": "0.9",
            "population_share": "",
            "boundary_source": "supplier",
        },
    ]
    assert "plz_zones: 2 rows for 1 PLZ and 2 zones" in result.output


def test_a_three_way_split(tmp_path):
    result, out = run(
        tmp_path,
        [("34117", sq(0, 0, KM, KM))],
        [(1, sq(0, 0, 200, KM)), (2, sq(200, 0, 500, KM)), (3, sq(500, 0, KM, KM))],
    )
    assert result.exit_code == 0, result.output
    assert shares(out) == {("34117", 1): 0.2, ("34117", 2): 0.3, ("34117", 3): 0.5}


def test_a_hole_filled_by_another_plz_counts_for_that_plz_only(tmp_path):
    hole = sq(300, 400, 600, 600)
    outer = Polygon(sq(0, 0, KM, KM).exterior.coords, [hole.exterior.coords])
    result, out = run(
        tmp_path,
        [("34117", outer), ("34119", hole)],
        [(1, sq(0, 0, 500, KM)), (2, sq(500, 0, KM, KM))],
    )
    assert result.exit_code == 0, result.output
    got = shares(out)
    # The ring PLZ loses 200 x 200 m of zone 1 and 100 x 200 m of zone 2 to the hole.
    assert got[("34117", 1)] == pytest.approx(460_000 / 940_000, abs=1e-6)
    assert got[("34117", 2)] == pytest.approx(480_000 / 940_000, abs=1e-6)
    assert got[("34119", 1)] == pytest.approx(2 / 3, abs=1e-6)
    assert got[("34119", 2)] == pytest.approx(1 / 3, abs=1e-6)


def test_a_multipolygon_plz_counts_all_its_parts(tmp_path):
    island = MultiPolygon([sq(0, 0, KM, KM), sq(5 * KM, 0, 5.5 * KM, 500)])
    result, out = run(
        tmp_path,
        [("26486", island)],
        [(1, sq(-KM, -KM, 2 * KM, 2 * KM)), (2, sq(4 * KM, -KM, 6 * KM, KM))],
    )
    assert result.exit_code == 0, result.output
    assert shares(out) == {("26486", 1): 0.8, ("26486", 2): 0.2}


def test_a_plz_in_two_features_is_one_area_and_overlapping_features_count_once(tmp_path):
    parts = [
        ("26486", sq(0, 0, KM, KM)),
        ("26486", sq(5 * KM, 0, 5.5 * KM, 500)),
        ("26486", sq(0, 0, 500, 500)),
    ]  # the third repeats a part
    result, out = run(
        tmp_path, parts, [(1, sq(-KM, -KM, 2 * KM, 2 * KM)), (2, sq(4 * KM, -KM, 6 * KM, KM))]
    )
    assert result.exit_code == 0, result.output
    assert shares(out) == {("26486", 1): 0.8, ("26486", 2): 0.2}
    assert "for 1 PLZ" in result.output


def test_slivers_are_dropped_and_counted_both_proven_and_measured(tmp_path):
    zones = [
        (1, sq(0, 0, KM, KM)),
        # reaches 0.5 m into the PLZ along its edge: inside the band (1.1 m for this square)
        (2, sq(KM - 0.5, 0, 2 * KM, KM)),
        (3, sq(450, 450, 500, 500)),  # a 50 m square in the middle: 0.25 %, measured
    ]
    result, out = run(tmp_path, [("34117", sq(0, 0, KM, KM))], zones)
    assert result.exit_code == 0, result.output
    assert set(shares(out)) == {("34117", 1)}
    found = [r for r in report(out) if r["kind"] == "sliver"]
    assert [(r["plz"], r["zone_id"], float(r["share"])) for r in found] == [
        ("34117", "3", pytest.approx(0.0025))
    ]
    # the edge sliver was proven below the minimum without being measured, and counted
    assert "2  intersections below the minimum share" in result.output
    meta = json.loads(out.with_name("mapping.json").read_text(encoding="utf-8"))
    assert meta["outputs"]["report"]["findings"]["sliver"] == 2


def test_min_share_zero_keeps_the_sliver(tmp_path):
    result, out = run(
        tmp_path,
        [("34117", sq(0, 0, KM, KM))],
        [(1, sq(0, 0, KM - 2, KM)), (2, sq(KM - 2, 0, 2 * KM, KM))],
        "--min-share",
        "0",
    )
    assert result.exit_code == 0, result.output
    assert shares(out) == {("34117", 1): 0.998, ("34117", 2): 0.002}


def test_an_uncovered_part_is_reported_with_its_share(tmp_path):
    result, out = run(
        tmp_path,
        [("34117", sq(0, 0, KM, KM)), ("34119", sq(3 * KM, 0, 4 * KM, KM))],
        [(1, sq(0, 0, 800, KM))],
    )
    assert result.exit_code == 0, result.output
    assert shares(out) == {("34117", 1): 0.8}
    found = {r["kind"]: r for r in report(out)}
    assert found["unassigned"]["plz"] == "34117"
    assert float(found["unassigned"]["share"]) == pytest.approx(0.2)
    assert float(found["unassigned"]["area_m2"]) == pytest.approx(200_000)
    assert found["plz_without_zone"]["plz"] == "34119"


def test_overlapping_zones_split_the_overlap_and_never_exceed_one(tmp_path):
    zones = [(1, sq(0, 0, 600, KM)), (2, sq(400, 0, KM, KM))]
    result, out = run(tmp_path, [("34117", sq(0, 0, KM, KM))], zones)
    assert result.exit_code == 0, result.output
    assert shares(out) == {("34117", 1): 0.5, ("34117", 2): 0.5}
    [overlap] = [r for r in report(out) if r["kind"] == "zone_overlap"]
    assert (overlap["zone_id"], overlap["other_zone_id"]) == ("1", "2")
    assert float(overlap["area_m2"]) == pytest.approx(200_000)
    assert overlap["detail"] == "in PLZ 34117"


def test_three_overlapping_zones_share_each_face_equally(tmp_path):
    zones = [(1, sq(0, 0, 600, KM)), (2, sq(400, 0, KM, KM)), (3, sq(450, 0, 550, KM))]
    result, out = run(tmp_path, [("34117", sq(0, 0, KM, KM))], zones)
    assert result.exit_code == 0, result.output
    got = shares(out)
    assert got[("34117", 1)] == pytest.approx(0.4 + 0.05 + 0.1 / 3, abs=1e-6)
    assert got[("34117", 2)] == pytest.approx(0.4 + 0.05 + 0.1 / 3, abs=1e-6)
    assert got[("34117", 3)] == pytest.approx(0.1 / 3, abs=1e-6)
    assert sum(got.values()) <= 1
    pairs = {(r["zone_id"], r["other_zone_id"]) for r in report(out) if r["kind"] == "zone_overlap"}
    assert pairs == {("1", "2"), ("1", "3"), ("2", "3")}


def test_invalid_geometries_are_repaired_and_reported(tmp_path):
    bowtie = Polygon([(X0, Y0), (X0 + KM, Y0 + KM), (X0 + KM, Y0), (X0, Y0 + KM)])
    assert not bowtie.is_valid
    twice = MultiPolygon([sq(0, 0, KM, KM), sq(0, 0, KM, 500)])  # overlapping parts
    result, out = run(tmp_path, [("34117", bowtie)], [(7, twice)])
    assert result.exit_code == 0, result.output
    assert shares(out) == {("34117", 7): 1.0}
    found = {r["kind"]: r for r in report(out)}
    assert found["repaired_plz"]["plz"] == "34117"
    assert found["repaired_plz"]["detail"].startswith("made valid: Self-intersection")
    assert float(found["repaired_plz"]["area_m2"]) == pytest.approx(500_000)
    assert found["repaired_zone"]["zone_id"] == "7"


def test_a_zone_assembled_from_municipalities(tmp_path):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    admin = write_layer(
        tmp_path / "gemeinden.fgb",
        [sq(-KM, 0, 250, KM), sq(250, 0, 500, KM)],
        AGS=["06611000", "06633001"],
    )
    (tmp_path / "lists.csv").write_text(
        "zone_id,area_key\n5,06611000\n5,06633001\n", encoding="utf-8"
    )
    zones = write_layer(tmp_path / "zones.gpkg", [sq(500, 0, KM, KM)], zone_id=[6])
    out = tmp_path / "plz_zones.csv"
    result = mapping(
        plz, zones, "--zone-admin", tmp_path / "lists.csv", "--admin-areas", admin, "--out", out
    )
    assert result.exit_code == 0, result.output
    table = {r["zone_id"]: r for r in rows(out)}
    assert float(table["5"]["area_share"]) == 0.5
    assert table["5"]["boundary_source"] == "municipalities"
    assert table["5"]["confidence"] == "0.7"
    assert table["6"]["boundary_source"] == "supplier"
    meta = json.loads((tmp_path / "mapping.json").read_text(encoding="utf-8"))
    assert meta["inputs"]["admin_areas"]["file"] == "gemeinden.fgb"
    assert meta["inputs"]["zone_admin"]["rows"] == 2


def test_zones_only_as_municipalities_need_no_zone_file(tmp_path):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    admin = write_layer(
        tmp_path / "gemeinden.gpkg", [sq(-KM, -KM, 2 * KM, 2 * KM)], AGS=["06611000"]
    )
    (tmp_path / "lists.csv").write_text(
        "zone_id,area_key,confidence\n5,06611000,0.8\n", encoding="utf-8"
    )
    out = tmp_path / "plz_zones.csv"
    result = mapping(
        plz, "--zone-admin", tmp_path / "lists.csv", "--admin-areas", admin, "--out", out
    )
    assert result.exit_code == 0, result.output
    assert rows(out)[0]["confidence"] == "0.8"


@pytest.mark.parametrize("crs", ["EPSG:4326", "EPSG:25832"])
def test_inputs_in_wgs84_and_utm_give_the_same_shares(tmp_path, crs):
    plz = [sq(0, 0, KM, KM), sq(KM, 0, 3 * KM, KM)]
    zones = [sq(0, 0, 250, 3 * KM), sq(250, 0, 5 * KM, 3 * KM)]
    if crs == "EPSG:4326":
        plz_path = write_geojson(
            tmp_path / "plz.geojson",
            [({"plz": c}, to_crs(g, crs)) for c, g in zip(["34117", "34119"], plz, strict=True)],
        )
    else:
        plz_path = write_layer(
            tmp_path / "plz.gpkg", [to_crs(g, crs) for g in plz], crs=crs, plz=["34117", "34119"]
        )
    zone_path = write_layer(
        tmp_path / "zones.shp", [to_crs(g, crs) for g in zones], crs=crs, zone_id=[1, 2]
    )
    out = tmp_path / "plz_zones.csv"
    result = mapping(plz_path, zone_path, "--out", out)
    assert result.exit_code == 0, result.output
    got = shares(out)
    assert got[("34117", 1)] == pytest.approx(0.25, abs=1e-6)
    assert got[("34117", 2)] == pytest.approx(0.75, abs=1e-6)
    assert got[("34119", 2)] == pytest.approx(1.0, abs=1e-6)
    meta = json.loads((tmp_path / "mapping.json").read_text(encoding="utf-8"))
    assert meta["inputs"]["plz_areas"]["crs"] == crs
    assert meta["inputs"]["zone_areas"]["crs"] == crs


def test_geoparquet_input(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    geo = {
        "version": "1.1.0",
        "primary_column": "geometry",
        "columns": {"geometry": {"encoding": "WKB", "geometry_types": ["Polygon"]}},
    }
    lonlat = [to_crs(sq(0, 0, KM, KM), "EPSG:4326")]
    table = pa.table({"plz": ["34117"], "geometry": shapely.to_wkb(lonlat).tolist()})
    table = table.replace_schema_metadata({b"geo": json.dumps(geo).encode()})
    pq.write_table(table, tmp_path / "plz.parquet")
    zones = write_layer(tmp_path / "zones.gpkg", [sq(0, 0, 600, KM)], zone_id=[1])
    out = tmp_path / "plz_zones.csv"
    result = mapping(tmp_path / "plz.parquet", zones, "--out", out)  # no crs: OGC:CRS84
    assert result.exit_code == 0, result.output
    assert shares(out)[("34117", 1)] == pytest.approx(0.6, abs=1e-6)


def test_confidence_by_boundary_source_override_and_near_the_minimum(tmp_path):
    plz = [("34117", sq(0, 0, KM, KM)), ("34119", sq(2 * KM, 0, 3 * KM, KM))]
    zones = [
        (1, sq(0, 0, 990, KM)),  # supplier: 0.9
        (2, sq(990, 0, KM, KM)),  # supplier, share 0.01: 0.9 * (0.5 + 0.5 * 1/3) = 0.6
        (3, sq(2 * KM, 0, 2.5 * KM, KM)),  # drawn by the operator: 0.5
        (4, sq(2.5 * KM, 0, 3 * KM, KM)),  # the input says 0.65
    ]
    props = {
        "boundary_source": ["supplier", None, "operator", None],
        "confidence": [None, None, None, 0.65],
    }
    result, out = run(tmp_path, plz, zones, zone_props=props)
    assert result.exit_code == 0, result.output
    got = {int(r["zone_id"]): (r["confidence"], r["boundary_source"]) for r in rows(out)}
    assert got == {
        1: ("0.9", "supplier"),
        2: ("0.6", "supplier"),
        3: ("0.5", "operator"),
        4: ("0.65", "supplier"),
    }


def test_zone_source_option_sets_the_default(tmp_path):
    result, out = run(
        tmp_path,
        [("34117", sq(0, 0, KM, KM))],
        [(1, sq(0, 0, KM, KM))],
        "--zone-source",
        "operator",
    )
    assert result.exit_code == 0, result.output
    assert (rows(out)[0]["confidence"], rows(out)[0]["boundary_source"]) == ("0.5", "operator")


def test_property_names_are_options(tmp_path):
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], postcode=["01067"])
    zones = write_layer(tmp_path / "zones.gpkg", [sq(0, 0, KM, KM)], gebiet=[12])
    out = tmp_path / "plz_zones.csv"
    result = mapping(plz, zones, "--out", out, "--plz-field", "postcode", "--zone-field", "gebiet")
    assert result.exit_code == 0, result.output
    assert shares(out) == {("01067", 12): 1.0}


def test_zones_that_cover_no_plz_are_reported(tmp_path):
    result, out = run(
        tmp_path,
        [("34117", sq(0, 0, KM, KM))],
        [(1, sq(0, 0, KM, KM)), (2, sq(10 * KM, 0, 11 * KM, KM))],
    )
    assert result.exit_code == 0, result.output
    [unused] = [r for r in report(out) if r["kind"] == "zone_without_plz"]
    assert unused["zone_id"] == "2" and float(unused["area_m2"]) == pytest.approx(1e6)


def test_same_input_same_bytes(tmp_path):
    zones = [sq(0, 0, 600, KM), sq(400, 0, KM, KM), sq(KM - 1, 0, 2 * KM, KM)]
    plz = write_layer(tmp_path / "plz.gpkg", [sq(0, 0, KM, KM)], plz=["34117"])
    zone_path = write_layer(tmp_path / "zones.gpkg", zones, zone_id=[1, 2, 3])
    outputs = []
    for run_dir, threads in (("a", "4"), ("b", "1")):
        out = tmp_path / run_dir / "plz_zones.csv"
        assert mapping(plz, zone_path, "--out", out, "--threads", threads).exit_code == 0
        outputs.append({p.name: p.read_bytes() for p in out.parent.iterdir()})
    assert outputs[0] == outputs[1]
    assert sorted(outputs[0]) == [
        "mapping-report.csv",
        "mapping.json",
        "plz_shapes.csv",
        "plz_zones.csv",
    ]


def test_shares_of_a_plz_never_add_up_to_more_than_one_after_rounding(tmp_path):
    # Seven equal strips: each share is 1/7, rounded to 0.142857 (sum 0.999999).
    zones = [(i + 1, sq(i * KM / 7, 0, (i + 1) * KM / 7, KM)) for i in range(7)]
    result, out = run(tmp_path, [("34117", sq(0, 0, KM, KM))], zones)
    assert result.exit_code == 0, result.output
    assert sum(shares(out).values()) <= 1
    assert all(v == pytest.approx(1 / 7, abs=1e-6) for v in shares(out).values())
    assert shapely.area(sq(0, 0, KM, KM)) == KM * KM and Y0 > 0


def test_rounding_keeps_every_share_within_a_millionth_and_sums_at_most_one():
    import polars as pl

    from generator.mapping.table import rounded_shares

    exact = [0.5000005, 0.4999995, 1 / 3, 1 / 3, 1 / 3, 0.2999996, 0.2999996, 0.4, None]
    frame = pl.DataFrame({"plz": list("aabbbccc") + ["d"], "s": exact})
    got = rounded_shares(frame, "s", ["plz"])["s"].to_list()
    assert got == [0.5, 0.5, 0.333334, 0.333333, 0.333333, 0.3, 0.299999, 0.4, None]
    for value, original in zip(got[:-1], exact[:-1], strict=True):
        assert abs(value - original) < 1e-6
