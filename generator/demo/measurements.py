"""The measurements table: every data point, printed in its supplier's style, sorted."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from generator.demo.base import FIRST_YEAR, LAST_YEAR, Progress
from generator.demo.parameters import (
    ANNUAL,
    PARAMETERS,
    PESTICIDES,
    PFAS_4,
    PFAS_20,
    RANGE_PARAMS,
    ROUTINE,
    TEXTS,
    UNITS,
    P,
    Param,
    U,
)
from generator.demo.sampling import Events, draw_chemistry, draw_events
from generator.demo.spelling import (
    KIND_BELOW,
    KIND_NUMBER,
    KIND_TEXT,
    Styles,
    draw_styles,
    value_texts,
)
from generator.demo.suppliers import World


@dataclass
class Rows:
    """Columns of the numeric measurement table, collected parameter by parameter."""

    cols: dict[str, list[np.ndarray]]

    def add(self, **arrays: np.ndarray) -> None:
        """Append rows; columns not given take their neutral value."""
        n = len(arrays["ev"])
        defaults: dict[str, np.ndarray] = {
            "hi": np.full(n, -1, np.int64),
            "rl_m": np.zeros(n, np.int64),
            "rl_d": np.zeros(n, np.int8),
            "kind": np.zeros(n, np.int8),
            "below": np.zeros(n, np.int8),
            "text": np.zeros(n, np.int16),
            "foot": np.zeros(n, np.int8),
            "deg": np.zeros(n, np.bool_),
            "m": np.zeros(n, np.int64),
            "d": np.zeros(n, np.int8),
            "comma": np.ones(n, np.bool_),
        }
        for key, default in defaults.items():
            arrays.setdefault(key, default)
        for key, value in arrays.items():
            self.cols.setdefault(key, []).append(np.asarray(value).astype(_ROW_DTYPES[key]))


_ROW_DTYPES = {
    "ev": np.int32,
    "par": np.int16,
    "m": np.int64,
    "d": np.int8,
    "hi": np.int64,
    "rl_m": np.int64,
    "rl_d": np.int8,
    "kind": np.int8,
    "below": np.int8,
    "text": np.int16,
    "comma": np.bool_,
    "unit": np.int8,
    "foot": np.int8,
    "deg": np.bool_,
}


def _decimals_of(x: np.ndarray) -> np.ndarray:
    """Return the fewest decimals (0-6) that print each positive number exactly."""
    d = np.full(len(x), 6, np.int8)
    for k in range(6, -1, -1):
        exact = np.abs(x * 10**k - np.rint(x * 10**k)) < 1e-6
        d = np.where(exact, k, d)
    return d


def _numeric(
    rows: Rows,
    param: Param,
    ev: np.ndarray,
    native: np.ndarray,
    events: Events,
    st: Styles,
    rng: np.random.Generator,
    rl_native: np.ndarray | float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Add rows of one numeric parameter; return mantissa, decimals and detection mask."""
    s = events.supplier[ev]
    n = len(ev)
    scale = np.ones(n)
    extra_d = np.zeros(n, np.int64)
    if param.unit == "metal":
        unit = np.where(st.metal_mg[s], U["mg/l"], st.micro[s])
        scale, extra_d = np.where(st.metal_mg[s], 1e-3, 1.0), np.where(st.metal_mg[s], 3, 0)
    elif param.unit == "pfas":
        unit = np.where(st.pfas_ng[s], U["ng/l"], st.micro[s])
        scale, extra_d = np.where(st.pfas_ng[s], 1.0, 1e-3), np.where(st.pfas_ng[s], 0, 3)
    elif param.unit == "micro":
        unit = st.micro[s]
    elif param.unit == "ec":
        unit = np.where(st.ec_ms[s], U["mS/cm"], U["µS/cm"])
        scale, extra_d = np.where(st.ec_ms[s], 1e-3, 1.0), np.where(st.ec_ms[s], 3, 0)
    elif param.unit == "turbidity":
        unit = np.where(st.fnu[s], U["FNU"], U["NTU"])
    elif param.unit == "count100":
        unit = np.where(st.anzahl[s], U["Anzahl/100 ml"], U["KBE/100 ml"])
    else:
        unit = np.full(n, U[param.unit])
    comma = st.comma[s]
    value = native * scale
    d = np.minimum(param.decimals + extra_d, 5)
    # A dot before exactly three digits reads as a thousands separator (`1.234`), so
    # decimal-point suppliers print such values with two decimals.
    ambiguous = ~comma & (d == 3) & (value >= 1)
    d = np.where(ambiguous, 2, d)
    m = np.rint(value * 10.0**d).astype(np.int64)
    rl = param.rl if rl_native is None else rl_native
    rl_arr = np.broadcast_to(np.asarray(rl, dtype=np.float64), (n,))
    detected = (native >= rl_arr) | (rl_arr <= 0)
    rl_pub = rl_arr * scale
    rl_d = _decimals_of(np.where(rl_pub > 0, rl_pub, 1.0))
    rl_m = np.rint(rl_pub * 10.0**rl_d).astype(np.int64)
    kind = np.where(detected, KIND_NUMBER, KIND_BELOW)
    foot = np.where(detected & (rng.random(n) < st.footnote_rate[s]), st.footnote[s], 0)
    hi = np.full(n, -1, np.int64)
    if param.code in RANGE_PARAMS:
        ranged = st.ranges[s] & (rng.random(n) < 0.4)
        hi = np.where(ranged, np.rint(m * rng.uniform(1.05, 1.3, n)).astype(np.int64), -1)
    rows.add(
        ev=ev, par=np.full(n, P[param.code]), m=m, d=d, hi=hi, rl_m=rl_m, rl_d=rl_d, kind=kind,
        below=st.below[s], comma=comma, unit=unit, foot=foot,
        deg=(st.deg_suffix[s] if param.code == "temperatur" else np.zeros(n, np.bool_)),
    )  # fmt: skip
    return m, d, detected


