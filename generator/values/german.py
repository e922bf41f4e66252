"""Numbers and units written the German way (decimal comma), in Python and in polars, one rule.

The site and the German sentences of the API (zone summaries, notes on values) both write
numbers; they share this module so the two never disagree.
"""

from __future__ import annotations

from decimal import Decimal

import polars as pl


def number(value: float | None) -> str:
    """Write a number the German way: 0.1 -> '0,1', 2790.0 -> '2790', 2e-05 -> '0,00002'.

    The digits are the shortest that read back as the same float (Python's `repr`, and what
    polars prints, so `number_expr` agrees), written without an exponent.
    """
    if value is None:
        return ""
    text = format(Decimal(repr(float(value))), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return ("0" if text == "-0" else text).replace(".", ",")


_EXPONENT_TEXT = r"^(-?)(\d)(?:\.(\d+))?e([+-]?\d+)$"


def _without_exponent(text: pl.Expr) -> pl.Expr:
    """Rewrite `1.5e-7` as `0.00000015` and `1e+16` as `10000000000000000`.

    Step by step in the fields of one struct, so each step is written once: as one nested
    expression every use of a step repeated the steps below it, 29 matches of the pattern
    per number, and polars took milliseconds to plan each number of a page batch.
    """
    f = pl.field
    cut = f("point").clip(0)
    return (
        text.str.extract_groups(_EXPONENT_TEXT)
        .struct.with_fields(
            digits=pl.concat_str(f("2"), f("3").fill_null("")),
            point=f("4").cast(pl.Int64) + 1,  # position of the decimal point in `digits`
        )
        # Zeros in front for a point left of the digits, behind for one right of them.
        .struct.with_fields(
            padded=f("digits")
            .str.pad_start(f("digits").str.len_chars().cast(pl.Int64) + (-f("point")).clip(0), "0")
            .str.pad_end(cut, "0")
        )
        .struct.with_fields(
            integer=f("padded").str.head(cut),
            fraction=f("padded").str.slice(cut).str.strip_chars_end("0"),
        )
        .struct.with_fields(
            written=pl.concat_str(
                f("1"),
                pl.when(f("integer") == "").then(pl.lit("0")).otherwise(f("integer")),
                pl.when(f("fraction") != "")
                .then(pl.concat_str(pl.lit("."), f("fraction")))
                .otherwise(pl.lit("")),
            )
        )
        .struct.field("written")
    )


def number_expr(expr: pl.Expr) -> pl.Expr:
    """Write numbers the German way in polars, exactly as `number` does (null stays null)."""
    # polars prints the shortest digits that read back as the same float, like `repr`:
    # `2790.0`, `0.000015`, and for very large or small numbers `1e+16`, `1e-7`. The
    # rewrite of those runs only on them (null elsewhere), so it costs nothing per row.
    text = expr.cast(pl.Float64).cast(pl.String)
    exponent = _without_exponent(pl.when(text.str.contains("e", literal=True)).then(text))
    return (
        pl.coalesce(exponent, text)
        .str.strip_suffix(".0")
        .replace("-0", "0")
        .str.replace(".", ",", literal=True)
    )


UNITS: dict[str, str] = {
    "count/ml": "KBE/ml",
    "count/100 ml": "KBE/100 ml",
    "count/250 ml": "KBE/250 ml",
    "µS/cm": "µS/cm (25 °C)",
}
"""Register units a German reader would not write as they are; the others read as they are.
Counts of the ordinance's microbiology are culture counts, colony-forming units (KBE);
conductivity is stated at 25 °C (Anlage 3 Teil I: measurements at other temperatures are
converted)."""


def unit(symbol: str | None) -> str:
    """Return a unit as a German reader expects it."""
    return UNITS.get(symbol or "", symbol or "")


def unit_expr(expr: pl.Expr) -> pl.Expr:
    """Return `unit` in polars (null reads as no unit)."""
    return expr.fill_null("").replace(UNITS)
