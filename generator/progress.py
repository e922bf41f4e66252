"""Progress of long steps, on stderr so stdout stays machine-readable.

On a terminal, counted steps show a bar (tqdm) with counts, rate and time left; when stderr
is not a terminal (a log, CI, a pipe) they print plain lines now and then instead; with
`enabled=False` (`--quiet`) nothing at all. Every command reports through a `StepPrinter`:
`printer(line)` for a message, `printer.step(label)` around a step, `printer.bar(...)` or
`printer.track(...)` for a step that counts.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, TextIO, TypeVar

if TYPE_CHECKING:
    from tqdm import tqdm

Report = Callable[[str], None]
"""Where a long step reports how far it got (a StepPrinter, or any function of a line)."""

T = TypeVar("T")

PLAIN_EVERY = 10.0
"""Seconds between two plain progress lines of one counted step (no terminal)."""


class Bar(Protocol):
    """A counted step in progress: `advance(n)` when n more units are done."""

    def advance(self, n: int = 1, note: str | None = None) -> None: ...


class _Silent:
    def advance(self, n: int = 1, note: str | None = None) -> None:
        pass


class _Plain:
    """Plain lines: `label: 1,200/14,868 files (8%), 950 files/s, 14 s left`, now and then."""

    def __init__(self, printer: StepPrinter, label: str, total: int | None, unit: str):
        self.printer, self.label, self.total, self.unit = printer, label, total, unit
        self.done = 0
        self.start = self.last = time.monotonic()

    def advance(self, n: int = 1, note: str | None = None) -> None:
        self.done += n
        if note is not None:
            self.printer(f"{self.label}: {note}")
        now = time.monotonic()
        if now - self.last >= PLAIN_EVERY:
            self.last = now
            self.printer(self.line(now))

    def line(self, now: float) -> str:
        rate = self.done / max(now - self.start, 1e-9)
        text = f"{self.label}: {self.counts()}"
        if self.total and rate > 0 and self.done < self.total:
            text += f", {(self.total - self.done) / rate:,.0f} s left"
        return text

    def counts(self) -> str:
        rate = self.done / max(time.monotonic() - self.start, 1e-9)
        text = f"{self.done:,}"
        if self.total and self.done <= self.total:
            text += f"/{self.total:,} {self.unit} ({100 * self.done / self.total:.0f}%)"
        else:
            text += f" {self.unit}"
        return text + f", {rate:,.0f} {self.unit}/s"


class _Terminal:
    def __init__(self, bar: tqdm[Any]):
        self.bar = bar

    def advance(self, n: int = 1, note: str | None = None) -> None:
        if note is not None:
            self.bar.set_postfix_str(note, refresh=False)
        if self.bar.total is not None and self.bar.n + n > self.bar.total:
            self.bar.total = self.bar.n + n  # an estimated total was too small
        self.bar.update(n)


class StepPrinter:
    """Report steps: `step... done (1.2 s)` lines, and bars or plain lines for counted steps.

    `bars=None` decides by the stream: bars only on a terminal.
    """

    def __init__(
        self, stream: TextIO | None = None, enabled: bool = True, bars: bool | None = None
    ):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.bars = enabled and (_is_terminal(self.stream) if bars is None else bars)
        self._open = 0

    def __call__(self, message: str) -> None:
        if not self.enabled:
            return
        if self._open:
            from tqdm import tqdm

            tqdm.write(message, file=self.stream)  # above the bar, which stays at the bottom
        else:
            print(message, file=self.stream, flush=True)

    @contextmanager
    def step(self, label: str) -> Iterator[None]:
        start = time.perf_counter()
        self(f"{label} ...")
        yield
        self(f"{label} done ({time.perf_counter() - start:.1f} s)")

    @contextmanager
    def bar(self, label: str, total: int | None, unit: str) -> Iterator[Bar]:
        """Count a step: a bar on a terminal, plain lines elsewhere, nothing when quiet.

        `total` may be an estimate (None: unknown); the bar ends at the count reached.
        """
        if not self.enabled:
            yield _Silent()
            return
        start = time.perf_counter()
        if not self.bars:
            plain = _Plain(self, label, total, unit)
            self(f"{label} ...")
            yield plain
            plain.total = plain.done  # the total was perhaps an estimate: say what was done
            self(f"{label} done ({time.perf_counter() - start:.1f} s): {plain.counts()}")
            return
        from tqdm import tqdm

        with tqdm(
            total=total, desc=label, unit=unit, file=self.stream, dynamic_ncols=True, leave=True
        ) as bar:
            self._open += 1
            try:
                yield _Terminal(bar)
                if bar.total != bar.n:
                    bar.total = bar.n
                    bar.refresh()
            finally:
                self._open -= 1

    def track(self, items: Iterable[T], label: str, total: int | None, unit: str) -> Iterator[T]:
        """Yield the items, counting each one as a unit of a `bar`."""
        with self.bar(label, total, unit) as bar:
            for item in items:
                yield item
                bar.advance()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
