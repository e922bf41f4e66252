"""Documents: one published report per supplier and year, which every value cites."""

from __future__ import annotations

from datetime import date

import numpy as np
import polars as pl

from generator.demo.base import FIRST_YEAR, LAST_YEAR, PARTIAL_END, days, pick
from generator.demo.suppliers import World

TITLES = (
    # (title pattern, id word, url path pattern)
    ("Trinkwasseranalyse {}", "trinkwasseranalyse", "/trinkwasser/analyse-{}.pdf"),
    ("Trinkwasserqualität {}", "qualitaet", "/fileadmin/downloads/trinkwasserqualitaet_{}.pdf"),
    ("Analysenwerte Trinkwasser {}", "analysenwerte", "/media/analysenwerte-{}.pdf"),
    ("Jahresbericht Trinkwasser {}", "jahresbericht", "/service/wasser/jahresbericht-{}.pdf"),
)


def draw_documents(rng: np.random.Generator, world: World) -> pl.DataFrame:
    """Write one report per supplier and year, published after the year's last sample."""
    ns = world.suppliers.height
    years = np.arange(FIRST_YEAR, LAST_YEAR + 1)
    ny = len(years)
    sup = np.repeat(np.arange(ns), ny)
    year = np.tile(years, ns)
    style = np.repeat(pick(rng, [0.4, 0.25, 0.2, 0.15], ns), ny)
    next_jan1 = np.array([days(date(int(y) + 1, 1, 1)) for y in years])[year - FIRST_YEAR]
    # Annual reports appear in the first months of the next year; the running year gets a
    # half-year report in summer.
    edition = np.where(
        year == LAST_YEAR,
        days(PARTIAL_END) + rng.integers(3, 60, size=len(year)),
        next_jan1 + rng.integers(14, 120, size=len(year)),
    )
    retrieved = edition + rng.integers(1, 12, size=len(year))
    frame = pl.DataFrame(
        {
            "sid": (sup + 1).astype(np.int64),
            "_year": year.astype(np.int32),
            "style": style,
            "edition": edition.astype(np.int32),
            "retrieved": retrieved.astype(np.int32),
            "base": world.base_url.gather(sup),
        }
    )
    label = (
        pl.when(pl.col("_year") == LAST_YEAR)
        .then(pl.format("{}-h1", pl.col("_year")))
        .otherwise(pl.col("_year").cast(pl.String))
    )
    title_label = (
        pl.when(pl.col("_year") == LAST_YEAR)
        .then(pl.format("1. Halbjahr {}", pl.col("_year")))
        .otherwise(pl.col("_year").cast(pl.String))
    )
    title = id_word = path = pl.lit(None, dtype=pl.String)
    for i, (t_pattern, word, p_pattern) in enumerate(TITLES):
        here = pl.col("style") == i
        title = pl.when(here).then(pl.format(t_pattern, title_label)).otherwise(title)
        id_word = pl.when(here).then(pl.lit(word)).otherwise(id_word)
        path = pl.when(here).then(pl.format(p_pattern, label)).otherwise(path)
    return frame.select(
        pl.format("wv{}-{}-{}", pl.col("sid"), id_word, label).alias("document_id"),
        pl.col("sid").alias("supplier_id"),
        title.alias("title"),
        pl.concat_str(pl.col("base"), path).alias("url"),
        pl.col("edition").cast(pl.Date).alias("edition_date"),
        pl.col("retrieved").cast(pl.Date).alias("retrieved_date"),
        "_year",
    )
