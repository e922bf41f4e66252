"""Benchmark the build at national scale and print the figures docs/performance.md records.

    python benchmarks/build.py                 # Germany-scale dataset (generated once, cached)
    python benchmarks/build.py --scale small   # a quick run

The dataset comes from `trinkwasser demo-data`, which needs the `demo` extra
(`pip install -e '.[demo]'`; `scripts/test.sh` installs it).

Every ratio compares figures measured in this one run on this machine:
build / `cp -a` of the finished tree, no-change rebuild / full build.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
AS_OF = "2026-11-23"
TRINKWASSER = [sys.executable, "-m", "generator"]


def measured(cmd: list[str], **kwargs) -> dict:
    """Run a command; return wall and CPU seconds and peak resident memory of the child."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, **kwargs)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"command failed: {' '.join(map(str, cmd))}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mib": usage.ru_maxrss / 1024,  # ru_maxrss is in KiB on Linux
    }


def tree_size(root: Path) -> tuple[int, int]:
    files = size = 0
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            files += 1
            size += os.lstat(os.path.join(dirpath, name)).st_size
    return files, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=["small", "germany"], default="germany")
    parser.add_argument(
        "--work",
        type=Path,
        default=HERE / ".work",
        help="Scratch directory (dataset cache and output trees).",
    )
    args = parser.parse_args()

    data = args.work / f"data-{args.scale}"
    if not (data / "measurements.parquet").exists() and not (data / "measurements.csv").exists():
        shutil.rmtree(data, ignore_errors=True)
        gen = measured([*TRINKWASSER, "demo-data", "--out", str(data), "--scale", args.scale])
        print(f"dataset generated in {gen['wall']:.1f} s (peak {gen['peak_mib']:.0f} MiB)")
    out, copy = args.work / "build", args.work / "build-copy"
    for path in (out, copy, args.work / "build-gate"):
        shutil.rmtree(path, ignore_errors=True)

    build_cmd = [*TRINKWASSER, "build", "--data", str(data), "--out", str(out), "--as-of", AS_OF]
    log = args.work / "build.log"
    with log.open("w") as fh:
        full = measured(build_cmd, stderr=fh)
    split = re.search(
        r"rendering the API ([\d.]+) s, the site ([\d.]+) s; writing ([\d.]+) s", log.read_text()
    )
    api_s, site_s, write_s = (float(x) for x in split.groups())
    files, size = tree_size(out)
    cp = measured(["cp", "-a", str(out), str(copy)])
    unchanged = measured([*build_cmd, "--quiet"])
    forced = measured([*build_cmd, "--quiet", "--force"])
    shutil.rmtree(copy, ignore_errors=True)

    rows = [
        ("scale", args.scale),
        ("files", f"{files:,}"),
        ("bytes", f"{size:,} ({size / 2**30:.2f} GiB)"),
        ("full build wall s", f"{full['wall']:.1f}"),
        ("full build CPU s", f"{full['cpu']:.1f}"),
        ("full build peak memory", f"{full['peak_mib']:,.0f} MiB"),
        ("  rendering the API s", f"{api_s:.1f}"),
        ("  rendering the site s", f"{site_s:.1f}"),
        ("  writing s", f"{write_s:.1f}"),
        ("site / API rendering", f"{site_s / api_s:.2f}x  (target <= 1x)"),
        ("cp -a of the tree wall s", f"{cp['wall']:.1f}"),
        ("build / cp -a", f"{full['wall'] / cp['wall']:.2f}x  (target <= 3x)"),
        ("no-change rebuild wall s", f"{unchanged['wall']:.2f}"),
        ("no-change rebuild / full", f"{unchanged['wall'] / full['wall']:.3f}x  (target <= 0.1x)"),
        ("forced rebuild, nothing changed, wall s", f"{forced['wall']:.1f}"),
        ("forced rebuild / full", f"{forced['wall'] / full['wall']:.2f}x"),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
