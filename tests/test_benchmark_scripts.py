"""The benchmark scripts still name the code they measure.

They are not run by the test suite (they take minutes on the national data), so a
renamed function would only show when someone next measures: `memory_steps.py` and
`zone_pages.py` wrap the steps they time by name, and a name that no longer exists stopped
`memory_steps.py` at its start.
"""

from __future__ import annotations

import importlib
import runpy
import sys
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


def _threads():
    return runpy.run_path(str(BENCHMARKS / "threads.py"), run_name="not_main")


def test_threads_report_puts_the_main_thread_first():
    lines = _threads()["report"](
        4.0, 10, {10: (0.5, 0.25), 11: (0.01, 0.0), 12: (0.75, 0.5), 13: (0.25, 0.0)}
    )
    assert lines == [
        "wall 4.00 s; CPU of all threads 2.26 s (0.56 CPUs on average)",
        "main thread: user 0.50 s, system 0.25 s, 19% of the wall time",
        "thread 12: user 0.75 s, system 0.50 s",
        "thread 13: user 0.25 s, system 0.00 s",
        "1 other thread(s) under 0.02 s each",
    ]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_threads_measures_a_command_and_its_threads(capsys):
    busy = (
        "import threading\n"
        "t = threading.Thread(target=lambda: sum(range(2 * 10**7)))\n"
        "t.start(); t.join()"
    )
    assert _threads()["main"](["--", sys.executable, "-c", busy]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("wall ") and lines[1].startswith("main thread: user ")
    side = [line for line in lines[2:-1] if line.startswith("thread ")]
    assert side, lines  # the thread that summed is seen, and is not the main thread