def draw_measurements(
    rng: np.random.Generator, world: World, documents: pl.DataFrame, report: Progress
) -> pl.DataFrame:
    """Generate every data point, format it like a supplier would, and sort."""
    events = draw_events(rng, world)
    ns = world.suppliers.height
    st = draw_styles(rng, ns)
    chem = draw_chemistry(rng, world)
    report(f"events: {len(events.day):,}")
    rows = Rows({})
    n_ev = len(events.day)
    all_ev = np.arange(n_ev)
    annual = np.flatnonzero(events.first)
    zone = events.zone
    # One mineral factor per event keeps ions, hardness and conductivity of a sample
    # consistent with each other.
    mineral = np.exp(rng.normal(0, 0.06, n_ev))

    def ion(code: str, ev: np.ndarray) -> np.ndarray:
        values: np.ndarray = chem[code][zone[ev]] * mineral[ev]
        return values

    def noisy(code: str, ev: np.ndarray, sigma: float) -> np.ndarray:
        values: np.ndarray = chem[code][zone[ev]] * np.exp(rng.normal(0, sigma, len(ev)))
        return values

    params = {p.code: p for p in ROUTINE + ANNUAL}
    # Routine parameters: every sampling event.
    ev = all_ev
    # Faecal indicators are almost never found; coliforms depend on the network.
    for code, p_found in (("e_coli", 0.002), ("enterokokken", 0.001),
                          ("coliforme_bakterien", chem["coliform_risk"][zone[ev]])):  # fmt: skip
        positive = rng.random(len(ev)) < p_found
        value = np.where(positive, 1 + rng.poisson(1.2, len(ev)), 0).astype(np.float64)
        _numeric(rows, params[code], ev, value, events, st, rng)
    for code, median in (("koloniezahl_22", 2.0), ("koloniezahl_36", 0.8)):
        value = np.floor(median * np.exp(rng.normal(0, 1.2, len(ev))))
        _numeric(rows, params[code], ev, value.clip(0, 5000), events, st, rng)
    season = np.sin(2 * np.pi * (events.doy - 110) / 365.25)
    temp = chem["temperatur"][zone] + chem["temp_amplitude"][zone] * season
    temp = (temp + rng.normal(0, 0.6, n_ev)).clip(3, 24)
    _numeric(rows, params["temperatur"], ev, temp, events, st, rng)
    ph = chem["ph_wert"][zone] + rng.normal(0, 0.06, n_ev)
    _numeric(rows, params["ph_wert"], ev, ph, events, st, rng)
    hardness = ion("calcium", ev) / 7.147 + ion("magnesium", ev) / 4.336
    _numeric(rows, params["gesamthaerte"], ev, hardness, events, st, rng)
    ec = 2.0 * sum(
        ion(c, ev)
        for c in ("calcium", "magnesium", "natrium", "kalium", "chlorid", "sulfat", "nitrat")
    ) + 0.8 * ion("hydrogencarbonat", ev)
    _numeric(rows, params["elektrische_leitfaehigkeit"], ev, ec, events, st, rng)
    _numeric(rows, params["truebung"], ev, noisy("truebung", ev, 0.5), events, st, rng)
    nitrate = chem["nitrat"][zone] * np.exp(rng.normal(0, 0.12, n_ev))
    _numeric(rows, params["nitrat"], ev, nitrate, events, st, rng)
    chlor_ev = np.flatnonzero(chem["chlorinated"][zone] > 0)
    _numeric(rows, params["freies_chlor"], chlor_ev, noisy("freies_chlor", chlor_ev, 0.3),
             events, st, rng)  # fmt: skip
    report(f"routine parameters: {sum(len(a) for a in rows.cols['ev']):,} rows")

    # Annual analysis: the first sampling event of every year.
    ev = annual
    for code in ("calcium", "magnesium", "natrium", "chlorid", "sulfat", "hydrogencarbonat"):
        _numeric(rows, params[code], ev, ion(code, ev), events, st, rng)
    _numeric(rows, params["kalium"], ev, ion("kalium", ev), events, st, rng)
    ks = ion("hydrogencarbonat", ev) / 61.02
    _numeric(rows, params["saeurekapazitaet_ks43"], ev, ks, events, st, rng)
    _numeric(rows, params["sauerstoff"], ev, noisy("sauerstoff", ev, 0.05), events, st, rng)
    for code, sigma in (("nitrit", 0.6), ("fluorid", 0.1), ("eisen", 0.7), ("mangan", 0.7),
                        ("blei", 0.5), ("kupfer", 0.5), ("nickel", 0.4), ("arsen", 0.2),
                        ("uran", 0.2), ("chrom", 0.3)):  # fmt: skip
        _numeric(rows, params[code], ev, noisy(code, ev, sigma), events, st, rng)
    # Colour: numeric absorption, or just `farblos` from suppliers that print words.
    worded = st.farblos[events.supplier[ev]]
    _numeric(rows, params["faerbung"], ev[~worded], noisy("faerbung", ev[~worded], 0.4),
             events, st, rng)  # fmt: skip
    n_w = int(worded.sum())
    rows.add(
        ev=ev[worded],
        par=np.full(n_w, P["faerbung"]),
        kind=np.full(n_w, KIND_TEXT),
        text=np.full(n_w, TEXTS.index("farblos")),
        unit=np.full(n_w, U["m-1"]),
    )
    ox = ev[chem["oxid_program"][zone[ev]] > 0]
    _numeric(rows, params["oxidierbarkeit"], ox, noisy("oxidierbarkeit", ox, 0.2), events, st, rng)
    rad = ev[(chem["radon_program"][zone[ev]] > 0) & ((events.year[ev] + zone[ev]) % 3 == 0)]
    _numeric(rows, params["radon_222"], rad, noisy("radon_222", rad, 0.2), events, st, rng)
    # Pesticides every second year.
    pest = ev[(events.year[ev] + zone[ev]) % 2 == 0]
    for code in PESTICIDES:
        _numeric(rows, params[code], pest, noisy(code, pest, 0.4), events, st, rng)
    # Verbal findings.
    s = events.supplier[ev]
    n = len(ev)
    unitless = np.full(n, U[""])
    rows.add(ev=ev, par=np.full(n, P["geruch"]), kind=np.full(n, KIND_TEXT), text=st.words[s],
             unit=unitless)  # fmt: skip
    rows.add(ev=ev, par=np.full(n, P["geschmack"]), kind=np.full(n, KIND_TEXT),
             text=4 + st.words[s], unit=unitless)  # fmt: skip
    hb = chem["calcium"][zone[ev]] / 7.147 + chem["magnesium"][zone[ev]] / 4.336
    band = np.where(hb < 8.4, 0, np.where(hb <= 14.0, 1, 2))
    rows.add(ev=ev, par=np.full(n, P["haertebereich"]), kind=np.full(n, KIND_TEXT),
             text=8 + band + 3 * st.hardness_words[s], unit=unitless)  # fmt: skip
    report(f"annual parameters: {sum(len(a) for a in rows.cols['ev']):,} rows")

    _pfas(rows, rng, events, st, chem, annual)
    report(f"pfas: {sum(len(a) for a in rows.cols['ev']):,} rows")

    return _assemble(rows, events, world, documents, report)


