"""What keeps the national build lean changes no value: batches, Enums, checks per distinct text.

The figures are measured in docs/performance.md; these tests check that each device gives
the same frames as the plain way of computing them.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import shutil

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator import derive, load
from generator.contract.check import check_tables
from generator.contract.model import ROW, Context
from generator.contract.order import as_declared, declared, in_order, merged_tail, neighbours
from generator.contract.table_rules import UniqueKey
from generator.contract.tables import ALL_TABLES
from generator.frames import batches
from generator.frames import compact as compact_module
from generator.frames.compact import as_text, compact, distinct, mapped, packed, per_text, unpacked
from generator.load import reference_dir
from tests.helpers import AS_OF, GOLDEN_INPUT, read_rows, write_rows


def test_current_values_do_not_depend_on_the_zones_per_batch(monkeypatch):
    data = load.load(GOLDEN_INPUT)
    whole = derive.derive(data, AS_OF).current_values.all()
    monkeypatch.setattr(derive, "ZONES", 1)
    batched = derive.derive(data, AS_OF).current_values.all()
    assert batched["zone_id"].n_unique() > 1
    assert batched.schema == whole.schema
    assert batched.equals(whole)
    assert batched.n_chunks("all") == [1] * batched.width


def test_the_series_is_held_as_enums_and_read_back_as_text():
    data = load.load(GOLDEN_INPUT)
    d = derive.derive(data, AS_OF)
    assert isinstance(d.measurements.schema["document_id"], pl.Enum)
    text = as_text(d.measurements)
    assert text.schema["document_id"] == pl.String
    # Held as Enums from the loader on; the source columns read back as loaded, row for row.
    assert isinstance(data.measurements.schema["value_text"], pl.Enum)
    loaded = as_text(data.measurements)
    assert loaded.schema["value_text"] == pl.String
    source = text.select(c for c in data.measurements.columns if c != "reporting_limit")
    assert source.equals(loaded.select(source.columns))


def test_compact_and_back_is_the_same_frame():
    frame = pl.DataFrame(
        {
            "a": ["b", None, "a", "é", "B", "", "b"],
            "n": [1, 2, 3, 4, 5, 6, 7],
            "empty": pl.Series([None] * 7, dtype=pl.String),
        }
    )
    small = compact(frame)
    assert isinstance(small.schema["a"], pl.Enum)
    assert as_text(small).equals(frame)
    assert as_text(small).schema == frame.schema
    # The codes follow the sorted values: sorting the codes sorts the text.
    by_code = as_text(small.sort("a", nulls_last=False))["a"]
    assert by_code.equals(frame.sort("a", nulls_last=False)["a"])


BROKEN = [
    # (what breaks, the row's cells beside a valid row of zone 11)
    ("control_character", {"sample_point": "Netz\x07"}),
    ("empty_required", {"value_text": " "}),
    ("empty_required", {"sample_point": "", "document_id": ""}),
    ("unknown_unit", {"unit": "Furlong"}),
    ("unit_not_convertible", {"parameter": "ph_wert", "unit": "mg/l"}),
    ("dangling_reference", {"document_id": "gibt-es-nicht"}),
    ("unknown_parameter", {"parameter": "gibt_es_nicht"}),
    ("invalid_date", {"sampled_at": "2025-13-45"}),
    ("wrong_type", {"zone_id": "elf"}),
    ("date_order", {"sampled_at": "2029-01-01", "document_id": "wk-2025"}),
    ("invalid_choice", {"statistic": "median"}),
]


@pytest.mark.parametrize("suffix", ["csv", "parquet", "parquet with categories"])
def test_a_compact_table_is_checked_as_its_text_would_be(tmp_path, suffix):
    """A compact table is checked once per distinct text, and in key order by neighbours.

    The same problems, rows and values as checking every cell as text in the file's
    order, and the same typed table.
    """
    data = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, data)
    rows = read_rows(data / "measurements.csv")
    valid = dict(rows[0])
    rows += [
        {**valid, "sampled_at": f"2024-01-{i + 1:02d}", **cells}
        for i, (_, cells) in enumerate(BROKEN)
    ]
    rows.append(dict(rows[3]))  # a duplicate key
    rows.append({**valid, "sampled_at": "2024-02-01", "unit": ""})  # the unit's default
    write_rows(data / "measurements.csv", rows)
    if suffix.startswith("parquet"):
        frame = pl.read_csv(data / "measurements.csv", infer_schema=False)
        if suffix == "parquet with categories":
            # Categories in an order of the file's own, one of them used by no row.
            statistic = pl.Enum(["sample", "min", "mean", "max", "median", "unused"])
            frame = frame.with_columns(
                pl.col("value_text").cast(pl.Categorical),
                pl.col("statistic").cast(statistic),
                pl.col("parameter").cast(
                    pl.Enum(frame["parameter"].unique().sort(descending=True))
                ),
            )
        frame.write_parquet(data / "measurements.parquet")
        (data / "measurements.csv").unlink()
    as_declared = check_tables(data, ALL_TABLES, reference_dir(), as_declared=True)
    in_file_order = check_tables(data, ALL_TABLES, reference_dir())
    plain = tuple(dataclasses.replace(t, compact=False) if t.compact else t for t in ALL_TABLES)
    as_text_ = check_tables(data, plain, reference_dir())

    assert isinstance(as_declared.tables["measurements"].schema["document_id"], pl.Enum)
    assert as_declared.problems.equals(as_text_.problems)
    assert in_file_order.problems.equals(as_text_.problems)
    assert as_declared.warnings.equals(as_text_.warnings)
    assert in_file_order.warnings.equals(as_text_.warnings)
    found = set(as_declared.problems["rule"]) | set(as_declared.warnings["rule"])
    assert {rule for rule, _ in BROKEN} | {"duplicate_key"} <= found
    where = set(as_declared.problems.select("column", "rule").iter_rows())
    assert {("value_text", "empty_required"), ("sample_point", "control_character")} <= where
    for table in ALL_TABLES:
        text = as_text_.tables[table.name]
        assert in_file_order.tables[table.name].equals(text), table.name
        if table.sorted_by:
            text = text.sort(table.sorted_by, nulls_last=False, maintain_order=True)
        assert as_text(as_declared.tables[table.name]).equals(text), table.name


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([None, 1, 2]), st.sampled_from([None, "a", "b", "ä"])),
        max_size=12,
    )
)
def test_duplicate_keys_found_among_neighbours_are_those_a_hash_finds(rows):
    frame = pl.DataFrame(rows, schema={"k": pl.Int64, "p": pl.String}, orient="row")
    frame = frame.with_row_index(ROW, offset=1)
    frame = frame.sort("k", "p", nulls_last=False, maintain_order=True)
    by_hash = UniqueKey(("k", "p"), nullable=("p",)).find(frame, Context({}))
    by_order = UniqueKey(("k", "p"), nullable=("p",), order=("k", "p")).find(frame, Context({}))
    assert (by_hash is None) == (by_order is None)
    if by_hash is not None and by_order is not None:
        assert by_order.sort(ROW).equals(by_hash.sort(ROW))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([None, 1, 2]), st.sampled_from([None, "a", "b", "ä"])),
        max_size=12,
    ),
    st.lists(st.integers(0, 4), max_size=4),
)
@example(rows=[(1, "a"), (1, "a")], cuts=[0, 1])  # sorted whole: polars kept both chunks
def test_neighbours_of_a_frame_in_chunks_are_those_of_one_chunk(rows, cuts):
    """A series put together from its memo and new rows is compared chunk by chunk."""
    whole = pl.DataFrame(rows, schema={"k": pl.Int64, "p": pl.String}, orient="row")
    whole = whole.with_columns(pl.col("p").cast(pl.Enum(["a", "b", "ä"])))
    parts, at = [], 0
    for n in cuts:
        parts.append(whole.slice(at, n))
        at += n
    chunked = pl.concat([*parts, whole.slice(at)], rechunk=False)
    if whole.height:  # of no rows there are no neighbours (callers ask of two or more)
        assert neighbours(chunked, ("k", "p")).equals(neighbours(whole, ("k", "p")))
    assert as_declared(chunked, ("k", "p")).equals(as_declared(whole, ("k", "p")))
    assert as_declared(chunked, ("k", "p")).n_chunks("all") == [1, 1]


@pytest.mark.parametrize("seed", range(5))
def test_in_order_agrees_with_sorting(seed):
    rng = random.Random(seed)
    for _ in range(300):
        n = rng.randint(0, 7)
        frame = pl.DataFrame(
            {
                "a": [rng.choice([None, 1, 2]) for _ in range(n)],
                "b": [rng.choice([None, "x", "y", "é"]) for _ in range(n)],
            },
            schema={"a": pl.Int64, "b": pl.String},
        )
        ordered = frame.sort("a", "b", nulls_last=False)
        distinct = (
            frame.height < 2 or not frame.select(pl.struct("a", "b").is_duplicated().any()).item()
        )
        assert in_order(frame, ("a", "b")) == (frame.equals(ordered) and distinct)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.sampled_from([None, "x", "y", "é"]), st.integers(0, 3)),
        min_size=1,
        max_size=40,
    ),
    st.lists(
        st.tuples(st.integers(-1, 7), st.sampled_from([None, "x", "y", "é"]), st.integers(0, 3)),
        max_size=8,
    ),
    st.booleans(),
)
def test_rows_appended_to_a_frame_in_order_are_merged_as_a_sort_would(head, tail, as_enum):
    # An import appends a supplier's rows to a file in order: they are merged in by runs
    # of the first column, and the frame is the one a stable sort gives, ties in the
    # order of the file included (the third column is not sorted by: it tells ties apart).
    text = pl.Enum(["y", "x", "é"]) if as_enum else pl.String
    schema = {"a": pl.Int64, "b": text, "file": pl.Int64}
    frame = pl.DataFrame(head, schema=schema, orient="row")
    frame = frame.sort("a", "b", nulls_last=False).unique(["a", "b"], maintain_order=True)
    ordered = frame.height
    frame = pl.concat([frame, pl.DataFrame(tail, schema=schema, orient="row")])
    frame = frame.with_columns(pl.int_range(pl.len()).alias("file"))
    sorted_ = frame.sort("a", "b", nulls_last=False, maintain_order=True)
    assert merged_tail(frame, ("a", "b"), ordered)[0].equals(sorted_)
    assert as_declared(frame, ("a", "b")).equals(sorted_)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 9), st.sampled_from([None, "x", "y"])), max_size=30),
    st.lists(st.tuples(st.integers(0, 9), st.sampled_from([None, "x", "y"])), max_size=4),
    st.booleans(),
)
def test_duplicate_keys_where_the_sort_says_rows_may_tie_are_all_a_hash_finds(head, tail, once):
    # A series in key order with rows appended (an import's): the sort tells which rows may
    # tie, and the key is checked there only. Any duplicate, old or new, is found.
    schema = {"k": pl.Int64, "p": pl.String}
    old = pl.DataFrame(head, schema=schema, orient="row").sort("k", "p", nulls_last=False)
    old = old.unique(maintain_order=True) if once else old
    frame = pl.concat([old, pl.DataFrame(tail, schema=schema, orient="row")])
    frame = frame.with_row_index(ROW, offset=1)
    frame, ties = declared(frame, ("k", "p"))
    ctx = Context({"t": frame}, {"t": ties})
    by_order = UniqueKey(("k", "p"), ("p",), ("k", "p"), table="t").find(frame, ctx)
    by_hash = UniqueKey(("k", "p"), ("p",)).find(frame, Context({}))
    assert (by_hash is None) == (by_order is None)
    if by_hash is not None and by_order is not None:
        assert by_order.sort(ROW).equals(by_hash.sort(ROW))


def test_measurements_out_of_order_load_as_sorted(tmp_path):
    shutil.copytree(GOLDEN_INPUT, tmp_path / "data")
    path = tmp_path / "data" / "measurements.csv"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    head, rows = lines[0], lines[1:]
    random.Random(3).shuffle(rows)
    path.write_text(head + "".join(rows), encoding="utf-8")
    shuffled = load.load(tmp_path / "data").measurements
    assert shuffled.equals(load.load(GOLDEN_INPUT).measurements)


def test_runs_of_zones_cover_the_series_and_never_split_a_zone():
    d = derive.derive(load.load(GOLDEN_INPUT), AS_OF)
    for rows in (1, 3, 50, 10**9):
        runs = batches.zone_runs(d.measurements, rows)
        assert sum(length for _, length in runs) == d.measurements.height
        assert [offset for offset, _ in runs] == [0, *itertools.accumulate(n for _, n in runs[:-1])]
        zones = [set(d.measurements.slice(o, n)["zone_id"]) for o, n in runs]
        assert all(not (a & b) for i, a in enumerate(zones) for b in zones[i + 1 :])
    assert len(batches.zone_runs(d.measurements, 1)) == d.measurements["zone_id"].n_unique()


def test_verdict_changes_do_not_depend_on_the_runs(monkeypatch):
    from generator.site import feeds

    d = derive.derive(load.load(GOLDEN_INPUT), AS_OF)
    whole = feeds.verdict_changes(d, AS_OF).collect()
    monkeypatch.setattr(batches, "ROWS", 3)
    assert len(batches.zone_runs(d.measurements)) > 1
    assert feeds.verdict_changes(d, AS_OF).collect().equals(whole)
    assert whole.height > 0


def test_page_dates_and_feed_entries_do_not_depend_on_the_runs(monkeypatch):
    from generator.site import feeds, seo

    d = derive.derive(load.load(GOLDEN_INPUT), AS_OF)
    dates, entries = seo.page_dates(d, AS_OF), feeds.zone_entries(d, AS_OF)
    monkeypatch.setattr(batches, "ROWS", 3)
    assert len(batches.zone_runs(d.measurements)) > 1
    assert seo.page_dates(d, AS_OF) == dates
    assert feeds.zone_entries(d, AS_OF).equals(entries)
    assert entries.filter(pl.col("key").str.starts_with("dokument-")).height > 0


texts_or_none = st.one_of(st.none(), st.sampled_from(["b", "a", "é", "", "B", "< 0,1"]))


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(st.tuples(texts_or_none, texts_or_none), min_size=1, max_size=30))
def test_distinct_rows_and_mapped_texts_of_a_compact_frame_are_those_of_its_text(rows):
    """`distinct` and `mapped` work on codes; what they give is what the text gives."""
    frame = pl.DataFrame(rows, schema={"x": pl.String, "y": pl.String}, orient="row")
    small = compact(frame)
    expected = frame.unique().sort("x", "y", nulls_last=False)
    for few in (compact_module.FEW_COMBINATIONS, 0):  # first-met order, and hashed
        compact_module.FEW_COMBINATIONS = few
        try:
            found = distinct(small, ["x", "y"]).sort("x", "y", nulls_last=False)
        finally:
            compact_module.FEW_COMBINATIONS = 2**16
        assert found.equals(expected)
    assert unpacked(packed(small, ["x", "y"]), small, ["x", "y"]).equals(frame)

    def upper(x: pl.Expr) -> pl.Expr:
        return pl.when(x == "a").then(None).otherwise(x.str.to_uppercase())

    as_one = mapped(small, "x", upper)
    expected_x = compact(frame.select(upper(pl.col("x")).alias("x"))).get_column("x")
    assert as_one.dtype == expected_x.dtype
    assert as_one.equals(expected_x)


def test_packed_numbers_are_as_wide_as_the_combinations_need() -> None:
    """32-bit numbers while every combination fits, 64-bit beyond; the texts come back."""
    texts = [f"t{i:04d}" for i in range(2000)]
    frame = pl.DataFrame(
        {name: ["t0001", None, "t1999"] for name in "abc"},
        schema={name: pl.Enum(texts) for name in "abc"},
    )
    assert packed(frame, ["a", "b"]).dtype == pl.UInt32  # 2001 ** 2 combinations
    assert packed(frame, ["a", "b", "c"]).dtype == pl.UInt64  # 2001 ** 3 > 2 ** 32
    for names in (["a", "b"], ["a", "b", "c"]):
        back = unpacked(packed(frame, names), frame, names)
        assert back.equals(frame.select(names).with_columns(pl.all().cast(pl.String)))
        assert distinct(frame, names).height == 3


BOOLEAN_TESTS = {
    "blank": lambda x: x.is_null() | (x.str.strip_chars() == ""),
    "upper": lambda x: x == x.str.to_uppercase(),  # null where the text is null
    "never": lambda x: x.is_null() & x.is_not_null(),
    "always": lambda x: x.is_null() | x.is_not_null(),
}


@settings(max_examples=100, deadline=None)
@given(
    column=st.lists(texts_or_none, min_size=1, max_size=30),
    test=st.sampled_from(sorted(BOOLEAN_TESTS)),
)
def test_a_test_of_each_text_spread_to_the_rows_is_the_test_of_the_rows(column, test):
    """`per_text` of a boolean test (tested on the codes) is the test of every row's text."""
    frame = pl.DataFrame({"x": column}, schema={"x": pl.String})
    expr = BOOLEAN_TESTS[test]
    expected = frame.select(expr(pl.col("x"))).to_series()
    found = per_text(compact(frame), "x", expr)
    assert found.equals(expected)
    assert found.name == expected.name
