"""Print the time and the peak memory of each step of loading and deriving a data directory.

    python benchmarks/memory_steps.py benchmarks/.work/data-germany

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

STEPS = [
    ("generator.contract.read", "read"),
    ("generator.contract.check", "_check_constraints"),
    ("generator.contract.order", "in_order"),
    ("generator.load", "compact"),
    ("generator.derive", "read_values"),
    ("generator.derive", "measurement_rows"),
    ("generator.sums", "current_samples"),
    ("generator.sums", "computed"),
    ("generator.derive", "current_values"),
    ("generator.summary", "summaries"),
    ("generator.staleness", "newest_publications"),
    ("generator.derive", "compact"),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="A data directory (as `trinkwasser build --data`).")
    parser.add_argument("--as-of", default="2026-11-23")
    args = parser.parse_args()
    depth = [0]
    for module, name in STEPS:
        timed(module, name, depth)
    from generator import derive, load

    start = time.perf_counter()
    data = load.load(args.data)
    print(f"load: {time.perf_counter() - start:.1f} s, {memory()}", flush=True)
    start = time.perf_counter()
    derive.derive(data, dt.date.fromisoformat(args.as_of))
    print(f"derive: {time.perf_counter() - start:.1f} s, {memory()}", flush=True)


if __name__ == "__main__":
    main()
