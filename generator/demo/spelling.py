"""How suppliers print values: each supplier's house style, and the printed texts."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from generator.demo.base import pick
from generator.demo.parameters import BELOW_STYLES, FOOTNOTES, MICRO_UNITS, TEXTS

# What a measurement row holds: a number, "below the reporting limit", or a verbal finding.
KIND_NUMBER, KIND_BELOW, KIND_TEXT = 0, 1, 2
# Suppliers started publishing PFAS in one of these years (part of their house style).
PFAS_START_YEARS = (2020, 2021, 2022, 2023)


@dataclass
class Styles:
    """House style of every supplier: how it prints numbers, limits and units."""

    comma: np.ndarray
    below: np.ndarray
    pfas_ng: np.ndarray
    micro: np.ndarray
    metal_mg: np.ndarray
    ec_ms: np.ndarray
    fnu: np.ndarray
    anzahl: np.ndarray
    deg_suffix: np.ndarray
    footnote: np.ndarray
    footnote_rate: np.ndarray
    ranges: np.ndarray
    words: np.ndarray
    farblos: np.ndarray
    hardness_words: np.ndarray
    pfas_rl: np.ndarray
    pfas_start: np.ndarray


def draw_styles(rng: np.random.Generator, ns: int) -> Styles:
    """Draw a house style per supplier."""
    has_notes = rng.random(ns) < 0.3
    return Styles(
        comma=rng.random(ns) < 0.88,
        below=pick(rng, [0.4, 0.15, 0.15, 0.15, 0.07, 0.08], ns),
        pfas_ng=rng.random(ns) < 0.55,
        micro=MICRO_UNITS[pick(rng, [0.8, 0.1, 0.1], ns)],
        metal_mg=rng.random(ns) < 0.35,
        ec_ms=rng.random(ns) < 0.1,
        fnu=rng.random(ns) < 0.4,
        anzahl=rng.random(ns) < 0.2,
        deg_suffix=rng.random(ns) < 0.2,
        footnote=1 + pick(rng, [1, 1, 1, 1], ns),
        footnote_rate=np.where(has_notes, rng.uniform(0.005, 0.03, ns), 0.0),
        ranges=rng.random(ns) < 0.08,
        words=pick(rng, [0.4, 0.3, 0.2, 0.1], ns),
        farblos=rng.random(ns) < 0.25,
        hardness_words=rng.random(ns) < 0.3,
        pfas_rl=np.array([0.5, 1.0, 1.0, 1.0, 2.0])[pick(rng, [1, 1, 1, 1, 1], ns)],
        pfas_start=np.array(PFAS_START_YEARS)[pick(rng, [0.5, 0.2, 0.2, 0.1], ns)],
    )


def _fmt(m: pl.Expr, d: pl.Expr, comma: pl.Expr) -> pl.Expr:
    """Format mantissa `m` with `d` decimals, German style where `comma`."""
    scale = pl.lit(10, dtype=pl.Int64).pow(d.cast(pl.Int64))
    whole = m // scale
    frac = (m % scale).cast(pl.String).str.zfill(d.cast(pl.Int64))
    grouped = (
        pl.when(comma & (whole >= 1000))
        .then(
            pl.concat_str(
                (whole // 1000).cast(pl.String),
                pl.lit("."),
                (whole % 1000).cast(pl.String).str.zfill(3),
            )
        )
        .otherwise(whole.cast(pl.String))
    )
    sep = pl.when(comma).then(pl.lit(",")).otherwise(pl.lit("."))
    return pl.when(d > 0).then(pl.concat_str(grouped, sep, frac)).otherwise(grouped)


def _unpack(keys: np.ndarray, widths: tuple[int, ...]) -> list[np.ndarray]:
    """Split packed integer keys into fields (first field unbounded, others `widths`)."""
    fields = []
    for width in reversed(widths):
        keys, field = np.divmod(keys, width)
        fields.append(field)
    return [keys, *reversed(fields)]


def _pack(fields: list[np.ndarray], widths: tuple[int, ...]) -> np.ndarray:
    """Pack integer fields into one int64 key (inverse of `_unpack`)."""
    key = fields[0].astype(np.int64)
    for field, width in zip(fields[1:], widths, strict=True):
        key = key * width + field.astype(np.int64)
    return key


def value_texts(cols: dict[str, np.ndarray]) -> tuple[np.ndarray, pl.Series]:
    """Return for every row an index into a dictionary of printed values, and the dictionary.

    Millions of rows share a few hundred thousand distinct printed values (`< 0,001`, `0`),
    so each distinct value is formatted once and rows only carry its index.
    """
    kind = cols["kind"]
    ids = np.empty(len(kind), np.int64)
    parts: list[pl.Series] = []
    offset = 0

    def add(mask: np.ndarray, inverse: np.ndarray, texts: pl.Series) -> None:
        nonlocal offset
        ids[mask] = offset + inverse.astype(np.int64)
        parts.append(texts)
        offset += len(texts)

    number = (kind == KIND_NUMBER) & (cols["hi"] < 0)
    widths: tuple[int, ...] = (8, 2, len(FOOTNOTES), 2)
    fields = [cols[c][number] for c in ("m", "d", "comma", "foot", "deg")]
    uniq, inverse = np.unique(_pack(fields, widths), return_inverse=True)
    m, d, cm, foot, deg = _unpack(uniq, widths)
    texts = pl.select(
        pl.concat_str(
            _fmt(pl.lit(pl.Series(m)), pl.lit(pl.Series(d)), pl.lit(pl.Series(cm == 1))),
            pl.when(pl.lit(pl.Series(deg == 1))).then(pl.lit(" °C")).otherwise(pl.lit("")),
            pl.lit(pl.Series(FOOTNOTES).gather(foot)),
        )
    ).to_series()
    add(number, inverse, texts)

    # Ranges are rare; they are formatted row by row (still vectorised).
    ranged = (kind == KIND_NUMBER) & (cols["hi"] >= 0)
    sub = pl.DataFrame({c: cols[c][ranged] for c in ("m", "hi", "d", "comma")})
    texts = sub.select(
        pl.concat_str(
            _fmt(pl.col("m"), pl.col("d"), pl.col("comma")),
            pl.lit(" - "),
            _fmt(pl.col("hi"), pl.col("d"), pl.col("comma")),
        )
    ).to_series()
    add(ranged, np.arange(len(texts)), texts)

    below = kind == KIND_BELOW
    widths = (8, 2, len(BELOW_STYLES))
    fields = [cols[c][below] for c in ("rl_m", "rl_d", "comma", "below")]
    uniq, inverse = np.unique(_pack(fields, widths), return_inverse=True)
    rl_m, rl_d, cm, style = _unpack(uniq, widths)
    small = pl.DataFrame({"rl_m": rl_m, "rl_d": rl_d, "comma": cm == 1, "below": style})
    limit = _fmt(pl.col("rl_m"), pl.col("rl_d"), pl.col("comma"))
    text = pl.lit(None, dtype=pl.String)
    for i, pattern in enumerate(BELOW_STYLES):
        before, brace, after = pattern.partition("{}")
        value = pl.concat_str(pl.lit(before), limit, pl.lit(after)) if brace else pl.lit(pattern)
        text = pl.when(pl.col("below") == i).then(value).otherwise(text)
    add(below, inverse, small.select(text).to_series())

    words = kind == KIND_TEXT
    add(words, cols["text"][words], pl.Series(TEXTS))
    return ids, pl.concat(parts)
