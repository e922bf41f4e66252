"""A Parquet table's row groups as the last build read them: a daily update reads only new ones.

Reading the national series is mostly compacting it (`generator.frames.compact`): finding the
distinct texts of ten million cells per column. An import that appends a publication
rewrites the file with the earlier row groups byte for byte as they were (`write_appended`:
the importer writes each as it was, and the new rows as one more). So a build keeps what it
read in `build-state/read/`: the compact frame, as codes and texts, and a digest of each
row group's bytes. The next build takes the rows of every row group whose
digest it finds there and reads only the others from the file. It writes the memo again
only when it lacks more than a few rows of the file (`KEPT_SHARE`) or holds rows the file
no longer has: a few appended rows are read from the file until more have come.

The frame is the one a whole read gives, value for value and type for type: each text
column's texts are merged and sorted again, and texts no row uses any more (a row group
that is gone) are dropped. A memo of other code (`Memo.key`), a file of another schema or a
memo that cannot be read is not used: the file is read whole, and the memo replaced.
"""

from __future__ import annotations

import functools
import hashlib
import io
import mmap
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import polars as pl
import polars.selectors as cs

from generator.contract.footer import read_footer
from generator.frames import parallel
from generator.output.atomic import atomic_write, sealed, unsealed
from generator.output.encode import file_digest
from generator.output.state import READ

Groups = list[tuple[str, int]]
"""A file's row groups in order: the digest of each one's bytes, and its rows."""

_keeping: list[Callable[[], None]] = []
"""The memos `read` is writing, each as a function that waits for it."""


@dataclass(frozen=True)
class Memo:
    """Where the memos are kept, and what else the frames depend on."""

    folder: Path
    key: str
    """The code that read them (a build's code digest): other code reads the file whole."""
    take: bool = True
    """False: read the file whole all the same (`build --force`), and keep it for the next."""
    early: dict[str, Callable[[], _Known | None]] = field(default_factory=dict, compare=False)
    """The memos `begin` started to read, by table."""

    def begin(self, table: str) -> None:
        """Start reading the memo of `table` on a thread of its own, for `read` to take.

        A daily update reads the national memo (20 MB of codes, 200 MB once read) while it
        reads its state and the previous manifest: 0.15 s that were the load's.
        """
        if self.take:
            settled()
            self.early[table] = parallel.started(functools.partial(_recall, self, table))


def read(
    path: Path,
    table: str,
    memo: Memo,
    whole: Callable[[], pl.DataFrame],
    rows: Callable[[int, int], pl.DataFrame],
) -> pl.DataFrame:
    """Return the compact frame of Parquet file `path`, of the rows it shares with the memo.

    `whole()` reads the file; `rows(offset, n)` reads n rows from an offset, as text.
    """
    settled()  # a memo of this table still being written is read when it is whole
    schema, groups = digests(path)
    started = memo.early.pop(table, None)
    known = (started or functools.partial(_recall, memo, table))() if memo.take else None
    if known is not None and known.schema != schema:
        known = None  # kept for another schema
    if known is not None and {g for g, _ in known.groups} & {g for g, _ in groups}:
        frame = _assembled(known, groups, rows)
    else:
        frame = whole()
    if _rewritten(known, groups):
        # Written on a thread of its own while the tables are checked (until `settled`).
        keep = functools.partial(_keep, memo, table, schema, groups, frame)
        _keeping.append(parallel.started(keep))
    return frame


KEPT_SHARE = 100
"""A memo that lacks at most one row in so many of the file's, and holds no row the file no
longer has, is kept as it is: the next build reads those few rows from the file again. A
daily update's import appends a few hundred rows; writing the ten million again for them
took a tenth of a second of a CPU."""


def _rewritten(known: _Known | None, groups: Groups) -> bool:
    """Whether the memo is written again for the file's row groups `groups`."""
    if known is None:
        return True
    held = set(known.groups)
    if not held <= set(groups):
        return True  # it holds rows of row groups that are gone
    lacking = sum(n for group, n in groups if (group, n) not in held)
    return lacking * KEPT_SHARE > sum(n for _, n in groups)


