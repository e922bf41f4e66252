"""A pytest plugin that runs only the tests listed in a file: the same assertions as before.

    TEST_SUBSET=benchmarks/tests-of-issue-23.txt scripts/test.sh -p benchmarks.test_subset

`tests-of-issue-23.txt` lists the 1,704 test ids that the suite collected when issue 23 was
filed (commit 291d73b, `pytest --collect-only -q`) and still collects under the same id;
docs/performance.md times the test command on them ("The test suite").
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = set(Path(os.environ["TEST_SUBSET"]).read_text(encoding="utf-8").splitlines())
    missing = wanted - {item.nodeid for item in items}
    if missing:
        raise pytest.UsageError(f"{len(missing)} listed tests are gone, e.g. {min(missing)}")
    config.hook.pytest_deselected(items=[i for i in items if i.nodeid not in wanted])
    items[:] = [i for i in items if i.nodeid in wanted]
