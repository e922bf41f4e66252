"""What a build takes from the previous build's derivation: the rows of unchanged zones.

A zone's current values, its summary and its checks follow from the zone's own data (its
measurement rows and the documents they cite: its `source` print,
`generator.incremental.source_prints`) and from what every zone shares: the code, the settings and
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeGuard

import polars as pl

from generator.contract.tables import ALL_TABLES, DOCUMENTS, MEASUREMENTS
from generator.derive import Derived, Kept
from generator.frames.zone_values import Run, ZoneValues
from generator.incremental.hashes import frame_digest
from generator.incremental.render_plan import State
from generator.incremental.source_prints import Known
from generator.load import SourceData
from generator.output.atomic import Prepared, prepare_again, sealed, unsealed
from generator.output.state import (
    CURRENT_VALUES,
    NATIONAL_ROWS,
    VALUES_INDEX,
    ZONE_DOCUMENTS,
    ZONE_ROWS,
    StateFile,
    state_path,
)

RUN_ZONES = 100
"""Zones per run of current values, as a build that derives every zone lays them out.

A daily update reads a run whole for a zone it renders, and encodes one again for a zone it
derived: a run of 100 zones is read in milliseconds (of 1,000, in tens of them)."""
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


def takes_rows(state: State | None, key: str) -> TypeGuard[State]:
    """Whether a build of derive key `key` may take rows of the build that left `state`.

    Else every zone is derived (`reused`): a table all zones' rows depend on has changed.
    """
    return state is not None and state.derive_key == key


class Checked(NamedTuple):
    """What `reused` checks of the state's files (`check_state`)."""

    runs: list[Run] | None
    """The runs of current values, when each is whole (`readable_runs`)."""
    rows: bool
    """Whether the zone rows, their documents and the national rows are the files written."""


def check_state(out: Path) -> Checked:
    """Check the state's files a daily update takes rows from: read and digest each (30 MB).

    They depend on nothing the zones' hashes do, so a build asks this on a thread of its
    own while it hashes the zones (`reused` waits for both).
    """
    try:
        rows = list(pl.read_parquet_schema(ZONE_ROWS.path(out))) == ZONE_COLUMNS and intact(
            out, ZONE_ROWS, ZONE_DOCUMENTS, NATIONAL_ROWS
        )
    except (OSError, pl.exceptions.PolarsError):
        rows = False
    return Checked(readable_runs(out), rows)


def reused(
    out: Path,
    key: str,
    sources: pl.DataFrame,
    state: State | None,
    checked: Checked | None = None,
) -> Reused | None:
    """Return the previous build's rows of the zones whose own data is unchanged.

    None when nothing can be taken: no state, another key, or the rows are missing. The
    current values stay in their files until asked for (`generator.frames.zone_values`); each
    file is checked (`check_state`, unless the caller did: `checked`), so one that is gone
    or damaged means every zone is derived.
    """
    if not takes_rows(state, key):
        return None
    now = sources.rename({"source": "_now"})
    previous = state.zones.select("zone_id", "source", "values")
    same = previous.join(now, on="zone_id", how="left").filter(
        pl.col("source").eq_missing(pl.col("_now"))
    )
    ids = same.get_column("zone_id").sort()
    runs, rows_intact = check_state(out) if checked is None else checked
    if runs is None or not rows_intact:
        return None
    rows, documents = (
        pl.scan_parquet(file.path(out)).filter(pl.col("zone_id").is_in(ids.implode()))
        for file in (ZONE_ROWS, ZONE_DOCUMENTS)
    )
    kept = Kept(ids, tuple(runs), rows, documents, pl.scan_ipc(NATIONAL_ROWS.path(out)))
    return Reused(kept, same.select("zone_id", "values"))


def readable_runs(out: Path) -> list[Run] | None:
    """Return the runs of current values beside `out` if each is whole, with the same schema.

    Their rows are read when asked for (`generator.frames.zone_values`), long after this. So a
    file that is gone, not the bytes its name's digest was made of (`_run_file`), or no
    Arrow file is found here, and then no zone's values are taken: a damaged file read
    later failed every build until one was forced, or gave other values without a word.
    """
    runs = stored(out)
    if not runs or not all(map(_run_intact, runs)):
        return None
    try:
        schemas = {repr(pl.read_ipc_schema(run.path)) for run in runs}
    except (OSError, pl.exceptions.PolarsError):
        return None
    return runs if len(schemas) == 1 else None


def _run_intact(run: Run) -> bool:
    """Whether the run's file holds the bytes whose digest its name ends with."""
    try:
        data = run.path.read_bytes()
    except OSError:
        return False
    return run.path.name.endswith(f"-{_digest(data)}.arrow")


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def stored(out: Path) -> list[Run] | None:
    """Return the runs of current values the previous build kept, in zone order."""
    folder = CURRENT_VALUES.path(out)
    index = _read_index(out)
    try:
        runs = [Run(int(a), int(b), int(n), folder / str(name)) for a, b, n, name in index["runs"]]
    except (ValueError, KeyError, TypeError):
        return None
    if any(run.path.parent != folder for run in runs):
        return None
    return runs


def intact(out: Path, *files: StateFile) -> bool:
    """Whether each of the state's `files` holds the bytes the index digested.

    For `ZONE_ROWS`, `ZONE_DOCUMENTS` and `NATIONAL_ROWS`, which a daily update takes rows
    of (their summaries and checks, the documents they cite, the rows the map and the
    national feed read): a damaged file may still read. The index is read once for all.
    """
    digests = _read_index(out).get("files")
    if not isinstance(digests, dict):
        return False
    try:
        return all(digests.get(file.name) == _digest(file.path(out).read_bytes()) for file in files)
    except OSError:
        return False


