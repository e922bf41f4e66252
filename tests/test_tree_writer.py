"""The writer keeps the tree a swap replaced and brings it up to date in the next build.

Each build must still publish exactly the files it wrote or kept, nothing of an older tree,
and never change a file of the published tree while it builds the next one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import BuildError
from generator.output import tree as write_module
from generator.output.encode import file_digest
from generator.output.tree import (
    TreeWriter,
    available,
    manifest_path,
    present,
    read_manifest,
    read_staging_manifest,
    staging_manifest_path,
)
from tests.helpers import tree_files


def folders_of(root: Path) -> set[str]:
    return {os.path.relpath(os.path.join(d, n), root) for d, dirs, _ in os.walk(root) for n in dirs}


def assert_published(out: Path, files: dict[str, bytes]) -> None:
    """Assert that the tree and its manifest hold exactly `files`, no folder left empty."""
    assert tree_files(out) == files
    assert read_manifest(out)["files"] == {rel: file_digest(data) for rel, data in files.items()}
    assert folders_of(out) == {str(p) for rel in files for p in Path(rel).parents} - {"."}


def publish(out: Path, files: dict[str, bytes], keep: tuple[str, ...] = ()) -> TreeWriter:
    with TreeWriter(out) as writer:
        for rel, data in files.items():
            writer.write(rel, data)
        for rel in keep:
            writer.keep(rel)
        writer.commit({"build": "test"})
    return writer


def staging(out: Path) -> Path:
    return out.with_name(f".{out.name}.staging")


def test_the_replaced_tree_is_kept_beside_and_reused(tmp_path: Path) -> None:
    out = tmp_path / "build"
    first = {"a/1.json": b"1", "b/2.json": b"2", "b/c/3.json": b"3"}
    publish(out, first)
    assert not staging(out).exists()  # the first build had nothing to replace
    second = {"a/1.json": b"1 neu", "d/4.json": b"4"}
    publish(out, second)
    assert tree_files(out) == second
    assert tree_files(staging(out)) == first  # the replaced tree, whole
    third = {"a/1.json": b"1 neu", "b/2.json": b"2 neu", "e/5.json": b"5"}
    writer = publish(out, third)
    # Brought up to date from the first tree: its stale files and emptied folders are gone.
    assert tree_files(out) == third
    assert folders_of(out) == {"a", "b", "e"}
    assert tree_files(staging(out)) == second
    # The staging tree's manifest is the previous tree's, moved; nothing else stays beside.
    staged = read_staging_manifest(out)["files"]
    assert set(staged) == set(second)
    assert sorted(p.name for p in manifest_path(out).parent.iterdir()) == [
        "manifest.sha256",
        "staging.sha256",
    ]
    assert writer.report.written == ["b/2.json", "e/5.json"]
    assert writer.report.unchanged == 1
    assert writer.report.deleted == ["d/4.json"]


def test_a_build_never_changes_a_published_file(tmp_path: Path) -> None:
    """An unchanged file is one inode in both trees: staging a new content must not write it."""
    out = tmp_path / "build"
    publish(out, {"f.json": b"alt"})
    publish(out, {"f.json": b"alt"})  # linked: the staging tree's file is the published inode
    assert os.path.samefile(out / "f.json", staging(out) / "f.json")
    with TreeWriter(out) as writer:
        writer.write("f.json", b"neu")
        assert (out / "f.json").read_bytes() == b"alt"  # before the swap, readers see the old
        writer.commit({})
    assert (out / "f.json").read_bytes() == b"neu"
    assert (staging(out) / "f.json").read_bytes() == b"alt"


def test_kept_files_come_from_the_published_tree(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"z/1.json": b"eins", "z/2.json": b"zwei"})
    publish(out, {"z/1.json": b"eins neu"}, keep=("z/2.json",))
    publish(out, {"z/1.json": b"eins neuer"}, keep=("z/2.json",))
    assert tree_files(out) == {"z/1.json": b"eins neuer", "z/2.json": b"zwei"}


def test_a_staging_tree_that_lost_a_file_is_not_trusted_for_it(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"a.json": b"a", "b.json": b"b"})
    publish(out, {"a.json": b"a", "b.json": b"b2"})
    (staging(out) / "a.json").unlink()
    publish(out, {"a.json": b"a", "b.json": b"b3"})
    assert tree_files(out) == {"a.json": b"a", "b.json": b"b3"}


def test_without_its_manifest_the_staging_tree_starts_anew(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"a.json": b"a"})
    publish(out, {"b.json": b"b"})
    staging_manifest_path(out).unlink()
    (staging(out) / "stray.json").write_bytes(b"from a crashed build")
    publish(out, {"c.json": b"c"})
    assert tree_files(out) == {"c.json": b"c"}


def test_a_failed_build_drops_the_staging_tree(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"a.json": b"a"})
    publish(out, {"a.json": b"a2"})
    with pytest.raises(RuntimeError), TreeWriter(out) as writer:
        writer.write("a.json", b"a3")
        raise RuntimeError("rendering failed")
    assert tree_files(out) == {"a.json": b"a2"}
    assert not staging(out).exists() and not staging_manifest_path(out).exists()
    publish(out, {"a.json": b"a4"})
    assert tree_files(out) == {"a.json": b"a4"}


def test_a_file_and_a_folder_may_change_places(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"x/y.json": b"1", "z": b"2"})
    publish(out, {"w.json": b"3"})
    publish(out, {"x": b"4", "z/v.json": b"5"})  # over the first tree, still in staging
    assert tree_files(out) == {"x": b"4", "z/v.json": b"5"}
    assert read_manifest(out)["files"].keys() == {"x", "z/v.json"}


NAMES = ["a.json", "a/b/c.json", "a/d.json", "e/f.json", "g", "g/h.json"]
"""With `g` a file in one tree and a folder in another."""

trees = st.lists(
    st.dictionaries(st.sampled_from(NAMES), st.sampled_from([b"1", b"2", b"3"])).filter(
        lambda files: not ("g" in files and "g/h.json" in files)
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=40, deadline=None)
@given(trees=trees)
def test_every_build_publishes_exactly_its_files(
    tmp_path_factory: pytest.TempPathFactory, trees: list[dict[str, bytes]]
) -> None:
    out = tmp_path_factory.mktemp("trees") / "build"
    for files in trees:
        publish(out, files)
        assert_published(out, files)


def test_a_replaced_tree_no_manifest_described_is_not_kept(tmp_path: Path) -> None:
    """Without the published tree's manifest, the tree a swap replaces holds unknown files."""
    out = tmp_path / "build"
    publish(out, {"a.json": b"a", "old.json": b"old"})
    publish(out, {"a.json": b"a", "old.json": b"old"})
    manifest_path(out).unlink()
    publish(out, {"a.json": b"a"})
    assert not staging(out).exists() and not staging_manifest_path(out).exists()
    publish(out, {"a.json": b"a"})
    assert tree_files(out) == {"a.json": b"a"}


