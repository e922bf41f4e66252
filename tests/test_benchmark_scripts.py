"""The benchmark scripts run, still name the code they measure, and what they check holds.

They are not run by the test suite on the national data (they take minutes): each runs
here at its smallest scale instead (the small demo dataset or the golden input, in a
temporary folder), so a script that no longer runs fails the suite rather than the next
measurement. `memory_steps.py` and `zone_pages.py` also wrap the steps they time by name,
checked below without running them.
"""

from __future__ import annotations

import importlib
import os
import runpy
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from tests.helpers import AS_OF, GOLDEN_INPUT

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _script(name: str) -> dict:
    """Return the names a benchmark script defines, loaded as a module (not run)."""
    return runpy.run_path(str(BENCHMARKS / name), run_name="not_main")


@pytest.mark.parametrize("script", ["memory_steps.py", "zone_pages.py"])
def test_every_step_a_script_times_exists(script):
    steps = _script(script)["STEPS"]
    missing = [
        f"{module}.{name}"
        for module, name in steps
        if not callable(getattr(importlib.import_module(module), name, None))
    ]
    assert steps and missing == []


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_each_benchmark_script_loads(script):
    # Loading runs their imports and module-level code, not their measurements.
    _script(script)


def test_threads_report_puts_the_main_thread_first():
    lines = _script("threads.py")["report"](
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
    assert _script("threads.py")["main"](["--", sys.executable, "-c", busy]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("wall ") and lines[1].startswith("main thread: user ")
    side = [line for line in lines[2:-1] if line.startswith("thread ")]
    assert side, lines  # the thread that summed is seen, and is not the main thread


def test_tree_comparison_finds_every_kind_of_difference(tmp_path):
    differing = _script("suppliers.py")["differing"]
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        (root / "v1" / "zones").mkdir(parents=True)
        (root / "index.html").write_bytes(b"<p>Trinkwasser</p>")
        (root / "v1" / "zones" / "1.json").write_bytes(b'{"zone_id":1}' * 100_000)
    assert differing(a, b) == (2, [])
    # The same size, one byte apart, past the first block read.
    (b / "v1" / "zones" / "1.json").write_bytes(b'{"zone_id":1}' * 99_999 + b'{"zone_id":2}')
    (a / "only-a.txt").write_bytes(b"")
    (b / "v1" / "only-b.json").write_bytes(b"{}")
    assert differing(a, b) == (
        4,
        sorted([f"only-a.txt (not in {b})", f"v1/only-b.json (not in {a})", "v1/zones/1.json"]),
    )


def test_an_update_after_three_publications_is_the_full_build_of_its_data(tmp_path):
    # The benchmark itself, on the small demo dataset: three suppliers' publications
    # appended, the update timed, then compared file by file with a full build.
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "suppliers.py"), "--scale", "small"]
        + ["--suppliers", "3", "--work", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    published = next(line for line in lines if "publications (" in line)
    assert published.startswith("3 suppliers' publications")
    planned = next(line for line in lines if line.startswith("Rendering the files of"))
    assert "3 supplier(s) whose data changed" in planned and "unchanged zone(s)" in planned
    compared = next(line for line in lines if line.startswith("files compared byte for byte"))
    assert compared.endswith(" 0 differ") and int(compared.split()[5].rstrip(",")) > 900


# Every script runs at its smallest scale, in a temporary folder: a script that no longer
# runs fails here, not on the day someone next measures. The figures are not checked (no
# timed assertions); what a script checks itself (the shares, the bytes of two trees) is.


def _small_runs(work: Path) -> dict[str, list[str]]:
    """Return the arguments of each script's smallest run, its scratch files in `work`."""
    data, out = str(GOLDEN_INPUT), str(work / "golden-build")
    shared = ["--scale", "small", "--work", str(work)]
    return {
        "build.py": [*shared, "--no-gzip", "--forget", "0"],
        "daily.py": [*shared, "--runs", "1"],
        "map_areas.py": ["--scale", "small"],
        "mapping.py": shared,
        "memory_steps.py": [data, "--build", out],
        "plans.py": [],
        "reference.py": ["load", "--data", data, "--db", str(work / "reference.sqlite3")],
        "serve.py": [*shared, "--requests", "40", "--connections", "2"],
        "tree_bytes.py": [out],
        "zone_pages.py": [data, "--batches", "1"],
    }


RUN_BY_OWN_TESTS = {
    "suppliers.py": "test_an_update_after_three_publications_is_the_full_build_of_its_data",
    "threads.py": "test_threads_measures_a_command_and_its_threads",
    "test_subset.py": "test_the_subset_plugin_runs_only_the_listed_tests",
}
"""Scripts whose small run is a test above or below, which checks what they print."""


def test_every_benchmark_script_has_a_small_run(tmp_path):
    scripts = {p.name for p in BENCHMARKS.glob("*.py")}
    assert set(_small_runs(tmp_path)) | set(RUN_BY_OWN_TESTS) == scripts
    assert all(callable(globals().get(test)) for test in RUN_BY_OWN_TESTS.values())


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(_small_runs(Path("."))))
def test_a_benchmark_script_runs_at_its_small_scale(script, tmp_path):
    args = _small_runs(tmp_path)[script]
    if script == "tree_bytes.py":  # it reads a built tree
        build(GOLDEN_INPUT, tmp_path / "golden-build", AS_OF, Config())
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        cwd=BENCHMARKS.parent,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    if script == "reference.py":  # it loads the database serve.py queries, and says nothing
        with sqlite3.connect(tmp_path / "reference.sqlite3") as db:
            rows, values = db.execute(
                "SELECT count(*), count(value_std) FROM measurements"
            ).fetchone()
        assert rows > values > 0  # every row; a value in the register's unit where it has one
    else:
        assert done.stdout.strip(), done.stderr  # each prints its figures


def test_the_subset_plugin_runs_only_the_listed_tests(tmp_path):
    chosen = "tests/test_import_graph.py::test_the_cycle_finder_finds_a_circle"
    listed = tmp_path / "subset.txt"
    listed.write_text(chosen + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "benchmarks.test_subset", "-n", "0", "-q"]
        + ["-p", "no:cacheprovider", "tests/test_import_graph.py"],
        capture_output=True,
        text=True,
        cwd=BENCHMARKS.parent,
        env={**os.environ, "TEST_SUBSET": str(listed)},
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout and "deselected" in done.stdout, done.stdout
