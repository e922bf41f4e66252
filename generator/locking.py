"""One writer at a time: an exclusive lock on a directory (`fcntl.flock`).

`fetch` and `import` read a data directory, decide what to append and write it back; two
of them at once would each write what it read plus its own rows, and the second rename
would drop the first one's rows while its manifest already says `imported`. So each takes
an exclusive lock on the directories it writes (the data directory, the archive) for the
whole run. A second run does not wait: it stops at once, changes nothing and says so (a
cron job that overlaps a slow run should not queue up behind it).

The lock is the kernel's, on the directory itself: it goes with its process, however that
ends (even `kill -9`), and no lock file is ever left behind.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from generator.errors import TrinkwasserError


class Busy(TrinkwasserError):
    """Another run holds the lock of a directory this run would write."""


@contextmanager
def exclusive(directory: Path, command: str) -> Iterator[None]:
    """Hold the exclusive lock of `directory`; Busy if another run has it.

    The lock is taken on the directory itself, so nothing is added to it (a data directory
    kept under version control stays clean). A directory that does not exist is not locked
    (nor made): there is nothing in it to lose, and the caller reports it missing.
    """
    directory = Path(directory)
    if not directory.is_dir():
        yield
        return
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy(
                f"{directory} is in use by another run (trinkwasser fetch or import); "
                f"this {command} changed nothing. Run it again when that one has finished."
            ) from None
        yield
    finally:
        os.close(fd)  # closing releases the lock


@contextmanager
def exclusive_all(directories: list[Path], command: str) -> Iterator[None]:
    """Hold the locks of several directories, taken in one order (so never a deadlock)."""
    with ExitStack() as stack:
        for directory in sorted({Path(d).absolute() for d in directories}):
            stack.enter_context(exclusive(directory, command))
        yield
