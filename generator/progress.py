"""Progress lines for long steps, on stderr so stdout stays machine-readable."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

Report = Callable[[str], None]
"""Where a long step reports how far it got (a StepPrinter, or any function of a line)."""


class StepPrinter:
    """Print `step... done (1.2 s)` lines; used by the CLI."""

    def __init__(self, stream: TextIO | None = None, enabled: bool = True):
        self.stream = stream or sys.stderr
        self.enabled = enabled

    def __call__(self, message: str) -> None:
        if self.enabled:
            print(message, file=self.stream, flush=True)

    @contextmanager
    def step(self, label: str) -> Iterator[None]:
        start = time.perf_counter()
        self(f"{label} ...")
        yield
        self(f"{label} done ({time.perf_counter() - start:.1f} s)")
