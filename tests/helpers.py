"""What the test modules share: the golden input, its as-of date, editing tables, reading builds.

Defined once here (fixtures live in conftest.py, which imports these).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import shutil
from pathlib import Path
from typing import Any

from generator.api import http, routes

TESTS = Path(__file__).parent
GOLDEN_INPUT = TESTS / "golden" / "input"
"""The tiny dataset every golden build reads (tests/golden/expected is its tree)."""
AS_OF_TEXT = "2026-11-23"
AS_OF = dt.date.fromisoformat(AS_OF_TEXT)
"""The reference date of every test build (`--as-of`)."""


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def write_rows(path: Path, rows: list[dict[str, str]], fieldnames: list[str] | None = None):
    fieldnames = fieldnames or list(rows[0])
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fieldnames)
        writer.writeheader()
        writer.writerows(rows)


def edit(data_dir: Path, table: str, row: int, **changes: str) -> None:
    """Change cells of one data row (1-based, header not counted)."""
    path = data_dir / f"{table}.csv"
    rows = read_rows(path)
    rows[row - 1].update(changes)
    write_rows(path, rows)


def append(data_dir: Path, table: str, **values: str) -> int:
    """Append a row; return its 1-based row number."""
    path = data_dir / f"{table}.csv"
    rows = read_rows(path)
    rows.append({k: values.get(k, "") for k in rows[0]})
    write_rows(path, rows)
    return len(rows)


def tree_bytes(path: Path) -> bytes:
    """Return what a file of a build answers with: a stored `.gz` file decompressed."""
    return http.served_bytes(path.name, path.read_bytes())


def tree_json(path: Path):
    """Parse a JSON file of a build (a stored `.json.gz` too)."""
    return json.loads(tree_bytes(path))


def series_path(out: Path, zone_id: int) -> Path:
    """Return the file of a zone's series in a build."""
    return out / routes.file_path("zone_measurements", zone_id=zone_id)


def tree_files(root: Path) -> dict[str, bytes]:
    """Return every file under `root`, by its path relative to `root`, as stored."""
    return {
        os.path.relpath(os.path.join(d, n), root): Path(d, n).read_bytes()
        for d, _dirs, names in os.walk(root)
        for n in names
    }


def golden_series() -> Any:
    """Return the golden input's series as text, as a polars frame."""
    import polars as pl

    return pl.read_csv(GOLDEN_INPUT / "measurements.csv", infer_schema=False)


def golden_data_in_row_groups(root: Path, chunks: list[Any]) -> Path:
    """Copy the golden input to `root / "data"` with its series as Parquet, a row group a chunk."""
    data = root / "data"
    shutil.rmtree(data, ignore_errors=True)
    shutil.copytree(GOLDEN_INPUT, data)
    (data / "measurements.csv").unlink()
    write_row_groups(data / "measurements.parquet", chunks)
    return data


def write_row_groups(path: Path, chunks: list[Any]) -> None:
    """Write polars frames as one Parquet row group each, as an import that appends does."""
    import pyarrow.parquet as pq  # only the tests of the series' row groups need it

    with pq.ParquetWriter(path, chunks[0].to_arrow().schema) as writer:
        for chunk in chunks:
            writer.write_table(chunk.to_arrow())


def report_schema(name: str) -> dict:
    """Return the JSON Schema of a `--json` report as docs/operations.md documents it."""
    import json
    import re

    text = (TESTS.parent / "docs" / "operations.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- schema: {re.escape(name)} -->\n```json\n(.*?)```", text, re.S)
    assert found, f"docs/operations.md documents no schema {name}"
    return json.loads(found.group(1))


def check_report(text: str, name: str) -> dict:
    """Parse one `--json` report and validate it against its documented schema."""
    import json

    from jsonschema import Draft202012Validator, FormatChecker

    report = json.loads(text)
    assert report["report"] == name, report
    Draft202012Validator(report_schema(name), format_checker=FormatChecker()).validate(report)
    return report
