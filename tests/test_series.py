"""The zone series file and the `?parameter=` filter the gates apply to it.

The per-parameter files are gone; the filter must answer exactly the bytes they held. The
reference here is the renderer of those files as it was (polars, one group per zone and
parameter), kept as an independent implementation to compare with.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import polars as pl
import pytest

from generator import derive, load
from generator.api import resources, routes, series
from generator.frames.compact import as_text
from generator.load import sample_data_dir
from generator.output.encode import document, stored_gzip
from tests.helpers import AS_OF, GOLDEN_INPUT, series_path, tree_bytes


def per_parameter_reference(data_dir: Path) -> dict[tuple[int, str], bytes]:
    """Every (zone, parameter) document as the build wrote it into its own file before."""
    d = derive.derive(load.load(data_dir), AS_OF)
    docs = d.documents.select(
        "document_id", document(resources.DOCUMENT).struct.json_encode().alias("doc")
    )
    rows = as_text(derive.with_numbers(d.measurements, d.readings)).select(
        "zone_id",
        "parameter",
        "document_id",
        "normalized_unit",
        document(resources.MEASUREMENT).struct.json_encode().alias("row"),
    )
    by = ["zone_id", "parameter"]
    grouped = rows.group_by(by, maintain_order=True).agg(
        pl.col("row").str.join(","),
        pl.len().alias("count"),
        pl.col("document_id").unique().sort(),
        pl.col("normalized_unit").unique(),
    )
    cited = (
        grouped.select(*by, "document_id")
        .explode("document_id")
        .join(docs, on="document_id", how="left", maintain_order="left")
        .group_by(by, maintain_order=True)
        .agg(pl.col("doc").str.join(","))
    )
    joined = grouped.join(cited, on=by, maintain_order="left")
    expected = {}
    for zone, code, rows_, count, docs_, (unit,) in joined.select(
        "zone_id", "parameter", "row", "count", "doc", "normalized_unit"
    ).iter_rows():
        # The parameter's register unit, once: every one of its points had it before.
        units = json.dumps({code: unit}, ensure_ascii=False, separators=(",", ":"))
        expected[zone, code] = (
            f'{{"count":{count},"documents":[{docs_}],"measurements":[{rows_}],'
            f'"normalized_units":{units},"parameter":"{code}","zone_id":{zone}}}\n'
        ).encode()
    return expected


def series_file(build_dir: Path, zone_id: int) -> bytes:
    return tree_bytes(series_path(build_dir, zone_id))


@pytest.mark.parametrize(
    ("data_dir", "tree"),
    [(GOLDEN_INPUT, "golden_site"), (sample_data_dir(), "sample_build")],
    ids=["golden", "sample"],
)
def test_filter_gives_the_bytes_of_the_former_per_parameter_files(data_dir, tree, request):
    out = request.getfixturevalue(tree)
    expected = per_parameter_reference(data_dir)
    assert len(expected) >= 19
    for (zone, code), text in expected.items():
        got = series.filter_series(series_file(out, zone), code, {"zone_id": str(zone)})
        assert got == text, (zone, code)


def test_series_files_are_valid_documents_one_item_per_line(sample_build):
    register = (sample_build / routes.file_path("parameters")).read_bytes()
    codes = series.register_codes(register)
    units = {p["code"]: p["unit"] for p in json.loads(register)["parameters"]}
    zones = sorted(p for p in (sample_build / "_data/v1/zones").iterdir() if p.is_dir())
    assert zones
    empty = 0
    for folder in zones:
        zone = int(folder.name)
        body = series_file(sample_build, zone)
        whole = json.loads(body)
        assert whole["parameter"] is None and whole["zone_id"] == zone
        parts = series.split(body)
        members = {"parameter": "null", "zone_id": folder.name}
        members["normalized_units"] = series.units_text(whole["normalized_units"])
        # The layout is exactly items between the frame lines, and nothing else.
        assert series.lines(parts.documents, parts.rows, members) == body
        assert body.count(b"\n") == len(parts.documents) + len(parts.rows) + 3
        assert [json.loads(r) for r in parts.rows] == whole["measurements"]
        # One unit per parameter of the rows, the register's.
        assert sorted(whole["normalized_units"]) == sorted(
            {m["parameter"] for m in whole["measurements"]}
        )
        assert all(whole["normalized_units"][c] == units[c] for c in whole["normalized_units"])
        empty += whole["count"] == 0
        # Every code: the rows of that parameter, the documents they cite, nothing else.
        for code in codes:
            answer = json.loads(series.filter_series(body, code, {"zone_id": folder.name}))
            rows = [m for m in whole["measurements"] if m["parameter"] == code]
            cited = {m["document_id"] for m in rows}
            assert answer == {
                "count": len(rows),
                "documents": [d for d in whole["documents"] if d["document_id"] in cited],
                "measurements": rows,
                "normalized_units": {code: units[code]} if rows else {},
                "parameter": code,
                "zone_id": zone,
            }


def test_an_empty_zone_has_an_empty_series(tiny_data, tmp_path):
    from generator.build import build
    from generator.config import Config
    from tests.helpers import read_rows, write_rows

    rows = read_rows(tiny_data / "measurements.csv")
    write_rows(tiny_data / "measurements.csv", [r for r in rows if r["zone_id"] != "21"])
    out = tmp_path / "build"
    build(tiny_data, out, AS_OF, Config())
    body = series_file(out, 21)
    assert body == (
        b'{"count":0,"documents":[\n],"measurements":[\n],"normalized_units":{},'
        b'"parameter":null,"zone_id":21}\n'
    )
    assert series.filter_series(body, "nitrat", {"zone_id": "21"}) == (
        b'{"count":0,"documents":[],"measurements":[],"normalized_units":{},'
        b'"parameter":"nitrat","zone_id":21}\n'
    )


def _row(**fields: object) -> bytes:
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode()


def test_rows_are_picked_by_their_own_member_only():
    """Text that looks like the member inside a string never picks a row."""
    tricky = ',"parameter":"nitrat",'
    rows = [
        _row(document_id="a", parameter="blei", value_text=tricky),
        _row(document_id=tricky, parameter="blei", value_text="1"),
        _row(document_id="b", parameter="nitrat", value_text='"parameter":"blei"}'),
    ]
    docs = [_row(document_id="a", title="x"), _row(document_id="b", title=tricky)]
    members = {"parameter": "null", "normalized_units": '{"blei":"µg/l","nitrat":"mg/l"}'}
    body = series.lines(docs, rows, {**members, "zone_id": "7"})
    assert json.loads(body)["count"] == 3
    nitrat = json.loads(series.filter_series(body, "nitrat", {"zone_id": "7"}))
    assert [m["document_id"] for m in nitrat["measurements"]] == ["b"]
    assert [d["document_id"] for d in nitrat["documents"]] == ["b"]
    assert nitrat["normalized_units"] == {"nitrat": "mg/l"}
    blei = json.loads(series.filter_series(body, "blei", {"zone_id": "7"}))
    assert blei["count"] == 2 and [d["document_id"] for d in blei["documents"]] == ["a"]


def test_the_member_is_found_first_last_or_alone():
    doc = _row(document_id="d")
    for row in (
        b'{"parameter":"x","document_id":"d"}',
        _row(document_id="d", parameter="x"),
        b'{"parameter":"x"}',
    ):
        docs = [doc] if b"document_id" in row else []
        members = {"parameter": "null", "normalized_units": '{"x":null}', "zone_id": "1"}
        body = series.lines(docs, [row], members)
        x = json.loads(series.filter_series(body, "x", {"zone_id": "1"}))
        assert (x["count"], x["normalized_units"]) == (1, {"x": None})
        y = json.loads(series.filter_series(body, "y", {"zone_id": "1"}))
        assert (y["count"], y["normalized_units"]) == (0, {})


def test_a_file_that_is_no_series_is_an_error():
    with pytest.raises(ValueError, match="not a series"):
        series.split(b'{"count":0,"documents":[],"measurements":[]}\n')


def test_the_frame_follows_the_declared_fields():
    assert series.HEAD == '{"count":{count},"documents":['
    assert series.MIDDLE == '],"measurements":['
    assert series.TAIL == (
        '],"normalized_units":{normalized_units},"parameter":{parameter},"zone_id":{zone_id}}'
    )
    body = series.lines([], [], {"parameter": "null", "normalized_units": "{}", "zone_id": "5"})
    assert sorted(json.loads(body)) == sorted(resources.MEASUREMENTS.names)


def test_stored_series_are_gzip_any_client_reads_with_no_time_or_name():
    text = ("".join(f'{{"i":{i},"unit":"µg/l"}},\n' for i in range(5000))).encode()
    stored = stored_gzip(text)
    assert gzip.decompress(stored) == text
    assert stored_gzip(text) == stored  # the same bytes in, the same bytes out
    # RFC 1952 header: deflate, no flags (so no file name), modification time 0.
    assert stored[:4] == b"\x1f\x8b\x08\x00" and stored[4:8] == b"\x00\x00\x00\x00"
    assert len(stored) < len(text) // 10
