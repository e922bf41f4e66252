"""What a build takes from the previous build's derivation: the rows of unchanged zones.

A zone's current values, its summary and its checks follow from the zone's own data (its
measurement rows and the documents they cite: its `source` print,
`generator.source_prints`) and from what every zone shares: the code, the settings and
the date, and every other source table (`derive_key`). When the key is the previous
build's, a zone whose source print is the previous one's takes those rows from
`build-state/`; only the other zones are derived again. A change of any shared table (a
zone's name or PLZ, a limit, a supplier) derives every zone. Tests compare the trees of
builds that took rows with full builds, byte for byte.

The rows are written after the tree is published and before the zones' state
(`incremental.write_state`), whose presence says they belong to the tree beside them.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from generator.beside import state_dir
from generator.contract.tables import ALL_TABLES, DOCUMENTS, MEASUREMENTS
from generator.derive import Derived, Kept
from generator.hashes import frame_digest
from generator.incremental import State
from generator.load import SourceData
from generator.source_prints import Known
from generator.write import Prepared, prepare_again

VALUES = "current_values.arrow"
"""Arrow IPC, zstd: a million rows of nested limits read in half the time Parquet takes."""
ZONE_ROWS = "zone_rows.parquet"
ZONE_DOCUMENTS = "zone_documents.parquet"
ZONE_COLUMNS = ["zone_id", "summary", "checks"]
"""The columns of `Derived.zones` that follow from the zone's own data."""
SHARED = [t.name for t in ALL_TABLES if t not in (MEASUREMENTS, DOCUMENTS)]
"""The tables every zone's derived rows may depend on."""


def derive_key(data: SourceData, code: str) -> str:
    """Hash what every zone's derived rows share: the code, settings and date, the tables."""
    h = hashlib.sha256(code.encode())
    h.update(pl.__version__.encode())  # the row hashes are polars' own
    for name in SHARED:
        h.update(frame_digest(getattr(data, name)).encode())
    h.update(repr(data.mapping).encode())
    return h.hexdigest()


@dataclass(frozen=True)
class Reused:
    kept: Kept
    """The rows derive takes."""
    hashes: pl.DataFrame
    """`zone_id` and `values`: the kept zones' current values hashes, for the fingerprints."""


def reused(
    out: Path,
    key: str,
    sources: pl.DataFrame,
    state: State | None,
    values: Callable[[], pl.DataFrame | None] | None = None,
) -> Reused | None:
    """Return the previous build's rows of the zones whose own data is unchanged.

    None when nothing can be taken: no state, another key, or the rows are missing.
    `values`: the previous build's current values, when the caller began to read them
    (`previous_values`); else they are read when derive merges them.
    """
    if state is None or state.derive_key != key:
        return None
    now = sources.rename({"source": "_now"})
    previous = state.zones.select("zone_id", "source", "values")
    same = previous.join(now, on="zone_id", how="left").filter(
        pl.col("source").eq_missing(pl.col("_now"))
    )
    ids = same.get_column("zone_id")
    paths = [state_dir(out) / name for name in (VALUES, ZONE_ROWS, ZONE_DOCUMENTS)]
    try:
        if list(pl.read_parquet_schema(paths[1])) != ZONE_COLUMNS or not all(
            p.is_file() for p in paths
        ):
            return None
    except (OSError, pl.exceptions.PolarsError):
        return None
    kept_values = pl.scan_ipc(paths[0])
    if values is not None:
        frame = values()
        if frame is None:
            return None
        kept_values = frame.lazy()
    rows, documents = (
        pl.scan_parquet(path).filter(pl.col("zone_id").is_in(ids.implode())) for path in paths[1:]
    )
    return Reused(Kept(ids, kept_values, rows, documents), same.select("zone_id", "values"))


def previous_values(out: Path) -> pl.DataFrame | None:
    """Read the current values the previous build kept (a million rows nationally).

    A daily update begins it as the data loads, on a thread of its own: the zones whose
    values are taken are known only after the load, and read then, the values kept the
    main thread waiting. The merge shares their rows, so they are held once.
    """
    try:
        return pl.read_ipc(state_dir(out) / VALUES)
    except (OSError, pl.exceptions.PolarsError):
        return None


def known(out: Path, touched: pl.Series | None, state: State | None) -> Known | None:
    """Return what the zones' source prints take from the previous build, if anything.

    `touched` are the zones to hash again (`generator.source_prints.touched`), None: all.
    """
    pairs = state_dir(out) / ZONE_DOCUMENTS
    if touched is None or state is None or not pairs.is_file():
        return None
    return Known(touched, state.zones.select("zone_id", "source"), pl.scan_parquet(pairs))


def encoded(d: Derived) -> list[tuple[str, bytes]]:
    """Return the files that keep the derived rows of every zone for the next build."""
    frames = (
        (VALUES, d.current_values, _ipc),
        (ZONE_ROWS, d.zones.select(ZONE_COLUMNS), _parquet),
        (ZONE_DOCUMENTS, d.zone_documents, _parquet),
    )
    return [(name, encode(frame)) for name, frame, encode in frames]


def write(out: Path, files: list[tuple[str, bytes]]) -> None:
    """Write the `encoded` rows beside the tree."""
    prepare(out, files).publish()


def prepare(out: Path, files: list[tuple[str, bytes]]) -> Prepared:
    """Write the `encoded` rows beside the tree under temporary names, for `Prepared.publish`.

    A daily update does it on the thread that encodes them, while its files render, and
    renames them once the tree is swapped in: the state never describes a tree that is not
    published. Temporary files a failed build left are removed first.
    """
    return prepare_again([(state_dir(out) / name, data) for name, data in files])


def _ipc(frame: pl.DataFrame) -> bytes:
    buffer = io.BytesIO()
    # As it is: the reader makes chunks of its own size (some 100,000 rows), however many
    # slices a daily update merged (`generator.slices.merged`).
    frame.write_ipc(buffer, compression="zstd")
    return buffer.getvalue()


def _parquet(frame: pl.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.write_parquet(buffer, compression="lz4")
    return buffer.getvalue()
