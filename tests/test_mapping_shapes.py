"""`trinkwasser mapping` writes the PLZ areas simplified for the map (plz_shapes.csv)."""

from __future__ import annotations

import shapely
from click.testing import CliRunner
from shapely.geometry import Polygon

from generator.cli import cli
from generator.load import load
from tests.helpers import GOLDEN_INPUT
from tests.mapping_helpers import X0, Y0, mapping, rows, sq, write_layer

KM = 1000.0


def strip(x0: float, x1: float, y1: float, bumps: int = 40) -> Polygon:
    """Return a strip from x0 to x1 (EPSG:3035 metres from the test origin).

    Its sides zigzag by 30 m: detail that a 400 m simplification removes.
    """
    left = [(X0 + x0 + (30.0 if i % 2 else 0.0), Y0 + y1 * i / bumps) for i in range(bumps + 1)]
    right = [(X0 + x1 + (30.0 if i % 2 else 0.0), Y0 + y1 * i / bumps) for i in range(bumps + 1)]
    return shapely.make_valid(Polygon(left + list(reversed(right))))


def run(tmp_path, *options):
    areas = [
        strip(0, 5 * KM, 10 * KM),
        strip(5 * KM, 10 * KM, 10 * KM),
        strip(10 * KM, 15 * KM, 10 * KM),
    ]
    plz = write_layer(
        tmp_path / "plz.gpkg",
        areas,
        plz=["34117", "34119", "34121"],
        land=["Hessen", "Hessen", "Niedersachsen"],
    )
    zones = write_layer(tmp_path / "zones.gpkg", [sq(0, 0, 15 * KM, 10 * KM)], zone_id=[1])
    out = tmp_path / "out" / "plz_zones.csv"
    result = mapping(plz, zones, "--out", out, *options)
    assert result.exit_code == 0, result.output
    return out.with_name("plz_shapes.csv"), result.output


def rings(shape: str) -> list[list[tuple[float, float]]]:
    return [[tuple(map(float, p.split())) for p in r.split(",")] for r in shape.split(";")]


def edges(ring: list[tuple[float, float]]) -> set[frozenset]:
    return {frozenset((a, b)) for a, b in zip(ring, ring[1:] + ring[:1], strict=True)}


def test_the_shapes_are_simplified_and_neighbours_share_their_edges(tmp_path):
    path, output = run(tmp_path, "--plz-land-field", "land")
    table = rows(path)
    assert [r["plz"] for r in table] == ["34117", "34119", "34121"]
    assert [r["land"] for r in table] == ["Hessen", "Hessen", "Niedersachsen"]
    assert "plz_shapes: 3 PLZ areas" in output
    shapes = {r["plz"]: rings(r["shape"]) for r in table}
    # 82 corners each before; the 30 m zigzag is gone after 400 m of simplification.
    assert all(len(r[0]) < 20 for r in shapes.values())
    # Topology kept: the border of neighbours is the same simplified line on both sides.
    shared = edges(shapes["34117"][0]) & edges(shapes["34119"][0])
    assert len(shared) >= 1
    left = {p for e in edges(shapes["34117"][0]) for p in e if p[0] > 9.0}
    assert left, "coordinates are WGS84 degrees"
    # The text is what the contract accepts, so a build reads it without the geo extra.
    for r in table:
        assert all(len(ring) >= 3 for ring in rings(r["shape"]))


def test_without_a_land_field_the_land_stays_empty_and_a_path_can_be_chosen(tmp_path):
    target = tmp_path / "elsewhere" / "shapes.csv"
    _, output = run(tmp_path, "--shapes-out", target, "--shape-tolerance", "50")
    table = rows(target)
    assert {r["land"] for r in table} == {""}
    assert str(target) in output
    # A finer tolerance keeps more corners.
    assert max(len(rings(r["shape"])[0]) for r in table) >= 20


def test_the_golden_shapes_load_and_a_bad_shape_is_a_problem(tmp_path):
    assert load(GOLDEN_INPUT).plz_shapes.height == 5
    import shutil

    data = shutil.copytree(GOLDEN_INPUT, tmp_path / "data")
    path = data / "plz_shapes.csv"
    path.write_text(path.read_text() + '99998,,"12.0 51.5;12.1"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(data)])
    assert result.exit_code == 1
    assert "plz_shapes, row 6, column shape" in result.output and "malformed_shape" in result.output
