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


def test_the_worked_example(tmp_path, monkeypatch):
    table, document_row, _command, dry_run, appended, new_rows = _blocks()[:6]
    monkeypatch.chdir(tmp_path)  # the doc's commands use relative paths
    shutil.copytree(sample_data_dir(), "data")
    with Path("data", "documents.csv").open("a", encoding="utf-8") as fh:
        fh.write(document_row)
    Path("jahreswerte-2026.csv").write_text(table, encoding="utf-8")
    args = ["import", "jahreswerte-2026.csv", "--data", "data", "--zone", "101"]
    args += ["--document", "stadtwerke-beispielstadt-jahreswerte-2026"]
    args += ["--sampled-at", "2026-12-31"]
    runner = CliRunner()
    result = runner.invoke(cli, [*args, "--dry-run"])
    assert result.exit_code == 0, result.output
    assert result.stdout == dry_run
    # The operator corrects the typo the report pointed at, and imports.
    Path("jahreswerte-2026.csv").write_text(table.replace("Nikel;", "Nickel;"), "utf-8")
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(appended)
    written = Path("data", "measurements.csv").read_text(encoding="utf-8").splitlines()
    assert all(line in written for line in new_rows.splitlines())
    assert check(Path("data"))[1].height == 0


def test_the_web_page_and_pdf_examples(tmp_path, monkeypatch):
    import pytest

    pytest.importorskip("lxml")
    pytest.importorskip("pdfplumber")
    pytest.importorskip("reportlab")
    from tests.publications_documents import ruled_report

    blocks = _blocks()
    start = next(i for i, b in enumerate(blocks) if b.startswith("<!DOCTYPE html>"))
    page, page_doc, _, page_listing, _, page_report, page_rows = blocks[start : start + 7]
    pdf_doc, _, pdf_listing, _, pdf_report, pdf_rows = blocks[start + 7 : start + 13]
    monkeypatch.chdir(tmp_path)
    shutil.copytree(sample_data_dir(), "data")
    with Path("data", "documents.csv").open("a", encoding="utf-8") as fh:
        fh.write(page_doc + pdf_doc)
    Path("analyse.html").write_text(page, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["import", "analyse.html", "--list-tables"])
    assert result.exit_code == 0 and result.stdout == page_listing
    target = ["--data", "data", "--zone", "101", "--sampled-at", "2026-12-31"]
    page_args = ["import", "analyse.html", *target, "--document"]
    page_args.append("stadtwerke-beispielstadt-analyse-2026")
    result = runner.invoke(cli, page_args)
    assert result.exit_code == 2 and result.stdout == page_listing
    result = runner.invoke(
        cli, [*page_args, "--table", "nord", "--sample-point", "Wasserwerk Nord"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == page_report
    ruled_report(Path("."), "pruefbericht-2026-0412.pdf")
    result = runner.invoke(cli, ["import", "pruefbericht-2026-0412.pdf", "--list-tables"])
    assert result.exit_code == 0 and result.stdout == pdf_listing
    pdf_args = ["import", "pruefbericht-2026-0412.pdf", *target]
    pdf_args += ["--document", "labor-pruefbericht-2026-0412"]
    result = runner.invoke(cli, [*pdf_args, "--dry-run"])
    assert result.exit_code == 0 and result.stdout == pdf_report
    result = runner.invoke(cli, pdf_args)
    assert result.exit_code == 0, result.output
    written = Path("data", "measurements.csv").read_text(encoding="utf-8").splitlines()
    assert all(line in written for line in (page_rows + pdf_rows).splitlines())
    assert check(Path("data"))[1].height == 0
