"""The zones' source prints: a hash of each zone's own data, the rows it was built from.

A zone's source print hashes its measurement rows as the loader hands them on and the rows
of the documents they cite (`source_prints`). Hashing all ten million rows is most of what
a daily update does, and an import changes few of them: it appends a publication as a row
group of its own and leaves the earlier row groups byte for byte as they were
(`generator.contract.memo.write_appended`). So a build notes the row groups of the series
it hashed (`Basis`, kept with the fingerprints), and the next build hashes again only the
zones with rows in row groups that are new since (`touched`). Every other zone's rows are
the same rows in the same order, so its hash of them is the previous one; which documents
it cites is the previous build's too, and they are hashed again in any case (a title may
have changed).

The previous prints are used only when every row group they were made of is still there,
in the same order, and the code that made them is this build's; otherwise every zone is
hashed. Tests compare both ways over random edits of the row groups.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from generator.contract import check, memo, read
from generator.contract.tables import MEASUREMENTS
from generator.frames import batches
from generator.frames.compact import as_text
from generator.frames.slices import rows_of
from generator.incremental.hashes import joined, per_zone, row_hash
from generator.output.state import Basis


def basis(data_dir: Path, code: str) -> Basis | None:
    """Return the basis of prints made now; None when the series is not one Parquet file."""
    files = read.candidates(Path(data_dir), MEASUREMENTS.name)
    if len(files) != 1 or files[0].suffix != ".parquet":
        return None
    try:
        schema, groups = memo.digests(files[0])
    except Exception:  # noqa: BLE001 - an unreadable file is the loader's to report
        return None
    return Basis(code, schema, groups, files[0])


def touched(before: Basis, now: Basis) -> pl.Series | None:
    """Return the zones with rows in row groups of `now` that `before` did not have.

    None when the prints of `before` cannot be taken: other code or schema, a row group of
    `before` gone or moved, or a row group twice in a file (its rows then have no one place).
    Asked before the load: the caller checks that the file is still `now` after it.
    """
    if (before.code, before.schema) != (now.code, now.schema):
        return None
    old, new = [d for d, _ in before.groups], [d for d, _ in now.groups]
    hashed = set(old)
    if len(hashed) != len(old) or len(set(new)) != len(new):
        return None
    if [d for d in new if d in hashed] != old:
        return None
    offset, parts = 0, [pl.Series("zone_id", [], pl.Int64)]
    try:
        for digest, n in now.groups:
            if digest not in hashed:
                rows = read.parquet_rows(now.path, offset, n)
                rows = rows.rename({c: c.strip() for c in rows.columns})
                zones = check.typed(rows.get_column("zone_id"), MEASUREMENTS, "zone_id")
                parts.append(zones.cast(pl.Int64).alias("zone_id"))
            offset += n
    except Exception:  # noqa: BLE001 - an unreadable file is the loader's to report
        return None
    return pl.concat(parts)


@dataclass(frozen=True)
class Known:
    """The previous build's prints and what the zones' rows kept of them (`touched`)."""

    touched: pl.Series
    """The zones whose rows are to be hashed again."""
    sources: pl.DataFrame
    """`zone_id` and `source` of every zone of the previous build."""
    pairs: pl.LazyFrame
    """`zone_id` and `document_id` of each document a zone's series cites, previous build."""


def source_prints(
    measurements: pl.DataFrame, documents: pl.DataFrame, known: Known | None = None
) -> pl.DataFrame:
    """Return `zone_id` and `source` for every zone with measurements, sorted by zone.

    A hash of the zone's measurement rows as read and of the rows of the documents they
    cite: all of a zone's own data that derive reads (`generator.incremental.reuse`) and its files
    show. `measurements` as the loader hands them on, sorted by zone. With `known`, only
    the touched zones' rows are hashed; the other zones' hashes of rows are the previous.
    """
    docs = documents.select("document_id", *(h.alias(f"_doc{i}") for i, h in enumerate(row_hash())))
    series = measurements.select(MEASUREMENTS.names)
    ids = series.get_column("zone_id")
    kept = None
    if known is not None:
        touched = known.touched.cast(ids.dtype).unique().sort()
        again = touched.implode()
        kept = (
            known.sources.filter(pl.col("source").is_not_null() & ~pl.col("zone_id").is_in(again))
            .select("zone_id", pl.col("source").str.split(":").list.first().alias("_series"))
            .cast({"zone_id": ids.dtype})
        )
        series = rows_of(series, "zone_id", touched)  # sorted by zone: a search per zone
    pairs = as_text(batches.per_run(series.select("zone_id", "document_id"), pl.DataFrame.unique))
    hashed = per_zone(series, "_series")
    if kept is not None and known is not None:
        taken = (
            known.pairs.select("zone_id", "document_id")
            .filter(pl.col("zone_id").is_in(kept.get_column("zone_id").implode()))
            .collect()
        )
        pairs = pl.concat([taken.cast(pairs.schema), pairs])
        hashed = pl.concat([kept, hashed]).sort("zone_id")
    cited = pairs.sort("zone_id", "document_id").join(
        docs, on="document_id", how="left", maintain_order="left"
    )
    return hashed.join(
        per_zone(cited, "_cited"), on="zone_id", how="left", maintain_order="left"
    ).select("zone_id", joined(["_series", "_cited"]).alias("source"))