def _pfas(
    rows: Rows,
    rng: np.random.Generator,
    events: Events,
    st: Styles,
    chem: dict[str, np.ndarray],
    annual: np.ndarray,
) -> None:
    """Add the 20 PFAS and both sums, each sum the total of the quantified singles."""
    ev = annual[events.year[annual] >= st.pfas_start[events.supplier[annual]]]
    zone = events.zone[ev]
    s = events.supplier[ev]
    common = np.exp(rng.normal(0, 0.15, len(ev)))
    rl = st.pfas_rl[s]
    m_sum20 = np.zeros(len(ev), np.int64)
    m_sum4 = np.zeros(len(ev), np.int64)
    d = None
    for code in PFAS_20:
        native = chem[code][zone] * common * np.exp(rng.normal(0, 0.25, len(ev)))
        param = Param(code, "pfas", 1)
        m, d, detected = _numeric(rows, param, ev, native, events, st, rng, rl_native=rl)
        m_sum20 += np.where(detected, m, 0)
        if code in PFAS_4:
            m_sum4 += np.where(detected, m, 0)
    assert d is not None
    for code, m_sum in (("pfas_summe_20", m_sum20), ("pfas_summe_4", m_sum4)):
        # Sums are built from the printed singles, so they inherit their unit and decimals.
        scale = np.where(st.pfas_ng[s], 1.0, 1e-3)
        rl_pub = rl * scale
        rl_d = _decimals_of(rl_pub)
        n = len(ev)
        rows.add(
            ev=ev, par=np.full(n, P[code]), m=m_sum, d=d,
            rl_m=np.rint(rl_pub * 10.0**rl_d).astype(np.int64), rl_d=rl_d,
            kind=np.where(m_sum > 0, KIND_NUMBER, KIND_BELOW), below=st.below[s],
            comma=st.comma[s], unit=np.where(st.pfas_ng[s], U["ng/l"], st.micro[s]),
        )  # fmt: skip


