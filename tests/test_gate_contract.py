"""The service contract (generator/api): who imports whom, routes.json, messages, file names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.api import http, messages, routes, series
from generator.api.settings import GateSettings, routes_json
from generator.config import Config

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_ROUTES = ROOT / "tests" / "golden" / "expected-gate" / "routes.json"


def _modules_after_import(*modules: str) -> set[str]:
    """Import modules in a fresh interpreter; return every `generator` module then loaded."""
    code = (
        "import importlib, json, sys\n"
        f"for name in {list(modules)!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('generator'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout))


def test_the_build_does_not_import_the_gate():
    loaded = _modules_after_import("generator.build", "generator.api.openapi")
    assert "generator.api.routes" in loaded
    assert not {m for m in loaded if m.startswith("generator.gate")}


def test_the_gate_does_not_import_the_site_or_the_build():
    gate = [
        f"generator.gate.{p.stem}"
        for p in sorted((ROOT / "generator" / "gate").glob("*.py"))
        if p.stem != "__init__"
    ]
    loaded = _modules_after_import(*gate)
    assert "generator.gate.app" in loaded
    forbidden = ("generator.site", "generator.build", "generator.render", "generator.api.openapi")
    assert not {m for m in loaded if m.startswith(forbidden)}


def test_the_contract_imports_neither_build_nor_site_nor_gate():
    contract = [
        f"generator.api.{p.stem}" for p in sorted((ROOT / "generator" / "api").glob("*.py"))
    ]
    loaded = _modules_after_import(*(m for m in contract if not m.endswith("__init__")))
    assert loaded <= {
        "generator",
        "generator.config",
        "generator.errors",
        *contract,
        "generator.api",
        # The patterns of the data: a leaf of plain strings the API shares with the contract.
        "generator.contract",
        "generator.api.patterns",
    }


def test_routes_json_is_the_golden_one():
    """The committed expected-gate/routes.json is what the build writes for the default config.

    Its `series.codes` are the golden tree's register (the default, packaged one).
    """
    expected = GOLDEN_ROUTES.read_text(encoding="utf-8")
    register = (ROOT / "tests" / "golden" / "expected" / "v1" / "parameters.json").read_bytes()
    codes = series.register_codes(register)
    assert len(codes) == 282
    assert routes_json(GateSettings.from_config(Config()), codes) == expected, (
        "run `python -m tests.golden.regenerate` if the change is intended"
    )


def test_messages_leave_only_runtime_placeholders():
    settings = GateSettings()
    for name, message in settings.messages().items():
        left = set(messages.placeholders(message.detail))
        assert left <= messages.RUNTIME_PLACEHOLDERS, (name, left)
        assert not messages.placeholders(message.about), name
    assert settings.message("quota_used_up", reset="R", retry_after=5) == (
        "Daily quota of 1000 requests used up. It resets at midnight Europe/Berlin (R), in 5 "
        "seconds."
    )
    with pytest.raises(KeyError, match="retry_after"):
        settings.message("quota_used_up", reset="R")


def test_fill_inserts_values_once():
    # A value that looks like a placeholder stays as it is (the edge gate fills alike).
    assert messages.fill("a {x} b {y}", {"x": "{y}", "y": 1}) == "a {y} b 1"
    assert messages.fill("{x} {z}", {"x": 1}, partial=True) == "1 {z}"


def test_validation_messages_follow_pydantic_plurals():
    assert messages.validation_message("string_too_short", min_length=1) == (
        "String should have at least 1 character"
    )
    assert messages.validation_message("string_too_long", max_length=5) == (
        "String should have at most 5 characters"
    )


@pytest.mark.parametrize(
    ("value", "allowed"),
    [
        ("blei", True),
        ("pfas_summe_20", True),
        ("Blei", True),
        ("a..b", True),
        ("ä", True),
        ("%", True),
        ("a" * 200, True),
        ("", False),
        (".", False),
        ("..", False),
        (".hidden", False),
        ("a/b", False),
        ("a\\b", False),
        ("a\x00", False),
        ("a\n", False),
        ("a\x7f", False),
        ("a" * 201, False),
        ("ä" * 101, False),  # 202 bytes in UTF-8
    ],
)
def test_file_segments(value, allowed):
    assert http.is_file_segment(value) is allowed


def test_a_value_that_is_no_segment_names_no_file():
    measurements = routes.route("zone_measurements")
    # The filter names no file: one series file per zone, whatever the code.
    for value in ("blei", "../../../lookup/76437", "a/b", "", "a" * 5000):
        assert measurements.file_for({"zone_id": 11, "parameter": value}) == (
            "_data/v1/zones/11/measurements.json.gz"
        )
        assert measurements.unknown_detail({"zone_id": 11, "parameter": value}) == (
            f"No parameter with code '{value}'"
        )
    limits = routes.route("parameter_limits")
    for value in ("../../../lookup/76437", "../x", "a/b", "", "a" * 5000):
        assert limits.file_for({"code": value}) is None
        assert limits.detail_for({"code": value}) == f"No parameter with code '{value}'"
    assert routes.route("zone").file_for({"zone_id": 0}) == "_data/v1/zones/0.json"
    assert routes.route("zone").file_for({"zone_id": -11}) == "_data/v1/zones/-11.json"
    with pytest.raises(ValueError, match="no path segment"):
        routes.file_path("parameter_limits", code="..")


def test_route_match():
    measurements = routes.route("zone_measurements")
    assert measurements.match(["v1", "zones", "11", "measurements"]) == {"zone_id": "11"}
    assert measurements.match(["v1", "zones", "", "measurements"]) is None
    assert measurements.match(["v1", "zones", "11"]) is None


def test_keyed_routes_declare_the_optional_key_header():
    for r in routes.ROUTES:
        headers = [p for p in r.params if p.location == "header"]
        assert headers == ([routes.API_KEY] if r.access == "key" else []), r.operation_id
    assert routes.API_KEY.name == http.KEY_HEADER.lower() and not routes.API_KEY.can_fail


def test_codes_are_plain_strings():
    """An unknown code is a 404, never a 422, whatever it looks like.

    docs/architecture.md, "Codes are plain strings".
    """
    code = routes.route("parameter_limits").params[0]
    parameter = routes.route("zone_measurements").params[1]
    for param in (code, parameter):
        assert (param.pattern, param.min_length, param.max_length) == (None, None, None)
        assert not param.can_fail
