"""The allocator's setting: chosen per build before polars is loaded, the operator's kept."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.build import build
from generator.cli import cli
from generator.config import Config
from generator.contract.tables import MEASUREMENTS
from generator.incremental import allocator
from generator.incremental.code_digest import code_digest
from tests.helpers import AS_OF, GOLDEN_INPUT, golden_data_in_row_groups, golden_series


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Build the golden input with its series in two row groups; return (data, out)."""
    root = tmp_path_factory.mktemp("allocator")
    series = golden_series()
    data = golden_data_in_row_groups(root, [series.head(40), series.slice(40)])
    out = root / "build"
    build(data, out, AS_OF, Config())
    return data, out


def _code() -> str:
    return code_digest(AS_OF, Config())


def test_the_series_file_is_the_loaders() -> None:
    assert f"{MEASUREMENTS.name}.parquet" == allocator.SERIES_FILE


def test_a_rebuild_of_the_same_series_is_an_update(built: tuple[Path, Path]) -> None:
    data, out = built
    assert allocator.likely_update(out, data, _code())


def test_a_publication_appended_is_an_update(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, out = built
    series = golden_series()
    data = golden_data_in_row_groups(tmp_path, [series.head(40), series.slice(40), series.tail(5)])
    assert allocator.likely_update(out, data, _code())


def test_a_series_rewritten_is_a_full_build(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, out = built
    series = golden_series()  # the same rows in other row groups: rewritten, not appended to
    data = golden_data_in_row_groups(tmp_path, [series.head(60), series.slice(60)])
    assert not allocator.likely_update(out, data, _code())


def test_a_series_doubled_is_a_full_build(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, out = built
    series = golden_series()
    data = golden_data_in_row_groups(tmp_path, [series.head(40), series.slice(40), series])
    assert not allocator.likely_update(out, data, _code())


def test_other_code_no_state_or_a_csv_series_is_a_full_build(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    data, out = built
    assert not allocator.likely_update(out, data, "other code")
    assert not allocator.likely_update(tmp_path / "never-built", data, _code())
    assert not allocator.likely_update(out, GOLDEN_INPUT, _code())


def _unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(allocator.VARIABLE, raising=False)
    monkeypatch.delenv(allocator.OURS, raising=False)
    monkeypatch.delitem(sys.modules, "polars")  # as before polars is first imported


def test_configure_sets_the_setting_and_replaces_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    _unset(monkeypatch)
    assert allocator.configure(allocator.FULL)
    assert os.environ[allocator.VARIABLE] == allocator.FULL
    assert allocator.configure(allocator.UPDATE)
    assert os.environ[allocator.VARIABLE] == allocator.UPDATE


def test_configure_keeps_the_operators_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    _unset(monkeypatch)
    monkeypatch.setenv(allocator.VARIABLE, "dirty_decay_ms:0")
    assert not allocator.configure(allocator.UPDATE)
    assert os.environ[allocator.VARIABLE] == "dirty_decay_ms:0"
    assert allocator.configure("dirty_decay_ms:0")


def test_configure_changes_nothing_once_polars_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.delenv(allocator.VARIABLE, raising=False)
    monkeypatch.delenv(allocator.OURS, raising=False)
    assert "polars" in sys.modules
    assert not allocator.configure(allocator.UPDATE)
    assert allocator.VARIABLE not in os.environ


def test_the_build_command_chooses_before_loading_polars() -> None:
    """What the command asks before importing the build imports no polars."""
    script = (
        "import sys, datetime\n"
        "from generator import cli\n"
        "from generator.incremental import allocator\n"
        "from generator.incremental.code_digest import code_digest\n"
        "from generator.config import load_config\n"
        "from pathlib import Path\n"
        "allocator.likely_update(Path('out'), Path('data'), "
        "code_digest(datetime.date(2026, 11, 23), load_config(None)))\n"
        "assert 'polars' not in sys.modules, 'polars was imported'\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=Path(__file__).parents[1])


def test_the_build_command_sets_what_it_guessed(
    built: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, out = built
    asked: list[str] = []

    def configure(setting: str) -> bool:
        asked.append(setting)
        return True

    monkeypatch.setattr(allocator, "configure", configure)
    args = ["build", "--data", str(data), "--as-of", AS_OF.isoformat(), "--quiet"]
    fresh = tmp_path / "fresh"
    for extra, expected in (
        (["--out", str(fresh)], [allocator.FULL]),
        (["--out", str(fresh)], [allocator.UPDATE]),  # its state now says an update
        (["--out", str(fresh), "--force"], []),  # the module's own setting: FULL
    ):
        asked.clear()
        result = CliRunner().invoke(cli, [*args, *extra])
        assert result.exit_code == 0, result.output
        assert asked == expected
