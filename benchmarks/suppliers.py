"""Time a daily update after several suppliers' publications and check it against a full build.

    python benchmarks/suppliers.py                              # five suppliers, national
    python benchmarks/suppliers.py --suppliers 3 --scale small  # a quick run

Builds the dataset in full, then once more with `--force` (so that a staging tree lies
beside the tree, as after any rebuild), and appends the publications of `--suppliers`
suppliers to a copy of the dataset (`build.suppliers_changed`: a new document each, and
their zones' newest samples measured again). It times the update of the tree from that
copy, then builds the copy in full into a tree of its own, from nothing, and compares the
two trees file by file, byte for byte (and the gates' inputs beside them). It prints the
update's time beside the full build's, and every file that differs or that only one tree
has: none, when the update rebuilt what changed and kept the rest right. It exits with
status 1 when a file differs or the update rendered every file.

The full build of the changed data starts once the file system has forgotten the trees
removed before (`build.FORGET_S`), as in `benchmarks/build.py`.
"""

from __future__ import annotations

import filecmp
import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("benchmark_build", HERE / "build.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

SHOWN = 20
"""How many differing files are named; the rest are counted."""


def files(root: Path) -> Iterator[str]:
    """Yield the path of every file under `root`, relative to it, with `/` between parts."""
    for folder, _dirs, names in os.walk(root):
        for name in names:
            yield Path(folder, name).relative_to(root).as_posix()


def differing(a: Path, b: Path) -> tuple[int, list[str]]:
    """Compare two trees byte for byte: return the files compared and those that differ.

    A file only one tree has differs too (named with the tree that lacks it). Sorted.
    """
    in_a, in_b = set(files(a)), set(files(b))
    found = [f"{rel} (not in {b})" for rel in in_a - in_b]
    found += [f"{rel} (not in {a})" for rel in in_b - in_a]
    found += [rel for rel in in_a & in_b if not filecmp.cmp(a / rel, b / rel, shallow=False)]
    return len(in_a | in_b), sorted(found)


def main() -> None:
    parser = bench.arguments(__doc__, "Scratch directory, shared with benchmarks/build.py.")
    parser.add_argument("--suppliers", type=int, default=5, help="Publications appended.")
    parser.add_argument(
        "--forget",
        type=float,
        metavar="SECONDS",
        help="Wait after removing the previous run's trees (default as in benchmarks/build.py).",
    )
    args = parser.parse_args()
    work = args.work.resolve()
    data = bench.dataset(work, args.scale)
    here = work / "suppliers"
    tree, reference = here / "updated", here / "full"
    forget = args.forget if args.forget is not None else bench.FORGET_S * (args.scale == "germany")
    bench.remove_trees([tree, reference], forget)

    full = bench.snapshot(bench.REPO, data, tree)
    changed = here / f"data-{args.suppliers}-suppliers"
    try:
        suppliers, zones, rows = bench.suppliers_changed(data, changed, args.suppliers)
    except ValueError as exc:
        sys.exit(str(exc))
    print(
        f"{len(suppliers)} suppliers' publications ({', '.join(map(str, suppliers))}): "
        f"{sum(zones)} zones, {rows:,} measurements appended, a new document each"
    )
    # Exits when the update rendered every file: a full build shows nothing of point 1.
    update = bench.update(bench.REPO, changed, tree / "build", here / "update.log")
    print(update["planned"])
    rebuilt = bench.measured([*bench.build_command(changed, reference / "build"), "--quiet"])

    # The tree, and the gates' inputs written beside it (`build-gate/routes.json`).
    compared, differ = 0, []
    for name in ("build", "build-gate"):
        n, found = differing(tree / name, reference / name)
        compared, differ = compared + n, differ + found
    print(
        f"full build of the dataset            {full['wall']:.1f} s wall, {full['cpu']:.1f} s CPU"
    )
    print(
        f"update after the publications        {update['wall']:.2f} s wall, "
        f"{update['cpu']:.2f} s CPU, peak {update['peak_mib']:,.0f} MiB"
    )
    print(
        f"full build of the changed dataset    {rebuilt['wall']:.1f} s wall, "
        f"{rebuilt['cpu']:.1f} s CPU"
    )
    print(
        f"update / full build                  {update['wall'] / full['wall']:.3f}x "
        f"(of the changed dataset: {update['wall'] / rebuilt['wall']:.3f}x)"
    )
    print(f"files compared byte for byte         {compared:,}, {len(differ):,} differ")
    for rel in differ[:SHOWN]:
        print(f"  differs: {rel}")
    if len(differ) > SHOWN:
        print(f"  ... and {len(differ) - SHOWN:,} more")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
