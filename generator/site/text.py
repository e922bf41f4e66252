"""German words for the site, and how numbers and dates are written, in Python and polars.

The API speaks English codes (`below_limit`, `grenzwert`, `count/100 ml`); people read
German. Every translation lives here so templates and polars expressions share it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

import polars as pl


@dataclass(frozen=True)
class Badge:
    label: str
    icon: str
    """A shape that tells the state without colour (screen readers skip it)."""
    tone: str
    """CSS modifier: ok | bad | warn | none."""
    explanation: str


BADGES: dict[str, Badge] = {
    "below_limit": Badge("eingehalten", "✓", "ok", "Der Wert liegt unter dem Grenzwert."),
    "exceeds_limit": Badge("überschritten", "✕", "bad", "Der Wert liegt über dem Grenzwert."),
    "within_range": Badge("im Bereich", "✓", "ok", "Der Wert liegt im zulässigen Bereich."),
    "outside_range": Badge(
        "außerhalb", "✕", "bad", "Der Wert liegt außerhalb des zulässigen Bereichs."
    ),
    "below_reporting_limit": Badge(
        "unter Bestimmungsgrenze",
        "▽",
        "ok",
        "Zu wenig, um es genau zu messen; die Bestimmungsgrenze liegt unter dem Grenzwert.",
    ),
    "not_detected": Badge(
        "nicht nachgewiesen", "○", "ok", "Das Labor hat den Stoff nicht gefunden."
    ),
    "not_assessable": Badge(
        "nicht bewertbar",
        "?",
        "warn",
        "Der veröffentlichte Wert lässt keinen Vergleich mit dem Grenzwert zu.",
    ),
    "no_limit": Badge("kein Grenzwert", "–", "none", "Für diesen Stoff gilt kein Grenzwert."),
    "unit_mismatch": Badge(
        "Einheit passt nicht",
        "?",
        "warn",
        "Die Einheit des Werts lässt sich nicht in die des Grenzwerts umrechnen.",
    ),
    "requirement": Badge(
        "Anforderung", "◇", "none", "Die Verordnung beschreibt eine Eigenschaft statt einer Zahl."
    ),
    "not_measured": Badge(
        "nicht gemessen", "–", "none", "Der Versorger hat dafür keinen Wert veröffentlicht."
    ),
}

KINDS: dict[str, str] = {
    "grenzwert": "Grenzwert",
    "indicator": "Indikatorwert",
    "range": "zulässiger Bereich",
    "requirement": "Anforderung",
    "richtwert": "Referenzwert",
}

GROUPS: dict[str, str] = {
    "chemistry": "Allgemeine Chemie",
    "disinfection": "Desinfektion und Nebenprodukte",
    "field": "Vor-Ort-Messungen",
    "hardness": "Wasserhärte",
    "indicator": "Indikatorparameter",
    "ions": "Salze und Ionen",
    "metabolites": "Abbauprodukte von Pflanzenschutzmitteln",
    "metals": "Metalle",
    "microbiology": "Mikrobiologie",
    "organics": "Organische Stoffe",
    "pesticides": "Pflanzenschutzmittel",
    "pfas": "PFAS (Ewigkeitschemikalien)",
    "radiology": "Radioaktivität",
}

UNITS: dict[str, str] = {
    "count/ml": "Anzahl/ml",
    "count/100 ml": "Anzahl/100 ml",
    "count/250 ml": "Anzahl/250 ml",
}

ISO_DATE = "%d.%m.%Y"


def unit(symbol: str | None) -> str:
    """Return a unit as a German reader expects it."""
    return UNITS.get(symbol or "", symbol or "")


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


def thousands(value: int) -> str:
    """Write a count with German thousands points: 2732 -> '2.732'."""
    return f"{value:,}".replace(",", ".")


def date(value: dt.date | None) -> str:
    """Write a date as 12.01.2026."""
    return value.strftime(ISO_DATE) if value else ""


def limit(
    kind: str | None,
    value: float | None,
    low: float | None,
    high: float | None,
    requirement: str | None,
    unit_symbol: str | None,
) -> str:
    """Describe one limit value in words, e.g. 'Grenzwert 0,1 µg/l' (`limit_expr` in polars)."""
    if kind is None:
        return ""
    name = KINDS.get(kind, kind)
    suffix = f" {unit(unit_symbol)}" if unit(unit_symbol) else ""
    if kind != "requirement":
        if kind == "range" and low is not None and high is not None:
            return f"{name} {number(low)} bis {number(high)}{suffix}"
        if kind == "range" and (low is not None or high is not None):
            bound = ("ab", low) if high is None else ("bis", high)
            return f"{name} {bound[0]} {number(bound[1])}{suffix}"
        if kind != "range" and value is not None:
            return f"{name} {number(value)}{suffix}"
    return f"{name}: {requirement}" if requirement else name


# ---------------------------------------------------------------------------- polars


def esc(expr: pl.Expr) -> pl.Expr:
    """Escape text for HTML inside a polars expression (null stays null)."""
    # One pass for all four characters (Aho-Corasick), three times faster than four passes.
    return expr.str.replace_many(["&", "<", ">", '"'], ["&amp;", "&lt;", "&gt;", "&quot;"])


_EXPONENT_TEXT = r"^(-?)(\d)(?:\.(\d+))?e([+-]?\d+)$"


def _without_exponent(text: pl.Expr) -> pl.Expr:
    """Rewrite `1.5e-7` as `0.00000015` and `1e+16` as `10000000000000000`."""
    field = text.str.extract_groups(_EXPONENT_TEXT).struct.field
    digits = pl.concat_str(field("2"), field("3").fill_null(""))
    point = field("4").cast(pl.Int64) + 1  # position of the decimal point in `digits`
    # Zeros in front for a point left of the digits, behind for one right of them.
    padded = digits.str.pad_start(
        digits.str.len_chars().cast(pl.Int64) + (-point).clip(0), "0"
    ).str.pad_end(point.clip(0), "0")
    integer = padded.str.head(point.clip(0))
    fraction = padded.str.slice(point.clip(0)).str.strip_chars_end("0")
    return pl.concat_str(
        field("1"),
        pl.when(integer == "").then(pl.lit("0")).otherwise(integer),
        pl.when(fraction != "").then(pl.concat_str(pl.lit("."), fraction)).otherwise(pl.lit("")),
    )


def number_expr(expr: pl.Expr) -> pl.Expr:
    """Write numbers the German way in polars, exactly as `number` does (null stays null)."""
    # polars prints the shortest digits that read back as the same float, like `repr`:
    # `2790.0`, `0.000015`, and for very large or small numbers `1e+16`, `1e-7`. The
    # rewrite of those runs only on them (null elsewhere), so it costs nothing per row.
    text = expr.cast(pl.Float64).cast(pl.String)
    exponent = _without_exponent(pl.when(text.str.contains("e", literal=True)).then(text))
    plain = pl.coalesce(exponent, text).str.strip_suffix(".0")
    return (
        pl.when(plain == "-0")
        .then(pl.lit("0"))
        .otherwise(plain)
        .str.replace(".", ",", literal=True)
    )


def limit_expr(lim: pl.Expr) -> pl.Expr:
    """Describe the limit struct `lim` in words, exactly as `limit` does (null without one)."""
    f = lim.struct.field
    kind, value, low, high = f("kind"), f("value"), f("value_min"), f("value_max")
    unit_text = unit_expr(f("unit"))
    suffix = (
        pl.when(unit_text != "").then(pl.concat_str(pl.lit(" "), unit_text)).otherwise(pl.lit(""))
    )
    name = kind.replace_strict(KINDS, default=kind)
    requirement = f("requirement")
    words = (
        pl.when(requirement.is_not_null() & (requirement != ""))
        .then(pl.concat_str(name, pl.lit(": "), requirement))
        .otherwise(name)
    )
    is_range = kind == "range"
    one_bound = pl.concat_str(
        name,
        pl.when(high.is_null()).then(pl.lit(" ab ")).otherwise(pl.lit(" bis ")),
        number_expr(pl.coalesce(low, high)),
        suffix,
    )
    return (
        pl.when(lim.is_null() | kind.is_null())
        .then(pl.lit(None, dtype=pl.String))
        .when(kind == "requirement")
        .then(words)
        .when(is_range & low.is_not_null() & high.is_not_null())
        .then(
            pl.concat_str(
                name, pl.lit(" "), number_expr(low), pl.lit(" bis "), number_expr(high), suffix
            )
        )
        .when(is_range & (low.is_not_null() | high.is_not_null()))
        .then(one_bound)
        .when(~is_range & value.is_not_null())
        .then(pl.concat_str(name, pl.lit(" "), number_expr(value), suffix))
        .otherwise(words)
    )


def percent_expr(share: pl.Expr) -> pl.Expr:
    """Write a share of one as a rounded percentage; tiny shares stay visible."""
    pct = share * 100
    return (
        pl.when((pct > 0) & (pct < 1))
        .then(pl.lit("unter 1 %"))
        .otherwise(pl.format("{} %", pct.round(0).cast(pl.Int64)))
    )


def confidence_expr(value: pl.Expr) -> pl.Expr:
    """Say in words how sure an assignment is: 'hoch (0,9)'."""
    word = (
        pl.when(value >= 0.8)
        .then(pl.lit("hoch"))
        .when(value >= 0.5)
        .then(pl.lit("mittel"))
        .otherwise(pl.lit("niedrig"))
    )
    return pl.format("{} ({})", word, number_expr(value.round(2)))


def thousands_expr(expr: pl.Expr) -> pl.Expr:
    """Write a non-negative integer with German thousands points: 31500 -> '31.500'."""
    text = expr.cast(pl.String)
    # Pad to a multiple of three digits, group, join with points, strip the padding.
    width = ((text.str.len_chars() + 2) // 3) * 3
    return (
        text.str.pad_start(width, "0")
        .str.extract_all(r"\d{3}")
        .list.join(".")
        .str.strip_chars_start("0.")
        .replace("", "0")
    )


def date_expr(expr: pl.Expr) -> pl.Expr:
    return expr.dt.strftime(ISO_DATE)


def unit_expr(expr: pl.Expr) -> pl.Expr:
    return expr.fill_null("").replace(UNITS)


# How an aggregate is named next to its value (a sample gets no label).
STATISTIC_LABELS = {"min": "Minimum", "mean": "Mittelwert", "max": "Maximum"}


def statistic_label(statistic: pl.Expr) -> pl.Expr:
    """The German label of an aggregate, null for a sample (or no value)."""
    return statistic.replace_strict(STATISTIC_LABELS, default=None, return_dtype=pl.String)
