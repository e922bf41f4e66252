"""Incremental builds: only the zones whose data changed are rendered again.

The tree is byte for byte the tree a full build makes of the same inputs.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from generator.build import build, input_digest
from generator.config import Config
from generator.derive import Derived, Kept, derive, is_read, series_of, with_numbers
from generator.frames import batches
from generator.frames import slices as slices_module
from generator.frames.compact import as_text
from generator.frames.zone_values import NATIONAL, ZoneValues
from generator.incremental import render_plan as incremental
from generator.incremental import reuse, source_prints
from generator.load import load, reference_dir
from generator.output import state as build_state
from generator.output.state import state_dir
from generator.output.tree import read_manifest
from tests.helpers import AS_OF, GOLDEN_INPUT, tree_files

SECTIONS = ("api_page", "export", "openapi", "parameter_pages", "parameters", "places")
"""Every section of `generator.output.sections`, sorted: all kept when only the series changes."""
SPELLINGS = ["0,05", "< 0,01", "n.n.", "12", "0,2", "1,5", "< 0,1"]


def _csv(path: Path) -> pl.DataFrame:
    return pl.read_csv(path, infer_schema=False)


def _copy_build(src: Path, dst: Path) -> None:
    """Copy a published tree and its state, as the next build would find them."""
    shutil.copytree(src, dst)
    shutil.copytree(state_dir(src), state_dir(dst))


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, golden_site: Path) -> Path:
    """Return the golden input and its full build with state (the session's, copied)."""
    root = tmp_path_factory.mktemp("base")
    shutil.copytree(GOLDEN_INPUT, root / "data")
    _copy_build(golden_site, root / "build")
    return root


# ---------------------------------------------------------------------------- change sets


@st.composite
def change_sets(draw: st.DrawFn) -> list[tuple[str, int, str]]:
    """Draw a few edits of the source tables: (kind, row, new text)."""
    measurements = _csv(GOLDEN_INPUT / "measurements.csv").height
    kinds = st.sampled_from(["value", "drop", "append", "title", "zone_name", "plz", "point"])
    edit = st.tuples(
        kinds, st.integers(0, measurements - 1), st.sampled_from([*SPELLINGS, "Neu", "X"])
    )
    return draw(st.lists(edit, min_size=1, max_size=4))


def _apply(data: Path, changes: list[tuple[str, int, str]]) -> None:
    m = _csv(data / "measurements.csv")
    docs = _csv(data / "documents.csv")
    zones = _csv(data / "zones.csv")
    plz = _csv(data / "plz_zones.csv")
    streets = _csv(data / "streets.csv")
    for kind, row, text in changes:
        if kind == "value":
            spelling = text if text in SPELLINGS else "0,3"
            m = m.with_columns(
                pl.when(pl.int_range(pl.len()) == row % m.height)
                .then(pl.lit(spelling))
                .otherwise(pl.col("value_text"))
                .alias("value_text")
            )
        elif kind == "drop" and m.height > 1:
            m = m.filter(pl.int_range(pl.len()) != row % m.height)
        elif kind == "append":
            # one more sample of the same parameter, days before a published one (its
            # document's edition date stays after it)
            new = m.slice(row % m.height, 1).with_columns(
                (pl.col("sampled_at").str.to_date() - pl.duration(days=1 + row % 40))
                .cast(pl.String)
                .alias("sampled_at"),
                pl.lit("0,05").alias("value_text"),
            )
            m = pl.concat([m, new]).unique(
                ["zone_id", "parameter", "sampled_at", "sample_point"], keep="first"
            )
        elif kind == "point":
            m = m.with_columns(
                pl.when(pl.int_range(pl.len()) == row % m.height)
                .then(pl.lit(f"Messstelle {text}"))
                .otherwise(pl.col("sample_point"))
                .alias("sample_point")
            ).unique(["zone_id", "parameter", "sampled_at", "sample_point"], keep="first")
        elif kind == "title":
            i = row % docs.height
            docs = docs.with_columns(
                pl.when(pl.int_range(pl.len()) == i)
                .then(pl.format("{} ({})", pl.col("title"), pl.lit(text)))
                .otherwise(pl.col("title"))
                .alias("title")
            )
        elif kind == "zone_name":
            i = row % zones.height
            zones = zones.with_columns(
                pl.when(pl.int_range(pl.len()) == i)
                .then(pl.format("{} {}", pl.col("name"), pl.lit(text)))
                .otherwise(pl.col("name"))
                .alias("name")
            )
        elif kind == "plz":
            # a PLZ row moves to another zone it is not mapped to yet
            i = row % plz.height
            ids = zones["zone_id"].to_list()
            current = plz.row(i, named=True)
            taken = set(plz.filter(pl.col("plz") == current["plz"])["zone_id"].to_list())
            free = [z for z in ids if z not in taken]
            if free:
                new = free[row % len(free)]
                plz = plz.with_columns(
                    pl.when(pl.int_range(pl.len()) == i)
                    .then(pl.lit(new))
                    .otherwise(pl.col("zone_id"))
                    .alias("zone_id")
                )
                moved = (pl.col("plz") == current["plz"]) & (
                    pl.col("zone_id") == current["zone_id"]
                )
                streets = streets.with_columns(
                    pl.when(moved).then(pl.lit(new)).otherwise(pl.col("zone_id")).alias("zone_id")
                )
    m.write_csv(data / "measurements.csv")
    docs.write_csv(data / "documents.csv")
    zones.write_csv(data / "zones.csv")
    plz.write_csv(data / "plz_zones.csv")
    streets.write_csv(data / "streets.csv")


def _zones_touched(before: pl.DataFrame, after: pl.DataFrame) -> set[str]:
    keys = ["zone_id", "parameter", "sampled_at", "sample_point"]
    changed = pl.concat(
        [
            before.join(after, on=[*keys, "value_text"], how="anti"),
            after.join(before, on=[*keys, "value_text"], how="anti"),
        ]
    )
    return set(changed["zone_id"].to_list())


# Without shrinking: each example is two builds, and shrinking a failure took minutes; the
# failing change set is printed as drawn.
@pytest.mark.slow
@settings(
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(changes=change_sets())
def test_incremental_build_equals_full_build(
    base: Path, tmp_path_factory: pytest.TempPathFactory, changes: list[tuple[str, int, str]]
) -> None:
    root = tmp_path_factory.mktemp("change")
    shutil.copytree(base / "data", root / "data")
    _apply(root / "data", changes)
    _copy_build(base / "build", root / "incremental")
    incremental_result = build(root / "data", root / "incremental", AS_OF, Config())
    full_result = build(root / "data", root / "full", AS_OF, Config())

    zones = _csv(root / "data" / "zones.csv").height
    assert full_result.zones_rendered == zones and full_result.zones_kept == 0
    assert tree_files(root / "incremental") == tree_files(root / "full")
    if incremental_result.report is None:  # the changes wrote what was there: nothing to do
        same = [input_digest(data, AS_OF, Config()) for data in (base / "data", root / "data")]
        assert same[0] == same[1]
        return
    assert incremental_result.zones_rendered is not None
    assert incremental_result.zones_rendered + incremental_result.zones_kept == zones
    assert tree_files(root / "incremental") == tree_files(root / "full")
    assert read_manifest(root / "incremental")["files"] == read_manifest(root / "full")["files"]
    # Zones whose series did not change and whose zone was untouched were kept.
    touched = _zones_touched(
        _csv(base / "data" / "measurements.csv"), _csv(root / "data" / "measurements.csv")
    )
    if all(kind in ("value", "drop", "append", "point") for kind, _, _ in changes):
        # Rendered again: the zones touched, and those whose standing among all zones (their
        # documents' `comparison`) moved with them; the rest kept their files.
        moved = {
            p.name.removesuffix(".json")
            for p in (root / "full" / "_data/v1/zones").glob("*.json")
            if not (base / "build" / "_data/v1/zones" / p.name).exists()
            or p.read_bytes() != (base / "build" / "_data/v1/zones" / p.name).read_bytes()
        }
        assert incremental_result.zones_rendered <= len(set(touched) | moved)
        # Only the touched zones' current values were derived; the others' were taken.
        assert incremental_result.zones_derived is not None
        assert incremental_result.zones_derived <= len(touched)
    # A shared table changed (two moves of one PLZ row may put it back: then it did not).
    shared = ("zones.csv", "plz_zones.csv")
    if any(not _csv(base / "data" / n).equals(_csv(root / "data" / n)) for n in shared):
        assert incremental_result.zones_derived == zones


@pytest.mark.slow
def test_daily_updates_in_a_row_equal_full_builds(base: Path, tmp_path: Path) -> None:
    """From the third build on, the writer updates the tree the swap before replaced."""
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    days = [
        [("append", 3, "0,05"), ("title", 1, "Neu")],
        [("value", 3, "< 0,01"), ("zone_name", 2, "X")],
        [("plz", 5, "X"), ("drop", 7, "X"), ("value", 11, "12")],
    ]
    for day, changes in enumerate(days):
        _apply(tmp_path / "data", changes)
        build(tmp_path / "data", tmp_path / "build", AS_OF, Config())
        full = tmp_path / f"full-{day}"
        build(tmp_path / "data", full, AS_OF, Config())
        assert tree_files(tmp_path / "build") == tree_files(full), f"day {day}: {changes}"
        assert read_manifest(tmp_path / "build")["files"] == read_manifest(full)["files"]
    assert (tmp_path / ".build.staging").is_dir()


def test_an_empty_feed_of_a_kept_zone_follows_the_newest_entry(base: Path, tmp_path: Path) -> None:
    """Zone 23's feed has no entries: it is dated by the newest entry of any zone."""
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    empty = incremental.zone_paths(23)[3]
    assert "<entry>" not in (tmp_path / "build" / empty).read_text(encoding="utf-8")
    with (tmp_path / "data" / "documents.csv").open("a", encoding="utf-8") as fh:
        fh.write("wk-neu,1,Nachtrag,https://example.org/nachtrag.pdf,2026-11-20,2026-11-21\n")
    with (tmp_path / "data" / "measurements.csv").open("a", encoding="utf-8") as fh:
        # Sulphate: no value compared across zones (`generator.compare`), so no other
        # zone's standing moves with it.
        fh.write('11,sulfat,2026-11-10,"12",mg/l,wk-neu,Netz,\n')
    result = build(tmp_path / "data", tmp_path / "build", AS_OF, Config())

    assert result.zones_rendered == 1
    assert result.report is not None and empty in result.report.written
    assert "<updated>2026-11-20T00:00:00Z</updated>" in (tmp_path / "build" / empty).read_text(
        encoding="utf-8"
    )
    # A zone with entries of its own kept its feed.
    assert incremental.zone_paths(12)[3] not in result.report.written
    build(tmp_path / "data", tmp_path / "full", AS_OF, Config())
    assert tree_files(tmp_path / "build") == tree_files(tmp_path / "full")


def test_one_zone_changed_renders_that_zone_only(base: Path, tmp_path: Path) -> None:
    shutil.copytree(base / "data", tmp_path / "data")
    m = _csv(tmp_path / "data" / "measurements.csv")
    zone = m["zone_id"][0]
    m.with_columns(
        pl.when(pl.int_range(pl.len()) == 0)
        .then(pl.lit("0,01"))
        .otherwise(pl.col("value_text"))
        .alias("value_text")
    ).write_csv(tmp_path / "data" / "measurements.csv")
    _copy_build(base / "build", tmp_path / "build")
    before = tree_files(tmp_path / "build")
    result = build(tmp_path / "data", tmp_path / "build", AS_OF, Config())

    assert result.zones_rendered == 1
    assert result.zones_kept == _csv(GOLDEN_INPUT / "zones.csv").height - 1
    assert result.zones_derived == 1
    # Nothing of the register, the exports or the places follows from the series, nor
    # anything a supplier's document and page show.
    assert result.sections_kept == SECTIONS
    assert result.suppliers_rendered == 0
    # The PLZ it serves have their lookup and page rendered again, the others keep theirs.
    plz = _csv(tmp_path / "data" / "plz_zones.csv")
    served = set(plz.filter(pl.col("zone_id") == zone)["plz"].to_list())
    others = set(plz["plz"].to_list()) - served
    assert served and others
    assert result.plz_rendered == len(served)
    after = tree_files(tmp_path / "build")
    changed = {p for p in after if before.get(p) != after[p]}
    assert incremental.zone_paths(int(zone))[1] in changed  # its series
    # the files of the other zones are the previous tree's, hard-linked
    other = incremental.zone_paths(int(_csv(GOLDEN_INPUT / "zones.csv")["zone_id"][-1]))
    for rel in other:
        assert rel not in changed
        assert (tmp_path / "build" / rel).stat().st_nlink >= 1


def _derives_every_zone_as_a_full_build(tmp_path: Path) -> None:
    """Change a value and build `build` again: every zone is derived, as in a full build."""
    _apply(tmp_path / "data", [("value", 3, "0,02")])
    result = build(tmp_path / "data", tmp_path / "build", AS_OF, Config())

    assert result.zones_derived == _csv(GOLDEN_INPUT / "zones.csv").height
    build(tmp_path / "data", tmp_path / "full", AS_OF, Config())
    assert tree_files(tmp_path / "build") == tree_files(tmp_path / "full")


def _damaged(run: Path, how: str) -> None:
    data = bytearray(run.read_bytes())
    if how == "not arrow":
        data = bytearray(b"not an Arrow file")
    elif how == "bytes in its middle":
        # Found by a review: zstd then failed every read ("Destination buffer is too small").
        middle = len(data) // 2
        data[middle : middle + 80] = bytes(b ^ 0xFF for b in data[middle : middle + 80])
    else:  # one bit: some such reads succeed with other values, others abort polars
        data[len(data) * 2 // 3] ^= 0x04
    run.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["not arrow", "bytes in its middle", "one bit"])
def test_kept_values_unreadable_after_all_derive_every_zone(
    base: Path, tmp_path: Path, how: str
) -> None:
    """A run of the kept current values that is damaged fails no build: all is derived."""
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    runs = sorted(build_state.CURRENT_VALUES.path(tmp_path / "build").glob("*.arrow"))
    assert runs
    _damaged(runs[0], how)
    assert reuse.readable_runs(tmp_path / "build") is None
    _derives_every_zone_as_a_full_build(tmp_path)
    # The runs written for the next build are whole again.
    assert _stored_values(tmp_path / "build") is not None


@pytest.mark.parametrize(
    "file", [build_state.ZONE_ROWS, build_state.ZONE_DOCUMENTS, build_state.NATIONAL_ROWS]
)
def test_a_state_file_that_reads_but_was_changed_is_not_taken(
    base: Path, tmp_path: Path, file: build_state.StateFile
) -> None:
    """A kept zones' summaries, documents or national rows not as written derive all."""
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    path = file.path(tmp_path / "build")
    assert reuse.intact(tmp_path / "build", file)
    if path.suffix == ".arrow":
        pl.read_ipc(path).slice(1).write_ipc(path)  # reads well, one row short
    else:
        pl.read_parquet(path).slice(1).write_parquet(path)  # reads well, one zone's row short
    assert not reuse.intact(tmp_path / "build", file)
    _derives_every_zone_as_a_full_build(tmp_path)
    assert reuse.intact(tmp_path / "build", file)  # written again, whole


def test_an_index_of_runs_changed_since_it_was_written_takes_nothing(
    base: Path, tmp_path: Path
) -> None:
    """A run's zones named otherwise (valid JSON, found by a review) read and kept other rows."""
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    path = build_state.CURRENT_VALUES.member(tmp_path / "build", build_state.VALUES_INDEX)
    digest, _, text = path.read_bytes().partition(b"\n")
    index = json.loads(text)
    first, _last, rows, name = index["runs"][0]
    index["runs"][0] = [first, first, rows, name]
    path.write_bytes(digest + b"\n" + json.dumps(index, sort_keys=True).encode())
    assert reuse.stored(tmp_path / "build") is None
    _derives_every_zone_as_a_full_build(tmp_path)
    assert reuse.stored(tmp_path / "build") is not None


def _limits_changed(data: Path) -> None:
    limits = _csv(reference_dir() / "limits.csv")
    nitrat = pl.col("code") == "nitrat"
    limits.with_columns(
        pl.when(nitrat & (pl.col("limit_value") == "50"))
        .then(pl.lit("40"))
        .otherwise(pl.col("limit_value"))
        .alias("limit_value")
    ).write_csv(data / "limits.csv")


@pytest.mark.slow
@pytest.mark.parametrize("change", ["limits", "settings", "as_of", "force"])
def test_a_change_everything_shares_renders_every_zone(
    base: Path, tmp_path: Path, change: str
) -> None:
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    config, as_of, force = Config(), AS_OF, False
    if change == "limits":
        _limits_changed(tmp_path / "data")
    elif change == "settings":
        config = dataclasses.replace(config, operator="Ein anderer Betreiber")
    elif change == "as_of":
        as_of = AS_OF + dt.timedelta(days=1)
    else:
        force = True
    result = build(tmp_path / "data", tmp_path / "build", as_of, config, force=force)

    assert result.zones_rendered == _csv(GOLDEN_INPUT / "zones.csv").height
    assert result.zones_kept == 0
    assert result.sections_kept == ()
    if force:  # the inputs are unchanged: the full build of them is the base's
        assert tree_files(tmp_path / "build") == tree_files(base / "build")
        return
    full = build(tmp_path / "data", tmp_path / "full", as_of, config)
    assert tree_files(tmp_path / "build") == tree_files(tmp_path / "full")
    assert full.zones_rendered == result.zones_rendered


def test_a_lost_file_of_an_unchanged_zone_is_rendered_again(base: Path, tmp_path: Path) -> None:
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    zone = int(_csv(GOLDEN_INPUT / "zones.csv")["zone_id"][0])
    page = tmp_path / "build" / incremental.zone_paths(zone)[2]
    expected = page.read_bytes()
    page.unlink()
    # any data change, so the build does not stop at "inputs unchanged"
    with (tmp_path / "data" / "documents.csv").open("a", encoding="utf-8") as fh:
        fh.write("neu-1,1,Neues Dokument,https://example.org/neu.pdf,2026-01-01,2026-01-02\n")
    result = build(tmp_path / "data", tmp_path / "build", AS_OF, Config())

    assert result.zones_rendered == 1
    assert page.read_bytes() == expected


def test_a_file_lost_from_the_tree_and_held_beside_it_is_kept_from_there(
    base: Path, tmp_path: Path
) -> None:
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    documents = tmp_path / "data" / "documents.csv"
    for n in (1, 2):  # after two builds the staging tree holds the files as published
        with documents.open("a", encoding="utf-8") as fh:
            fh.write(
                f"neu-{n},1,Neues Dokument,https://example.org/{n}.pdf,2026-01-01,2026-01-02\n"
            )
        build(tmp_path / "data", tmp_path / "build", AS_OF, Config())
    zone = int(_csv(GOLDEN_INPUT / "zones.csv")["zone_id"][0])
    page = tmp_path / "build" / incremental.zone_paths(zone)[2]
    expected = page.read_bytes()
    page.unlink()
    with documents.open("a", encoding="utf-8") as fh:
        fh.write("neu-3,1,Neues Dokument,https://example.org/3.pdf,2026-01-01,2026-01-02\n")
    result = build(tmp_path / "data", tmp_path / "build", AS_OF, Config())

    assert result.zones_rendered == 0  # the staging tree's copy is the page as published
    assert page.read_bytes() == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    "lost", ["parameter/sulfat/index.html", "v1/openapi.json", "api/index.html"]
)
def test_a_lost_file_of_a_kept_section_renders_the_section_again(
    base: Path, tmp_path: Path, lost: str
) -> None:
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    expected = tree_files(base / "build")
    (tmp_path / "build" / lost).unlink()
    with (tmp_path / "data" / "documents.csv").open("a", encoding="utf-8") as fh:
        fh.write("neu-1,1,Neues Dokument,https://example.org/neu.pdf,2026-01-01,2026-01-02\n")
    result = build(tmp_path / "data", tmp_path / "build", AS_OF, Config())

    section = {
        # nitrate compares zones, its page is rendered every time: a page of the section
        "parameter/sulfat/index.html": "parameter_pages",
        "v1/openapi.json": "openapi",
        "api/index.html": "api_page",
    }
    assert result.sections_kept == tuple(s for s in SECTIONS if s != section[lost])
    assert result.suppliers_rendered == 1  # the new document's
    assert (tmp_path / "build" / lost).read_bytes() == expected[lost]


def test_a_zone_name_renders_the_sections_again(base: Path, tmp_path: Path) -> None:
    # The search index lists the zones' names: every section is rendered again.
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    _apply(tmp_path / "data", [("zone_name", 0, "Neu")])
    result = build(tmp_path / "data", tmp_path / "build", AS_OF, Config())
    assert result.sections_kept == ()
    full = build(tmp_path / "data", tmp_path / "full", AS_OF, Config())
    assert tree_files(tmp_path / "build") == tree_files(tmp_path / "full")
    assert full.sections_kept == ()


def test_without_state_every_zone_is_rendered(base: Path, tmp_path: Path) -> None:
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    incremental.state_path(tmp_path / "build").unlink()
    with (tmp_path / "data" / "documents.csv").open("a", encoding="utf-8") as fh:
        fh.write("neu-1,1,Neues Dokument,https://example.org/neu.pdf,2026-01-01,2026-01-02\n")
    result = build(tmp_path / "data", tmp_path / "build", AS_OF, Config())
    assert result.zones_kept == 0
    assert incremental.read_state(tmp_path / "build") is not None


def _prints(data: Path) -> pl.DataFrame:
    """Return the fingerprints of the zones of a data directory, all derived."""
    source = load(data)
    sources = source_prints.source_prints(source.measurements, source.documents)
    return incremental.fingerprints(derive(source, AS_OF), sources)


def test_fingerprints_do_not_depend_on_the_hashing_batches(
    base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = _prints(base / "data")
    monkeypatch.setattr(batches, "ROWS", 3)
    assert _prints(base / "data").equals(whole)
    zones = _csv(GOLDEN_INPUT / "zones.csv")["zone_id"].cast(int)
    assert whole["zone_id"].to_list() == sorted(zones)


def test_a_measurement_changes_the_fingerprint_of_its_zone_only(base: Path, tmp_path: Path) -> None:
    shutil.copytree(base / "data", tmp_path / "data")
    before = _prints(tmp_path / "data")
    m = _csv(tmp_path / "data" / "measurements.csv")
    last = m.height - 1
    m.with_columns(
        pl.when(pl.int_range(pl.len()) == last)
        .then(pl.lit("< 0,001"))
        .otherwise(pl.col("value_text"))
        .alias("value_text")
    ).write_csv(tmp_path / "data" / "measurements.csv")
    after = _prints(tmp_path / "data")
    changed = before.join(after, on="zone_id").filter(
        pl.col("fingerprint") != pl.col("fingerprint_right")
    )
    assert changed["zone_id"].to_list() == [int(m["zone_id"][last])]


def test_a_printed_reporting_limit_changes_the_fingerprint_of_its_zone(
    base: Path, tmp_path: Path
) -> None:
    """The series shows the printed text verbatim, also where its number stays the same.

    An earlier sample's: no current value shows it.
    """
    shutil.copytree(base / "data", tmp_path / "data")
    path = tmp_path / "data" / "measurements.csv"
    m = _csv(path)
    first = m.row(0, named=True)
    assert m.filter(
        (pl.col("zone_id") == first["zone_id"])
        & (pl.col("parameter") == first["parameter"])
        & (pl.col("sampled_at") > first["sampled_at"])
    ).height

    def printed(text: str) -> pl.DataFrame:
        only_first = pl.when(pl.int_range(pl.len()) == 0).then(pl.lit(text))
        m.with_columns(only_first.alias("reporting_limit")).write_csv(path)
        return _prints(tmp_path / "data")

    before, after = printed("0,05"), printed("0,050")
    changed = before.join(after, on="zone_id").filter(
        pl.col("fingerprint") != pl.col("fingerprint_right")
    )
    assert changed["zone_id"].to_list() == [int(first["zone_id"])]


@pytest.mark.parametrize("slices", [slices_module.FEW_KEYS, 0])
@pytest.mark.parametrize("every", [1, 2, 3])
def test_rows_taken_from_the_state_are_the_rows_derived(
    tmp_path: Path, every: int, slices: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows kept through `build-state/` equal derived ones.

    Current values, summaries, checks and the zones' documents; the current values read
    whole, for some zones (by binary search or by a filter) or some columns of every zone.
    """
    monkeypatch.setattr(slices_module, "FEW_KEYS", slices)
    data = load(GOLDEN_INPUT)
    whole = derive(data, AS_OF)
    ids = whole.zones["zone_id"].gather_every(every)
    chosen = pl.col("zone_id").is_in(ids.implode())
    # The previous build knew none of the other zones' measurements: their rows must go.
    before = dataclasses.replace(data, measurements=data.measurements.filter(chosen))
    monkeypatch.setattr(reuse, "RUN_ZONES", 4)  # a few runs, so that some zone's are read
    reuse.write(tmp_path / "build", reuse.encoded(derive(before, AS_OF)))
    state = state_dir(tmp_path / "build")
    runs = reuse.stored(tmp_path / "build")
    assert runs is not None and len(runs) > 1
    kept = Kept(
        ids,
        tuple(runs),
        pl.scan_parquet(state / build_state.ZONE_ROWS.name).filter(chosen),
        pl.scan_parquet(state / build_state.ZONE_DOCUMENTS.name).filter(chosen),
        pl.scan_ipc(state / build_state.NATIONAL_ROWS.name),
    )
    part = derive(data, AS_OF, kept=kept)
    values, every_value = part.current_values, whole.current_values.all()
    assert not values.whole
    assert values.held.height < every_value.height
    assert values.all().schema == every_value.schema
    assert values.all().equals(every_value)
    narrow = ["zone_id", "parameter", "state"]
    assert values.lazy().select(narrow).collect().equals(every_value.select(narrow))
    national = values.national().collect()
    assert national.equals(whole.current_values.national().collect())
    assert national.height < every_value.height
    zone_ids = whole.zones["zone_id"]
    for some in (zone_ids.head(3), zone_ids.gather_every(2), zone_ids.tail(2), zone_ids.clear()):
        assert values.of(some).equals(every_value.filter(pl.col("zone_id").is_in(some.implode())))
    assert part.zones.schema == whole.zones.schema
    assert part.zones.equals(whole.zones)
    assert part.zone_documents.schema == whole.zone_documents.schema
    assert part.zone_documents.equals(whole.zone_documents)
    # The series is read only for the zones rendered, with the same numbers.
    assert not is_read(part)
    assert _shown(series_of(part)).equals(_shown(whole))
    for few in (whole.zones["zone_id"].head(3), whole.zones["zone_id"].gather_every(2)):
        assert _shown(series_of(part, few)).equals(_shown(series_of(whole, few)))

    assert incremental.restrict(part, None).measurements.height == whole.measurements.height


def _shown(d: Derived) -> pl.DataFrame:
    """Return the series as the renderers show it: its texts and its readings' numbers."""
    return as_text(with_numbers(d.measurements, d.readings))


def test_the_kept_current_values_are_read_in_chunks_of_the_readers_size(tmp_path: Path) -> None:
    """Merged slices stay slices, but never pile up from daily update to daily update."""
    values = pl.concat(
        [_national(pl.DataFrame({"zone_id": [i], "parameter": ["nitrat"]})) for i in range(500)],
        rechunk=False,
    )
    reuse.write(tmp_path, reuse.encoded(_with_values(values)))
    read = _stored_values(tmp_path)
    assert read is not None
    assert read.equals(values)
    runs = reuse.stored(tmp_path)
    assert runs is not None and len(runs) == 500 // reuse.RUN_ZONES
    assert read.get_column("zone_id").n_chunks() == len(runs)  # one per file


def _with_values(values: pl.DataFrame) -> Derived:
    return dataclasses.replace(_golden_derived(), current_values=ZoneValues(values))


def _updated(now: pl.DataFrame, out: Path, kept: pl.Series) -> Derived:
    """Return `now` as a daily update holds it: the `kept` zones' rows in the runs of `out`."""
    runs = reuse.stored(out)
    assert runs is not None
    held = now.filter(~pl.col("zone_id").is_in(kept.implode()))
    ids = now.get_column("zone_id").unique().sort()
    golden = _golden_derived()
    zones = golden.zones.head(ids.len()).with_columns(ids.alias("zone_id"))
    return dataclasses.replace(
        golden, zones=zones, current_values=ZoneValues(held, tuple(runs), kept)
    )


def _stored_values(out: Path) -> pl.DataFrame | None:
    """Return every row of the runs of current values beside `out` (None: they are not there)."""
    runs = reuse.readable_runs(out)
    return None if runs is None else pl.scan_ipc([run.path for run in runs]).collect()


@functools.cache
def _golden_derived() -> Derived:
    return derive(load(GOLDEN_INPUT), AS_OF)


def _values(changed: dict[int, float] | None = None, zones: int = 10) -> pl.DataFrame:
    """Two rows per zone 1 to `zones`, a zone's value 1.0 unless `changed` says."""
    ids = [z for z in range(1, zones + 1) for _ in range(2)]
    return _national(
        pl.DataFrame(
            {"zone_id": ids, "value": [(changed or {}).get(z, 1.0) for z in ids]},
            schema={"zone_id": pl.Int64, "value": pl.Float64},
        )
    )


def _national(values: pl.DataFrame) -> pl.DataFrame:
    """`values` with the columns of `ZoneValues.national` it lacks, empty (no row is national)."""
    missing = [name for name in NATIONAL if name not in values.columns]
    return values.with_columns(pl.lit(None, dtype=pl.String).alias(name) for name in missing)


def _value_runs(out: Path) -> list[str]:
    return sorted(p.name for p in build_state.CURRENT_VALUES.path(out).glob("*.arrow"))


def test_a_daily_update_encodes_again_only_the_runs_of_zones_it_derived(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reuse, "RUN_ZONES", 3)
    reuse.write(tmp_path, reuse.encoded(_with_values(_values())))
    before = _value_runs(tmp_path)
    assert [name.split("-")[:2] for name in before] == [
        ["1", "3"], ["10", "10"], ["4", "6"], ["7", "9"]
    ]  # fmt: skip
    now = _values({5: 2.0})
    kept = pl.Series("zone_id", [z for z in range(1, 11) if z != 5], dtype=pl.Int64)
    files = reuse.encoded(_updated(now, tmp_path, kept))
    written = [name for name, _ in files if name.startswith(build_state.CURRENT_VALUES.name)]
    assert [name.split("/")[1].split("-")[:2] for name in written[:-1]] == [["4", "6"]]
    reuse.write(tmp_path, files)
    after = _value_runs(tmp_path)
    assert len(after) == 4
    assert set(before) - set(after) == {n for n in before if n.startswith("4-6-")}
    read = _stored_values(tmp_path)
    assert read is not None
    assert read.equals(now)
    # Nothing taken from the previous build: every run is encoded again, laid out anew.
    files = reuse.encoded(_with_values(now))
    assert (
        len([name for name, _ in files if name.startswith(f"{build_state.CURRENT_VALUES.name}/")])
        == 5
    )


def test_a_zone_outside_the_runs_lays_the_runs_out_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reuse, "RUN_ZONES", 3)
    reuse.write(tmp_path, reuse.encoded(_with_values(_values())))
    now = _values(zones=12)
    kept = pl.Series("zone_id", range(1, 11), dtype=pl.Int64)
    files = reuse.encoded(_updated(now, tmp_path, kept))
    assert (
        len([name for name, _ in files if name.startswith(f"{build_state.CURRENT_VALUES.name}/")])
        == 5
    )
    reuse.write(tmp_path, files)
    assert [name.split("-")[:2] for name in _value_runs(tmp_path)] == [
        ["1", "3"], ["10", "12"], ["4", "6"], ["7", "9"]
    ]  # fmt: skip
    read = _stored_values(tmp_path)
    assert read is not None
    assert read.equals(now)


def test_a_missing_run_takes_nothing_from_the_previous_build(tmp_path: Path) -> None:
    reuse.write(tmp_path, reuse.encoded(_with_values(_values())))
    assert reuse.readable_runs(tmp_path) is not None
    first = sorted(build_state.CURRENT_VALUES.path(tmp_path).glob("*.arrow"))[0]
    first.unlink()
    assert reuse.readable_runs(tmp_path) is None


def test_a_value_that_moves_other_zones_standing_renders_them_too(
    base: Path, tmp_path: Path
) -> None:
    """Render again the zones whose standing a new value in another zone moved.

    Nitrate is compared across zones: a new high value in one zone lowers the share of
    zones above every other zone's value, so their pages and documents change too.
    """
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    before = tree_files(tmp_path / "build")
    with (tmp_path / "data" / "measurements.csv").open("a", encoding="utf-8") as fh:
        fh.write('11,nitrat,2026-06-20,"49",mg/l,wk-2026,Netz Süd,\n')
    result = build(tmp_path / "data", tmp_path / "build", AS_OF, Config())
    build(tmp_path / "data", tmp_path / "full", AS_OF, Config())

    assert tree_files(tmp_path / "build") == tree_files(tmp_path / "full")
    assert result.zones_derived == 1 and result.zones_rendered is not None
    assert result.zones_rendered > 1
    after = tree_files(tmp_path / "build")
    moved = [
        z
        for z in _csv(GOLDEN_INPUT / "zones.csv")["zone_id"].to_list()
        if z != 11 and before[incremental.zone_paths(z)[0]] != after[incremental.zone_paths(z)[0]]
    ]
    assert moved  # another zone's document changed: its standing did


def _footer(out: Path, rel: str) -> str:
    import re

    (line,) = re.findall(r"<p>(Bewertet am [^<]*?) · Beta-Version", (out / rel).read_text())
    return line


def test_a_newer_publication_is_named_where_its_values_are_shown(
    base: Path, tmp_path: Path
) -> None:
    """A page's footer names the newest publication of what it shows, up to the build date.

    Only the pages that show the new publication's values change (and those about the data
    as a whole, which every build renders): the update stays an update.
    """
    shutil.copytree(base / "data", tmp_path / "data")
    _copy_build(base / "build", tmp_path / "build")
    out = tmp_path / "build"
    before = {rel: _footer(out, rel) for rel in ("index.html", "gebiete/11/index.html")}
    assert before == {
        "index.html": "Bewertet am 23.11.2026 · neueste Veröffentlichung 31.07.2026",
        "gebiete/11/index.html": "Bewertet am 23.11.2026 · neueste Veröffentlichung 30.06.2026",
    }
    zone_23 = _footer(out, "gebiete/23/index.html")
    with (tmp_path / "data" / "documents.csv").open("a", encoding="utf-8") as fh:
        # Uncited, and published after the build date: neither is one the build used.
        fh.write("wk-leer,1,Ohne Werte,https://example.org/leer.pdf,2026-11-22,2026-11-22\n")
        fh.write("wk-spaet,1,Später,https://example.org/spaet.pdf,2026-12-01,2026-12-02\n")
        fh.write("wk-neu,1,Nachtrag,https://example.org/nachtrag.pdf,2026-11-20,2026-11-21\n")
    with (tmp_path / "data" / "measurements.csv").open("a", encoding="utf-8") as fh:
        # Sulphate: compared across no zones, so no other zone's page moves with it.
        fh.write('11,sulfat,2026-11-10,"12",mg/l,wk-neu,Netz,\n')
        fh.write('11,chlorid,2026-11-30,"12",mg/l,wk-spaet,Netz,\n')
    result = build(tmp_path / "data", out, AS_OF, Config())

    assert result.zones_rendered == 1
    new = "Bewertet am 23.11.2026 · neueste Veröffentlichung 20.11.2026"
    for rel in ("index.html", "karte/index.html", "downloads/index.html", "gebiete/11/index.html"):
        assert _footer(out, rel) == new, rel
    assert _footer(out, "gebiete/23/index.html") == zone_23  # kept, its own date
    # The supplier's page lists its documents: the newest up to the build date.
    assert _footer(out, "versorger/1/index.html") == (
        "Bewertet am 23.11.2026 · neueste Veröffentlichung 22.11.2026"
    )
    assert _footer(out, "api/index.html") == "Bewertet am 23.11.2026"
    build(tmp_path / "data", tmp_path / "full", AS_OF, Config())
    assert tree_files(out) == tree_files(tmp_path / "full")
