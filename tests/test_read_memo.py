"""The reader's memo: row groups a build read before are taken, not read again.

Whatever the edit of the file (rows appended, a row group changed, dropped or moved), the
frame is the one a whole read gives, down to each `Enum`'s texts; only the row groups the
memo lacks are read from the file.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.build import build
from generator.config import Config
from generator.contract import memo, read
from generator.contract.memo import Memo
from generator.contract.model import ROW
from generator.contract.problems import Problems
from generator.contract.tables import MEASUREMENTS
from generator.output.state import state_dir
from generator.publications import importer
from tests.helpers import AS_OF, GOLDEN_INPUT, tree_files, write_row_groups

TEXTS = ["a", "b", "c", " d", "Ä", "< 0,1", "0,05"]

cells = st.one_of(st.none(), st.sampled_from(TEXTS))
groups = st.lists(
    st.lists(st.tuples(st.integers(0, 9), cells, cells), min_size=1, max_size=6),
    min_size=1,
    max_size=5,
)


def _frame(rows: list[tuple[int, str | None, str | None]]) -> pl.DataFrame:
    return pl.DataFrame(
        rows,
        schema={"zone_id": pl.Int64, "parameter": pl.String, "value_text": pl.String},
        orient="row",
    )


def _whole(path: Path) -> pl.DataFrame:
    frame = read.read(path, "measurements", Problems(), compact=True)
    assert frame is not None
    return frame


def _remembered(path: Path, kept: Memo) -> tuple[pl.DataFrame, int]:
    """Read `path` with the memo; return the frame and how many rows came from the file."""
    taken = 0

    def rows(offset: int, n: int) -> pl.DataFrame:
        nonlocal taken
        taken += n
        return read._as_written(pl.scan_parquet(path).slice(offset, n).collect())

    def whole() -> pl.DataFrame:
        nonlocal taken
        taken += pq.read_metadata(path).num_rows
        return read._read_parquet(path, compact=True)

    frame = memo.read(path, "measurements", kept, whole, rows)
    memo.settled()  # as the checks of a build end: the memo is written
    return frame, taken


def _same(frame: pl.DataFrame, path: Path) -> None:
    expected = _whole(path)
    frame = frame.rechunk().with_row_index(ROW, offset=1)
    assert frame.schema == expected.schema  # each Enum's texts too
    assert frame.equals(expected)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    before=groups,
    added=groups,
    edit=st.sampled_from(["append", "replace", "drop", "move", "same"]),
    at=st.integers(0, 4),
)
def test_a_remembered_read_equals_a_whole_read(
    tmp_path: Path,
    before: list[list[tuple[int, str | None, str | None]]],
    added: list[list[tuple[int, str | None, str | None]]],
    edit: str,
    at: int,
) -> None:
    folder = tmp_path / f"case-{len(os.listdir(tmp_path))}"
    folder.mkdir()
    kept = Memo(folder / "memo", "code")
    chunks = [_frame(rows) for rows in before]
    write_row_groups(folder / "before.parquet", chunks)
    first, taken = _remembered(folder / "before.parquet", kept)
    assert taken == sum(c.height for c in chunks)  # nothing remembered yet
    _same(first, folder / "before.parquet")

    new = [_frame(rows) for rows in added]
    i = at % len(chunks)
    after = {
        "append": [*chunks, *new],
        "replace": [*chunks[:i], *new, *chunks[i + 1 :]],
        "drop": [*chunks[:i], *chunks[i + 1 :]] or new,
        "move": [*chunks[i:], *chunks[:i]],
        "same": chunks,
    }[edit]
    write_row_groups(folder / "after.parquet", after)
    frame, taken = _remembered(folder / "after.parquet", kept)
    _same(frame, folder / "after.parquet")
    old = {d for d, _ in memo.digests(folder / "before.parquet")[1]}
    lacking = sum(n for d, n in memo.digests(folder / "after.parquet")[1] if d not in old)
    if lacking < sum(c.height for c in after):
        assert taken == lacking  # only the row groups the memo lacks were read


@pytest.fixture
def appended(tmp_path: Path) -> tuple[Path, Path, Memo]:
    """Return a file of three row groups read once with a memo, and it with one appended."""
    chunks = [_frame([(1, "a", "b"), (2, None, "c")]), _frame([(3, "Ä", None)])]
    chunks.append(_frame([(4, "b", "0,05")]))
    write_row_groups(tmp_path / "before.parquet", chunks)
    kept = Memo(tmp_path / "memo", "code")
    _remembered(tmp_path / "before.parquet", kept)
    write_row_groups(tmp_path / "after.parquet", [*chunks, _frame([(5, "neu", "< 0,1")])])
    return tmp_path / "before.parquet", tmp_path / "after.parquet", kept


def test_an_appended_row_group_is_the_only_one_read(appended: tuple[Path, Path, Memo]) -> None:
    _, after, kept = appended
    frame, taken = _remembered(after, kept)
    assert taken == 1
    assert frame.get_column("parameter").dtype == pl.Enum(["a", "b", "neu", "Ä"])
    _same(frame, after)


def test_a_memo_lacking_a_few_rows_is_kept_until_more_have_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A few appended rows are read from the file again, rather than the memo written again."""
    monkeypatch.setattr(memo, "KEPT_SHARE", 4)  # at most a quarter of the rows
    chunks = [_frame([(i, "a", "b") for i in range(6)]), _frame([(7, "b", "c")] * 6)]
    write_row_groups(tmp_path / "file.parquet", chunks)
    kept = Memo(tmp_path / "memo", "code")
    _remembered(tmp_path / "file.parquet", kept)
    written = (kept.folder / "measurements.json").read_bytes()
    for rows, lacking, again in (
        ([(8, "neu", None)], 1, False),  # 1 of 13 rows
        ([(9, "c", "< 0,1"), (9, "d", "0,05")], 3, False),  # 3 of 15
        ([(10, "a", "x")] * 3, 6, True),  # 6 of 18: written again, with every row
        ([(11, "b", "y")], 1, False),
    ):
        chunks.append(_frame(rows))
        write_row_groups(tmp_path / "file.parquet", chunks)
        frame, taken = _remembered(tmp_path / "file.parquet", kept)
        _same(frame, tmp_path / "file.parquet")
        assert taken == lacking
        now = (kept.folder / "measurements.json").read_bytes()
        assert (now != written) is again
        written = now
    # A row group gone: the memo holds rows the file has not, and is written again.
    write_row_groups(tmp_path / "file.parquet", chunks[1:])
    frame, taken = _remembered(tmp_path / "file.parquet", kept)
    _same(frame, tmp_path / "file.parquet")
    assert (kept.folder / "measurements.json").read_bytes() != written