@pytest.mark.parametrize("order", [("x/y.json", "x"), ("x", "x/y.json")])
def test_a_file_and_a_folder_of_one_name_in_one_tree_is_refused(
    tmp_path: Path, order: tuple[str, str]
) -> None:
    out = tmp_path / "build"
    publish(out, {"z.json": b"1"})
    publish(out, {"z.json": b"2"})  # the next build reuses a staging tree
    with pytest.raises(BuildError, match="both a file and a folder"), TreeWriter(out) as writer:
        for rel in order:
            writer.write(rel, b"x")
    assert tree_files(out) == {"z.json": b"2"}


def test_present_names_the_files_that_are_there(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "1.json").write_bytes(b"1")
    (tmp_path / "b").mkdir()  # a folder is no file
    assert present(tmp_path, ["a/1.json", "a/2.json", "b", "c/3.json"]) == {"a/1.json"}


def test_a_file_can_be_kept_from_the_staging_tree_or_the_published_one(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"same.json": b"s", "changed.json": b"1", "lost.json": b"l", "gone.json": b"g"})
    publish(out, {"same.json": b"s", "changed.json": b"2", "lost.json": b"l", "gone.json": b"g"})
    files = read_manifest(out)["files"]
    (out / "same.json").unlink()  # the staging tree holds it as published
    (staging(out) / "lost.json").unlink()  # the published tree still has it
    (out / "gone.json").unlink()
    (staging(out) / "gone.json").unlink()  # neither has it
    can, staged = available(out, files)
    # changed.json: the staging tree holds the first version, so it comes from the tree.
    assert staged == {"same.json"}
    assert can == {"same.json", "changed.json", "lost.json"}
    with TreeWriter(out, staged=staged) as writer:
        writer.keep_all(sorted(can))
        writer.write("gone.json", b"g")
        writer.commit({})
    assert_published(
        out, {"same.json": b"s", "changed.json": b"2", "lost.json": b"l", "gone.json": b"g"}
    )


def test_the_staging_manifest_read_once_serves_both_the_check_and_the_writer(
    tmp_path: Path,
) -> None:
    out = tmp_path / "build"
    publish(out, {"a.json": b"a", "b.json": b"b"})
    publish(out, {"a.json": b"a", "b.json": b"b"})
    manifest = read_staging_manifest(out)
    assert set(manifest["files"]) == {"a.json", "b.json"}
    (out / "a.json").unlink()  # only the staging tree holds it
    can, staged = available(out, read_manifest(out)["files"], manifest)
    assert (can, staged) == ({"a.json", "b.json"}, {"a.json", "b.json"})
    staging_manifest_path(out).write_text("{}")  # the writer takes the manifest it is given
    with TreeWriter(out, staged=staged, staging=manifest) as writer:
        writer.keep_all(sorted(can))
        writer.commit({})
    assert tree_files(out) == {"a.json": b"a", "b.json": b"b"}


