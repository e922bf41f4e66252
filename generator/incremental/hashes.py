"""Row hashes of frames: what the fingerprints (`generator.incremental.render_plan`) are made of.

Two independent 64-bit hashes per row make a 128-bit hash; a group's hash is the hash of
its rows' hashes in their order. Text held as `Enum` codes is hashed by its text, never by
its code: a code changes with the set of texts, the text does not.
"""

from __future__ import annotations

import hashlib

import polars as pl

from generator.frames import batches

SEEDS = (0x5EED, 0xC0FFEE)
"""Two independent 64-bit row hashes make a 128-bit fingerprint."""


def row_hash(columns: list[str] | None = None) -> list[pl.Expr]:
    """Return the two hashes (`_h0`, `_h1`) of each row of `columns` (all of them)."""
    row = pl.struct(columns or pl.all())
    return [row.hash(seed).alias(f"_h{i}") for i, seed in enumerate(SEEDS)]


def _text_hashes(frame: pl.DataFrame, seed: int) -> dict[str, pl.Series]:
    """Return the hash of every text of each `Enum` column of `frame`, by code.

    Hashing each distinct text once and gathering by code costs a fraction of turning ten
    million codes back into text. Once per seed: two texts whose hashes collide under one
    seed differ under the other.
    """
    return {
        name: pl.Series(dtype.categories).hash(seed)
        for name, dtype in frame.schema.items()
        if isinstance(dtype, pl.Enum)
    }


def _as_hashes(frame: pl.DataFrame, texts: dict[str, pl.Series]) -> pl.DataFrame:
    """Return `frame` with each `Enum` column as the hashes of its texts (`_text_hashes`)."""
    columns = []
    for name in frame.columns:
        column = frame.get_column(name)
        if name in texts and texts[name].is_empty():
            # No text at all: every cell is null, hashed as 0 (a gather of ten million nulls
            # took a tenth of a second).
            column = pl.zeros(frame.height, pl.UInt64, eager=True).alias(name)
        elif name in texts:
            column = texts[name].gather(column.to_physical()).fill_null(0).alias(name)
        columns.append(column)
    return pl.DataFrame(columns)


def per_zone(frame: pl.DataFrame, name: str) -> pl.DataFrame:
    """One hash per zone of the zone's rows in their order (order matters to the output).

    In runs of whole zones (`batches.per_run`): hashing all 10 million data points at
    once took more memory than the rest of the build.
    """
    if not frame["zone_id"].is_sorted():
        frame = frame.sort("zone_id", maintain_order=True)
    # The texts once, not once per run: the series has some 100,000 distinct texts.
    texts = [_text_hashes(frame, seed) for seed in SEEDS]

    def hashed(run: pl.DataFrame) -> pl.DataFrame:
        # Per run: the hashes of every text column of the whole series held 560 MB.
        hashes = run.select("zone_id").with_columns(
            _as_hashes(run, texts[i]).hash_rows(seed).alias(f"_h{i}")
            for i, seed in enumerate(SEEDS)
        )
        return grouped(hashes, "zone_id", name)

    return batches.per_run(frame, hashed)


def grouped(hashes: pl.DataFrame, key: str, name: str) -> pl.DataFrame:
    """Return one hash per `key` of its rows' hashes (`_h0`, `_h1`) in their order.

    Each seed's row hashes make one 64-bit hash of the group: 128 bits together.
    """
    group = [pl.col(f"_h{i}").hash(seed) for i, seed in enumerate(SEEDS)]
    return (
        hashes.group_by(key, maintain_order=True)
        .agg(pl.col("_h0"), pl.col("_h1"))
        .select(key, pl.concat_str(group, separator="-").alias(name))
    )


def joined(columns: list[str]) -> pl.Expr:
    """Return the hashes of `columns` as one text, `-` for a missing one."""
    return pl.concat_str([pl.col(c).cast(pl.String).fill_null("-") for c in columns], separator=":")


def frame_digest(frame: pl.DataFrame) -> str:
    """Hash a frame: its schema and every row."""
    hashes = frame.select(*row_hash()) if frame.width else pl.DataFrame()
    h = hashlib.sha256(str(frame.schema).encode())
    if hashes.width:
        # Polars' own IPC bytes: the build runs without numpy and pyarrow.
        h.update(hashes.write_ipc(None, compression="uncompressed").getvalue())
    return h.hexdigest()
