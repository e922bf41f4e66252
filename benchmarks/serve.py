"""Benchmark `trinkwasser serve` against the file without the gate and against FastAPI+SQLite.

    python benchmarks/serve.py                       # the national tree of benchmarks/build.py
    python benchmarks/serve.py --scale small --requests 1000

Per endpoint (lookup, zone, measurements, measurements?parameter=) three servers answer the
same requests, over HTTP/1.1 keep-alive from a small asyncio client in this process:

- **gated**: `trinkwasser serve` on the built tree, with a key: route match, validation,
  key lookup (SHA-256 + SQLite), the atomic quota upsert, the file, its ETag and headers;
- **ungated**: the same server, the same bytes copied to an open static path (no gate);
- **reference**: benchmarks/reference.py, what a team would build without precomputation:
  FastAPI on SQLite with indexes, loaded from the same source tables, with the same key
  check and quota upsert.

Printed per endpoint: requests per second, p50 and p99 latency, and the ratios of the gated
throughput to the reference and to the ungated file. The variants alternate in rounds so
drift hits all alike; targets (docs/performance.md): lookup >= 1.5x the reference, zone >= 5x,
the gate >= 0.9x the ungated file. Loopback only; bounded by --requests and --max-seconds.
The tree, the dataset and the reference database are made once and kept under --work.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import platform
import random
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
AS_OF = "2026-11-23"
TARGETS = {"lookup": 1.5, "zone": 5.0}
"""Gated throughput / reference, at least."""
UNGATED_TARGET = 0.9
DISTINCT = 300
"""Distinct resources asked per endpoint (cycled): PLZs, zones."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


