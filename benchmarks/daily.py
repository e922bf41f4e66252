"""Time the daily update again and again, alone or alternating with another checkout's code.

    python benchmarks/daily.py                          # five updates with this checkout
    python benchmarks/daily.py --runs 8 --against ../a  # alternate with checkout ../a

`benchmarks/build.py` times the rebuild after one supplier's new publication three times per
run, and from run to run that time varies by more than most changes to the update gain or lose.
This script makes a snapshot once per checkout: the full build of the dataset, then a
forced rebuild, so that the tree has a staging tree beside it as after any rebuild (the
order of `benchmarks/build.py`). For every run it puts the snapshot back under a new name
(files as hard links, the state copied) and times the same update on it: `trinkwasser
build` from the dataset after the publication (`one_supplier_changed`). With `--against`,
the two checkouts' updates alternate, each on its own snapshot, so that a slower minute of
the machine falls on both.

Nothing is removed while updates are timed: on a file system without a journal, files
made in the minutes after a removal pay for it (`build.FORGET_S`); the copies are removed
at the end. Each checkout runs its own generator with this interpreter (its packages).
"""

from __future__ import annotations

import importlib.util
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("benchmark_build", HERE / "build.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def main() -> None:
    parser = bench.arguments(
        __doc__, "Scratch directory, shared with benchmarks/build.py (the dataset)."
    )
    parser.add_argument("--runs", type=int, default=5, help="Updates per checkout.")
    parser.add_argument(
        "--against", type=Path, help="Another checkout of the generator, alternated with this one."
    )
    parser.add_argument(
        "--keep-snapshots",
        action="store_true",
        help="Use the snapshots of an earlier run (made by the same code: not checked).",
    )
    args = parser.parse_args()
    work = args.work.resolve() / "daily"
    data = bench.dataset(args.work.resolve(), args.scale)
    changed = work / "data-one-supplier"
    work.mkdir(parents=True, exist_ok=True)
    supplier, zones, rows = bench.one_supplier_changed(data, changed)
    print(f"supplier {supplier}: {zones} zones, {rows:,} measurements appended, new document")

    repos = {"this": bench.REPO}
    if args.against is not None:
        repos["against"] = args.against.resolve()
    for name, repo in repos.items():
        if not (args.keep_snapshots and (work / f"snapshot-{name}" / "build").is_dir()):
            print(f"snapshot of {name} ({repo}): a full build and a forced one")
            bench.snapshot(repo, data, work / f"snapshot-{name}")

    runs = work / "runs"
    # Copies an interrupted run left: removed, and forgotten before anything is timed.
    bench.remove_trees([runs], bench.FORGET_S * (args.scale == "germany"))
    times: dict[str, list[float]] = {name: [] for name in repos}
    try:
        for i in range(args.runs):
            for name, repo in repos.items():
                out = bench.restored(work / f"snapshot-{name}", runs / f"{name}-{i}")
                got = bench.update(repo, changed, out, runs / f"{name}-{i}.log")
                times[name].append(got["wall"])
                if i == 0:
                    print(f"{name:<8} {got['planned']}")
                stages = " / ".join(
                    f"{got[k]:.1f}" for k in ("load", "derive", "api", "site", "write")
                )
                print(
                    f"{name:<8} run {i + 1}: {got['wall']:.2f} s wall, {got['cpu']:.2f} s CPU, "
                    f"peak {got['peak_mib']:,.0f} MiB; load / derive / API / site / write "
                    f"{stages} s"
                )
    finally:
        print("removing the copies (a minute or two nationally)")
        subprocess.run(["rm", "-rf", str(runs)], check=False)
    for name, walls in times.items():
        if walls:
            print(
                f"{name:<8} mean {statistics.fmean(walls):.2f} s, median "
                f"{statistics.median(walls):.2f} s, {min(walls):.2f} to {max(walls):.2f} s"
            )
    if "against" in times and times["against"]:
        pairs = [a - b for a, b in zip(times["this"], times["against"], strict=False)]
        print(f"this - against, mean of {len(pairs)} pairs: {statistics.fmean(pairs):+.2f} s")


if __name__ == "__main__":
    sys.exit(main())
