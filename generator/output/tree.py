"""Stage 4: the only code that touches the output tree (files outside it: `output.atomic`).

The new tree is built beside the published one (a staging directory on the same
file system) and swapped in with one rename, so readers see either the old tree or
the new one, never a mix. A manifest of path -> SHA-256 lets a rebuild hard-link
unchanged files from the previous tree instead of writing them again, and tells which
files went stale.

The tree a swap replaces is not thrown away: it stays beside (`.build.staging`), with its
manifest (`build-state/staging.sha256`), and the next build brings it up to date in place.
A daily update then touches the files that changed since that tree, not every file and
folder of the country (making and removing some 45,000 folders was most of a rebuild's
writing). Its manifest is removed before it is touched, so a build that fails or is killed
leaves it unknown, and the next build starts that staging tree from nothing; a replaced tree
that no manifest described is removed rather than kept.

The manifest is the build's bookkeeping, not published: it lists every file, the keyed ones
too. It lives beside the tree (`build` -> `build-state/manifest.sha256`), like the gates'
`build-gate/`. It is removed before the swap and written after it, so a crash in between
leaves no manifest (the next build writes everything) rather than one of another tree.
It is a checksum list as `sha256sum` writes one (a line `DIGEST  PATH` per file, sorted by
path) after a comment line with the build's settings as JSON, so `sha256sum -c` checks a
tree against the files it lists; a daily update reads two and writes one, and lines of text
write in about a quarter of the time JSON's objects took, and read in about the same.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import Any

from generator.errors import BuildError
from generator.output import state
from generator.output.atomic import atomic_write
from generator.output.encode import file_digest
from generator.output.state import staging_dir

MANIFEST_HEADER = "# trinkwasser build "
"""How the manifest's first line begins: `sha256sum -c` skips a line that begins with `#`."""
FILE_COUNT = "file_count"
"""The header's count of the lines after it (`_read_manifest_file` checks it)."""
DIGEST_LENGTH = 64
"""Hex digits of a SHA-256 (`file_digest`): every line of a manifest has them first."""
MAX_DIR_ENTRIES = 50_000


@dataclass
class WriteReport:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)

    @property
    def files(self) -> int:
        return len(self.written) + self.unchanged


def manifest_path(out: Path) -> Path:
    return state.MANIFEST.path(out)


def staging_manifest_path(out: Path) -> Path:
    """Return where the manifest of the tree kept beside for the next build is."""
    return state.STAGING_MANIFEST.path(out)


def read_manifest(out: Path) -> dict[str, Any]:
    """Return the manifest of a published tree, or an empty one.

    Its settings (the first line's JSON) and `files`, path -> digest.
    """
    return _read_manifest_file(manifest_path(out))


