"""Run a command and print the CPU time of each of its threads, the main thread's first.

Linux only: each thread's user and system time is read from `/proc/PID/task/TID/stat`
every `--every` seconds while the command runs, so the last reading of a thread is at
most that much before it ended (a thread shorter than that may not be seen at all).
What it tells: whether the main thread computes or waits for the others (polars' workers,
the build's own threads beside it), e.g. for a daily update of the national tree:

    .venv/bin/python benchmarks/threads.py -- .venv/bin/trinkwasser build \\
        --data DATA --out OUT --as-of 2026-11-23 --quiet
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
LISTED = 0.02
"""A thread of at least so many CPU seconds gets a line of its own; the others are counted."""


def times(pid: int) -> dict[int, tuple[float, float]]:
    """Return each thread of `pid` and its user and system CPU seconds so far."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            # The command's name (in parentheses) may hold spaces: the fields follow it.
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # the thread ended meanwhile
        found[int(task.name)] = (int(fields[11]) / TICK, int(fields[12]) / TICK)
    return found


def measure(command: list[str], every: float) -> tuple[float, int, dict[int, tuple[float, float]]]:
    """Run `command`; return its wall time, its pid and the last CPU times of its threads."""
    start = time.perf_counter()
    process = subprocess.Popen(command)
    seen: dict[int, tuple[float, float]] = {}
    while process.poll() is None:
        try:
            seen.update(times(process.pid))
        except OSError:
            break  # it ended between the poll and the reading
        time.sleep(every)
    process.wait()
    return time.perf_counter() - start, process.pid, seen


def report(wall: float, pid: int, seen: dict[int, tuple[float, float]]) -> list[str]:
    """Return the lines printed: the main thread, the busiest others, and the sums."""
    main_user, main_system = seen.get(pid, (0.0, 0.0))
    others = sorted(((sum(t), tid, t) for tid, t in seen.items() if tid != pid), reverse=True)
    total = sum(sum(t) for t in seen.values())
    lines = [
        f"wall {wall:.2f} s; CPU of all threads {total:.2f} s ({total / wall:.2f} CPUs on average)",
        f"main thread: user {main_user:.2f} s, system {main_system:.2f} s, "
        f"{(main_user + main_system) / wall:.0%} of the wall time",
    ]
    listed = [(tid, times) for cpu, tid, times in others if cpu >= LISTED]
    lines += [
        f"thread {tid}: user {user:.2f} s, system {system:.2f} s" for tid, (user, system) in listed
    ]
    lines.append(f"{len(others) - len(listed)} other thread(s) under {LISTED} s each")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=float, default=0.01, help="seconds between readings")
    parser.add_argument("command", nargs="+", help="the command, after --")
    args = parser.parse_args(argv)
    if not Path("/proc/self/task").is_dir():
        sys.exit("threads.py reads /proc: Linux only")
    wall, pid, seen = measure(args.command, args.every)
    print("\n".join(report(wall, pid, seen)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
