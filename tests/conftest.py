"""Shared fixtures: small datasets on disk, a built sample tree, servers on loopback."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

# The browser tests load the harness as a plugin after importing from it: rewrite its asserts.
pytest.register_assert_rewrite("tests.browser_harness")

TESTS = Path(__file__).parent
GOLDEN_INPUT = TESTS / "golden" / "input"
AS_OF = "2026-11-23"


@pytest.fixture
def tiny_data(tmp_path) -> Path:
    """Copy the tiny golden input dataset somewhere writable."""
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    return target


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


@pytest.fixture(scope="session")
def sample_build(tmp_path_factory) -> Path:
    """Build the bundled sample once per test session (read-only for tests)."""
    import datetime as dt

    from generator.build import build
    from generator.config import Config
    from generator.load import sample_data_dir

    out = tmp_path_factory.mktemp("sample") / "build"
    build(sample_data_dir(), out, dt.date.fromisoformat(AS_OF), Config())
    return out


@pytest.fixture(scope="session")
def golden_site(tmp_path_factory) -> Path:
    """Build the golden input once per test session (read-only for tests)."""
    import datetime as dt

    from generator.build import build
    from generator.config import Config

    out = tmp_path_factory.mktemp("site") / "build"
    build(GOLDEN_INPUT, out, dt.date.fromisoformat(AS_OF), Config(), force=True)
    return out
