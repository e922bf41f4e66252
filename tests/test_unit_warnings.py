"""One value the build cannot interpret does not stop the country (issue 51, point 7).

A measurement whose unit does not convert for its parameter (Karbonathärte in mmol/l,
conductivity at 20 °C) is a warning, listed with table, row and column like an error: the
build succeeds and the zone's series holds the row as published, without normalized
numbers. A broken row (an error of the contract) still stops everything.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.values import units
from tests.helpers import AS_OF_TEXT, GOLDEN_INPUT, append, series_path, tree_json

ZONE = 13
ROWS = {
    "karbonathaerte": ("2,1", "mmol/l"),
    "elektrische_leitfaehigkeit": ("480", "µS/cm bei 20 °C"),
}


def with_unconvertible(root: Path) -> tuple[Path, dict[str, int]]:
    """Copy the golden input with one value per `ROWS` in a unit that does not convert."""
    data = root / "data"
    shutil.copytree(GOLDEN_INPUT, data)
    rows = {}
    for parameter, (value, unit) in ROWS.items():
        rows[parameter] = append(
            data,
            "measurements",
            zone_id=str(ZONE),
            parameter=parameter,
            sampled_at="2026-05-12",
            value_text=value,
            unit=unit,
            document_id="wk-2026",
            sample_point="Hochbehälter Süd",
        )
    return data, rows


def warning_line(row: int, parameter: str) -> str:
    unit = ROWS[parameter][1]
    return f"warning: measurements, row {row}, column unit: unit {unit} cannot be converted to "


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("unit-warnings")
    data, rows = with_unconvertible(root)
    out = root / "build"
    args = ["build", "--data", str(data), "--out", str(out), "--as-of", AS_OF_TEXT, "-q"]
    return CliRunner().invoke(cli, args), out, rows


def test_a_value_in_a_unit_that_does_not_convert_builds_with_a_warning(built):
    result, out, rows = built
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "warning: 2 value(s) kept as published, without a verdict (the build goes on):"
    )
    for parameter, row in rows.items():
        (line,) = [x for x in lines if x.startswith(warning_line(row, parameter))]
        assert "[unit_not_convertible]" in line
    assert (out / "index.html").is_file()


def test_the_zone_series_holds_the_row_as_published(built):
    _, out, _ = built
    series = tree_json(series_path(out, ZONE))["measurements"]
    for parameter, (value, unit) in ROWS.items():
        (row,) = [r for r in series if r["parameter"] == parameter]
        assert (row["value_text"], row["unit"]) == (value, unit)
        assert row["normalized_value"] is None and row["normalized_reporting_limit"] is None
        assert row["value"] == float(value.replace(",", "."))


def test_a_value_in_a_unit_that_does_not_convert_gets_no_verdict(built):
    _, out, _ = built
    zone = json.loads((out / f"_data/v1/zones/{ZONE}.json").read_text(encoding="utf-8"))
    states = {v["parameter"]: v["state"] for v in zone["current_values"]}
    assert states["elektrische_leitfaehigkeit"] == "unit_mismatch"


def test_validate_lists_the_warning_and_passes(tmp_path):
    data, rows = with_unconvertible(tmp_path)
    result = CliRunner().invoke(cli, ["validate", str(data)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{data}: no problems found, 2 warning(s)\n"
    for parameter, row in rows.items():
        assert warning_line(row, parameter) in result.stderr


def test_a_broken_row_still_stops_the_build(tmp_path):
    data, rows = with_unconvertible(tmp_path)
    broken = append(
        data,
        "measurements",
        zone_id=str(ZONE),
        parameter="nitrat",
        sampled_at="2026-13-40",
        value_text="5",
        unit="mg/l",
        document_id="wk-2026",
    )
    out = tmp_path / "build"
    args = ["build", "--data", str(data), "--out", str(out), "--as-of", AS_OF_TEXT, "-q"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert f"measurements, row {broken}, column sampled_at:" in result.stderr
    assert not out.exists()


def test_conductivity_at_20_degrees_is_a_unit_that_converts_to_nothing():
    assert units.canonical("µS/cm bei 20 °C") == units.canonical("uS/cm (20 °C)")
    assert units.factor("µS/cm bei 20 °C", "µS/cm", "elektrische_leitfaehigkeit") is None
    assert units.factor("µS/cm bei 25 °C", "µS/cm", "elektrische_leitfaehigkeit") == 1.0
