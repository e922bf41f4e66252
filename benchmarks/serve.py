"""Benchmark `trinkwasser serve`: a keyed lookup through the gate vs the same file served plainly.

    python benchmarks/serve.py                      # 4000 requests per variant, 8 connections
    python benchmarks/serve.py --requests 1000 --connections 4

Builds the bundled sample into a scratch directory, copies one lookup file to an open static
path (same bytes, no gate), starts the real `trinkwasser serve` on a free loopback port and
sends HTTP/1.1 keep-alive requests from a small asyncio client. The two variants alternate in
rounds so drift hits both alike. Printed: requests per second, p50/p99 latency and the ratios,
all measured in this one run. Bounded by --requests and --max-seconds; loopback only.

Every gated request does the full work: validation, key lookup (SHA-256 + SQLite), the atomic
quota upsert, the file read and its headers. The daily quota is 1000 per key, so the script
issues one key per 1000 gated requests and moves on to the next key, as many clients would.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
ROUNDS = 4


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


async def _one_connection(port: int, requests: list[bytes], latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        for request in requests:
            start = time.perf_counter()
            writer.write(request)
            status = await reader.readline()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - start)
            if not status.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"unexpected answer: {status!r}")
    finally:
        writer.close()
        await writer.wait_closed()


async def run_batch(port: int, requests: list[bytes], connections: int) -> tuple[float, list]:
    """Send `requests` over `connections` keep-alive connections; return seconds, latencies."""
    latencies: list[float] = []
    shares = [requests[i::connections] for i in range(connections)]
    start = time.perf_counter()
    await asyncio.gather(*(_one_connection(port, share, latencies) for share in shares))
    return time.perf_counter() - start, latencies


def request(path: str, key: str | None = None) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}"]
    if key:
        lines.append(f"X-Api-Key: {key}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=4000, help="Per variant (max 100000).")
    parser.add_argument("--connections", type=int, default=8, help="Concurrent connections.")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="Stop after this long.")
    args = parser.parse_args()
    if not 1 <= args.requests <= 100_000 or not 1 <= args.connections <= 64:
        sys.exit("--requests must be 1..100000 and --connections 1..64")

    from generator.gate import keys as key_tools
    from generator.gate.sqlite_state import open_state

    work = Path(tempfile.mkdtemp(prefix="trinkwasser-serve-bench-"))
    server = None
    try:
        build = work / "build"
        subprocess.run(
            [sys.executable, "-m", "generator", "build", "--out", str(build), "-q"],
            check=True,
            cwd=ROOT,
        )
        plz = (build / "v1" / "export" / "plz-zonen.csv").read_text().splitlines()[1][:5]
        plain = build / "bench" / f"{plz}.json"
        plain.parent.mkdir()
        shutil.copyfile(build / "_data" / "v1" / "lookup" / f"{plz}.json", plain)

        state = open_state(work / "state")
        per_key = state.settings.daily_quota
        gated_total = args.requests + 200  # + warm-up
        keys = [
            key_tools.issue(state, f"bench{i}@example.org", state.settings.key_prefix).key
            for i in range(math.ceil(gated_total / per_key))
        ]
        gated = [request(f"/v1/lookup?plz={plz}", keys[i // per_key]) for i in range(gated_total)]
        static = [request(f"/bench/{plz}.json")] * gated_total

        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", "--build-dir", str(build), "--state",
             str(work / "state"), "--port", str(port), "--no-access-log"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"server did not start:\n{server.stderr.read().decode()}")
                time.sleep(0.05)

        results = {"gated": ([], 0.0), "static": ([], 0.0)}
        asyncio.run(run_batch(port, gated[:100], args.connections))  # warm-up both paths
        asyncio.run(run_batch(port, static[:100], args.connections))
        gated, static = gated[200:], static[200:]
        started = time.monotonic()
        size = math.ceil(args.requests / ROUNDS)
        for round_ in range(ROUNDS):
            if time.monotonic() - started > args.max_seconds:
                print(f"stopped after {round_} rounds (--max-seconds)")
                break
            for name, batch in (("gated", gated), ("static", static)):
                part = batch[round_ * size : (round_ + 1) * size]
                seconds, latencies = asyncio.run(run_batch(port, part, args.connections))
                done, total = results[name]
                results[name] = (done + latencies, total + seconds)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)

    figures = {}
    for name, (latencies, seconds) in results.items():
        figures[name] = {
            "n": len(latencies),
            "rps": len(latencies) / seconds,
            "p50": statistics.median(latencies) * 1000,
            "p99": percentile(latencies, 0.99) * 1000,
        }
    g, s = figures["gated"], figures["static"]
    print(
        f"trinkwasser serve on {HOST}, {args.connections} keep-alive connections, "
        f"{g['n']} requests per variant, {ROUNDS} alternating rounds"
    )
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    print(f"{'variant':<34}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}")
    for label, f in (
        (f"gated  GET /v1/lookup?plz={plz}", g),
        (f"static GET /bench/{plz}.json", s),
    ):
        print(f"{label:<34}{f['rps']:>9.0f}{f['p50']:>9.2f}{f['p99']:>9.2f}")
    print(
        f"ratio gated/static: throughput {g['rps'] / s['rps']:.2f}, "
        f"p50 latency {g['p50'] / s['p50']:.2f}, p99 latency {g['p99'] / s['p99']:.2f}"
    )


if __name__ == "__main__":
    main()