def _read_manifest_file(path: Path) -> dict[str, Any]:
    """Return a manifest as `_manifest_text` wrote it; empty when it is not one, or damaged."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return {}
    head, _, body = text.partition("\n")
    if not head.startswith(MANIFEST_HEADER) or not text.endswith("\n"):
        return {}  # another file, or one cut short
    try:
        manifest = json.loads(head.removeprefix(MANIFEST_HEADER))
    except (ValueError, RecursionError):
        return {}
    lines = body.split("\n")
    del lines[-1]  # after the last line break
    apart = DIGEST_LENGTH + 2
    files = {line[apart:]: line[:DIGEST_LENGTH] for line in lines}
    # Every line a digest, two spaces and a path, each path once: a manifest edited into
    # another shape is none (as JSON that did not parse was).
    if not isinstance(manifest, dict) or "files" in manifest or len(files) != len(lines):
        return {}
    if not all(line[DIGEST_LENGTH:apart] == "  " and len(line) > apart for line in lines):
        return {}
    # A list cut short after a line break would read as a shorter one: the header counts them.
    if manifest.pop(FILE_COUNT, None) != len(lines):
        return {}
    # The staging tree's extra files are removed by these paths: none may lead out of it.
    if not _plain(list(files)) or any("\0" in rel for rel in files):
        return {}
    manifest["files"] = files
    return manifest


def present(root: Path, paths: Iterable[str]) -> frozenset[str]:
    """Return those of `paths` (relative to `root`) that are files there.

    One `stat` each: a build asks this of the previous tree's 90,000 files while it loads
    and derives (`parallel.started`), not when it plans and writes.
    """
    base = os.path.join(root, "")
    listed = list(paths)
    return frozenset(
        p
        for p, there in zip(listed, map(os.path.isfile, [base + p for p in listed]), strict=True)
        if there
    )


def read_staging_manifest(out: Path) -> dict[str, Any]:
    """Return the manifest of the tree kept beside `out` for the next build, or an empty one."""
    return _read_manifest_file(staging_manifest_path(out))


def available(
    out: Path, files: Mapping[str, str], staging: dict[str, Any] | None = None
) -> tuple[frozenset[str], frozenset[str]]:
    """Return which of the published tree's `files` (its manifest's) a build can keep.

    And, second, which of them the staging tree holds. A file can be kept when the staging
    tree holds it as published (its manifest names the same digest, and it is a file
    there) or the published tree has it: the writer takes it from the one or links it from
    the other. Asked of the staging tree first: after a daily update it holds nearly every
    file as published, so only the others are asked of the published tree. (One `stat`
    each, `present`: asking both trees of every file took a CPU for half a second, which
    a daily update's load and derive were missing.) `staging`: the staging tree's manifest
    (`read_staging_manifest`), when the caller has read it.
    """
    manifest = (read_staging_manifest(out) if staging is None else staging).get("files")
    same = (
        [p for p, d in files.items() if manifest.get(p) == d] if isinstance(manifest, dict) else []
    )
    staged = present(staging_dir(out), same)
    return staged | present(out, [p for p in files if p not in staged]), staged


class TreeWriter:
    """Write a complete tree into staging, then publish it in one step.

    Use as a context manager: leaving the block with an exception removes the staging
    tree and leaves the published one untouched.
    """

    def __init__(
        self,
        out: Path,
        manifest: dict[str, Any] | None = None,
        staged: Collection[str] | None = None,
        staging: dict[str, Any] | None = None,
    ):
        """`manifest` is the published tree's (`read_manifest`), when the caller has read it.

        `staged`: which of its files the staging tree holds (`present`), when known;
        `staging`: the staging tree's manifest (`read_staging_manifest`), when the caller
        has read it, in this build (nothing else changes the staging tree meanwhile).
        """
        self.out = Path(out).absolute()
        self.staging = staging_dir(out)
        files = (read_manifest(self.out) if manifest is None else manifest).get("files")
        self.previous: dict[str, str] = files if isinstance(files, dict) else {}
        self._previous_known = isinstance(files, dict)
        """Whether a manifest says what the published tree holds (it may be missing)."""
        self.files: dict[str, str] = {}
        self.report = WriteReport()
        self._staged: dict[str, str] = {}
        """What the staging tree holds, path -> digest, before this build touched it."""
        self._entries: Counter[str] = Counter()
        self._dirs: set[str] = set()
        self._unchecked: set[str] = set()
        """Files kept from the previous tree and not counted in `_dirs` yet (`keep_all`)."""
        self._made: set[str] | None = None
        """The folders made so far, when staging started empty (no file to replace there)."""
        self._present = staged
        self._staging = staging

    def __enter__(self) -> TreeWriter:
        known = staging_manifest_path(self.out)
        staged = (_read_manifest_file(known) if self._staging is None else self._staging).get(
            "files"
        )
        known.unlink(missing_ok=True)  # from here on the staging tree is being changed
        if isinstance(staged, dict) and self.staging.is_dir():
            self._staged = staged
        else:
            # A staging tree nobody vouches for (a crashed build's) is garbage: start clean.
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging.mkdir(parents=True)
            self._made = set()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is not None:
            shutil.rmtree(self.staging, ignore_errors=True)

    def _check_path(self, rel: str) -> None:
        """Refuse a path out of the tree, a file staged twice, a file where a folder is.

        And a path with a line break: the manifest has a line per file.
        """
        self._count_unchecked()
        if "\n" in rel or "\r" in rel:
            raise BuildError(f"refusing a file name with a line break: {rel!r}")
        if rel in self._dirs:  # `_dirs` holds the files too
            if rel in self.files:
                raise BuildError(f"two resources map to the same file: {rel}")
            raise BuildError(f"{rel} would be both a file and a folder")
        self._enter(rel, rel)

    def _enter(self, rel: str, path: str) -> None:
        """Count `path` (the file `rel` or a folder above it) as an entry of its folder.

        A folder seen before was checked with its own folders then; only new ones are.
        """
        folder, slash, name = path.rpartition("/")
        if not name or name in (".", "..") or (slash and not folder):
            raise BuildError(f"refusing to write outside the tree: {rel!r}")
        if folder in self.files:
            raise BuildError(f"{folder} would be both a file and a folder")
        if folder and folder not in self._dirs:
            self._enter(rel, folder)
        self._dirs.add(path)
        self._entries[folder] += 1
        if self._entries[folder] > MAX_DIR_ENTRIES:
            raise BuildError(
                f"directory {folder or '.'!s} would hold more than {MAX_DIR_ENTRIES} entries"
            )

    def write(self, rel: str, data: bytes) -> None:
        """Stage one file; reuse the published copy when its content is unchanged."""
        self._check_path(rel)
        digest = file_digest(data)
        self.files[rel] = digest
        same = self.previous.get(rel) == digest
        if not self._has(rel, digest) and not (same and self._link(rel)):
            self._stage(rel, lambda target: target.write_bytes(data))
        if same:
            self.report.unchanged += 1
        else:
            self.report.written.append(rel)

    def keep(self, rel: str) -> None:
        """Stage the published copy of a file that was not rendered again.

        Its digest is the previous manifest's; `BuildError` if the previous tree lacks it.
        """
        self.keep_all([rel])

    def keep_all(self, paths: Sequence[str]) -> None:
        """`keep` each of `paths`: what a daily update does for most of the tree."""
        unchecked = self._within_previous(paths)
        staged = self._all_staged(paths) if unchecked else None
        if staged is not None:
            # Each is a file of the staging tree as published: nothing to link, nothing fails.
            self._unchecked.update(paths)
            self.files.update(staged)
            self.report.unchanged += len(paths)
            return
        for rel in paths:
            if unchecked:
                self._unchecked.add(rel)  # claimed as `_check_path` claims; after a failure, not
            else:
                self._check_path(rel)
            digest = self.previous.get(rel)
            if digest is None or not (self._has(rel, digest) or self._link(rel)):
                raise BuildError(f"cannot keep {rel} from the previous tree: it has no such file")
            self.files[rel] = digest
        self.report.unchanged += len(paths)

    def _all_staged(self, paths: Sequence[str]) -> dict[str, str] | None:
        """Return the digests of `paths` if the staging tree holds each as published.

        Else None. `paths` are files of the previous tree; `staged` said which of its files
        the staging tree holds. All at once: a daily update keeps 88,000 files, which
        took a tenth of a second one by one.
        """
        if not isinstance(self._present, AbstractSet):
            return None
        kept = {rel: self.previous[rel] for rel in paths}
        if kept.keys() <= self._present and kept.items() <= self._staged.items():
            return kept
        return None

    def _within_previous(self, paths: Sequence[str]) -> bool:
        """Whether `paths` and every file staged so far are distinct files of the previous tree.

        Then they need no check one by one: that tree was checked when it was built (under
        the same `MAX_DIR_ENTRIES`), and some of its files can hold no conflict it did not.
        A daily update keeps 88,000 files; checking each took a fifth of a second. Only
        their spelling is checked again, all at once, so that a manifest naming a path out
        of the tree never reaches the file system. They are counted in `_dirs` when a file
        outside that tree comes after them (`_count_unchecked`).
        """
        kept = set(paths)
        return (
            _plain(paths)
            and len(kept) == len(paths)
            and kept <= self.previous.keys()
            and self.files.keys() <= self.previous.keys()
            and kept.isdisjoint(self._dirs)
            and kept.isdisjoint(self._unchecked)
        )

    def _count_unchecked(self) -> None:
        """Count the files kept unchecked (`keep_all`) before a path is checked against them."""
        if not self._unchecked:  # a full build: every path is checked as it comes
            return
        unchecked, self._unchecked = self._unchecked, set()
        for rel in sorted(unchecked):
            self._check_path(rel)

    def _has(self, rel: str, digest: str) -> bool:
        """Whether the staging tree holds this file: its manifest says so, and it is there.

        There: said so by `staged` (asked beforehand), else by a `stat` now.
        """
        if self._staged.get(rel) != digest:
            return False
        known = self._present is not None and rel in self._present
        return known or os.path.isfile(os.path.join(self.staging, rel))

    def _link(self, rel: str) -> bool:
        """Stage the published file by a hard link; False when it cannot be linked."""
        source = os.path.join(self.out, rel)
        try:
            self._stage(rel, lambda target: os.link(source, target))
        except OSError:
            return False  # the old file is gone or on another device
        return True

    def _stage(self, rel: str, put: Callable[[Path], object]) -> None:
        """Replace the staging tree's file: never write into it, it may share the live inode."""
        target = self.staging / rel
        if self._made is not None:
            # A staging tree started empty: one mkdir per folder, nothing to unlink first.
            folder = rel.rpartition("/")[0]
            if folder not in self._made:
                target.parent.mkdir(parents=True, exist_ok=True)
                self._made.add(folder)
            put(target)
            return
        try:
            target.unlink(missing_ok=True)
            put(target)
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            self._make_room(target)
            put(target)

    def _make_room(self, target: Path) -> None:
        """Make the folders above `target`, where the staging tree may have a file instead."""
        for folder in reversed(target.parents):
            if folder in self.staging.parents or folder == self.staging:
                continue
            if folder.is_file() or folder.is_symlink():
                folder.unlink()
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)

    def _remove_stale(self) -> None:
        """Remove from staging what it holds beyond this tree, and the folders left empty."""
        folders: set[PurePosixPath] = set()
        stale = set(self._staged) - set(self.files)
        if stale:
            self._count_unchecked()  # the folders of this tree stay (`_dirs`)
        for rel in stale:
            path = self.staging / rel
            # A file of the old tree may be a folder of this one now, or under a file.
            with contextlib.suppress(NotADirectoryError):
                if not path.is_dir():
                    path.unlink(missing_ok=True)
            folders.update(PurePosixPath(rel).parents)
        # The deepest first, so a folder emptied by removing its subfolders goes too.
        for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
            if folder.parts and str(folder) not in self._dirs:
                with contextlib.suppress(OSError):
                    os.rmdir(self.staging / folder)

    def commit(self, meta: dict[str, str]) -> WriteReport:
        """Swap the staging tree in and write its manifest; return what changed."""
        self._remove_stale()
        self.report.deleted = sorted(set(self.previous) - set(self.files))
        target = manifest_path(self.out)
        target.parent.mkdir(parents=True, exist_ok=True)
        # The previous manifest becomes the staging tree's once the swap is done; until
        # then it is under a name no build reads.
        held = target.with_name(f".{state.STAGING_MANIFEST.name}.previous")
        try:
            os.replace(target, held)
        except FileNotFoundError:
            held.unlink(missing_ok=True)
        _swap(self.staging, self.out)
        atomic_write(target, _manifest_text(meta, self.files))
        for earlier in state.FORMER:
            (target.parent / earlier).unlink(missing_ok=True)
        if self.staging.is_dir() and self._previous_known and held.is_file():
            # The staging tree now holds the previous tree: kept for the next build to reuse.
            os.replace(held, staging_manifest_path(self.out))
        else:
            # Nobody knows what it holds: a later build must not trust it.
            held.unlink(missing_ok=True)
            shutil.rmtree(self.staging, ignore_errors=True)
        return self.report


