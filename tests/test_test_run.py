"""How `scripts/test.sh` runs the suite: each test file is one unit of work on one worker."""

from __future__ import annotations

import os

import pytest


def test_under_xdist_a_test_runs_in_its_files_group(request):
    # tests/conftest.py groups the tests by file (the edge tests all in one group), and
    # `--dist loadgroup` then keeps a group on one worker, so module fixtures run once. The
    # group shows as the node id's suffix; a pytest-xdist that no longer applies it would
    # spread every file over every worker without failing anything else.
    # (In a worker, xdist keeps `--dist loadgroup` as the option `loadgroup`.)
    if "PYTEST_XDIST_WORKER" not in os.environ or not getattr(
        request.config.option, "loadgroup", False
    ):
        pytest.skip("only meaningful in a run of scripts/test.sh (pytest-xdist, loadgroup)")
    assert request.node.nodeid.endswith("@tests/test_test_run.py"), request.node.nodeid
