"""Files outside the published tree, written whole or not at all.

Every file the project writes outside the tree (the manifest, `build-gate/`, the build's
state, the demo key, the mapping's outputs, imported measurements) goes through
`atomic_write` or `prepare_all`: a unique temporary name beside the target, renamed over it,
removed on failure. The tree itself is staged and swapped in whole by `output.tree`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.output.encode import file_digest


def sealed(content: object) -> bytes:
    """Return `content` as JSON after a line with the digest of that JSON (`unsealed`).

    For what a later build takes rows by (the index of the kept current values, the
    series' memo): a damaged file may still be valid JSON, naming other rows or texts.
    """
    text = json.dumps(content, ensure_ascii=False, sort_keys=True).encode()
    return file_digest(text).encode() + b"\n" + text


def unsealed(data: bytes) -> Any:
    """Return the content of a `sealed` file; None when its JSON is not the one digested."""
    digest, _, text = data.partition(b"\n")
    if digest != file_digest(text).encode():
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


Content = bytes | Callable[[Path], object]
"""What `atomic_write` puts into a file: its bytes, or a function that writes the given path."""


def atomic_write(path: Path, content: Content, mode: int = 0o644) -> None:
    """Replace `path` in one step: a reader sees the old file or the new one, never half.

    The one way the project writes a file outside the published tree (the tree itself is
    swapped in whole by `TreeWriter`): the manifest, the gates' inputs, the demo key, the
    mapping's outputs and imported measurements. The content goes to a unique temporary
    name beside the target (two writers never share one), gets `mode`, and is renamed over
    the target; on any failure the temporary file is removed and the target is untouched.
    """
    atomic_write_all([(Path(path), content)], mode)


def atomic_write_all(files: Sequence[tuple[Path, Content]], mode: int = 0o644) -> None:
    """Write every file to its temporary name first, then rename them all.

    A failure while writing any of them leaves every target as it was (the renames, done
    last, do not fail in practice: same directory, same file system).
    """
    prepare_all(files, mode).publish()


@dataclass(frozen=True)
class Prepared:
    """Files written in full under temporary names beside their targets (`prepare_all`)."""

    pairs: list[tuple[Path, Path]]
    """Each file's temporary name and target."""

    def publish(self) -> None:
        """Rename each file to its target; on a failure, remove those not renamed."""
        try:
            for tmp, path in self.pairs:
                os.replace(tmp, path)
        finally:
            self.discard()

    def discard(self) -> None:
        """Remove what was not renamed (nothing, once published)."""
        for tmp, _ in self.pairs:
            tmp.unlink(missing_ok=True)


def prepare_all(files: Sequence[tuple[Path, Content]], mode: int = 0o644) -> Prepared:
    """Write every file, on disk, to a temporary name beside it; rename none.

    `atomic_write_all` but the renames, which the caller does later (`Prepared.publish`)
    or never (`Prepared.discard`). Temporary names are `.{name}.*.tmp` (`leftovers` finds
    those of a process that ended before either); on a failure here, none is left.
    """
    pairs: list[tuple[Path, Path]] = []
    try:
        for path, content in files:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            tmp = Path(name)
            pairs.append((tmp, path))
            os.fchmod(fd, mode)  # mkstemp makes it private (0600); most files are no secret
            with os.fdopen(fd, "wb") as fh:
                if isinstance(content, bytes):
                    fh.write(content)
            if not isinstance(content, bytes):
                content(tmp)
            with open(tmp, "rb") as fh:
                os.fsync(fh.fileno())  # on disk before the rename makes it the file
    except BaseException:
        Prepared(pairs).discard()
        raise
    return Prepared(pairs)


def leftovers(path: Path) -> list[Path]:
    """Return the temporary files `prepare_all` left beside `path` and nobody renamed."""
    return sorted(path.parent.glob(f".{path.name}.*.tmp"))


def prepare_again(files: Sequence[tuple[Path, Content]]) -> Prepared:
    """`prepare_all`, once the temporary files an earlier process left for them are gone.

    For files only a build writes (its state beside the tree): one that failed between
    preparing and publishing left them.
    """
    for path, _ in files:
        for left in leftovers(path):
            left.unlink(missing_ok=True)
    return prepare_all(files)
