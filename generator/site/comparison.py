"""How a value compares with the rest of the country, drawn at build time (no script).

Beside each compared value (`generator.compare.COMPARED`) the zone and PLZ pages say in
one sentence where it stands ("Niedriger als in 80 % der Versorgungsgebiete in
Deutschland") and draw a small strip of all comparable zones from the lowest value to the
highest, the band below a reporting limit grey on the left and this value as a dark mark,
in polars for all rows at once. The parameter page draws the national distribution as
bars, the band below a reporting limit apart, with its limits labelled inside the chart.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from generator import compare
from generator.site import text
from generator.values.german import number

# The strip: all comparable zones from the lowest value to the highest.
W, H = 240, 30

# The parameter page's chart: wider, with room for labels inside.
PW, PH, PBASE, PTOP = 640, 220, 180, 40
PBAND = (40, 90)
PBARS = (110, 620)


def _bars(row: dict[str, Any], band: tuple[float, float], bars: tuple[float, float],
          base: float, height: float) -> str:  # fmt: skip
    """Return the bars of one distribution as SVG path data of two paths: band and bars."""
    counts = row["bins"]
    peak = max([row["below"], *counts]) or 1
    width = (bars[1] - bars[0]) / compare.BINS

    def bar(x: float, w: float, n: int) -> str:
        h = round(height * n / peak, 1)
        return f"M{x:g} {base:g}h{w:g}v{-h:g}h{-w:g}z" if n else ""

    band_d = bar(band[0], band[1] - band[0], row["below"])
    bars_d = "".join(bar(bars[0] + i * width + 0.5, width - 1, n) for i, n in enumerate(counts))
    return (
        f'<path class="dist-band" d="{band_d or "M0 0"}"/>'
        f'<path class="dist-bars" d="{bars_d or "M0 0"}"/>'
    )


def with_comparison_html(values: pl.DataFrame) -> pl.DataFrame:
    """Add `_compare`: the sentence and strip of each row with a `comparison`, else null.

    `values` are current values with `comparison` (`compare.with_comparison`). The strip
    lays all comparable zones out from the lowest value to the highest: grey on the left
    the share below a reporting limit, the mark where this value stands (the share of
    zones certainly lower). It is drawn from the row's own comparison only, so a zone's
    page changes exactly when its standing does (`generator.incremental`).
    """
    c = pl.col("comparison").struct.field
    measured = pl.col("qualifier").is_in(compare.MEASURED)
    share = (
        pl.when(measured)
        .then(c("higher_than_percent"))
        .otherwise(c("below_reporting_limit_percent") / 2)
    )
    x = (share.cast(pl.Float64) * W / 100).clip(1.5, W - 1.5).round(1)
    band = (c("below_reporting_limit_percent").cast(pl.Float64) * W / 100).round(1)
    zones = text.thousands_expr(c("zones"))
    sentence = (
        pl.when(measured)
        .then(
            pl.format(
                "Niedriger als in {} % der Versorgungsgebiete in Deutschland, höher als in {} % "
                "({} Gebiete mit vergleichbarem jüngstem Wert).",
                c("lower_than_percent"),
                c("higher_than_percent"),
                zones,
            )
        )
        .when(c("lower_than_percent").is_not_null())
        .then(
            pl.format(
                "Unter der Bestimmungsgrenze wie in {} % der Versorgungsgebiete in Deutschland; "
                "in {} % wurde mehr gemessen ({} Gebiete mit vergleichbarem jüngstem Wert).",
                c("below_reporting_limit_percent"),
                c("lower_than_percent"),
                zones,
            )
        )
        .otherwise(
            pl.format(
                "Nicht nachgewiesen oder unter der Bestimmungsgrenze wie in {} % der "
                "Versorgungsgebiete in Deutschland ({} Gebiete mit vergleichbarem jüngstem "
                "Wert).",
                c("below_reporting_limit_percent"),
                zones,
            )
        )
    )
    html = pl.format(
        '<span class="compare"><svg class="strip" viewBox="0 0 {} {}" width="{}" height="{}" '
        'aria-hidden="true" focusable="false"><rect class="dist-track" x="0" y="9" '
        'width="{}" height="12"/><rect class="dist-band" x="0" y="9" width="{}" height="12"/>'
        '<path class="dist-mark" d="M{} 2V{}"/></svg><small>{}</small></span>',
        pl.lit(W),
        pl.lit(H),
        pl.lit(W),
        pl.lit(H),
        pl.lit(W),
        band,
        x,
        pl.lit(H - 2),
        sentence,
    )
    return values.with_columns(
        pl.when(pl.col("comparison").is_not_null()).then(html).alias("_compare")
    )


def distribution_chart(
    distributions: pl.DataFrame, limits: pl.DataFrame, code: str, unit: str
) -> dict[str, Any] | None:
    """Return the parameter page's national distribution: SVG, caption and table rows."""
    found = distributions.filter(pl.col("parameter") == code)
    if found.is_empty():
        return None
    row = found.row(0, named=True)
    top, counts = row["top"], row["bins"]
    svg = [_bars(row, PBAND, PBARS, PBASE, PBASE - PTOP)]
    labels = []
    own = (
        limits.filter((pl.col("code") == code) & pl.col("value").is_not_null())
        .unique(["value", "kind"])
        .sort("value")
    )
    for i, lim in enumerate(own.iter_rows(named=True)):
        if lim["value"] > top:
            continue
        xl = PBARS[0] + (PBARS[1] - PBARS[0]) * lim["value"] / top
        words = text.limit(lim["kind"], lim["value"], None, None, None, unit)
        y = 14 + 14 * i
        # Inside the chart: right of the line, or left of it near the right edge.
        anchor, dx = ("end", -4) if xl > PW * 0.6 else ("start", 4)
        svg.append(f'<path class="dist-limit" d="M{xl:.1f} {y - 10}V{PBASE}"/>')
        labels.append(
            f'<text x="{xl + dx:.1f}" y="{y}" text-anchor="{anchor}" class="dist-label">'
            f"{_xml(words)}</text>"
        )
    step = top / compare.BINS
    axis = (
        f'<text x="{(PBAND[0] + PBAND[1]) / 2}" y="{PBASE + 16}" text-anchor="middle" '
        f'class="dist-axis">unter BG</text>'
        f'<text x="{PBARS[0]}" y="{PBASE + 16}" class="dist-axis">0</text>'
        f'<text x="{PBARS[1]}" y="{PBASE + 16}" text-anchor="end" class="dist-axis">'
        f"{_xml(number(_round(top)))} {_xml(unit)}</text>"
    )
    rows = [{"range": "unter der Bestimmungsgrenze oder nicht nachgewiesen", "count": row["below"]}]
    for i, n in enumerate(counts):
        lo, hi = _round(i * step), _round((i + 1) * step)
        last = i == compare.BINS - 1
        words = f"ab {number(lo)} {unit}" if last else f"{number(lo)} bis unter {number(hi)} {unit}"
        rows.append({"range": words, "count": n})
    measured = sum(counts)
    return {
        "svg": (
            f'<svg class="distribution" viewBox="0 0 {PW} {PH}" role="img" '
            f'aria-labelledby="verteilung-titel">'
            f'<title id="verteilung-titel">Verteilung der jüngsten Werte in {row["zones"]} '
            f"Versorgungsgebieten</title>"
            f"{''.join(svg)}{''.join(labels)}{axis}</svg>"
        ),
        "zones": row["zones"],
        "below": row["below"],
        "measured": measured,
        "rows": rows,
    }


def _round(value: float) -> float:
    return float(f"{value:.3g}")


def _xml(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
