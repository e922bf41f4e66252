"""One declaration per document: what it declares is what the build writes and OpenAPI says.

Every file of a sample build is checked against the schemas made from the declarations in
tests/test_openapi.py (closed objects, every field required): nothing declared is missing,
nothing undeclared is written. Here: adding a field to a declaration and a column to the
derived frame is all it takes to publish it, and URLs come from the route table.
"""

from __future__ import annotations

import dataclasses
import io
import json

import polars as pl
import pytest
from jsonschema import Draft202012Validator, FormatChecker

from generator import derive, render
from generator.api import fields, openapi, resources, routes
from generator.config import Config
from generator.output.encode import document, object_bytes
from tests.golden.regenerate import EXPECTED

CONFIG = Config()


@pytest.fixture(scope="module")
def derived(golden_derived) -> derive.Derived:
    return golden_derived


def with_field(monkeypatch, attribute: str, field: fields.Field) -> fields.Resource:
    """Add `field` to the declaration `resources.<attribute>` for this test only."""
    old = getattr(resources, attribute)
    new = dataclasses.replace(old, fields=(*old.fields, field))
    monkeypatch.setattr(resources, attribute, new)
    monkeypatch.setitem(resources.RESOURCES, new.name, new)
    return new


def schema_validator(doc: dict, name: str) -> Draft202012Validator:
    schema = {"$ref": fields.REF + name, "components": doc["components"]}
    return Draft202012Validator(schema, format_checker=FormatChecker())


def test_a_new_field_needs_a_column_and_one_declaration(monkeypatch, derived):
    with_field(
        monkeypatch,
        "SUPPLIER",
        fields.integer("founded", "Year the supplier was founded.", 1898, nullable=True),
    )
    d = dataclasses.replace(
        derived,
        suppliers=derived.suppliers.with_columns(
            pl.when(pl.col("supplier_id") == 1).then(1898).alias("founded")
        ),
    )
    files = {path: json.loads(data) for path, data in render.supplier_files(d)}
    assert files[routes.file_path("supplier", supplier_id=1)]["founded"] == 1898
    assert files[routes.file_path("supplier", supplier_id=2)]["founded"] is None
    spec = openapi.document(CONFIG)
    schema = spec["components"]["schemas"]["Supplier"]
    assert "founded" in schema["required"]
    assert schema["properties"]["founded"] == {
        "type": ["integer", "null"],
        "description": "Year the supplier was founded.",
    }
    example = spec["paths"][routes.route("supplier").path]["get"]["responses"]["200"]["content"]
    assert example["application/json"]["example"]["founded"] == 1898
    for data in files.values():
        schema_validator(spec, "Supplier").validate(data)


def test_a_field_without_its_column_fails_the_build(monkeypatch, derived):
    with_field(monkeypatch, "SUPPLIER", fields.integer("founded", "Year founded.", 1898))
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="founded"):
        list(render.supplier_files(derived))


def test_a_new_export_column_reaches_csv_parquet_json_and_datapackage(monkeypatch, derived):
    with_field(monkeypatch, "EXPORT_ROW", fields.string("state", "Federal state.", "BW"))
    d = dataclasses.replace(
        derived, export=derived.export.with_columns(pl.lit("BW").alias("state"))
    )
    files = dict(render.export_files(d, CONFIG))
    csv = files[routes.file_path("export", format="csv")].decode()
    # The CSV adds the ODbL credit as its last column.
    assert csv.splitlines()[0] == ",".join([*resources.EXPORT_ROW.names, "attribution"])
    assert csv.splitlines()[0].endswith(",boundary_source,state,attribution")
    parquet = pl.read_parquet(io.BytesIO(files[routes.open_file("export_parquet")]))
    assert parquet.columns == resources.EXPORT_ROW.names
    rows = json.loads(files[routes.file_path("export", format="json")])["rows"]
    assert {row["state"] for row in rows} == {"BW"}
    package = json.loads(files[routes.open_file("datapackage")])
    for described in package["resources"]:
        if described["path"] == "strassen.csv":  # a table of its own (StreetRow)
            continue
        columns = described["schema"]["fields"]
        if described["format"] == "csv":
            assert columns[-1]["name"] == "attribution"
            columns = columns[:-1]
        assert columns[-1] == {
            "name": "state",
            "type": "string",
            "description": "Federal state.",
        }