def test_without_a_staging_manifest_every_file_is_asked_of_the_published_tree(
    tmp_path: Path,
) -> None:
    out = tmp_path / "build"
    publish(out, {"a.json": b"a", "b.json": b"b"})
    publish(out, {"a.json": b"a", "b.json": b"b"})
    staging_manifest_path(out).unlink()
    (out / "b.json").unlink()
    assert available(out, read_manifest(out)["files"]) == ({"a.json"}, frozenset())


def test_kept_files_the_staging_tree_was_said_to_hold_come_from_it(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"a.json": b"a", "b.json": b"b"})
    publish(out, {"a.json": b"a", "b.json": b"b2"})
    staged = present(staging(out), ["a.json", "b.json"])
    assert staged == {"a.json", "b.json"}
    with TreeWriter(out, staged=staged) as writer:
        writer.keep_all(["a.json"])
        writer.write("b.json", b"b3")
        writer.commit({})
    assert_published(out, {"a.json": b"a", "b.json": b"b3"})
    # Not among them: the staging tree is asked itself.
    with TreeWriter(out, staged=frozenset()) as writer:
        writer.keep_all(["a.json", "b.json"])
        writer.commit({})
    assert tree_files(out) == {"a.json": b"a", "b.json": b"b3"}


@settings(max_examples=40, deadline=None)
@given(trees=trees, keep_first=st.booleans(), told=st.booleans())
def test_files_kept_as_a_set_publish_as_files_kept_one_by_one(
    tmp_path_factory: pytest.TempPathFactory,
    trees: list[dict[str, bytes]],
    keep_first: bool,
    told: bool,
) -> None:
    # A daily update keeps most files of the previous tree in one call, unchecked one by
    # one when they are all that tree's, and at once when the writer was told the staging
    # tree holds them all; the tree is the same as written file by file.
    out = tmp_path_factory.mktemp("trees") / "build"
    before: dict[str, bytes] = {}
    for files in trees:
        kept = [rel for rel, data in files.items() if before.get(rel) == data]
        written = {rel: data for rel, data in files.items() if rel not in kept}
        staged = available(out, read_manifest(out).get("files", {}))[1] if told else None
        with TreeWriter(out, staged=staged) as writer:
            if keep_first:
                writer.keep_all(kept)
            for rel, data in written.items():
                writer.write(rel, data)
            if not keep_first:
                writer.keep_all(kept)
            writer.commit({})
        assert_published(out, files)
        before = files


def test_files_kept_as_a_set_are_checked_against_the_files_after_them(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"a/b.json": b"1", "c.json": b"2"})
    with TreeWriter(out) as writer:
        writer.keep_all(["a/b.json", "c.json"])
        with pytest.raises(BuildError, match="^a/b.json would be both a file and a folder"):
            writer.write("a/b.json/d.json", b"x")
        with pytest.raises(BuildError, match="same file: c.json"):
            writer.write("c.json", b"x")
        with pytest.raises(BuildError, match="same file: a/b.json"):
            writer.keep_all(["a/b.json"])
        with pytest.raises(BuildError, match="^a would be both a file and a folder"):
            writer.write("a", b"x")
    with pytest.raises(BuildError, match="same file: c.json"), TreeWriter(out) as writer:
        writer.keep_all(["c.json", "c.json"])
    with pytest.raises(BuildError, match="cannot keep e.json"), TreeWriter(out) as writer:
        writer.keep_all(["c.json", "e.json"])
    assert tree_files(out) == {"a/b.json": b"1", "c.json": b"2"}


def test_a_manifest_naming_a_path_out_of_the_tree_never_reaches_it(tmp_path: Path) -> None:
    # Kept files are not checked one by one when the previous manifest names them all;
    # their spelling still is, so an edited manifest cannot make a build touch a file
    # beside the tree.
    out = tmp_path / "build"
    for _ in range(3):  # from the third build on, a staging tree is brought up to date
        publish(out, {"a.json": b"a"})
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep me")
    line = manifest_path(out).read_text().splitlines()[-1]
    with manifest_path(out).open("a") as fh:
        fh.write(line.replace("a.json", "../victim") + "\n")
    assert read_manifest(out) == {}  # read, a manifest that names it is none
    # And a writer given one (as a caller may) refuses the path.
    files = {"a.json": file_digest(b"a"), "../victim": file_digest(b"a")}
    with (
        pytest.raises(BuildError, match="outside the tree"),
        TreeWriter(out, {"files": files}) as writer,
    ):
        writer.keep_all(["a.json", "../victim"])
    assert victim.read_bytes() == b"keep me"


