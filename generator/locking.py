"""One writer at a time: an exclusive lock on a directory (`fcntl.flock`).

`fetch` and `import` read a data directory, decide what to append and write it back; two
of them at once would each write what it read plus its own rows, and the second rename
would drop the first one's rows while its manifest already says `imported`. So each takes
an exclusive lock on the directories it writes (the data directory, the archive) for the
whole run. A second run does not wait: it stops at once, changes nothing and says who holds
the lock (a cron job that overlaps a slow run should not queue up behind it).

The lock is the kernel's: it goes with its process, however that ends (even `kill -9`), so
a lock file left behind never blocks anything; it only names the last holder.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from generator.errors import TrinkwasserError

LOCK_FILE = ".trinkwasser.lock"


class Busy(TrinkwasserError):
    """Another run holds the lock of a directory this run would write."""


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 400, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "another process"


@contextmanager
def exclusive(directory: Path, command: str) -> Iterator[None]:
    """Hold the exclusive lock of `directory`; Busy if another has it.

    A directory that does not exist is not locked (nor made): there is nothing in it to
    lose, and the caller reports it missing, or creates it under the lock of its parent run.
    """
    directory = Path(directory)
    if not directory.is_dir():
        yield
        return
    fd = os.open(directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy(
                f"{directory} is in use by {_holder(fd)}; this run changed nothing. "
                "Run it again when that one has finished."
            ) from None
        since = dt.datetime.now().astimezone().replace(microsecond=0).isoformat()
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{command} (process {os.getpid()}, since {since})\n".encode(), 0)
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
