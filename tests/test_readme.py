"""The README says what the code does: its configuration blocks match generator/config.py."""

from __future__ import annotations

import re
import tomllib
from dataclasses import MISSING, asdict, fields
from pathlib import Path

from generator.config import NOT_IN_FILE, Config, SmtpConfig, load_config

README = Path(__file__).resolve().parents[1] / "README.md"


def toml_blocks() -> list[str]:
    return re.findall(r"^```toml\n(.*?)^```$", README.read_text(encoding="utf-8"), re.M | re.S)


def test_readme_has_the_defaults_and_one_example():
    blocks = toml_blocks()
    assert len(blocks) == 3, "expected the defaults block, the example block, the SMTP block"
    assert "built-in defaults" in blocks[0]


SITE_SETTINGS = [f.name for f in fields(Config) if f.name not in NOT_IN_FILE]


def test_the_readme_defaults_are_the_built_in_defaults():
    defaults = tomllib.loads(toml_blocks()[0])
    assert set(defaults) == {"site", "fetch"}
    assert defaults["fetch"] == {"allow_private_addresses": Config().allow_private_addresses}
    # every setting, in the order of the dataclass, with the value Config() has
    assert list(defaults["site"]) == SITE_SETTINGS
    built_in = asdict(Config())
    assert defaults["site"] == {key: built_in[key] for key in SITE_SETTINGS}
    assert Config().smtp is None  # no [smtp]: the key e-mail is printed


def test_the_readme_smtp_block_is_valid_and_shows_every_default(tmp_path):
    path = tmp_path / "trinkwasser.toml"
    path.write_text(toml_blocks()[2], encoding="utf-8")
    smtp = load_config(path).smtp
    assert smtp is not None
    block = tomllib.loads(toml_blocks()[2])["smtp"]
    assert list(block) == [f.name for f in fields(SmtpConfig)]
    assert asdict(smtp) == block
    # the settings with a default show it
    assert all(
        block[f.name] == f.default
        for f in fields(SmtpConfig)
        if f.name != "user" and f.default is not MISSING
    )


def test_the_readme_example_is_a_valid_configuration(tmp_path):
    path = tmp_path / "trinkwasser.toml"
    path.write_text(toml_blocks()[1], encoding="utf-8")
    config = load_config(path)
    example = tomllib.loads(toml_blocks()[1])["site"]
    assert {key: getattr(config, key) for key in example} == example
    # it is an example of changing the defaults, not a copy of them
    assert all(getattr(Config(), key) != value for key, value in example.items())
