"""Units: recognise the spellings suppliers use and convert between them.

Every spelling maps to a canonical unit with a dimension and a factor to that
dimension's base unit. Two units convert only within one dimension, or by a conversion
declared for named parameters (`PARAMETER_CROSS`: mg of carbon per litre is mg/l only
for DOC and TOC, mmol/l is 5.6 °dH only for total hardness and the sum of alkaline
earths, 2.8 °dH for the acid capacity KS 4,3); where no conversion is known we say so
(``None``) instead of guessing.

Before a spelling is looked up it is normalised (`SPELLING_RULES` says how, in words):
published tables lose or replace the degree sign, space units freely, write counts as
``KBE / 100ml`` and put a sum sign beside the unit of a sum.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

SIG_FIGS = 12
"""Significant figures a converted value is rounded to, so unit factors leave no float noise
(`1e-3 * 0.1` is `0.00010000000000000002`): a converted value and a limit compare as written."""


@dataclass(frozen=True)
class Unit:
    symbol: str
    dimension: str
    factor: float
    """Multiply a value in this unit by `factor` to get the dimension's base unit."""


_CANONICAL: tuple[Unit, ...] = (
    Unit("g/l", "mass_concentration", 1000.0),
    Unit("mg/l", "mass_concentration", 1.0),
    Unit("µg/l", "mass_concentration", 1e-3),
    Unit("ng/l", "mass_concentration", 1e-6),
    Unit("mol/l", "amount_concentration", 1000.0),
    Unit("mmol/l", "amount_concentration", 1.0),
    Unit("µmol/l", "amount_concentration", 1e-3),
    Unit("mS/cm", "conductivity", 1000.0),
    Unit("µS/cm", "conductivity", 1.0),
    # Measured at 20 °C: the ordinance's conductivity is at 25 °C (Anlage 3 Teil I), and
    # the step between them depends on the water, so no factor is assumed: it converts to
    # nothing, and a value in it is kept as published without a verdict.
    Unit("µS/cm (20 °C)", "conductivity_20", 1.0),
    Unit("mS/m", "conductivity", 10.0),
    Unit("°C", "temperature", 1.0),
    Unit("°dH", "hardness", 1.0),
    Unit("count/ml", "count_per_volume", 100.0),
    Unit("count/100 ml", "count_per_volume", 1.0),
    Unit("count/250 ml", "count_per_volume", 0.4),
    Unit("PFU/100 ml", "pfu_per_volume", 1.0),
    Unit("NTU", "turbidity", 1.0),
    Unit("m-1", "absorption", 1.0),
    Unit("cm-1", "absorption", 100.0),
    Unit("Bq/l", "activity_concentration", 1.0),
    Unit("mBq/l", "activity_concentration", 1e-3),
    Unit("mSv/a", "dose_rate", 1.0),
    Unit("µSv/a", "dose_rate", 1e-3),
    Unit("mg/l CaCO3", "mass_concentration_caco3", 1.0),
    Unit("mg/l O2", "mass_concentration_o2", 1.0),
    Unit("mg/l C", "mass_concentration_carbon", 1.0),
    Unit("mV", "potential", 1.0),
    Unit("", "dimensionless", 1.0),
)
UNITS: dict[str, Unit] = {u.symbol: u for u in _CANONICAL}

