"""Rendering in threads: results in the tasks' order, and the same tree as one thread."""

from __future__ import annotations

import os
import threading
import time

import pytest

from generator import render
from generator.frames import parallel
from generator.site import zone_pages
from tests.golden.compare import describe_differences
from tests.golden.regenerate import EXPECTED, build_golden


def test_results_come_in_the_order_of_the_tasks_whichever_finishes_first() -> None:
    names: set[str] = set()

    def task(i: int) -> int:
        names.add(threading.current_thread().name)
        time.sleep(0.02 * (5 - i % 5))  # the early tasks finish last
        return i

    results = list(parallel.ordered(((lambda i=i: task(i)) for i in range(12)), threads=3))
    assert results == list(range(12))
    assert len(names) > 1  # really in several threads


def test_one_thread_runs_in_the_callers_thread() -> None:
    seen: list[str] = []
    results = list(
        parallel.ordered([lambda: seen.append(threading.current_thread().name) or 1] * 3, threads=1)
    )
    assert results == [1, 1, 1]
    assert set(seen) == {threading.current_thread().name}


def test_an_error_in_a_task_reaches_the_caller() -> None:
    def boom() -> int:
        raise ValueError("broken batch")

    with pytest.raises(ValueError, match="broken batch"):
        list(parallel.ordered([lambda: 1, boom, lambda: 3], threads=2))


def test_a_task_meanwhile_runs_beside_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRINKWASSER_THREADS", "2")
    started = threading.Event()

    def task() -> str:
        started.set()
        return threading.current_thread().name

    with parallel.meanwhile(task) as result:
        assert started.wait(5)  # it ran before the block asked for it
    assert result() != threading.current_thread().name
    assert result() == result()  # asked again after the block: the same answer


def test_with_one_thread_a_task_meanwhile_runs_once_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRINKWASSER_THREADS", "1")
    runs: list[str] = []

    def task() -> int:
        runs.append(threading.current_thread().name)
        return 7

    with parallel.meanwhile(task) as result:
        assert runs == []
        assert result() == 7
    assert result() == 7
    assert runs == [threading.current_thread().name]


def test_an_error_meanwhile_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRINKWASSER_THREADS", "2")

    def boom() -> int:
        raise ValueError("broken hashes")

    with parallel.meanwhile(boom) as result, pytest.raises(ValueError, match="broken hashes"):
        result()


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_started_task_answers_when_asked(monkeypatch: pytest.MonkeyPatch, threads: str) -> None:
    monkeypatch.setenv("TRINKWASSER_THREADS", threads)
    runs: list[str] = []

    def task() -> int:
        runs.append(threading.current_thread().name)
        return 3

    result = parallel.started(task)
    assert result() == 3 and result() == 3
    assert len(runs) == 1
    assert (runs[0] == threading.current_thread().name) == (threads == "1")


@pytest.mark.parametrize("threads", ["1", "2"])
def test_tasks_in_turn_run_one_after_the_other_in_their_order(
    monkeypatch: pytest.MonkeyPatch, threads: str
) -> None:
    monkeypatch.setenv("TRINKWASSER_THREADS", threads)
    events: list[str] = []

    def task(name: str, result: int) -> int:
        events.append(f"{name} begins")
        time.sleep(0.02)  # a second thread would begin the next one meanwhile
        events.append(f"{name} ends")
        return result

    first, second = parallel.in_turn([lambda: task("a", 1), lambda: task("b", 2)])
    if threads == "1":
        assert events == []  # each runs when asked for
        assert second() == 2 and first() == 1
        assert events == ["b begins", "b ends", "a begins", "a ends"]
    else:
        assert second() == 2 and first() == 1 and second() == 2
        assert events == ["a begins", "a ends", "b begins", "b ends"]


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no priorities per thread here")
def test_a_yielding_task_runs_at_a_lower_priority_on_its_own_thread_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRINKWASSER_THREADS", "2")

    def priority() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    mine = priority()
    assert parallel.started(parallel.yielding(priority))() == min(mine + 10, 19)
    assert parallel.yielding(priority)() == mine  # the main thread keeps its own
    assert priority() == mine


def test_the_threads_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRINKWASSER_THREADS", "3")
    assert parallel.workers() == 3
    monkeypatch.delenv("TRINKWASSER_THREADS")
    assert 1 <= parallel.workers() <= 4


@pytest.mark.slow
def test_batches_of_two_zones_in_three_threads_build_the_golden_tree(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The golden input is one batch at the usual sizes; here every renderer that works in
    # batches gets several, rendered concurrently.
    monkeypatch.setattr(render, "ZONE_BATCH", 2)
    monkeypatch.setattr(render, "MEASUREMENT_BATCH", 2)
    monkeypatch.setattr(zone_pages, "ZONE_BATCH", 2)
    monkeypatch.setenv("TRINKWASSER_THREADS", "3")
    assert describe_differences(build_golden(tmp_path / "build"), EXPECTED) == ""