def test_declarations_are_complete_and_consistent():
    for resource in resources.RESOURCES.values():
        assert resource.description, resource.name
        for f in resource.fields:
            assert f.description, f"{resource.name}.{f.name}"
            assert f.type in ("string", "integer", "number", "boolean", "object", "array")
            if f.ref:
                assert f.ref in resources.RESOURCES, f"{resource.name}.{f.name} -> {f.ref}"
            if f.type == "array":
                assert bool(f.ref) != bool(f.items), f"{resource.name}.{f.name}"
            elif f.type != "object":
                assert f.example is not None or f.nullable, f"{resource.name}.{f.name}"
    spec = openapi.document(CONFIG)
    for name, example in resources.examples().items():
        schema_validator(spec, name).validate(example)


def test_a_resource_cannot_declare_a_field_twice():
    with pytest.raises(ValueError, match="twice"):
        fields.Resource("X", "x", (fields.integer("a", "a", 1), fields.integer("a", "a", 2)))


def test_encoding_checks_the_declaration():
    with pytest.raises(KeyError, match="declares no field nope"):
        document(resources.ZONE, nope=pl.lit(1))
    with pytest.raises(KeyError, match="Measurements has fields"):
        object_bytes(resources.MEASUREMENTS, count=b"0")


def test_documents_have_sorted_keys_in_any_declared_order(derived):
    """JSON keys are sorted whatever the declaration's order (the CSV's order)."""
    text = derived.export.head(1).select(document(resources.EXPORT_ROW).struct.json_encode())
    keys = list(json.loads(text.item()))
    assert keys == sorted(resources.EXPORT_ROW.names) != resources.EXPORT_ROW.names


# ---------------------------------------------------------------------------- route table


@pytest.mark.parametrize(
    ("operation_id", "columns"),
    [
        ("zone", {"zone_id": [0, 11, 123456]}),
        ("zone_measurements", {"zone_id": [11, 12]}),
        ("zone_measurements", {"zone_id": [11, 12], "parameter": ["blei", "pfas_summe_20"]}),
        ("supplier", {"supplier_id": [1, 2]}),
        ("parameter_limits", {"code": ["blei", "ph"]}),
        ("lookup", {"plz": ["01067", "76437"]}),
        ("export", {"format": ["csv", "json"]}),
    ],
)
def test_url_expr_gives_the_url_of_every_row(operation_id, columns):
    frame = pl.DataFrame(columns)
    got = frame.select(
        routes.url_expr(operation_id, **{name: pl.col(name) for name in columns})
    ).to_series()
    expected = [routes.url(operation_id, **row) for row in frame.iter_rows(named=True)]
    assert got.to_list() == expected
    assert all(u.startswith(routes.route(operation_id).path.split("{")[0]) for u in expected)


@pytest.mark.parametrize(
    ("operation_id", "keys"),
    [
        ("supplier", pl.Series("supplier_id", [0, 7, 918273645])),
        ("zone", pl.Series("zone_id", [11])),
    ],
)
def test_file_paths_are_the_file_path_of_every_key(operation_id, keys):
    expected = [routes.file_path(operation_id, **{keys.name: k}) for k in keys]
    assert routes.file_paths(operation_id, keys) == expected


def test_file_paths_take_whole_numbers_only():
    with pytest.raises(TypeError, match="whole numbers only"):
        routes.file_paths("supplier", pl.Series("supplier_id", ["../x"]))


def test_url_expr_refuses_unknown_parameters():
    with pytest.raises(KeyError, match="zone has no parameter plz"):
        routes.url_expr("zone", zone_id=pl.col("zone_id"), plz=pl.col("plz"))


def test_open_files_have_urls_hidden_files_none():
    assert routes.file_url(routes.open_file("openapi")) == "/v1/openapi.json"
    assert routes.file_url(routes.file_path("export", format="csv")) == "/v1/export/plz-zonen.csv"
    with pytest.raises(ValueError, match="hidden"):
        routes.file_url(routes.file_path("zone", zone_id=11))


def test_every_open_file_is_in_the_golden_tree():
    for path in routes.OPEN_FILES.values():
        assert (EXPECTED / path).is_file(), path