async def _one_connection(port: int, requests: list[bytes], latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection(HOST, port, limit=1 << 24)
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
                raise RuntimeError(f"unexpected answer: {status!r} to {request[:120]!r}")
    finally:
        writer.close()
        await writer.wait_closed()


async def run_batch(port: int, requests: list[bytes], connections: int) -> tuple[float, list]:
    """Send `requests` over `connections` keep-alive connections; return seconds, latencies."""
    latencies: list[float] = []
    shares = [requests[i::connections] for i in range(connections)]
    start = time.perf_counter()
    await asyncio.gather(*(_one_connection(port, share, latencies) for share in shares if share))
    return time.perf_counter() - start, latencies


def request(path: str, key: str | None = None) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}"]
    if key:
        lines.append(f"X-Api-Key: {key}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def wait_for(port: int, process: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"server on {port} did not start: {process.args}")
            time.sleep(0.1)


def prepare(args: argparse.Namespace) -> tuple[Path, Path, Path]:
    """Return the dataset, the built tree and the reference database (made if missing)."""
    py = [sys.executable, "-m", "generator"]
    data = args.work / f"data-{args.scale}"
    if not any(data.glob("measurements.*")):
        subprocess.run([*py, "demo-data", "--out", str(data), "--scale", args.scale, "-q"],
                       check=True, cwd=ROOT)  # fmt: skip
    build = args.work / "build"
    if not (build / "v1").is_dir():
        print(f"building {build} ...", flush=True)
        subprocess.run([*py, "build", "--data", str(data), "--out", str(build), "--as-of",
                        AS_OF, "-q"], check=True, cwd=ROOT)  # fmt: skip
    db = args.work / f"reference-{args.scale}.sqlite3"
    source = max(p.stat().st_mtime for p in data.iterdir())
    if not db.exists() or db.stat().st_mtime < source:
        print(f"loading the reference database {db} ...", flush=True)
        started = time.perf_counter()
        subprocess.run([sys.executable, str(HERE / "reference.py"), "load", "--data", str(data),
                        "--db", str(db)], check=True, cwd=ROOT)  # fmt: skip
        print(f"  loaded in {time.perf_counter() - started:.0f} s", flush=True)
    return data, build, db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=["small", "germany"], default="germany")
    parser.add_argument("--work", type=Path, default=HERE / ".work")
    parser.add_argument("--requests", type=int, default=2000, help="Per variant (max 100000).")
    parser.add_argument("--connections", type=int, default=8, help="Concurrent connections.")
    parser.add_argument("--max-seconds", type=float, default=600.0, help="Stop after this long.")
    args = parser.parse_args()
    if not 1 <= args.requests <= 100_000 or not 1 <= args.connections <= 64:
        sys.exit("--requests must be 1..100000 and --connections 1..64")

    from generator.api import http, routes
    from generator.gate import keys as key_tools
    from generator.gate.sqlite_state import open_state

    _data, build, db = prepare(args)
    rng = random.Random(20261123)
    plzs = [line[:5] for line in (build / routes.file_path("export", format="csv"))
            .read_text(encoding="utf-8").splitlines()[1:]]  # fmt: skip
    zones = sorted(int(p.name) for p in (build / "_data/v1/zones").iterdir() if p.is_dir())
    picked_plz = rng.sample(sorted(set(plzs)), min(DISTINCT, len(set(plzs))))
    picked_zones = rng.sample(zones, min(DISTINCT, len(zones)))
    endpoints = {
        "lookup": [(f"/v1/lookup?plz={p}", routes.file_path("lookup", plz=p)) for p in picked_plz],
        "zone": [(f"/v1/zones/{z}", routes.file_path("zone", zone_id=z)) for z in picked_zones],
        "measurements": [
            (f"/v1/zones/{z}/measurements", routes.file_path("zone_measurements", zone_id=z))
            for z in picked_zones
        ],
        "measurements?parameter=nitrat": [
            (f"/v1/zones/{z}/measurements?parameter=nitrat", None) for z in picked_zones
        ],
    }

    work = Path(tempfile.mkdtemp(prefix="trinkwasser-serve-bench-"))
    bench_dir = build / "bench"
    servers: list[subprocess.Popen] = []
    try:
        # The ungated copies: the same answers under an open path of the same server (a series
        # stored gzip-compressed is copied as the JSON the gate answers from it).
        shutil.rmtree(bench_dir, ignore_errors=True)
        for name, items in endpoints.items():
            for i, (_, rel) in enumerate(items):
                if rel is not None:
                    target = bench_dir / name / f"{i}.json"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(http.served_bytes(rel, (build / rel).read_bytes()))

        per_variant = args.requests + 100  # + warm-up
        keyed = per_variant * len(endpoints)
        keys = {}
        for side in ("gate", "reference"):
            state = open_state(work / side)
            keys[side] = [
                key_tools.issue(state, f"bench{i}@example.org", state.settings.key_prefix).key
                for i in range(math.ceil(keyed / state.settings.daily_quota) + 1)
            ]
            state.close()

        gate_port, ref_port = free_port(), free_port()
        servers.append(subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", "--build-dir", str(build), "--state",
             str(work / "gate"), "--port", str(gate_port), "--no-access-log"],
            stdout=subprocess.DEVNULL, cwd=ROOT,
        ))  # fmt: skip
        servers.append(subprocess.Popen(
            [sys.executable, str(HERE / "reference.py"), "serve", "--db", str(db), "--state",
             str(work / "reference"), "--port", str(ref_port), "--as-of", AS_OF],
            cwd=ROOT,
        ))  # fmt: skip
        wait_for(gate_port, servers[0])
        wait_for(ref_port, servers[1])

        used = {"gate": 0, "reference": 0}

        def keyed_requests(side: str, paths: list[str]) -> list[bytes]:
            out = []
            for path in paths:
                out.append(request(path, keys[side][used[side] // 1000]))
                used[side] += 1
            return out

        results: dict[str, dict[str, tuple[list[float], float]]] = {}
        started = time.monotonic()
        for name, items in endpoints.items():
            paths = [items[i % len(items)][0] for i in range(per_variant)]
            variants = {
                "gated": (gate_port, keyed_requests("gate", paths)),
                "reference": (ref_port, keyed_requests("reference", paths)),
            }
            if items[0][1] is not None:
                static = [
                    request(f"/bench/{name}/{i % len(items)}.json") for i in range(per_variant)
                ]
                variants["ungated"] = (gate_port, static)
            for port, batch in variants.values():  # warm-up
                asyncio.run(run_batch(port, batch[:100], args.connections))
            results[name] = {v: ([], 0.0) for v in variants}
            size = math.ceil(args.requests / ROUNDS)
            for round_ in range(ROUNDS):
                if time.monotonic() - started > args.max_seconds:
                    print(f"{name}: stopped after {round_} rounds (--max-seconds)")
                    break
                for variant, (port, batch) in variants.items():
                    part = batch[100 + round_ * size : 100 + (round_ + 1) * size]
                    seconds, latencies = asyncio.run(run_batch(port, part, args.connections))
                    done, total = results[name][variant]
                    results[name][variant] = (done + latencies, total + seconds)
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(bench_dir, ignore_errors=True)

    print(
        f"{args.scale} tree, {args.connections} keep-alive connections, {args.requests} requests "
        f"per variant over {DISTINCT} distinct resources, {ROUNDS} alternating rounds"
    )
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    print(f"{'endpoint':<31}{'variant':<11}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}   ratio")
    for name, variants in results.items():
        figures = {}
        for variant, (latencies, seconds) in variants.items():
            figures[variant] = {
                "rps": len(latencies) / seconds if seconds else 0.0,
                "p50": statistics.median(latencies) * 1000,
                "p99": percentile(latencies, 0.99) * 1000,
            }
        gated = figures["gated"]["rps"]
        for variant, f in figures.items():
            ratio = ""
            if variant == "reference":
                goal = TARGETS.get(name)
                ratio = f"gated/reference {gated / f['rps']:.2f}x"
                if goal:
                    ratio += (
                        f" (target >= {goal}x: {'met' if gated / f['rps'] >= goal else 'MISSED'})"
                    )
            elif variant == "ungated":
                r = gated / f["rps"]
                ratio = f"gated/ungated {r:.2f}x (target >= {UNGATED_TARGET}x: " + (
                    "met)" if r >= UNGATED_TARGET else "MISSED)"
                )
            print(
                f"{name:<31}{variant:<11}{f['rps']:>8.0f}{f['p50']:>9.2f}{f['p99']:>9.2f}   {ratio}"
            )


if __name__ == "__main__":
    main()
