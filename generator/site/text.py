"""German words for the site, and how numbers and dates are written, in Python and polars.

The API speaks English codes (`below_limit`, `grenzwert`, `count/100 ml`); people read
German. Translations live here so templates and polars expressions share them; the words of
verdicts (states, kinds of values) are declared with them in `generator.api.verdicts`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import polars as pl

from generator.api.verdicts import KINDS as VERDICT_KINDS
from generator.api.verdicts import STATES
from generator.values.german import UNITS as UNITS
from generator.values.german import number as number
from generator.values.german import number_expr as number_expr
from generator.values.german import unit as unit
from generator.values.german import unit_expr as unit_expr


@dataclass(frozen=True)
class Badge:
    label: str
    icon: str
    """A shape that tells the state without colour (screen readers skip it)."""
    tone: str
    """CSS modifier: ok | bad | warn | none."""
    explanation: str


BADGES: dict[str, Badge] = {
    state: Badge(v.label_de, v.icon, v.tone, v.explanation_de) for state, v in STATES.items()
}
"""The badge of every state; the words are declared with the states (generator/api/verdicts.py)."""

KINDS: dict[str, str] = {kind: v.name_de for kind, v in VERDICT_KINDS.items()}
"""What the ordinance (or the UBA) calls each kind of value."""

SHORT_KINDS: dict[str, str] = {
    **KINDS,
    "indicator": "Grenzwert (Indikator)",
    "massnahmenwert": "Maßnahmenwert",
    "orientierungswert": "Orientierungswert (UBA)",
    "leitwert": "Leitwert (UBA)",
}
"""The same, short enough for a chart's label on a phone (the full term is its tooltip)."""

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

ISO_DATE = "%d.%m.%Y"


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
    both = low.is_not_null() & high.is_not_null()
    # Each number written once (`number_expr` is long to plan): the first number, and the
    # upper bound of a range with both bounds.
    first = pl.when(is_range).then(pl.coalesce(low, high)).otherwise(value)
    upper = (
        pl.when(is_range & both)
        .then(pl.concat_str(pl.lit(" bis "), number_expr(high)))
        .otherwise(pl.lit(""))
    )
    gap = (
        pl.when(~is_range | both)
        .then(pl.lit(" "))
        .when(high.is_null())
        .then(pl.lit(" ab "))
        .otherwise(pl.lit(" bis "))
    )
    numbers = pl.concat_str(name, gap, number_expr(first), upper, suffix)
    return (
        pl.when(lim.is_null() | kind.is_null())
        .then(pl.lit(None, dtype=pl.String))
        .when(kind == "requirement")
        .then(words)
        .when(first.is_not_null())
        .then(numbers)
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


# How an aggregate is named next to its value (a sample gets no label).
STATISTIC_LABELS = {"min": "Minimum", "mean": "Mittelwert", "max": "Maximum"}


def statistic_label(statistic: pl.Expr) -> pl.Expr:
    """Return the German label of an aggregate, null for a sample (or no value)."""
    return statistic.replace_strict(STATISTIC_LABELS, default=None, return_dtype=pl.String)
