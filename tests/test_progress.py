"""Progress of long steps: a bar on a terminal, plain lines elsewhere, nothing with --quiet."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time

from generator.progress import StepPrinter
from tests.conformance.support import trinkwasser_command
from tests.helpers import AS_OF_TEXT

BAR = re.compile(
    r"Rendering and writing files: +100%\|[^|]*\| (\d+)/\1 \[[\d:]+<[\d:]+, +[\d.]+files/s\]"
)


def run_in_terminal(args: list[str], cwd, timeout: float = 120) -> str:
    """Run a command with stdout and stderr on a pseudo-terminal; return what it showed."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))  # 120 columns
    process = subprocess.Popen(args, stdout=slave, stderr=slave, stdin=slave, cwd=cwd)
    os.close(slave)
    chunks, deadline = [], time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # the terminal closed: the command is done
                    break
                if not data:
                    break
                chunks.append(data)
            elif process.poll() is not None:
                break
    finally:
        os.close(master)
        process.wait(timeout=30)
    assert process.returncode == 0, b"".join(chunks).decode(errors="replace")
    return b"".join(chunks).decode(errors="replace")


def test_build_on_a_terminal_shows_bars_with_counts_rate_and_time_left(tiny_data, tmp_path):
    shown = run_in_terminal(
        [*trinkwasser_command(), "build", "--data", str(tiny_data), "--out", "b", "--as-of",
         AS_OF_TEXT],
        cwd=tmp_path,
    )  # fmt: skip
    assert "\r" in shown  # redrawn in place
    assert BAR.search(shown), shown
    assert re.search(r"Loading and checking source data: +100%\|[^|]*\| (\d+)/\1 ", shown), shown
    assert "Build complete:" in shown


def test_build_on_a_terminal_with_quiet_shows_nothing(tiny_data, tmp_path):
    shown = run_in_terminal(
        [*trinkwasser_command(), "build", "--data", str(tiny_data), "--out", "b", "-q"],
        cwd=tmp_path,
    )
    assert shown == ""


def test_demo_data_on_a_terminal_shows_a_bar(tmp_path):
    shown = run_in_terminal([*trinkwasser_command(), "demo-data", "--out", "d"], cwd=tmp_path)
    assert re.search(r"Generating demo data: +100%\|[^|]*\| 17/17 ", shown), shown
    quiet = run_in_terminal([*trinkwasser_command(), "demo-data", "--out", "d", "-q"], tmp_path)
    assert quiet == ""


def test_build_into_a_log_prints_plain_lines(tiny_data, tmp_path):
    done = subprocess.run(
        [*trinkwasser_command(), "build", "--data", str(tiny_data), "--out", "b"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "\r" not in done.stderr and "|" not in done.stderr
    assert re.search(r"^Loading and checking source data done \([\d.]+ s\): (\d+)/\1 tables "
                     r"\(100%\), [\d,]+ tables/s$", done.stderr, re.M), done.stderr  # fmt: skip
    assert re.search(r"^Rendering and writing files done \([\d.]+ s\): (\d+)/\1 files \(100%\)",
                     done.stderr, re.M), done.stderr  # fmt: skip


def test_plain_lines_now_and_then_with_counts(monkeypatch):
    monkeypatch.setattr("generator.progress.PLAIN_EVERY", 0.0)  # a line at every advance
    stream = io.StringIO()
    with StepPrinter(stream=stream).bar("Counting", 4, "things") as bar:
        bar.advance()
        bar.advance(2, note="halfway")
    lines = stream.getvalue().splitlines()
    assert lines[0] == "Counting ..."
    assert re.fullmatch(r"Counting: 1/4 things \(25%\), [\d,]+ things/s, [\d,]+ s left", lines[1])
    assert lines[2] == "Counting: halfway"
    assert re.fullmatch(r"Counting: 3/4 things \(75%\), [\d,]+ things/s, [\d,]+ s left", lines[3])
    # The total was an estimate: the last line says what was done.
    assert re.fullmatch(
        r"Counting done \([\d.]+ s\): 3/3 things \(100%\), [\d,]+ things/s", lines[4]
    )


def test_quiet_prints_nothing_and_messages_go_above_a_bar():
    silent = io.StringIO()
    with StepPrinter(stream=silent, enabled=False).bar("Counting", 3, "things") as bar:
        bar.advance(3)
    assert silent.getvalue() == ""
    stream = io.StringIO()
    printer = StepPrinter(stream=stream, bars=True)
    with printer.bar("Counting", 2, "things") as bar:
        bar.advance()
        printer("a message")
        bar.advance()
    text = stream.getvalue()
    assert "a message\n" in text
    assert re.search(r"Counting: 100%\|[^|]*\| 2/2 ", text), text
