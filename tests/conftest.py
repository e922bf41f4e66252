"""Shared fixtures: small datasets on disk, the golden and the sample build, built once."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers import AS_OF, GOLDEN_INPUT

# Hypothesis without deadlines: a property test asserts behaviour, never time, and on a busy
# machine one example may take seconds (tests/test_zone_values.py hit the default 200 ms).
# HYPOTHESIS_PROFILE=deep runs ten times the examples of every test that does not set its own
# number, for an occasional longer look (docs/operations.md, "Testing on a busy machine").
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("deep", settings.get_profile("default"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The browser tests load the harness as a plugin after importing from it: rewrite its asserts.
pytest.register_assert_rewrite("tests.browser_harness")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order and group the tests for `scripts/test.sh`, which runs them on every CPU.

    Each test file is one unit of work (`--dist loadgroup`), so its module fixtures run
    once; the edge tests of every file are one more unit, so one worker starts Netlify's
    emulator, not each. Units with a slow test start first: the longest work is spread
    over the workers before the short files fill the gaps. The order is stable, the same
    in every worker, and changes nothing for a run without xdist but the order.
    """

    def unit(item: pytest.Item) -> str:
        return "edge" if item.get_closest_marker("edge") else item.nodeid.split("::")[0]

    slow = {unit(item) for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: unit(item) != "edge" and unit(item) not in slow)
    for item in items:
        item.add_marker(pytest.mark.xdist_group(unit(item)))


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


@pytest.fixture
def golden_build_copy(golden_site, tmp_path) -> Path:
    """Return `tmp_path / "build"`: a copy of the session's golden build, state and gate input.

    It is what building `tiny_data` into that directory leaves behind, without the build:
    a test of what the next build does starts from here.
    """
    from generator.api.settings import gate_dir
    from generator.output.state import state_dir

    out = tmp_path / "build"
    for place in (lambda p: p, state_dir, gate_dir):
        shutil.copytree(place(golden_site), place(out), symlinks=True)
    return out


@pytest.fixture(scope="session")
def golden_derived():
    """Load and derive the golden input once per session.

    Its frames are never changed in place: a test that needs other frames makes a copy
    with `dataclasses.replace`.
    """
    from generator import derive, load

    return derive.derive(load.load(GOLDEN_INPUT), AS_OF)
