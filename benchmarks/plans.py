"""Print how long polars takes to plan the site's batch expressions, on frames without rows.

    python benchmarks/plans.py

The zone pages are filled in batches of zones (`generator.site.zone_pages.ZONE_BATCH`), and
polars plans each batch's expressions anew: a German number, a limit in words, a value
row, a chart. With no rows the time is all planning, so the figures are the fixed cost
of each batch (the national build has some 120 of them, on two threads). The frames come
from the bundled sample, derived as the build derives it. docs/performance.md records the
figures.
"""

from __future__ import annotations

import datetime as dt
import statistics
import time
from collections.abc import Callable

import polars as pl

from generator import derive, load
from generator.api import verdicts
from generator.frames.compact import as_text
from generator.site import assets, charts, fragments, text, value_table
from generator.values import german
from generator.values.published import with_numbers

AS_OF = dt.date(2026, 11, 23)
REPEAT = 7


def timed(step: Callable[[], object]) -> float:
    """Return the median milliseconds of `REPEAT` runs of `step`, after one to warm up."""
    step()
    runs = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        step()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)


def main() -> None:
    data = load.load(load.sample_data_dir())
    d = derive.derive(data, AS_OF)
    templates = assets.templates_dir()
    inputs = charts.ChartInputs.prepare(d.limits, d.parameters)
    row, source = (fragments.load(templates, n) for n in ("value_row.html", "source_item.html"))
    badges = {state: state for state in verdicts.STATES}
    series = as_text(with_numbers(d.measurements, d.readings, keep=True)).clear()
    values = derive.with_links(d.current_values.all(), d.documents).clear()
    numbers = pl.DataFrame({"v": []}, schema={"v": pl.Float64})
    limits = values.select("limit")
    figures = {
        "a German number (number_expr)": lambda: numbers.select(german.number_expr(pl.col("v"))),
        "a limit in words (limit_expr)": lambda: limits.select(text.limit_expr(pl.col("limit"))),
        "the value rows of a batch (value_rows)": lambda: value_table.value_rows(
            values, row, badges, source, value_table.limit_words()
        ),
        "the charts of a batch (chart_frame)": lambda: charts.chart_frame(series, inputs, AS_OF),
    }
    print(f"polars {pl.__version__}; median of {REPEAT} runs, frames without rows")
    for name, step in figures.items():
        print(f"{name:45s} {timed(step):8.1f} ms")


if __name__ == "__main__":
    main()