# Spellings seen in published analyses -> canonical symbol. Keys are normalised by
# `_normalise` first (case folded, micro signs unified, degree signs restored, spaces
# squeezed, sum signs dropped). The docs list them.
ALIASES: dict[str, str] = {
    "ug/l": "µg/l",
    "milligramm pro liter": "mg/l",
    "mcg/l": "µg/l",
    "mg/dm3": "mg/l",
    "µg/dm3": "µg/l",
    "µs/cm at 25 °c": "µS/cm",
    "µs/cm bei 25 °c": "µS/cm",
    "µs/cm (25 °c)": "µS/cm",
    "µs/cm 25 °c": "µS/cm",
    "µs/cm, 25 °c": "µS/cm",
    "µs/cm at 20 °c": "µS/cm (20 °C)",
    "µs/cm bei 20 °c": "µS/cm (20 °C)",
    "µs/cm (20 °c)": "µS/cm (20 °C)",
    "µs/cm 20 °c": "µS/cm (20 °C)",
    "µs/cm, 20 °c": "µS/cm (20 °C)",
    "us/cm": "µS/cm",
    "grad c": "°C",
    "°c": "°C",
    "c": "°C",
    "°dh": "°dH",
    "°d": "°dH",
    "dh": "°dH",
    # The degree sign after the letters, or typed as a letter o.
    "dh°": "°dH",
    "odh": "°dH",
    "°deutscher härte": "°dH",
    "grad deutscher härte": "°dH",
    "°dgh": "°dH",
    # A degree of carbonate hardness is a degree of German hardness (1 °dH = 10 mg/l CaO),
    # applied to the hydrogen carbonate share.
    "°kh": "°dH",
    "°dkh": "°dH",
    "dkh": "°dH",
    "kbe/ml": "count/ml",
    "mpn/ml": "count/ml",
    "cfu/ml": "count/ml",
    "anzahl/ml": "count/ml",
    "n/ml": "count/ml",
    "/ml": "count/ml",
    "1/ml": "count/ml",
    "z/ml": "count/ml",
    "in 1 ml": "count/ml",
    "kbe/100 ml": "count/100 ml",
    "anzahl/100 ml": "count/100 ml",
    "mpn/100 ml": "count/100 ml",
    "cfu/100 ml": "count/100 ml",
    "n/100 ml": "count/100 ml",
    "/100 ml": "count/100 ml",
    "1/100 ml": "count/100 ml",
    "100 ml": "count/100 ml",
    "z/100 ml": "count/100 ml",
    "zahl/100 ml": "count/100 ml",
    "in 100 ml": "count/100 ml",
    "kbe/250 ml": "count/250 ml",
    "mpn/250 ml": "count/250 ml",
    "anzahl/250 ml": "count/250 ml",
    "/250 ml": "count/250 ml",
    "pbe/100 ml": "PFU/100 ml",
    "fnu": "NTU",
    "fne": "NTU",
    "te/f": "NTU",
    "1/m": "m-1",
    "/m": "m-1",
    "m^-1": "m-1",
    "m⁻¹": "m-1",
    "1/cm": "cm-1",
    "/cm": "cm-1",
    "cm^-1": "cm-1",
    "cm⁻¹": "cm-1",
    "mg c/l": "mg/l C",
    "mgc/l": "mg/l C",
    "mg/l (c)": "mg/l C",
    "msv/jahr": "mSv/a",
    "µsv/jahr": "µSv/a",
    "mg/l als caco3": "mg/l CaCO3",
    "mg/l o2": "mg/l O2",
    "mg o2/l": "mg/l O2",
    "-": "",
    "ph": "",
    "ph units": "",
    "ph-einheiten": "",
    "ph-wert": "",
    "ohne": "",
    # Odour, taste, colour judged by a person: no unit.
    "qualitativ": "",
    "organoleptisch": "",
}

_HARDNESS = frozenset({"gesamthaerte", "summe_erdalkalien"})
_ACID_CAPACITY = frozenset({"saeurekapazitaet_ks43"})

PARAMETER_CROSS: tuple[tuple[str, str, float, frozenset[str]], ...] = (
    # DOC and TOC are masses of carbon: "mg/l C" says so explicitly, and is mg/l for them.
    ("mg/l C", "mg/l", 1.0, frozenset({"doc", "toc"})),
    # The ordinance gives the calcite dissolution capacity as mg/l CaCO3 (Anlage 3): a
    # value of it in plain "mg/l" is that quantity.
    ("mg/l", "mg/l CaCO3", 1.0, frozenset({"calcitloesekapazitaet"})),
    # 1 mmol/l of alkaline earths (calcium and magnesium) is 5.6 °dH (1 °dH = 10 mg/l CaO):
    # true of total hardness and the sum of alkaline earths, of nothing else in mmol/l.
    ("mmol/l", "°dH", 5.6, _HARDNESS),
    ("°dH", "mmol/l", 1 / 5.6, _HARDNESS),
    # The acid capacity counts monovalent hydrogen carbonate: 1 mmol/l is 2.8 °dH of
    # carbonate hardness, half the factor of the alkaline earths.
    ("°dH", "mmol/l", 1 / 2.8, _ACID_CAPACITY),
    ("mmol/l", "°dH", 2.8, _ACID_CAPACITY),
)
"""Conversions that hold only for the named parameter codes: (from, to, factor, codes)."""

SPELLING_RULES: tuple[str, ...] = (
    "case is ignored, and `µ`, Greek `μ` and `u` before `g/`, `S/` or `mol/` are the same",
    "a lost or replaced degree sign is restored: `º`, `˚`, `�`, `?` or `Grad` before `C`, "
    "`dH`, `dKH` (`?C`, `Grad C`, `º dH` read as `°C`, `°dH`); `° C` is `°C`",
    "spaces around `/` are dropped and `100ml`, `100 ml` and `in 100 ml` are the same, "
    "`/1 ml` is `/ml` (`KBE / 100ml` reads as `KBE/100 ml`)",
    "a sum sign (`Σ`, `∑`, also in brackets) beside the unit of a sum is dropped",
    "`dm³` is `l`, and superscript digits are plain digits",
    "a dash between words loses its spaces (`pH – Einheiten` is `pH-Einheiten`)",
)
"""How a unit spelling is normalised before it is looked up, in words (for the docs)."""

