"""The benchmark scripts still name the code they measure.

They are not run by the test suite (they take minutes on the national data), so a
renamed function would only show when someone next measures: `memory_steps.py` and
`zone_pages.py` wrap the steps they time by name, and a name that no longer exists stopped
`memory_steps.py` at its start.
"""

from __future__ import annotations

import importlib
import runpy
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize("script", ["memory_steps.py", "zone_pages.py"])
def test_every_step_a_script_times_exists(script):
    steps = runpy.run_path(str(BENCHMARKS / script), run_name="not_main")["STEPS"]
    missing = [
        f"{module}.{name}"
        for module, name in steps
        if not callable(getattr(importlib.import_module(module), name, None))
    ]
    assert steps and missing == []


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_each_benchmark_script_loads(script):
    # Loading runs their imports and module-level code, not their measurements.
    runpy.run_path(str(BENCHMARKS / script), run_name="not_main")