def settled() -> None:
    """Wait until every memo `read` began to write is written; one that failed is none.

    A memo is a cache: its failure fails no build and is no problem of a source table. A
    write that failed left the memo before it (which names the row groups it holds) or,
    once `_keep` took that away, none; the next read reads the file whole.
    """
    while _keeping:
        wait = _keeping.pop()
        try:
            wait()
        except Exception as exc:  # noqa: BLE001 - said, and the build goes on without a memo
            warnings.warn(f"the series read was not kept for the next build: {exc}", stacklevel=2)


def write_appended(existing: Path, frame: pl.DataFrame, out: Path) -> None:
    """Write `frame`, the rows of Parquet file `existing` and then new ones, to `out`.

    Each row group of `existing` becomes one of `out`, and the new rows one more: rewritten
    by the same writer, a row group is the same bytes, and the next build takes it from its
    memo. (A file another writer made is new bytes once.)
    """
    import pyarrow.parquet as pq  # an import's, not a build's: a build reads the footer only

    sizes = [rows for rows, _ in read_footer(existing).groups]
    table = frame.to_arrow()
    with pq.ParquetWriter(out, table.schema, compression="zstd") as writer:
        offset = 0
        for n in [*sizes, frame.height - sum(sizes)]:
            if n > 0:
                writer.write_table(table.slice(offset, n), row_group_size=n)
            offset += n


_digested: dict[Path, tuple[tuple[int, ...], tuple[str, Groups]]] = {}
"""The last digests of each file, by the file's `_stamp` then."""


def digests(path: Path) -> tuple[str, Groups]:
    """Return the file's schema and each row group's digest and rows.

    A row group's digest covers the bytes of its column chunks and how they are stored
    (type, codec, encodings), so two equal digests mean the same cells. A build asks them
    three times of the series (the basis of its source prints before and after the load,
    and the memo's read between): a file with the `_stamp` it had when last asked is not
    read again (0.02 s each nationally).
    """
    stamp = _stamp(path)
    known = _digested.get(path)
    if known is not None and known[0] == stamp:
        return known[1]
    found = _digests(path)
    _digested[path] = (stamp, found)
    return found


def _stamp(path: Path) -> tuple[int, ...]:
    """Return what changes when a file is written: its inode, size and times of change.

    The status change time (ctime) cannot be set back by a program: any write moves it on.
    """
    st = path.stat()
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _digests(path: Path) -> tuple[str, Groups]:
    footer = read_footer(path)
    groups: Groups = []
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as view:
        for rows, chunks in footer.groups:
            h = hashlib.blake2b(digest_size=16)
            for chunk in chunks:
                stored = (chunk.path, chunk.physical_type, chunk.codec)
                h.update(f"{stored}|{chunk.encodings}|{chunk.num_values}".encode())
                h.update(view[chunk.start : chunk.start + chunk.size])
            groups.append((h.hexdigest(), rows))
    return footer.schema, groups


def _paths(memo: Memo, table: str) -> tuple[Path, Path]:
    return memo.folder / f"{table}.json", memo.folder / f"{table}.arrow"


class _Known(NamedTuple):
    """A memo as kept: the frame with codes for texts, each text column's texts, the groups."""

    frame: pl.DataFrame
    texts: dict[str, pl.Series]
    groups: Groups
    schema: str
    """The schema of the file it was kept for."""


def _recall(memo: Memo, table: str) -> _Known | None:
    """Return the memo, when it was kept for this code (the caller checks the schema)."""
    about, codes = _paths(memo, table)
    try:
        meta = unsealed(about.read_bytes())  # its texts name the codes' texts
        if not isinstance(meta, dict):
            return None
        if [meta.get("format"), meta.get("key")] != [READ.version, memo.key]:
            return None
        schema = str(meta["schema"])
        groups = [(str(digest), int(n)) for digest, n in meta["groups"]]
        data = codes.read_bytes()
        # A file damaged since it was written may still read, as other codes: other texts.
        if meta.get("digest") != file_digest(data):
            return None
        frame = pl.read_ipc(data)
        texts = {n: pl.Series(n, values, dtype=pl.String) for n, values in meta["texts"].items()}
    except (OSError, ValueError, KeyError, TypeError, pl.exceptions.PolarsError):
        return None
    if frame.height != sum(n for _, n in groups):
        return None
    if not all(n in frame.columns and frame.schema[n].is_integer() for n in texts):
        return None
    return _Known(frame, texts, groups, schema)


