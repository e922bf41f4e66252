"""What kind of statement a published value is: the `qualifier` and `statistic` vocabularies.

The parser in `generator.values.parse` assigns these; the resource declarations and the data
contract's documentation describe them. Kept here so the contract package needs no polars.
"""

from __future__ import annotations

NUMBER = "number"
BELOW_REPORTING_LIMIT = "below_reporting_limit"
NOT_DETECTED = "not_detected"
NOT_DETERMINED = "not_determined"
RANGE = "range"
ABOVE = "above"
TEXT = "text"

QUALIFIERS: dict[str, str] = {
    NUMBER: "A plain published number, possibly with a unit or footnote mark.",
    BELOW_REPORTING_LIMIT: (
        "Below the reporting limit (`< x`, `< BG`); `reporting_limit` holds x when it is given."
    ),
    NOT_DETECTED: "Analysed but not detected (`n.n.`, `nicht nachweisbar`); no number given.",
    NOT_DETERMINED: "Not analysed or not published (`n.b.`, `-`, empty or missing).",
    RANGE: "A range `a - b`; `value` is the larger bound, the conservative choice.",
    ABOVE: "Above a stated number (`> x`); `value` is x, a lower bound of the true value.",
    TEXT: "A verbal finding or unreadable text (`farblos`, `o.B.`); no number derived.",
}

SAMPLE = "sample"
STATISTICS: dict[str, str] = {
    SAMPLE: "One sample, as analysed.",
    "min": "The smallest value of the samples the supplier summarised for a period.",
    "mean": "The mean of the samples the supplier summarised for a period.",
    "max": "The largest value of the samples the supplier summarised for a period.",
}
"""What a published value is (the `statistic` of the data contract)."""

__all__ = [
    "ABOVE",
    "BELOW_REPORTING_LIMIT",
    "NOT_DETECTED",
    "NOT_DETERMINED",
    "NUMBER",
    "QUALIFIERS",
    "RANGE",
    "SAMPLE",
    "STATISTICS",
    "TEXT",
]
