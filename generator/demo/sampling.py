"""When each zone is sampled and what its water is like (native units, before printing)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np

from generator.demo.base import FIRST_YEAR, LAST_YEAR, PARTIAL_END, days, pick
from generator.demo.parameters import PESTICIDES, PFAS_4, PFAS_20, PFAS_PROFILE
from generator.demo.suppliers import World


@dataclass
class Events:
    """Sampling events: one row per zone and sampling date."""

    zone: np.ndarray
    supplier: np.ndarray
    year: np.ndarray
    day: np.ndarray
    """Days since 1970-01-01."""
    doy: np.ndarray
    first: np.ndarray
    """True for the year's first event, which carries the full annual analysis."""
    point: np.ndarray
    """Index into World.sample_points."""


def draw_events(rng: np.random.Generator, world: World) -> Events:
    """Draw 1-4 sampling dates per zone and year, in separate windows of the year."""
    nz = len(world.zone_supplier)
    years = np.arange(FIRST_YEAR, LAST_YEAR + 1)
    per_year = 1 + pick(rng, [0.2, 0.6, 0.12, 0.08], nz)
    zy_zone = np.repeat(np.arange(nz), len(years))
    zy_year = np.tile(years, nz)
    partial = zy_year == LAST_YEAR
    k = np.where(partial, (per_year[zy_zone] + 1) // 2, per_year[zy_zone])
    jan1 = np.array([days(date(int(y), 1, 1)) for y in years])[zy_year - FIRST_YEAR]
    length = np.where(
        partial,
        days(PARTIAL_END) - jan1 + 1,
        np.array([days(date(int(y) + 1, 1, 1)) for y in years])[zy_year - FIRST_YEAR] - jan1,
    )
    ev_zy = np.repeat(np.arange(len(k)), k)
    j = np.arange(len(ev_zy)) - np.repeat(np.cumsum(k) - k, k)
    width = length[ev_zy] / k[ev_zy]
    # Stay 3 days clear of the window's end so moving a weekend date to Monday keeps the
    # dates of one zone distinct and inside the year.
    offset = np.floor(j * width + rng.random(len(ev_zy)) * (width - 3)).astype(np.int64)
    day = jan1[ev_zy] + offset
    weekday = (day + 3) % 7  # 1970-01-01 was a Thursday; Monday = 0
    day = day + np.where(weekday == 5, 2, np.where(weekday == 6, 1, 0))
    zone = zy_zone[ev_zy]
    year = zy_year[ev_zy]
    second = (j + year) % 2 == 1
    point = 2 * zone + second.astype(np.int64)
    # Zones with one published sample point always use it.
    has_b = world.sample_points.is_not_null().to_numpy()[2 * zone + 1]
    point = np.where(has_b, point, 2 * zone)
    return Events(
        zone=zone,
        supplier=world.zone_supplier[zone],
        year=year,
        day=day,
        doy=day - jan1[ev_zy],
        first=j == 0,
        point=point,
    )


def draw_chemistry(rng: np.random.Generator, world: World) -> dict[str, np.ndarray]:
    """Draw each zone's typical water: geology-driven hardness, nitrate, traces, PFAS.

    In native units: mg/l; µg/l for metals and pesticides; ng/l for PFAS.
    """
    nz = len(world.zone_supplier)
    lat, lon = world.zone_lat, world.zone_lon

    def ln(median: float, sigma: float) -> np.ndarray:
        return median * np.exp(rng.normal(0, sigma, nz))

    # Smooth regional pattern: karst and limestone in the south, soft water in the
    # northern lowlands and the low mountain ranges.
    region = 0.25 * (50.8 - lat) + 0.35 * np.sin(lat * 2.1 + lon * 0.8) + 0.25 * np.cos(lon * 1.4)
    b: dict[str, np.ndarray] = {}
    b["calcium"] = (70 * np.exp(0.45 * region + rng.normal(0, 0.35, nz))).clip(6, 240)
    b["magnesium"] = (b["calcium"] * 0.17 * np.exp(rng.normal(0, 0.35, nz))).clip(0.8, 60)
    b["natrium"] = ln(14, 0.6).clip(2, 180)
    b["kalium"] = ln(2.2, 0.5).clip(0.3, 20)
    b["chlorid"] = (b["natrium"] * 1.5 * np.exp(rng.normal(0, 0.3, nz))).clip(3, 240)
    b["sulfat"] = ln(40, 0.7).clip(3, 240)
    b["hydrogencarbonat"] = (b["calcium"] * 2.6 * np.exp(rng.normal(0, 0.2, nz))).clip(10, 600)
    agriculture = 0.3 * np.sin(lon * 3.1 - lat * 1.7)
    b["nitrat"] = (14 * np.exp(agriculture + rng.normal(0, 0.55, nz))).clip(0.3, 95)
    b["sauerstoff"] = (9 + rng.normal(0, 1.2, nz)).clip(4, 12)
    b["ph_wert"] = (7.55 + 0.15 * region + rng.normal(0, 0.25, nz)).clip(6.7, 8.5)
    b["temperatur"] = (11 + rng.normal(0, 1.8, nz)).clip(6, 17)
    b["temp_amplitude"] = rng.uniform(0.5, 5.0, nz)
    b["truebung"] = ln(0.06, 0.6)
    b["nitrit"] = ln(0.004, 0.9)
    b["fluorid"] = ln(0.12, 0.6).clip(0.02, 1.4)
    b["eisen"] = ln(0.006, 1.0)
    b["mangan"] = ln(0.002, 1.0)
    b["faerbung"] = ln(0.06, 0.6)
    b["oxidierbarkeit"] = ln(0.8, 0.5)
    b["radon_222"] = ln(7, 0.9)
    b["freies_chlor"] = ln(0.12, 0.4)
    b["blei"] = ln(0.3, 0.9)
    b["kupfer"] = ln(25, 0.9)
    b["nickel"] = ln(0.8, 0.8)
    b["arsen"] = ln(0.5, 0.9)
    b["uran"] = ln(0.4, 1.1)
    b["chrom"] = ln(0.3, 0.8)
    b["coliform_risk"] = ln(0.01, 0.8).clip(0, 0.2)
    for i, code in enumerate(PESTICIDES):
        # Atrazine's metabolite and a few herbicides still turn up in farming regions.
        median = 0.004 if code in ("desethylatrazin", "metolachlor", "bentazon") else 0.001
        b[code] = median * np.exp(0.4 * agriculture + rng.normal(0, 1.1 + 0.02 * i, nz))
    # PFAS: the four regulated long chains and the rest vary independently (sources differ:
    # firefighting foam, industry, sewage-influenced bank filtrate).
    load4 = ln(2.2, 1.5)
    load16 = ln(3.3, 1.4)
    for code in PFAS_20:
        load = load4 if code in PFAS_4 else load16
        b[code] = load * PFAS_PROFILE[code] * np.exp(rng.normal(0, 0.5, nz))
    b["chlorinated"] = (rng.random(nz) < 0.15).astype(np.float64)
    b["oxid_program"] = (rng.random(nz) < 0.4).astype(np.float64)
    b["radon_program"] = (rng.random(nz) < 0.25).astype(np.float64)
    return b