def _keep(memo: Memo, table: str, schema: str, groups: Groups, frame: pl.DataFrame) -> None:
    """Keep `frame` and the digests of the file's row groups for the next build."""
    about, codes = _paths(memo, table)
    enums = {n: d for n, d in frame.schema.items() if isinstance(d, pl.Enum)}
    meta = {
        "format": READ.version,
        "key": memo.key,
        "schema": schema,
        "groups": groups,
        "texts": {name: dtype.categories.to_list() for name, dtype in enums.items()},
    }
    memo.folder.mkdir(parents=True, exist_ok=True)
    about.unlink(missing_ok=True)  # until both are written, no memo
    written = io.BytesIO()
    frame.with_columns(cs.enum().to_physical()).write_ipc(written, compression="lz4")
    data = written.getvalue()
    meta["digest"] = file_digest(data)  # SHA-256: 0.01 s for the national 20 MB
    atomic_write(codes, data)
    atomic_write(about, sealed(meta))


def _assembled(
    known: _Known, groups: Groups, rows: Callable[[int, int], pl.DataFrame]
) -> pl.DataFrame:
    """Return the file's frame: the memo's rows where it has a row group, the file's elsewhere."""
    at: dict[tuple[str, int], int] = {}
    offset = 0
    for group in known.groups:
        at.setdefault(group, offset)
        offset += group[1]
    runs: list[tuple[bool, int, int]] = []  # (from the memo, first row there, rows)
    offset = 0
    for group in groups:
        memo, start = (True, at[group]) if group in at else (False, offset)
        if runs and runs[-1][0] == memo and runs[-1][1] + runs[-1][2] == start:
            runs[-1] = (memo, runs[-1][1], runs[-1][2] + group[1])
        else:
            runs.append((memo, start, group[1]))
        offset += group[1]
    parts = [
        (memo, known.frame.slice(start, n) if memo else rows(start, n)) for memo, start, n in runs
    ]
    gone = bool({g for g, _ in known.groups} - {g for g, _ in groups})

    def column(name: str) -> Callable[[], pl.Series]:
        if name in known.texts:
            return lambda: _texts(name, parts, known.texts[name], gone)
        return lambda: pl.concat([rows.get_column(name) for _, rows in parts], rechunk=False)

    # Two columns at a time, as a whole read does. A column is a chunk per part, alike in
    # every column: the sort that puts appended rows in their place (`order.as_declared`)
    # makes the one chunk of each, and a copy made here first would be ten million rows more.
    return pl.DataFrame(parallel.ordered(map(column, known.frame.columns), threads=2))


def _texts(
    name: str, parts: list[tuple[bool, pl.DataFrame]], old: pl.Series, gone: bool
) -> pl.Series:
    """Return a text column of the parts as an `Enum` of the sorted texts its rows use.

    The memo's rows hold codes into `old`, the file's rows texts. Both become codes into
    `old` followed by the texts only the file's rows have, and each part's codes are looked
    up in those texts as `Enum`s: a chunk per part.
    """
    read = [rows.get_column(name) for memo, rows in parts if not memo]
    extra = pl.concat(read).drop_nulls().unique() if read else old.clear()
    space = pl.concat([old, extra.filter(~extra.is_in(old.implode()))])
    codes = [
        rows.get_column(name) if memo else rows.get_column(name).cast(pl.Enum(space)).to_physical()
        for memo, rows in parts
    ]
    # Unless a row group is gone, every text in `space` is used: the memo's by its rows.
    if gone:
        used = pl.concat([c.cast(pl.UInt32).drop_nulls().unique() for c in codes]).unique()
        texts = space.gather(used)
    else:
        texts = space
    looked_up = space.cast(pl.Enum(texts.sort()), strict=False)
    return pl.concat([looked_up.gather(c) for c in codes], rechunk=False).alias(name)
