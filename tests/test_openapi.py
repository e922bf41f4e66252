"""The OpenAPI document and routes.json, both made from the route table."""

from __future__ import annotations

import json
import re
from importlib.metadata import version

import pytest
from jsonschema import Draft202012Validator, FormatChecker, ValidationError
from openapi_spec_validator import validate as validate_spec

from generator import __version__
from generator.api import resources, routes, series
from generator.api.routes import ROUTES
from generator.api.settings import GateSettings, routes_document
from generator.config import Config
from generator.gate.validation import validate
from generator.output import state
from generator.output.tree import read_manifest
from tests.helpers import tree_json

NOT_ROUTED = set(routes.OPEN_FILES.values())
"""Open files that are no route's backing file (served as plain files)."""


@pytest.fixture(scope="module")
def built(golden_site):
    return golden_site


@pytest.fixture(scope="module")
def doc(built):
    return json.loads((built / "v1" / "openapi.json").read_text(encoding="utf-8"))


def validator(doc: dict, ref: str) -> Draft202012Validator:
    """Validate against a schema inside the document (its $refs resolve in `components`)."""
    schema = {"$ref": ref, "components": doc["components"]}
    return Draft202012Validator(schema, format_checker=FormatChecker())


def test_document_is_valid_openapi_3_1(doc):
    validate_spec(doc)
    assert doc["openapi"] == "3.1.0"
    assert doc["info"]["version"] == __version__ == version("trinkwasserdaten")


def test_every_route_is_an_operation_with_its_constraints(doc):
    operations = [(path, method) for path, item in doc["paths"].items() for method in item]
    assert len(operations) == len(ROUTES)
    for r in ROUTES:
        op = doc["paths"][r.path][r.method.lower()]
        assert op["operationId"] == r.operation_id
        declared = {p["name"]: p for p in op.get("parameters", [])}
        for param in r.params:
            if param.location == "body":
                body = doc["components"]["schemas"]["AccessRequest"]
                schema = body["properties"][param.name]
                assert param.name in body["required"]
            else:
                assert declared[param.name]["in"] == param.location
                assert declared[param.name]["required"] == param.required
                schema = declared[param.name]["schema"]
            assert schema["type"] == param.type
            assert schema.get("minLength") == param.min_length
            assert schema.get("maxLength") == param.max_length
            assert schema.get("pattern") == param.pattern


def test_keyed_operations_require_the_api_key(doc):
    scheme = doc["components"]["securitySchemes"]["ApiKey"]
    assert scheme == {**scheme, "type": "apiKey", "in": "header", "name": "X-Api-Key"}
    for r in ROUTES:
        op = doc["paths"][r.path][r.method.lower()]
        headers = [p for p in op.get("parameters", []) if p["in"] == "header"]
        if r.access == "key":
            assert op["security"] == [{"ApiKey": []}]
            assert {"401", "403", "429"} <= set(op["responses"])
            # Declared as the seed does: optional in the schema, required in words.
            [key] = headers
            assert (key["name"], key["required"]) == ("x-api-key", False)
            assert "required" in key["description"]
        else:
            assert op["security"] == []
            assert "401" not in op["responses"]
            assert not headers


def test_error_responses_are_described(doc):
    for r in ROUTES:
        responses = doc["paths"][r.path][r.method.lower()]["responses"]
        assert str(r.status) in responses
        if any(p.can_fail for p in r.params):
            assert responses["422"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/HTTPValidationError"
            }
        else:
            assert "422" not in responses, r.operation_id
    lookup = doc["paths"]["/v1/lookup"]["get"]["responses"]
    assert set(lookup) == {"200", "304", "401", "403", "404", "422", "429", "503"}
    antrag = doc["paths"]["/v1/keys/antrag"]["post"]["responses"]
    assert set(antrag) == {"202", "400", "413", "422", "429", "503"}
    # A code is a plain string: an unknown one is a 404, never a 422.
    limits = doc["paths"]["/v1/parameters/{code}/limits"]["get"]["responses"]
    assert set(limits) == {"200", "304", "401", "403", "404", "429", "503"}


def _file_routes():
    """Return (route, regex) for every route backed by files."""
    out = []
    for r in ROUTES:
        if r.file:
            pattern = re.sub(r"\\\{\w+\\\}", r"[^/]+", re.escape(r.file))
            out.append((r, re.compile(pattern)))
    return out


def test_every_json_file_matches_its_route_schema(built, doc):
    routed = _file_routes()
    checked: dict[str, int] = {}
    for path in sorted([*built.rglob("*.json"), *built.rglob("*.json.gz")]):
        rel = path.relative_to(built).as_posix()
        if not rel.startswith(("v1/", "_data/")) or rel in NOT_ROUTED:
            continue
        matches = [r for r, regex in routed if regex.fullmatch(rel)]
        assert len(matches) == 1, f"{rel} belongs to {len(matches)} routes"
        name = matches[0].response
        errors = sorted(
            validator(doc, f"#/components/schemas/{name}").iter_errors(tree_json(path)),
            key=lambda e: list(e.absolute_path),
        )
        assert not errors, f"{rel}: " + "; ".join(
            f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]
        )
        checked[matches[0].operation_id] = checked.get(matches[0].operation_id, 0) + 1
    assert set(checked) == {r.operation_id for r in ROUTES if r.file}, checked
    assert checked["lookup"] == 6 and checked["parameter_limits"] == 282


