"""Shared fixtures: small datasets on disk, the golden and the sample build, built once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import AS_OF, GOLDEN_INPUT

# The browser tests load the harness as a plugin after importing from it: rewrite its asserts.
pytest.register_assert_rewrite("tests.browser_harness")


@pytest.fixture
def tiny_data(tmp_path) -> Path:
    """Copy the tiny golden input dataset somewhere writable."""
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    return target


@pytest.fixture(scope="session")
def sample_build(tmp_path_factory) -> Path:
    """Build the bundled sample once per test session (read-only for tests)."""
    from generator.build import build
    from generator.config import Config
    from generator.load import sample_data_dir

    out = tmp_path_factory.mktemp("sample") / "build"
    build(sample_data_dir(), out, AS_OF, Config())
    return out


@pytest.fixture(scope="session")
def golden_site(tmp_path_factory) -> Path:
    """Build the golden input once per test session, with the default configuration.

    Read-only for every test: the golden comparison, the gates on loopback, OpenAPI, the
    site and the verdicts all read this one tree (and `<tree>-gate/` beside it). A test
    that changes files works on a copy.
    """
    from generator.build import build
    from generator.config import Config

    out = tmp_path_factory.mktemp("golden") / "build"
    build(GOLDEN_INPUT, out, AS_OF, Config(), force=True)
    return out


@pytest.fixture(scope="session")
def golden_derived():
    """Load and derive the golden input once per session.

    Its frames are never changed in place: a test that needs other frames makes a copy
    with `dataclasses.replace`.
    """
    from generator import derive, load

    return derive.derive(load.load(GOLDEN_INPUT), AS_OF)
