"""Decisions the operator owns: the data directory's aliases.csv and `parameters decide`.

A published name the matcher cannot settle ("PFAS-Summe": PFAS-20 or PFAS-4?) is listed by
the import with its suggestions and the one command that settles it; the zone's summary
says that not all published values are assigned; the decision goes into the data
directory's own aliases.csv (validated like every table) and the next import takes the
value.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from generator.build import build
from generator.cli import cli
from generator.config import Config
from generator.load import check
from tests.helpers import AS_OF, GOLDEN_INPUT

TABLE = "Parameter;Wert;Einheit\r\nPFAS-Summe;0,05;µg/l\r\nTetrachlorethen;3;µg/l\r\n"


@pytest.fixture
def data(tmp_path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    return target


@pytest.fixture
def published(tmp_path) -> Path:
    path = tmp_path / "pruefwerte.csv"
    path.write_bytes(TABLE.encode("utf-8"))
    return path


def run(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def import_args(published: Path, data: Path) -> list[str]:
    return [
        "import", published, "--data", data, "--zone", "34", "--document", "pv-2026",
        "--sampled-at", "2026-06-30",
    ]  # fmt: skip


def zone_title(data: Path, out: Path) -> str:
    build(data, out, AS_OF, Config(), force=True)
    zone = json.loads((out / "_data/v1/zones/34.json").read_text(encoding="utf-8"))
    return zone["summary"]["title_de"]


def test_a_waiting_name_is_listed_settled_in_one_command_and_imported_next_time(
    data, published, tmp_path
):
    first = run(*import_args(published, data))
    assert first.exit_code == 0, first.output
    report = first.stdout
    assert "Waiting for a decision: 1 value(s) under 1 name(s)." in report
    assert "'PFAS-Summe' [µg/l]: 1 value(s), no alias, register name or code matches" in report
    assert "perhaps pfas_summe_4 or pfas_summe_20" in report
    command = shlex.join(
        ["trinkwasser", "parameters", "decide", "PFAS-Summe", "µg/l", "CODE", "--data", str(data)]
    )
    assert f"  settle it: {command}" in report
    # The value that matched is in; the waiting one is listed for the site.
    undecided = pl.read_csv(data / "undecided.csv")
    assert undecided.to_dicts() == [
        {"zone_id": 34, "document_id": "pv-2026", "name": "PFAS-Summe", "unit": "µg/l",
         "values": 1}
    ]  # fmt: skip
    assert zone_title(data, tmp_path / "b1") == (
        "PFAS: nicht alle veröffentlichten Werte zugeordnet"
    )

    # The printed command, with the code chosen, run as printed.
    words = shlex.split(command.replace(" CODE ", " pfas_summe_20 "))
    decided = run(*words[1:])
    assert decided.exit_code == 0, decided.output
    assert f"Decided: 'PFAS-Summe' [µg/l] is pfas_summe_20; {data / 'aliases.csv'} row 1." in (
        decided.output
    )
    assert (data / "aliases.csv").read_text(encoding="utf-8") == (
        "alias,code,note,source\nPFAS-Summe,pfas_summe_20,,\n"
    )
    _, problems = check(data)
    assert problems.height == 0

    again = run(*import_args(published, data))
    assert again.exit_code == 0, again.output
    assert "'PFAS-Summe' µg/l -> pfas_summe_20" in again.stdout
    assert "Waiting for a decision" not in again.stdout
    assert "Appended 1 row(s); 1 already present" in again.stdout
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    pfas = rows.filter((pl.col("zone_id") == "34") & (pl.col("parameter") == "pfas_summe_20"))
    assert pfas.select("value_text", "document_id").to_dicts() == [
        {"value_text": "0,05", "document_id": "pv-2026"}
    ]
    assert pl.read_csv(data / "undecided.csv").height == 0
    assert "nicht alle veröffentlichten Werte" not in zone_title(data, tmp_path / "b2")


def test_a_decision_wins_over_the_packaged_register_for_that_data_only(data, tmp_path):
    names = tmp_path / "names.csv"
    names.write_text("name,unit\nNitrat,mg/l\n", encoding="utf-8")
    decided = run("parameters", "decide", "NITRAT", "mg/l", "nitrit", "--data", data)
    assert decided.exit_code == 0, decided.output
    assert "replaces the packaged register's answer: nitrat" in decided.output
    own = run("parameters", "match", names, "--data", data)
    assert own.stdout.splitlines()[1].startswith("Nitrat,mg/l,nitrit,")
    packaged = run("parameters", "match", names)
    assert packaged.stdout.splitlines()[1].startswith("Nitrat,mg/l,nitrat,")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("PFAS-Summe", "µg/l", "pfas_summe_99"), "CODE 'pfas_summe_99' is not in the parameter"),
        (("Härte", "mg/l", "gesamthaerte"), "unit_error: the unit mg/l does not fit gesamthaerte"),
        (("Ionenbilanz", "%", "-"), "say why with --note"),
    ],
)
def test_a_decision_that_cannot_hold_writes_nothing(data, args, message):
    result = run("parameters", "decide", *args, "--data", data)
    assert result.exit_code == 1
    assert message in result.output
    assert not (data / "aliases.csv").exists()


def test_a_name_is_decided_once(data):
    assert run("parameters", "decide", "PFAS-Summe", "µg/l", "pfas_summe_20", "--data", data)
    again = run("parameters", "decide", "pfas summe", "µg/l", "pfas_summe_20", "--data", data)
    assert again.exit_code == 0 and "Already decided" in again.output
    other = run("parameters", "decide", "PFAS Summe", "µg/l", "pfas_summe_4", "--data", data)
    assert other.exit_code == 1
    assert "aliases.csv row 1 already decides 'PFAS-Summe' as pfas_summe_20" in other.output
    assert len((data / "aliases.csv").read_text(encoding="utf-8").splitlines()) == 2


def test_a_broken_aliases_table_is_listed_with_table_row_and_column(data):
    (data / "aliases.csv").write_text(
        "alias,code,note,source\n"
        "PFAS-Summe,pfas_summe_99,,\n"
        "Ionenbilanz,,,\n"
        "Nitrat gesamt,nitrat,,www.example.org\n",
        encoding="utf-8",
    )
    result = run("validate", data)
    assert result.exit_code == 1
    _, problems = check(data)
    got = {
        (r["table"], r["row"], r["column"], r["rule"])
        for r in problems.filter(pl.col("table") == "aliases").iter_rows(named=True)
    }
    assert got == {
        ("aliases", 1, "code", "unknown_parameter"),
        ("aliases", 2, "note", "missing_reason"),
        ("aliases", 3, "source", "malformed_addresses"),
    }
