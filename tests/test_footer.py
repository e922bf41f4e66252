"""The Parquet footer as the memo reads it, without pyarrow: what pyarrow reads there."""

from __future__ import annotations

import contextlib
import datetime as dt
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.contract.footer import FooterError, read_footer

TYPES = [
    "BOOLEAN",
    "INT32",
    "INT64",
    "INT96",
    "FLOAT",
    "DOUBLE",
    "BYTE_ARRAY",
    "FIXED_LEN_BYTE_ARRAY",
]
CODECS = ["UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"]


def _frame(rows: int, columns: int) -> pl.DataFrame:
    """Return a frame of many kinds of column: text with nulls, numbers, dates, lists."""
    base = pl.DataFrame(
        {
            "zone_id": list(range(rows)),
            "text": [None if i % 7 == 0 else f"Wert {i % 13}" for i in range(rows)],
            "value": [i / 3 for i in range(rows)],
            "day": [dt.date(2026, 1, 1) + dt.timedelta(days=i % 40) for i in range(rows)],
            "flag": [i % 2 == 0 for i in range(rows)],
            "points": [[i, i + 1] for i in range(rows)],
        }
    )
    more = [pl.lit(i, pl.Int32).alias(f"extra {i}") for i in range(max(columns - base.width, 0))]
    return base.with_columns(more)


def _same_as_pyarrow(path: Path) -> None:
    footer = read_footer(path)
    meta = pq.read_metadata(path)
    assert len(footer.groups) == meta.num_row_groups
    for g, (rows, chunks) in enumerate(footer.groups):
        group = meta.row_group(g)
        assert rows == group.num_rows
        assert len(chunks) == group.num_columns
        for c, chunk in enumerate(chunks):
            theirs = group.column(c)
            assert ".".join(chunk.path) == theirs.path_in_schema
            assert TYPES[chunk.physical_type] == theirs.physical_type
            assert CODECS[chunk.codec] == theirs.compression
            assert chunk.num_values == theirs.num_values
            assert chunk.size == theirs.total_compressed_size
            pages = [theirs.dictionary_page_offset, theirs.data_page_offset]
            assert chunk.start == min(p for p in pages if p is not None and p > 0)


@settings(max_examples=30, deadline=None)
@given(
    rows=st.integers(1, 300),
    columns=st.sampled_from([3, 6, 20]),
    group=st.integers(1, 40),
    writer=st.sampled_from(["polars", "pyarrow"]),
    codec=st.sampled_from(["zstd", "snappy", "uncompressed", "gzip"]),
)
def test_the_footer_is_what_pyarrow_reads(
    tmp_path_factory: pytest.TempPathFactory,
    rows: int,
    columns: int,
    group: int,
    writer: str,
    codec: str,
) -> None:
    frame = _frame(rows, columns)
    path = tmp_path_factory.mktemp("footer") / "t.parquet"
    if writer == "polars":
        frame.write_parquet(path, compression=codec, row_group_size=group)  # type: ignore[arg-type]
    else:
        table = frame.to_arrow()
        kind = "none" if codec == "uncompressed" else codec
        pq.write_table(table, path, row_group_size=group, compression=kind, use_dictionary=True)
    _same_as_pyarrow(path)


def test_the_schema_tells_types_apart(tmp_path: Path) -> None:
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(pa.table({"x": pa.array([1, 2], pa.int64())}), a)
    pq.write_table(pa.table({"x": pa.array([1, 2], pa.int32())}), b)
    assert read_footer(a).schema != read_footer(b).schema
    pq.write_table(pa.table({"x": pa.array([3, 4], pa.int64())}), b)
    assert read_footer(a).schema == read_footer(b).schema


@pytest.mark.parametrize("cut", [0, 4, 11, 30, -9, -1])
def test_a_file_that_is_not_parquet_is_a_footer_error(tmp_path: Path, cut: int) -> None:
    whole = tmp_path / "whole.parquet"
    _frame(20, 6).write_parquet(whole)
    data = whole.read_bytes()
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(data[:cut])
    with pytest.raises(FooterError):
        read_footer(broken)


@settings(max_examples=200, deadline=None)
@given(at=st.integers(1, 400), byte=st.integers(0, 255))
def test_a_damaged_footer_is_a_footer_error_or_a_footer(
    tmp_path_factory: pytest.TempPathFactory, at: int, byte: int
) -> None:
    """A changed byte of the footer never raises anything else (nor hangs)."""
    path = tmp_path_factory.mktemp("damaged") / "t.parquet"
    _frame(20, 6).write_parquet(path)
    data = bytearray(path.read_bytes())
    length = int.from_bytes(data[-8:-4], "little")
    data[len(data) - 8 - length + at % length] = byte
    path.write_bytes(bytes(data))
    with contextlib.suppress(FooterError):
        read_footer(path)


@pytest.mark.parametrize(
    "footer",
    [
        bytes([0x13]),  # a byte field cut short
        bytes.fromhex("1bffffffff0f1100"),  # a map of four billion booleans, in eight bytes
        bytes.fromhex("19fcff7f"),  # a list of 16,383 structs in four bytes
    ],
)
def test_a_crafted_footer_is_a_footer_error_at_once(tmp_path: Path, footer: bytes) -> None:
    path = tmp_path / "crafted.parquet"
    path.write_bytes(b"PAR1" + footer + len(footer).to_bytes(4, "little") + b"PAR1")
    with pytest.raises(FooterError):
        read_footer(path)
