"""Units: recognise the spellings suppliers use and convert between them.

Every spelling maps to a canonical unit with a dimension and a factor to that
dimension's base unit. Two units convert only within one dimension; where no
conversion is known we say so (``None``) instead of guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl


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
    Unit("mS/m", "conductivity", 10.0),
    Unit("°C", "temperature", 1.0),
    Unit("°dH", "hardness", 1.0),
    Unit("count/ml", "count_per_volume", 100.0),
    Unit("count/100 ml", "count_per_volume", 1.0),
    Unit("count/250 ml", "count_per_volume", 0.4),
    Unit("PFU/100 ml", "pfu_per_volume", 1.0),
    Unit("NTU", "turbidity", 1.0),
    Unit("m-1", "absorption", 1.0),
    Unit("Bq/l", "activity_concentration", 1.0),
    Unit("mBq/l", "activity_concentration", 1e-3),
    Unit("mSv/a", "dose_rate", 1.0),
    Unit("µSv/a", "dose_rate", 1e-3),
    Unit("mg/l CaCO3", "mass_concentration_caco3", 1.0),
    Unit("mg/l O2", "mass_concentration_o2", 1.0),
    Unit("mV", "potential", 1.0),
    Unit("", "dimensionless", 1.0),
)
UNITS: dict[str, Unit] = {u.symbol: u for u in _CANONICAL}

# Spellings seen in published analyses -> canonical symbol. Keys are normalised by
# `_normalise` first (case folded, micro signs unified, spaces squeezed). The docs list them.
ALIASES: dict[str, str] = {
    "ug/l": "µg/l",
    "mcg/l": "µg/l",
    "µs/cm at 25 °c": "µS/cm",
    "µs/cm bei 25 °c": "µS/cm",
    "µs/cm (25 °c)": "µS/cm",
    "grad c": "°C",
    "°c": "°C",
    "c": "°C",
    "°dh": "°dH",
    "°d": "°dH",
    "dh": "°dH",
    "kbe/ml": "count/ml",
    "anzahl/ml": "count/ml",
    "/ml": "count/ml",
    "kbe/100 ml": "count/100 ml",
    "kbe/100ml": "count/100 ml",
    "anzahl/100 ml": "count/100 ml",
    "anzahl/100ml": "count/100 ml",
    "mpn/100 ml": "count/100 ml",
    "/100 ml": "count/100 ml",
    "/100ml": "count/100 ml",
    "count/100ml": "count/100 ml",
    "kbe/250 ml": "count/250 ml",
    "anzahl/250 ml": "count/250 ml",
    "pfu/100ml": "PFU/100 ml",
    "pbe/100 ml": "PFU/100 ml",
    "fnu": "NTU",
    "fne": "NTU",
    "ntu": "NTU",
    "1/m": "m-1",
    "m^-1": "m-1",
    "m⁻¹": "m-1",
    "bq/l": "Bq/l",
    "mbq/l": "mBq/l",
    "msv/a": "mSv/a",
    "msv/jahr": "mSv/a",
    "µsv/a": "µSv/a",
    "mg/l caco3": "mg/l CaCO3",
    "mg/l o2": "mg/l O2",
    "mv": "mV",
    "-": "",
    "ph": "",
    "ph units": "",
    "ph-einheiten": "",
    "ph-wert": "",
    "ohne": "",
}

# Hardness is also published as an amount of calcium carbonate (1 mmol/l = 5.6 °dH).
_CROSS: dict[tuple[str, str], float] = {
    ("mmol/l", "°dH"): 5.6,
    ("°dH", "mmol/l"): 1 / 5.6,
}


def _normalise(text: str) -> str:
    text = text.replace("\u03bc", "µ").replace("\u00a0", " ").strip()
    return re.sub(r"\s+", " ", text)


def canonical(text: str | None) -> str | None:
    """Return the canonical symbol for a unit spelling, or None if it is unknown."""
    if text is None:
        return ""
    norm = _normalise(text)
    if norm in UNITS:
        return norm
    folded = norm.casefold()
    for symbol in UNITS:
        if symbol.casefold() == folded:
            return symbol
    return ALIASES.get(folded)


def factor(from_unit: str | None, to_unit: str | None) -> float | None:
    """Return the factor that converts a value in `from_unit` to `to_unit`, or None."""
    a, b = canonical(from_unit), canonical(to_unit)
    if a is None or b is None:
        return None
    if a == b:
        return 1.0
    if (a, b) in _CROSS:
        return _CROSS[(a, b)]
    ua, ub = UNITS[a], UNITS[b]
    if ua.dimension != ub.dimension:
        return None
    return ua.factor / ub.factor


def factor_frame(pairs: pl.DataFrame, from_col: str, to_col: str) -> pl.DataFrame:
    """Add a `factor` column (Float64, null where no conversion is known) to distinct pairs.

    Called on the *distinct* (from, to) pairs of a table, so Python touches each pair of
    spellings once, never each measurement.
    """
    factors = [factor(a, b) for a, b in pairs.select(from_col, to_col).iter_rows()]
    return pairs.with_columns(pl.Series("factor", factors, dtype=pl.Float64))
