"""The worked example of docs/import.md runs as printed there."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from generator.cli import cli
from generator.load import check, sample_data_dir

DOC = Path(__file__).parents[1] / "docs" / "import.md"


def _blocks() -> list[str]:
    return [b for _, b in re.findall(r"```(\w*)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)]


def test_the_worked_example(tmp_path):
    table, document_row, _command, dry_run, appended, new_rows = _blocks()[:6]
    data = tmp_path / "data"
    shutil.copytree(sample_data_dir(), data)
    with (data / "documents.csv").open("a", encoding="utf-8") as fh:
        fh.write(document_row)
    (tmp_path / "jahreswerte-2026.csv").write_text(table, encoding="utf-8")
    args = ["import", "jahreswerte-2026.csv", "--data", "data", "--zone", "101"]
    args += ["--document", "stadtwerke-beispielstadt-jahreswerte-2026"]
    args += ["--sampled-at", "2026-12-31"]
    runner = CliRunner()
    with runner.isolated_filesystem(temp_dir=tmp_path) as here:
        shutil.move(str(data), Path(here) / "data")
        shutil.move(str(tmp_path / "jahreswerte-2026.csv"), Path(here) / "jahreswerte-2026.csv")
        result = runner.invoke(cli, [*args, "--dry-run"])
        assert result.exit_code == 0, result.output
        assert result.stdout == dry_run
        csv = Path(here, "jahreswerte-2026.csv")
        csv.write_text(table.replace("Nikel;", "Nickel;"), encoding="utf-8")
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert result.stdout.endswith(appended)
        written = Path(here, "data", "measurements.csv").read_text(encoding="utf-8")
        assert all(line in written.splitlines() for line in new_rows.splitlines())
        assert check(Path(here, "data"))[1].height == 0