def _recoded(path: Path) -> None:
    """Change a code of the memo's frame as damage might, leaving a file that reads well."""
    frame = pl.read_ipc(path)
    text = next(n for n, d in frame.schema.items() if d.is_integer() and n != "zone_id")
    codes = frame.get_column(text)
    changed = codes.scatter(0, 1 if codes[0] == 0 else 0)
    frame.with_columns(changed).write_ipc(path, compression="lz4")


def _retexted(path: Path) -> None:
    """Change a text the codes stand for, leaving valid JSON (found by a review)."""
    digest, _, text = path.read_bytes().partition(b"\n")
    meta = json.loads(text)
    column = next(iter(meta["texts"]))
    meta["texts"][column][0] += "q"
    path.write_bytes(digest + b"\n" + json.dumps(meta, sort_keys=True).encode())


@pytest.mark.parametrize(
    "stale",
    [
        lambda kept: Memo(kept.folder, "other code"),
        lambda kept: Memo(kept.folder, kept.key, take=False),
        lambda kept: (kept.folder / "measurements.arrow").write_bytes(b"broken") and kept,
        lambda kept: _recoded(kept.folder / "measurements.arrow") or kept,
        lambda kept: _retexted(kept.folder / "measurements.json") or kept,
        lambda kept: (kept.folder / "measurements.json").unlink() or kept,
    ],
    ids=["other code", "forced", "broken frame", "a code of the frame", "a text", "no digests"],
)
def test_a_memo_not_to_be_trusted_is_not_taken(
    appended: tuple[Path, Path, Memo], stale: Callable[[Memo], Memo]
) -> None:
    _, after, kept = appended
    damaged = stale(kept)
    frame, taken = _remembered(after, damaged)
    assert taken == 5  # the whole file
    _same(frame, after)
    # ... and the memo is made again, for the next read
    assert _remembered(after, Memo(kept.folder, damaged.key))[1] == 0


