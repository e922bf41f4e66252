"""Print the CPU time of the zone pages' and the series files' steps, for the first batches.

    python benchmarks/zone_pages.py benchmarks/.work/data-germany            # 24 batches
    python benchmarks/zone_pages.py DATA --batches 8 --as-of 2026-11-23

Loads and derives DATA once, then renders the first `--batches` batches of zone pages and
as many zones' series files, one batch at a time on the main thread (the build renders two
at once), and prints each step's CPU time (the process's, so polars' threads count) and what
the whole country would take at that rate. Run from another checkout
(`PYTHONPATH=CHECKOUT`) it measures that code; a step it lacks is named and left out.
docs/performance.md records the figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import itertools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PAGE_STEPS = [
    ("generator.site.charts", "chart_frame"),
    ("generator.site.zone_pages", "value_rows"),
    ("generator.site.zone_pages", "as_text"),
    ("generator.site.zone_pages", "with_links"),
    ("generator.site.zone_pages", "with_numbers"),
    ("generator.site.zone_pages", "check_items"),
]
SERIES_STEPS = [
    ("generator.render", "_series_texts"),
    ("generator.render", "stored_gzip"),
]
STEPS = PAGE_STEPS + SERIES_STEPS
"""(module, function) of each step timed: the function is wrapped where its caller finds it."""


def _timed(steps: list[tuple[str, str]]) -> dict[str, float]:
    spent: dict[str, float] = {}
    for module_name, name in steps:
        module = importlib.import_module(module_name)
        step = getattr(module, name, None)
        if step is None:  # an older checkout, measured to compare
            print(f"  ({module_name}.{name}: not in this code)")
            continue

        def wrapper(
            *args: Any, _step: Callable[..., Any] = step, _name: str = name, **kwargs: Any
        ) -> Any:
            start = time.process_time()
            try:
                return _step(*args, **kwargs)
            finally:
                spent[_name] = spent.get(_name, 0.0) + time.process_time() - start

        setattr(module, name, wrapper)
    return spent


def _report(what: str, files: int, total: int, cpu: float, spent: dict[str, float]) -> None:
    scale = total / max(files, 1)
    print(
        f"{what}: {files:,} files, {cpu:.2f} s CPU; the country ({total:,}) at that rate "
        f"{cpu * scale:.1f} s"
    )
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"  {name:16s} {seconds:6.2f} s  ({seconds * scale:5.1f} s for the country)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--batches", type=int, default=24)
    parser.add_argument("--as-of", type=dt.date.fromisoformat, default=dt.date(2026, 11, 23))
    args = parser.parse_args()

    import polars as pl

    from generator import build, derive, load, render
    from generator.config import Config
    from generator.frames import parallel
    from generator.site import pages, zone_pages

    with pl.Config(engine_affinity=build.ENGINE):
        d = derive.derive(load.load(args.data), args.as_of)
        # One batch at a time, on this thread: its CPU time is the batch's.
        parallel.ordered = lambda jobs: (job() for job in jobs)  # type: ignore[assignment,misc]
        zones = d.zones.height

        spent = _timed(PAGE_STEPS)
        env = pages.begin(d, args.as_of, Config()).env
        start = time.process_time()
        n = sum(
            1
            for _ in itertools.islice(
                zone_pages.zone_pages(d, env, args.as_of), args.batches * zone_pages.ZONE_BATCH
            )
        )
        _report("zone pages", n, zones, time.process_time() - start, spent)

        spent = _timed(SERIES_STEPS)
        start = time.process_time()
        n = sum(
            1
            for _ in itertools.islice(
                render.measurement_files(d), args.batches * zone_pages.ZONE_BATCH
            )
        )
        _report("series files", n, zones, time.process_time() - start, spent)


if __name__ == "__main__":
    main()
