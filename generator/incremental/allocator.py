"""When polars' allocator gives freed memory back: chosen per command, before polars loads.

polars allocates through jemalloc, which keeps freed pages for a while before it returns
them to the system (`dirty_decay_ms`) and faults them in again when they are used anew. A
full national build frees gigabytes between its steps: returned after 300 ms, its peak
stays under 2 GiB (after a second it was 2,050 MiB, and returned at once the build took a
third longer). A daily update holds less at its peak, and with a second it faults a fifth
fewer pages in and finishes about a quarter of a second sooner (docs/performance.md).

jemalloc reads its setting once, when polars is loaded, so `trinkwasser build` guesses
which kind of build it is (`likely_update`) before it imports polars. A wrong guess costs
time or memory, never a different tree. Nothing here imports polars.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from generator.contract.footer import FooterError, read_footer
from generator.output import state as build_state
from generator.output.state import Basis

VARIABLE = "_RJEM_MALLOC_CONF"
"""The environment variable polars' jemalloc reads its setting from."""
OURS = "TRINKWASSER_ALLOCATOR"
"""Beside `VARIABLE`, the setting `configure` put there (a child process inherits both): a
setting of the operator's own is left alone."""
FULL = "dirty_decay_ms:300,muzzy_decay_ms:0"
UPDATE = "dirty_decay_ms:1000,muzzy_decay_ms:0"
SERIES_FILE = "measurements.parquet"
"""The series as a Parquet file, whose row groups an import appends to."""
APPENDED_SHARE = 10
"""An update appends at most a tenth of the rows the previous build had."""


def configure(setting: str) -> bool:
    """Have polars' allocator use `setting`; return whether it will.

    It will not when the operator set `_RJEM_MALLOC_CONF` (or an earlier command of theirs
    set it), or when polars is loaded already: jemalloc has read its setting then.
    """
    current = os.environ.get(VARIABLE)
    if current is not None and current != os.environ.get(OURS):
        return current == setting
    if "polars" in sys.modules:
        return current == setting
    os.environ[VARIABLE] = os.environ[OURS] = setting
    return True


def likely_update(out: Path, data_dir: Path, code: str) -> bool:
    """Whether a build of `data_dir` into `out` with this code is likely a daily update.

    It is when the previous build's state was made by the same code (`code_digest`) from
    a series file whose row groups, by their rows, begin the series file now, and the rows
    after them are at most a tenth as many (`APPENDED_SHARE`): an import appended a
    publication. Read from the files' Parquet footers only; the build itself decides what
    to render from the data (`generator.incremental.source_prints`,
    `generator.incremental.render_plan`).
    """
    try:
        state = read_footer(build_state.ZONES.path(out)).metadata
        series = read_footer(Path(data_dir) / SERIES_FILE)
    except (OSError, FooterError):
        return False
    made = Basis.from_json(state.get("basis", ""))
    if made is None or made.code != code or not made.groups:
        return False
    before = [rows for _, rows in made.groups]
    now = [rows for rows, _ in series.groups]
    appended = sum(now) - sum(before)
    return now[: len(before)] == before and appended * APPENDED_SHARE <= sum(before)
