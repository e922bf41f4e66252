"""Print the time and the peak memory of each step of loading and deriving a data directory.

    python benchmarks/memory_steps.py benchmarks/.work/data-germany
    python benchmarks/memory_steps.py DATA --build OUT   # a whole build into OUT

With `--build`, the steps of a whole build are timed (the zones' source hashes, what is
taken from the previous build, the fingerprints, the plan, writing the state) and the time
spent rendering the files below each top folder of the tree is printed after it: run it
twice over one OUT, the second time with changed data, to see where an incremental
build's time goes.

Linux only: the peak is the process's high-water mark of resident memory (`VmHWM`), set
back to the current size as each step begins (`/proc/self/clear_refs`). A line's peak is
the highest since its step began, or, for a step that ran others, since the last of them
began. docs/performance.md records the figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import importlib
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

STEPS = [
    ("generator.contract.read", "read"),
    ("generator.contract.check", "_typed"),
    ("generator.contract.check", "compact"),
    ("generator.contract.order", "as_declared"),
    ("generator.contract.check", "_check_constraints"),
    ("generator.values.published", "read_series"),
    ("generator.incremental.reuse", "known"),
    ("generator.values.published", "measurement_rows"),
    ("generator.ordinance.sums", "current_samples"),
    ("generator.ordinance.sums", "computed"),
    ("generator.ordinance.evidence", "points"),
    ("generator.derive", "current_values"),
    ("generator.ordinance.summary", "summaries"),
    ("generator.ordinance.staleness", "newest_publications"),
    ("generator.derive", "compact"),
    ("generator.compare", "standings"),
    ("generator.compare", "distributions"),
    ("generator.derive", "derive"),
    ("generator.incremental.source_prints", "source_prints"),
    ("generator.incremental.reuse", "reused"),
    ("generator.incremental.render_plan", "fingerprints"),
    ("generator.incremental.render_plan", "plan"),
    ("generator.incremental.render_plan", "zone_feeds"),
    ("generator.incremental.reuse", "write"),
]
"""The steps timed: functions that the stages look up in their module when they run."""


def memory() -> dict[str, int]:
    """Resident memory now and its high-water mark, in MiB."""
    figures = {}
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                figures[key] = int(value.split()[0]) // 1024
    return figures


def reset_peak() -> None:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
        fh.write("5")


def timed(module: str, name: str, depth: list[int]) -> None:
    owner = importlib.import_module(module)
    step: Callable[..., Any] = getattr(owner, name)

    @functools.wraps(step)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        before = memory()["VmRSS"]
        reset_peak()
        start = time.perf_counter()
        depth[0] += 1
        try:
            return step(*args, **kwargs)
        finally:
            depth[0] -= 1
            now = memory()
            if time.perf_counter() - start >= 0.05:
                print(
                    f"{'  ' * depth[0]}{module}.{name}: {time.perf_counter() - start:.1f} s, "
                    f"resident {before:,} -> {now['VmRSS']:,} MiB, peak {now['VmHWM']:,} MiB",
                    flush=True,
                )

    setattr(owner, name, wrapper)


def folder(path: str) -> str:
    """Return the folder a file is counted under: the top one, the API's by resource."""
    parts = path.split("/")[:-1]
    depth = {"_data": 3, "v1": 2}.get(parts[0], 1) if parts else 0
    return "/".join(parts[:depth]) or path


def build(data: Path, out: Path, as_of: dt.date) -> None:
    """Build `data` into `out`; print the time spent rendering each top folder's files."""
    from generator import build as stages
    from generator import render
    from generator.config import Config
    from generator.progress import StepPrinter

    spent: Counter[str] = Counter()
    files: Counter[str] = Counter()
    render_all = render.render_all

    def rendering(*args: Any, **kwargs: Any) -> Iterator[tuple[str, bytes | None]]:
        start = time.perf_counter()
        for path, payload in render_all(*args, **kwargs):
            top = folder(path)
            spent[top] += time.perf_counter() - start
            files[top] += payload is not None  # None: a file kept from the previous tree
            yield path, payload
            start = time.perf_counter()

    render.render_all = rendering
    start = time.perf_counter()
    stages.build(data, out, as_of, Config(), progress=StepPrinter(enabled=True))
    print(f"build: {time.perf_counter() - start:.1f} s, {memory()}")
    for top, seconds in spent.most_common():
        print(f"  rendering {top}: {seconds:.2f} s, {files[top]:,} files")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="A data directory (as `trinkwasser build --data`).")
    parser.add_argument("--as-of", default="2026-11-23")
    parser.add_argument("--build", type=Path, metavar="OUT", help="Run a whole build into OUT.")
    args = parser.parse_args()
    depth = [0]
    for module, name in STEPS:
        timed(module, name, depth)
    from generator import derive, load

    if args.build:
        build(args.data, args.build, dt.date.fromisoformat(args.as_of))
        return
    start = time.perf_counter()
    data = load.load(args.data)
    print(f"load: {time.perf_counter() - start:.1f} s, {memory()}", flush=True)
    start = time.perf_counter()
    derive.derive(data, dt.date.fromisoformat(args.as_of))
    print(f"derive: {time.perf_counter() - start:.1f} s, {memory()}", flush=True)


if __name__ == "__main__":
    main()