def test_files_a_failed_keep_did_not_reach_stay_free(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"a.json": b"a", "b.json": b"b"})
    (out / "a.json").unlink()
    with TreeWriter(out) as writer:
        with pytest.raises(BuildError, match="cannot keep a.json"):
            writer.keep_all(["a.json", "b.json"])
        writer.write("b.json", b"b2")
        writer.commit({})
    assert tree_files(out) == {"b.json": b"b2"}


def test_sha256sum_checks_a_tree_against_its_manifest(tmp_path: Path) -> None:
    # The manifest is a checksum list as `sha256sum` writes one: an operator can check a
    # published tree (or a copy of it) with the tool every system has.
    sha256sum = shutil.which("sha256sum")
    if sha256sum is None:
        pytest.skip("no sha256sum here")
    out = tmp_path / "build"
    files = {"a/1.json": b"1", "b/c d.html": b"<p>zwei</p>", "\u00e4/3.txt": "drei \u00fc".encode()}
    publish(out, files)
    check = [sha256sum, "--check", "--strict", "--quiet", str(manifest_path(out))]
    assert subprocess.run(check, cwd=out, capture_output=True).returncode == 0
    (out / "b" / "c d.html").write_bytes(b"<p>anders</p>")
    failed = subprocess.run(check, cwd=out, capture_output=True, text=True)
    assert failed.returncode == 1
    assert failed.stdout == "b/c d.html: FAILED\n"


tree_paths = st.lists(
    st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r/\0"), min_size=1
    ).filter(lambda part: part not in (".", "..")),
    min_size=1,
    max_size=5,
)


@given(
    files=st.dictionaries(
        tree_paths.map(lambda parts: "/".join(parts)),
        st.text("0123456789abcdef", min_size=64, max_size=64),
        max_size=30,
    ),
    meta=st.dictionaries(
        st.text().filter(lambda k: k not in ("file_count", "files")), st.text(), max_size=4
    ),
)
@settings(max_examples=200, deadline=None)
def test_a_manifest_reads_back_as_written(files: dict[str, str], meta: dict[str, str]) -> None:
    text = write_module._manifest_text(meta, files)
    assert text.decode().split("\n")[1:-1] == [f"{files[p]}  {p}" for p in sorted(files)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m"
        path.write_bytes(text)
        assert write_module._read_manifest_file(path) == {**meta, "files": files}


@pytest.mark.parametrize("name", ["files", "file_count"])
def test_a_setting_named_as_the_manifests_own_fields_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        write_module._manifest_text({name: "x"}, {"a.json": "0" * 64})


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[:-1],  # cut short in its last line
        lambda text: text[: len(text) // 2],
        lambda text: text.replace("  ", " ", 1),  # a line of another shape
        lambda text: text.replace("# trinkwasser build ", "", 1),
        lambda text: text + text.splitlines(keepends=True)[-1],  # a path twice
        lambda text: text[: text.rindex("\n", 0, -1) + 1],  # cut short after a line
        lambda text: text.replace("  a.json", "  ../a.json"),  # a path out of the tree
        lambda text: text.replace("  a.json", "  /tmp/a.json"),
        lambda text: text.replace("  a.json", "  a\0.json"),
        lambda text: "# trinkwasser build " + "[" * 100_000 + "\n",
        lambda text: '{"files": {"a.json": "' + "0" * 64 + '"}}\n',  # the earlier JSON
    ],
)
def test_a_damaged_manifest_is_none_and_the_next_build_writes_everything(
    tmp_path: Path, damage
) -> None:
    out = tmp_path / "build"
    publish(out, {"a.json": b"a", "b/c.json": b"c"})
    manifest_path(out).write_text(damage(manifest_path(out).read_text()))
    assert read_manifest(out) == {}
    writer = publish(out, {"a.json": b"a", "b/c.json": b"c"})
    assert sorted(writer.report.written) == ["a.json", "b/c.json"]
    assert_published(out, {"a.json": b"a", "b/c.json": b"c"})


def test_the_commit_removes_the_manifests_of_earlier_versions(tmp_path: Path) -> None:
    out = tmp_path / "build"
    publish(out, {"a.json": b"a"})
    for name in ("manifest.json", "staging.json"):
        (manifest_path(out).parent / name).write_text("{}")
    publish(out, {"a.json": b"a2"})
    assert sorted(p.name for p in manifest_path(out).parent.iterdir()) == [
        "manifest.sha256",
        "staging.sha256",
    ]


@pytest.mark.parametrize("name", ["a\nb.json", "a/b\r.json"])
def test_a_file_name_with_a_line_break_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(BuildError, match="line break"), TreeWriter(tmp_path / "build") as writer:
        writer.write(name, b"x")