def test_a_wrong_document_fails_its_schema(doc):
    """The schemas are closed: a missing or an extra member is caught."""
    check = validator(doc, "#/components/schemas/ExportRow")
    row = {
        "area_share": 0.5,
        "confidence": 1.0,
        "plz": "76437",
        "supplier_id": 1,
        "supplier_name": "x",
        "zone_id": 11,
        "zone_name": "y",
        "population_share": None,
        "boundary_source": "supplier",
    }
    assert check.is_valid(row)
    assert check.is_valid({**row, "population_share": 0.4, "boundary_source": None})
    assert not check.is_valid({**row, "boundary_source": "guess"})
    assert not check.is_valid({**row, "population_share": 1.5})
    assert not check.is_valid({**row, "value": 0.1})  # measured values never in the export
    assert not check.is_valid({k: v for k, v in row.items() if k != "plz"})
    assert not check.is_valid({**row, "plz": "7643"})


def test_examples_match_their_schemas(doc):
    seen = 0
    for item in doc["paths"].values():
        for op in item.values():
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                validator(doc, body["schema"]["$ref"]).validate(body["example"])
                seen += 1
            for param in op.get("parameters", []):
                Draft202012Validator(param["schema"]).validate(param["example"])
                seen += 1
            for response in op["responses"].values():
                media = response.get("content", {}).get("application/json")
                if media and "example" in media:
                    validator(doc, media["schema"]["$ref"]).validate(media["example"])
                    seen += 1
    assert seen > 40


def test_validation_examples_are_what_the_gate_answers(doc):
    """Each documented 422 body is the gate's real answer to the request it describes."""
    for r in ROUTES:
        if "422" not in doc["paths"][r.path][r.method.lower()]["responses"]:
            continue
        media = doc["paths"][r.path][r.method.lower()]["responses"]["422"]["content"]
        example = media["application/json"]["example"]["detail"]
        location, *rest = example[0]["loc"]
        if location == "body":
            result = validate(r, {}, [], b"{}", "application/json")
        elif location == "path":
            result = validate(r, {rest[0]: example[0]["input"]})
        else:
            given = example[0]["input"]
            result = validate(r, {}, [] if given is None else [(rest[0], given)])
        assert result.errors == example, r.operation_id


def test_routes_json_is_written_beside_the_published_tree(built):
    routes_json = built.parent / "build-gate" / "routes.json"
    document = json.loads(routes_json.read_text(encoding="utf-8"))
    codes = series.register_codes((built / "v1" / "parameters.json").read_bytes())
    written = routes_document(GateSettings.from_config(Config()), codes)
    assert document == json.loads(json.dumps(written))
    assert len(document["series"]["codes"]) == 282
    assert [r["operation_id"] for r in document["routes"]] == [r.operation_id for r in ROUTES]
    assert document["settings"]["daily_quota"] == 1000
    assert document["settings"]["key_header"] == "X-Api-Key"
    assert not list(built.rglob("routes.json"))
    assert not list(built.rglob(state.MANIFEST.name))  # kept beside the tree, never in it
    assert not [f for f in read_manifest(built)["files"] if "routes" in f]


def _enums_in(node, path=""):
    """Yield (path, schema) of every inline `enum` under `node`."""
    if isinstance(node, dict):
        if "enum" in node:
            yield path, node
        for key, value in node.items():
            yield from _enums_in(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _enums_in(value, f"{path}[{i}]")


def test_each_vocabulary_is_one_named_component(doc):
    """A generated client gets one class per vocabulary, not three per nullable field."""
    components = doc["components"]["schemas"]
    for name, (_, vocabulary) in resources.ENUMS.items():
        schema = components[name]
        assert schema["type"] == "string" and schema["enum"] == sorted(vocabulary)
        assert schema["x-enum-descriptions"] == [vocabulary[v] for v in sorted(vocabulary)]
        assert all(f"`{v}`" in schema["description"] for v in vocabulary)
    # No document schema spells a vocabulary out again: every enum is a component's.
    inline = [
        p for p, _ in _enums_in({k: v for k, v in components.items() if k not in resources.ENUMS})
    ]
    assert inline == []
    current = components["CurrentValue"]["properties"]
    assert current["state"]["$ref"] == "#/components/schemas/State"
    assert current["future_state"]["oneOf"] == [
        {"$ref": "#/components/schemas/State"},
        {"type": "null"},
    ]
    assert current["qualifier"]["oneOf"][0] == {"$ref": "#/components/schemas/Qualifier"}
    lookup = components["Lookup"]["properties"]["ambiguity_reasons"]
    assert lookup["items"] == {"$ref": "#/components/schemas/AmbiguityReason"}
    # A value outside its vocabulary fails; null passes where the field allows it.
    value = resources.examples()["CurrentValue"]
    current_value = validator(doc, "#/components/schemas/CurrentValue")
    current_value.validate({**value, "future_state": None})
    with pytest.raises(ValidationError, match="is not one of"):
        current_value.validate({**value, "state": "fine"})


def test_the_example_key_says_it_is_no_key(doc):
    """Every keyed operation's header example is the example key, and says it answers 403.

    That a gate does answer it with 403 is tested against both gates (tests/test_browser*).
    """
    keyed = [
        p
        for path in doc["paths"].values()
        for op in path.values()
        for p in op.get("parameters", [])
        if p["in"] == "header"
    ]
    assert keyed
    for p in keyed:
        assert p["example"].endswith("DcfP3tSVPSeIOEAuikqR5I7bpNNTb1Gy")
        assert "The example is no key: every gate answers it with 403." in p["description"]
        assert "POST /v1/keys/antrag" in p["description"]