_DEGREE = re.compile(r"(?i)(?:[º˚\ufffd?]|\bgrad\s*)\s*(?=(?:c|celsius|d|dh|dgh|kh|dkh)\b)")


def _normalise(text: str) -> str:
    text = text.replace("\u03bc", "µ").replace("\u00a0", " ").strip()
    text = re.sub(r"[Σ∑]|\(\s*[Σ∑]\s*\)", " ", text)
    text = text.replace("³", "3").replace("²", "2")
    text = _DEGREE.sub("°", text)
    text = re.sub(r"°\s+", "°", text)
    text = re.sub(r"(?i)°celsius\b", "°C", text)
    text = re.sub(r"(?<=\d)°", " °", text)
    text = re.sub(r"(?i)^u(?=g/|s/|mol/)", "µ", text)
    text = re.sub(r"(?i)\s+in\s+(?=\d+\s*ml\b)", "/", text)
    text = re.sub(r"\s*/\s*", "/", text)
    text = re.sub(r"(?i)/(\d+)\s*ml\b", r"/\1 ml", text)
    text = re.sub(r"(?i)/1 ml\b", "/ml", text)
    text = re.sub(r"(?i)dm3\b", "l", text) if "/dm3" in text.casefold() else text
    text = re.sub(r"(?<=[^\W\d_])\s*[-‐‑–—]\s*(?=[^\W\d_])", "-", text)
    return re.sub(r"\s+", " ", text).strip()


_AS_SUBSTANCE = re.compile(
    r"(?P<mass>[mµun]?g)\s*/\s*l\s+(?:als\s+)?(?P<basis>[A-Z][A-Za-z0-9]*[+-]*)"
    r"|(?P<mass2>[mµun]?g)\s+(?P<basis2>[A-Z][A-Za-z0-9]*[+-]*)\s*/\s*l"
)


def split_substance(text: str | None) -> tuple[str, str] | None:
    """Split a mass concentration given as a substance (`mg/l NO3`, `mg N/l`), else None.

    Returns (the plain unit, the substance as printed). A unit the register knows with its
    substance (`mg/l O2`, `mg/l CaCO3`, `mg/l C`) is not split: it is a unit of its own.
    """
    if text is None or canonical(text) is not None:
        return None
    m = _AS_SUBSTANCE.fullmatch(_normalise(text))
    if m is None:
        return None
    mass = (m["mass"] or m["mass2"]).replace("u", "µ")
    return f"{mass}/l", m["basis"] or m["basis2"]


def canonical(text: str | None) -> str | None:
    """Return the canonical symbol for a unit spelling, or None if it is unknown."""
    if text is None:
        return ""
    norm = _normalise(text)
    if norm in UNITS:
        return norm
    folded = _fold(norm)
    for symbol in UNITS:
        if _fold(symbol) == folded:
            return symbol
    return ALIASES.get(folded)


def _fold(text: str) -> str:
    # casefold() turns the micro sign into Greek mu; the aliases are written with the former.
    return text.casefold().replace("\u03bc", "µ")


def factor(
    from_unit: str | None, to_unit: str | None, parameter: str | None = None
) -> float | None:
    """Return the factor that converts a value in `from_unit` to `to_unit`, or None.

    `parameter` (a register code) allows the conversions of `PARAMETER_CROSS` that hold
    only for some parameters.
    """
    a, b = canonical(from_unit), canonical(to_unit)
    if a is None or b is None:
        return None
    if a == b:
        return 1.0
    for source, target, value, codes in PARAMETER_CROSS:
        if (source, target) == (a, b) and parameter in codes:
            return value
    ua, ub = UNITS[a], UNITS[b]
    if ua.dimension != ub.dimension:
        return None
    return ua.factor / ub.factor


def factor_frame(
    pairs: pl.DataFrame, from_col: str, to_col: str, parameter_col: str | None = None
) -> pl.DataFrame:
    """Add a `factor` column (Float64, null where no conversion is known) to distinct pairs.

    Called on the *distinct* (from, to) pairs of a table, so Python touches each pair of
    spellings once, never each measurement. With `parameter_col`, the conversions that
    hold only for some parameters apply too.
    """
    if parameter_col is None:
        rows = [(a, b, None) for a, b in pairs.select(from_col, to_col).iter_rows()]
    else:
        rows = list(pairs.select(from_col, to_col, parameter_col).iter_rows())
    factors = [factor(a, b, p) for a, b, p in rows]
    return pairs.with_columns(pl.Series("factor", factors, dtype=pl.Float64))
