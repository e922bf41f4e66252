"""The rules that turn measured shares into the `plz_zones` table: confidence and rounding."""

from __future__ import annotations

import numpy as np
import polars as pl

# How well a zone's boundary is known, by where it comes from (docs/mapping.md says why).
CONFIDENCE = {"supplier": 0.9, "municipalities": 0.7, "operator": 0.5}
# Shares below this many times the minimum share get a lower confidence: they may be
# boundary noise that just missed the cut.
NEAR_MINIMUM = 4.0
DECIMALS = 6

COLUMNS = ["plz", "zone_id", "area_share", "confidence", "population_share", "boundary_source"]
STREET_COLUMNS = ["plz", "street", "zone_id", "length_share"]


def confidence(base: pl.Expr, share: pl.Expr, min_share: float) -> pl.Expr:
    """Return the confidence: the base value, lowered linearly near the minimum share.

    At the minimum share itself the base is halved; from NEAR_MINIMUM times the minimum on
    it is unchanged.
    """
    if min_share <= 0:
        return base.round(2)
    near = ((share - min_share) / ((NEAR_MINIMUM - 1) * min_share)).clip(0.0, 1.0)
    return (base * (0.5 + 0.5 * near)).round(2)


def rounded_shares(frame: pl.DataFrame, column: str, by: list[str]) -> pl.DataFrame:
    """Round a share column to 6 decimals so that no group's shares add up to more than 1.

    Rounding each share to nearest can push a sum such as 0.5000005 + 0.4999995 over 1.
    The largest-remainder method avoids that: every share is rounded down to a millionth,
    then the millionths the group's rounded total still lacks go to the shares that lost
    most. Each share stays within a millionth of its exact value.
    """
    scale = 10**DECIMALS
    units = pl.col(column) * scale
    floor = units.floor()
    total = units.sum().over(by).round().clip(upper_bound=scale)
    missing = total - floor.sum().over(by)
    # Ties go to the row that comes first, so the same input gives the same bytes.
    rank = (units - floor).rank("ordinal", descending=True).over(by)
    # polars divides by multiplying with 1e-6; round() gives the shortest decimal back
    rounded = ((floor + (rank <= missing).cast(pl.Float64)) / scale).round(DECIMALS)
    return frame.with_columns(
        pl.when(pl.col(column).is_null()).then(None).otherwise(rounded).alias(column)
    )


def base_confidence(source: np.ndarray, override: np.ndarray) -> np.ndarray:
    """Return each zone's confidence before the near-minimum rule: the override if given."""
    base = np.array([CONFIDENCE[s] for s in source.tolist()], dtype=np.float64)
    return np.where(np.isnan(override), base, override)