def _assemble(
    rows: Rows, events: Events, world: World, documents: pl.DataFrame, report: Progress
) -> pl.DataFrame:
    """Print the values, sort, and attach zone, date, document and sample point."""
    cols = {key: np.concatenate(parts) for key, parts in rows.cols.items()}
    rows.cols.clear()
    text_id, dictionary = value_texts(cols)
    report(f"formatted {len(dictionary):,} distinct values")
    ev, par, unit = cols["ev"], cols["par"], cols["unit"]
    del cols
    first_day = int(events.day.min())
    span = int(events.day.max()) - first_day + 1
    key = (
        events.zone[ev].astype(np.int64) * (len(PARAMETERS) * span)
        + par.astype(np.int64) * span
        + (events.day[ev] - first_day)
    )
    order = np.argsort(key)
    del key
    ev, par, unit, text_id = ev[order], par[order], unit[order], text_id[order]
    del order
    report("sorted")
    doc_index = events.supplier[ev] * (LAST_YEAR - FIRST_YEAR + 1) + (events.year[ev] - FIRST_YEAR)
    result = pl.DataFrame(
        [
            pl.Series("zone_id", events.zone[ev] + 1, dtype=pl.Int64),
            pl.Series(PARAMETERS).gather(par).alias("parameter"),
            pl.Series("sampled_at", events.day[ev], dtype=pl.Int32).cast(pl.Date),
            dictionary.gather(text_id).alias("value_text"),
            pl.Series(UNITS).gather(unit).alias("unit"),
            documents["document_id"].gather(doc_index).alias("document_id"),
            world.sample_points.gather(events.point[ev]).alias("sample_point"),
        ]
    )
    report("assembled")
    return result