_ODD_PARTS = tuple(
    f"{before}{part}{after}" for part in ("", ".", "..") for before in "\n/" for after in "\n/"
)
"""An empty, `.` or `..` part of a path, between the line breaks around each path (`_plain`)."""


def _plain(paths: Sequence[str]) -> bool:
    """Whether every path is relative, without empty, `.` or `..` parts.

    All at once, the paths one per line searched for each odd part: 0.04 s for 88,000.
    """
    if not paths:
        return True
    lines = "\n" + "\n".join(paths) + "\n"
    return lines.count("\n") == len(paths) + 1 and not any(p in lines for p in _ODD_PARTS)


def _manifest_text(meta: dict[str, str], files: Mapping[str, str]) -> bytes:
    """Return the manifest: the settings as a comment, then `DIGEST  PATH` per file, sorted.

    A path holds no line break (`TreeWriter._check_path`), so each file is one line.
    """
    reserved = {FILE_COUNT, "files"} & meta.keys()
    if reserved:
        # The reader gives these names to the manifest's own count and list of files.
        raise ValueError(f"manifest settings may not be named {sorted(reserved)}")
    counted = {**meta, FILE_COUNT: len(files)}
    head = MANIFEST_HEADER + json.dumps(counted, sort_keys=True) + "\n"  # ASCII: one line
    return (head + "".join([f"{files[rel]}  {rel}\n" for rel in sorted(files)])).encode()


def _swap(staging: Path, out: Path) -> None:
    """Make `staging` the published tree in one step (renameat2 RENAME_EXCHANGE on Linux)."""
    if not out.exists():
        os.rename(staging, out)
        return
    if _exchange(staging, out):
        return
    # No atomic exchange on this platform: two renames, the gap is a few microseconds.
    old = out.with_name(f".{out.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    os.rename(out, old)
    os.rename(staging, out)
    os.rename(old, staging)


def _exchange(a: Path, b: Path) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # the running process already links libc
    except OSError:
        return False
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    result: int = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return result == 0
