"""What each kind of published evidence proves against a value of the ordinance: declared once.

A published value is a statement about the samples of one sample point and date: one sample,
or the minimum, mean or maximum of the samples a supplier summarised (`statistic`), written
as a number, a range, `< x`, `n.n.` or `> x` (`qualifier`). Two facts decide what it proves,
and both are declared here; `generator.ordinance.evidence` builds the verdicts from them and
`docs/api.md` shows the table `table()` writes from them, so the page cannot drift from the code.

- **What the text says about the statistic** (`BOUNDS`): a number is the value itself; `< x`
  puts it below x (x is the larger of the number in the cell and the reporting limit printed
  beside it: the laboratory's own statement of what it could measure); `n.n.` puts it below
  the printed reporting limit; `> x` puts it above x; a range `a - b` says the samples spanned
  a to b. Text (`farblos`) says nothing comparable.
- **Which samples the statistic speaks for** (`SPEAKS_FOR`): every statistic is reached by some
  sample (a mean lies between the smallest and the largest), so a statistic above a limit
  proves that some sample was above it, and one below a range proves some sample was below
  it. Only a sample itself or a maximum bounds *every* sample from above, and only a sample or
  a minimum bounds every sample from below: compliance needs those. A range bounds both ends.

A sample point complies when none of its values proves a crossing and its values together
prove compliance: for a range (pH) the upper end may come from a maximum and the lower from a
minimum of the same date. Evidence that proves a crossing is never outweighed by evidence
that proves nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.api.qualifiers import (
    BELOW_REPORTING_LIMIT,
    NOT_DETECTED,
    NUMBER,
    RANGE,
)

UPPER = "upper"
LOWER = "lower"

SPEAKS_FOR: dict[str, tuple[str, ...]] = {
    "sample": (UPPER, LOWER),
    "max": (UPPER,),
    "min": (LOWER,),
    "mean": (),
}
"""The ends at which a statistic bounds every sample it summarises: a maximum at or below a
limit shows every sample was; a minimum or mean below it does not."""


@dataclass(frozen=True)
class Bounds:
    """What a published text says about the statistic's value."""

    text: str
    """The spelling, for the table."""
    low: str | None
    """The statistic is at least this (`v`, `a`, `x`), or `0`; None: unknown."""
    low_open: bool
    high: str | None
    """The statistic is at most this; None: no upper bound is stated."""
    high_open: bool
    both_ends: bool = False
    """A range: the samples spanned low to high, whatever the statistic."""
    against_range: bool = True
    """Whether it says anything about a quantity with a permitted range (pH)."""


BOUNDS: dict[str, Bounds] = {
    NUMBER: Bounds("`v`", "v", False, "v", False),
    RANGE: Bounds("`a - b`", "a", False, "b", False, both_ends=True),
    BELOW_REPORTING_LIMIT: Bounds("`< x`", "0", False, "x", True),
    NOT_DETECTED: Bounds("`n.n.` (reporting limit x)", "0", False, "x", True, against_range=False),
}
"""Each qualifier with a number, as bounds of the statistic. `n.n.` without a printed
reporting limit is `NOT_DETECTED_ALONE`; `> x` is `ABOVE_BOUNDS`; other qualifiers (text,
not determined) prove nothing."""

NOT_DETECTED_ALONE = Bounds("`n.n.` (no reporting limit)", "0", False, "0", False, False, False)
"""`n.n.` with no reporting limit printed beside it: taken as not detected (nothing published
says the method could not detect the substance at the limit), so it complies where it speaks
for every sample; a reporting limit printed beside it is what the laboratory could measure,
and one above the limit shows nothing."""

ABOVE_BOUNDS = Bounds("`> x`", "x", True, None, False)

