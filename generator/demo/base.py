"""What every stage of the demo generator shares: size knobs, calendar, weighted draws."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np

from generator.progress import Report

Progress = Report

FIRST_YEAR = 2016
LAST_YEAR = 2026
# The last year is still running: its samples end here and its report is a half-year one.
PARTIAL_END = date(2026, 6, 30)
EPOCH = date(1970, 1, 1)


@dataclass(frozen=True)
class Scale:
    """Size knobs of one dataset."""

    plz_count: int | None
    """How many PLZ to use (a compact run around Kassel); None takes every PLZ."""
    multi_share: float
    """Share of PLZ split among several zones."""
    boundary_break: float
    """Chance that a new zone starts at a PLZ boundary (else the zone spans both PLZ)."""
    zones_per_supplier: float
    """Mean number of zones per supplier."""
    file_format: str


SCALES: dict[str, Scale] = {
    "germany": Scale(None, 0.34, 0.84, 2.5, "parquet"),
    "small": Scale(40, 0.34, 0.45, 3.0, "csv"),
}


def days(d: date) -> int:
    """Return the days since 1970-01-01 (polars' date representation)."""
    return (d - EPOCH).days


def pick(
    rng: np.random.Generator, weights: list[float] | tuple[float, ...], size: int
) -> np.ndarray:
    """Draw `size` indices with the given weights."""
    p = np.asarray(weights, dtype=np.float64)
    return rng.choice(len(p), size=size, p=p / p.sum())
