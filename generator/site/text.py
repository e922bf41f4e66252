"""German words for the site, and how numbers and dates are written, in Python and polars.

The API speaks English codes (`below_limit`, `grenzwert`, `count/100 ml`); people read
German. Every translation lives here so templates and polars expressions share it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

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
    """Write a number the German way without float noise: 0.1 -> '0,1', 2790.0 -> '2790'."""
    if value is None:
        return ""
    text = f"{value:.10f}".rstrip("0").rstrip(".")
    return ("0" if text in ("", "-0") else text).replace(".", ",")


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
    """Describe one limit value in words, e.g. 'Grenzwert 0,1 µg/l'."""
    if kind is None:
        return ""
    name = KINDS.get(kind, kind)
    suffix = f" {unit(unit_symbol)}" if unit(unit_symbol) else ""
    if kind == "requirement" or (value is None and low is None and high is None):
        return f"{name}: {requirement}" if requirement else name
    if kind == "range":
        return f"{name} {number(low)} bis {number(high)}{suffix}"
    return f"{name} {number(value)}{suffix}"


# ---------------------------------------------------------------------------- polars


def esc(expr: pl.Expr) -> pl.Expr:
    """Escape text for HTML inside a polars expression (null stays null)."""
    # One pass for all four characters (Aho-Corasick), three times faster than four passes.
    return expr.str.replace_many(["&", "<", ">", '"'], ["&amp;", "&lt;", "&gt;", "&quot;"])


def number_expr(expr: pl.Expr) -> pl.Expr:
    """Write floats the German way in polars (matches `number` for ordinary values)."""
    return (
        expr.round_sig_figs(10)
        .cast(pl.String)
        .str.replace(r"\.0$", "")
        .str.replace(".", ",", literal=True)
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
