"""The command line: help everywhere, version, exit statuses, progress, module entry point."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from generator import __version__
from generator.cli import cli
from tests.conftest import edit


def walk(group: click.Group, prefix=()):
    for name, command in sorted(group.commands.items()):
        yield (*prefix, name), command
        if isinstance(command, click.Group):
            yield from walk(command, (*prefix, name))


COMMANDS = list(walk(cli))


def test_expected_commands_exist():
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"build", "validate", "demo-data"} <= names


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_command_and_option_has_help(path, command):
    assert command.help and command.help.strip(), f"{' '.join(path)} has no help text"
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"{' '.join(path)} {param.opts} has no help text"
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output


def test_version():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"trinkwasser, version {__version__}"


def test_module_entry_point():
    out = subprocess.run(
        [sys.executable, "-m", "generator", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert __version__ in out


def test_usage_errors_exit_2():
    result = CliRunner().invoke(cli, ["build", "--as-of", "2026-13-01"])
    assert result.exit_code == 2
    assert "Error: Invalid value for '--as-of'" in result.output
    result = CliRunner().invoke(cli, ["build", "--no-such-option"])
    assert result.exit_code == 2


def test_bad_data_exit_1_without_traceback_unless_verbose(tiny_data, tmp_path):
    edit(tiny_data, "plz_zones", 1, plz="1067")
    args = ["build", "--data", str(tiny_data), "--out", str(tmp_path / "b")]
    quiet = CliRunner().invoke(cli, args)
    assert quiet.exit_code == 1
    assert "Traceback" not in quiet.output
    assert "plz_zones, row 1, column plz" in quiet.output
    verbose = CliRunner().invoke(cli, ["--verbose", *args])
    assert verbose.exit_code == 1
    assert "Traceback" in verbose.output


def test_config_errors_are_reported_with_their_keys(tiny_data, tmp_path):
    config = tmp_path / "trinkwasser.toml"
    config.write_text('[site]\nbase_url = "ftp://x"\ncontact = "nobody"\ncolour = "blue"\n')
    result = CliRunner().invoke(
        cli,
        ["build", "--data", str(tiny_data), "--out", str(tmp_path / "b"), "--config", str(config)],
    )
    assert result.exit_code == 1
    for key in ("site.base_url", "site.contact", "site.colour"):
        assert key in result.output


def test_config_values_reach_the_attribution(tiny_data, tmp_path):
    config = tmp_path / "trinkwasser.toml"
    config.write_text(
        '[site]\noperator = "Wasserdaten Test e. V."\n'
        'base_url = "https://wasser.example"\ncontact = "a@wasser.example"\n',
        encoding="utf-8",
    )
    out = tmp_path / "b"
    result = CliRunner().invoke(
        cli,
        [
            "build",
            "--data",
            str(tiny_data),
            "--out",
            str(out),
            "--config",
            str(config),
            "--as-of",
            "2026-11-23",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "_data/v1/lookup/01067.json").read_text(encoding="utf-8"))
    assert doc["attribution"]["operator"] == "Wasserdaten Test e. V."
    assert "Wasserdaten Test e. V." in doc["attribution"]["credit"]


def test_build_shows_progress_and_summary(tiny_data, tmp_path):
    result = CliRunner().invoke(
        cli,
        ["build", "--data", str(tiny_data), "--out", str(tmp_path / "b"), "--as-of", "2026-11-23"],
    )
    assert result.exit_code == 0
    assert "Loading and checking source data done" in result.output
    assert "Rendering and writing files done" in result.output
    assert "Build complete:" in result.output
    again = CliRunner().invoke(
        cli,
        ["build", "--data", str(tiny_data), "--out", str(tmp_path / "b"), "--as-of", "2026-11-23"],
    )
    assert "nothing to do" in again.output


def test_validate_sample_is_clean():
    result = CliRunner().invoke(cli, ["validate"])
    assert result.exit_code == 0
    assert "no problems found" in result.output


def test_validate_missing_directory(tmp_path):
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "nope")])
    assert result.exit_code == 1
    assert "does not exist" in result.output


def test_demo_data_small(tmp_path):
    result = CliRunner().invoke(cli, ["demo-data", "--out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    assert "measurements:" in result.output
    check = CliRunner().invoke(cli, ["validate", str(tmp_path / "d")])
    assert check.exit_code == 0, check.output