def _read_index(out: Path) -> dict[str, Any]:
    """Return the index of the runs and the digests of the state's files; empty if unknown."""
    try:
        index = unsealed(CURRENT_VALUES.member(out, VALUES_INDEX).read_bytes())
    except OSError:
        return {}
    return (
        index if isinstance(index, dict) and index.get("format") == CURRENT_VALUES.version else {}
    )


def known(out: Path, touched: pl.Series | None, state: State | None) -> Known | None:
    """Return what the zones' source prints take from the previous build, if anything.

    `touched` are the zones to hash again (`generator.incremental.source_prints.touched`),
    None: all.
    """
    pairs = ZONE_DOCUMENTS.path(out)
    if touched is None or state is None or not intact(out, ZONE_DOCUMENTS):
        return None
    return Known(touched, state.zones.select("zone_id", "source"), pl.scan_parquet(pairs))


def encoded(d: Derived) -> list[tuple[str, bytes]]:
    """Return the files that keep the derived rows of every zone for the next build.

    The runs of current values of zones `d` took from the previous build only
    (`generator.frames.zone_values`) are that build's files, not encoded again.
    """
    frames = [
        (ZONE_ROWS.name, _parquet(d.zones.select(ZONE_COLUMNS))),
        (ZONE_DOCUMENTS.name, _parquet(d.zone_documents)),
        (NATIONAL_ROWS.name, _ipc(d.current_values.national().collect())),
    ]
    digests = {name: _digest(data) for name, data in frames}
    return _value_files(d.current_values, d.zones.get_column("zone_id"), digests) + frames


def _value_files(
    values: ZoneValues, zones: pl.Series, digests: dict[str, str]
) -> list[tuple[str, bytes]]:
    """Return the runs of current values to write, and the index of every run and `digests`.

    `zones`: every zone's id. A run of the previous build is kept when it has no zone
    derived again; the others are encoded again with the same zones, unless a derived
    zone lies outside them all: then the runs are laid out anew.
    """
    if values.whole:
        return _laid_out(values.held, digests)
    assert values.kept is not None
    derived = zones.filter(~zones.is_in(values.kept.implode()))
    own = values.held.get_column("zone_id").unique()
    outside = own
    for run in values.runs:
        outside = outside.filter(~outside.is_between(run.first, run.last))
    if outside.len():
        return _laid_out(values.all(), digests)
    files, runs = [], []
    for run in values.runs:
        if not derived.is_between(run.first, run.last).any():
            runs.append(run)
            continue
        ids = zones.filter(zones.is_between(run.first, run.last)).unique().sort()
        file, again = _run_file(values.of(ids), run.first, run.last)
        files.append(file)
        runs.append(again)
    return [*files, _index(runs, digests)]


def _laid_out(values: pl.DataFrame, digests: dict[str, str]) -> list[tuple[str, bytes]]:
    """Return the runs of every zone's current values (`RUN_ZONES` zones each), and the index."""
    zones = values.get_column("zone_id")
    distinct = zones.unique(maintain_order=True)
    firsts = distinct.gather_every(RUN_ZONES).to_list()
    bounds = [(a, b - 1) for a, b in zip(firsts, firsts[1:], strict=False)]
    bounds += [(firsts[-1], distinct[-1])] if firsts else []
    starts = zones.search_sorted(pl.Series([a for a, _ in bounds], dtype=zones.dtype), "left")
    ends = zones.search_sorted(pl.Series([b for _, b in bounds], dtype=zones.dtype), "right")
    files, runs = [], []
    for (first, last), start, end in zip(bounds, starts, ends, strict=True):
        file, run = _run_file(values.slice(start, end - start), first, last)
        files.append(file)
        runs.append(run)
    return [*files, _index(runs, digests)]


def _run_file(rows: pl.DataFrame, first: int, last: int) -> tuple[tuple[str, bytes], Run]:
    data = _ipc(rows)
    name = f"{first}-{last}-{_digest(data)}.arrow"
    return (f"{CURRENT_VALUES.name}/{name}", data), Run(first, last, rows.height, Path(name))


def _index(runs: list[Run], digests: dict[str, str]) -> tuple[str, bytes]:
    entries = [[run.first, run.last, run.rows, run.path.name] for run in runs]
    index = {"format": CURRENT_VALUES.version, "runs": entries, "files": digests}
    return f"{CURRENT_VALUES.name}/{VALUES_INDEX}", sealed(index)


def prune(out: Path) -> None:
    """Remove what the state's index of current values no longer names.

    The runs of earlier builds, and the temporary files of one that failed (named by a
    digest, a run written again is not always the same file).
    """
    runs = stored(out)
    if runs is None:
        return
    named = {run.path.name for run in runs} | {VALUES_INDEX}
    for path in CURRENT_VALUES.path(out).iterdir():
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
    return prepare_again([(state_path(out, name), data) for name, data in files])


def _ipc(frame: pl.DataFrame) -> bytes:
    buffer = io.BytesIO()
    # As it is: the reader makes chunks of its own size (some 100,000 rows), however many
    # slices a daily update put together (`generator.frames.zone_values`).
    frame.write_ipc(buffer, compression="zstd")
    return buffer.getvalue()


def _parquet(frame: pl.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.write_parquet(buffer, compression="lz4")
    return buffer.getvalue()
