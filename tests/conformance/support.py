"""Helpers shared by the gate tests: a sample build, a free port, a server on loopback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from anyio.from_thread import BlockingPortal, start_blocking_portal

READY_TIMEOUT = 20.0


def free_port() -> int:
    """Return a TCP port on loopback that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def trinkwasser_command() -> list[str]:
    """Return how to run the `trinkwasser` console script of this interpreter's environment."""
    script = Path(sys.executable).parent / "trinkwasser"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "generator"]


@dataclass
class Server:
    """A `trinkwasser serve` subprocess on loopback; its output goes to files."""

    process: subprocess.Popen
    base_url: str
    stdout_path: Path
    stderr_path: Path

    def stdout(self) -> str:
        return self.stdout_path.read_text(encoding="utf-8", errors="replace")

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_server(
    build_dir: Path,
    state_dir: Path,
    log_dir: Path,
    *args: str,
    ready_path: str = "/",
    **popen: object,
) -> Server:
    """Start `trinkwasser serve` on a free port and poll until it answers.

    Raise RuntimeError with the server's stderr if it exits or does not answer in time.
    """
    port = free_port()
    log_dir.mkdir(parents=True, exist_ok=True)
    stdout_path, stderr_path = log_dir / "serve.out", log_dir / "serve.err"
    command = [
        *trinkwasser_command(),
        "serve",
        "--build-dir",
        str(build_dir),
        "--state",
        str(state_dir),
        "--port",
        str(port),
        *args,
    ]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with stdout_path.open("wb") as out, stderr_path.open("wb") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env, **popen)
    server = Server(process, f"http://127.0.0.1:{port}", stdout_path, stderr_path)
    deadline = time.monotonic() + READY_TIMEOUT
    with httpx.Client(timeout=2.0) as client:
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    f"`{' '.join(command)}` exited with {process.returncode}:\n{server.stderr()}"
                )
            try:
                client.get(server.base_url + ready_path)
                return server
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError(f"server not ready in {READY_TIMEOUT} s:\n{server.stderr()}")
            time.sleep(0.05)


@contextmanager
def event_loop_thread() -> Iterator[BlockingPortal]:
    """Run async code from sync tests in a thread of its own: `portal.call(async_fn, *args)`.

    Not the test's thread: a session-wide Playwright fixture keeps an event loop running
    there, and asyncio refuses to start a second one in the same thread.
    """
    with start_blocking_portal() as portal:
        yield portal
