"""A deploy cannot publish loopback links, and the bundled sample is always labelled.

A build is a deploy with `--deploy` or NETLIFY=true (what Netlify sets); CI=true alone, as
the project's own CI sets it, is not one. Whatever builds the bundled sample, every page says
the values are invented, carries `noindex`, and robots.txt disallows everything.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.config import (
    Config,
    deploy_context,
    is_loopback_url,
    is_sample,
    sample_data_dir,
)
from tests.helpers import AS_OF_TEXT
from tests.site_helpers import html_files

BANNER = "Beispieldaten – erfundene Werte auf echten Postleitzahlen"
NOINDEX = '<meta name="robots" content="noindex">'


def run_build(tmp_path: Path, *args: str, env: dict[str, str] | None = None):
    """Run `trinkwasser build` in `tmp_path`; return the result and whether build/ exists."""
    clean: dict[str, str | None] = {"NETLIFY": None, "CI": None}
    result = CliRunner().invoke(
        cli, ["build", "--as-of", AS_OF_TEXT, "--quiet", *args], env={**clean, **(env or {})}
    )
    return result, (tmp_path / "build").exists()


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    ("args", "env", "reason"),
    [((), {"NETLIFY": "true"}, "NETLIFY=true"), (("--deploy",), {}, "--deploy")],
)
def test_a_deploy_with_the_default_base_url_fails_naming_the_setting(tmp_path, args, env, reason):
    result, built = run_build(tmp_path, *args, env=env)
    assert result.exit_code == 1, result.output
    message = result.output
    assert message.startswith("Error: site.base_url is http://127.0.0.1:8000")
    assert f"this build is a deploy ({reason})" in message
    assert "trinkwasser.toml in the working directory (there is none)" in message
    assert not built


def test_a_deploy_names_the_settings_file_it_read(tmp_path):
    settings = tmp_path / "site.toml"
    settings.write_text('[site]\nbase_url = "http://localhost:8080"\n', encoding="utf-8")
    result, built = run_build(tmp_path, "--deploy", "--config", str(settings))
    assert result.exit_code == 1
    assert "site.base_url is http://localhost:8080" in result.output
    assert f"the [site] table of {settings} to the public address" in result.output
    assert not built


def test_ci_alone_is_no_deploy(tmp_path):
    # The project's CI sets CI=true and builds on loopback: the guard stays out of its way.
    assert deploy_context(False, {"CI": "true"}) is None
    assert deploy_context(False, {"NETLIFY": "false"}) is None
    assert deploy_context(False, {"NETLIFY": "true", "CONTEXT": "production"}) == "NETLIFY=true"
    result, _ = run_build(tmp_path, "--data", str(tmp_path / "missing"), env={"CI": "true"})
    assert result.exit_code == 1
    assert "base_url" not in result.output


@pytest.mark.parametrize(
    ("url", "loopback"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.1.2.3", True),
        ("http://localhost", True),
        ("http://LOCALHOST.:8000", True),
        ("http://app.localhost", True),
        ("http://[::1]:8000", True),
        ("http://0.0.0.0:8000", True),
        ("https://trinkwasser.example", False),
        ("https://128.0.0.1", False),
        ("https://localhost.example", False),
    ],
)
def test_loopback_urls(url, loopback):
    assert is_loopback_url(url) is loopback


def test_a_copy_of_the_sample_is_the_sample(tmp_path, tiny_data):
    assert is_sample(sample_data_dir())
    copy = tmp_path / "copy"
    shutil.copytree(sample_data_dir(), copy)
    assert is_sample(copy)
    assert not is_sample(tiny_data)
    assert not is_sample(tmp_path / "missing")


def test_every_sample_page_carries_the_banner_and_noindex(sample_build):
    pages = html_files(sample_build)
    assert len(pages) > 100
    for path in pages:
        text = path.read_text(encoding="utf-8")
        head, _, body = text.partition("</head>")
        assert head.count(NOINDEX) == 1, path
        assert f'<p class="sample-banner" role="note"><strong>{BANNER}.</strong>' in body, path
    robots = (sample_build / "robots.txt").read_text(encoding="utf-8")
    assert robots.splitlines()[1:] == ["User-agent: *", "Disallow: /"]


def test_real_data_has_no_banner_and_may_be_indexed(golden_site):
    for path in html_files(golden_site):
        text = path.read_text(encoding="utf-8")
        assert BANNER not in text, path
        assert ("noindex" in text) is (path.name == "404.html"), path
    robots = (golden_site / "robots.txt").read_text(encoding="utf-8")
    assert "Allow: /" in robots.splitlines()
    assert "Disallow: /" not in robots.splitlines()


@pytest.mark.slow
def test_a_deploy_of_the_sample_with_a_public_address_is_labelled(tmp_path):
    settings = tmp_path / "trinkwasser.toml"
    settings.write_text('[site]\nbase_url = "https://trinkwasser.example"\n', encoding="utf-8")
    result, built = run_build(tmp_path, env={"NETLIFY": "true"})
    assert result.exit_code == 0, result.output
    home = (tmp_path / "build/index.html").read_text(encoding="utf-8")
    robots = (tmp_path / "build/robots.txt").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://trinkwasser.example/">' in home
    assert NOINDEX in home and BANNER in home
    assert "Disallow: /" in robots.splitlines()


def test_the_sample_mark_is_no_setting_of_the_file(tmp_path):
    from generator.config import load_config
    from generator.errors import ConfigError

    path = tmp_path / "trinkwasser.toml"
    path.write_text("[site]\nsample = false\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="site.sample: unknown setting"):
        load_config(path)
    assert Config().sample is False