ROWS: tuple[tuple[str, Bounds], ...] = (
    *((s, BOUNDS[NUMBER]) for s in ("sample", "max", "min", "mean")),
    ("sample", BOUNDS[RANGE]),
    *((s, BOUNDS[BELOW_REPORTING_LIMIT]) for s in ("sample", "max", "min", "mean")),
    *((s, BOUNDS[NOT_DETECTED]) for s in ("sample", "max", "min")),
    *((s, NOT_DETECTED_ALONE) for s in ("sample", "max", "min")),
    ("sample", ABOVE_BOUNDS),
)
"""The rows of the table: every qualifier with the statistics that make a difference."""

_STATISTIC_DE = {"sample": "single sample", "max": "maximum", "min": "minimum", "mean": "mean"}
ABOVE_KIND = "exceeded"
REACHED_KIND = "reached"
RANGE_KIND = "outside"


def _crosses_up(b: Bounds, comparison: str) -> str | None:
    """When the evidence proves some sample above the limit L (or at it, when reached)."""
    witness = b.high if b.both_ends else b.low
    if witness is None or witness == "0":
        return None
    if comparison == REACHED_KIND or b.low_open and not b.both_ends:
        return f"{witness} ≥ L"
    return f"{witness} > L"


def _complies_up(statistic: str, b: Bounds, comparison: str) -> str | None:
    if b.high is None or not (b.both_ends or UPPER in SPEAKS_FOR[statistic]):
        return None
    if b.high == "0":
        return "always"
    if comparison == REACHED_KIND and not b.high_open:
        return f"{b.high} < L"
    return f"{b.high} ≤ L"


def cell(statistic: str, b: Bounds, comparison: str) -> str:
    """Return what `statistic` written as `b` proves against a limit of `comparison`."""
    if comparison == RANGE_KIND:
        return _range_cell(statistic, b)
    proofs = []
    up = _crosses_up(b, comparison)
    if up is not None:
        proofs.append(("reaches" if comparison == REACHED_KIND else "exceeds") + f" when {up}")
    comply = _complies_up(statistic, b, comparison)
    if comply == "always":
        proofs.append("complies")
    elif comply is not None:
        proofs.append(f"complies when {comply}")
    if not proofs:
        return "nothing"
    return "; ".join(proofs) + ("" if comply else "; otherwise nothing")


def _range_cell(statistic: str, b: Bounds) -> str:
    if not b.against_range:
        return "nothing"
    out = []
    high_witness = b.high if b.both_ends else b.low
    low_witness = b.low if b.both_ends else b.high
    if high_witness not in (None, "0"):
        op = "≥" if b.low_open and not b.both_ends else ">"
        out.append(f"{high_witness} {op} hi")
    if low_witness not in (None, "0"):
        op = "≤" if b.high_open and not b.both_ends else "<"
        out.append(f"{low_witness} {op} lo")
    proofs = [f"outside when {' or '.join(out)}"] if out else []
    ends = []
    if b.high is not None and b.high != "0" and (b.both_ends or UPPER in SPEAKS_FOR[statistic]):
        ends.append(f"{b.high} ≤ hi")
    if (
        b.low not in (None, "0")
        and not b.low_open
        and (b.both_ends or LOWER in SPEAKS_FOR[statistic])
    ):
        ends.append(f"{b.low} ≥ lo")
    if len(ends) == 2:
        proofs.append(f"within when {' and '.join(ends)}")
    elif ends:
        proofs.append(f"shows one end kept when {ends[0]} (the other needs another statistic)")
    return "; ".join(proofs) if proofs else "nothing"


def table() -> str:
    """Return the Markdown table of what each kind of evidence proves (docs/api.md)."""
    lines = [
        "| evidence | against a limit L (`>`) | against a value L that counts when reached "
        "(`>=`) | against a range lo..hi |",
        "|---|---|---|---|",
    ]
    for statistic, b in ROWS:
        what = "range" if b.both_ends else _STATISTIC_DE[statistic]
        cells = [cell(statistic, b, c) for c in (ABOVE_KIND, REACHED_KIND, RANGE_KIND)]
        lines.append(f"| {what} {b.text} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
