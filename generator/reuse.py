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

import functools
import hashlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import polars as pl

from generator.beside import state_dir
from generator.contract.tables import ALL_TABLES, DOCUMENTS, MEASUREMENTS
from generator.derive import Derived, Kept
from generator.hashes import frame_digest
from generator.incremental import State
from generator.load import SourceData
from generator.source_prints import Known
from generator.write import Prepared, prepare_again

VALUES = "current_values"
"""A folder of runs of zones' current values, in zone order, and `VALUES_INDEX` naming them.

Each run is an Arrow IPC file, zstd (a million rows of nested limits read in half the time
Parquet takes), named by its zones and a digest of its bytes. A daily update encodes again
only the runs with a zone it derived: the others are the same rows, so the same file."""
VALUES_INDEX = "index.json"
RUN_ZONES = 1000
"""Zones per run of current values, as a build that derives every zone lays them out."""
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
    (`previous_values`); else they are read when derive merges them. Derive raises
    `Unreadable` when they cannot be read after all.
    """
    if state is None or state.derive_key != key:
        return None
    now = sources.rename({"source": "_now"})
    previous = state.zones.select("zone_id", "source", "values")
    same = previous.join(now, on="zone_id", how="left").filter(
        pl.col("source").eq_missing(pl.col("_now"))
    )
    ids = same.get_column("zone_id")
    paths = [state_dir(out) / name for name in (ZONE_ROWS, ZONE_DOCUMENTS)]
    runs = _runs(out)
    try:
        if list(pl.read_parquet_schema(paths[0])) != ZONE_COLUMNS or not all(
            p.is_file() for p in paths
        ):
            return None
    except (OSError, pl.exceptions.PolarsError):
        return None
    if runs is None or not all((state_dir(out) / VALUES / run.name).is_file() for run in runs):
        return None
    read = values or functools.partial(previous_values, out)
    rows, documents = (
        pl.scan_parquet(path).filter(pl.col("zone_id").is_in(ids.implode())) for path in paths
    )
    return Reused(
        Kept(ids, functools.partial(_required, read), rows, documents),
        same.select("zone_id", "values"),
    )


class Unreadable(OSError):
    """The previous build's current values could not be read: derive every zone."""


def _required(read: Callable[[], pl.DataFrame | None]) -> pl.DataFrame:
    frame = read()
    if frame is None:
        raise Unreadable("the current values kept beside the tree could not be read")
    return frame


def previous_values(out: Path) -> pl.DataFrame | None:
    """Read the current values the previous build kept (a million rows nationally).

    A daily update begins it as the data loads end, on a thread of its own: the zones whose
    values are taken are known only after the zones are hashed, and read then, the values
    kept the main thread waiting. The merge shares their rows, so they are held once. None
    when a run is missing or unreadable.
    """
    runs = _runs(out)
    if runs is None:
        return None
    folder = state_dir(out) / VALUES
    try:
        return pl.scan_ipc([folder / run.name for run in runs]).collect()
    except (OSError, pl.exceptions.PolarsError):
        return None


class Run(NamedTuple):
    """A file of current values: its zones `first` to `last`, its rows, its name."""

    first: int
    last: int
    rows: int
    name: str


def _runs(out: Path) -> list[Run] | None:
    """Return the runs of current values the previous build kept, in zone order."""
    try:
        index = json.loads((state_dir(out) / VALUES / VALUES_INDEX).read_text(encoding="utf-8"))
        runs = [Run(int(a), int(b), int(n), str(name)) for a, b, n, name in index["runs"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if index.get("format") != 1 or any("/" in run.name for run in runs):
        return None
    return runs


def known(out: Path, touched: pl.Series | None, state: State | None) -> Known | None:
    """Return what the zones' source prints take from the previous build, if anything.

    `touched` are the zones to hash again (`generator.source_prints.touched`), None: all.
    """
    pairs = state_dir(out) / ZONE_DOCUMENTS
    if touched is None or state is None or not pairs.is_file():
        return None
    return Known(touched, state.zones.select("zone_id", "source"), pl.scan_parquet(pairs))


def encoded(
    d: Derived, out: Path | None = None, kept: pl.Series | None = None
) -> list[tuple[str, bytes]]:
    """Return the files that keep the derived rows of every zone for the next build.

    `kept`: the zones whose current values were taken from the previous build beside `out`;
    the runs of current values of those zones only are that build's files, not encoded again.
    """
    previous = _runs(out) if out is not None and kept is not None else None
    files = _value_files(d.current_values, previous, kept)
    frames = (
        (ZONE_ROWS, d.zones.select(ZONE_COLUMNS), _parquet),
        (ZONE_DOCUMENTS, d.zone_documents, _parquet),
    )
    return files + [(name, encode(frame)) for name, frame, encode in frames]


def _value_files(
    values: pl.DataFrame, previous: list[Run] | None, kept: pl.Series | None
) -> list[tuple[str, bytes]]:
    """Return the runs of current values to write, and the index of every run."""
    zones = values.get_column("zone_id")
    if previous is None or kept is None:
        distinct = zones.unique(maintain_order=True)
        firsts = distinct.gather_every(RUN_ZONES).to_list()
        bounds = [(a, b - 1) for a, b in zip(firsts, firsts[1:], strict=False)]
        bounds += [(firsts[-1], distinct[-1])] if firsts else []
        previous = []
    else:
        bounds = [(run.first, run.last) for run in previous]
    starts = zones.search_sorted(pl.Series([a for a, _ in bounds], dtype=zones.dtype), "left")
    ends = zones.search_sorted(pl.Series([b for _, b in bounds], dtype=zones.dtype), "right")
    if bounds and (starts[0] != 0 or ends[-1] != values.height):
        return _value_files(values, None, None)  # zones outside the runs: lay them out anew
    taken = set() if kept is None else set(kept.to_list())
    files, runs = [], []
    for i, (first, last) in enumerate(bounds):
        start, end = starts[i], ends[i]
        if i and start != ends[i - 1]:
            return _value_files(values, None, None)
        rows = values.slice(start, end - start)
        ids = rows.get_column("zone_id").unique().to_list()
        same = i < len(previous) and previous[i].rows == rows.height
        if same and all(z in taken for z in ids):
            runs.append(previous[i])
            continue
        data = _ipc(rows)
        name = f"{first}-{last}-{hashlib.blake2b(data, digest_size=8).hexdigest()}.arrow"
        files.append((f"{VALUES}/{name}", data))
        runs.append(Run(first, last, rows.height, name))
    index = {"format": 1, "runs": [list(run) for run in runs]}
    return [*files, (f"{VALUES}/{VALUES_INDEX}", json.dumps(index).encode())]


def prune(out: Path) -> None:
    """Remove what the state's index of current values no longer names.

    The runs of earlier builds, and the temporary files of one that failed (named by a
    digest, a run written again is not always the same file).
    """
    (state_dir(out) / "current_values.arrow").unlink(missing_ok=True)  # before runs: one file
    runs = _runs(out)
    if runs is None:
        return
    named = {run.name for run in runs} | {VALUES_INDEX}
    for path in (state_dir(out) / VALUES).iterdir():
        if path.name not in named:
            path.unlink(missing_ok=True)


def write(out: Path, files: list[tuple[str, bytes]]) -> None:
    """Write the `encoded` rows beside the tree."""
    prepare(out, files).publish()
    prune(out)


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
