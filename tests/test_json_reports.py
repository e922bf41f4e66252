"""`--json`: the reports of validate and import parse and follow their documented schemas.

The schemas are the JSON Schema blocks of docs/operations.md; `fetch --json` is tested with
its local servers in tests/test_fetch.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from tests.helpers import GOLDEN_INPUT, check_report, edit

TABLE = (
    "Parameter;Wert;Einheit\r\nPFAS-Summe;0,05;µg/l\r\nTetrachlorethen;3;µg/l\r\n"
    "Ionenbilanz;2;%\r\n"
)


@pytest.fixture
def data(tmp_path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    return target


def run(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_validate_clean(data):
    result = run("validate", data, "--json")
    assert result.exit_code == 0, result.output
    report = check_report(result.stdout, "trinkwasser.validate/1")
    assert report["ok"] is True and report["count"] == 0 and report["problems"] == []
    assert report["data_dir"] == str(data)


def test_validate_lists_every_problem_whatever_max_problems_says(data):
    edit(data, "zones", 1, population="viele")
    edit(data, "measurements", 7, parameter="bleii")
    result = run("validate", data, "--json", "--max-problems", "1")
    assert result.exit_code == 1
    report = check_report(result.stdout, "trinkwasser.validate/1")
    assert report["ok"] is False and report["count"] == 2
    got = {(p["table"], p["row"], p["column"], p["rule"]) for p in report["problems"]}
    assert got == {
        ("zones", 1, "population", "wrong_type"),
        ("measurements", 7, "parameter", "unknown_parameter"),
    }
    assert all(p["fix"] for p in report["problems"])


def test_import_report(data, tmp_path):
    table = tmp_path / "werte.csv"
    table.write_bytes(TABLE.encode("utf-8"))
    args = ["import", table, "--data", data, "--zone", "34", "--document", "pv-2026"]
    result = run(*args, "--sampled-at", "2026-06-30", "--json")
    assert result.exit_code == 0, result.output
    report = check_report(result.stdout, "trinkwasser.import/1")
    assert report["counts"] == {
        "appended": 1, "present": 0, "conflicts": 0, "not_imported": 2, "waiting": 1
    }  # fmt: skip
    assert report["written"] == str(data / "measurements.csv")
    assert [m["code"] for m in report["matched"]] == ["tetrachlorethen"]
    statuses = {w["name"]: w["status"] for w in report["not_imported"]}
    assert statuses == {"PFAS-Summe": "no_match", "Ionenbilanz": "not_in_register"}
    [waiting] = report["waiting"]
    assert waiting["name"] == "PFAS-Summe" and waiting["values"] == 1 and waiting["rows"] == [2]
    assert waiting["suggestions"][:2] == ["pfas_summe_4", "pfas_summe_20"]
    assert waiting["command"].startswith("trinkwasser parameters decide PFAS-Summe ")
    assert waiting["command"].endswith(f" CODE --data {data}")

    # The same import again: everything present, the same value still waiting.
    again = check_report(
        run(*args, "--sampled-at", "2026-06-30", "--json").stdout, "trinkwasser.import/1"
    )
    assert again["counts"]["appended"] == 0 and again["counts"]["present"] == 1
    assert again["counts"]["waiting"] == 1

    strict = run(*args, "--sampled-at", "2026-06-30", "--json", "--strict")
    assert strict.exit_code == 1
    assert check_report(strict.stdout, "trinkwasser.import/1")["ok"] is False


def test_errors_are_reports_too(data, tmp_path):
    table = tmp_path / "werte.csv"
    table.write_bytes(TABLE.encode("utf-8"))
    result = run("import", table, "--data", data, "--zone", "99", "--document", "pv-2026",
                 "--sampled-at", "2026-06-30", "--json")  # fmt: skip
    assert result.exit_code == 1
    report = check_report(result.stdout, "trinkwasser.error/1")
    assert report["exit_code"] == 1 and "zone 99 is not in the zones table" in report["error"]

    edit(data, "zones", 1, population="viele")
    broken = run("import", table, "--data", data, "--zone", "34", "--document", "pv-2026",
                 "--sampled-at", "2026-06-30", "--json")  # fmt: skip
    assert broken.exit_code == 1
    report = check_report(broken.stdout, "trinkwasser.error/1")
    assert [(p["table"], p["row"], p["rule"]) for p in report["problems"]] == [
        ("zones", 1, "wrong_type")
    ]