@pytest.mark.parametrize("failure", [OSError("No space left on device"), RuntimeError("bug")])
def test_a_memo_that_cannot_be_written_fails_no_read(
    appended: tuple[Path, Path, Memo], monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    """A memo is a cache: its failure is said, and neither a problem of the table nor lost."""
    _, after, kept = appended

    def broken(*args: object) -> None:
        raise failure

    monkeypatch.setattr(memo, "_keep", broken)
    problems = Problems()
    with pytest.warns(UserWarning, match="not kept for the next build"):
        frame = read.read(after, "measurements", problems, compact=True, kept=kept)
        memo.settled()  # as the checks end
    assert problems.frame(["measurements"]).height == 0
    assert frame is not None
    _same(frame.drop(ROW), after)
    monkeypatch.undo()
    # The memo of the file before still names its own row groups: those are taken.
    assert _remembered(after, kept)[1] == 1


def test_the_importer_keeps_the_row_groups_of_the_file_it_appends_to(tmp_path: Path) -> None:
    """What makes the memo pay: an import rewrites the file, its old row groups unchanged.

    A file another writer made is new bytes once; from the second import on, the row
    groups of the file imported into are those of the file written.
    """
    series = pl.read_csv(GOLDEN_INPUT / "measurements.csv", infer_schema=False)
    series = series.select(
        pl.col(name) if name in series.columns else pl.lit(None, pl.String).alias(name)
        for name in MEASUREMENTS.names
    )
    existing = tmp_path / "measurements.parquet"
    write_row_groups(existing, [series.slice(0, 30), series.slice(30, 20)])
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    once = importer._staged_measurements(existing, series.slice(50, 4), first)
    twice = importer._staged_measurements(once, series.slice(54, 3), second)
    before, after = memo.digests(once)[1], memo.digests(twice)[1]
    assert [n for _, n in before] == [30, 20, 4]
    assert after[:3] == before
    assert [n for _, n in after] == [30, 20, 4, 3]


@pytest.mark.slow
def test_a_build_after_rows_were_appended_equals_a_full_build(tmp_path: Path) -> None:
    """The national case in small: the series as Parquet, a publication's rows appended."""
    data = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, data)
    series = pl.read_csv(data / "measurements.csv", infer_schema=False)
    (data / "measurements.csv").unlink()
    old, new = series.head(series.height - 10), series.tail(10)
    write_row_groups(data / "measurements.parquet", [old.slice(0, 40), old.slice(40)])
    build(data, tmp_path / "daily", AS_OF, Config())
    write_row_groups(data / "measurements.parquet", [old.slice(0, 40), old.slice(40), new])
    taken: list[int] = []
    assembled = memo._assembled

    def spy(*args: object, **kwargs: object) -> pl.DataFrame:
        frame = assembled(*args, **kwargs)  # type: ignore[arg-type]
        taken.append(frame.height)
        return frame

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(memo, "_assembled", spy)
        build(data, tmp_path / "daily", AS_OF, Config())
    assert taken == [series.height]  # the series came from the memo and the new row group
    build(data, tmp_path / "full", AS_OF, Config())
    assert tree_files(tmp_path / "daily") == tree_files(tmp_path / "full")
    kept = state_dir(tmp_path / "daily") / "read" / "measurements.json"
    assert kept.is_file()


def test_a_file_written_again_in_place_is_digested_again(tmp_path: Path) -> None:
    """The digests of a file are asked again only when its stamp is new: any write is."""
    path = tmp_path / "measurements.parquet"
    pl.DataFrame({"v": list(range(1000))}).write_parquet(path, compression="uncompressed")
    before = memo.digests(path)
    assert memo.digests(path) == before
    data = bytearray(path.read_bytes())
    at = data.index((500).to_bytes(8, "little"))  # a cell of the one row group
    data[at] = 7
    stat = path.stat()
    time.sleep(0.05)  # past the clock's step: the write's change time is another
    with path.open("r+b") as fh:  # the same inode, size and modification time
        fh.write(data)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    after = memo.digests(path)
    assert after[0] == before[0]
    assert after[1] != before[1]
    assert after == memo._digests(path)
