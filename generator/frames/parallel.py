"""Render batches on every CPU while the writer takes the files in their order.

The expensive renderers (zone pages, series files, zone documents) work in batches of
zones, and a batch is polars work that releases the GIL: a few threads rendering the next
batches while the caller writes the current one keep both CPUs busy. The files come out in
the order of the batches, so the output and the manifest do not depend on which thread
finished first.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def workers() -> int:
    """Return how many threads render.

    The CPUs this process may use, at most 4 (memory grows with every batch in flight), or
    `TRINKWASSER_THREADS`.
    """
    configured = os.environ.get("TRINKWASSER_THREADS")
    if configured:
        return max(1, int(configured))
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on macOS or Windows
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 4))


def ordered(tasks: Iterable[Callable[[], T]], threads: int | None = None) -> Iterator[T]:
    """Run the tasks in a pool of threads and yield their results in the tasks' order.

    At most `threads + 1` results wait at any time, so memory stays bounded by a few
    batches. With one thread the tasks run one after the other in the caller's thread.
    """
    threads = workers() if threads is None else threads
    if threads <= 1:
        for task in tasks:
            yield task()
        return
    pending: deque[Future[T]] = deque()
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="render") as pool:
        try:
            for task in tasks:
                pending.append(pool.submit(task))
                if len(pending) > threads:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


@contextlib.contextmanager
def meanwhile(task: Callable[[], T]) -> Iterator[Callable[[], T]]:
    """Run `task` on a thread of its own while the block runs.

    The block gets a function that waits for the task's result (also usable after the
    block). For a task that runs on one CPU beside work that does too. With one thread
    (`workers`), the task runs when its result is first asked for.
    """
    if workers() <= 1:
        yield functools.cache(task)
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="meanwhile") as pool:
        yield pool.submit(task).result


def started(task: Callable[[], T]) -> Callable[[], T]:
    """Start `task` on a thread of its own; return a function that waits for its result.

    Like `meanwhile`, for a task the caller may never ask for (a failed build): its thread
    ends with the task. With one thread the task runs when its result is first asked for.
    """
    if workers() <= 1:
        return functools.cache(task)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="started")
    future = pool.submit(task)
    pool.shutdown(wait=False)
    return future.result


def in_turn(tasks: Sequence[Callable[[], T]]) -> list[Callable[[], T]]:
    """Start the tasks on one thread of their own, one after the other, in their order.

    Return a function per task that waits for its result. Like `started`, but the first
    task is done first, not slowed by the others running beside it. With one thread each
    task runs when its result is first asked for.
    """
    if workers() <= 1:
        return [functools.cache(task) for task in tasks]
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="in_turn")
    futures = [pool.submit(task) for task in tasks]
    pool.shutdown(wait=False)
    return [future.result for future in futures]


def yielding(task: Callable[[], T]) -> Callable[[], T]:
    """Return `task` to run at a lower priority than the build's other threads.

    For work beside the build that is needed later, not now (which files of the previous
    tree are there): where the system sets priorities per thread (Linux), the scheduler
    gives the CPU to the main thread and polars' workers first, and the task the time they
    leave. Elsewhere, and on the main thread (one thread, `workers`), it runs as it is.
    """

    def lowered() -> T:
        if threading.current_thread() is not threading.main_thread():
            with contextlib.suppress(AttributeError, OSError):
                thread = threading.get_native_id()
                nice = os.getpriority(os.PRIO_PROCESS, thread)
                os.setpriority(os.PRIO_PROCESS, thread, min(nice + 10, 19))
        return task()

    return lowered
